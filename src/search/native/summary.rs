//! The summary printers, sinks of the searcher that print no line: `-c`'s count (rg's
//! `--count-matches` too), and what `-l`, `-L` and `-q` (rg's `--files-with-matches`,
//! `--files-without-match`) need to know, whether a file has a selected line, found by
//! stopping the search at the first.

use super::printer::{name, Options, Text};
use super::searcher::{self, Sink, Window};
use crate::search::pattern::engine::Engine;
use std::fmt::Write;

/// `-c`'s sink: it counts the selected lines (or their matches).
struct Count<'a> {
    t: &'a Text<'a>,
    by_match: bool,
    n: usize,
}

impl Sink for Count<'_> {
    fn matched(&mut self, i: usize) -> bool {
        self.n += if self.by_match { self.t.matches(i).count() } else { 1 };
        true
    }
    fn context(&mut self, _: usize) {}
}

/// Prints the count of `content`'s selected lines (or, with `count_matches`, their
/// matches) once the file is searched, after its name when it has one; says whether a
/// line was selected.
pub(crate) fn count(content: &str, engine: &Engine, o: &Options, out: &mut String) -> bool {
    let t = match !o.invert && !engine.may_match(content) {
        // No line holds a literal every match needs: nothing to split or test.
        true => Text::default(),
        false => Text::of(content, engine, o.eol()),
    };
    let t = &t;
    let window = Window { before: 0, after: 0, limit: o.max_count.unwrap_or(u64::MAX), separated: false };
    let mut sink = Count { t, by_match: o.count_matches && !o.invert, n: 0 };
    let lines = searcher::search(t.len(), |i| t.selected(i, o), window, &mut sink);
    if o.filename.is_some() {
        name(out, o, ':');
    }
    writeln!(out, "{}", sink.n).unwrap();
    lines > 0
}

/// The sink of `-l`, `-L` and `-q`: the first selected line stops the search.
#[derive(Default)]
struct First {
    found: bool,
}

impl Sink for First {
    fn matched(&mut self, _: usize) -> bool {
        self.found = true;
        false
    }
    fn context(&mut self, _: usize) {}
}

/// How `-l`, `-L` and `-q` search a file.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Selects {
    /// `-v`: the lines that do not match are selected.
    pub invert: bool,
    /// grep `-z`: lines end in NUL.
    pub null_data: bool,
    /// `-m`: `Some(0)` selects nothing.
    pub max_count: Option<u64>,
}

/// Whether `content` has a line `engine` selects, as [`super::printer::search`] would say,
/// searched no further than its first one and printing nothing. Without `-v`, where the
/// pattern has literals, only the lines holding one are found and tested
/// ([`Engine::any_line`]): the file is not split.
pub(crate) fn selects_any(content: &str, engine: &Engine, s: Selects) -> bool {
    if s.max_count == Some(0) {
        return false;
    }
    if !s.invert {
        if let Some(found) = engine.any_line(content).filter(|_| !s.null_data) {
            return found;
        }
        if !engine.may_match(content) {
            return false;
        }
    }
    let eol = if s.null_data { 0 } else { b'\n' };
    let t = Text::of(content, engine, eol);
    let mut sink = First::default();
    let window = Window { before: 0, after: 0, limit: u64::MAX, separated: false };
    searcher::search(t.len(), |i| t.is_match(i) != s.invert, window, &mut sink);
    sink.found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::engine::{Flags, Tool};
    use crate::search::pattern::rewrite::Dialect;

    fn flags(ignore_case: bool, word: bool) -> Flags {
        Flags { dialect: Dialect::Extended, ignore_case, word, line: false, tool: Tool::Gnu }
    }

    fn engine(p: &str, ignore_case: bool, word: bool) -> Engine {
        Engine::new(&[p.to_string()], flags(ignore_case, word)).unwrap()
    }

    /// What the standard printer says of a file: whether it selects a line.
    fn printed(t: &str, e: &Engine, invert: bool) -> bool {
        let o = Options { invert, separator: Some("--"), ..Options::default() };
        super::super::printer::search(t, e, &o, &mut String::new(), &mut Default::default())
    }

    #[test]
    fn the_first_selected_line_agrees_with_a_search() {
        let texts =
            ["", "\n", "ab\n", "xab", "a\nb\n", "tokens here\nTOKEN\n", "foo bar\nfoobar", "k\u{212A}\nAB CD\n"];
        let patterns =
            ["a", "ab", "token", "tok(en)?s", "foo|bar", "^b$", "\\bfoo\\b", "x*", "[A-Z]{2} [A-Z]{2}", "a\nb"];
        for ignore_case in [false, true] {
            for word in [false, true] {
                for p in patterns {
                    let e = engine(p, ignore_case, word);
                    for t in texts {
                        for invert in [false, true] {
                            let s = Selects { invert, ..Selects::default() };
                            let said = format!("{p:?} in {t:?}, -i {ignore_case}, -w {word}, -v {invert}");
                            assert_eq!(selects_any(t, &e, s), printed(t, &e, invert), "{said}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_first_selected_line_stops_the_search() {
        let mut asked = Vec::new();
        let mut first = First::default();
        let window = Window { before: 2, after: 2, limit: u64::MAX, separated: false };
        let found = searcher::search(
            100,
            |i| {
                asked.push(i);
                i % 3 == 2
            },
            window,
            &mut first,
        );
        assert!(first.found);
        assert_eq!((found, asked), (1, vec![0, 1, 2]), "no line after the first selected one is tested");
    }

    #[test]
    fn m_0_selects_nothing_and_z_ends_lines_in_nul() {
        let e = engine("a", false, false);
        let none = Selects { max_count: Some(0), ..Selects::default() };
        assert!(!selects_any("a\n", &e, none) && !selects_any("b\n", &e, Selects { invert: true, ..none }));
        assert!(selects_any("a\n", &e, Selects { max_count: Some(1), ..Selects::default() }));
        let z = Selects { null_data: true, ..Selects::default() };
        let anchored = engine("^b", false, false);
        let nul = Engine::for_null_data(&["^b".to_string()], flags(false, false)).unwrap();
        assert!(!selects_any("a\nb\0", &nul, z), "under -z, a newline does not start a line");
        assert!(selects_any("a\0b\0", &nul, z));
        assert!(selects_any("a\nb\n", &anchored, Selects::default()));
    }

    #[test]
    fn under_v_a_file_of_matching_lines_selects_none() {
        let e = engine("a", false, false);
        let v = Selects { invert: true, ..Selects::default() };
        assert!(!selects_any("a\naa\n", &e, v));
        assert!(selects_any("a\nb\n", &e, v));
        assert!(!selects_any("", &e, v), "an empty file has no line to select");
    }
}
