//! `find -printf FORMAT`: names, depth, type, size, blocks, links, permissions, owners
//! (`user`, [`OWNER_ID`]), inode numbers, times in UTC (`%a`, `%c`, `%t` and the `%A`,
//! `%C`, `%T` fields: a collection records one time, the modification time) and the
//! escapes; and `-ls`'s line. SELinux contexts, field widths and the week-numbering time
//! fields are left to just-bash.

use crate::commands::meta::{Meta, OWNER, OWNER_ID};
use crate::commands::units::Civil;
use crate::commands::Unsupported;
use std::fmt::Write;

/// A piece of a format: text, a `%` directive, or a `%T` time field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece {
    Text(String),
    Directive(char),
    Time(char),
}

/// What a directive reads about an entry.
pub(crate) struct Entry<'a> {
    /// The path as printed, and the starting point as typed.
    pub shown: &'a str,
    pub start: &'a str,
    pub depth: usize,
    pub meta: Option<Meta>,
    pub dir: bool,
    pub ino: u64,
}

fn no(what: &str) -> Unsupported {
    Unsupported::new(format!("find -printf {what}: left to just-bash"))
}

/// Reads a format: `\n`-style escapes, `%%` and the directives printed here.
pub(crate) fn parse(format: &str) -> Result<Vec<Piece>, Unsupported> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => text.push(match chars.next() {
                Some('n') => '\n',
                Some('t') => '\t',
                Some('0') => '\0',
                Some('\\') => '\\',
                Some('a') => '\x07',
                Some('r') => '\r',
                _ => return Err(no("with this escape")),
            }),
            '%' => match chars.next() {
                Some('%') => text.push('%'),
                Some(
                    d @ ('p' | 'f' | 'h' | 'P' | 'H' | 'd' | 's' | 'y' | 'Y' | 'm' | 'M' | 'k' | 'b' | 'n' | 'u' | 'g'
                    | 'U' | 'G' | 'i' | 'a' | 'c' | 't'),
                ) => {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                    pieces.push(Piece::Directive(d));
                }
                Some('A' | 'C' | 'T') => match chars.next() {
                    Some(t) if TIME_FIELDS.contains(t) => {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                        pieces.push(Piece::Time(t));
                    }
                    _ => return Err(no("with this time field")),
                },
                _ => return Err(no("with this directive")),
            },
            c => text.push(c),
        }
    }
    pieces.push(Piece::Text(text));
    Ok(pieces)
}

/// The fields of `%A`, `%C` and `%T` printed here.
const TIME_FIELDS: &str = "YmdHMeabyj@DFRST+csXxrpIklwuABhCZz";

/// `%f`: the name after the last `/` that is not trailing (`/` for `/`, `d/` for `d/`).
fn base(shown: &str) -> &str {
    let trimmed = shown.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/";
    }
    trimmed.rfind('/').map_or(shown, |at| &shown[at + 1..])
}

/// Prints `pieces` for `e`; `None` when a value is not known (a size the tree lacks).
pub(crate) fn print(pieces: &[Piece], e: &Entry, out: &mut String) -> Option<()> {
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Directive(d) => directive(*d, e, out)?,
            Piece::Time(t) => time(*t, e.meta?, out),
        }
    }
    Some(())
}

fn directive(d: char, e: &Entry, out: &mut String) -> Option<()> {
    match d {
        'p' => out.push_str(e.shown),
        'f' => out.push_str(if e.depth == 0 { base(e.shown) } else { e.shown.rsplit('/').next().unwrap_or(e.shown) }),
        'h' => out.push_str(e.shown.rfind('/').map_or(".", |at| &e.shown[..at])),
        'P' => out.push_str(if e.depth == 0 { "" } else { e.shown[e.start.len()..].trim_start_matches('/') }),
        'H' => out.push_str(e.start),
        'd' => write!(out, "{}", e.depth).unwrap(),
        'y' | 'Y' => out.push(if e.dir { 'd' } else { 'f' }),
        's' => write!(out, "{}", e.meta?.size).unwrap(),
        'k' => write!(out, "{}", e.meta?.kib).unwrap(),
        'b' => write!(out, "{}", e.meta?.kib * 2).unwrap(),
        'n' => write!(out, "{}", e.meta?.links).unwrap(),
        'm' => write!(out, "{:o}", e.meta?.perm()).unwrap(),
        'M' => out.push_str(e.meta?.mode()),
        'u' | 'g' => out.push_str(OWNER),
        'U' | 'G' => write!(out, "{OWNER_ID}").unwrap(),
        'i' => write!(out, "{}", e.ino).unwrap(),
        // ctime(3)'s format, with the fraction of a second.
        'a' | 'c' | 't' => {
            for t in ['a', ' ', 'b', ' ', 'e', ' ', 'T', ' ', 'Y'] {
                match t {
                    ' ' => out.push(' '),
                    _ => time(t, e.meta?, out),
                }
            }
        }
        _ => unreachable!("parse keeps only these"),
    }
    Some(())
}

