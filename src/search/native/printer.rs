//! What grep prints for one file, exactly as just-bash's `searchContent` prints it.
//!
//! just-bash splits a file on `\n` (a final empty line does not count), tests each line,
//! and prints `file:line:text`, counts, `-o` matches or context groups with `--` between
//! them. Its quirks are kept: context separators never cross files, `-o` prints context
//! lines too, `-m 0` means no limit, and a count follows `-o` by counting matches.

use crate::search::pattern::engine::{Engine, Line};
use std::collections::HashSet;
use std::fmt::Write;

/// How one file's lines are printed.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Options<'a> {
    pub invert: bool,
    pub line_numbers: bool,
    pub count: bool,
    pub only_matching: bool,
    pub before: u64,
    pub after: u64,
    /// 0: no limit.
    pub max_count: u64,
    /// The name printed before each line, when there is one.
    pub filename: Option<&'a str>,
}

/// Whether `content` holds a line `engine` matches, as [`search`] would say, without
/// printing anything (for `-l`, `-L` and `-q`, which only need to know).
pub(crate) fn any_match(content: &str, engine: &Engine) -> bool {
    let folded = engine.folds().then(|| content.to_ascii_lowercase());
    match engine.any_line(content, folded.as_deref().unwrap_or(content)) {
        Some(found) => found,
        None => search(content, engine, &Options { max_count: 1, ..Options::default() }, &mut String::new()),
    }
}

/// Searches `content`, appends what grep prints for it to `out`, and says whether a line
/// was selected.
pub(crate) fn search(content: &str, engine: &Engine, o: &Options, out: &mut String) -> bool {
    let folded = engine.folds().then(|| content.to_ascii_lowercase());
    let searched = folded.as_deref().unwrap_or(content);
    if !o.invert && !engine.may_match(searched) {
        // No line holds a literal every match needs: nothing to split or test.
        return o.count && count(&Text::default(), o, out);
    }
    let mut starts = Vec::new();
    let mut lines: Vec<Line> = Vec::new();
    let mut at = 0;
    // memchr's newline search uses SIMD in the wasm; `str::split` goes through core's.
    let ends = memchr::memchr_iter(b'\n', content.as_bytes()).chain(std::iter::once(content.len()));
    for end in ends {
        starts.push(at);
        lines.push(Line { text: &content[at..end], folded: &searched[at..end] });
        at = end + 1;
    }
    if lines.last().is_some_and(|l| l.text.is_empty()) {
        lines.pop();
        starts.pop();
    }
    let t = Text { candidates: engine.candidates(searched, &starts), lines, engine: Some(engine) };
    if o.count {
        count(&t, o, out)
    } else if o.before == 0 && o.after == 0 {
        plain(&t, o, out)
    } else {
        with_context(&t, o, out)
    }
}

/// A file's lines, and which of them hold a literal every match needs.
#[derive(Default)]
struct Text<'a> {
    lines: Vec<Line<'a>>,
    candidates: Option<Vec<bool>>,
    engine: Option<&'a Engine>,
}

impl<'a> Text<'a> {
    fn is_match(&self, i: usize) -> bool {
        self.candidates.as_ref().is_none_or(|c| c[i]) && self.engine.is_some_and(|e| e.confirm(self.lines[i].text))
    }

    fn matches(&self, i: usize) -> Box<dyn Iterator<Item = &'a str> + 'a> {
        match self.engine {
            Some(e) => e.matches(self.lines[i]),
            None => Box::new(std::iter::empty()),
        }
    }
}

fn count(t: &Text, o: &Options, out: &mut String) -> bool {
    let by_match = o.only_matching && !o.invert;
    let n: usize = (0..t.lines.len())
        .map(|i| {
            if by_match {
                if t.candidates.as_ref().is_none_or(|c| c[i]) {
                    t.matches(i).count()
                } else {
                    0
                }
            } else {
                usize::from(t.is_match(i) != o.invert)
            }
        })
        .sum();
    match o.filename {
        Some(f) => writeln!(out, "{f}:{n}").unwrap(),
        None => writeln!(out, "{n}").unwrap(),
    }
    n > 0
}

fn prefix(out: &mut String, o: &Options, line: usize, sep: char) {
    if let Some(f) = o.filename {
        out.push_str(f);
        out.push(sep);
    }
    if o.line_numbers {
        write!(out, "{}{sep}", line + 1).unwrap();
    }
}

