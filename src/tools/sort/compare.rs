//! How `sort` orders two lines: its keys in turn, each by its kind (text, `-n`, `-g`,
//! `-h`, `-M`, `-V`), then the whole lines as bytes unless `-s` or `-u`. Text compares
//! as bytes, which is `C.UTF-8`'s collation.

use super::key::{blank, field, Ignore, Key, Sep};
use crate::base::vercmp::filevercmp as version;
use std::borrow::Cow;
use std::cmp::Ordering;

/// The comparison a run of sort uses.
pub(super) struct Order {
    pub keys: Vec<Key>,
    pub sep: Sep,
    /// `-s` or `-u`: no last-resort comparison.
    pub keys_only: bool,
    /// `-r` for the last-resort comparison.
    pub reverse: bool,
}

impl Order {
    /// How line `a` compares with line `b` (both without their ends).
    pub(super) fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        if !self.keys.is_empty() {
            for key in &self.keys {
                let d = compare_key(key, field(a, key, self.sep), field(b, key, self.sep));
                if d != Ordering::Equal {
                    return if key.reverse { d.reverse() } else { d };
                }
            }
            if self.keys_only {
                return Ordering::Equal;
            }
        }
        let d = a.cmp(b);
        if self.reverse {
            d.reverse()
        } else {
            d
        }
    }
}

/// The bytes of a key its comparison sees: ignored ones dropped, folded to upper case.
fn transform<'k>(key: &Key, text: &'k [u8]) -> Cow<'k, [u8]> {
    if key.ignore == Ignore::None && !key.fold {
        return Cow::Borrowed(text);
    }
    let kept = text.iter().filter(|&&b| match key.ignore {
        Ignore::None => true,
        Ignore::NonPrinting => (0x20..0x7f).contains(&b),
        Ignore::NonDictionary => b.is_ascii_alphanumeric() || blank(b),
    });
    Cow::Owned(kept.map(|&b| if key.fold { b.to_ascii_uppercase() } else { b }).collect())
}

fn compare_key(key: &Key, a: &[u8], b: &[u8]) -> Ordering {
    let (a, b) = (transform(key, a), transform(key, b));
    let (a, b) = (&a[..], &b[..]);
    if key.numeric {
        numeric(skip_blanks(a), skip_blanks(b))
    } else if key.general {
        general(a, b)
    } else if key.human {
        let (a, b) = (skip_blanks(a), skip_blanks(b));
        unit_order(a).cmp(&unit_order(b)).then_with(|| numeric(a, b))
    } else if key.month {
        month(a).cmp(&month(b))
    } else if key.random {
        hash(a).cmp(&hash(b))
    } else if key.version {
        version(a, b)
    } else {
        a.cmp(b)
    }
}

fn skip_blanks(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|&&b| blank(b)).count();
    &s[n..]
}

/// The byte at `i`, or NUL past the end, as C strings read.
fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

/// The thousands separator sort's number reader skips: `C.UTF-8` has none, and GNU's
/// stand-in for none, `CHAR_MAX + 1`, matches the byte 0x80.
const THOUSANDS: u8 = 0x80;

