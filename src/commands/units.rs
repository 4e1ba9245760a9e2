//! Sizes and dates as the GNU tools print them: `-h` sizes (`4.9K`, powers of 1024, or
//! of 1000 with `--si`, always rounded up) and the civil date of a time in UTC, which is
//! what `ls -l`, `find -printf` and `tree -D` print in the reference's zone.

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
}
