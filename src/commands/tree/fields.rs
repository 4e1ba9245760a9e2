//! The bracketed fields tree prints before a name, in its order: the inode (seven
//! columns), the device (three), the mode, the owner and the group (eight columns each,
//! left-aligned), the size (eleven columns, or four with `-h`/`--si`) and the date
//! (`--timefmt`'s, else ls's locale format).
//!
//! A collection has no filesystem: the inode is the listing's number for the entry, the
//! device is [`DEVICE`], the owner and group are `user` as `ls -l` prints them, and the
//! change time is the modification time (see `meta`).

use super::args::Flags;
use crate::commands::meta::Meta;
use crate::commands::Unsupported;
use std::fmt::Write;

/// The device every entry lies on, as `--device` prints it: a collection has no device.
pub(crate) const DEVICE: u64 = 0;

/// Whether any bracketed field is asked for.
pub(super) fn any(f: &Flags) -> bool {
    f.inodes || f.device || f.perms || f.user || f.group || f.size || f.date
}

/// The bracket and the two spaces after it; `size` is the size to print (`--du`'s for a
/// directory).
pub(super) fn bracket(f: &Flags, m: &Meta, ino: u64, size_shown: u64, now_ms: f64) -> Result<String, Unsupported> {
    let mut out = String::from("[");
    let sep = |out: &mut String| {
        if out.len() > 1 {
            out.push(' ');
        }
    };
    if f.inodes {
        sep(&mut out);
        write!(out, "{ino:>7}").unwrap();
    }
    if f.device {
        sep(&mut out);
        write!(out, "{DEVICE:>3}").unwrap();
    }
    if f.perms {
        sep(&mut out);
        out.push_str(m.mode());
    }
    for shown in [f.user, f.group] {
        if shown {
            sep(&mut out);
            write!(out, "{:<8}", crate::commands::meta::OWNER).unwrap();
        }
    }
    if f.size {
        sep(&mut out);
        out.push_str(&size(size_shown, f.human));
    }
    if f.date {
        sep(&mut out);
        match &f.time_format {
            Some(format) => out.push_str(&strftime(format, m.mtime_parts().0)?),
            None => {
                // tree's "six months": 6 × 31 days, the bound included, not in the future.
                let (secs, now) = (m.mtime_parts().0, (now_ms / 1000.0).floor() as i64);
                let recent = secs <= now && now - secs <= 6 * 31 * 86_400;
                out.push_str(&crate::commands::ls::long::time_judged(
                    m,
                    crate::commands::ls::args::TimeStyle::Locale,
                    recent,
                ))
            }
        }
    }
    out.push_str("]  ");
    Ok(out)
}

/// `-s`'s size: bytes in eleven columns, or with `-h`/`--si` tree's four (`2.9K`, rounded
/// to the nearest tenth below ten units, so `10.0k` can show).
pub(super) fn size(bytes: u64, human: Option<bool>) -> String {
    let Some(si) = human else { return format!("{bytes:>11}") };
    let base: u64 = if si { 1000 } else { 1024 };
    if bytes < base {
        return format!("{bytes:>4}");
    }
    let units = if si { ['k', 'M', 'G', 'T', 'P', 'E'] } else { ['K', 'M', 'G', 'T', 'P', 'E'] };
    let (mut whole, mut unit) = (bytes, 0);
    while whole >= base * base && unit + 1 < units.len() {
        whole /= base;
        unit += 1;
    }
    // tree divides in single precision: 9350 bytes are 9.4k, not 9.3k.
    let v = whole as f32 / base as f32;
    let shown = if v < 10.0 { format!("{v:.1}{}", units[unit]) } else { format!("{v:.0}{}", units[unit]) };
    format!("{shown:>4}")
}

/// `--timefmt`'s format for the time `secs` (see [`crate::commands::strftime`]).
pub(super) fn strftime(format: &str, secs: i64) -> Result<String, Unsupported> {
    crate::commands::strftime::format(format, secs)
        .ok_or_else(|| Unsupported::new("a tree --timefmt directive left to just-bash"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_print_as_tree_prints_them() {
        assert_eq!([size(6, None), size(100, Some(false)), size(3000, Some(false))], ["          6", " 100", "2.9K"]);
        assert_eq!(
            [size(9350, Some(true)), size(9999, Some(true)), size(12_000, Some(true))],
            ["9.4k", "10.0k", " 12k"]
        );
    }

    #[test]
    fn times_format_as_strftime_in_utc() {
        // 2024-03-05 14:07:09 UTC, a Tuesday.
        let t = 1_709_647_629;
        assert_eq!(
            strftime("%F%%%j%a%A%B%p%s%e%y%R%T", t).unwrap(),
            "2024-03-05%065TueTuesdayMarchPM1709647629 52414:0714:07:09"
        );
        assert_eq!(
            strftime("%Y-%m-%d %H:%M:%S %b %I %l %u %w %D", t).unwrap(),
            "2024-03-05 14:07:09 Mar 02  2 2 2 03/05/24"
        );
        assert!(strftime("%Q", t).is_err());
    }

    #[test]
    fn fields_stand_in_trees_order() {
        let m = Meta { dir: false, size: 12, kib: 4, links: 1, mtime_ms: 1_709_647_629_000.0 };
        let f = Flags {
            inodes: true,
            device: true,
            perms: true,
            user: true,
            group: true,
            size: true,
            date: true,
            time_format: Some("%Y".into()),
            ..Flags::default()
        };
        assert_eq!(
            bracket(&f, &m, 42, 12, 0.0).unwrap(),
            "[     42   0 -rw-r--r-- user     user              12 2024]  "
        );
    }
}
