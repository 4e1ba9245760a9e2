//! Sizes and dates as the GNU tools print them: `-h` sizes (`4.9K`, powers of 1024, or
//! of 1000 with `--si`, always rounded up) and the civil date of a time in UTC, which is
//! what `ls -l`, `find -printf` and `tree -D` print in the reference's zone; and the
//! `--block-size` value `ls` and `du` read ([`block_size`]).

use std::fmt::Write;

/// A size in bytes as GNU's `human_readable` prints it with `-h` (`si`: powers of 1000
/// and a lowercase `k`): below one unit the plain number, below ten units one decimal,
/// everything rounded up.
pub(crate) fn human(out: &mut String, bytes: u64, si: bool) {
    let base: u128 = if si { 1000 } else { 1024 };
    let bytes = u128::from(bytes);
    if bytes < base {
        write!(out, "{bytes}").unwrap();
        return;
    }
    let mut unit = base;
    for suffix in [if si { 'k' } else { 'K' }, 'M', 'G', 'T', 'P', 'E'] {
        if bytes < unit * base || suffix == 'E' {
            let tenths = (bytes * 10).div_ceil(unit);
            if tenths < 100 {
                write!(out, "{}.{}{suffix}", tenths / 10, tenths % 10).unwrap();
                return;
            }
            let whole = bytes.div_ceil(unit);
            if whole < base || suffix == 'E' {
                write!(out, "{whole}{suffix}").unwrap();
                return;
            }
        }
        unit *= base;
    }
}

/// Why GNU's `xstrtoumax` rejects a size: its three messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SizeError {
    Invalid,
    Suffix,
    TooLarge,
}

impl SizeError {
    /// GNU's message for `value` given to `option` (`--block-size`, `-B`), without the
    /// tool's name.
    pub(crate) fn message(self, option: &str, value: &str) -> String {
        match self {
            SizeError::Invalid => format!("invalid {option} argument '{value}'"),
            SizeError::Suffix => format!("invalid suffix in {option} argument '{value}'"),
            SizeError::TooLarge => format!("{option} argument '{value}' too large"),
        }
    }
}

/// A number as GNU's `xstrtoumax` reads one in base 0 (`0x1F` hex, `017` octal, after
/// blanks and a `+`), times the unit of its suffix: one of `suffixes` (`K`, `M`, `G`,
/// `T`, `P`, `E`, `Z`, `Y`, and `k`, `m`, `g`, `t` where listed), powers of 1024, or of
/// 1000 with a `B` after the letter (`KB`), or of 1024 with `iB` (`KiB`). A suffix alone
/// counts one unit.
pub(crate) fn scaled_number(v: &str, suffixes: &str) -> Result<u64, SizeError> {
    let s = v.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    if s.starts_with('-') {
        return Err(SizeError::Invalid);
    }
    let s = s.strip_prefix('+').unwrap_or(s);
    let (radix, body) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) if hex.starts_with(|c: char| c.is_ascii_hexdigit()) => (16, hex),
        Some(_) => return Err(SizeError::Invalid),
        None if s.starts_with('0') => (8, s),
        None => (10, s),
    };
    let digits = body.find(|c: char| !c.is_digit(radix)).unwrap_or(body.len());
    let (mut n, mut overflow) = (0u64, false);
    for c in body[..digits].chars() {
        match n.checked_mul(u64::from(radix)).and_then(|x| x.checked_add(u64::from(c.to_digit(radix).unwrap_or(0)))) {
            Some(x) => n = x,
            None => (n, overflow) = (u64::MAX, true),
        }
    }
    let rest = &body[digits..];
    if digits == 0 {
        // No number: a suffix alone stands for one unit.
        if rest.len() != v.len() || !rest.starts_with(|c: char| suffixes.contains(c)) {
            return Err(SizeError::Invalid);
        }
        n = 1;
    }
    let Some(letter) = rest.chars().next() else {
        return if overflow { Err(SizeError::TooLarge) } else { Ok(n) };
    };
    let power = "KMGTPEZY"
        .find(letter.to_ascii_uppercase())
        .filter(|_| suffixes.contains(letter) && letter != 'e' && letter != 'p');
    let Some(power) = power else { return Err(SizeError::Suffix) };
    let (base, len) = match &rest.as_bytes()[1..] {
        [b'i', b'B', ..] => (1024u64, 3),
        [b'B' | b'D', ..] => (1000, 2),
        _ => (1024, 1),
    };
    if rest.len() > len {
        return Err(SizeError::Suffix);
    }
    for _ in 0..=power {
        match n.checked_mul(base) {
            Some(x) => n = x,
            None => (n, overflow) = (u64::MAX, true),
        }
    }
    if overflow {
        return Err(SizeError::TooLarge);
    }
    Ok(n)
}

/// How `--block-size` (and `-h`, `--si`) counts a size: GNU's `human_options`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BlockSize {
    /// `human-readable` (`-h`) or `si` (`--si`): each size in its own unit ([`human`]).
    Human { si: bool },
    /// Whole units of `bytes`, rounded up, and `suffix` after each count: a unit given
    /// without a number prints its name, as GNU spells it (`K`, `kB`, `MiB`).
    Units { bytes: u64, suffix: String },
}

impl BlockSize {
    /// `bytes` counted in this size.
    pub(crate) fn write(&self, out: &mut String, bytes: u64) {
        match self {
            BlockSize::Human { si } => human(out, bytes, *si),
            BlockSize::Units { bytes: unit, suffix } => write!(out, "{}{suffix}", bytes.div_ceil(*unit)).unwrap(),
        }
    }
}

