//! `expand` and `unexpand`: tabs to spaces and back, over a list of tab stops
//! (`-t 4`, `-t 2,6,10`, a last `/N` for every N columns after it, or `+N` for every N
//! after the last stop), as coreutils 9.1 does it: a byte is a column, a backspace goes
//! back one, and the files are one stream (a line may go on from one file to the next).

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};
use crate::base::quote;

const EXPAND: &[getopt::Opt] =
    &[opt('i', "initial", Arg::No), opt('t', "tabs", Arg::Required), long("help", Arg::No), long("version", Arg::No)];

const UNEXPAND: &[getopt::Opt] = &[
    opt('a', "all", Arg::No),
    long("first-only", Arg::No),
    opt('t', "tabs", Arg::Required),
    // `-4,8`: each digit and comma an option of its own.
    short(",", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
];

/// Where the tabs stop: explicit columns, then every `extend` columns (`/N`) or every
/// `increment` columns after the last stop (`+N`).
#[derive(Default)]
struct Stops {
    list: Vec<u64>,
    extend: u64,
    increment: u64,
    /// One size for every tab (the only stop given, or 8).
    size: u64,
}

impl Stops {
    /// Adds the stops of `text` (a comma or blank separated list), or GNU's messages.
    fn parse(&mut self, text: &str, errors: &mut Vec<String>) {
        let quote = |rest: &[u8]| quote::quote(&String::from_utf8_lossy(rest));
        let bytes = text.as_bytes();
        let (mut have, mut value, mut extend, mut increment) = (false, 0u64, false, false);
        let mut start = 0;
        let mut ok = true;
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b',' | b' ' | b'\t' => {
                    if have && !self.add(value, extend, increment, errors) {
                        ok = false;
                        break;
                    }
                    have = false;
                }
                b'/' | b'+' => {
                    if have {
                        errors.push(format!(
                            "'{}' specifier not at start of number: {}",
                            c as char,
                            quote(&bytes[i..])
                        ));
                        ok = false;
                    }
                    (extend, increment) = (c == b'/', c == b'+');
                }
                b'0'..=b'9' => {
                    if !have {
                        (value, have, start) = (0, true, i);
                    }
                    match value.checked_mul(10).and_then(|v| v.checked_add(u64::from(c - b'0'))) {
                        Some(v) => value = v,
                        None => {
                            let len = bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
                            errors.push(format!("tab stop is too large {}", quote(&bytes[start..start + len])));
                            ok = false;
                            i = start + len - 1;
                        }
                    }
                }
                _ => {
                    errors.push(format!("tab size contains invalid character(s): {}", quote(&bytes[i..])));
                    ok = false;
                    break;
                }
            }
            i += 1;
        }
        if ok && have {
            self.add(value, extend, increment, errors);
        }
    }

    /// Adds one value: a stop, or the `/` or `+` size (false, with a message, when that
    /// size was given already).
    fn add(&mut self, value: u64, extend: bool, increment: bool, errors: &mut Vec<String>) -> bool {
        let (slot, c) = match (extend, increment) {
            (true, _) => (&mut self.extend, '/'),
            (_, true) => (&mut self.increment, '+'),
            _ => {
                self.list.push(value);
                return true;
            }
        };
        let fresh = *slot == 0;
        if !fresh {
            errors.push(format!("'{c}' specifier only allowed with the last value"));
        }
        *slot = value;
        fresh
    }

    /// Checks the stops once all are given (nonzero, ascending), and settles the size.
    fn finish(&mut self) -> Result<(), &'static str> {
        let mut prev = 0;
        for &tab in &self.list {
            if tab == 0 {
                return Err("tab size cannot be 0");
            }
            if tab <= prev {
                return Err("tab sizes must be ascending");
            }
            prev = tab;
        }
        if self.increment != 0 && self.extend != 0 {
            return Err("'/' specifier is mutually exclusive with '+'");
        }
        self.size = match self.list.len() {
            0 if self.extend != 0 => self.extend,
            0 if self.increment != 0 => self.increment,
            0 => 8,
            1 if self.extend == 0 && self.increment == 0 => self.list[0],
            _ => 0,
        };
        Ok(())
    }

    /// The column of the next tab stop after `column` (`index`: the first of the list not
    /// passed yet), or `None` past the last stop.
    fn next(&self, column: u64, index: &mut usize) -> Option<u64> {
        if self.size != 0 {
            return Some(column + (self.size - column % self.size));
        }
        while *index < self.list.len() {
            if column < self.list[*index] {
                return Some(self.list[*index]);
            }
            *index += 1;
        }
        if self.extend != 0 {
            return Some(column + (self.extend - column % self.extend));
        }
        if self.increment != 0 {
            let last = self.list[self.list.len() - 1];
            return Some(column + (self.increment - (column - last) % self.increment));
        }
        None
    }
}

