//! The regex a native search matches lines with: just-bash's, compiled with regex-lite.
//!
//! just-bash builds one RE2 pattern from grep's patterns and flags (fixed strings
//! escaped, several patterns joined, `-w` as `\b(?:…)\b`, `-x` as `^(?:…)$`) and runs it
//! with re2js. [`Engine::new`] builds the same pattern (rg's join is [`rg_pattern`]) and
//! translates it into regex-lite syntax ([`super::lite`]), but only where the two engines agree on every line: both are leftmost-first,
//! linear-time and ASCII-only for `\w`, `\d` and `\b`, so a translation of the shared
//! subset matches the same spans. Outside it — Unicode classes, inline flags, named
//! groups, case folding of non-ASCII patterns, `\s` spelled as regex-lite reads it — the
//! result is [`Unsupported`] and the command runs in just-bash.
//!
//! Like just-bash, and like ripgrep, lines are first tested for the literals every match
//! must contain ([`Node::required`]), which is most of the speed: regex-lite has no
//! literal optimisations of its own, and a pattern that is one literal needs no regex.
//!
//! One difference cannot be seen in the pattern: RE2 folds the Kelvin sign onto `k` and
//! the long s onto `s` under `-i`. [`Engine::exact_on`] says whether a text holds them.

use super::lite::translate;
use super::rewrite::{to_re2, Dialect};
use super::syntax::{parse, Node};
use crate::commands::Unsupported;
use memchr::memmem;

/// A compiled line matcher, exact with respect to just-bash's.
#[derive(Debug, Clone)]
pub(crate) struct Engine {
    re: regex_lite::Regex,
    ignore_case: bool,
    /// Whether the pattern can match an empty span (`-o` and `-co` then depend on how
    /// re2js steps over it, which is not modelled).
    pub nullable: bool,
    /// One of these is in every matching line (ASCII-lowercased under `-i`); none: no
    /// such literals.
    needles: Vec<String>,
    finders: Vec<memmem::Finder<'static>>,
    /// The pattern is this one literal: no regex is needed.
    literal: bool,
}

/// A line, and the same line ASCII-lowercased when the search ignores case (byte
/// offsets are the same in both).
#[derive(Clone, Copy)]
pub(crate) struct Line<'a> {
    pub text: &'a str,
    pub folded: &'a str,
}

/// What grep's flags say about its patterns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flags {
    pub dialect: Dialect,
    pub ignore_case: bool,
    pub word: bool,
    pub line: bool,
}

impl Engine {
    pub(crate) fn new(patterns: &[String], f: Flags) -> Result<Engine, Unsupported> {
        #[cfg(test)]
        crate::search::tally::bump(|t| t.engines += 1);
        if patterns.is_empty() {
            return Err(Unsupported::new("no pattern"));
        }
        if f.ignore_case && !patterns.iter().all(|p| p.is_ascii()) {
            return Err(Unsupported::new("case folding beyond ASCII"));
        }
        let mut re2 = combined(patterns, f.dialect)?;
        if f.word {
            re2 = format!("\\b(?:{re2})\\b");
        }
        if f.line {
            re2 = format!("^(?:{re2})$");
        }
        let tree = parse(&re2)?;
        let mut lite = String::from(if f.ignore_case { "(?i)" } else { "" });
        translate(&re2.chars().collect::<Vec<_>>(), &mut lite)?;
        let re = regex_lite::Regex::new(&lite).map_err(|e| Unsupported::new(format!("regex-lite: {e}")))?;
        let fold = |s: &String| if f.ignore_case { s.to_ascii_lowercase() } else { s.clone() };
        let needles: Vec<String> = tree.needles().iter().map(fold).collect();
        let literal = needles.len() == 1 && tree.is_literal();
        let finders = finders(&needles);
        Ok(Engine { re, ignore_case: f.ignore_case, nullable: nullable(&tree), needles, finders, literal })
    }

    /// Whether lines must be lowercased for [`Line::folded`].
    pub(crate) fn folds(&self) -> bool {
        self.ignore_case && !self.needles.is_empty()
    }

    /// Whether this engine's answers over `text` are just-bash's.
    pub(crate) fn exact_on(&self, text: &str) -> bool {
        !(self.ignore_case && folds_beyond_ascii(text))
    }

    /// Whether a text (folded under `-i`) may hold a matching line at all.
    pub(crate) fn may_match(&self, text: &str) -> bool {
        self.needles.is_empty() || self.finders.iter().any(|f| f.find(text.as_bytes()).is_some())
    }

    #[cfg(test)]
    pub(crate) fn is_match(&self, line: Line) -> bool {
        if !self.needles.is_empty() {
            if !self.needles.iter().any(|n| line.folded.contains(n.as_str())) {
                return false;
            }
            if self.literal {
                return true;
            }
        }
        self.re.is_match(line.text)
    }