fn time(t: char, m: Meta, out: &mut String) {
    let (secs, nanos) = m.mtime_parts();
    let c = Civil::of(secs);
    // Seconds carry their fraction in GNU find's own directives.
    match t {
        '@' => write!(out, "{secs}.{nanos:09}0").unwrap(),
        'S' => write!(out, "{:02}.{nanos:09}0", c.second).unwrap(),
        'T' | 'X' => write!(out, "{:02}:{:02}:{:02}.{nanos:09}0", c.hour, c.minute, c.second).unwrap(),
        '+' => write!(
            out,
            "{}-{:02}-{:02}+{:02}:{:02}:{:02}.{nanos:09}0",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        )
        .unwrap(),
        t => crate::commands::strftime::directive(t, secs, out).expect("parse keeps only these"),
    }
}

/// Half a year as GNU find's `-ls` counts it (six 30-day months): an older time, or one
/// more than an hour ahead, is printed with its year.
const SIX_MONTHS_SECS: i64 = 180 * 86_400;

/// `-ls`'s line: inode, KiB allocated, mode, links, owner, group, size, time and the
/// path, escaped as GNU find escapes it.
pub(crate) fn ls(e: &Entry, now_ms: f64, out: &mut String) -> Option<()> {
    let m = e.meta?;
    let (secs, _) = m.mtime_parts();
    let c = Civil::of(secs);
    let now = (now_ms / 1000.0).floor() as i64;
    write!(out, "{:>9} {:>6} {} {:>3} {OWNER:<8} {OWNER:<8} {:>8} ", e.ino, m.kib, m.mode(), m.links, m.size).unwrap();
    write!(out, "{} {:>2} ", c.month_name(), c.day).unwrap();
    if now - SIX_MONTHS_SECS <= secs && secs <= now + 3600 {
        write!(out, "{:02}:{:02} ", c.hour, c.minute).unwrap();
    } else {
        write!(out, " {} ", c.year).unwrap();
    }
    for b in e.shown.bytes() {
        match b {
            b'\\' | b'"' | b' ' => write!(out, "\\{}", b as char).unwrap(),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0x20..=0x7e => out.push(b as char),
            _ => write!(out, "\\{b:03o}").unwrap(),
        }
    }
    out.push('\n');
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ls_lines_are_gnu_finds() {
        let meta = Meta { dir: false, size: 6, kib: 4, links: 1, mtime_ms: 1_709_632_800_000.0 };
        let e = Entry { shown: "./a b\\é", start: ".", depth: 1, meta: Some(meta), dir: false, ino: 12 };
        let mut out = String::new();
        ls(&e, 1_795_749_644_000.0, &mut out).unwrap();
        assert_eq!(
            out,
            "       12      4 -rw-r--r--   1 user     user            6 Mar  5  2024 ./a\\ b\\\\\\303\\251\n"
        );
        out.clear();
        ls(&e, 1_709_632_800_000.0 + 179.0 * 86_400_000.0, &mut out).unwrap();
        assert!(out.contains(" Mar  5 10:00 "), "within six months of 30 days: {out}");
        out.clear();
        ls(&e, 1_709_632_800_000.0 + 181.0 * 86_400_000.0, &mut out).unwrap();
        assert!(out.contains(" Mar  5  2024 "));
    }

    fn printed(format: &str, shown: &str, start: &str, depth: usize) -> String {
        let meta = Meta { dir: false, size: 6, kib: 4, links: 1, mtime_ms: 1_709_632_800_000.0 };
        let mut out = String::new();
        let e = Entry { shown, start, depth, meta: Some(meta), dir: false, ino: 7 };
        print(&parse(format).unwrap(), &e, &mut out).unwrap();
        out
    }

    #[test]
    fn directives_print_as_gnu_find_prints_them() {
        assert_eq!(printed("[%h][%f][%P][%H][%d]\\n", "d/", "d/", 0), "[d][d/][][d/][0]\n");
        assert_eq!(printed("[%h][%f][%P][%H]", "/", "/", 0), "[][/][][/]");
        assert_eq!(printed("[%h][%f][%P]", "d/a.md", "d/", 1), "[d][a.md][a.md]");
        assert_eq!(printed("[%h][%f]", "d", "d", 0), "[.][d]");
        assert_eq!(printed("%m %M %k %b %n %y %s %%", "a", "a", 0), "644 -rw-r--r-- 4 8 1 f 6 %");
        assert_eq!(printed("%TY-%Tm-%Td %TH:%TM %Ta %Tb %Tj", "a", "a", 0), "2024-03-05 10:00 Tue Mar 065");
        assert_eq!(printed("%u %g %U %G %i", "a", "a", 0), "user user 1000 1000 7");
        assert_eq!(printed("%a|%c|%t", "a", "a", 0), ["Tue Mar  5 10:00:00.0000000000 2024"; 3].join("|"));
        assert_eq!(
            printed("%A+|%CT|%TS|%Tc|%Tr|%Tk|%TA|%TB|%Tu", "a", "a", 0).split('|').collect::<Vec<_>>(),
            [
                "2024-03-05+10:00:00.0000000000",
                "10:00:00.0000000000",
                "00.0000000000",
                "Tue Mar  5 10:00:00 2024",
                "10:00:00 AM",
                "10",
                "Tuesday",
                "March",
                "2"
            ]
        );
        assert!(parse("%10p").is_err() && parse("%TU").is_err());
    }
}
