//! Version order as GNU's tools sort names: gnulib's `filenvercmp` (`sort -V`, and the
//! docs' versions: `v2` before `v10`, `1.9` before `1.10`) over Debian's `verrevcmp`, which
//! `ls -v` also compares with (after its own treatment of hidden names and suffixes).

use std::cmp::Ordering;

/// gnulib's `filenvercmp`: `sort -V`'s order, and the order of the docs' versions.
pub(crate) fn filevercmp(a: &[u8], b: &[u8]) -> Ordering {
    if a.is_empty() || b.is_empty() {
        return (!a.is_empty()).cmp(&!b.is_empty());
    }
    if a[0] == b'.' || b[0] == b'.' {
        if a[0] != b[0] {
            return if a[0] == b'.' { Ordering::Less } else { Ordering::Greater };
        }
        for special in [&b"."[..], b".."] {
            let (x, y) = (a == special, b == special);
            if x || y {
                return y.cmp(&x);
            }
        }
    }
    let (pa, pb) = (prefix_len(a), prefix_len(b));
    let first = verrevcmp(&a[..pa], &b[..pb]);
    if first != Ordering::Equal || (pa == a.len() && pb == b.len()) {
        first
    } else {
        verrevcmp(a, b)
    }
}

/// The length of `s` without its file suffix, `(\.[A-Za-z~][A-Za-z0-9~]*)*$`.
fn prefix_len(s: &[u8]) -> usize {
    let n = s.len();
    let mut i = 0;
    loop {
        let prefix = i;
        while i + 1 < n && s[i] == b'.' && (s[i + 1].is_ascii_alphabetic() || s[i + 1] == b'~') {
            i += 2;
            while i < n && (s[i].is_ascii_alphanumeric() || s[i] == b'~') {
                i += 1;
            }
        }
        if i == n {
            return prefix;
        }
        i += 1;
    }
}

/// Debian's version comparison, as gnulib's `verrevcmp`.
pub(crate) fn verrevcmp(a: &[u8], b: &[u8]) -> Ordering {
    let order = |s: &[u8], p: usize| -> i32 {
        match s.get(p) {
            None => -1,
            Some(c) if c.is_ascii_digit() => 0,
            Some(c) if c.is_ascii_alphabetic() => i32::from(*c),
            Some(b'~') => -2,
            Some(c) => i32::from(*c) + 256,
        }
    };
    let digit_at = |s: &[u8], p: usize| s.get(p).is_some_and(u8::is_ascii_digit);
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let mut first_diff = 0i32;
        while (i < a.len() && !a[i].is_ascii_digit()) || (j < b.len() && !b[j].is_ascii_digit()) {
            let (x, y) = (order(a, i), order(b, j));
            if x != y {
                return x.cmp(&y);
            }
            i += 1;
            j += 1;
        }
        while a.get(i) == Some(&b'0') {
            i += 1;
        }
        while b.get(j) == Some(&b'0') {
            j += 1;
        }
        while digit_at(a, i) && digit_at(b, j) {
            if first_diff == 0 {
                first_diff = i32::from(a[i]) - i32::from(b[j]);
            }
            i += 1;
            j += 1;
        }
        if digit_at(a, i) {
            return Ordering::Greater;
        }
        if digit_at(b, j) {
            return Ordering::Less;
        }
        if first_diff != 0 {
            return first_diff.cmp(&0);
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_by_value_and_tildes_come_first() {
        let mut v: Vec<&[u8]> = vec![b"v10", b"v2", b"v1.10", b"v1.9", b"1.0~rc1", b"1.0", b"v1", b"a.txt", b".x", b""];
        v.sort_by(|a, b| filevercmp(a, b));
        let shown: Vec<&str> = v.iter().map(|s| std::str::from_utf8(s).unwrap()).collect();
        assert_eq!(shown, ["", ".x", "1.0~rc1", "1.0", "a.txt", "v1", "v1.9", "v1.10", "v2", "v10"]);
        assert_eq!(verrevcmp(b"a~", b"a"), Ordering::Less);
        assert_eq!(verrevcmp(b"a01", b"a1"), Ordering::Equal);
    }
}
