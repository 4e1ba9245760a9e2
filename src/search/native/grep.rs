//! grep answered in Rust, when its output is known to be just-bash's byte for byte.
//!
//! After planning, the pages a search reads are in memory; what is left is matching and
//! printing, which just-bash does in JavaScript behind one filesystem call per file.
//! [`prepare`] takes the parsed command ([`Job`]) over its whole scope, and accepts it
//! only when every flag, pattern and operand is one whose output is modelled here (a
//! narrowing then takes away the files that cannot match): the [`engine`](crate::search::pattern::engine)
//! matches the same lines and spans and the [`printer`] prints them the
//! same way. Anything else is [`Unsupported`], with the reason, and the command runs in
//! just-bash as before.

use super::early_stop::EarlyStop;
use super::page::{page_text, read_page};
use super::printer::{self, Options};
use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::Unsupported;
use crate::commands::{Place, Printed};
use crate::fs::DEV_NULL;
use crate::search::args::GrepArgs;
use crate::search::job::{Job, Parsed, Walked};
use crate::search::pattern::engine::{Engine, Flags};
use crate::search::pattern::rewrite::Dialect;
use crate::search::view::SessionView;
use crate::search::walk::{has_glob, Target};
use crate::tree::listing::Node;

/// One operand or walked file, in the order grep handles them.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Input {
    File {
        shown: String,
        path: String,
    },
    /// A directory named without `-r`.
    Dir(String),
    Missing(String),
}

/// A grep command that can be answered here.
#[derive(Debug)]
pub(crate) struct NativeGrep {
    engine: Engine,
    g: GrepArgs,
    pub(super) inputs: Vec<Input>,
    show_filename: bool,
}

fn glob_matches(glob: &str, name: &str) -> Result<bool, Unsupported> {
    Ok(Glob::just_bash(glob, false, true)?.matches(name).unwrap_or(false))
}

