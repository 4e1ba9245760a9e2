//! Numbers on GNU command lines: counts with size suffixes (`1k`, `2MiB`, `5kB`), as
//! gnulib's `xstrtoumax` reads them.

/// Why a count cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bad {
    Invalid,
    /// Too large for 64 bits (`Value too large for defined data type`).
    Overflow,
}

/// A count with an optional suffix: `b` 512; `k`/`K`, `m`/`M`, `G`, `T`, `P`, `E`, `Z`,
/// `Y` (and `R`, `Q` where allowed) powers of 1024, or of 1000 when followed by `B` (`kB`), 1024 with `iB`.
/// `suffixes` are the letters the command allows (`b` only where GNU's does).
pub(crate) fn count(text: &str, suffixes: &str) -> Result<u64, Bad> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(Bad::Invalid);
    }
    let mut n: u64 = 0;
    let mut overflow = false;
    for b in text[..digits].bytes() {
        match n.checked_mul(10).and_then(|n| n.checked_add(u64::from(b - b'0'))) {
            Some(v) => n = v,
            None => overflow = true,
        }
    }
    let rest = &text[digits..];
    let Some(letter) = rest.chars().next() else {
        return if overflow { Err(Bad::Overflow) } else { Ok(n) };
    };
    if !suffixes.contains(letter) {
        return Err(Bad::Invalid);
    }
    let after = &rest[1..];
    let base: u64 = match after {
        "" => 1024,
        "B" if letter != 'b' => 1000,
        "iB" if letter != 'b' => 1024,
        _ => return Err(Bad::Invalid),
    };
    let power = match letter {
        'b' => return n.checked_mul(512).filter(|_| !overflow).ok_or(Bad::Overflow),
        'k' | 'K' => 1,
        'm' | 'M' => 2,
        'G' => 3,
        'T' => 4,
        'P' => 5,
        'E' => 6,
        'Z' => 7,
        'Y' => 8,
        'R' => 9,
        'Q' => 10,
        _ => return Err(Bad::Invalid),
    };
    let mut v = Some(n).filter(|_| !overflow);
    for _ in 0..power {
        v = v.and_then(|v| v.checked_mul(base));
    }
    v.ok_or(Bad::Overflow)
}

/// The suffixes head and tail allow.
pub(crate) const SIZE_SUFFIXES: &str = "bkKmMGTPEZY";

/// `what: ‘text’` with, on overflow, why: the message GNU gives for a count it refuses.
pub(crate) fn refused(what: &str, text: &str, bad: Bad) -> String {
    match bad {
        Bad::Invalid => format!("{what}: ‘{text}’"),
        Bad::Overflow => format!("{what}: ‘{text}’: Value too large for defined data type"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes() {
        let c = |t| count(t, SIZE_SUFFIXES);
        assert_eq!(c("12"), Ok(12));
        assert_eq!(c("1k"), Ok(1024));
        assert_eq!(c("1kB"), Ok(1000));
        assert_eq!(c("1KiB"), Ok(1024));
        assert_eq!(c("2b"), Ok(1024));
        assert_eq!(c("1M"), Ok(1 << 20));
        assert_eq!(c("x"), Err(Bad::Invalid));
        assert_eq!(c("1x"), Err(Bad::Invalid));
        assert_eq!(c("99999999999999999999999"), Err(Bad::Overflow));
        assert_eq!(c("1Q"), Err(Bad::Invalid));
        assert_eq!(c("1Y"), Err(Bad::Overflow));
    }
}
