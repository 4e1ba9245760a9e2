//! `find -printf FORMAT`: the directives whose values a copy on tmpfs and the listing
//! share (names, depth, type, size, blocks, links, permissions, modification time in
//! UTC) and the escapes. Owners, inodes, access and change times, SELinux contexts and
//! field widths are left to just-bash.

use crate::commands::meta::Meta;
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
                Some(d @ ('p' | 'f' | 'h' | 'P' | 'H' | 'd' | 's' | 'y' | 'Y' | 'm' | 'M' | 'k' | 'b' | 'n')) => {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                    pieces.push(Piece::Directive(d));
                }
                Some('T') => match chars.next() {
                    Some(t @ ('Y' | 'm' | 'd' | 'H' | 'M' | 'e' | 'a' | 'b' | 'y' | 'j' | '@' | 'D' | 'F' | 'R')) => {
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
        _ => unreachable!("parse keeps only these"),
    }
    Some(())
}

fn time(t: char, m: Meta, out: &mut String) {
    let (secs, nanos) = m.mtime_parts();
    let c = Civil::of(secs);
    match t {
        'Y' => write!(out, "{}", c.year),
        'm' => write!(out, "{:02}", c.month),
        'd' => write!(out, "{:02}", c.day),
        'e' => write!(out, "{:>2}", c.day),
        'H' => write!(out, "{:02}", c.hour),
        'M' => write!(out, "{:02}", c.minute),
        'a' => write!(out, "{}", c.weekday_name()),
        'b' => write!(out, "{}", c.month_name()),
        'y' => write!(out, "{:02}", c.year.rem_euclid(100)),
        'j' => write!(out, "{:03}", day_of_year(&c)),
        '@' => write!(out, "{secs}.{nanos:09}0"),
        'D' => write!(out, "{:02}/{:02}/{:02}", c.month, c.day, c.year.rem_euclid(100)),
        'F' => write!(out, "{}-{:02}-{:02}", c.year, c.month, c.day),
        'R' => write!(out, "{:02}:{:02}", c.hour, c.minute),
        _ => unreachable!("parse keeps only these"),
    }
    .unwrap();
}

fn day_of_year(c: &Civil) -> u32 {
    let leap = (c.year % 4 == 0 && c.year % 100 != 0) || c.year % 400 == 0;
    let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][c.month as usize - 1];
    before + c.day + u32::from(leap && c.month > 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(format: &str, shown: &str, start: &str, depth: usize) -> String {
        let meta = Meta { dir: false, size: 6, kib: 4, links: 1, mtime_ms: 1_709_632_800_000.0 };
        let mut out = String::new();
        let e = Entry { shown, start, depth, meta: Some(meta), dir: false };
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
        assert!(parse("%u").is_err() && parse("%10p").is_err());
    }
}
