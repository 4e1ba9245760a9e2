//! `basename` and `dirname`: the last part of a file name, and what comes before it, as
//! coreutils 9.1 cuts them (gnulib's `last_component`, `base_len` and `dir_len`).

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};

const BASENAME: &[getopt::Opt] = &[
    opt('a', "multiple", Arg::No),
    opt('s', "suffix", Arg::Required),
    opt('z', "zero", Arg::No),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];

const DIRNAME: &[getopt::Opt] =
    &[opt('z', "zero", Arg::No), getopt::long("help", Arg::No), getopt::long("version", Arg::No)];

/// `basename NAME [SUFFIX]` or `basename -a|-s SUFFIX NAME...`.
pub(crate) fn run_basename(ctx: &mut Ctx, args: &[String]) -> Status {
    // Options stop at the first name, so that `basename -x -y` reads `-y` as a suffix.
    let line = match getopt::parse(
        &Grammar { opts: BASENAME, permute: false, digits: Digits::No, ..getopt::GETOPT_LONG },
        args,
    ) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let (mut multiple, mut suffix, mut end) = (false, None, '\n');
    for given in &line.opts {
        match given.key {
            "multiple" => multiple = true,
            "suffix" => (multiple, suffix) = (true, given.value.clone()),
            "zero" => end = '\0',
            _ => return Ok(ctx.about(given.key)),
        }
    }
    let names = &line.operands;
    if names.is_empty() {
        return Ok(ctx.usage(&format!("{}: missing operand\n", ctx.name), 1));
    }
    if !multiple && names.len() > 2 {
        return Ok(ctx.usage(&format!("{}: extra operand ‘{}’\n", ctx.name, names[2]), 1));
    }
    if !multiple {
        suffix = names.get(1).cloned();
    }
    let names = if multiple { &names[..] } else { &names[..1] };
    for name in names {
        let base = base_name(name);
        let mut base = base.as_str();
        if let Some(s) = suffix.as_deref() {
            if !base.starts_with('/') && base.len() > s.len() && base.ends_with(s) {
                base = &base[..base.len() - s.len()];
            }
        }
        ctx.print(format!("{base}{end}"));
    }
    Ok(0)
}

/// `dirname NAME...`.
pub(crate) fn run_dirname(ctx: &mut Ctx, args: &[String]) -> Status {
    let line =
        match getopt::parse(&Grammar { opts: DIRNAME, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG }, args)
        {
            Ok(line) => line,
            Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
        };
    let mut end = '\n';
    for given in &line.opts {
        match given.key {
            "zero" => end = '\0',
            _ => return Ok(ctx.about(given.key)),
        }
    }
    if line.operands.is_empty() {
        return Ok(ctx.usage(&format!("{}: missing operand\n", ctx.name), 1));
    }
    for name in &line.operands {
        let len = dir_len(name.as_bytes());
        let dir = if len == 0 { "." } else { &name[..len] };
        ctx.print(format!("{dir}{end}"));
    }
    Ok(0)
}

/// Where the last component of `name` starts: past leading slashes, after the last run
/// of slashes that something follows.
fn last_component(name: &[u8]) -> usize {
    let mut base = name.iter().take_while(|&&b| b == b'/').count();
    let mut slash = false;
    for (i, &b) in name.iter().enumerate().skip(base) {
        if b == b'/' {
            slash = true;
        } else if slash {
            base = i;
            slash = false;
        }
    }
    base
}

/// The last component without its trailing slashes; `/` for a name of slashes only.
fn base_name(name: &str) -> String {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return if name.is_empty() { String::new() } else { "/".into() };
    }
    trimmed[last_component(trimmed.as_bytes())..].to_string()
}

/// How much of `name` names its directory: all but the last component and the slashes
/// before it, keeping a leading slash.
fn dir_len(name: &[u8]) -> usize {
    let prefix = usize::from(name.first() == Some(&b'/'));
    let mut len = last_component(name);
    while prefix < len && name[len - 1] == b'/' {
        len -= 1;
    }
    len
}
