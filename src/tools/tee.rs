//! `tee`: standard input to standard output and to each file, as coreutils 9.1 copies it.
//! The host writes the files after the run; one it cannot write is named with the reason
//! (`tee: FILE: Read-only file system`, status 1) and the others are written all the same.
//! `-i` and `-p` change nothing here (no signals, no pipe that closes early).

use super::argmatch::argmatch;
use super::ctx::{Ctx, Status, Write};
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};

const OPTS: &[getopt::Opt] = &[
    opt('a', "append", Arg::No),
    opt('i', "ignore-interrupts", Arg::No),
    getopt::long("output-error", Arg::Optional),
    getopt::short("p", Arg::No),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };
const MODES: &[(&str, u8)] = &[("warn", 0), ("warn-nopipe", 1), ("exit", 2), ("exit-nopipe", 3)];

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let mut append = false;
    for given in &line.opts {
        match given.key {
            "append" => append = true,
            "output-error" => {
                if let Some(mode) = &given.value {
                    if argmatch(ctx, "--output-error", mode, MODES).is_none() {
                        return Ok(1);
                    }
                }
            }
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    let input = ctx.stdin();
    ctx.print(input);
    // `-` is a file named so, for GNU tee (POSIX's standard output is not meant).
    for path in line.operands {
        ctx.writes.push(Write { path, bytes: input.to_vec(), append });
    }
    Ok(0)
}
