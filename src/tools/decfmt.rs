//! Exact decimal numbers and C's `printf` `%f`, `%e` and `%g` of them (`seq`).

/// A decimal number: `m / 10^s`, negative when `neg` (`-0` too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dec {
    pub neg: bool,
    pub m: u128,
    pub s: u32,
}

impl Dec {
    pub(crate) fn int(n: u128) -> Dec {
        Dec { neg: false, m: n, s: 0 }
    }

    /// A number as `strtold` reads one written in decimal (sign, digits, a point, an
    /// exponent), the whole of `text`; `None` otherwise (or when too long to hold).
    pub(crate) fn parse(text: &str) -> Option<Dec> {
        let (neg, t) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exp) = match t.find(['e', 'E']) {
            Some(e) => (&t[..e], Some(&t[e + 1..])),
            None => (t, None),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
            return None;
        }
        let mut exp: i64 = match exp {
            None => 0,
            Some(e) => {
                let body = e.strip_prefix(['+', '-']).unwrap_or(e);
                if body.is_empty() || !digits(body) {
                    return None;
                }
                e.parse().ok()?
            }
        };
        let all = format!("{int}{frac}");
        let all = all.trim_start_matches('0');
        exp -= frac.len() as i64;
        let mut m: u128 = if all.is_empty() { 0 } else { all.parse().ok()? };
        while exp > 0 {
            m = m.checked_mul(10)?;
            exp -= 1;
        }
        let s = u32::try_from(-exp).ok().filter(|&s| s <= 36)?;
        Some(Dec { neg, m, s })
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.m == 0
    }

    /// Both at one scale: (a's mantissa, b's mantissa, scale).
    fn aligned(&self, other: &Dec) -> (u128, u128, u32) {
        let s = self.s.max(other.s);
        let up = |d: &Dec| d.m.saturating_mul(10u128.saturating_pow(s - d.s));
        (up(self), up(other), s)
    }

    /// As a signed value at one scale with `other`.
    fn signed(&self, other: &Dec) -> (i128, i128, u32) {
        let (a, b, s) = self.aligned(other);
        let sign = |neg: bool, v: u128| if neg { -(v as i128) } else { v as i128 };
        (sign(self.neg, a), sign(other.neg, b), s)
    }

    pub(crate) fn add(&self, other: &Dec) -> Dec {
        let (a, b, s) = self.signed(other);
        let v = a.saturating_add(b);
        Dec { neg: v < 0, m: v.unsigned_abs(), s }
    }

    pub(crate) fn times(&self, n: u128) -> Dec {
        Dec { neg: self.neg, m: self.m.saturating_mul(n), s: self.s }
    }

    pub(crate) fn lt(&self, other: &Dec) -> bool {
        let (a, b, _) = self.signed(other);
        a < b
    }

    pub(crate) fn eq(&self, other: &Dec) -> bool {
        let (a, b, _) = self.signed(other);
        a == b
    }
}

/// A `%` directive: flags, width, precision, conversion (`f`, `e`, `g`, upper or lower).
#[derive(Debug, Clone, Default)]
pub(crate) struct Spec {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alt: bool,
    pub zero: bool,
    pub width: usize,
    pub precision: Option<usize>,
    pub conv: char,
}

/// `digits` (most significant first) rounded to their first `keep`, half to even (the
/// numbers are exact): the kept digits, and whether rounding carried into a new digit.
fn round(digits: &[u8], keep: usize) -> (Vec<u8>, bool) {
    if keep >= digits.len() {
        let mut d = digits.to_vec();
        d.resize(keep, 0);
        return (d, false);
    }
    let mut d = digits[..keep].to_vec();
    let next = digits[keep];
    let rest = digits[keep + 1..].iter().any(|&x| x != 0);
    let odd = d.last().is_some_and(|x| x % 2 == 1);
    if next > 5 || next == 5 && (rest || odd) {
        for x in d.iter_mut().rev() {
            if *x == 9 {
                *x = 0;
            } else {
                *x += 1;
                return (d, false);
            }
        }
        d.insert(0, 1);
        return (d, true);
    }
    (d, false)
}

fn text(digits: &[u8]) -> String {
    digits.iter().map(|&d| char::from(b'0' + d)).collect()
}

/// `m / 10^s` with `p` decimals.
fn fixed(m: u128, s: u32, p: usize, alt: bool) -> String {
    let mut digits: Vec<u8> = m.to_string().bytes().map(|b| b - b'0').collect();
    let s = s as usize;
    while digits.len() <= s {
        digits.insert(0, 0);
    }
    let int_len = digits.len() - s;
    let (d, carried) = round(&digits, int_len + p);
    let int_len = int_len + usize::from(carried);
    let mut out = text(&d[..int_len]);
    if p > 0 || alt {
        out.push('.');
    }
    out.push_str(&text(&d[int_len..]));
    out
}

/// `m / 10^s` as `d.ddde±XX` with `p` decimals, and the exponent.
fn sci(m: u128, s: u32, p: usize, alt: bool, upper: bool) -> (String, i64) {
    let digits: Vec<u8> = m.to_string().bytes().map(|b| b - b'0').collect();
    let mut exp = if m == 0 { 0 } else { digits.len() as i64 - 1 - i64::from(s) };
    let (d, carried) = round(&digits, p + 1);
    if carried && m != 0 {
        exp += 1;
    }
    let mut out = text(&d[..1]);
    if p > 0 || alt {
        out.push('.');
    }
    out.push_str(&text(&d[1..p + 1]));
    out.push(if upper { 'E' } else { 'e' });
    out.push(if exp < 0 { '-' } else { '+' });
    out.push_str(&format!("{:02}", exp.abs()));
    (out, exp)
}

/// `x` as C's `printf` prints it with `spec`.
pub(crate) fn format(x: &Dec, spec: &Spec) -> String {
    let upper = spec.conv.is_ascii_uppercase();
    let body = match spec.conv.to_ascii_lowercase() {
        'f' => fixed(x.m, x.s, spec.precision.unwrap_or(6), spec.alt),
        'e' => sci(x.m, x.s, spec.precision.unwrap_or(6), spec.alt, upper).0,
        _ => {
            let p = spec.precision.unwrap_or(6).max(1);
            let (_, exp) = sci(x.m, x.s, p - 1, false, upper);
            let mut out = if exp < -4 || exp >= p as i64 {
                sci(x.m, x.s, p - 1, spec.alt, upper).0
            } else {
                fixed(x.m, x.s, (p as i64 - 1 - exp) as usize, spec.alt)
            };
            if !spec.alt {
                let (num, e) = match out.find(['e', 'E']) {
                    Some(i) => (out[..i].to_string(), out[i..].to_string()),
                    None => (out.clone(), String::new()),
                };
                let num = if num.contains('.') { num.trim_end_matches('0').trim_end_matches('.') } else { &num };
                out = format!("{num}{e}");
            }
            out
        }
    };
    let sign = if x.neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let len = sign.len() + body.len();
    let pad = spec.width.saturating_sub(len);
    if spec.left {
        format!("{sign}{body}{}", " ".repeat(pad))
    } else if spec.zero {
        format!("{sign}{}{body}", "0".repeat(pad))
    } else {
        format!("{}{sign}{body}", " ".repeat(pad))
    }
}
