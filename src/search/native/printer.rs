//! What grep or rg prints for one file, as GNU grep and ripgrep print it.
//!
//! A file is split on `\n` (a final empty line does not count), each line tested, and
//! the selected ones printed as `file:line:text`, as counts, as `-o` matches, or in
//! context groups with a separator between groups that are not adjacent — across files
//! too, for grep. Under `-o` the context lines themselves are not printed, but the
//! groups they would form still are separated, as GNU grep does (under `-o -v`, GNU grep
//! prints a context line's matches, the lines that are not selected being the ones that
//! match). Under `--color=always`, grep's output is coloured as [`color`] says.

use super::color::{self, paint};
use super::replace::{replace, Replacement};
use super::searcher::{self, Lines, Sink, Window};
use crate::search::pattern::engine::Engine;
use std::fmt::Write;

/// How one file's lines are printed.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Options<'a> {
    pub invert: bool,
    pub line_numbers: bool,
    pub count: bool,
    /// With `count`: count matches rather than lines (rg `--count-matches`, `-co`).
    pub count_matches: bool,
    pub only_matching: bool,
    /// Context lines as ripgrep prints them: whole, also under `-o` (GNU grep prints
    /// none), and under `-v`, where they are the lines that match, with their matches (`-o`,
    /// `--column`, `--vimgrep`, `-r`) while the selected lines are printed whole.
    pub context_with_matches: bool,
    pub before: u64,
    pub after: u64,
    /// `None`: no limit.
    pub max_count: Option<u64>,
    /// The name printed before each line, when there is one.
    pub filename: Option<&'a str>,
    /// `-Z`: the name is followed by a NUL rather than `:`/`-`.
    pub null_after_name: bool,
    /// `-b`: the byte offset of each line (or match) in the file.
    pub byte_offset: bool,
    /// Printed between context groups that are not adjacent; `None`: nothing.
    pub separator: Option<&'a str>,
    /// grep given a context of no lines (`-A0`, `-B0`, `-C0`): its groups are still
    /// separated.
    pub separated: bool,
    /// `-T`: line numbers and offsets right-aligned to this width, and a tab between
    /// the prefix and a line that is not empty.
    pub align: Option<usize>,
    /// rg `--column`: a selected line's first match's column (bytes, from 1) after its
    /// number; under `-o`, each match's.
    pub column: bool,
    /// rg `--vimgrep`: a selected line printed once for each match in it, with its column.
    pub per_match: bool,
    /// grep `-z`: lines end in NUL, read and printed.
    pub null_data: bool,
    /// grep `--color=always`: names, numbers, separators and matches coloured (the
    /// matches must be GNU grep's, none empty).
    pub color: bool,
    /// rg `-r`: a selected line's matches replaced (see [`replace`]).
    pub replace: Option<&'a Replacement>,
}

impl Options<'_> {
    /// The byte that ends a line.
    pub(super) fn eol(&self) -> u8 {
        if self.null_data {
            0
        } else {
            b'\n'
        }
    }
}

/// What the files printed so far leave for the next: whether a context group has been
/// printed (so the next one is separated from it).
#[derive(Debug, Default)]
pub(crate) struct Groups {
    pub printed: bool,
}

/// Searches `content`, appends the lines grep or rg prints for it to `out`, and says
/// whether a line was selected. (`-c` is [`super::summary::count`]'s.)
pub(crate) fn search(content: &str, engine: &Engine, o: &Options, out: &mut String, groups: &mut Groups) -> bool {
    if !o.invert && !engine.may_match(content) {
        // No line holds a literal every match needs: nothing to split or test.
        return false;
    }
    let t = Text::of(content, engine, o.eol());
    let window = Window {
        before: o.before.try_into().unwrap_or(usize::MAX),
        after: o.after.try_into().unwrap_or(usize::MAX),
        limit: o.max_count.unwrap_or(u64::MAX),
        separated: o.separated,
    };
    searcher::search(t.lines.len(), |i| t.selected(i, o), window, &mut Standard { t: &t, o, out, groups }) > 0
}

/// The standard printer, a sink of the searcher: each line as grep or rg prints it, and
/// a separator between context groups that do not touch — across files too, for grep.
struct Standard<'a, 'o> {
    t: &'a Text<'a>,
    o: &'a Options<'o>,
    out: &'a mut String,
    groups: &'a mut Groups,
}

