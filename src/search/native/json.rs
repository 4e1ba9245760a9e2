//! rg `--json`: ripgrep's JSON Lines messages, as ripgrep 15 prints them.
//!
//! Each file with a match gets a `begin` message, one `match` (or `context`) message a
//! line with its submatches' byte spans, and an `end` message with the file's figures;
//! a `summary` closes the output whatever matched. The figures are ripgrep's: bytes
//! searched (every file in scope, which is why such a search is never narrowed), bytes
//! printed, lines and matches. Elapsed times are measured on the session's clock; they
//! are the only part of the output that differs from run to run, as with ripgrep.
//! Under `--json`, `-n`, `-o`, `--column` and `--heading` change nothing.

use super::replace::{replacements, Replacement};
use super::searcher::{self, Lines, Sink, Window};
use crate::search::pattern::engine::Engine;
use std::fmt::Write;

/// The figures of a search so far (one file's, or the whole search's).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Figures {
    pub searches: u64,
    pub searches_with_match: u64,
    pub bytes_searched: u64,
    pub bytes_printed: u64,
    pub matched_lines: u64,
    pub matches: u64,
    pub elapsed_ns: u64,
}

impl Figures {
    /// These figures added to `other`'s.
    pub(crate) fn plus(self, mut other: Figures) -> Figures {
        other.add(&self);
        other
    }

    fn add(&mut self, f: &Figures) {
        self.searches += f.searches;
        self.searches_with_match += f.searches_with_match;
        self.bytes_searched += f.bytes_searched;
        self.bytes_printed += f.bytes_printed;
        self.matched_lines += f.matched_lines;
        self.matches += f.matches;
        self.elapsed_ns += f.elapsed_ns;
    }
}

/// Appends `s` as a JSON string, escaped as serde_json escapes it.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn path(out: &mut String, shown: &str) {
    out.push_str(r#""path":{"text":"#);
    string(out, shown);
    out.push('}');
}

