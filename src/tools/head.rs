//! `head`: the first (or all but the last) lines or bytes of each file, as coreutils 9.1.

use super::ctx::{Ctx, Status};
use super::lines;
use super::num::{self, SIZE_SUFFIXES};
use crate::base::getopt::{self, alias, opt, Arg, Digits, Grammar};
use crate::base::quote::quoteaf;

const OPTS: &[getopt::Opt] = &[
    opt('c', "bytes", Arg::Required),
    opt('n', "lines", Arg::Required),
    opt('q', "quiet", Arg::No),
    alias("silent", Arg::No, "quiet"),
    opt('v', "verbose", Arg::No),
    opt('z', "zero-terminated", Arg::No),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// How much of each file.
#[derive(Clone, Copy)]
struct Amount {
    lines: bool,
    /// All but the last `n`.
    all_but: bool,
    n: u64,
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let mut args = args.to_vec();
    let mut amount = Amount { lines: true, all_but: false, n: 10 };
    let mut headers: Option<bool> = None;
    let mut end = b'\n';
    // `head -5c`: the obsolete form, a dash, digits and option letters, first.
    if let Some(first) = args.first().filter(|a| a.len() > 1 && a.starts_with('-') && a.as_bytes()[1].is_ascii_digit())
    {
        let digits: String = first[1..].chars().take_while(char::is_ascii_digit).collect();
        let mut suffix = String::new();
        for c in first[1 + digits.len()..].chars() {
            match c {
                'c' => (amount.lines, suffix) = (false, String::new()),
                'b' | 'k' | 'm' => (amount.lines, suffix) = (false, c.to_string()),
                'l' => amount.lines = true,
                'q' => headers = Some(false),
                'v' => headers = Some(true),
                'z' => end = 0,
                c => {
                    ctx.error(format!("invalid trailing option -- {c}"));
                    return Ok(ctx.usage("", 1));
                }
            }
        }
        match count(&format!("{digits}{suffix}"), amount.lines) {
            Ok(n) => amount.n = n,
            Err(message) => {
                ctx.error(message);
                return Ok(1);
            }
        }
        args.remove(0);
    }
    let line = match getopt::parse(&GRAMMAR, &args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    for given in &line.opts {
        let value = given.value.as_deref().unwrap_or_default();
        match given.key {
            "bytes" | "lines" => {
                let lines = given.key == "lines";
                let (all_but, digits) = match value.strip_prefix('-') {
                    Some(rest) => (true, rest),
                    None => (false, value),
                };
                match count(digits, lines) {
                    Ok(n) => amount = Amount { lines, all_but, n },
                    Err(_) => {
                        let message = count(digits, lines).err().unwrap_or_default();
                        // The message names the value as given, sign and all.
                        ctx.error(message.replacen(&format!("‘{digits}’"), &format!("‘{value}’"), 1));
                        return Ok(1);
                    }
                }
            }
            "quiet" => headers = Some(false),
            "verbose" => headers = Some(true),
            "zero-terminated" => end = 0,
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    let headers = headers.unwrap_or(files.len() > 1);
    let mut status = 0;
    let mut first = true;
    for file in &files {
        let shown = if file == "-" { "standard input" } else { file.as_str() };
        let data = match ctx.read(file)? {
            Ok(data) => data,
            Err(e) if e.is_dir() => {
                print_header(ctx, headers, &mut first, shown);
                ctx.error(format!("error reading {}: {}", quoteaf(file), e.text));
                status = 1;
                continue;
            }
            Err(e) => {
                ctx.error(format!("cannot open {} for reading: {}", quoteaf(file), e.text));
                status = 1;
                continue;
            }
        };
        print_header(ctx, headers, &mut first, shown);
        let taken = take(data, amount, end);
        ctx.print(taken);
    }
    Ok(status)
}

/// `==> name <==`, after a blank line unless it is the first.
fn print_header(ctx: &mut Ctx, headers: bool, first: &mut bool, shown: &str) {
    if headers {
        let gap = if *first { "" } else { "\n" };
        ctx.print(format!("{gap}==> {shown} <==\n"));
        *first = false;
    }
}

/// The part of `data` head prints.
fn take(data: &[u8], amount: Amount, end: u8) -> &[u8] {
    let n = usize::try_from(amount.n).unwrap_or(usize::MAX);
    match (amount.lines, amount.all_but) {
        (false, false) => &data[..n.min(data.len())],
        (false, true) => &data[..data.len().saturating_sub(n)],
        (true, false) => {
            let stop = memchr::memchr_iter(end, data).nth(n.wrapping_sub(1)).map_or(data.len(), |i| i + 1);
            if n == 0 {
                &data[..0]
            } else {
                &data[..stop]
            }
        }
        (true, true) => &data[..lines::start_of_last(data, amount.n, end)],
    }
}

/// A count of lines or bytes, or GNU's message refusing it.
fn count(text: &str, lines: bool) -> Result<u64, String> {
    let what = if lines { "invalid number of lines" } else { "invalid number of bytes" };
    num::count(text, SIZE_SUFFIXES).map_err(|bad| num::refused(what, text, bad))
}
