//! The commands agents pipe into — head, tail, wc, sort, uniq, cut, sed, awk, diff and
//! the rest — as GNU coreutils 9, sed 4.9, gawk 5 and diffutils 3 print them under
//! `LC_ALL=C.UTF-8`, over bytes in memory.
//!
//! They are a module of their own (the `tools` feature), which the package loads the first
//! time one of them runs. Each reads its command line with [`crate::base::getopt`] and
//! works on a [`Ctx`]: the host gives it its standard input and reads the files it asks
//! for (from the session, scratch directory included), and takes its output back.
//! Their tests run each against the real GNU tool (`testing.rs`), natively only.

pub(crate) mod argmatch;
pub(crate) mod awk;
pub(crate) mod bre;
pub(crate) mod cmp;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod cmp_tests;
pub(crate) mod comm;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod comm_tests;
pub(crate) mod ctx;
pub(crate) mod cut;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod cut_tests;
pub(crate) mod decfmt;
pub(crate) mod decimal;
pub(crate) mod diff;
pub(crate) mod fmt;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod fmt_tests;
pub(crate) mod fold;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod fold_tests;
pub(crate) mod hash;
pub(crate) mod head;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod head_tests;
pub(crate) mod join;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod join_tests;
pub(crate) mod lines;
pub(crate) mod mktemp;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod mktemp_tests;
pub(crate) mod nl;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod nl_tests;
pub(crate) mod num;
pub(crate) mod order;
pub(crate) mod paste;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod paste_tests;
pub(crate) mod paths;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod paths_tests;
pub(crate) mod realpath;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod realpath_tests;
pub(crate) mod sed;
pub(crate) mod seq;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod seq_tests;
pub(crate) mod sort;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod sort_tests;
pub(crate) mod sums;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod sums_tests;
pub(crate) mod tabs;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tabs_tests;
pub(crate) mod tac;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tac_tests;
pub(crate) mod tail;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tail_tests;
pub(crate) mod tee;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tee_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) mod testing;
pub(crate) mod texts;
pub(crate) mod tr;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tr_tests;
pub(crate) mod uniq;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod uniq_tests;
pub(crate) mod wc;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod wc_tests;
pub(crate) mod xargs;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod xargs_tests;

pub(crate) use ctx::{Answers, Ask, Ctx, Failed, Pending, Stat, Status, Write};

/// A tool: its name's run over the words after it.
type Tool = fn(&mut Ctx, &[String]) -> Status;

/// Every tool, by the name it answers to.
const TOOLS: &[(&str, Tool)] = &[
    ("awk", awk::run),
    ("basename", paths::run_basename),
    ("cmp", cmp::run),
    ("comm", comm::run),
    ("cut", cut::run),
    ("diff", diff::run),
    ("dirname", paths::run_dirname),
    ("expand", tabs::run),
    ("fmt", fmt::run),
    ("fold", fold::run),
    ("head", head::run),
    ("join", join::run),
    ("md5sum", sums::run),
    ("mktemp", mktemp::run),
    ("nl", nl::run),
    ("paste", paste::run),
    ("realpath", realpath::run),
    ("sed", sed::run),
    ("seq", seq::run),
    ("sha1sum", sums::run),
    ("sha256sum", sums::run),
    ("sort", sort::run),
    ("tac", tac::run),
    ("tail", tail::run),
    ("tee", tee::run),
    ("tr", tr::run),
    ("unexpand", tabs::run),
    ("uniq", uniq::run),
    ("wc", wc::run),
    ("xargs", xargs::run),
];

/// The names of the commands this module answers.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    TOOLS.iter().map(|(n, _)| *n)
}

/// What `name` prints, and its status, when the file `path` it wrote cannot be written
/// (`text`: strerror's words), as GNU's tool does when it cannot open it.
pub(crate) fn write_failure(name: &str, path: &str, text: &str) -> (String, i32) {
    match name {
        "sort" => (format!("sort: open failed: {path}: {text}\n"), 2),
        "sed" => (format!("sed: couldn't open file {path}: {text}\n"), 4),
        "awk" => (format!("awk: cmd. line:1: fatal: can't redirect to `{path}' ({text})\n"), 2),
        _ => (format!("{name}: {}: {text}\n", crate::base::quote::quotef(path)), 1),
    }
}

/// What a finished run gives back.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Done {
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Where the errors go between the output's bytes (`Ctx::err_at`).
    pub stderr_at: Vec<(usize, usize)>,
    pub status: i32,
    pub writes: Vec<Write>,
    pub runs: Vec<Vec<String>>,
}

/// A run's outcome: done, or the answers it needs first.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Need(Vec<(Ask, String)>),
    Done(Done),
}

/// Runs `name` over `args` with `stdin` and what the host has answered so far; `None`
/// when no tool has that name.
pub(crate) fn run(name: &str, args: &[String], stdin: &[u8], answers: &Answers) -> Option<Outcome> {
    let tool = TOOLS.iter().find(|(n, _)| *n == name)?.1;
    let mut ctx = Ctx::new(name, stdin, answers);
    Some(match tool(&mut ctx, args) {
        Ok(status) => {
            let (stdout, stderr, stderr_at) = (ctx.out, ctx.err, ctx.err_at);
            Outcome::Done(Done { stdout, stderr, stderr_at, status, writes: ctx.writes, runs: ctx.runs })
        }
        Err(Pending) => Outcome::Need(ctx.asked().to_vec()),
    })
}