impl Sink for Standard<'_, '_> {
    fn matched(&mut self, i: usize) -> bool {
        print_selected(self.t, i, self.o, self.out);
        true
    }
    fn context(&mut self, i: usize) {
        print_context(self.t, i, self.o, self.out);
    }
    fn gap(&mut self) {
        if let Some(sep) = self.o.separator.filter(|_| self.groups.printed) {
            paint(self.out, self.o.color, color::SEPARATOR, sep);
            self.out.push('\n');
        }
        self.groups.printed = true;
    }
}

/// A file's lines (see [`Lines`]), and which of them hold a literal every match needs.
#[derive(Default)]
pub(super) struct Text<'a> {
    lines: Vec<&'a str>,
    /// Where each line starts in the file.
    starts: Vec<usize>,
    candidates: Option<Vec<bool>>,
    engine: Option<&'a Engine>,
}

impl<'a> Text<'a> {
    /// `content`'s lines, each ending in `eol`, to be matched by `engine`.
    pub(super) fn of(content: &'a str, engine: &'a Engine, eol: u8) -> Self {
        let Lines { lines, starts, .. } = Lines::split(content, eol);
        Text { candidates: engine.candidates(content, &starts), lines, starts, engine: Some(engine) }
    }

    /// How many lines there are.
    pub(super) fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether line `i` matches.
    pub(super) fn is_match(&self, i: usize) -> bool {
        self.candidates.as_ref().is_none_or(|c| c[i]) && self.engine.is_some_and(|e| e.confirm(self.lines[i]))
    }

    /// Line `i`'s matches.
    pub(super) fn matches(&self, i: usize) -> Box<dyn Iterator<Item = &'a str> + 'a> {
        match self.engine {
            Some(e) => e.matches(self.lines[i]),
            None => Box::new(std::iter::empty()),
        }
    }

    /// Whether line `i` is selected (matches, or under `-v` does not).
    pub(super) fn selected(&self, i: usize, o: &Options) -> bool {
        self.is_match(i) != o.invert
    }
}

/// The file's name, then `sep` (or, under `-Z`, a NUL).
pub(super) fn name(out: &mut String, o: &Options, sep: char) {
    paint(out, o.color, color::FILE_NAME, o.filename.unwrap_or_default());
    match o.null_after_name {
        true => out.push('\0'),
        false => separator(out, o, sep),
    }
}

fn separator(out: &mut String, o: &Options, sep: char) {
    paint(out, o.color, color::SEPARATOR, sep.encode_utf8(&mut [0; 4]));
}

/// What comes before a printed line (or `-o` match) `text`: the name, the line number,
/// the column of a match (rg), and the byte offset, each followed by `sep`.
fn prefix(out: &mut String, o: &Options, at: Place, sep: char, text: &str) {
    if o.filename.is_some() {
        name(out, o, sep);
    }
    let width = o.align.unwrap_or(0);
    if o.line_numbers {
        color::paint_args(out, o.color, color::LINE_NUMBER, format_args!("{:>width$}", at.line + 1));
        separator(out, o, sep);
    }
    if let Some(column) = at.column {
        write!(out, "{column}{sep}").unwrap();
    }
    if o.byte_offset {
        color::paint_args(out, o.color, color::BYTE_OFFSET, format_args!("{:>width$}", at.offset));
        separator(out, o, sep);
    }
    let prefixed = o.filename.is_some() || o.line_numbers || o.byte_offset;
    if o.align.is_some() && prefixed && !text.is_empty() {
        out.push('\t');
    }
}

/// Where a printed line or match is: its line's index, its byte offset in the file, and
/// (rg `--column`) its column.
#[derive(Clone, Copy)]
struct Place {
    line: usize,
    offset: usize,
    column: Option<usize>,
}

