//! `cmp`: compares two files byte by byte, as GNU diffutils 3.8's cmp: the first
//! difference (`-b` with the bytes), every difference (`-l`), or only the status (`-s`),
//! after skipping initial bytes (`-i`, or the SKIP operands) and up to a limit (`-n`).

use super::ctx::{Ctx, Status};
use super::num;
use crate::base::getopt::{self, alias, opt, Arg, Digits, Grammar};

const OPTS: &[getopt::Opt] = &[
    opt('b', "print-bytes", Arg::No),
    opt('i', "ignore-initial", Arg::Required),
    opt('l', "verbose", Arg::No),
    opt('n', "bytes", Arg::Required),
    opt('s', "quiet", Arg::No),
    alias("silent", Arg::No, "quiet"),
    getopt::long("help", Arg::No),
    opt('v', "version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// What is printed about the files.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Report {
    First,
    All,
    Status,
}

fn try_help(ctx: &mut Ctx, message: String) -> i32 {
    if !message.is_empty() {
        ctx.error(message);
    }
    ctx.error("Try 'cmp --help' for more information.");
    2
}

/// A byte count with cmp's suffixes.
fn bytes(text: &str) -> Option<u64> {
    num::count(text, "kKMGTPEZY").ok()
}

/// A byte as `cat -v` shows it (`-b`).
fn shown(c: u8) -> String {
    let mut s = String::new();
    let mut c = c;
    if c >= 128 {
        s.push_str("M-");
        c -= 128;
    }
    match c {
        0..=31 => {
            s.push('^');
            s.push((c + 64) as char);
        }
        127 => s.push_str("^?"),
        _ => s.push(c as char),
    }
    s
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(l) => l,
        Err(m) => {
            ctx.err.push_str(&m.message("cmp"));
            return Ok(try_help(ctx, String::new()));
        }
    };
    let (mut report, mut print_bytes) = (Report::First, false);
    let mut skip: [Option<u64>; 2] = [None, None];
    let mut limit = u64::MAX;
    for g in &line.opts {
        let value = g.value.clone().unwrap_or_default();
        match g.key {
            "print-bytes" => print_bytes = true,
            "verbose" => report = Report::All,
            "quiet" => report = Report::Status,
            "bytes" => match bytes(&value) {
                Some(n) => limit = limit.min(n),
                None => return Ok(try_help(ctx, format!("invalid --bytes value '{value}'"))),
            },
            "ignore-initial" => {
                let (a, b) = value.split_once(':').unwrap_or((&value, &value));
                // GNU names the whole value when its first part is wrong, else the second.
                match (bytes(a), bytes(b)) {
                    (Some(a), Some(b)) => skip = [Some(a), Some(b)],
                    (Some(_), None) => return Ok(try_help(ctx, format!("invalid --ignore-initial value '{b}'"))),
                    _ => return Ok(try_help(ctx, format!("invalid --ignore-initial value '{value}'"))),
                }
            }
            "help" | "version" => return Ok(ctx.about(g.key)),
            _ => {}
        }
    }
    let ops = &line.operands;
    if ops.is_empty() {
        return Ok(try_help(ctx, format!("missing operand after '{}'", args.last().map_or("cmp", String::as_str))));
    }
    if ops.len() > 4 {
        return Ok(try_help(ctx, format!("extra operand '{}'", ops[4])));
    }
    // A SKIP operand raises the skip `-i` gave, never lowers it.
    for (f, skip) in skip.iter_mut().enumerate() {
        if let Some(s) = ops.get(2 + f) {
            match bytes(s) {
                Some(n) => *skip = Some(skip.map_or(n, |old| old.max(n))),
                None => return Ok(try_help(ctx, format!("invalid --ignore-initial value '{s}'"))),
            }
        }
    }
    let names = [ops[0].as_str(), ops.get(1).map_or("-", String::as_str)];
    ctx.want(names)?;
    let mut data: [&[u8]; 2] = [&[], &[]];
    for f in 0..2 {
        match ctx.read(names[f])? {
            Ok(d) => data[f] = d,
            Err(e) => {
                if report != Report::Status {
                    ctx.error(format!("{}: {}", names[f], e.text));
                }
                return Ok(2);
            }
        }
    }
    let skip = [skip[0].unwrap_or(0), skip[1].unwrap_or(0)];
    if names[0] == names[1] && skip[0] == skip[1] {
        return Ok(0);
    }
    let part = |f: usize| {
        let d = data[f];
        let from = usize::try_from(skip[f]).unwrap_or(usize::MAX).min(d.len());
        let to = from.saturating_add(usize::try_from(limit).unwrap_or(usize::MAX)).min(d.len());
        &d[from..to]
    };
    let (a, b) = (part(0), part(1));
    let common = a.len().min(b.len());
    let mut status = 0;
    let mut out = String::new();
    match report {
        Report::All => {
            // Offsets are as wide as the smaller file's count of bytes compared.
            let width = common.max(1).to_string().len();
            for k in (0..common).filter(|&k| a[k] != b[k]) {
                status = 1;
                if print_bytes {
                    let (x, y) = (shown(a[k]), shown(b[k]));
                    out.push_str(&format!("{:>width$} {:3o} {x:<4} {:3o} {y}\n", k + 1, a[k], b[k]));
                } else {
                    out.push_str(&format!("{:>width$} {:3o} {:3o}\n", k + 1, a[k], b[k]));
                }
            }
        }
        _ => {
            if let Some(k) = (0..common).find(|&k| a[k] != b[k]) {
                if report == Report::First {
                    let line = 1 + memchr::memchr_iter(b'\n', &a[..k]).count();
                    out.push_str(&format!("{} {} differ: byte {}, line {line}", names[0], names[1], k + 1));
                    if print_bytes {
                        out.push_str(&format!(" is {:3o} {} {:3o} {}", a[k], shown(a[k]), b[k], shown(b[k])));
                    }
                    out.push('\n');
                }
                ctx.print(out);
                return Ok(1);
            }
        }
    }
    ctx.print(out);
    if a.len() != b.len() {
        let short = if a.len() < b.len() { 0 } else { 1 };
        let s = [a, b][short];
        if report != Report::Status {
            let name = names[short];
            let message = if s.is_empty() {
                format!("EOF on {name} which is empty")
            } else if report == Report::All {
                format!("EOF on {name} after byte {}", s.len())
            } else {
                let lines = memchr::memchr_iter(b'\n', s).count();
                if s.last() == Some(&b'\n') {
                    format!("EOF on {name} after byte {}, line {lines}", s.len())
                } else {
                    format!("EOF on {name} after byte {}, in line {}", s.len(), lines + 1)
                }
            };
            ctx.error(message);
        }
        status = 1;
    }
    Ok(status)
}