    /// Which lines may match, found with one search of the whole text per literal
    /// rather than one per line: `None` when every line may. `text` is the file (folded
    /// under `-i`), `starts` where each line begins in it.
    pub(crate) fn candidates(&self, text: &str, starts: &[usize]) -> Option<Vec<bool>> {
        if self.needles.is_empty() {
            return None;
        }
        let mut hit = vec![false; starts.len()];
        for f in &self.finders {
            let mut line = 0;
            for at in f.find_iter(text.as_bytes()) {
                while line + 1 < starts.len() && starts[line + 1] <= at {
                    line += 1;
                }
                hit[line] = true;
            }
        }
        Some(hit)
    }

    /// Whether any line of `content` matches, stopping at the first that does: only the
    /// lines holding a literal hit are found and tested, the page is never split. `folded`
    /// is `content` ASCII-lowercased under `-i`; `None` when there are no literals to
    /// look for (the caller then tests line by line).
    pub(crate) fn any_line(&self, content: &str, folded: &str) -> Option<bool> {
        if self.needles.is_empty() {
            return None;
        }
        Some(any_hit_line(folded.as_bytes(), &self.finders, |line| self.confirm(&content[line])))
    }

    /// Whether a candidate line (see [`Engine::candidates`]) matches.
    pub(crate) fn confirm(&self, line: &str) -> bool {
        self.literal || self.re.is_match(line)
    }

    /// The matches of a line, left to right, as `exec` in a loop finds them (non-empty
    /// patterns only: see [`Engine::nullable`]).
    pub(crate) fn matches<'a>(&'a self, line: Line<'a>) -> Box<dyn Iterator<Item = &'a str> + 'a> {
        if self.literal {
            let n = self.needles[0].len();
            let found = line.folded.match_indices(self.needles[0].as_str());
            return Box::new(found.map(move |(at, _)| &line.text[at..at + n]));
        }
        Box::new(self.re.find_iter(line.text).map(|m| m.as_str()))
    }
}

/// Whether a text holds a character RE2 folds onto an ASCII letter (the Kelvin sign,
/// the long s). Searched as UTF-8 strings: a search for either of two `char`s would
/// decode every character.
pub(crate) fn folds_beyond_ascii(text: &str) -> bool {
    text.contains('\u{212A}') || text.contains('\u{17F}')
}

/// Finders for `needles`. Lines never hold a newline: a literal with one cannot be found
/// in a line, and gets no finder.
pub(crate) fn finders(needles: &[String]) -> Vec<memmem::Finder<'static>> {
    needles.iter().filter(|n| !n.contains('\n')).map(|n| memmem::Finder::new(n.as_bytes()).into_owned()).collect()
}