/// gnulib's `strnumcmp`: two numbers (`-?digits[.digits]`) compared as text, without
/// converting them.
pub(super) fn numeric(a: &[u8], b: &[u8]) -> Ordering {
    let (mut i, mut j) = (0, 0);
    let (mut ca, mut cb) = (at(a, 0), at(b, 0));
    let digit = |c: u8| c.is_ascii_digit();
    let skip_zeros = |s: &[u8], i: &mut usize, c: &mut u8| {
        while *c == b'0' || *c == THOUSANDS {
            *i += 1;
            *c = at(s, *i);
        }
    };
    let skip_fraction_zeros = |s: &[u8], i: &mut usize, c: &mut u8| {
        if *c == b'.' {
            loop {
                *i += 1;
                *c = at(s, *i);
                if *c != b'0' {
                    break;
                }
            }
        }
    };
    let next = |s: &[u8], i: &mut usize, c: &mut u8| loop {
        *i += 1;
        *c = at(s, *i);
        if *c != THOUSANDS {
            break;
        }
    };
    let neg_a = ca == b'-';
    let neg_b = cb == b'-';
    if neg_a && !neg_b {
        i += 1;
        ca = at(a, i);
        skip_zeros(a, &mut i, &mut ca);
        skip_fraction_zeros(a, &mut i, &mut ca);
        if digit(ca) {
            return Ordering::Less;
        }
        skip_zeros(b, &mut j, &mut cb);
        skip_fraction_zeros(b, &mut j, &mut cb);
        return if digit(cb) { Ordering::Less } else { Ordering::Equal };
    }
    if neg_b && !neg_a {
        j += 1;
        cb = at(b, j);
        skip_zeros(b, &mut j, &mut cb);
        skip_fraction_zeros(b, &mut j, &mut cb);
        if digit(cb) {
            return Ordering::Greater;
        }
        skip_zeros(a, &mut i, &mut ca);
        skip_fraction_zeros(a, &mut i, &mut ca);
        return if digit(ca) { Ordering::Greater } else { Ordering::Equal };
    }
    if neg_a {
        i += 1;
        ca = at(a, i);
        j += 1;
        cb = at(b, j);
    }
    skip_zeros(a, &mut i, &mut ca);
    skip_zeros(b, &mut j, &mut cb);
    while ca == cb && digit(ca) {
        next(a, &mut i, &mut ca);
        next(b, &mut j, &mut cb);
    }
    let d = if (ca == b'.' && !digit(cb)) || (cb == b'.' && !digit(ca)) {
        fraction(&a[i.min(a.len())..], &b[j.min(b.len())..])
    } else {
        let tmp = (ca as i32 - cb as i32).cmp(&0);
        let (mut la, mut lb) = (0usize, 0usize);
        while digit(ca) {
            la += 1;
            next(a, &mut i, &mut ca);
        }
        while digit(cb) {
            lb += 1;
            next(b, &mut j, &mut cb);
        }
        if la != lb {
            la.cmp(&lb)
        } else if la == 0 {
            Ordering::Equal
        } else {
            tmp
        }
    };
    if neg_a {
        d.reverse()
    } else {
        d
    }
}

