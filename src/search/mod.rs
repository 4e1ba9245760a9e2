//! grep and rg pushdown: searches answered by Chroma first, printed by just-bash.
//!
//! The pipeline, one module per step:
//! - [`args`]: the command line, parsed exactly as just-bash parses it;
//! - [`job`]: that parse, done once, with the walk of the scope, for every step to read;
//! - [`walk`]: the files the command's directory walk visits, in its order and spelling;
//! - [`rewrite`], [`syntax`], [`literals`]: the patterns, as RE2 text, as a parse, as the
//!   literals a match requires; [`lite`]: RE2 spelled for regex-lite, for every engine;
//! - [`filter`] and [`matcher`]: the coarse Chroma filter and the fine page check, both
//!   never a false negative;
//! - [`plan`]: what to do with the command (delegate, prefetch, narrow);
//! - [`coarse`]: the Chroma query behind a narrowing;
//! - [`runner`]: the composition, run once per command;
//! - [`engine`], [`printer`], [`page`], [`native`] ([`grep`], [`rg`]): grep and rg answered
//!   in Rust over the pages that are left, when their flags and patterns are ones whose
//!   output is modelled exactly; [`taken`]: when their output goes to `head`, the lines
//!   it takes, after which they may stop.
//!
//! Otherwise just-bash's own command has the last word over the files that are left, so
//! every flag and output format is exactly just-bash's either way.

pub(crate) mod args;
pub(crate) mod coarse;
pub(crate) mod docs;
pub(crate) mod engine;
pub(crate) mod filter;
pub(crate) mod grep;
pub(crate) mod job;
pub(crate) mod lite;
pub(crate) mod literals;
pub(crate) mod matcher;
pub(crate) mod native;
pub(crate) mod page;
pub(crate) mod plan;
pub(crate) mod printer;
pub(crate) mod ranked;
pub(crate) mod rewrite;
pub(crate) mod rg;
pub(crate) mod runner;
pub(crate) mod syntax;
mod taken;
#[cfg(test)]
pub(crate) mod tally;
pub(crate) mod walk;

use crate::fs::Filesystem;
use runner::Outcome;

/// Runs one grep/egrep/fgrep/rg command line for a session (see [`runner::run`]) and
/// records what it cost, and the load it could not do without, in the session.
/// `lines_wanted`: the output's reader takes only its first lines (`| head -n N`).
pub(crate) async fn search(
    fs: &Filesystem,
    name: &str,
    args: Vec<String>,
    cwd: &str,
    (stdin_empty, own_fs): (bool, bool),
    lines_wanted: Option<usize>,
) -> Outcome {
    let how = runner::How { stdin_empty, own_fs, lines_wanted };
    let searched = runner::run(docs::Docs::new(fs), name, args, cwd, how).await;
    if let Some((path, error)) = searched.failure {
        fs.failed(&path, error);
    }
    fs.record(searched.stats);
    searched.outcome
}
