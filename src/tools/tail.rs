//! `tail`: the last (or all from the Nth) lines or bytes of each file, as coreutils 9.1.
//!
//! Files here do not grow, so `-f`/`-F` print what tail prints without them and stop
//! where GNU's would go on waiting; what GNU says and does when there is nothing to
//! follow (standard input, a directory, a missing file) is kept.

use super::ctx::{Ctx, Status};
use super::lines;
use super::num::{self, SIZE_SUFFIXES};
use crate::base::getopt::{self, alias, long, opt, short, Arg, Digits, Grammar};
use crate::base::quote::{quoteaf, quotef};

const OPTS: &[getopt::Opt] = &[
    opt('c', "bytes", Arg::Required),
    long("follow", Arg::Optional),
    short("f", Arg::No),
    short("F", Arg::No),
    opt('n', "lines", Arg::Required),
    long("max-unchanged-stats", Arg::Required),
    long("-disable-inotify", Arg::No),
    long("pid", Arg::Required),
    long("-presume-input-pipe", Arg::No),
    opt('q', "quiet", Arg::No),
    long("retry", Arg::No),
    alias("silent", Arg::No, "quiet"),
    opt('s', "sleep-interval", Arg::Required),
    opt('v', "verbose", Arg::No),
    opt('z', "zero-terminated", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::Each, ..getopt::GETOPT_LONG };

/// What to print of each file.
#[derive(Clone, Copy)]
struct Amount {
    lines: bool,
    /// From the `n`th (`+n`) rather than the last `n`.
    from_start: bool,
    n: u64,
}

/// Following, as asked: forever, by name (`-F`, `--follow=name`), retrying.
#[derive(Default)]
struct Follow {
    forever: bool,
    by_name: bool,
    retry: bool,
}

/// `tail -5`, `tail +3c`, `tail -2f`: the obsolete first option, when the line has that
/// shape; `Err` with GNU's message when its number is too large.
fn obsolete(args: &[String], amount: &mut Amount, follow: &mut Follow) -> Option<Result<(), String>> {
    let shape = match args.len() {
        1 => true,
        2 => !(args[1].starts_with('-') && args[1].len() > 1) || args[1] == "--",
        3 => args[1] == "--",
        _ => false,
    };
    let word = args.first().filter(|_| shape)?;
    let (from_start, rest) = match word.as_bytes().first() {
        Some(b'+') => (true, &word[1..]),
        Some(b'-') if !(rest_is_bare(&word[1..])) => (false, &word[1..]),
        _ => return None,
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let mut after = &rest[digits..];
    let (mut lines, mut default) = (true, 10u64);
    match after.bytes().next() {
        Some(b'b') => (lines, default) = (false, 5120),
        Some(b'c') => lines = false,
        _ => {}
    }
    if matches!(after.bytes().next(), Some(b'b' | b'c' | b'l')) {
        after = &after[1..];
    }
    let forever = after == "f";
    if !after.is_empty() && !forever {
        return None;
    }
    let n = if digits == 0 {
        Some(default)
    } else {
        let n = rest[..digits].parse::<u64>().ok();
        if rest[digits..].starts_with('b') {
            n.and_then(|n| n.checked_mul(512))
        } else {
            n
        }
    };
    let Some(n) = n else {
        return Some(Err(format!("invalid number: ‘{word}’: Numerical result out of range")));
    };
    *amount = Amount { lines, from_start, n };
    follow.forever = forever;
    Some(Ok(()))
}

/// A digit among short options ahead of the first letter tail does not know (`-1k`):
/// getopt meets the digit first, and GNU's tail refuses it there.
fn digit_before_misuse(args: &[String]) -> Option<char> {
    let mut value_next = false;
    for word in args.iter().take_while(|w| *w != "--") {
        let cluster = word.strip_prefix('-').filter(|c| !c.is_empty() && !c.starts_with('-') && !value_next);
        value_next = false;
        for c in cluster.unwrap_or_default().chars() {
            if c.is_ascii_digit() {
                return Some(c);
            }
            if !OPTS.iter().any(|o| o.short == Some(c)) {
                return None;
            }
            if "cns".contains(c) {
                value_next = cluster.is_some_and(|w| w.find(c) == Some(w.len() - 1));
                break;
            }
        }
    }
    None
}

/// `-` alone, or `-c` alone: an operand and an option needing its value, not the old form.
fn rest_is_bare(rest: &str) -> bool {
    rest.is_empty() || rest == "c"
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let mut amount = Amount { lines: true, from_start: false, n: 10 };
    let mut follow = Follow::default();
    let mut args = args;
    match obsolete(args, &mut amount, &mut follow) {
        Some(Ok(())) => args = &args[1..],
        Some(Err(message)) => {
            ctx.error(message);
            return Ok(1);
        }
        None => {}
    }
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => {
            if let Some(digit) = digit_before_misuse(args) {
                ctx.error(format!("option used in invalid context -- {digit}"));
                return Ok(1);
            }
            return Ok(ctx.usage(&m.message(ctx.name), 1));
        }
    };
    let mut headers: Option<bool> = None;
    let mut end = b'\n';
    let mut pid = false;
    for given in &line.opts {
        let value = given.value.as_deref().unwrap_or_default();
        match given.key {
            "bytes" | "lines" => {
                let lines = given.key == "lines";
                let from_start = value.starts_with('+');
                let shown = value.strip_prefix('-').unwrap_or(value);
                let digits = shown.strip_prefix('+').unwrap_or(shown);
                let what = if lines { "invalid number of lines" } else { "invalid number of bytes" };
                match num::count(digits, SIZE_SUFFIXES) {
                    Ok(n) => amount = Amount { lines, from_start: amount.from_start || from_start, n },
                    Err(bad) => {
                        ctx.error(num::refused(what, shown, bad));
                        return Ok(1);
                    }
                }
            }
            "f" | "follow" => {
                follow.forever = true;
                follow.by_name = false;
                if let Some(mode) = &given.value {
                    match ["descriptor", "name"].iter().filter(|m| m.starts_with(mode.as_str())).collect::<Vec<_>>()[..]
                    {
                        [m] => follow.by_name = *m == "name",
                        ref many => {
                            let how = if many.is_empty() { "invalid" } else { "ambiguous" };
                            ctx.error(format!("{how} argument ‘{mode}’ for ‘--follow’"));
                            ctx.err.push_str("Valid arguments are:\n  - ‘descriptor’\n  - ‘name’\n");
                            return Ok(ctx.usage("", 1));
                        }
                    }
                }
            }
            "F" => (follow.forever, follow.by_name, follow.retry) = (true, true, true),
            "retry" => follow.retry = true,
            "max-unchanged-stats" | "pid" => {
                if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) || value.len() > 19 {
                    let what = if given.key == "pid" {
                        "invalid PID"
                    } else {
                        "invalid maximum number of unchanged stats between opens"
                    };
                    ctx.error(format!("{what}: ‘{value}’"));
                    return Ok(1);
                }
                pid |= given.key == "pid" && value.bytes().any(|b| b != b'0');
            }
            "sleep-interval" if !value.trim_start().parse::<f64>().is_ok_and(|s| s >= 0.0) => {
                ctx.error(format!("invalid number of seconds: ‘{value}’"));
                return Ok(1);
            }
            "quiet" => headers = Some(false),
            "verbose" => headers = Some(true),
            "zero-terminated" => end = 0,
            "help" | "version" => return Ok(ctx.about(given.key)),
            digit if digit.len() == 1 && digit.as_bytes()[0].is_ascii_digit() => {
                ctx.error(format!("option used in invalid context -- {digit}"));
                return Ok(1);
            }
            _ => {}
        }
    }
    if follow.retry && !follow.forever {
        follow.retry = false;
        ctx.error("warning: --retry ignored; --retry is useful only when following");
    } else if follow.retry && !follow.by_name {
        ctx.error("warning: --retry only effective for the initial open");
    }
    if pid && !follow.forever {
        ctx.error("warning: PID ignored; --pid=PID is useful only when following");
    }
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    if follow.by_name && files.iter().any(|f| f == "-") {
        ctx.error(format!("cannot follow {} by name", quoteaf("-")));
        return Ok(1);
    }
    if amount.n == 0 && !follow.forever && !amount.from_start {
        return Ok(0);
    }
    ctx.want(files.iter().map(String::as_str))?;
    let headers = headers.unwrap_or(files.len() > 1);
    let (mut status, mut first, mut live) = (0, true, false);
    for file in &files {
        let shown = if file == "-" { "standard input" } else { file.as_str() };
        match ctx.read(file)? {
            Ok(data) => {
                print_header(ctx, headers, &mut first, shown);
                ctx.print(take(data, amount, end));
                live |= file != "-";
            }
            Err(e) if e.is_dir() => {
                print_header(ctx, headers, &mut first, shown);
                ctx.error(format!("error reading {}: {}", quoteaf(shown), e.text));
                if follow.forever {
                    let giving_up = if follow.retry { "" } else { "; giving up on this name" };
                    ctx.error(format!("{}: cannot follow end of this type of file{giving_up}", quotef(shown)));
                }
                live |= follow.retry;
                status = 1;
            }
            Err(e) => {
                ctx.error(format!("cannot open {} for reading: {}", quoteaf(shown), e.text));
                live |= follow.retry;
                status = 1;
            }
        }
    }
    // GNU's tail would now wait for more of the files it follows; with none left to
    // follow (standard input, a pipe, is never followed), it says so.
    if follow.forever && files.iter().any(|f| f != "-") && !live {
        ctx.error("no files remaining");
        status = 1;
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

/// The part of `data` tail prints.
fn take(data: &[u8], amount: Amount, end: u8) -> &[u8] {
    let n = usize::try_from(amount.n).unwrap_or(usize::MAX);
    match (amount.lines, amount.from_start) {
        (false, false) => &data[data.len().saturating_sub(n)..],
        (false, true) => &data[n.saturating_sub(1).min(data.len())..],
        (true, false) => &data[lines::start_of_last(data, amount.n, end)..],
        (true, true) => {
            let skip = n.saturating_sub(1);
            let start =
                if skip == 0 { 0 } else { memchr::memchr_iter(end, data).nth(skip - 1).map_or(data.len(), |i| i + 1) };
            &data[start..]
        }
    }
}