/// One line's message: `match` with its submatches (spans in bytes from the line's
/// start), or `context` with none.
fn line_message(out: &mut String, shown: &str, text: &str, number: usize, offset: usize, spans: &[Span]) {
    let kind = if spans.is_empty() { "context" } else { "match" };
    write!(out, r#"{{"type":"{kind}","data":{{"#).unwrap();
    path(out, shown);
    out.push_str(r#","lines":{"text":"#);
    string(out, text);
    write!(out, r#"}},"line_number":{number},"absolute_offset":{offset},"submatches":["#).unwrap();
    for (i, (start, end, replacement)) in spans.iter().enumerate() {
        out.push_str(if i == 0 { r#"{"match":{"text":"# } else { r#",{"match":{"text":"# });
        string(out, &text[*start..*end]);
        if let Some(r) = replacement {
            out.push_str(r#"},"replacement":{"text":"#);
            string(out, r);
        }
        write!(out, r#"}},"start":{start},"end":{end}}}"#).unwrap();
    }
    out.push_str("]}}\n");
}

/// A match: its span in bytes from the line's start, and with `-r` its replacement.
type Span = (usize, usize, Option<String>);

/// Searches one file's `text`, with `before`/`after` lines of context: its `begin` and
/// line messages (empty when nothing matched), and its figures (elapsed time aside).
/// `replacement`: rg `-r`'s, each submatch then says what it is replaced with.
pub(crate) fn search(
    shown: &str,
    text: &str,
    (engine, replacement): (&Engine, Option<&Replacement>),
    before: u64,
    after: u64,
) -> (String, Figures) {
    let figures = Figures { searches: 1, bytes_searched: text.len() as u64, ..Figures::default() };
    if !engine.may_match(text) {
        return (String::new(), figures);
    }
    let lines = Lines::split(text, b'\n');
    let spans = |i: usize| spans_of(lines.lines[i], engine, replacement);
    let window = Window {
        before: before.try_into().unwrap_or(usize::MAX),
        after: after.try_into().unwrap_or(usize::MAX),
        limit: u64::MAX,
        separated: false,
    };
    let mut sink = Messages { shown, lines: &lines, spans: &spans, out: String::new(), figures };
    searcher::search(lines.lines.len(), |i| !spans(i).is_empty(), window, &mut sink);
    let Messages { out, mut figures, .. } = sink;
    figures.searches_with_match = u64::from(figures.matched_lines > 0);
    figures.bytes_printed = out.len() as u64;
    (out, figures)
}

/// A line's matches (none when it does not match): with `-r`, the non-empty ones and
/// what each is replaced with.
fn spans_of(line: &str, engine: &Engine, replacement: Option<&Replacement>) -> Vec<Span> {
    let base = line.as_ptr() as usize;
    match (engine.confirm(line), replacement) {
        (false, _) => Vec::new(),
        (true, None) => engine
            .matches(line)
            .map(|m| (m.as_ptr() as usize - base, m.as_ptr() as usize - base + m.len(), None))
            .collect(),
        (true, Some(r)) => replacements(engine, line, r)
            .into_iter()
            .filter(|(span, _)| !span.is_empty())
            .map(|(span, text)| (span.start, span.end, Some(text)))
            .collect(),
    }
}

/// The JSON printer, a sink of the searcher: a `begin` message before a file's first line,
/// then a `match` or `context` message a line.
struct Messages<'a> {
    shown: &'a str,
    lines: &'a Lines<'a>,
    spans: &'a dyn Fn(usize) -> Vec<Span>,
    out: String,
    figures: Figures,
}

impl Messages<'_> {
    fn line(&mut self, i: usize, spans: &[Span]) {
        if self.out.is_empty() {
            self.out.push_str(r#"{"type":"begin","data":{"#);
            path(&mut self.out, self.shown);
            self.out.push_str("}}\n");
        }
        line_message(&mut self.out, self.shown, self.lines.with_end(i), i + 1, self.lines.starts[i], spans);
    }
}

impl Sink for Messages<'_> {
    fn matched(&mut self, i: usize) -> bool {
        let spans = (self.spans)(i);
        self.figures.matched_lines += 1;
        self.figures.matches += spans.len() as u64;
        self.line(i, &spans);
        true
    }
    fn context(&mut self, i: usize) {
        self.line(i, &[]);
    }
}

/// Appends a file's `end` message, and adds its figures to `total`.
pub(crate) fn end(out: &mut String, shown: &str, f: &Figures, total: &mut Figures) {
    out.push_str(r#"{"type":"end","data":{"#);
    path(out, shown);
    let (secs, nanos, human) = elapsed(f.elapsed_ns);
    write!(
        out,
        r#","binary_offset":null,"stats":{{"elapsed":{{"secs":{secs},"nanos":{nanos},"human":"{human}"}},"searches":{},"searches_with_match":{},"bytes_searched":{},"bytes_printed":{},"matched_lines":{},"matches":{}}}}}}}"#,
        f.searches, f.searches_with_match, f.bytes_searched, f.bytes_printed, f.matched_lines, f.matches
    )
    .unwrap();
    out.push('\n');
    total.add(f);
}

/// Appends the `summary` message: the search's figures, and its whole elapsed time.
pub(crate) fn summary(out: &mut String, t: &Figures, total_ns: u64) {
    let (secs, nanos, human) = elapsed(total_ns);
    let (s, n, h) = elapsed(t.elapsed_ns);
    write!(
        out,
        r#"{{"data":{{"elapsed_total":{{"human":"{human}","nanos":{nanos},"secs":{secs}}},"stats":{{"bytes_printed":{},"bytes_searched":{},"elapsed":{{"human":"{h}","nanos":{n},"secs":{s}}},"matched_lines":{},"matches":{},"searches":{},"searches_with_match":{}}}}},"type":"summary"}}"#,
        t.bytes_printed, t.bytes_searched, t.matched_lines, t.matches, t.searches, t.searches_with_match
    )
    .unwrap();
    out.push('\n');
}

/// A duration as ripgrep shows it: whole seconds, the nanoseconds past them, and
/// seconds with six decimals.
fn elapsed(ns: u64) -> (u64, u64, String) {
    (ns / 1_000_000_000, ns % 1_000_000_000, format!("{:.6}s", ns as f64 / 1e9))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::engine::{Flags, Tool};
    use crate::search::pattern::rewrite::Dialect;

    fn engine(p: &str) -> Engine {
        let flags = Flags { dialect: Dialect::Perl, ignore_case: false, word: false, line: false, tool: Tool::Rg };
        Engine::new(&[p.to_string()], flags).unwrap()
    }

    #[test]
    fn a_file_prints_as_ripgrep_prints_it() {
        // The lines and figures ripgrep 15 printed for this file (`rg --json mint tf`).
        let (out, f) = search("tf", "a mint mint\nnpm x\nMint\n", (&engine("mint"), None), 0, 0);
        let want = concat!(
            r#"{"type":"begin","data":{"path":{"text":"tf"}}}"#,
            "\n",
            r#"{"type":"match","data":{"path":{"text":"tf"},"lines":{"text":"a mint mint\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"mint"},"start":2,"end":6},{"match":{"text":"mint"},"start":7,"end":11}]}}"#,
            "\n"
        );
        assert_eq!(out, want);
        assert_eq!((f.bytes_printed, f.bytes_searched, f.matched_lines, f.matches), (267, 23, 1, 2));
        let mut total = Figures::default();
        let mut end_line = String::new();
        end(&mut end_line, "tf", &Figures { elapsed_ns: 15_082, ..f }, &mut total);
        assert_eq!(
            end_line,
            concat!(
                r#"{"type":"end","data":{"path":{"text":"tf"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":15082,"human":"0.000015s"},"#,
                r#""searches":1,"searches_with_match":1,"bytes_searched":23,"bytes_printed":267,"matched_lines":1,"matches":2}}}"#,
                "\n"
            )
        );
    }

    #[test]
    fn context_lines_and_escapes() {
        let (out, f) = search("t\"f", "a\tmint\nnpm\u{1}x\nMint", (&engine("npm"), None), 1, 1);
        assert_eq!(f.bytes_printed, out.len() as u64);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].contains(r#""path":{"text":"t\"f"}"#));
        assert!(lines[1].starts_with(r#"{"type":"context""#) && lines[1].contains(r#""text":"a\tmint\n""#));
        assert!(lines[2].contains(r#""text":"npm\u0001x\n""#) && lines[2].contains(r#""absolute_offset":7"#));
        assert!(lines[3].contains(r#""text":"Mint"},"line_number":3"#), "the last line has no newline");
        let (none, f) = search("tf", "nothing\n", (&engine("npm"), None), 0, 0);
        assert!(none.is_empty() && f.bytes_searched == 8 && f.searches_with_match == 0);
    }
}
