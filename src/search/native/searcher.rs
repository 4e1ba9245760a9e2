//! The searcher: a file's lines found once, and which of them a search prints — the
//! selected lines, at most so many, each with its context window — handed in order to a
//! sink. The printers are sinks: GNU grep's and ripgrep's standard output
//! ([`super::printer`]), the summaries of `-c`, `-l`, `-L` and `-q` ([`super::summary`])
//! and ripgrep's JSON messages ([`super::json`]). A sink may stop the search at a selected
//! line: `-l`, `-L` and `-q` need only the first.
//!
//! The windows are the real tools': a selected line's `before` lines and `after` lines are
//! printed once, a group that does not follow the last line printed starts with a gap (a
//! `--` separator, for the standard printer), and once the limit of selected lines is
//! reached, the last one's after-context is still printed, selected lines in it as context.

/// A file's lines, split on the byte that ends them (a final empty line does not count).
pub(crate) struct Lines<'a> {
    text: &'a str,
    /// Each line without the byte that ends it.
    pub lines: Vec<&'a str>,
    /// Where each line starts in the text.
    pub starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn split(text: &'a str, eol: u8) -> Self {
        let (mut lines, mut starts) = (Vec::new(), Vec::new());
        let mut at = 0;
        // memchr's search uses SIMD in the wasm; `str::split` goes through core's.
        for end in memchr::memchr_iter(eol, text.as_bytes()).chain(std::iter::once(text.len())) {
            starts.push(at);
            lines.push(&text[at..end]);
            at = end + 1;
        }
        if lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
            starts.pop();
        }
        Lines { text, lines, starts }
    }

    /// Line `i` with the byte that ends it, when one does.
    pub(crate) fn with_end(&self, i: usize) -> &'a str {
        let start = self.starts[i];
        &self.text[start..(start + self.lines[i].len() + 1).min(self.text.len())]
    }
}

/// What a search hands its sink, in the file's order.
pub(crate) trait Sink {
    /// Line `i` is selected; `false` stops the search there.
    fn matched(&mut self, i: usize) -> bool;
    /// Line `i` is context of a selected line.
    fn context(&mut self, i: usize);
    /// A group of lines begins that does not follow the last line printed, or is the
    /// file's first (with context only).
    fn gap(&mut self) {}
}

/// How many lines a search selects at most and the context it prints around each.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub before: usize,
    pub after: usize,
    /// Selected lines at most (`-m`).
    pub limit: u64,
    /// Groups are separated even with no context around them (grep's `-A0`).
    pub separated: bool,
}

/// Hands `sink` the selected lines of a file of `n` lines and their context, as `window`
/// says; `selected` is asked about each line at most once, in order, until the limit or
/// until the sink stops the search. Returns how many lines were selected.
pub(crate) fn search(n: usize, mut selected: impl FnMut(usize) -> bool, window: Window, sink: &mut impl Sink) -> u64 {
    let context = window.separated || window.before > 0 || window.after > 0;
    // The first line not handed on yet, the after-context still owed, the lines selected.
    let (mut next, mut owed, mut found) = (0, 0, 0);
    for i in 0..n {
        if found >= window.limit {
            if owed == 0 {
                break;
            }
            sink.context(i);
            (next, owed) = (i + 1, owed - 1);
        } else if selected(i) {
            let first = next.max(i.saturating_sub(window.before));
            if context && (found == 0 || first > next) {
                sink.gap();
            }
            for j in first..i {
                sink.context(j);
            }
            (next, owed, found) = (i + 1, window.after, found + 1);
            if !sink.matched(i) {
                break;
            }
        } else if owed > 0 {
            sink.context(i);
            (next, owed) = (i + 1, owed - 1);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a sink is handed, spelled `=i` (selected), `-i` (context) and `--` (gap).
    /// It stops the search once it holds `.1` entries.
    struct Log(Vec<String>, usize);

    impl Sink for Log {
        fn matched(&mut self, i: usize) -> bool {
            self.0.push(format!("={i}"));
            self.0.len() < self.1
        }
        fn context(&mut self, i: usize) {
            self.0.push(format!("-{i}"));
        }
        fn gap(&mut self) {
            self.0.push("--".into());
        }
    }

    fn run(selected: &[usize], n: usize, before: usize, after: usize, limit: u64) -> String {
        let mut log = Log(Vec::new(), usize::MAX);
        let found = search(n, |i| selected.contains(&i), Window { before, after, limit, separated: false }, &mut log);
        assert_eq!(found, selected.len().min(limit as usize) as u64);
        log.0.join(" ")
    }

    #[test]
    fn lines_split_on_their_end_and_a_final_empty_line_does_not_count() {
        let l = Lines::split("a\nbc\n\nd", b'\n');
        assert_eq!((l.lines.clone(), l.starts.clone()), (vec!["a", "bc", "", "d"], vec![0, 2, 5, 6]));
        assert_eq!((l.with_end(1), l.with_end(3)), ("bc\n", "d"));
        assert_eq!(Lines::split("a\n", b'\n').lines, ["a"]);
        assert!(Lines::split("", b'\n').lines.is_empty());
        assert_eq!(Lines::split("a\nb\0c", 0).lines, ["a\nb", "c"]);
    }

    #[test]
    fn windows_are_printed_once_with_a_gap_between_groups_that_do_not_touch() {
        assert_eq!(run(&[1, 5], 8, 0, 0, u64::MAX), "=1 =5", "no context: no gaps");
        assert_eq!(run(&[1, 5], 8, 1, 1, u64::MAX), "-- -0 =1 -2 -- -4 =5 -6");
        assert_eq!(run(&[1, 4], 8, 1, 1, u64::MAX), "-- -0 =1 -2 -3 =4 -5", "adjacent groups join");
        assert_eq!(run(&[1, 2], 8, 2, 2, u64::MAX), "-- -0 =1 =2 -3 -4", "a selected line ends the context before it");
        assert_eq!(run(&[0, 7], 8, 3, 0, u64::MAX), "-- =0 -- -4 -5 -6 =7");
    }

    #[test]
    fn past_the_limit_the_last_window_is_finished_with_selected_lines_as_context() {
        assert_eq!(run(&[1, 2, 3, 6], 8, 0, 2, 2), "-- =1 =2 -3 -4");
        assert_eq!(run(&[1, 2], 8, 0, 0, 1), "=1");
        assert_eq!(run(&[1], 8, 1, 1, 0), "", "-m 0 prints nothing");
    }

    #[test]
    fn a_sink_stops_the_search_at_a_selected_line() {
        let mut asked = Vec::new();
        let mut log = Log(Vec::new(), 3);
        let found = search(
            8,
            |i| {
                asked.push(i);
                i % 2 == 1
            },
            Window { before: 1, after: 1, limit: u64::MAX, separated: false },
            &mut log,
        );
        assert_eq!(log.0.join(" "), "-- -0 =1", "no context after the line it stopped at");
        assert_eq!((found, asked), (1, vec![0, 1]), "no line past it is tested");
    }
}