/// Whether `--include`/`--exclude` let grep read a file named `shown`.
fn selected(g: &GrepArgs, shown: &str) -> Result<bool, Unsupported> {
    let base = match shown.rsplit('/').next() {
        Some("") | None => shown,
        Some(b) => b,
    };
    for x in &g.output.exclude {
        if glob_matches(x, base)? {
            return Ok(false);
        }
    }
    if g.output.include.is_empty() {
        return Ok(true);
    }
    for x in &g.output.include {
        if glob_matches(x, base)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether `--exclude-dir` stops grep's walk from `op` before it reaches the file
/// `shown`: the walk tests the name of every directory it enters, the operand's included
/// (spelled as given when it has no last name, as `/` or `view/`).
fn under_excluded_dir(g: &GrepArgs, op: &str, shown: &str, path: &str, place: Place) -> Result<bool, Unsupported> {
    let globs = &g.output.exclude_dir;
    if globs.is_empty() || path::resolve(place.cwd, op) == path {
        return Ok(false);
    }
    let own = match op.rsplit('/').next() {
        Some("") | None => op,
        Some(name) => name,
    };
    let below = if op == "." { shown } else { &shown[op.len()..] };
    let mut dirs: Vec<&str> = below.split('/').filter(|s| !s.is_empty()).collect();
    dirs.pop();
    for name in std::iter::once(own).chain(dirs) {
        for x in globs {
            if glob_matches(x, name)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The inputs of a recursive grep, and how many files it searches.
fn recursive_inputs(g: &GrepArgs, place: Place, walked: &[Walked]) -> Result<(Vec<Input>, usize), Unsupported> {
    let mut inputs = Vec::new();
    for Walked { operand: op, targets, .. } in walked {
        let full = path::resolve(place.cwd, op);
        let null = [Target::File { shown: op.to_string(), path: full.clone() }];
        let targets = if full == DEV_NULL { &null[..] } else { &targets[..] };
        for t in targets.iter().cloned() {
            match t {
                Target::File { shown, path }
                    if selected(g, &shown)? && !under_excluded_dir(g, op, &shown, &path, place)? =>
                {
                    inputs.push(Input::File { shown, path })
                }
                Target::File { .. } => {}
                // A missing operand is skipped silently by grep's walk.
                Target::Keep(_) if place.scratch.is_none() => {}
                Target::Keep(_) => return Err(Unsupported::new("the scratch directory is searched by just-bash")),
            }
        }
    }
    let n = inputs.len();
    Ok((inputs, n))
}

/// The inputs of a grep without `-r`, and how many operands it has.
fn plain_inputs(g: &GrepArgs, place: Place, operands: &[&str]) -> Result<(Vec<Input>, usize), Unsupported> {
    let mut inputs = Vec::new();
    for op in operands {
        if !selected(g, op)? {
            continue;
        }
        let full = path::resolve(place.cwd, op);
        let shown = op.to_string();
        inputs.push(if full == DEV_NULL {
            Input::File { shown, path: full }
        } else {
            place.check(&full)?;
            match place.listing.get(&full) {
                Some(Node::File(_)) => Input::File { shown, path: full },
                Some(Node::Dir(_)) => Input::Dir(shown),
                None => Input::Missing(shown),
            }
        });
    }
    Ok((inputs, operands.len()))
}

/// Accepts a grep command whose output is modelled here.
pub(crate) fn prepare(job: &Job, place: Place) -> Result<NativeGrep, Unsupported> {
    let Parsed::Grep(g) = &job.parsed else {
        return Err(Unsupported::new("only grep is answered here"));
    };
    if g.dialect() == Dialect::Perl {
        return Err(Unsupported::new("-P is left to just-bash"));
    }
    if g.help || g.invalid {
        return Err(Unsupported::new("help and usage errors are just-bash's"));
    }
    if !g.pattern_files.is_empty() || g.output.odd_number {
        return Err(Unsupported::new("-f and unusual numbers are left to just-bash"));
    }
    let operands = job.operands();
    if operands.is_empty() || operands.iter().any(|o| *o == "-" || has_glob(o)) {
        return Err(Unsupported::new("stdin and globs are read by just-bash"));
    }
    let flags = Flags { dialect: g.dialect(), ignore_case: g.ignore_case, word: g.output.word, line: g.line_regexp };
    let engine = Engine::new(&job.patterns, flags)?;
    if g.output.only_matching && engine.nullable {
        return Err(Unsupported::new("-o with a pattern that matches empty text"));
    }
    let (inputs, files) =
        if g.recursive { recursive_inputs(g, place, job.walked(place))? } else { plain_inputs(g, place, &operands)? };
    let show_filename = (files > 1 || g.recursive) && !g.output.no_filename;
    Ok(NativeGrep { engine, g: g.clone(), inputs, show_filename })
}

impl NativeGrep {
    /// The normalised paths of the files it reads, in order.
    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        self.inputs.iter().filter_map(|i| match i {
            Input::File { path, .. } => Some(path.as_str()),
            _ => None,
        })
    }

    /// Runs the command over the session's pages. `None` when a page holds text the
    /// engine cannot answer for (see [`Engine::exact_on`]): the command then goes to
    /// just-bash, and the pages read so far stay in the cache for it.
    pub(crate) async fn run(&self, view: SessionView<'_>, mut taken: Option<&mut EarlyStop>) -> Option<Printed> {
        let o = &self.g.output;
        let (mut stdout, mut stderr) = (String::new(), String::new());
        let (mut any_match, mut any_error) = (false, false);
        let mut scratch = String::new();
        // Past the last operand that is not a file, no input can print to stderr.
        let files_only_from = self.inputs.iter().rposition(|i| !matches!(i, Input::File { .. })).map_or(0, |i| i + 1);
        for (at, input) in self.inputs.iter().enumerate() {
            let (shown, path) = match input {
                Input::File { shown, path } => (shown, path),
                Input::Dir(op) => {
                    stderr.push_str(&format!("grep: {op}: Is a directory\n"));
                    continue;
                }
                Input::Missing(op) => {
                    stderr.push_str(&format!("grep: {op}: No such file or directory\n"));
                    any_error = true;
                    continue;
                }
            };
            if taken.as_mut().is_some_and(|t| !t.may_read(view, path)) {
                return None;
            }
            let content = match read_page(view, path).await {
                Ok(bytes) => bytes,
                Err(_) => {
                    stderr.push_str(&format!("grep: {shown}: No such file or directory\n"));
                    any_error = true;
                    continue;
                }
            };
            let content = page_text(&content);
            if !self.engine.exact_on(&content) {
                return None;
            }
            let names_only = o.files_with_matches || self.g.files_without_match || o.quiet;
            let opts = Options {
                invert: self.g.invert,
                line_numbers: o.line_numbers,
                count: self.g.count && !names_only,
                only_matching: o.only_matching,
                before: if names_only { 0 } else { o.before },
                after: if names_only { 0 } else { o.after },
                max_count: if names_only { 1 } else { o.max_count },
                filename: self.show_filename.then_some(shown.as_str()),
            };
            let out = if names_only { &mut scratch } else { &mut stdout };
            let matched = if names_only && !self.g.invert {
                printer::any_match(&content, &self.engine)
            } else {
                printer::search(&content, &self.engine, &opts, out)
            };
            scratch.clear();
            if matched && o.quiet {
                return Some(Printed { stdout: String::new(), stderr: String::new(), exit_code: 0 });
            }
            any_match |= matched;
            if matched && o.files_with_matches || !matched && self.g.files_without_match {
                stdout.push_str(shown);
                stdout.push('\n');
            }
            // The status is 0 from the first match on (an error would have made it 2).
            let settled = any_match && !any_error && at >= files_only_from;
            if settled && taken.as_mut().is_some_and(|t| t.has_all(&stdout)) {
                break;
            }
        }
        let exit_code = if any_error {
            2
        } else if any_match {
            0
        } else {
            1
        };
        if o.quiet {
            return Some(Printed { stdout: String::new(), stderr: String::new(), exit_code });
        }
        Some(Printed { stdout, stderr, exit_code })
    }
}
