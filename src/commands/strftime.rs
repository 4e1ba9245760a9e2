//! `strftime` in the C locale and UTC: the times `ls --time-style=+FORMAT`, `tree
//! --timefmt` and `find -printf`'s `%A`/`%C`/`%T` print.
//!
//! A collection's times are printed in UTC (the tests' copies are made and read with
//! `TZ` unset). The directives are the C library's; one this module does not know makes
//! the caller leave the command to just-bash.

use super::units::Civil;
use std::fmt::Write;

const WEEKDAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn twelve(hour: u32) -> u32 {
    if hour % 12 == 0 {
        12
    } else {
        hour % 12
    }
}

fn am_pm(hour: u32) -> &'static str {
    if hour < 12 {
        "AM"
    } else {
        "PM"
    }
}

fn day_of_year(c: &Civil) -> u32 {
    let leap = (c.year % 4 == 0 && c.year % 100 != 0) || c.year % 400 == 0;
    let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][c.month as usize - 1];
    before + c.day + u32::from(leap && c.month > 2)
}

/// Appends what `%d` prints for the time `secs` (seconds since the epoch); `None` for a
/// directive not known here.
pub(crate) fn directive(d: char, secs: i64, out: &mut String) -> Option<()> {
    let c = Civil::of(secs);
    match d {
        'Y' => write!(out, "{}", c.year),
        'C' => write!(out, "{:02}", c.year.div_euclid(100)),
        'y' => write!(out, "{:02}", c.year.rem_euclid(100)),
        'm' => write!(out, "{:02}", c.month),
        'd' => write!(out, "{:02}", c.day),
        'e' => write!(out, "{:>2}", c.day),
        'H' => write!(out, "{:02}", c.hour),
        'k' => write!(out, "{:>2}", c.hour),
        'I' => write!(out, "{:02}", twelve(c.hour)),
        'l' => write!(out, "{:>2}", twelve(c.hour)),
        'M' => write!(out, "{:02}", c.minute),
        'S' => write!(out, "{:02}", c.second),
        'b' | 'h' => write!(out, "{}", c.month_name()),
        'B' => write!(out, "{}", MONTHS[c.month as usize - 1]),
        'a' => write!(out, "{}", c.weekday_name()),
        'A' => write!(out, "{}", WEEKDAYS[c.weekday as usize]),
        'u' => write!(out, "{}", if c.weekday == 0 { 7 } else { c.weekday }),
        'w' => write!(out, "{}", c.weekday),
        'j' => write!(out, "{:03}", day_of_year(&c)),
        'p' => write!(out, "{}", am_pm(c.hour)),
        'P' => write!(out, "{}", am_pm(c.hour).to_ascii_lowercase()),
        's' => write!(out, "{secs}"),
        'F' => write!(out, "{}-{:02}-{:02}", c.year, c.month, c.day),
        'D' | 'x' => write!(out, "{:02}/{:02}/{:02}", c.month, c.day, c.year.rem_euclid(100)),
        'T' | 'X' => write!(out, "{:02}:{:02}:{:02}", c.hour, c.minute, c.second),
        'R' => write!(out, "{:02}:{:02}", c.hour, c.minute),
        'r' => write!(out, "{:02}:{:02}:{:02} {}", twelve(c.hour), c.minute, c.second, am_pm(c.hour)),
        'c' => write!(
            out,
            "{} {} {:>2} {:02}:{:02}:{:02} {}",
            c.weekday_name(),
            c.month_name(),
            c.day,
            c.hour,
            c.minute,
            c.second,
            c.year
        ),
        'z' => write!(out, "+0000"),
        'Z' => write!(out, "UTC"),
        'n' => writeln!(out),
        't' => write!(out, "\t"),
        '%' => write!(out, "%"),
        _ => return None,
    }
    .ok()
}

/// `format` with its directives filled in for the time `secs`; `None` when it uses one
/// not known here.
pub(crate) fn format(format: &str, secs: i64) -> Option<String> {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some(d) => directive(d, secs, &mut out)?,
            None => out.push('%'),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_the_c_library_prints_them() {
        // 2024-03-05 10:00:00 UTC, a Tuesday: what `date -u -d @1709632800 +FORMAT` printed.
        let t = 1_709_632_800;
        assert_eq!(
            format("%Y-%j %a %A %b %B %e|%k|%l %p %P", t).unwrap(),
            "2024-065 Tue Tuesday Mar March  5|10|10 AM am"
        );
        assert_eq!(
            format("%F %T %D %R %r %s %u %w %C %y %z %Z %%", t).unwrap(),
            "2024-03-05 10:00:00 03/05/24 10:00 10:00:00 AM 1709632800 2 2 20 24 +0000 UTC %"
        );
        assert_eq!(format("%c", t).unwrap(), "Tue Mar  5 10:00:00 2024");
        assert_eq!(format("%Y%n%m", t).unwrap(), "2024\n03");
        assert_eq!(format("%G", t), None, "the week-based year is not known here");
    }
}
