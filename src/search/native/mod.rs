//! A search command answered in Rust: grep (and egrep, fgrep) or rg, printing exactly what
//! GNU grep 3.8 or ripgrep 15 would.
//!
//! The two share the page reader ([`page`]), the [`searcher`] that finds a file's lines and
//! context windows, and the printers it drives ([`printer`], the counts and first matches
//! of [`summary`], and rg's `--json`); what
//! differs is what they read and how they name it ([`grep`], [`rg`]). When their output goes to `head`,
//! [`early_stop`] says when they may stop.

mod color;
pub(crate) mod early_stop;
pub(crate) mod grep;
mod json;
pub(crate) mod page;
pub(crate) mod pattern_files;
pub(crate) mod printer;
mod replace;
pub(crate) mod rg;
pub(crate) mod searcher;
mod summary;

use crate::base::hash::PathSet;
use crate::commands::{Place, Printed, Unsupported};
use crate::search::job::{Job, Parsed};
use crate::search::pattern::engine::Engine;
use crate::search::view::SessionView;
use early_stop::EarlyStop;
use grep::{Input, NativeGrep};
use printer::{Groups, Options};
use rg::NativeRg;

/// What grep or rg prints for one file's `content` under `o`, appended to `out`: its count
/// (`-c`, a summary) or its lines (the standard printer). Says whether a line was selected.
pub(crate) fn print_file(content: &str, engine: &Engine, o: &Options, out: &mut String, groups: &mut Groups) -> bool {
    match o.count {
        true => summary::count(content, engine, o, out),
        false => printer::search(content, engine, o, out, groups),
    }
}

/// A search command answered here: grep (and egrep, fgrep) or rg.
#[derive(Debug)]
pub(crate) enum Native {
    Grep(Box<NativeGrep>),
    Rg(Box<NativeRg>),
}

impl Native {
    /// Accepts a search command whose output is modelled here.
    pub(crate) fn prepare(job: &Job, place: Place, stdin_empty: bool) -> Result<Native, Unsupported> {
        // The walk of its operands, which the plan reads too; a grep without -r reads
        // its operands as named, and walks nothing.
        let walked = match &job.parsed {
            Parsed::Grep(g) if !g.recursive => &[][..],
            _ => job.walked(place.listing, place.scratch),
        };
        match &job.parsed {
            Parsed::Rg(_) => NativeRg::prepare(job, place, walked, stdin_empty).map(|r| Native::Rg(Box::new(r))),
            Parsed::Grep(_) => NativeGrep::prepare(job, place, walked).map(|g| Native::Grep(Box::new(g))),
        }
    }

    /// The same command over only the files in `kept` (normalised paths): what a
    /// narrowed search reads, when the files left out are known to hold no match.
    pub(crate) fn only(self, kept: &PathSet<String>) -> Native {
        match self {
            Native::Grep(mut g) => {
                g.inputs.retain(|i| !matches!(i, Input::File { path, .. } if !kept.contains(path)));
                Native::Grep(g)
            }
            Native::Rg(r) => Native::Rg(Box::new(r.only(kept))),
        }
    }

    /// The normalised paths of the files it reads, in order.
    pub(crate) fn paths(&self) -> Box<dyn Iterator<Item = &str> + '_> {
        match self {
            Native::Grep(g) => Box::new(g.paths()),
            Native::Rg(r) => Box::new(r.paths()),
        }
    }

    /// Runs the command; `None` sends it to just-bash (see each command's `run`). With
    /// `wanted`, it may stop once its output holds that many lines (see [`EarlyStop`]).
    pub(crate) async fn run(&self, view: SessionView<'_>, wanted: Option<usize>) -> Option<Printed> {
        self.run_taken(view, wanted.map(EarlyStop::new).as_mut()).await
    }

    /// [`Native::run`] with the reader's lines as given (see [`EarlyStop::from_memory`]).
    pub(crate) async fn run_taken(&self, view: SessionView<'_>, taken: Option<&mut EarlyStop>) -> Option<Printed> {
        match self {
            Native::Grep(g) => g.run(view, taken).await,
            Native::Rg(r) => r.run(view, taken).await,
        }
    }
}
