//! `realpath`: a name made absolute and canonical, as coreutils 9.1 resolves it, over a
//! filesystem without symbolic links: each `..` and each directory on the way must exist
//! (all of the name with `-e`, all but its last part by default, none of it with `-m`).

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};
use crate::base::quote::quotef;

const OPTS: &[getopt::Opt] = &[
    opt('e', "canonicalize-existing", Arg::No),
    opt('m', "canonicalize-missing", Arg::No),
    opt('L', "logical", Arg::No),
    opt('P', "physical", Arg::No),
    opt('q', "quiet", Arg::No),
    getopt::long("relative-to", Arg::Required),
    getopt::long("relative-base", Arg::Required),
    opt('s', "strip", Arg::No),
    getopt::alias("no-symlinks", Arg::No, "strip"),
    opt('z', "zero", Arg::No),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// How much of a name must exist.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Must {
    All,
    AllButLast,
    Nothing,
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let (mut must, mut quiet, mut end) = (Must::AllButLast, false, "\n");
    let (mut relative_to, mut relative_base) = (None, None);
    for given in &line.opts {
        match given.key {
            "canonicalize-existing" => must = Must::All,
            "canonicalize-missing" => must = Must::Nothing,
            "quiet" => quiet = true,
            "zero" => end = "\0",
            "relative-to" => relative_to = given.value.clone(),
            "relative-base" => relative_base = given.value.clone(),
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    if line.operands.is_empty() {
        return Ok(ctx.usage(&format!("{}: missing operand\n", ctx.name), 1));
    }
    // The working directory, for relative names: asked with everything else at once.
    let cwd = match ctx.stat(".")? {
        Ok(st) => components(&st.absolute, &[]),
        Err(_) => Vec::new(),
    };
    let resolve_dir =
        |ctx: &mut Ctx, dir: &Option<String>| -> Result<Option<Result<Vec<String>, String>>, super::Pending> {
            match dir {
                None => Ok(None),
                Some(d) => Ok(Some(resolve(ctx, &cwd, d, must)?)),
            }
        };
    let to = resolve_dir(ctx, &relative_to)?;
    let base = resolve_dir(ctx, &relative_base)?;
    let mut resolved = Vec::new();
    for name in &line.operands {
        resolved.push(resolve(ctx, &cwd, name, must)?);
    }
    for (dir, given) in [(&to, &relative_to), (&base, &relative_base)] {
        if let (Some(Err(text)), Some(name)) = (dir, given) {
            ctx.error(format!("{}: {text}", quotef(name)));
            return Ok(1);
        }
    }
    let ok = |d: &Option<Result<Vec<String>, String>>| d.as_ref().and_then(|r| r.as_ref().ok()).cloned();
    let (to, base) = (ok(&to), ok(&base));
    // `--relative-base` alone is also where names are made relative to.
    let to = to.or_else(|| base.clone());
    let mut status = 0;
    for (name, r) in line.operands.iter().zip(resolved) {
        match r {
            Ok(parts) => {
                let shown = match &to {
                    Some(to) if base.as_ref().is_none_or(|b| under(&parts, b) && under(to, b)) => relative(&parts, to),
                    _ => joined(&parts),
                };
                ctx.print(shown);
                ctx.print(end);
            }
            Err(text) => {
                if !quiet {
                    ctx.error(format!("{}: {text}", quotef(name)));
                }
                status = 1;
            }
        }
    }
    Ok(status)
}

/// The parts of `name` after those of `from` (when `name` is relative).
fn components(name: &str, from: &[String]) -> Vec<String> {
    let mut parts = if name.starts_with('/') { Vec::new() } else { from.to_vec() };
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => drop(parts.pop()),
            p => parts.push(p.to_string()),
        }
    }
    parts
}

fn joined(parts: &[String]) -> String {
    format!("/{}", parts.join("/"))
}

/// `name` resolved from `cwd`, each part checked as `must` says: its parts, or why not.
fn resolve(
    ctx: &mut Ctx,
    cwd: &[String],
    name: &str,
    must: Must,
) -> Result<Result<Vec<String>, String>, super::Pending> {
    if name.is_empty() {
        return Ok(Err("No such file or directory".into()));
    }
    let mut parts: Vec<String> = if name.starts_with('/') { Vec::new() } else { cwd.to_vec() };
    let steps: Vec<&str> = name.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    // Ask for every prefix at once, so that one round of questions answers the name.
    let mut asked = Vec::new();
    let mut probe = parts.clone();
    for step in &steps {
        if *step == ".." {
            probe.pop();
        } else {
            probe.push(step.to_string());
        }
        asked.push(joined(&probe));
    }
    if must != Must::Nothing {
        let mut pending = false;
        for a in &asked {
            pending |= ctx.stat(a).is_err();
        }
        if pending {
            return Err(super::Pending);
        }
    }
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        if *step == ".." {
            parts.pop();
            continue;
        }
        parts.push(step.to_string());
        let need = match must {
            Must::Nothing => false,
            Must::All => true,
            Must::AllButLast => !last,
        };
        let here = joined(&parts);
        match ctx.stat(&here)? {
            Ok(st) if !st.dir && (!last || steps[i + 1..].contains(&"..")) => return Ok(Err("Not a directory".into())),
            Ok(_) => {}
            Err(e) if need || (must == Must::AllButLast && e.code == "ENOTDIR") => return Ok(Err(e.text.clone())),
            Err(_) => {}
        }
    }
    Ok(Ok(parts))
}

/// Whether `parts` is `base` or below it.
fn under(parts: &[String], base: &[String]) -> bool {
    parts.starts_with(base)
}

/// `parts` relative to the directory `to`.
fn relative(parts: &[String], to: &[String]) -> String {
    let common = parts.iter().zip(to).take_while(|(a, b)| a == b).count();
    let mut out: Vec<&str> = vec![".."; to.len() - common];
    out.extend(parts[common..].iter().map(String::as_str));
    if out.is_empty() {
        ".".into()
    } else {
        out.join("/")
    }
}