/// Whether a line of `folded` holding a hit of one of `finders` passes `test`, given the
/// line's byte range; each such line is tested once, and the search stops at the first
/// that passes.
pub(crate) fn any_hit_line(
    folded: &[u8],
    finders: &[memmem::Finder<'_>],
    mut test: impl FnMut(std::ops::Range<usize>) -> bool,
) -> bool {
    for f in finders {
        let mut done = 0;
        for at in f.find_iter(folded) {
            if at < done {
                continue; // this hit's line was tested already
            }
            let start = memchr::memrchr(b'\n', &folded[..at]).map_or(0, |i| i + 1);
            let end = memchr::memchr(b'\n', &folded[at..]).map_or(folded.len(), |i| at + i);
            if test(start..end) {
                return true;
            }
            done = end;
        }
    }
    false
}

/// just-bash's joining of several patterns into one RE2 pattern.
fn combined(patterns: &[String], dialect: Dialect) -> Result<String, Unsupported> {
    let one = |p: &str, d: Dialect| -> Result<String, Unsupported> {
        Ok(match to_re2(p, d)? {
            Some(re2) => re2,
            None => escape_fixed(p),
        })
    };
    if let [p] = patterns {
        return one(p, dialect);
    }
    // Each pattern must compile on its own (grep reports the one that does not).
    for p in patterns {
        parse(&one(p, dialect)?)?;
    }
    Ok(match dialect {
        Dialect::Fixed => patterns.iter().map(|p| format!("(?:{})", escape_fixed(p))).collect::<Vec<_>>().join("|"),
        Dialect::Basic => one(&patterns.join("\\|"), Dialect::Basic)?,
        _ => patterns
            .iter()
            .map(|p| one(p, dialect).map(|r| format!("(?:{r})")))
            .collect::<Result<Vec<_>, _>>()?
            .join("|"),
    })
}

/// just-bash's rg joining of several patterns into one (grep's is [`combined`]): the
/// pattern it compiles, and how it reads it.
pub(crate) fn rg_pattern(patterns: &[String], fixed: bool) -> Result<(String, Dialect), Unsupported> {
    if let [p] = patterns {
        return Ok((p.clone(), if fixed { Dialect::Fixed } else { Dialect::Perl }));
    }
    if fixed && patterns.iter().any(|p| p.contains("[:")) {
        return Err(Unsupported::new("fixed strings that read as POSIX classes in Perl mode"));
    }
    let joined: Vec<String> =
        patterns.iter().map(|p| if fixed { escape_fixed(p) } else { format!("(?:{p})") }).collect();
    Ok((joined.join("|"), Dialect::Perl))
}

/// just-bash's escaping of a fixed string (`[.*+?^${}()|[\]\\]`).
fn escape_fixed(p: &str) -> String {
    let mut out = String::with_capacity(p.len() + 4);
    for c in p.chars() {
        if ".*+?^${}()|[]\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn nullable(n: &Node) -> bool {
    match n {
        Node::Lit(_) | Node::Class(_) | Node::Any => false,
        Node::Start | Node::End | Node::Empty => true,
        Node::Cat(v) => v.iter().all(nullable),
        Node::Alt(v) => v.iter().any(nullable),
        Node::Group(g) => nullable(g),
        Node::Rep(inner, min, _) => *min == 0 || nullable(inner),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(p: &[&str], dialect: Dialect, ignore_case: bool, word: bool, line: bool) -> Result<Engine, Unsupported> {
        let p: Vec<String> = p.iter().map(|s| s.to_string()).collect();
        Engine::new(&p, Flags { dialect, ignore_case, word, line })
    }

    fn m(e: &Engine, text: &str) -> bool {
        let folded = text.to_ascii_lowercase();
        e.is_match(Line { text, folded: if e.folds() { &folded } else { text } })
    }

    fn lite(p: &str, d: Dialect) -> String {
        engine(&[p], d, false, false, false).unwrap().re.as_str().to_string()
    }

    #[test]
    fn translations_keep_re2_meanings() {
        assert_eq!(lite("a\\sb", Dialect::Extended), "a[\\t\\n\\x0C\\r ]b", "\\s without \\v");
        assert_eq!(lite("\\<x", Dialect::Extended), "<x", "RE2 reads \\< as a literal");
        assert_eq!(lite("a{,3}", Dialect::Extended), "a\\{,3\\}", "not an interval in RE2");
        assert_eq!(
            lite("[a[b&&c~-]", Dialect::Extended),
            "[a\\[b\\&\\&c\\~\\-]",
            "no nested classes or set operations"
        );
        assert_eq!(lite("[]a]", Dialect::Extended), "[\\]a]");
        assert_eq!(lite("a.b", Dialect::Fixed), "a\\.b");
        assert_eq!(lite("a+(b)", Dialect::Basic), "a\\+\\(b\\)");
        assert_eq!(lite("[[:digit:]]x", Dialect::Basic), "[0-9]x");
    }

    #[test]
    fn several_patterns_join_like_just_bash() {
        let e = engine(&["a.b", "c"], Dialect::Fixed, false, false, false).unwrap();
        assert!(m(&e, "xa.by") && !m(&e, "axb") && m(&e, "c"));
        let e = engine(&["a\\|b", "c"], Dialect::Basic, false, true, false).unwrap();
        assert!(m(&e, "x b y") && !m(&e, "cc"));
    }

    #[test]
    fn rg_joins_several_patterns_its_own_way() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(rg_pattern(&s(&["a+"]), false).unwrap(), ("a+".to_string(), Dialect::Perl));
        assert_eq!(rg_pattern(&s(&["a+", "b"]), false).unwrap(), ("(?:a+)|(?:b)".to_string(), Dialect::Perl));
        assert_eq!(rg_pattern(&s(&["a+", "b"]), true).unwrap(), ("a\\+|b".to_string(), Dialect::Perl));
        assert_eq!(rg_pattern(&s(&["a+"]), true).unwrap().1, Dialect::Fixed);
    }

    #[test]
    fn word_and_line_wrapping() {
        let e = engine(&["foo"], Dialect::Basic, false, true, false).unwrap();
        assert!(m(&e, "a foo b") && !m(&e, "food"));
        let e = engine(&["foo|bar"], Dialect::Extended, true, false, true).unwrap();
        assert!(m(&e, "BAR") && !m(&e, "bar "));
    }

    #[test]
    fn outside_the_shared_subset_is_refused() {
        for p in ["\\pL", "(?i)a", "(?<n>a)", "a{1001}", "[[:foo:]]", "\\x41", "\\1"] {
            assert!(engine(&[p], Dialect::Extended, false, false, false).is_err(), "{p}");
        }
        assert!(engine(&["été"], Dialect::Fixed, true, false, false).is_err());
        assert!(engine(&["a**"], Dialect::Extended, false, false, false).is_err(), "RE2 rejects it");
    }

    #[test]
    fn nullable_patterns_are_known() {
        assert!(engine(&["a*"], Dialect::Extended, false, false, false).unwrap().nullable);
        assert!(engine(&["x|"], Dialect::Extended, false, false, false).unwrap().nullable);
        assert!(!engine(&["a+"], Dialect::Extended, false, false, false).unwrap().nullable);
    }

    #[test]
    fn case_folding_beyond_ascii_is_flagged() {
        let e = engine(&["k"], Dialect::Fixed, true, false, false).unwrap();
        assert!(!e.exact_on("\u{212A}elvin") && e.exact_on("Kelvin"));
    }
}
