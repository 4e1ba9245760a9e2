//! The values find's tests take: `-size`'s, the `+N`/`-N`/`N` of `-links` and the times,
//! and `-newermt`'s date.

use super::{no, Expr};
use crate::commands::Unsupported;

/// `-size`'s value: `+`/`-`, a count, and a unit (`c`, `w`, `b` the default, `k`, `M`, `G`).
pub(super) fn size(v: &str) -> Result<Expr, Unsupported> {
    let (order, rest) = match v.as_bytes().first() {
        Some(b'+') => (std::cmp::Ordering::Greater, &v[1..]),
        Some(b'-') => (std::cmp::Ordering::Less, &v[1..]),
        _ => (std::cmp::Ordering::Equal, v),
    };
    let (digits, unit) = match rest.as_bytes().last() {
        Some(b'c') => (&rest[..rest.len() - 1], 1),
        Some(b'w') => (&rest[..rest.len() - 1], 2),
        Some(b'b') => (&rest[..rest.len() - 1], 512),
        Some(b'k') => (&rest[..rest.len() - 1], 1024),
        Some(b'M') => (&rest[..rest.len() - 1], 1 << 20),
        Some(b'G') => (&rest[..rest.len() - 1], 1 << 30),
        _ => (rest, 512),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(no("an unusual -size"));
    }
    Ok(Expr::Size(order, digits.parse().map_err(|_| no("an unusual -size"))?, unit))
}

/// `+N`, `-N` or `N`: the comparison and the number.
pub(super) fn compared(v: &str) -> Result<(std::cmp::Ordering, u64), Unsupported> {
    let (order, digits) = match v.as_bytes().first() {
        Some(b'+') => (std::cmp::Ordering::Greater, &v[1..]),
        Some(b'-') => (std::cmp::Ordering::Less, &v[1..]),
        _ => (std::cmp::Ordering::Equal, v),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(no("an unusual number"));
    }
    Ok((order, digits.parse().map_err(|_| no("an unusual number"))?))
}

/// `-newermt`'s date, read as UTC: `YYYY-MM-DD`, then optionally ` HH:MM` and `:SS`.
pub(super) fn date_ms(v: &str) -> Option<f64> {
    let (date, time) = v.split_once([' ', 'T']).unwrap_or((v, "00:00"));
    let num =
        |s: &str| if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) { s.parse::<i64>().ok() } else { None };
    let d: Vec<i64> = date.split('-').map(num).collect::<Option<_>>()?;
    let t: Vec<i64> = time.split(':').map(num).collect::<Option<_>>()?;
    let ([y, m, day], [h, min] | [h, min, _]) = (d.as_slice(), t.as_slice()) else { return None };
    let sec = t.get(2).copied().unwrap_or(0);
    if !(1..=12).contains(m) || !(1..=31).contains(day) || *h > 23 || *min > 59 || sec > 59 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's days-from-civil).
    let (y, m) = if *m <= 2 { (y - 1, m + 9) } else { (*y, m - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + day - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    Some(((days * 86_400 + h * 3600 + min * 60 + sec) * 1000) as f64)
}

#[cfg(test)]
mod tests {
    use super::date_ms;

    #[test]
    fn newermt_reads_dates_in_utc() {
        assert_eq!(date_ms("2024-03-05"), Some(1_709_596_800_000.0));
        assert_eq!(date_ms("2024-03-05 10:00"), Some(1_709_632_800_000.0));
        assert_eq!(date_ms("1970-01-01T00:00:01"), Some(1000.0));
        assert_eq!(date_ms("yesterday"), None);
    }
}
