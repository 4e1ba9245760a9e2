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

/// glibc's `strverscmp`, tree's `-v` order: names compared byte by byte, except that where
/// they first differ inside digits, a run of digits counts as a number (`v1.9` before
/// `v1.10`), and one after leading zeros as a fraction (`009` before `01`).
pub(crate) fn strverscmp(a: &[u8], b: &[u8]) -> Ordering {
    // What a byte is: 0 a non-digit, 1 a digit other than 0, 2 a zero.
    let kind = |c: u8| usize::from(c.is_ascii_digit()) + usize::from(c == b'0');
    // Where the walk is: 0 outside digits, 1 in a number, 2 in a fraction, 3 in leading
    // zeros; and where it goes for the kind of byte it reads next.
    const NEXT: [[usize; 3]; 4] = [[0, 1, 3], [0, 1, 1], [0, 2, 2], [0, 2, 3]];
    // How the first difference decides, by where the walk is and the kinds of the two
    // differing bytes (a's, then b's): the bytes' order (`B`), the longer digit run then
    // the bytes (`L`), or the order given.
    use Ordering::{Greater as G, Less as S};
    #[derive(Clone, Copy)]
    enum By {
        B,
        L,
        O(Ordering),
    }
    use By::{B, L, O};
    const BY: [[By; 9]; 4] = [
        [B, B, B, B, L, B, B, B, B],
        [B, O(S), O(S), O(G), L, L, O(G), L, L],
        [B, B, B, B, B, B, B, B, B],
        [B, O(G), O(G), O(S), B, B, O(S), B, B],
    ];
    let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(0);
    let (mut i, mut place) = (0, 0);
    let (mut x, mut y) = (at(a, 0), at(b, 0));
    while x == y {
        if i >= a.len() && i >= b.len() {
            return Ordering::Equal;
        }
        place = NEXT[place][kind(x)];
        i += 1;
        (x, y) = (at(a, i), at(b, i));
    }
    match BY[place][kind(x) * 3 + kind(y)] {
        B => x.cmp(&y),
        O(order) => order,
        L => {
            let digits = |s: &[u8]| s.get(i + 1..).unwrap_or(&[]).iter().take_while(|c| c.is_ascii_digit()).count();
            digits(a).cmp(&digits(b)).then(x.cmp(&y))
        }
    }
}

#[cfg(test)]
mod strverscmp_tests {
    use super::strverscmp;

    #[test]
    fn orders_names_as_tree_v_does() {
        let mut names = ["v1.10", "e", "a~", "_under", "a.b.c", "v1.9", "V2", "a", "-dash"];
        names.sort_by(|a, b| strverscmp(a.as_bytes(), b.as_bytes()));
        assert_eq!(names, ["-dash", "V2", "_under", "a", "a.b.c", "a~", "e", "v1.9", "v1.10"]);
        // glibc's own examples, and more, in the order glibc's strverscmp gives them.
        let sorted = |mut v: Vec<&'static str>| {
            v.sort_by(|a, b| strverscmp(a.as_bytes(), b.as_bytes()));
            v
        };
        let zeros = vec!["000", "00", "01", "010", "09", "0", "1", "9", "10"];
        assert_eq!(sorted(zeros.iter().rev().copied().collect()), zeros, "leading zeros are fractions, before numbers");
        assert_eq!(sorted(vec!["a10", "a9", "a010", "a09", "a0", "a1"]), ["a010", "a09", "a0", "a1", "a9", "a10"]);
        let dotted = vec!["x1.0010", "x1.010", "x1.02", "x1.1", "x2", "x12", "x12a"];
        assert_eq!(sorted(dotted.iter().rev().copied().collect()), dotted);
    }
}
