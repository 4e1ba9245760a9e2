//! `printf` and `sprintf`: C's conversions as gawk does them, and number output.

use super::value::{num_to_str, Value};

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
