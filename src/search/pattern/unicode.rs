//! Lines beyond ASCII, matched as the real tools match them by an engine whose classes
//! are ASCII's.
//!
//! regex-lite's `\w`, `\s`, `\d` and `\b` know ASCII only; GNU grep (in a UTF-8 locale)
//! and ripgrep know every script. When a pattern spelled in ASCII uses them, what it
//! can tell apart in a character beyond ASCII is only the classes it belongs to: a word
//! character (a digit among them, for ripgrep's `\d`), white space, or neither. So such
//! a line is matched as a [`Proxy`] line: every character beyond ASCII replaced by an
//! ASCII one of the same classes that the pattern never names — every other part of the
//! pattern (`.`, a negated class) treats the two alike — and every match is mapped back
//! onto the line. The tables of which character is what are the tools' own
//! ([`super::unicode_tables`]).

use super::unicode_tables::{GNU_SPACE, GNU_WORD, RG_DIGIT, RG_SPACE, RG_WORD};

/// Whose classes a line is matched with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Classes {
    /// ASCII only (grep -P, which GNU grep 3.8 runs without Unicode classes).
    Ascii,
    /// GNU grep's, from glibc.
    Gnu,
    /// ripgrep's, from Unicode.
    Rg,
}

/// What a character beyond ASCII is to a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Word,
    /// A word character that is also a digit (`\d`, ripgrep only).
    Digit,
    Space,
    Other,
}

fn within(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn kind(c: char, classes: Classes) -> Kind {
    match classes {
        Classes::Ascii => Kind::Other,
        Classes::Gnu if within(GNU_WORD, c) => Kind::Word,
        Classes::Gnu if within(GNU_SPACE, c) => Kind::Space,
        Classes::Rg if within(RG_DIGIT, c) => Kind::Digit,
        Classes::Rg if within(RG_WORD, c) => Kind::Word,
        Classes::Rg if within(RG_SPACE, c) => Kind::Space,
        _ => Kind::Other,
    }
}

/// The ASCII characters a pattern names (as a literal or a class member; both cases of
/// a letter under `-i`): none of them may stand in for a character beyond ASCII.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Named(pub u128);

impl Named {
    pub(crate) fn add(&mut self, c: char, ignore_case: bool) {
        if c.is_ascii() {
            self.0 |= 1 << (c as u32);
            if ignore_case && c.is_ascii_alphabetic() {
                self.0 |= 1 << (c.to_ascii_lowercase() as u32);
                self.0 |= 1 << (c.to_ascii_uppercase() as u32);
            }
        }
    }

    pub(crate) fn add_range(&mut self, lo: char, hi: char, ignore_case: bool) {
        for c in (lo as u32)..=(hi as u32).min(127) {
            self.add(char::from_u32(c).expect("ASCII"), ignore_case);
        }
    }

    fn has(&self, c: char) -> bool {
        self.0 & (1 << (c as u32)) != 0
    }

    fn first_free(&self, candidates: &str) -> Option<char> {
        candidates.chars().find(|&c| !self.has(c))
    }
}

/// ASCII characters that stand in for the characters beyond ASCII of a line.
#[derive(Debug, Clone)]
pub(crate) struct Proxy {
    classes: Classes,
    word: Option<char>,
    digit: Option<char>,
    space: Option<char>,
    other: Option<char>,
}

/// A line as the proxy spells it, and where each of its characters starts in the line.
pub(crate) struct Mapped {
    pub text: String,
    /// `starts[i]`: the byte where the line's `i`-th character starts; one more entry for
    /// the end.
    starts: Vec<usize>,
}

impl Mapped {
    /// The line's byte range of a range of the mapped text (one byte a character).
    pub(crate) fn span(&self, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
        self.starts[r.start]..self.starts[r.end]
    }
}

impl Proxy {
    /// Stand-ins none of which the pattern names. `\d` tells digits from other word
    /// characters for ripgrep only.
    pub(crate) fn new(classes: Classes, named: Named) -> Proxy {
        let word = named.first_free("_ZQXJzqxjKVkvYWywGFgfUuBbPpHhMmCcDdLlNnRrSsTtEeOoIiAa");
        let digit = if classes == Classes::Rg { named.first_free("9876543210") } else { word };
        let space = named.first_free("\u{b}\u{c}\r\t ");
        let other = named.first_free(
            "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{e}\u{f}\u{10}\u{11}\u{12}\u{13}\u{14}\u{15}\u{16}\u{17}\u{18}\u{19}\u{1a}\u{1b}\u{1c}\u{1d}\u{1e}\u{1f}\u{7f}",
        );
        Proxy { classes, word, digit, space, other }
    }

    fn stand_in(&self, c: char) -> Option<char> {
        match kind(c, self.classes) {
            Kind::Word => self.word,
            Kind::Digit => self.digit,
            Kind::Space => self.space,
            Kind::Other => self.other,
        }
    }

    /// Whether every character of `text` has a stand-in.
    pub(crate) fn covers(&self, text: &str) -> bool {
        text.chars().all(|c| c.is_ascii() || self.stand_in(c).is_some())
    }

    /// `line` with every character beyond ASCII replaced by its stand-in; `None` when one
    /// has none (the pattern names every candidate).
    pub(crate) fn map(&self, line: &str) -> Option<Mapped> {
        let mut text = String::with_capacity(line.len());
        let mut starts = Vec::with_capacity(line.len() + 1);
        for (at, c) in line.char_indices() {
            starts.push(at);
            if c.is_ascii() {
                text.push(c);
                continue;
            }
            text.push(self.stand_in(c)?);
        }
        starts.push(line.len());
        Some(Mapped { text, starts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_the_tools() {
        assert_eq!(kind('é', Classes::Gnu), Kind::Word);
        assert_eq!(kind('日', Classes::Gnu), Kind::Word);
        assert_eq!(kind('\u{301}', Classes::Gnu), Kind::Other, "glibc: a combining mark is no word character");
        assert_eq!(kind('\u{301}', Classes::Rg), Kind::Word, "Unicode: it is");
        assert_eq!(kind('٣', Classes::Rg), Kind::Digit);
        assert_eq!(kind('٣', Classes::Gnu), Kind::Word);
        assert_eq!(kind('\u{3000}', Classes::Gnu), Kind::Space);
        assert_eq!(kind('\u{a0}', Classes::Gnu), Kind::Other, "glibc: a no-break space is no space");
        assert_eq!(kind('\u{a0}', Classes::Rg), Kind::Space);
        assert_eq!(kind('—', Classes::Rg), Kind::Other);
        assert_eq!(kind('é', Classes::Ascii), Kind::Other);
    }

    #[test]
    fn stand_ins_are_characters_the_pattern_never_names() {
        let mut named = Named::default();
        named.add('_', false);
        named.add('z', true);
        let p = Proxy::new(Classes::Gnu, named);
        let m = p.map("aé日 —b").unwrap();
        assert_eq!(m.text, "aQQ \u{1}b");
        assert_eq!(m.span(1..3), 1..6, "é and 日, mapped back");
        let mut all = Named::default();
        all.add_range('\0', '\u{7f}', false);
        assert!(Proxy::new(Classes::Rg, all).map("é").is_none());
        assert_eq!(Proxy::new(Classes::Rg, all).map("plain").unwrap().text, "plain");
    }
}