/// The width GNU grep's `-T` aligns numbers to in a file of `size` bytes (`None`: one it
/// cannot size, such as a pipe): the digits of the largest number it could print there.
pub(crate) fn align_width(size: Option<u64>, line_numbers: bool) -> usize {
    let largest = size.map_or(i64::MAX as u64, |s| s.saturating_add(u64::from(line_numbers)));
    largest.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// A selected line: the line with its matches (see [`print_matched`]), or under `-v`, where
/// it has none, the line whole (grep's `-o -v` prints nothing of it).
fn print_selected(t: &Text, i: usize, o: &Options, out: &mut String) {
    match (o.invert, o.only_matching && !o.context_with_matches) {
        (false, _) => print_matched(t, i, o, ':', out),
        (true, false) => print_whole(t, i, o, ':', false, out),
        (true, true) => {}
    }
}

/// A line printed with its matches, after a prefix ending in `sep`: the line, its matches
/// under `-o`, the line once for each match under `--vimgrep`, replaced under rg's `-r`.
fn print_matched(t: &Text, i: usize, o: &Options, sep: char, out: &mut String) {
    if let (Some(r), Some(e)) = (o.replace, t.engine) {
        return print_replaced(t, i, o, (e, r), sep, out);
    }
    let line = t.lines[i];
    let base = line.as_ptr() as usize;
    let start = t.starts[i];
    // Where each match starts in the line.
    let mut matches = t.matches(i).map(|m| (m, m.as_ptr() as usize - base));
    if o.only_matching {
        print_matches(t, i, o, sep, out);
    } else if o.per_match {
        for (_, at) in matches {
            prefix(out, o, Place { line: i, offset: start + at, column: Some(at + 1) }, sep, line);
            out.push_str(line);
            out.push(char::from(o.eol()));
        }
    } else {
        let column = if o.column { matches.next().map(|(_, at)| at + 1) } else { None };
        prefix(out, o, Place { line: i, offset: start, column }, sep, line);
        match o.color {
            true => color::line_with_matches(out, line, t.matches(i)),
            false => out.push_str(line),
        }
        out.push(char::from(o.eol()));
    }
}

/// A line whole, after a prefix ending in `sep`, with no column; its matches coloured
/// when `painted`.
fn print_whole(t: &Text, i: usize, o: &Options, sep: char, painted: bool, out: &mut String) {
    let text = t.lines[i];
    prefix(out, o, Place { line: i, offset: t.starts[i], column: None }, sep, text);
    match painted {
        true => color::line_with_matches(out, text, t.matches(i)),
        false => out.push_str(text),
    }
    out.push(char::from(o.eol()));
}

/// A line with its matches replaced (rg `-r`): the line, each match under `-o`, or the
/// line once for each match under `--vimgrep`.
fn print_replaced(t: &Text, i: usize, o: &Options, (e, r): (&Engine, &Replacement), sep: char, out: &mut String) {
    let replaced = replace(e, t.lines[i], r);
    let start = t.starts[i];
    let eol = char::from(o.eol());
    if o.only_matching {
        for (at, text) in replaced.matches {
            prefix(out, o, Place { line: i, offset: start + at, column: o.column.then_some(at + 1) }, sep, &text);
            out.push_str(&text);
            out.push(eol);
        }
        return;
    }
    let places: Vec<(usize, Option<usize>)> = match (o.per_match, o.column) {
        (true, _) => replaced.matches.iter().map(|(at, _)| (start + at, Some(at + 1))).collect(),
        (false, true) => vec![(start, replaced.matches.first().map(|(at, _)| at + 1))],
        (false, false) => vec![(start, None)],
    };
    for (offset, column) in places {
        prefix(out, o, Place { line: i, offset, column }, sep, &replaced.line);
        out.push_str(&replaced.line);
        out.push(eol);
    }
}

/// Line `i`'s matches, each on a line of its own (`-o`), after a prefix ending in `sep`.
fn print_matches(t: &Text, i: usize, o: &Options, sep: char, out: &mut String) {
    let base = t.lines[i].as_ptr() as usize;
    for m in t.matches(i).filter(|m| !m.is_empty()) {
        let at = m.as_ptr() as usize - base;
        let column = o.column.then_some(at + 1);
        prefix(out, o, Place { line: i, offset: t.starts[i] + at, column }, sep, m);
        paint(out, o.color, color::MATCH, m);
        out.push(char::from(o.eol()));
    }
}

/// A context line. rg prints one under `-v` (a line that matches) as it prints a selected
/// line otherwise, with its matches, and any other whole. grep prints it whole, its
/// matches coloured under `-v`; under `-o`, only its matches under `-v`, and otherwise
/// nothing.
fn print_context(t: &Text, i: usize, o: &Options, out: &mut String) {
    if o.context_with_matches {
        return match o.invert {
            true => print_matched(t, i, o, '-', out),
            false => print_whole(t, i, o, '-', false, out),
        };
    }
    match (o.only_matching, o.invert) {
        (true, true) => print_matches(t, i, o, '-', out),
        (true, false) => {}
        (false, _) => print_whole(t, i, o, '-', o.color && o.invert, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::engine::{Flags, Tool};
    use crate::search::pattern::rewrite::Dialect;

    fn grep(content: &str, pattern: &str, o: Options) -> (String, bool) {
        let flags = Flags { dialect: Dialect::Extended, ignore_case: false, word: false, line: false, tool: Tool::Gnu };
        let e = Engine::new(&[pattern.to_string()], flags).unwrap();
        let mut out = String::new();
        let matched = super::super::print_file(content, &e, &o, &mut out, &mut Groups::default());
        (out, matched)
    }

    fn out(content: &str, pattern: &str, o: Options) -> String {
        grep(content, pattern, o).0
    }

    const TEXT: &str = "a1\nb\nc\na2\nd\ne\nf\ng\na3\n";

    #[test]
    fn null_data_lines_end_in_nul_and_hold_newlines() {
        let flags = Flags { dialect: Dialect::Basic, ignore_case: false, word: false, line: false, tool: Tool::Gnu };
        let z = |p: &str, text: &str, o: Options| {
            let e = Engine::for_null_data(&[p.to_string()], flags).unwrap();
            let mut out = String::new();
            super::super::print_file(text, &e, &Options { null_data: true, ..o }, &mut out, &mut Groups::default());
            let z = super::super::summary::Selects { null_data: true, ..Default::default() };
            (out, super::super::summary::selects_any(text, &e, z))
        };
        let text = "ab\ncd\0xbc\0## x\nq";
        let numbered = Options { line_numbers: true, ..NONE };
        assert_eq!(z("b.c", text, numbered), ("1:ab\ncd\0".into(), true), ". matches a newline");
        assert_eq!(z("b[^x]c", text, NONE).0, "ab\ncd\0", "so does a negated class");
        assert_eq!(z("^cd", text, NONE), (String::new(), false), "^ is only a line's start");
        assert_eq!(z("q$", text, NONE).0, "## x\nq\0", "the last line needs no NUL");
        assert_eq!(z("x$", text, NONE).0, "", "$ is only a line's end");
        assert_eq!(z("b", text, Options { count: true, ..NONE }).0, "2\n", "counts end in a newline");
    }
    const NONE: Options = Options {
        invert: false,
        line_numbers: false,
        count: false,
        count_matches: false,
        only_matching: false,
        context_with_matches: false,
        before: 0,
        after: 0,
        max_count: None,
        filename: None,
        null_after_name: false,
        byte_offset: false,
        separator: Some("--"),
        separated: false,
        align: None,
        column: false,
        per_match: false,
        null_data: false,
        color: false,
        replace: None,
    };

    #[test]
    fn lines_numbers_and_names() {
        let o = Options { line_numbers: true, filename: Some("/x.md"), ..NONE };
        assert_eq!(grep(TEXT, "a", o), ("/x.md:1:a1\n/x.md:4:a2\n/x.md:9:a3\n".into(), true));
        assert_eq!(grep(TEXT, "z", o), (String::new(), false));
        assert_eq!(out("a\n\n", "^$", NONE), "\n", "an empty line before the final newline counts");
    }

    #[test]
    fn counts_and_max_count() {
        assert_eq!(out(TEXT, "a", Options { count: true, ..NONE }), "3\n");
        assert_eq!(out(TEXT, "a", Options { count: true, invert: true, filename: Some("f"), ..NONE }), "f:6\n");
        assert_eq!(out("aa a\n", "a", Options { count: true, only_matching: true, ..NONE }), "1\n", "-co counts lines");
        assert_eq!(out("aa a\n", "a", Options { count: true, count_matches: true, ..NONE }), "3\n");
        assert_eq!(out(TEXT, "z", Options { count: true, ..NONE }), "0\n", "a page without the literal still counts");
        assert_eq!(out(TEXT, "a", Options { max_count: Some(2), ..NONE }), "a1\na2\n");
        assert_eq!(out(TEXT, "a", Options { max_count: Some(0), ..NONE }), "", "-m 0 selects nothing");
        assert_eq!(out(TEXT, "a", Options { max_count: Some(1), count: true, ..NONE }), "1\n");
    }

    #[test]
    fn context_groups_are_separated() {
        let o = Options { before: 1, after: 1, line_numbers: true, ..NONE };
        assert_eq!(out(TEXT, "a", o), "1:a1\n2-b\n3-c\n4:a2\n5-d\n--\n8-g\n9:a3\n");
        let o = Options { before: 1, after: 1, only_matching: true, ..NONE };
        assert_eq!(out(TEXT, "a.", o), "a1\na2\n--\na3\n", "-o prints no context lines, but separates groups");
        let o = Options { separated: true, ..NONE };
        assert_eq!(out("m1\nx\nm2\nm3\n", "m", o), "m1\n--\nm2\nm3\n", "grep -A0: groups of no context, separated");
        let mut groups = Groups::default();
        let (e, o) = (
            Engine::new(
                &["a".into()],
                Flags { dialect: Dialect::Extended, ignore_case: false, word: false, line: false, tool: Tool::Gnu },
            )
            .unwrap(),
            Options { after: 1, ..NONE },
        );
        let mut two = String::new();
        search("a\n", &e, &o, &mut two, &mut groups);
        search("a\n", &e, &o, &mut two, &mut groups);
        assert_eq!(two, "a\n--\na\n", "groups of different files are separated");
    }

    #[test]
    fn initial_tab_aligns_numbers_to_the_files_size_and_tabs_the_text() {
        assert_eq!((align_width(Some(9), false), align_width(Some(9), true), align_width(Some(1692), true)), (1, 2, 4));
        assert_eq!(align_width(None, true), 19, "a pipe: as wide as the largest offset");
        let o = Options { line_numbers: true, byte_offset: true, align: Some(2), filename: Some("f"), ..NONE };
        assert_eq!(out("a\n\nab\n", "a|^$", o), "f: 1: 0:\ta\nf: 2: 2:\nf: 3: 3:\tab\n", "no tab before an empty line");
        let o = Options { align: Some(3), ..NONE };
        assert_eq!(out("ab\n", "a", o), "ab\n", "nothing to align without a prefix");
        let o = Options { align: Some(1), filename: Some("f"), only_matching: true, ..NONE };
        assert_eq!(out("ab a\n", "a", o), "f:\ta\nf:\ta\n");
    }

    #[test]
    fn rg_columns_count_bytes_from_one_and_vimgrep_prints_a_line_per_match() {
        let text = "a mint mint\nb\n";
        let o = Options { line_numbers: true, column: true, byte_offset: true, ..NONE };
        assert_eq!(out(text, "mint", o), "1:3:0:a mint mint\n", "line, column, offset");
        assert_eq!(out(text, "mint", Options { only_matching: true, ..o }), "1:3:2:mint\n1:8:7:mint\n");
        assert_eq!(
            out(text, "mint", Options { invert: true, ..o }),
            "2:12:b\n",
            "no column for a line without a match"
        );
        let o = Options { after: 1, column: true, line_numbers: true, ..NONE };
        assert_eq!(out(text, "mint", o), "1:3:a mint mint\n2-b\n", "none for context lines");
        let o = Options { per_match: true, column: true, filename: Some("f"), ..NONE };
        assert_eq!(out(text, "mint", o), "f:3:a mint mint\nf:8:a mint mint\n");
    }

    /// What GNU grep 3.8 prints under `--color=always` (bytes captured from it, with
    /// `GREP_COLORS` unset, for the file `TEXT` named `t`).
    #[test]
    fn color_always_is_gnu_greps() {
        let c = Options { color: true, ..NONE };
        let o = Options { line_numbers: true, before: 1, after: 1, ..c };
        assert_eq!(
            out(TEXT, "a", o),
            "\x1b[32m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ka\x1b[m\x1b[K1\n\x1b[32m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kb\n\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kc\n\x1b[32m\x1b[K4\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ka\x1b[m\x1b[K2\n\x1b[32m\x1b[K5\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kd\n\x1b[36m\x1b[K--\x1b[m\x1b[K\n\x1b[32m\x1b[K8\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kg\n\x1b[32m\x1b[K9\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ka\x1b[m\x1b[K3\n",
            "-n -C1: context lines plain, separators coloured"
        );
        let o = Options { line_numbers: true, before: 1, after: 1, invert: true, ..c };
        assert_eq!(
            out(TEXT, "a.", o),
            "\x1b[32m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[01;31m\x1b[Ka1\x1b[m\x1b[K\n\x1b[32m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kb\n\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kc\n\x1b[32m\x1b[K4\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[01;31m\x1b[Ka2\x1b[m\x1b[K\n\x1b[32m\x1b[K5\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kd\n\x1b[32m\x1b[K6\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Ke\n\x1b[32m\x1b[K7\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kf\n\x1b[32m\x1b[K8\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kg\n\x1b[32m\x1b[K9\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[01;31m\x1b[Ka3\x1b[m\x1b[K\n",
            "-v -n -C1: the matches of context lines are coloured, not the selected lines"
        );
        let o = Options { line_numbers: true, after: 1, invert: true, only_matching: true, ..c };
        assert_eq!(
            out(TEXT, "a", o),
            "\x1b[32m\x1b[K4\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[01;31m\x1b[Ka\x1b[m\x1b[K\n\x1b[32m\x1b[K9\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[01;31m\x1b[Ka\x1b[m\x1b[K\n",
            "-o -v -n -A1: a context line's matches"
        );
        let o = Options { line_numbers: true, byte_offset: true, align: Some(2), ..c };
        assert_eq!(
            out(TEXT, "a", o),
            "\x1b[32m\x1b[K 1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K 0\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\t\x1b[01;31m\x1b[Ka\x1b[m\x1b[K1\n\x1b[32m\x1b[K 4\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K 7\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\t\x1b[01;31m\x1b[Ka\x1b[m\x1b[K2\n\x1b[32m\x1b[K 9\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K18\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\t\x1b[01;31m\x1b[Ka\x1b[m\x1b[K3\n",
            "-nbT: padding inside the colour"
        );
        let o = Options { only_matching: true, filename: Some("t"), byte_offset: true, ..c };
        assert_eq!(
            out(TEXT, "a.", o),
            "\x1b[35m\x1b[Kt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K0\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ka1\x1b[m\x1b[K\n\x1b[35m\x1b[Kt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K7\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ka2\x1b[m\x1b[K\n\x1b[35m\x1b[Kt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K18\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ka3\x1b[m\x1b[K\n",
            "-oHb"
        );
        let o = Options { max_count: Some(1), after: 3, ..c };
        assert_eq!(out(TEXT, "a", o), "\x1b[01;31m\x1b[Ka\x1b[m\x1b[K1\nb\nc\na2\n", "a match past -m is context");
        let o = Options { count: true, filename: Some("t"), ..c };
        assert_eq!(out(TEXT, "a", o), "\x1b[35m\x1b[Kt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K3\n", "-cH");
        let o = Options { filename: Some("t"), null_after_name: true, ..c };
        assert_eq!(out(TEXT, "a1", o), "\x1b[35m\x1b[Kt\x1b[m\x1b[K\0\x1b[01;31m\x1b[Ka1\x1b[m\x1b[K\n", "-HZ");
        assert_eq!(
            out("a mint\nmint mint\n", "mint", c),
            "a \x1b[01;31m\x1b[Kmint\x1b[m\x1b[K\n\x1b[01;31m\x1b[Kmint\x1b[m\x1b[K \x1b[01;31m\x1b[Kmint\x1b[m\x1b[K\n"
        );
    }

    #[test]
    fn only_matching_and_invert_print_the_matches_of_context_lines() {
        // GNU grep 3.8: `grep -o -v -n -A1 a` over TEXT.
        let o = Options { line_numbers: true, after: 1, invert: true, only_matching: true, ..NONE };
        assert_eq!(out(TEXT, "a", o), "4-a\n9-a\n");
    }
}
