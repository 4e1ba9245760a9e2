//! `comm`: the lines of two sorted files in three columns — only in the first, only in
//! the second, in both — as coreutils 9.1, with its checks of the files' order.

use super::ctx::{Ctx, Status};
use super::lines;
use super::order::Check;
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};
use crate::base::quote::quotef;

const OPTS: &[getopt::Opt] = &[
    long("check-order", Arg::No),
    long("nocheck-order", Arg::No),
    long("output-delimiter", Arg::Required),
    long("total", Arg::No),
    opt('z', "zero-terminated", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
    short("1", Arg::No),
    short("2", Arg::No),
    short("3", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let mut show = [true; 3];
    let mut end = b'\n';
    let mut check = Check::Default;
    let mut sep: Option<Vec<u8>> = None;
    let mut total = false;
    for given in &line.opts {
        match given.key {
            "1" => show[0] = false,
            "2" => show[1] = false,
            "3" => show[2] = false,
            "zero-terminated" => end = 0,
            "check-order" => check = Check::Enabled,
            "nocheck-order" => check = Check::Disabled,
            "total" => total = true,
            "output-delimiter" => {
                let v = given.value.clone().unwrap_or_default().into_bytes();
                if sep.as_ref().is_some_and(|s| *s != v) {
                    ctx.error("multiple output delimiters specified");
                    return Ok(1);
                }
                sep = Some(v);
            }
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    let files = &line.operands;
    if files.len() < 2 {
        match files.last() {
            None => ctx.error("missing operand"),
            Some(f) => ctx.error(format!("missing operand after ‘{f}’")),
        }
        return Ok(ctx.usage("", 1));
    }
    if files.len() > 2 {
        ctx.error(format!("extra operand ‘{}’", files[2]));
        return Ok(ctx.usage("", 1));
    }
    // In columns an empty delimiter is a NUL; in the total line, nothing.
    let sep = sep.unwrap_or_else(|| b"\t".to_vec());
    let total_sep = sep.clone();
    let column_sep = if sep.is_empty() { vec![0] } else { sep };
    ctx.want(files.iter().map(String::as_str))?;
    let mut inputs: Vec<Vec<&[u8]>> = Vec::new();
    for f in files {
        match ctx.read(f)? {
            Ok(d) => inputs.push(lines::split(d, end).map(|l| lines::body(l, end)).collect()),
            Err(e) => {
                ctx.error(format!("{}: {}", quotef(f), e.text));
                return Ok(1);
            }
        }
    }
    let mut at = [0usize; 2];
    let mut totals = [0u64; 3];
    let mut warned = [false; 2];
    let mut unpaired = false;
    let mut out = Vec::new();
    loop {
        let (a, b) = (inputs[0].get(at[0]), inputs[1].get(at[1]));
        let order = match (a, b) {
            (None, None) => break,
            (None, _) => std::cmp::Ordering::Greater,
            (_, None) => std::cmp::Ordering::Less,
            (Some(a), Some(b)) => a.cmp(b),
        };
        let (class, text) = match order {
            std::cmp::Ordering::Equal => (2, b),
            std::cmp::Ordering::Less => (0, a),
            std::cmp::Ordering::Greater => (1, b),
        };
        unpaired |= class != 2;
        totals[class] += 1;
        if show[class] {
            let gaps = match class {
                0 => 0,
                1 => usize::from(show[0]),
                _ => usize::from(show[0]) + usize::from(show[1]),
            };
            for _ in 0..gaps {
                out.extend_from_slice(&column_sep);
            }
            out.extend_from_slice(text.unwrap_or(&&[][..]));
            out.push(end);
        }
        for i in 0..2 {
            let stepped = match order {
                std::cmp::Ordering::Equal => true,
                std::cmp::Ordering::Less => i == 0,
                std::cmp::Ordering::Greater => i == 1,
            };
            if !stepped {
                continue;
            }
            at[i] += 1;
            let list = &inputs[i];
            // At the end, the last two lines are checked again: a line may have lost
            // its pair since they were.
            let pair = if at[i] < list.len() { Some(at[i] - 1) } else { at[i].checked_sub(2) };
            let checking = check.checking(unpaired);
            if let Some(p) = pair.filter(|_| checking && !warned[i]) {
                if list[p] > list[p + 1] {
                    ctx.error(format!("file {} is not in sorted order", i + 1));
                    if check == Check::Enabled {
                        ctx.print(out);
                        return Ok(1);
                    }
                    warned[i] = true;
                }
            }
        }
    }
    if total {
        let mut t = Vec::new();
        for n in totals {
            t.extend_from_slice(n.to_string().as_bytes());
            t.extend_from_slice(&total_sep);
        }
        t.extend_from_slice(b"total");
        t.push(end);
        out.extend_from_slice(&t);
    }
    ctx.print(out);
    if warned[0] || warned[1] {
        ctx.error("input is not in sorted order");
        return Ok(1);
    }
    Ok(0)
}
