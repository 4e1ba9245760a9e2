//! Pipelines that stop early: a search whose output goes to `head`.
//!
//! just-bash runs each stage of a pipeline to the end before the next starts, so
//! `grep -rn WORD / | head -20` would load and search every page that may match to print
//! twenty lines. When the host knows the line's reader takes only the first lines, the
//! command stops once it has printed them — but only when what the whole line shows cannot
//! change: its exit status is settled and no file it has not reached could write to
//! stderr. Otherwise it runs to the end as before.

/// What the reader of a command's output takes: its first lines (`| head -n N`). Lines
/// after those are never shown, so a command may stop printing once it has them — when
/// its exit status can no longer change and no later file could add to its stderr.
#[derive(Debug)]
pub(crate) struct Taken {
    wanted: usize,
    seen: usize,
    /// How much of the output has been counted.
    counted: usize,
}

impl Taken {
    pub(super) fn new(wanted: usize) -> Taken {
        Taken { wanted, seen: 0, counted: 0 }
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
        let mut t = Taken::new(3);
        let mut out = String::from("a\nb\n");
        assert!(!t.has_all(&out));
        out.push_str("partial");
        assert!(!t.has_all(&out), "a line without its newline is not yet taken");
        out.push_str(" line\nmore\n");
        assert!(t.has_all(&out));
        assert!(Taken::new(0).has_all(""), "head -n 0 takes nothing");
    }
}
