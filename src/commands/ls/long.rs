//! `ls -l` and `ls -s`: the columns GNU `ls` prints before a name, each as wide as its
//! widest value in the block (a directory, or the file operands), and the `total` line.
//!
//! The metadata is what a copy on tmpfs reports ([`crate::commands::meta`]). Owner and
//! group have no counterpart in a collection: they are printed as `user` (just-bash's
//! user), so `-l` matches the real tool only where the host's user has that name; `-g`
//! and `-o` leave them out. Times are UTC.

use super::args::{Flags, TimeStyle};
use crate::commands::meta::{Meta, OWNER, OWNER_ID};
use crate::commands::units::Civil;
use std::fmt::Write;

/// Half of the Gregorian year, GNU ls's bound for a "recent" time.
const SIX_MONTHS_SECS: i64 = 31_556_952 / 2;

/// The columns of a block: each entry's cells, right- or left-aligned.
pub(crate) struct Block {
    /// Inode, blocks (with `-s`), links, size, time; the last four only when sizes are known.
    rows: Vec<[String; 5]>,
}

impl Block {
    /// Cells for each entry: its inode number, and with `metas` (one an entry, or none when
    /// neither `-l` nor `-s` asks for them) blocks, links, size and time.
    pub(crate) fn new(inos: &[u64], metas: &[Meta], f: &Flags, now_ms: f64) -> Block {
        let rows = inos
            .iter()
            .enumerate()
            .map(|(i, ino)| match metas.get(i) {
                Some(m) => {
                    let mut size = String::new();
                    sized(&mut size, m.size, f);
                    [ino.to_string(), blocks(m.kib, f), m.links.to_string(), size, stamp(m, f, now_ms)]
                }
                None => [ino.to_string(), String::new(), String::new(), String::new(), String::new()],
            })
            .collect();
        Block { rows }
    }

    /// Everything before the `i`th entry's name.
    pub(crate) fn prefix(&self, i: usize, metas: &[Meta], f: &Flags) -> String {
        let width = |col: usize| self.rows.iter().map(|r| r[col].len()).max().unwrap_or(0);
        let r = &self.rows[i];
        let mut out = String::new();
        // Names separated by commas take no padding.
        let padded = |col: usize| if f.commas { 0 } else { width(col) };
        if f.inode {
            write!(out, "{:>w$} ", r[0], w = padded(0)).unwrap();
        }
        if f.size {
            write!(out, "{:>w$} ", r[1], w = padded(1)).unwrap();
        }
        if !f.long {
            if f.context {
                out.push_str("? ");
            }
            return out;
        }
        write!(out, "{} {:>w$} ", metas[i].mode(), r[2], w = width(2)).unwrap();
        let owner = if f.numeric { OWNER_ID.to_string() } else { OWNER.to_string() };
        if !f.no_owner {
            write!(out, "{owner} ").unwrap();
        }
        if !f.no_group {
            write!(out, "{owner} ").unwrap();
        }
        if f.author {
            write!(out, "{owner} ").unwrap();
        }
        if f.context {
            out.push_str("? ");
        }
        write!(out, "{:>w$} {} ", r[3], r[4], w = width(3)).unwrap();
        out
    }
}

impl Block {
    /// Where GNU `ls` counts the `i`th name to start, for `--color`'s `ESC[K`: in the
    /// long format it prints the owner columns apart, and counts from after them (from
    /// the line's start when there are none); elsewhere from the name's column.
    pub(crate) fn name_start(&self, i: usize, prefix: &str, f: &Flags) -> Option<usize> {
        if !f.long {
            return None;
        }
        if f.no_owner && f.no_group && !f.author && !f.context {
            return Some(prefix.len());
        }
        let size = self.rows.iter().map(|r| r[3].len()).max().unwrap_or(0);
        Some(size + 1 + self.rows[i][4].len() + 1)
    }
}

/// `total N`: the block's allocated KiB.
pub(crate) fn total(metas: &[Meta], f: &Flags) -> String {
    format!("total {}\n", blocks(metas.iter().map(|m| m.kib).sum(), f))
}

/// Blocks as `-s` and `total` count them: KiB, or as `-h`, `--si`, `--block-size` say.
fn blocks(kib: u64, f: &Flags) -> String {
    let mut s = String::new();
    match &f.sizes {
        Some(size) => size.write(&mut s, kib * 1024),
        None => write!(s, "{kib}").unwrap(),
    }
    s
}

/// A size as `-l` prints it: bytes, or as `-h`, `--si`, `--block-size` say.
fn sized(out: &mut String, bytes: u64, f: &Flags) {
    match &f.sizes {
        Some(size) => size.write(out, bytes),
        None => write!(out, "{bytes}").unwrap(),
    }
}

/// The time `-l` prints for `m`: as `--time-style` says, its `+FORMAT` included.
fn stamp(m: &Meta, f: &Flags, now_ms: f64) -> String {
    let Some((old, recent)) = f.time_format.as_ref().filter(|_| f.time_style == TimeStyle::Format) else {
        return time(m, f.time_style, now_ms);
    };
    let (secs, _) = m.mtime_parts();
    let format = match recent {
        Some(recent) if is_recent(secs, now_ms) => recent,
        _ => old,
    };
    crate::commands::strftime::format(format, secs).unwrap_or_default()
}

/// Whether GNU ls counts a time as recent: within the last six months, not in the future.
fn is_recent(secs: i64, now_ms: f64) -> bool {
    let now = (now_ms / 1000.0).floor() as i64;
    secs > now - SIX_MONTHS_SECS && secs <= now
}

/// The modification time as `--time-style` prints it; `locale` and `iso` print the
/// year instead of the time of day for a time more than six months old or in the future.
pub(crate) fn time(m: &Meta, style: TimeStyle, now_ms: f64) -> String {
    time_judged(m, style, is_recent(m.mtime_parts().0, now_ms))
}

/// [`time`] for a time the caller has judged recent or not (tree has its own bound).
pub(crate) fn time_judged(m: &Meta, style: TimeStyle, recent: bool) -> String {
    let (secs, nanos) = m.mtime_parts();
    let c = Civil::of(secs);
    match style {
        TimeStyle::FullIso => format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{nanos:09} +0000",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        ),
        TimeStyle::LongIso => format!("{:04}-{:02}-{:02} {:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute),
        TimeStyle::Iso if recent => format!("{:02}-{:02} {:02}:{:02}", c.month, c.day, c.hour, c.minute),
        TimeStyle::Iso => format!("{:04}-{:02}-{:02} ", c.year, c.month, c.day),
        TimeStyle::Locale if recent => format!("{} {:>2} {:02}:{:02}", c.month_name(), c.day, c.hour, c.minute),
        TimeStyle::Locale | TimeStyle::Format => format!("{} {:>2}  {}", c.month_name(), c.day, c.year),
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
