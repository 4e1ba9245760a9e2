//! `wc`: newline, word, character and byte counts and the widest line of each file, as
//! coreutils 9.1 prints them in the `C.UTF-8` locale.

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, long, opt, Arg, Digits, Grammar};
use crate::base::quote::{quoteaf, quotef};
use crate::base::width;

const OPTS: &[getopt::Opt] = &[
    opt('c', "bytes", Arg::No),
    opt('m', "chars", Arg::No),
    opt('l', "lines", Arg::No),
    long("files0-from", Arg::Required),
    opt('L', "max-line-length", Arg::No),
    opt('w', "words", Arg::No),
    long("debug", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// One file's counts (or the total's), in the order wc prints them.
#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    longest: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.lines += o.lines;
        self.words += o.words;
        self.chars += o.chars;
        self.bytes += o.bytes;
        self.longest = self.longest.max(o.longest);
    }
}

/// The counts of `data`: characters are UTF-8's (a byte that starts none is a byte but
/// no character, and neither makes nor ends a word).
fn count(data: &[u8]) -> Counts {
    let mut c = Counts { bytes: data.len() as u64, ..Counts::default() };
    let (mut in_word, mut pos) = (false, 0u64);
    for chunk in data.utf8_chunks() {
        for ch in chunk.valid().chars() {
            c.chars += 1;
            let separates = match ch {
                '\n' | '\r' | '\x0c' => {
                    c.lines += u64::from(ch == '\n');
                    c.longest = c.longest.max(pos);
                    pos = 0;
                    true
                }
                '\t' => {
                    pos += 8 - pos % 8;
                    true
                }
                ' ' => {
                    pos += 1;
                    true
                }
                '\x0b' => true,
                ch if width::printable(ch) => {
                    pos += width::width(ch) as u64;
                    matches!(ch, '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{2060}')
                        || ch == '\u{3000}'
                }
                _ => continue,
            };
            if separates {
                c.words += u64::from(in_word);
                in_word = false;
            } else {
                in_word = true;
            }
        }
    }
    // A truncated character at the very end is bytes only.
    c.longest = c.longest.max(pos);
    c.words += u64::from(in_word);
    c
}

/// Which counts to print.
#[derive(Clone, Copy)]
struct Shown {
    lines: bool,
    words: bool,
    chars: bool,
    bytes: bool,
    longest: bool,
}

/// The counts line: each number right-aligned in `width` columns, one space between,
/// then the name.
fn line(c: &Counts, shown: Shown, width: usize, name: Option<&str>) -> String {
    let fields = [
        (shown.lines, c.lines),
        (shown.words, c.words),
        (shown.chars, c.chars),
        (shown.bytes, c.bytes),
        (shown.longest, c.longest),
    ];
    let numbers: Vec<String> = fields.iter().filter(|f| f.0).map(|f| format!("{:>width$}", f.1)).collect();
    let mut s = numbers.join(" ");
    if let Some(name) = name {
        s.push(' ');
        s.push_str(&if name.contains('\n') { quotef(name) } else { name.to_string() });
    }
    s.push('\n');
    s
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line_read = match getopt::parse(&GRAMMAR, args) {
        Ok(l) => l,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let mut shown = Shown { lines: false, words: false, chars: false, bytes: false, longest: false };
    let mut from: Option<String> = None;
    for given in &line_read.opts {
        match given.key {
            "bytes" => shown.bytes = true,
            "chars" => shown.chars = true,
            "lines" => shown.lines = true,
            "words" => shown.words = true,
            "max-line-length" | "L" => shown.longest = true,
            "files0-from" => from = given.value.clone(),
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    let picked = [shown.lines, shown.words, shown.chars, shown.bytes, shown.longest];
    let how_many = picked.iter().filter(|&&b| b).count();
    if how_many == 0 {
        (shown.lines, shown.words, shown.bytes) = (true, true, true);
    }
    let mut status = 0;
    // The names, and whether their number was known before reading them (it sets the width).
    let (names, listed): (Vec<Option<String>>, bool) = match &from {
        Some(f) => {
            if let Some(extra) = line_read.operands.first() {
                ctx.error(format!("extra operand {}", quoteaf(extra)));
                ctx.err.push_str("file operands cannot be combined with --files0-from\n");
                return Ok(ctx.usage("", 1));
            }
            let list = if f == "-" {
                ctx.stdin()
            } else {
                ctx.want([f.as_str()])?;
                match ctx.read(f)? {
                    Ok(list) => list,
                    Err(e) if e.is_dir() => {
                        ctx.error(format!("{}: read error: {}", quotef(f), e.text));
                        return Ok(1);
                    }
                    Err(e) => {
                        ctx.error(format!("cannot open {} for reading: {}", quoteaf(f), e.text));
                        return Ok(1);
                    }
                }
            };
            let mut names: Vec<Option<String>> =
                list.split(|&b| b == 0).map(|n| Some(String::from_utf8_lossy(n).into_owned())).collect();
            if list.is_empty() || list.ends_with(&[0]) {
                names.pop();
            }
            (names, f != "-")
        }
        None if line_read.operands.is_empty() => (vec![None], true),
        None => (line_read.operands.iter().cloned().map(Some).collect(), true),
    };
    let stdin_names = from.as_deref() == Some("-");
    ctx.want(
        names.iter().flatten().filter(|n| !(n.is_empty() || stdin_names && n.as_str() == "-")).map(String::as_str),
    )?;
    // The width: one column for a single count of a single file; otherwise the digits of
    // the regular files' total size, at least 7 when one of them is not a regular file
    // (standard input, a directory); files that cannot be found do not count.
    let mut width = 1;
    if listed && !names.is_empty() && !(names.len() == 1 && how_many == 1) {
        let mut sizes = Vec::new();
        for name in &names {
            sizes.push(match name.as_deref() {
                None | Some("-") => Some(None),
                Some("") => None,
                Some(n) => match ctx.read(n)? {
                    Ok(data) => Some(Some(data.len() as u64)),
                    Err(e) if e.is_dir() => Some(None),
                    Err(_) => None,
                },
            });
        }
        let total: u64 = sizes.iter().flatten().flatten().sum();
        let least = if sizes.iter().flatten().any(Option::is_none) { 7 } else { 1 };
        width = total.to_string().len().max(least);
    }
    let mut total = Counts::default();
    for (i, name) in names.iter().enumerate() {
        let counts = match name.as_deref() {
            None => count(ctx.stdin()),
            Some("-") if stdin_names => {
                ctx.error(format!("when reading file names from stdin, no file name of {} allowed", quoteaf("-")));
                status = 1;
                continue;
            }
            Some("") => {
                match &from {
                    None => ctx.error("invalid zero-length file name"),
                    Some(f) => ctx.error(format!("{}:{}: invalid zero-length file name", quotef(f), i + 1)),
                }
                status = 1;
                continue;
            }
            Some(n) => match ctx.read(n)? {
                Ok(data) => count(data),
                Err(e) if e.is_dir() => {
                    ctx.error(format!("{}: {}", quotef(n), e.text));
                    status = 1;
                    Counts::default()
                }
                Err(e) => {
                    ctx.error(format!("{}: {}", quotef(n), e.text));
                    status = 1;
                    continue;
                }
            },
        };
        let text = line(&counts, shown, width, name.as_deref());
        ctx.print(text);
        total.add(&counts);
    }
    if names.len() > 1 {
        let text = line(&total, shown, width, Some("total"));
        ctx.print(text);
    }
    Ok(status)
}
