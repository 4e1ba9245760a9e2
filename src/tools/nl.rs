//! `nl`: lines numbered, as coreutils 9.1 numbers them: body, header and footer sections
//! split by delimiter lines (`\:\:\:`, `\:\:`, `\:`), each with its numbering style.

use super::bre;
use super::ctx::{Ctx, Status};
use super::decimal;
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};

const OPTS: &[getopt::Opt] = &[
    opt('h', "header-numbering", Arg::Required),
    opt('b', "body-numbering", Arg::Required),
    opt('f', "footer-numbering", Arg::Required),
    opt('v', "starting-line-number", Arg::Required),
    opt('i', "line-increment", Arg::Required),
    opt('p', "no-renumber", Arg::No),
    opt('l', "join-blank-lines", Arg::Required),
    opt('s', "number-separator", Arg::Required),
    opt('w', "number-width", Arg::Required),
    opt('n', "number-format", Arg::Required),
    opt('d', "section-delimiter", Arg::Required),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];

/// Which lines of a section are numbered.
enum Style {
    All,
    NonEmpty,
    None,
    Matching(regex_lite::Regex),
}

/// How numbers are laid out (`-n`).
#[derive(Clone, Copy)]
enum Layout {
    Left,
    Right,
    Zeros,
}

/// Everything nl's options set, and where the numbering is.
struct Nl {
    styles: [Style; 3],
    start: i64,
    incr: i64,
    renumber: bool,
    join: i64,
    sep: String,
    width: usize,
    layout: Layout,
    /// Delimiter lines of header, body, footer.
    delims: [Vec<u8>; 3],
    current: usize,
    line_no: i64,
    blanks: i64,
}

/// A numbering style of `-b`/`-h`/`-f`; `Err(None)` when it is not one, `Err(Some)` with
/// the message for a regular expression refused.
fn style(text: &str) -> Result<Style, Option<String>> {
    match text.as_bytes().first() {
        Some(b'a') => Ok(Style::All),
        Some(b't') => Ok(Style::NonEmpty),
        Some(b'n') => Ok(Style::None),
        Some(b'p') => bre::compile(&text[1..], false).map(Style::Matching).map_err(Some),
        _ => Err(None),
    }
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line =
        match getopt::parse(&Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG }, args) {
            Ok(line) => line,
            Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
        };
    let mut nl = Nl {
        styles: [Style::None, Style::NonEmpty, Style::None],
        start: 1,
        incr: 1,
        renumber: true,
        join: 1,
        sep: "\t".into(),
        width: 6,
        layout: Layout::Right,
        delims: Default::default(),
        current: 1,
        line_no: 1,
        blanks: 0,
    };
    let mut section = b"\\:".to_vec();
    let mut ok = true;
    for given in &line.opts {
        let value = given.value.clone().unwrap_or_default();
        let number = |min: i128, max: i128, what: &str| decimal::read(&value, min, max, true, what);
        let (i64min, i64max) = (i128::from(i64::MIN), i128::from(i64::MAX));
        let read = match given.key {
            "header-numbering" | "body-numbering" | "footer-numbering" => {
                let (at, name) = match given.key {
                    "header-numbering" => (0, "header"),
                    "body-numbering" => (1, "body"),
                    _ => (2, "footer"),
                };
                match style(&value) {
                    Ok(s) => nl.styles[at] = s,
                    Err(Some(message)) => {
                        ctx.error(message);
                        return Ok(1);
                    }
                    Err(None) => {
                        ctx.error(format!("invalid {name} numbering style: ‘{value}’"));
                        ok = false;
                    }
                }
                Ok(())
            }
            "starting-line-number" => {
                number(i64min, i64max, "invalid starting line number").map(|n| nl.start = n as i64)
            }
            "line-increment" => number(i64min, i64max, "invalid line number increment").map(|n| nl.incr = n as i64),
            "join-blank-lines" => number(1, i64max, "invalid line number of blank lines").map(|n| nl.join = n as i64),
            "number-width" => {
                number(1, i128::from(i32::MAX), "invalid line number field width").map(|n| nl.width = n as usize)
            }
            "no-renumber" => {
                nl.renumber = false;
                Ok(())
            }
            "number-separator" => {
                nl.sep = value;
                Ok(())
            }
            "number-format" => {
                match value.as_str() {
                    "ln" => nl.layout = Layout::Left,
                    "rn" => nl.layout = Layout::Right,
                    "rz" => nl.layout = Layout::Zeros,
                    _ => {
                        ctx.error(format!("invalid line numbering format: ‘{value}’"));
                        ok = false;
                    }
                }
                Ok(())
            }
            "section-delimiter" => {
                let v = value.as_bytes();
                if v.len() == 1 || v.len() == 2 {
                    section[..v.len()].copy_from_slice(v);
                } else {
                    section = v.to_vec();
                }
                Ok(())
            }
            _ => return Ok(ctx.about(given.key)),
        };
        if let Err(message) = read {
            ctx.error(message);
            return Ok(1);
        }
    }
    if !ok {
        return Ok(ctx.usage("", 1));
    }
    nl.delims = [section.repeat(3), section.repeat(2), section];
    nl.line_no = nl.start;
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    let mut status = 0;
    for file in &files {
        // Each file's lines go out before the error of a file after it, as nl writes them.
        let Some(data) = ctx.read_or_report(file)? else {
            status = 1;
            continue;
        };
        let mut out = Vec::new();
        for text in data.split_inclusive(|&b| b == b'\n') {
            nl.line(text.strip_suffix(b"\n").unwrap_or(text), &mut out);
        }
        ctx.print(out);
    }
    Ok(status)
}

impl Nl {
    /// One line (without its newline): a section's delimiter, or text numbered or not.
    fn line(&mut self, text: &[u8], out: &mut Vec<u8>) {
        let section = &self.delims[2];
        if text.len() >= 2 && section.len() >= 2 && text.starts_with(&section[..2]) {
            if let Some(at) = self.delims.iter().position(|d| d == text) {
                self.current = at;
                if self.renumber {
                    self.line_no = self.start;
                }
                out.push(b'\n');
                return;
            }
        }
        let numbered = match &self.styles[self.current] {
            Style::All if self.join > 1 => {
                self.blanks += 1;
                let n = !text.is_empty() || self.blanks == self.join;
                if n {
                    self.blanks = 0;
                }
                n
            }
            Style::All => true,
            Style::NonEmpty => !text.is_empty(),
            Style::None => false,
            Style::Matching(re) => re.is_match(&String::from_utf8_lossy(text)),
        };
        if numbered {
            let (n, w, sep) = (self.line_no, self.width, &self.sep);
            out.extend_from_slice(
                match self.layout {
                    Layout::Left => format!("{n:<w$}{sep}"),
                    Layout::Right => format!("{n:>w$}{sep}"),
                    Layout::Zeros => format!("{n:0w$}{sep}"),
                }
                .as_bytes(),
            );
            self.line_no = self.line_no.wrapping_add(self.incr);
        } else {
            out.resize(out.len() + self.width + self.sep.len(), b' ');
        }
        out.extend_from_slice(text);
        out.push(b'\n');
    }
}
