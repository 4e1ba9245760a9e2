//! `mktemp`, as coreutils 9.1 makes a temporary file or directory: a name made from a
//! template whose last run of X's (at least three) becomes random letters and digits,
//! made where it does not exist yet, and printed. Without a template, `tmp.XXXXXXXXXX` in
//! `$TMPDIR` (else `/tmp`). In chromafs it can only succeed in the scratch directory;
//! elsewhere it fails with the filesystem's reason, in mktemp's words.
//!
//! The host passes `TMPDIR` and random bytes ([`Ctx::var`], [`Ctx::random`]) and makes
//! the file or directory when asked ([`Ctx::make`]).

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};
use crate::base::quote::quote;

const OPTS: &[getopt::Opt] = &[
    opt('d', "directory", Arg::No),
    opt('q', "quiet", Arg::No),
    opt('u', "dry-run", Arg::No),
    getopt::long("suffix", Arg::Required),
    getopt::short("p", Arg::Required),
    getopt::alias("tmpdir", Arg::Optional, "p"),
    getopt::short("t", Arg::No),
    getopt::long("help", Arg::No),
    opt('V', "version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// The letters a run of X's becomes, as gnulib's `gen_tempname` draws them.
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/// Names tried before giving up with "File exists".
const TRIES: usize = 64;

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let (mut directory, mut quiet, mut dry_run, mut old_t) = (false, false, false, false);
    let (mut suffix, mut dir_arg): (Option<String>, Option<String>) = (None, None);
    let mut use_dest_dir = false;
    for given in &line.opts {
        match given.key {
            "directory" => directory = true,
            "quiet" => quiet = true,
            "dry-run" => dry_run = true,
            "suffix" => suffix = given.value.clone(),
            "p" => {
                use_dest_dir = true;
                dir_arg = given.value.clone();
            }
            "t" => {
                use_dest_dir = true;
                old_t = true;
            }
            "help" => return Ok(ctx.about("help")),
            "version" => return Ok(ctx.about("version")),
            _ => {}
        }
    }
    if line.operands.len() > 1 {
        return Ok(ctx.usage("mktemp: too many templates\n", 1));
    }
    let template = match line.operands.first() {
        Some(t) => t.clone(),
        None => {
            use_dest_dir = true;
            "tmp.XXXXXXXXXX".to_string()
        }
    };
    let (template, suffix_len) = match &suffix {
        Some(s) => {
            if s.contains('/') {
                ctx.error(format!("invalid suffix {}, contains directory separator", quote(s)));
                return Ok(1);
            }
            if !template.ends_with('X') {
                ctx.error(format!("with --suffix, template {} must end in X", quote(&template)));
                return Ok(1);
            }
            (format!("{template}{s}"), s.len())
        }
        None => {
            let after_x = template.rfind('X').map_or(template.len(), |i| i + 1);
            let len = template.len() - after_x;
            (template, len)
        }
    };
    let stem_end = template.len() - suffix_len;
    let xs = template.as_bytes()[..stem_end].iter().rev().take_while(|&&b| b == b'X').count();
    if xs < 3 {
        ctx.error(format!("too few X's in template {}", quote(&template)));
        return Ok(1);
    }
    let full = if use_dest_dir {
        let set = |v: Option<&str>| v.filter(|v| !v.is_empty()).map(str::to_string);
        let tmpdir = set(ctx.var("TMPDIR"));
        let dir = if old_t {
            if template.contains('/') {
                ctx.error(format!("invalid template, {}, contains directory separator", quote(&template)));
                return Ok(1);
            }
            tmpdir.or_else(|| set(dir_arg.as_deref())).unwrap_or_else(|| "/tmp".into())
        } else {
            if template.starts_with('/') {
                ctx.error(format!("invalid template, {}; with --tmpdir, it may not be absolute", quote(&template)));
                return Ok(1);
            }
            set(dir_arg.as_deref()).or(tmpdir).unwrap_or_else(|| "/tmp".into())
        };
        format!("{}/{template}", dir.trim_end_matches('/'))
    } else {
        template
    };
    let stem = full.len() - suffix_len - xs;
    let random = ctx.random();
    let kind = if directory { "directory" } else { "file" };
    for attempt in 0..TRIES {
        let mut name = full.clone().into_bytes();
        for (i, b) in name[stem..stem + xs].iter_mut().enumerate() {
            let r = random.get((attempt * xs + i) % random.len().max(1)).copied().unwrap_or(0) as usize;
            *b = LETTERS[(r + attempt * 7 + i) % LETTERS.len()];
        }
        let name = String::from_utf8(name).unwrap_or_default();
        if dry_run {
            match ctx.stat(&name)? {
                Ok(_) => continue,
                Err(_) => {
                    ctx.print(format!("{name}\n"));
                    return Ok(0);
                }
            }
        }
        match ctx.make(&name, directory)? {
            Ok(()) => {
                ctx.print(format!("{name}\n"));
                return Ok(0);
            }
            Err(f) if f.code == "EEXIST" => continue,
            Err(f) => {
                if !quiet {
                    let text = f.text.clone();
                    ctx.error(format!("failed to create {kind} via template {}: {text}", quote(&full)));
                }
                return Ok(1);
            }
        }
    }
    if !quiet {
        ctx.error(format!("failed to create {kind} via template {}: File exists", quote(&full)));
    }
    Ok(1)
}
