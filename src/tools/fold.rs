//! `fold`: lines broken to a width in columns (or bytes with `-b`), at blanks with `-s`,
//! as coreutils 9.1 (a byte is a column; tabs go to the next multiple of 8).

use super::ctx::{Ctx, Status};
use super::decimal;
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};

const OPTS: &[getopt::Opt] = &[
    opt('b', "bytes", Arg::No),
    opt('s', "spaces", Arg::No),
    opt('w', "width", Arg::Required),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(
        &Grammar { opts: OPTS, permute: true, digits: Digits::Number, ..getopt::GETOPT_LONG },
        args,
    ) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let (mut bytes, mut spaces, mut width) = (false, false, 80usize);
    for given in &line.opts {
        let value = match given.key {
            "bytes" => {
                bytes = true;
                continue;
            }
            "spaces" => {
                spaces = true;
                continue;
            }
            "width" => given.value.clone().unwrap_or_default(),
            "help" | "version" => return Ok(ctx.about(given.key)),
            digit => format!("{digit}{}", given.value.as_deref().unwrap_or_default()),
        };
        match decimal::read(&value, 1, i128::from(u64::MAX - 9), false, "invalid number of columns") {
            Ok(w) => width = usize::try_from(w).unwrap_or(usize::MAX),
            Err(message) => {
                ctx.error(message);
                return Ok(1);
            }
        }
    }
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    let mut status = 0;
    for file in &files {
        match ctx.read_or_report(file)? {
            Some(data) => ctx.print(fold(data, width, bytes, spaces)),
            None => status = 1,
        }
    }
    Ok(status)
}

/// The column after `c` at `column`.
fn advance(column: usize, c: u8, bytes: bool) -> usize {
    match c {
        _ if bytes => column + 1,
        b'\x08' => column.saturating_sub(1),
        b'\r' => 0,
        b'\t' => column + 8 - column % 8,
        _ => column + 1,
    }
}

/// `data` folded, as fold.c's loop does.
fn fold(data: &[u8], width: usize, bytes: bool, spaces: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut line: Vec<u8> = Vec::new();
    let mut column = 0;
    for &c in data {
        if c == b'\n' {
            out.extend_from_slice(&line);
            out.push(c);
            line.clear();
            column = 0;
            continue;
        }
        loop {
            column = advance(column, c, bytes);
            if column <= width {
                line.push(c);
                break;
            }
            if spaces {
                if let Some(blank) = line.iter().rposition(|&b| b == b' ' || b == b'\t') {
                    out.extend_from_slice(&line[..=blank]);
                    out.push(b'\n');
                    line.drain(..=blank);
                    column = line.iter().fold(0, |col, &b| advance(col, b, bytes));
                    continue;
                }
            }
            if line.is_empty() {
                line.push(c);
                break;
            }
            out.extend_from_slice(&line);
            out.push(b'\n');
            line.clear();
            column = 0;
        }
    }
    out.extend_from_slice(&line);
    out
}