/// gnulib's `fraccompare`: the fractions at the starts of `a` and `b`.
fn fraction(a: &[u8], b: &[u8]) -> Ordering {
    let digit = |c: u8| c.is_ascii_digit();
    let trailing = |s: &[u8], mut i: usize| {
        while at(s, i) == b'0' {
            i += 1;
        }
        digit(at(s, i))
    };
    if at(a, 0) == b'.' && at(b, 0) == b'.' {
        let mut i = 0;
        loop {
            i += 1;
            let (x, y) = (at(a, i), at(b, i));
            if x != y {
                break;
            }
            if !digit(x) {
                return Ordering::Equal;
            }
        }
        let (x, y) = (at(a, i), at(b, i));
        if digit(x) && digit(y) {
            return x.cmp(&y);
        }
        if digit(x) {
            return if trailing(a, i) { Ordering::Greater } else { Ordering::Equal };
        }
        if digit(y) {
            return if trailing(b, i) { Ordering::Less } else { Ordering::Equal };
        }
        Ordering::Equal
    } else if at(a, 0) == b'.' {
        if trailing(a, 1) {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    } else if at(b, 0) == b'.' {
        if trailing(b, 1) {
            Ordering::Less
        } else {
            Ordering::Equal
        }
    } else {
        Ordering::Equal
    }
}

/// `-h`'s order of magnitude of a number's unit suffix (K, M, G, …), negative for
/// negative numbers, 0 for zero.
fn unit_order(s: &[u8]) -> i32 {
    let minus = at(s, 0) == b'-';
    let mut p = usize::from(minus);
    let mut max = 0u8;
    let mut ends_with_sep = false;
    while at(s, p).is_ascii_digit() {
        max = max.max(at(s, p));
        p += 1;
        ends_with_sep = at(s, p) == THOUSANDS;
        if ends_with_sep {
            p += 1;
        }
    }
    if ends_with_sep {
        p -= 1;
    } else if at(s, p) == b'.' {
        p += 1;
        while at(s, p).is_ascii_digit() {
            max = max.max(at(s, p));
            p += 1;
        }
    }
    if max <= b'0' {
        return 0;
    }
    let order = match at(s, p) {
        b'K' | b'k' => 1,
        b'M' => 2,
        b'G' => 3,
        b'T' => 4,
        b'P' => 5,
        b'E' => 6,
        b'Z' => 7,
        b'Y' => 8,
        _ => 0,
    };
    if minus {
        -order
    } else {
        order
    }
}

/// `-M`: 1–12 for a month's abbreviation (after blanks, any case), 0 for anything else.
fn month(s: &[u8]) -> usize {
    let s = skip_blanks(s);
    let head: Vec<u8> = s.iter().take(3).map(u8::to_ascii_uppercase).collect();
    const MONTHS: [&[u8]; 12] =
        [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"];
    MONTHS.iter().position(|m| *m == &head[..]).map_or(0, |i| i + 1)
}

/// `-R`'s stand-in: a hash of the key, so that equal keys sort together.
fn hash(s: &[u8]) -> u64 {
    s.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// `-g`: the numbers `strtold` reads at the keys' starts; what it cannot read sorts
/// first, then NaNs, then numbers.
fn general(a: &[u8], b: &[u8]) -> Ordering {
    match (strtod(a), strtod(b)) {
        (None, None) => Ordering::Equal,
        (None, _) => Ordering::Less,
        (_, None) => Ordering::Greater,
        (Some(x), Some(y)) => match x.partial_cmp(&y) {
            Some(o) => o,
            None if x.is_nan() && y.is_nan() => x.is_sign_negative().cmp(&y.is_sign_negative()),
            None if x.is_nan() => Ordering::Less,
            None => Ordering::Greater,
        },
    }
}

/// The number C's `strtod` reads at the start of `s`, or `None` where it reads nothing.
fn strtod(s: &[u8]) -> Option<f64> {
    let mut i = s.iter().take_while(|&&b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')).count();
    let negative = at(s, i) == b'-';
    if matches!(at(s, i), b'-' | b'+') {
        i += 1;
    }
    let sign = if negative { -1.0 } else { 1.0 };
    let rest = &s[i.min(s.len())..];
    let starts = |w: &[u8]| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w);
    if starts(b"inf") {
        return Some(sign * f64::INFINITY);
    }
    if starts(b"nan") {
        return Some(if negative { -f64::NAN } else { f64::NAN });
    }
    if starts(b"0x")
        && (rest.get(2).is_some_and(u8::is_ascii_hexdigit) || (at(rest, 2) == b'.' && at(rest, 3).is_ascii_hexdigit()))
    {
        return Some(sign * hex(&rest[2..]));
    }
    let digits = |from: usize| rest[from.min(rest.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
    let int = digits(0);
    let mut end = int;
    let mut frac = 0;
    if at(rest, end) == b'.' {
        frac = digits(end + 1);
        if int + frac > 0 {
            end += 1 + frac;
        }
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(at(rest, end), b'e' | b'E') {
        let sign_len = usize::from(matches!(at(rest, end + 1), b'+' | b'-'));
        let exp = digits(end + 1 + sign_len);
        if exp > 0 {
            end += 1 + sign_len + exp;
        }
    }
    let text = std::str::from_utf8(&rest[..end]).ok()?;
    let text = if text.starts_with('.') { format!("0{text}") } else { text.to_string() };
    Some(sign * text.parse::<f64>().unwrap_or(0.0))
}

/// A hexadecimal float's value (after `0x`): digits, a point, `p` and a binary exponent.
fn hex(s: &[u8]) -> f64 {
    let mut v = 0.0f64;
    let mut scale = 0i32;
    let mut i = 0;
    let mut point = false;
    loop {
        let c = at(s, i);
        if let Some(d) = (c as char).to_digit(16) {
            v = v * 16.0 + f64::from(d);
            if point {
                scale -= 4;
            }
        } else if c == b'.' && !point {
            point = true;
        } else {
            break;
        }
        i += 1;
    }
    if matches!(at(s, i), b'p' | b'P') {
        let neg = at(s, i + 1) == b'-';
        let j = i + 1 + usize::from(matches!(at(s, i + 1), b'+' | b'-'));
        let n = s[j.min(s.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
        if n > 0 {
            let e: i32 = std::str::from_utf8(&s[j..j + n]).ok().and_then(|t| t.parse().ok()).unwrap_or(i32::MAX / 2);
            scale = scale.saturating_add(if neg { -e } else { e });
        }
    }
    v * 2f64.powi(scale)
}
