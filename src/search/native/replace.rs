//! rg's `-r`/`--replace`: every match of a printed line is replaced by the replacement,
//! in which `$N`, `${N}`, `$name` and `${name}` stand for a group of the match (the
//! longest run of letters, digits and `_` after `$` names it; a group that took no part,
//! or does not exist, is empty), `$$` for `$`, and any other `$` for itself — the
//! interpolation of Rust's regex crate, which ripgrep uses. Context lines are printed as
//! they are; under `-o` each match is printed replaced. Where ripgrep prints where a
//! match is (`-b`, `--column`, `--vimgrep`), it counts in the replaced line.

use crate::search::pattern::engine::Engine;
use std::ops::Range;

/// A replacement, read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Replacement(Vec<Piece>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Group(String),
}

impl Replacement {
    pub(crate) fn new(r: &str) -> Replacement {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = r;
        while let Some(at) = rest.find('$') {
            text.push_str(&rest[..at]);
            rest = &rest[at + 1..];
            if let Some(after) = rest.strip_prefix('$') {
                text.push('$');
                rest = after;
                continue;
            }
            let (name, after) = match rest.strip_prefix('{').and_then(|b| b.split_once('}')) {
                Some((name, after)) => (name, after),
                None => {
                    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                    (&rest[..end], &rest[end..])
                }
            };
            if name.is_empty() {
                text.push('$');
                continue;
            }
            pieces.push(Piece::Text(std::mem::take(&mut text)));
            pieces.push(Piece::Group(name.to_string()));
            rest = after;
        }
        text.push_str(rest);
        pieces.push(Piece::Text(text));
        Replacement(pieces)
    }

    /// The replacement of one match of `line` (`groups` as [`Engine::captures`] gives them).
    fn expand(&self, line: &str, groups: &[Option<Range<usize>>], names: &[Option<&str>], out: &mut String) {
        for p in &self.0 {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Group(name) => {
                    let index =
                        name.parse::<usize>().ok().or_else(|| names.iter().position(|n| *n == Some(name.as_str())));
                    if let Some(Some(r)) = index.and_then(|i| groups.get(i)) {
                        out.push_str(&line[r.clone()]);
                    }
                }
            }
        }
    }
}

/// A line with its matches replaced: the replaced line, and each non-empty match as where
/// its replacement starts in the replaced line and the replacement.
pub(crate) struct Replaced {
    pub line: String,
    pub matches: Vec<(usize, String)>,
}

pub(crate) fn replace(engine: &Engine, line: &str, r: &Replacement) -> Replaced {
    let mut out = Replaced { line: String::with_capacity(line.len()), matches: Vec::new() };
    let mut last = 0;
    for (whole, text) in replacements(engine, line, r) {
        out.line.push_str(&line[last..whole.start]);
        if !whole.is_empty() {
            out.matches.push((out.line.len(), text.clone()));
        }
        out.line.push_str(&text);
        last = whole.end;
    }
    out.line.push_str(&line[last..]);
    out
}

/// Each match of `line`, left to right, as its span in the line and its replacement.
pub(crate) fn replacements(engine: &Engine, line: &str, r: &Replacement) -> Vec<(Range<usize>, String)> {
    let names = engine.group_names();
    let mut out = Vec::new();
    for groups in engine.captures(line) {
        let Some(whole) = groups.first().cloned().flatten() else { continue };
        let mut text = String::new();
        r.expand(line, &groups, &names, &mut text);
        out.push((whole, text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::engine::{rg_pattern, Flags, Tool};

    fn rg(pattern: &str) -> Engine {
        let (re, dialect) = rg_pattern(&[pattern.to_string()], false).unwrap();
        Engine::new(&[re], Flags { dialect, ignore_case: false, word: false, line: false, tool: Tool::Rg }).unwrap()
    }

    fn line(pattern: &str, text: &str, r: &str) -> String {
        replace(&rg(pattern), text, &Replacement::new(r)).line
    }

    #[test]
    fn groups_are_interpolated_as_ripgrep_does() {
        assert_eq!(
            line("mi(n)t", "mint dev and mint", "X$1Y"),
            "X dev and X",
            "`$1Y` names a group that does not exist"
        );
        assert_eq!(line("mi(n)t", "mint dev", "${1}_$$"), "n_$ dev");
        assert_eq!(line("mi(n)t", "no match", "Z"), "no match");
        assert_eq!(line("(m)int", "minty", "$name.${1}"), ".my", "a name no group has is empty");
        assert_eq!(line("(?P<name>m)i(?<n2>n)t", "minty", "$name.$n2"), "m.ny", "named groups");
        assert_eq!(
            line("m(x)?int", "mint", "[$1]$"),
            "[]$",
            "a group that took no part is empty; a lone `$` is itself"
        );
        let r = replace(&rg("mint"), "a mint, mint", &Replacement::new("[$0]"));
        assert_eq!(
            r.matches,
            [(2, "[mint]".to_string()), (10, "[mint]".to_string())],
            "where each starts once replaced"
        );
    }
}
