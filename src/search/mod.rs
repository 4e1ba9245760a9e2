//! grep and rg pushdown: searches answered by Chroma first, printed as GNU grep and
//! ripgrep print.
//!
//! Three parts, as ripgrep keeps its matcher, searcher and printer apart:
//! - [`pattern`]: what the agent's pattern means, as Chroma's coarse filter and as the
//!   check of a page's lines, never a false negative;
//! - [`native`]: grep and rg answered in Rust over the pages that are left, printing
//!   exactly what GNU grep and ripgrep would, and stopping early when `head` takes the output;
//! - the pipeline, one module per step: [`args`] (the command line, parsed exactly as
//!   GNU grep and ripgrep parse it), [`job`] (that parse, done once, with the walk of the scope
//!   ([`walk`]) for every step to read), [`plan`] (delegate, prefetch or narrow),
//!   [`coarse`] (the Chroma query behind a narrowing), and [`runner`], the composition,
//!   run once per command. A search sees the session only through its [`view`].
//!
//! [`ranked`] is the `search` command, a ranking rather than a filter. Where the Rust side
//! does not model a command's output, just-bash's own command has the last word, and its
//! answer is just-bash's (the forms are listed in docs/concepts/native-commands.md).

pub(crate) mod args;
pub(crate) mod coarse;
pub(crate) mod indexed;
pub(crate) mod job;
pub(crate) mod mounts;
pub(crate) mod native;
pub(crate) mod pattern;
pub(crate) mod plan;
pub(crate) mod ranked;
pub(crate) mod runner;
#[cfg(test)]
pub(crate) mod tally;
pub(crate) mod view;
pub(crate) mod walk;

use crate::fs::Filesystem;
use runner::Outcome;

/// A search command's standard streams, as far as the host knows them.
#[derive(Debug, Default)]
pub(crate) struct Streams {
    /// Standard input's text: `None` when it is not empty but its text is not known.
    pub stdin: Option<String>,
    /// The file standard output goes to, when it is one (`grep … > /tmp/hits`).
    pub stdout_file: Option<String>,
}

/// Runs one grep/egrep/fgrep/rg command line for a session (see [`runner::run`]) and
/// records what it cost, and the load it could not do without, in the session.
/// `lines_wanted`: the output's reader takes only its first lines (`| head -n N`).
#[cfg(test)]
pub(crate) async fn search(
    fs: &Filesystem,
    name: &str,
    args: Vec<String>,
    cwd: &str,
    (stdin_empty, own_fs): (bool, bool),
    lines_wanted: Option<usize>,
) -> Outcome {
    let stdin = stdin_empty.then(String::new);
    search_reading(fs, name, args, cwd, own_fs, lines_wanted, Streams { stdin, stdout_file: None }).await
}

/// Runs one grep/egrep/fgrep/rg command line for a session (see [`runner::run`]) with the
/// command's standard input — its text, or `None` when it is not empty but its text is
/// not known here (a command that reads it then runs in just-bash) — and records what it
/// cost, and the load it could not do without, in the session.
pub(crate) async fn search_reading(
    fs: &Filesystem,
    name: &str,
    args: Vec<String>,
    cwd: &str,
    own_fs: bool,
    lines_wanted: Option<usize>,
    streams: Streams,
) -> Outcome {
    let Streams { stdin, stdout_file } = streams;
    let stdin_empty = stdin.as_deref().is_some_and(str::is_empty);
    let how = runner::Invocation { stdin_empty, own_fs, lines_wanted, stdin, stdout_file };
    // The scratch directory is walked as it is when the command starts.
    let scratch = fs.scratch_dirs();
    let searched = runner::run(view::SessionView::new(fs, scratch.as_ref()), name, args, cwd, how).await;
    if let Some((path, error)) = searched.failure {
        fs.failed(&path, error);
    }
    fs.record(searched.stats);
    searched.outcome
}
