//! Pipelines that stop early: a search whose output goes to `head`.
//!
//! just-bash runs each stage of a pipeline to the end before the next starts, so
//! `grep -rn WORD / | head -20` would load and search every page that may match to print
//! twenty lines. When the host knows the line's reader takes only the first lines, the
//! command stops once it has printed them — but only when what the whole line shows cannot
//! change: its exit status is settled and no file it has not reached could write to
//! stderr. Otherwise it runs to the end as before.
//!
//! A run may also be held to the pages already in memory ([`EarlyStop::from_memory`]): it
//! then gives up at the first page it would have to fetch, and the caller knows its
//! output is not an answer ([`EarlyStop::ran_out`]).

use crate::search::view::SessionView;

/// What the reader of a command's output takes: its first lines (`| head -n N`). Lines
/// after those are never shown, so a command may stop printing once it has them — when
/// its exit status can no longer change and no later file could add to its stderr.
#[derive(Debug)]
pub(crate) struct EarlyStop {
    wanted: usize,
    seen: usize,
    /// How much of the output has been counted.
    counted: usize,
    /// Read only pages in memory.
    memory_only: bool,
    /// A page it needed was not in memory: the run is not an answer.
    ran_out: bool,
}

impl EarlyStop {
    pub(crate) fn new(wanted: usize) -> EarlyStop {
        EarlyStop { wanted, seen: 0, counted: 0, memory_only: false, ran_out: false }
    }

    /// A run that reads only pages in memory and gives up at the first that is not.
    pub(crate) fn from_memory(wanted: usize) -> EarlyStop {
        EarlyStop { memory_only: true, ..EarlyStop::new(wanted) }
    }

    /// Whether the command may read `path` now; `false` ends the run (see [`EarlyStop::ran_out`]).
    pub(super) fn may_read(&mut self, view: SessionView<'_>, path: &str) -> bool {
        if self.memory_only && view.page(path).is_some_and(|p| !view.store().is_cached(&p.key)) {
            self.ran_out = true;
        }
        !self.ran_out
    }

    /// Whether the run gave up at a page that was not in memory.
    pub(crate) fn ran_out(&self) -> bool {
        self.ran_out
    }

    /// Whether `stdout` (the output so far, only ever appended to) holds the lines wanted.
    pub(super) fn has_all(&mut self, stdout: &str) -> bool {
        self.seen += memchr::memchr_iter(b'\n', &stdout.as_bytes()[self.counted..]).count();
        self.counted = stdout.len();
        self.seen >= self.wanted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_as_the_output_grows() {
        let mut t = EarlyStop::new(3);
        let mut out = String::from("a\nb\n");
        assert!(!t.has_all(&out));
        out.push_str("partial");
        assert!(!t.has_all(&out), "a line without its newline is not yet taken");
        out.push_str(" line\nmore\n");
        assert!(t.has_all(&out));
        assert!(EarlyStop::new(0).has_all(""), "head -n 0 takes nothing");
    }
}
