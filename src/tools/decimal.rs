//! Whole numbers in options, as gnulib's `xdectoimax`/`xdectoumax` read them (`fold -w`,
//! `nl -v`): blanks first, a sign, decimal digits, nothing after; and their messages.

/// `text` as a number in `min..=max`, or GNU's message (`what: ‘text’[: why]`).
/// `signed` allows a leading `-` (as `strtoimax`; `strtoumax` refuses it).
pub(crate) fn read(text: &str, min: i128, max: i128, signed: bool, what: &str) -> Result<i128, String> {
    let refused = |why: &str| format!("{what}: ‘{text}’{why}");
    let t = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') if signed => (true, &t[1..]),
        Some(b'-') => return Err(refused("")),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refused(""));
    }
    let too_large = ": Value too large for defined data type";
    let mut n: i128 = 0;
    for b in digits.bytes() {
        n = n * 10 + i128::from(b - b'0');
        if n > i128::from(u64::MAX) + 1 {
            return Err(refused(too_large));
        }
    }
    let n = if neg { -n } else { n };
    let (lo, hi) = if signed { (i128::from(i64::MIN), i128::from(i64::MAX)) } else { (0, i128::from(u64::MAX)) };
    if n < lo || n > hi {
        return Err(refused(too_large));
    }
    if n < min || n > max {
        let far = n > i128::from(i32::MAX / 2) || n < i128::from(i32::MIN / 2);
        return Err(refused(if far { too_large } else { ": Numerical result out of range" }));
    }
    Ok(n)
}
