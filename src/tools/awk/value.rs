//! awk's values: numbers, strings, and strings from input that look like numbers
//! ("strnums"), with awk's conversions between them.

use std::rc::Rc;

#[derive(Debug, Clone)]
pub(crate) enum Value {
    /// Never assigned: both "" and 0.
    Uninit,
    Num(f64),
    Str(Rc<str>),
    /// Input that looks like a number: compares as one.
    StrNum(Rc<str>, f64),
}

impl Value {
    pub(crate) fn str(s: impl Into<Rc<str>>) -> Value {
        Value::Str(s.into())
    }

    /// A value from input (fields, `getline`, `-v`): a strnum when it looks numeric.
    pub(crate) fn input(s: &str) -> Value {
        match looks_numeric(s) {
            Some(n) => Value::StrNum(s.into(), n),
            None => Value::Str(s.into()),
        }
    }

    pub(crate) fn num(&self) -> f64 {
        match self {
            Value::Uninit => 0.0,
            Value::Num(n) | Value::StrNum(_, n) => *n,
            Value::Str(s) => to_num(s),
        }
    }

    /// Its text, numbers formatted with `convfmt`.
    pub(crate) fn text(&self, convfmt: &str) -> Rc<str> {
        match self {
            Value::Uninit => "".into(),
            Value::Num(n) => num_to_str(*n, convfmt).into(),
            Value::Str(s) | Value::StrNum(s, _) => s.clone(),
        }
    }

    pub(crate) fn truthy(&self) -> bool {
        match self {
            Value::Uninit => false,
            Value::Num(n) | Value::StrNum(_, n) => *n != 0.0,
            Value::Str(s) => !s.is_empty(),
        }
    }

    /// Whether comparisons take it as a number.
    pub(crate) fn numeric(&self) -> bool {
        !matches!(self, Value::Str(_))
    }
}

/// awk's conversion of a string to a number: the longest leading number (after blanks),
/// 0 when there is none.
pub(crate) fn to_num(s: &str) -> f64 {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\u{b}', '\u{c}']);
    let (sign, rest) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if rest.len() >= 3 && t.len() > rest.len() {
        let w = rest[..3].to_ascii_lowercase();
        if w == "inf" {
            return sign * f64::INFINITY;
        }
        if w == "nan" {
            return if sign < 0.0 { -f64::NAN } else { f64::NAN };
        }
    }
    let b = rest.as_bytes();
    if !b.first().is_some_and(|c| c.is_ascii_digit() || (*c == b'.' && b.get(1).is_some_and(u8::is_ascii_digit))) {
        return 0.0;
    }
    if b.len() > 1 && b[0] == b'0' && (b[1] | 0x20) == b'x' {
        return 0.0;
    }
    sign * super::lex::number(rest).0
}

/// The number `s` is, when all of it (but surrounding blanks) is one.
pub(crate) fn looks_numeric(s: &str) -> Option<f64> {
    let t = s.trim_matches([' ', '\t', '\n', '\r', '\u{b}', '\u{c}']);
    let rest = t.strip_prefix(['-', '+']).unwrap_or(t);
    let b = rest.as_bytes();
    if b.is_empty() {
        return None;
    }
    if rest.len() == 3 && t.len() > 3 && matches!(rest.to_ascii_lowercase().as_str(), "inf" | "nan") {
        return Some(to_num(t));
    }
    if !(b[0].is_ascii_digit() || b[0] == b'.') || (b.len() > 1 && b[0] == b'0' && (b[1] | 0x20) == b'x') {
        return None;
    }
    let (_, len) = super::lex::number(rest);
    (len == rest.len() && b.iter().any(u8::is_ascii_digit)).then(|| to_num(t))
}

/// A number as awk prints it: integers whole, others through `fmt` (`CONVFMT`, `OFMT`).
pub(crate) fn num_to_str(n: f64, fmt: &str) -> String {
    if n.is_nan() {
        return if n.is_sign_negative() { "-nan" } else { "+nan" }.into();
    }
    if n.is_infinite() {
        return if n < 0.0 { "-inf" } else { "+inf" }.into();
    }
    if n == n.trunc() {
        if n == 0.0 {
            return "0".into();
        }
        if n.abs() < 1e18 {
            return format!("{}", n as i64);
        }
        return format!("{n:.0}");
    }
    super::format::sprintf(fmt, &[Value::Num(n)], fmt).0
}