/// `expand` or `unexpand`, by `ctx.name`.
pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let un = ctx.name == "unexpand";
    let (line, misuse) = getopt::read(
        &Grammar {
            opts: if un { UNEXPAND } else { EXPAND },
            permute: true,
            digits: if un { Digits::Each } else { Digits::Number },
            ..getopt::GETOPT_LONG
        },
        args,
    );
    let mut stops = Stops::default();
    let mut errors = Vec::new();
    let (mut all, mut first_only) = (!un, false);
    // unexpand's digit options: the stop being written.
    let mut digits: Option<u64> = None;
    for given in &line.opts {
        match given.key {
            "initial" => all = false,
            "all" => all = true,
            "first-only" => first_only = true,
            "tabs" => {
                all |= un;
                stops.parse(given.value.as_deref().unwrap_or_default(), &mut errors);
            }
            "help" | "version" => return Ok(ctx.about(given.key)),
            "," => stops.list.extend(digits.take()),
            digit if un => {
                let d = u64::from(digit.as_bytes()[0] - b'0');
                match digits.unwrap_or(0).checked_mul(10).and_then(|v| v.checked_add(d)) {
                    Some(v) => digits = Some(v),
                    None => errors.push("tab stop value is too large".into()),
                }
            }
            digit => stops.parse(&format!("{digit}{}", given.value.as_deref().unwrap_or_default()), &mut errors),
        }
        if !errors.is_empty() {
            for e in errors {
                ctx.error(e);
            }
            return Ok(1);
        }
    }
    if let Some(m) = misuse {
        return Ok(ctx.usage(&m.message(ctx.name), 1));
    }
    stops.list.extend(digits);
    if let Err(e) = stops.finish() {
        ctx.error(e);
        return Ok(1);
    }
    if first_only {
        all = false;
    }
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    // The files as one stream, as GNU reads them.
    let mut data = Vec::new();
    let mut status = 0;
    // Where in the stream each error was written, and how much of standard error it ends.
    let mut failed = Vec::new();
    for file in &files {
        match ctx.read_or_report(file)? {
            Some(bytes) => data.extend_from_slice(bytes),
            None => {
                status = 1;
                failed.push((data.len(), ctx.err.len()));
            }
        }
    }
    let mut marks = Marks::new(failed.iter().map(|&(at, _)| at).collect());
    let out = if un { unexpand(&data, &stops, all, &mut marks) } else { expand(&data, &stops, all, &mut marks) };
    // GNU writes what it made of the stream so far before each error.
    let before = ctx.out.len();
    ctx.err_at = marks.written.iter().zip(&failed).map(|(&written, &(_, err))| (before + written, err)).collect();
    ctx.print(out);
    Ok(status)
}

/// How much output a conversion had written when it reached each of some offsets of its
/// input (in order): where an error written between two files goes.
struct Marks {
    at: Vec<usize>,
    written: Vec<usize>,
}

impl Marks {
    fn new(at: Vec<usize>) -> Self {
        Marks { at, written: Vec::new() }
    }

    /// The conversion is about to read input offset `offset`, with `out` written so far
    /// (`usize::MAX`: it has read all of it).
    fn reach(&mut self, offset: usize, out: &[u8]) {
        while self.written.len() < self.at.len() && self.at[self.written.len()] <= offset {
            self.written.push(out.len());
        }
    }
}

/// `data` with its tabs as spaces (`all`: every tab, not only those in the leading blanks).
fn expand(data: &[u8], stops: &Stops, all: bool, marks: &mut Marks) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let (mut convert, mut column, mut index) = (true, 0u64, 0usize);
    for (offset, &c) in data.iter().enumerate() {
        marks.reach(offset, &out);
        let mut c = c;
        if convert {
            match c {
                b'\t' => {
                    let next = stops.next(column, &mut index).unwrap_or(column + 1);
                    while column + 1 < next {
                        out.push(b' ');
                        column += 1;
                    }
                    column = next;
                    c = b' ';
                }
                b'\x08' => {
                    column = column.saturating_sub(1);
                    index = index.saturating_sub(1);
                }
                _ => column += 1,
            }
            convert &= all || c == b' ' || c == b'\t';
        }
        out.push(c);
        if c == b'\n' {
            (convert, column, index) = (true, 0, 0);
        }
    }
    marks.reach(usize::MAX, &out);
    out
}

/// `data` with runs of blanks that reach a tab stop as tabs (`all`: everywhere, not only
/// in the leading blanks), as unexpand.c's loop does it; blanks it holds back are not yet
/// written at a mark.
fn unexpand(data: &[u8], stops: &Stops, all: bool, marks: &mut Marks) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut pending: Vec<u8> = Vec::new();
    let mut lines = data.split_inclusive(|&b| b == b'\n');
    let mut offset = 0;
    for line in lines.by_ref() {
        let (mut convert, mut column, mut index) = (true, 0u64, 0usize);
        let (mut one_before_stop, mut prev_blank) = (false, true);
        // Each byte, then the end of the line's text (`None`) when it has no newline.
        let ends = line.last() != Some(&b'\n');
        for c in line.iter().map(|&c| Some(c)).chain(ends.then_some(None)) {
            if c.is_some() {
                marks.reach(offset, &out);
                offset += 1;
            }
            let mut c = c;
            if convert {
                let blank = matches!(c, Some(b' ' | b'\t'));
                if blank {
                    match stops.next(column, &mut index) {
                        None => convert = false,
                        Some(next) => {
                            if c == Some(b'\t') {
                                column = next;
                                if let Some(first) = pending.first_mut() {
                                    *first = b'\t';
                                }
                            } else {
                                column += 1;
                                if !(prev_blank && column == next) {
                                    if column == next {
                                        one_before_stop = true;
                                    }
                                    pending.push(b' ');
                                    prev_blank = true;
                                    continue;
                                }
                                if let Some(first) = pending.first_mut() {
                                    *first = b'\t';
                                }
                                c = Some(b'\t');
                            }
                            // Keep a single blank just before the previous stop only.
                            pending.truncate(usize::from(one_before_stop));
                        }
                    }
                } else if c == Some(b'\x08') {
                    column = column.saturating_sub(1);
                    index = index.saturating_sub(1);
                } else {
                    column += 1;
                }
                if !pending.is_empty() {
                    if pending.len() > 1 && one_before_stop {
                        pending[0] = b'\t';
                    }
                    out.append(&mut pending);
                    one_before_stop = false;
                }
                prev_blank = blank;
                convert &= all || blank;
            }
            out.extend(c);
        }
    }
    marks.reach(usize::MAX, &out);
    out
}
