//! What failed during a command, so the shell can say so.
//!
//! just-bash's commands turn a read error into "No such file or directory", or skip the
//! file, or count it as no match — and an agent acts on what the shell prints. So the
//! filesystem keeps its own record: every read of a visible page that fails (Chroma
//! down, a refusal, a corrupt or missing chunk, a lazy URL that fails) is written here
//! with its path and cause. The command wrappers (`fs.commands()`, `safeExec`) take a
//! [`Journal::mark`] when a command starts and ask for what failed since when it ends,
//! then make the command's result say so. Each failure is reported once: by the
//! innermost command that saw it, or by the command line around it.

use serde::Serialize;
use std::cell::{Cell, RefCell};

/// Failures kept for reporting; older ones are only counted.
const KEPT: usize = 1000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Failure {
    /// The normalised path that could not be read.
    pub path: String,
    pub cause: String,
}

/// What failed since a mark.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Report {
    /// Failures no command has reported yet, oldest first.
    pub unreported: Vec<Failure>,
    /// Every failure since the mark, reported or not.
    pub total: u64,
}

#[derive(Default)]
pub(crate) struct Journal {
    /// A ring once full: the oldest entry is at `next % KEPT`.
    entries: RefCell<Vec<(u64, Failure, bool)>>,
    next: Cell<u64>,
}

impl Journal {
    pub(crate) fn mark(&self) -> u64 {
        self.next.get()
    }

    pub(crate) fn record(&self, path: &str, cause: impl ToString) {
        let mut entries = self.entries.borrow_mut();
        let seq = self.next.get();
        let entry = (seq, Failure { path: path.to_string(), cause: cause.to_string() }, false);
        if entries.len() < KEPT {
            entries.push(entry);
        } else {
            entries[(seq % KEPT as u64) as usize] = entry;
        }
        self.next.set(seq + 1);
    }

    /// What failed since `mark`; the failures returned count as reported from now on.
    pub(crate) fn since(&self, mark: u64) -> Report {
        let mut unreported = Vec::new();
        let mut entries = self.entries.borrow_mut();
        let oldest = if entries.len() < KEPT { 0 } else { (self.next.get() % KEPT as u64) as usize };
        let (newer, older) = entries.split_at_mut(oldest);
        for (seq, failure, reported) in older.iter_mut().chain(newer) {
            if *seq >= mark && !*reported {
                *reported = true;
                unreported.push(failure.clone());
            }
        }
        Report { unreported, total: self.next.get().saturating_sub(mark) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_is_reported_once_by_the_innermost_command() {
        let j = Journal::default();
        j.record("/old.md", "before");
        let line = j.mark();
        j.record("/redirect.md", "read by the shell");
        let cat = j.mark();
        j.record("/a.md", "down");
        let inner = j.since(cat);
        assert_eq!(inner.unreported, [Failure { path: "/a.md".into(), cause: "down".into() }]);
        assert_eq!(inner.total, 1);
        let outer = j.since(line);
        assert_eq!(outer.unreported.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["/redirect.md"]);
        assert_eq!(outer.total, 2, "the command line knows a command inside it failed");
        assert_eq!(j.since(j.mark()), Report::default());
    }

    #[test]
    fn memory_is_bounded_and_counts_stay_exact() {
        let j = Journal::default();
        let m = j.mark();
        for i in 0..KEPT + 5 {
            j.record(&format!("/{i}.md"), "x");
        }
        let r = j.since(m);
        assert_eq!((r.unreported.len(), r.total), (KEPT, (KEPT + 5) as u64));
        assert_eq!(r.unreported[0].path, "/5.md");
    }
}
