//! `ls -l` and `ls -s`: the columns GNU `ls` prints before a name, each as wide as its
//! widest value in the block (a directory, or the file operands), and the `total` line.
//!
//! The metadata is what a copy on tmpfs reports ([`crate::commands::meta`]). Owner and
//! group have no counterpart in a collection: they are printed as `user` (just-bash's
//! user), so `-l` matches the real tool only where the host's user has that name; `-g`
//! and `-o` leave them out. Times are UTC.

use super::args::{Flags, TimeStyle};
use crate::commands::meta::{Meta, OWNER};
use crate::commands::units::{human, Civil};
use std::fmt::Write;

/// Half of the Gregorian year, GNU ls's bound for a "recent" time.
const SIX_MONTHS_SECS: i64 = 31_556_952 / 2;

/// The columns of a block: each entry's cells, right- or left-aligned.
pub(crate) struct Block {
    rows: Vec<[String; 4]>,
}

impl Block {
    /// Cells for each entry: blocks (with `-s`), links, size, time.
    pub(crate) fn new(metas: &[Meta], f: &Flags, now_ms: f64) -> Block {
        let rows = metas
            .iter()
            .map(|m| {
                let mut size = String::new();
                sized(&mut size, m.size, f);
                [blocks(m.kib, f), m.links.to_string(), size, time(m, f.time_style, now_ms)]
            })
            .collect();
        Block { rows }
    }

    /// Everything before the `i`th entry's name.
    pub(crate) fn prefix(&self, i: usize, metas: &[Meta], f: &Flags) -> String {
        let width = |col: usize| self.rows.iter().map(|r| r[col].len()).max().unwrap_or(0);
        let r = &self.rows[i];
        let mut out = String::new();
        if f.size {
            write!(out, "{:>w$} ", r[0], w = width(0)).unwrap();
        }
        if !f.long {
            return out;
        }
        write!(out, "{} {:>w$} ", metas[i].mode(), r[1], w = width(1)).unwrap();
        if !f.no_owner {
            write!(out, "{OWNER} ").unwrap();
        }
        if !f.no_group {
            write!(out, "{OWNER} ").unwrap();
        }
        write!(out, "{:>w$} {} ", r[2], r[3], w = width(2)).unwrap();
        out
    }
}

/// `total N`: the block's allocated KiB.
pub(crate) fn total(metas: &[Meta], f: &Flags) -> String {
    format!("total {}\n", blocks(metas.iter().map(|m| m.kib).sum(), f))
}

fn blocks(kib: u64, f: &Flags) -> String {
    if f.human {
        let mut s = String::new();
        human(&mut s, kib * 1024, f.si);
        return s;
    }
    kib.to_string()
}

fn sized(out: &mut String, bytes: u64, f: &Flags) {
    if f.human {
        human(out, bytes, f.si);
    } else {
        write!(out, "{bytes}").unwrap();
    }
}

/// The modification time as `--time-style` prints it; `locale` and `iso` print the
/// year instead of the time of day for a time more than six months old or in the future.
pub(crate) fn time(m: &Meta, style: TimeStyle, now_ms: f64) -> String {
    let (secs, nanos) = m.mtime_parts();
    let c = Civil::of(secs);
    let now = (now_ms / 1000.0).floor() as i64;
    let recent = secs > now - SIX_MONTHS_SECS && secs <= now;
    match style {
        TimeStyle::FullIso => format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{nanos:09} +0000",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        ),
        TimeStyle::LongIso => format!("{:04}-{:02}-{:02} {:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute),
        TimeStyle::Iso if recent => format!("{:02}-{:02} {:02}:{:02}", c.month, c.day, c.hour, c.minute),
        TimeStyle::Iso => format!("{:04}-{:02}-{:02} ", c.year, c.month, c.day),
        TimeStyle::Locale if recent => format!("{} {:>2} {:02}:{:02}", c.month_name(), c.day, c.hour, c.minute),
        TimeStyle::Locale => format!("{} {:>2}  {}", c.month_name(), c.day, c.year),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_gnu_ls_prints_them() {
        let m = Meta { dir: false, size: 6, kib: 4, links: 1, mtime_ms: 1_709_632_800_000.0 };
        let now = 1_795_749_644_000.0;
        assert_eq!(time(&m, TimeStyle::Locale, now), "Mar  5  2024");
        assert_eq!(time(&m, TimeStyle::Iso, now), "2024-03-05 ");
        assert_eq!(time(&m, TimeStyle::LongIso, now), "2024-03-05 10:00");
        assert_eq!(time(&m, TimeStyle::FullIso, now), "2024-03-05 10:00:00.000000000 +0000");
        assert_eq!(time(&m, TimeStyle::Locale, 1_709_632_900_000.0), "Mar  5 10:00");
    }
}
