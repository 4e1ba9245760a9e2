//! Which files a grep reads, in its order: its operands, what `-r` walks below them, and
//! what `--include`, `--exclude` and `--exclude-dir` leave out, matched as GNU grep
//! matches them (a file the walk finds by its name, an operand by the whole of it).

use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::walk::{Found, Scope};
use crate::commands::{Place, Unsupported};
use crate::fs::DEV_NULL;
use crate::search::args::{Directories, GrepArgs, NameFilter};
use crate::search::job::{Job, Parsed, Walked};
use crate::search::walk::Target;

/// One operand or walked file, in the order grep handles them.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::search::native) enum Input {
    File {
        shown: String,
        path: String,
    },
    /// Standard input, named as grep names it.
    Stdin(String),
    /// A directory named without `-r`.
    Dir(String),
    Missing(String),
    /// A file named as a directory (`a.md/`): ENOTDIR.
    NotDir(String),
    /// A file that is the command's standard output too (`grep -r x / > /tmp/hits`): GNU
    /// grep does not read it, and says so.
    Output(String),
}

fn glob_matches(glob: &str, name: &str) -> Result<bool, Unsupported> {
    Ok(Glob::fnmatch(glob, false)?.matches(name).unwrap_or(false))
}

/// Whether `glob` matches a command-line operand spelled `op`: unanchored, as GNU grep
/// tests its operands ([`Glob::matches_unanchored`]); an `--exclude-dir` glob without its
/// trailing slashes.
fn operand_matches(glob: &str, op: &str) -> Result<bool, Unsupported> {
    Ok(Glob::fnmatch(glob, false)?.matches_unanchored(op).unwrap_or(false))
}

/// An `--exclude-dir` glob as GNU grep keeps it: without its trailing slashes (`/` aside).
fn dir_glob(glob: &str) -> &str {
    match glob.trim_end_matches('/') {
        "" if !glob.is_empty() => "/",
        trimmed => trimmed,
    }
}

/// Whether `--include`/`--exclude` let grep read a file spelled `shown`: the last glob
/// that matches decides, and with no match a file is read unless the first glob given is
/// an `--include`. A file the walk found is matched by its name; a file named on the
/// command line (`operand`) by the whole of it, unanchored.
fn selected(g: &GrepArgs, shown: &str, operand: bool) -> Result<bool, Unsupported> {
    let base = match shown.rsplit('/').next() {
        Some("") | None => shown,
        Some(b) => b,
    };
    let mut read: Option<bool> = None;
    let mut first_include = None;
    for filter in &g.output.names {
        let (include, glob) = match filter {
            NameFilter::Include(glob) => (true, glob),
            NameFilter::Exclude(glob) => (false, glob),
            NameFilter::ExcludeFrom(_) => return Err(Unsupported::new("--exclude-from files not read first")),
        };
        first_include.get_or_insert(include);
        let matched = if operand { operand_matches(glob, shown)? } else { glob_matches(glob, base)? };
        if matched {
            read = Some(include);
        }
    }
    Ok(read.unwrap_or(first_include != Some(true)))
}

/// Whether `--exclude-dir` leaves out the directory operand `op` (grep says nothing of it).
fn excluded_dir_operand(g: &GrepArgs, op: &str) -> Result<bool, Unsupported> {
    for x in &g.output.exclude_dir {
        if operand_matches(dir_glob(x), op)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether `--exclude-dir` stops grep's walk from `op` before it reaches the file
/// `shown`, below the operand: the name of every directory the walk enters is matched.
fn under_excluded_dir(g: &GrepArgs, op: &str, shown: &str) -> Result<bool, Unsupported> {
    let globs = &g.output.exclude_dir;
    if globs.is_empty() {
        return Ok(false);
    }
    let below = if op == "." { shown } else { &shown[op.len()..] };
    let mut dirs: Vec<&str> = below.split('/').filter(|s| !s.is_empty()).collect();
    dirs.pop();
    for name in dirs {
        for x in globs {
            if glob_matches(dir_glob(x), name)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The inputs of a recursive grep.
pub(super) fn recursive_inputs(job: &Job, place: Place, walked: &[Walked]) -> Result<Vec<Input>, Unsupported> {
    let Parsed::Grep(g) = &job.parsed else { return Ok(Vec::new()) };
    let mut inputs = Vec::new();
    for Walked { operand: op, targets, .. } in walked {
        if op == "-" {
            inputs.push(Input::Stdin(g.output.label.clone().unwrap_or_else(|| "(standard input)".into())));
            continue;
        }
        let full = path::resolve(&job.cwd, op);
        let null = [Target::File { shown: op.to_string(), path: full.clone() }];
        let targets = if full == DEV_NULL { &null[..] } else { &targets[..] };
        // Whether --exclude-dir leaves the operand out: matched as typed, unanchored, once,
        // for the first file found below it (not `.` when grep was given no operand).
        let mut op_excluded = None;
        for t in targets.iter().cloned() {
            match t {
                Target::File { shown, path } => {
                    let operand = path == full;
                    if !selected(g, &shown, operand)? {
                        continue;
                    }
                    if !operand {
                        let excluded = match op_excluded {
                            Some(excluded) => excluded,
                            None => *op_excluded.insert(!op.is_empty() && excluded_dir_operand(g, op)?),
                        };
                        if excluded || under_excluded_dir(g, op, &shown)? {
                            continue;
                        }
                    }
                    inputs.push(Input::File { shown, path });
                }
                Target::Keep(k) => {
                    place.check_searched(&path::resolve(&job.cwd, &k))?;
                    inputs.push(Input::Missing(k));
                }
                Target::NotDir(k) => inputs.push(Input::NotDir(k)),
            }
        }
    }
    Ok(inputs)
}

/// The inputs of a grep without `-r`.
pub(super) fn plain_inputs(job: &Job, place: Place, operands: &[&str]) -> Result<Vec<Input>, Unsupported> {
    let Parsed::Grep(g) = &job.parsed else { return Ok(Vec::new()) };
    let mut inputs = Vec::new();
    for op in operands {
        let full = path::resolve(&job.cwd, op);
        let shown = op.to_string();
        let input = if *op == "-" {
            Input::Stdin(g.output.label.clone().unwrap_or_else(|| "(standard input)".into()))
        } else if full == DEV_NULL {
            Input::File { shown, path: full }
        } else {
            place.check_searched(&full)?;
            match Scope::from(place).get(&full) {
                Some(Found::File) if path::names_dir(op) => Input::NotDir(shown),
                Some(Found::File) => Input::File { shown, path: full },
                Some(Found::Dir(_)) if g.output.directories == Directories::Skip => continue,
                Some(Found::Dir(_)) if excluded_dir_operand(g, op)? => continue,
                Some(Found::Dir(_)) => Input::Dir(shown),
                None => Input::Missing(shown),
            }
        };
        if matches!(input, Input::File { .. }) && !selected(g, op, true)? {
            continue;
        }
        inputs.push(input);
    }
    Ok(inputs)
}