/// A `--block-size` value as GNU reads it: `human-readable` or `si` (or a prefix of
/// either), or a [`scaled_number`] other than 0 (after an optional `'`, which asks for
/// thousands separators, none in this locale).
pub(crate) fn block_size(spec: &str) -> Result<BlockSize, SizeError> {
    let spec = spec.strip_prefix('\'').unwrap_or(spec);
    if !spec.is_empty() && "human-readable".starts_with(spec) {
        return Ok(BlockSize::Human { si: false });
    }
    if !spec.is_empty() && "si".starts_with(spec) {
        return Ok(BlockSize::Human { si: true });
    }
    let bytes = scaled_number(spec, "eEgGkKmMpPtTYZ0")?;
    if bytes == 0 {
        return Err(SizeError::Invalid);
    }
    let mut suffix = String::new();
    if !spec.bytes().any(|b| b.is_ascii_digit()) {
        // GNU names the unit after the power of its base that holds the block.
        let b = spec.ends_with('B');
        let base1024 = !b || spec.ends_with("iB");
        let base: u128 = if base1024 { 1024 } else { 1000 };
        let (mut exponent, mut power) = (0, 1u128);
        while power < u128::from(bytes) && exponent < 8 {
            power *= base;
            exponent += 1;
        }
        if exponent > 0 {
            suffix.push(if !base1024 && exponent == 1 { 'k' } else { b"KMGTPEZY"[exponent - 1] as char });
        }
        if b {
            if base1024 && exponent > 0 {
                suffix.push('i');
            }
            suffix.push('B');
        }
    }
    Ok(BlockSize::Units { bytes, suffix })
}

/// A UTC time broken down: year, month (1-12), day, hour, minute, second, weekday (0 = Sunday).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub weekday: u32,
}

impl Civil {
    /// The UTC date of `secs` since the epoch (Howard Hinnant's days-to-civil algorithm).
    pub(crate) fn of(secs: i64) -> Civil {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400) as u32;
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        let weekday = (days + 4).rem_euclid(7) as u32;
        Civil { year, month, day, hour: rem / 3600, minute: rem / 60 % 60, second: rem % 60, weekday }
    }

    /// The C locale's abbreviated month name.
    pub(crate) fn month_name(&self) -> &'static str {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][self.month as usize - 1]
    }

    /// The C locale's abbreviated weekday name.
    pub(crate) fn weekday_name(&self) -> &'static str {
        ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][self.weekday as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(bytes: u64, si: bool) -> String {
        let mut s = String::new();
        human(&mut s, bytes, si);
        s
    }

    #[test]
    fn sizes_round_up_as_gnu_prints_them() {
        assert_eq!(
            [6, 1023, 1024, 5000, 12288, 1_048_576].map(|b| h(b, false)),
            ["6", "1023", "1.0K", "4.9K", "12K", "1.0M"]
        );
        assert_eq!([999, 1000, 12288].map(|b| h(b, true)), ["999", "1.0k", "13k"]);
    }

    #[test]
    fn civil_dates_in_utc() {
        let c = Civil::of(1_709_632_800); // 2024-03-05 10:00:00
        assert_eq!((c.year, c.month, c.day, c.hour, c.minute, c.second), (2024, 3, 5, 10, 0, 0));
        assert_eq!((c.month_name(), c.weekday_name()), ("Mar", "Tue"));
        assert_eq!(Civil::of(0).year, 1970);
    }

    #[test]
    fn block_sizes_as_gnu_reads_them() {
        // What GNU ls 9.1 printed for `ls -s --block-size=V` of a file of 2002944 bytes on disk.
        let shown = |v: &str| {
            block_size(v).map(|b| {
                let mut s = String::new();
                b.write(&mut s, 2_002_944);
                s
            })
        };
        let ok = [
            ("1024", "1956"),
            ("1", "2002944"),
            ("K", "1956K"),
            ("k", "1956K"),
            ("M", "2M"),
            ("KB", "2003kB"),
            ("MiB", "2MiB"),
            ("kiB", "1956KiB"),
            ("1K", "1956"),
            ("2K", "978"),
            ("1KB", "2003"),
            ("0x400", "1956"),
            ("010", "250368"),
            ("'1024", "1956"),
            ("'K", "1956K"),
            ("h", "2.0M"),
            ("human-readable", "2.0M"),
            ("s", "2.1M"),
            (" 1K", "1956"),
            ("+1K", "1956"),
            ("E", "1E"),
            ("15E", "1"),
            ("g", "1G"),
            ("t", "1T"),
            ("KD", "2003K"),
            ("MB", "3MB"),
            ("GB", "1GB"),
            ("1g", "1"),
        ];
        for (v, want) in ok {
            assert_eq!(shown(v).as_deref(), Ok(want), "{v}");
        }
        use SizeError::*;
        let bad = [
            ("0", Invalid),
            ("x", Invalid),
            ("", Invalid),
            ("-1", Invalid),
            ("B", Invalid),
            ("b", Invalid),
            ("Q", Invalid),
            ("0x", Invalid),
            ("+K", Invalid),
            (" K", Invalid),
            ("0K", Invalid),
            ("\"K\"", Invalid),
            ("1.5K", Suffix),
            ("KK", Suffix),
            ("1b", Suffix),
            ("Ki", Suffix),
            ("KIB", Suffix),
            ("e", Suffix),
            ("p", Suffix),
            ("1Bx", Suffix),
            ("KiBx", Suffix),
            ("16E", TooLarge),
            ("1Y", TooLarge),
            ("ZB", TooLarge),
            ("99999999999999999999", TooLarge),
        ];
        for (v, want) in bad {
            assert_eq!(shown(v), Err(want), "{v}");
        }
        assert_eq!(Suffix.message("--block-size", "1.5K"), "invalid suffix in --block-size argument '1.5K'");
    }
}
