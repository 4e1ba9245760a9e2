//! A search command answered in Rust: grep (and egrep, fgrep) or rg.
//!
//! The two share the page reader ([`super::page`]) and the printer; what differs is what
//! they read and how they name it ([`super::grep`], [`super::rg`]).

use super::docs::Docs;
use super::grep::{self, Input, NativeGrep};
use super::job::{Job, Parsed};
use super::rg::{self, NativeRg};
use super::taken::Taken;
use crate::commands::{Place, Printed, Unsupported};
use std::collections::HashSet;

/// A search command answered here: grep (and egrep, fgrep) or rg.
#[derive(Debug)]
pub(crate) enum Native {
    Grep(NativeGrep),
    Rg(NativeRg),
}

impl Native {
    /// Accepts a search command whose output is modelled here.
    pub(crate) fn prepare(job: &Job, place: Place, stdin_empty: bool) -> Result<Native, Unsupported> {
        match &job.parsed {
            Parsed::Rg(_) => rg::prepare(job, place, stdin_empty).map(Native::Rg),
            Parsed::Grep(_) => grep::prepare(job, place).map(Native::Grep),
        }
    }

    /// The same command over only the files in `kept` (normalised paths): what a
    /// narrowed search reads, when the files left out are known to hold no match.
    pub(crate) fn only(self, kept: &HashSet<String>) -> Native {
        match self {
            Native::Grep(mut g) => {
                g.inputs.retain(|i| !matches!(i, Input::File { path, .. } if !kept.contains(path)));
                Native::Grep(g)
            }
            Native::Rg(r) => Native::Rg(r.only(kept)),
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
    /// `wanted`, it may stop once its output holds that many lines (see [`Taken`]).
    pub(crate) async fn run(&self, docs: Docs<'_>, wanted: Option<usize>) -> Option<Printed> {
        self.run_taken(docs, wanted.map(Taken::new).as_mut()).await
    }

    /// [`Native::run`] with the reader's lines as given (see [`Taken::from_memory`]).
    pub(crate) async fn run_taken(&self, docs: Docs<'_>, taken: Option<&mut Taken>) -> Option<Printed> {
        match self {
            Native::Grep(g) => g.run(docs, taken).await,
            Native::Rg(r) => r.run(docs, taken).await,
        }
    }
}