/// A selected line: the line, or its matches under `-o`.
fn selected(t: &Text, i: usize, o: &Options, out: &mut String) {
    let line = t.lines[i];
    if o.only_matching {
        for m in t.matches(i) {
            prefix(out, o, i, ':');
            out.push_str(m);
            out.push('\n');
        }
    } else {
        prefix(out, o, i, ':');
        out.push_str(line.text);
        out.push('\n');
    }
}

fn plain(t: &Text, o: &Options, out: &mut String) -> bool {
    let mut n = 0;
    for i in 0..t.lines.len() {
        if o.max_count > 0 && n >= o.max_count {
            break;
        }
        if t.is_match(i) != o.invert {
            n += 1;
            selected(t, i, o, out);
        }
    }
    n > 0
}

fn with_context(t: &Text, o: &Options, out: &mut String) -> bool {
    let lines = &t.lines;
    let mut hits = Vec::new();
    for i in 0..lines.len() {
        if o.max_count > 0 && hits.len() as u64 >= o.max_count {
            break;
        }
        if t.is_match(i) != o.invert {
            hits.push(i);
        }
    }
    let mut printed = HashSet::new();
    let mut last: Option<usize> = None;
    let context = |i: usize, printed: &mut HashSet<usize>, last: &mut Option<usize>, out: &mut String| {
        if printed.insert(i) {
            *last = Some(i);
            prefix(out, o, i, '-');
            out.push_str(lines[i].text);
            out.push('\n');
        }
    };
    for &hit in &hits {
        let start = hit.saturating_sub(o.before as usize);
        if last.is_some_and(|l| start > l + 1) {
            out.push_str("--\n");
        }
        for i in start..hit {
            context(i, &mut printed, &mut last, out);
        }
        if printed.insert(hit) {
            last = Some(hit);
            selected(t, hit, o, out);
        }
        let end = (lines.len() - 1).min(hit.saturating_add(o.after as usize));
        for i in hit + 1..=end {
            context(i, &mut printed, &mut last, out);
        }
    }
    !hits.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::engine::Flags;
    use crate::search::pattern::rewrite::Dialect;

    fn grep(content: &str, pattern: &str, o: Options) -> (String, bool) {
        let flags = Flags { dialect: Dialect::Extended, ignore_case: false, word: false, line: false };
        let e = Engine::new(&[pattern.to_string()], flags).unwrap();
        let mut out = String::new();
        let matched = search(content, &e, &o, &mut out);
        (out, matched)
    }

    fn out(content: &str, pattern: &str, o: Options) -> String {
        grep(content, pattern, o).0
    }

    const TEXT: &str = "a1\nb\nc\na2\nd\ne\nf\ng\na3\n";
    const NONE: Options = Options {
        invert: false,
        line_numbers: false,
        count: false,
        only_matching: false,
        before: 0,
        after: 0,
        max_count: 0,
        filename: None,
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
        assert_eq!(out("aa a\n", "a", Options { count: true, only_matching: true, ..NONE }), "3\n");
        assert_eq!(out(TEXT, "z", Options { count: true, ..NONE }), "0\n", "a page without the literal still counts");
        assert_eq!(out(TEXT, "a", Options { max_count: 2, ..NONE }), "a1\na2\n");
    }

    #[test]
    fn context_groups_are_separated() {
        let o = Options { before: 1, after: 1, line_numbers: true, ..NONE };
        assert_eq!(out(TEXT, "a", o), "1:a1\n2-b\n3-c\n4:a2\n5-d\n--\n8-g\n9:a3\n");
        let o = Options { after: 1, only_matching: true, ..NONE };
        assert_eq!(out("xa1\ny\n", "a.", o), "a1\ny\n", "-o prints context lines too");
    }

    #[test]
    fn any_match_agrees_with_a_search() {
        let texts =
            ["", "\n", "ab\n", "xab", "a\nb\n", "tokens here\nTOKEN\n", "foo bar\nfoobar", "k\u{212A}\nAB CD\n"];
        let patterns =
            ["a", "ab", "token", "tok(en)?s", "foo|bar", "^b$", "\\bfoo\\b", "x*", "[A-Z]{2} [A-Z]{2}", "a\nb"];
        for ignore_case in [false, true] {
            for word in [false, true] {
                for p in patterns {
                    let flags = Flags { dialect: Dialect::Extended, ignore_case, word, line: false };
                    let e = Engine::new(&[p.to_string()], flags).unwrap();
                    for t in texts {
                        let full = search(t, &e, &Options { max_count: 1, ..NONE }, &mut String::new());
                        assert_eq!(any_match(t, &e), full, "{p:?} in {t:?}, -i {ignore_case}, -w {word}");
                    }
                }
            }
        }
    }
}
