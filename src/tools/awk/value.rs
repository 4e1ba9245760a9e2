//! awk's values: numbers, strings, and strings from input that look like numbers
//! ("strnums"), with awk's conversions between them, and how they print: `printf` and
//! `sprintf`, C's conversions as gawk does them (a value prints through a format, and a
//! number becomes a string through one, so the two are one module).

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
    sprintf(fmt, &[Value::Num(n)], fmt).0
}

// printf and sprintf: how values print through a format.
/// `fmt` applied to `args` (numbers as strings through `convfmt`), or gawk's fatal
/// message when the arguments run out.
pub(crate) fn format(fmt: &str, args: &[Value], convfmt: &str) -> Result<String, String> {
    let c: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let (mut i, mut next) = (0, 0);
    while i < c.len() {
        if c[i] != '%' {
            out.push(c[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let (mut minus, mut plus, mut space, mut alt, mut zero) = (false, false, false, false, false);
        while let Some(&f) = c.get(i) {
            match f {
                '-' => minus = true,
                '+' => plus = true,
                ' ' => space = true,
                '#' => alt = true,
                '0' => zero = true,
                '\'' => {}
                _ => break,
            }
            i += 1;
        }
        let take = |i: usize, next: &mut usize| -> Result<Value, String> {
            let v = args.get(*next).cloned().ok_or_else(|| ran_out(fmt, i))?;
            *next += 1;
            Ok(v)
        };
        let mut width = 0usize;
        if c.get(i) == Some(&'*') {
            let w = take(i, &mut next)?.num();
            if w < 0.0 {
                minus = true;
            }
            width = w.abs() as usize;
            i += 1;
        } else {
            while let Some(d) = c.get(i).and_then(|c| c.to_digit(10)) {
                width = width * 10 + d as usize;
                i += 1;
            }
        }
        let mut prec: Option<usize> = None;
        if c.get(i) == Some(&'.') {
            i += 1;
            if c.get(i) == Some(&'*') {
                let p = take(i, &mut next)?.num();
                prec = (p >= 0.0).then_some(p as usize);
                i += 1;
            } else {
                let mut p = 0;
                while let Some(d) = c.get(i).and_then(|c| c.to_digit(10)) {
                    p = p * 10 + d as usize;
                    i += 1;
                }
                prec = Some(p);
            }
        }
        while matches!(c.get(i), Some('h' | 'l' | 'L' | 'q' | 'j' | 'z' | 't'))
            && c.get(i + 1).is_some_and(|x| "diouxXeEfFgGcs".contains(*x))
        {
            i += 1;
        }
        let Some(&conv) = c.get(i) else {
            out.extend(&c[start..]);
            break;
        };
        i += 1;
        let (body, numeric) = match conv {
            '%' => {
                out.push('%');
                continue;
            }
            'd' | 'i' => {
                let v = take(i - 1, &mut next)?.num();
                if !v.is_finite() {
                    (float_special(v, plus, space), false)
                } else {
                    let v = v.trunc();
                    let mut digits = format!("{:.0}", v.abs());
                    if prec == Some(0) && v == 0.0 {
                        digits.clear();
                    }
                    if let Some(p) = prec {
                        while digits.len() < p {
                            digits.insert(0, '0');
                        }
                    }
                    (sign(v < 0.0, plus, space) + &digits, prec.is_none())
                }
            }
            'o' | 'x' | 'X' | 'u' => {
                let v = take(i - 1, &mut next)?.num().trunc();
                let u: u128 = if v < 0.0 { (v as i64) as u64 as u128 } else { v.min(u128::MAX as f64) as u128 };
                let mut digits = match conv {
                    'o' => format!("{u:o}"),
                    'x' => format!("{u:x}"),
                    'X' => format!("{u:X}"),
                    _ => format!("{u}"),
                };
                if prec == Some(0) && u == 0 {
                    digits.clear();
                }
                if let Some(p) = prec {
                    while digits.len() < p {
                        digits.insert(0, '0');
                    }
                }
                if alt && conv == 'o' && !digits.starts_with('0') {
                    digits.insert(0, '0');
                }
                if alt && u != 0 && (conv == 'x' || conv == 'X') {
                    digits.insert_str(0, if conv == 'x' { "0x" } else { "0X" });
                }
                (digits, prec.is_none())
            }
            'c' => {
                let v = take(i - 1, &mut next)?;
                let s = match v {
                    Value::Num(n) | Value::StrNum(_, n) => {
                        char::from_u32(n as u32).map(String::from).unwrap_or_default()
                    }
                    v => v.text(convfmt).chars().next().map(String::from).unwrap_or_default(),
                };
                (s, false)
            }
            's' => {
                let v = take(i - 1, &mut next)?;
                let s = v.text(convfmt);
                (
                    match prec {
                        Some(p) => s.chars().take(p).collect(),
                        None => s.to_string(),
                    },
                    false,
                )
            }
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                let v = take(i - 1, &mut next)?.num();
                if !v.is_finite() {
                    let s = float_special(v, plus, space);
                    (if conv.is_ascii_uppercase() { s.to_uppercase() } else { s }, false)
                } else {
                    let p = prec.unwrap_or(6);
                    let body = match conv.to_ascii_lowercase() {
                        'e' => fmt_e(v.abs(), p, alt),
                        'f' => fmt_f(v.abs(), p, alt),
                        _ => fmt_g(v.abs(), p, alt),
                    };
                    let body = if conv.is_ascii_uppercase() { body.to_uppercase() } else { body };
                    (
                        sign(v.is_sign_negative() && v != 0.0 || (v == 0.0 && v.is_sign_negative()), plus, space)
                            + &body,
                        true,
                    )
                }
            }
            other => {
                out.extend(&c[start..i - 1]);
                out.push(other);
                continue;
            }
        };
        let len = body.chars().count();
        if len >= width {
            out.push_str(&body);
        } else if minus {
            out.push_str(&body);
            out.extend(std::iter::repeat_n(' ', width - len));
        } else if zero && numeric {
            let pre = body.chars().take_while(|c| "+- ".contains(*c)).count()
                + if body.get(1..2).is_some_and(|x| x == "x" || x == "X") && body.starts_with('0') { 2 } else { 0 };
            out.push_str(&body[..pre]);
            out.extend(std::iter::repeat_n('0', width - len));
            out.push_str(&body[pre..]);
        } else {
            out.extend(std::iter::repeat_n(' ', width - len));
            out.push_str(&body);
        }
    }
    Ok(out)
}

/// gawk's message when `fmt` needs more arguments than it has.
fn ran_out(fmt: &str, at: usize) -> String {
    format!("not enough arguments to satisfy format string\n\t`{fmt}'\n\t{}^ ran out for this one", " ".repeat(at))
}

fn sign(negative: bool, plus: bool, space: bool) -> String {
    if negative {
        "-"
    } else if plus {
        "+"
    } else if space {
        " "
    } else {
        ""
    }
    .into()
}

fn float_special(v: f64, plus: bool, space: bool) -> String {
    let neg = v.is_sign_negative();
    let s = if v.is_nan() { "nan" } else { "inf" };
    sign(neg, plus || v.is_nan(), space) + s
}

/// `%e` of a non-negative number.
pub(crate) fn fmt_e(v: f64, prec: usize, alt: bool) -> String {
    let s = format!("{v:.prec$e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let dot = if alt && prec == 0 { "." } else { "" };
    format!("{m}{dot}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

fn fmt_f(v: f64, prec: usize, alt: bool) -> String {
    let dot = if alt && prec == 0 { "." } else { "" };
    format!("{v:.prec$}{dot}")
}

/// `%g` of a non-negative number.
pub(crate) fn fmt_g(v: f64, prec: usize, alt: bool) -> String {
    let p = prec.max(1);
    let x = if v == 0.0 {
        0
    } else {
        let s = format!("{:.*e}", p - 1, v);
        s.split_once('e').map_or(0, |(_, e)| e.parse::<i32>().unwrap_or(0))
    };
    let mut s =
        if (p as i32) > x && x >= -4 { fmt_f(v, (p as i32 - 1 - x) as usize, alt) } else { fmt_e(v, p - 1, alt) };
    if !alt {
        let (m, e) = match s.find('e') {
            Some(k) => (s[..k].to_string(), s[k..].to_string()),
            None => (s.clone(), String::new()),
        };
        let m = if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.').to_string() } else { m };
        s = m + &e;
    }
    s
}

/// `sprintf(fmt, args)` for number output (`OFMT`, `CONVFMT`): the text, whole.
pub(crate) fn sprintf(fmt: &str, args: &[Value], convfmt: &str) -> (String, bool) {
    match format(fmt, args, convfmt) {
        Ok(s) => (s, true),
        Err(_) => (num_to_str(args.first().map_or(0.0, Value::num), "%.6g"), false),
    }
}
