//! The literals every matching line holds, found in a page as it is.
//!
//! Most lines of a page cannot match: a search first finds the literals its matches need
//! (as ripgrep does) and tests only the lines holding one. Under `-i` the literals are found
//! in any case of their ASCII letters ([`Caseless`]) rather than in a lowercased copy of the
//! page, so a case-insensitive search copies no page; without `-i`, memchr's `memmem`.

use super::caseless::Caseless;
use memchr::memmem;
use std::ops::Range;

/// Finders for a search's literals, exact or caseless.
#[derive(Clone, Debug)]
pub(crate) enum Finders {
    Exact(Vec<memmem::Finder<'static>>),
    Caseless(Vec<Caseless>),
}

impl Finders {
    /// Finders for `literals`. Lines never hold a newline: a literal with one cannot be
    /// found in a line, and gets no finder. Every position holds an empty literal.
    pub(crate) fn new(literals: &[String], ignore_case: bool) -> Finders {
        if literals.iter().any(String::is_empty) {
            return Finders::Exact(vec![memmem::Finder::new(b"").into_owned()]);
        }
        let wanted = literals.iter().filter(|l| !l.contains('\n'));
        match ignore_case {
            true => Finders::Caseless(wanted.map(|l| Caseless::new(l)).collect()),
            false => Finders::Exact(wanted.map(|l| memmem::Finder::new(l.as_bytes()).into_owned()).collect()),
        }
    }

    /// Whether `text` holds one of the literals.
    pub(crate) fn any_in(&self, text: &[u8]) -> bool {
        match self {
            Finders::Exact(v) => v.iter().any(|f| f.find(text).is_some()),
            Finders::Caseless(v) => v.iter().any(|c| c.is_in(text)),
        }
    }

    /// Each literal's starts in `text`, one literal after the other, each in order.
    pub(crate) fn each_starts<'a>(&'a self, text: &'a [u8]) -> Vec<Box<dyn Iterator<Item = usize> + 'a>> {
        match self {
            Finders::Exact(v) => {
                v.iter().map(|f| Box::new(f.find_iter(text)) as Box<dyn Iterator<Item = usize>>).collect()
            }
            Finders::Caseless(v) => {
                v.iter().map(|c| Box::new(c.starts(text)) as Box<dyn Iterator<Item = usize>>).collect()
            }
        }
    }

    /// The spans of the first literal in `text`, left to right and not overlapping, as
    /// `str::match_indices` finds them.
    pub(crate) fn first_spans<'a>(&'a self, text: &'a [u8]) -> impl Iterator<Item = Range<usize>> + 'a {
        let len = match self {
            Finders::Exact(v) => v.first().map_or(0, |f| f.needle().len()),
            Finders::Caseless(v) => v.first().map_or(0, Caseless::len),
        };
        let starts = self.each_starts(text).into_iter().next().into_iter().flatten();
        starts
            .scan(0, move |next, at| {
                let kept = at >= *next;
                if kept {
                    *next = at + len;
                }
                Some(kept.then_some(at..at + len))
            })
            .flatten()
    }
}

/// Whether a line of `text` holding a hit of one of `finders` passes `test`, given the
/// line's byte range; each such line is tested once, and the search stops at the first
/// that passes.
pub(crate) fn any_hit_line(text: &[u8], finders: &Finders, mut test: impl FnMut(Range<usize>) -> bool) -> bool {
    for starts in finders.each_starts(text) {
        let mut done = 0;
        for at in starts {
            if at < done {
                continue; // this hit's line was tested already
            }
            let start = memchr::memrchr(b'\n', &text[..at]).map_or(0, |i| i + 1);
            let end = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i);
            if test(start..end) {
                return true;
            }
            done = end;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finders(literals: &[&str], ignore_case: bool) -> Finders {
        Finders::new(&literals.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ignore_case)
    }

    #[test]
    fn literals_are_found_exactly_or_in_any_case() {
        let text = b"Sign in with OAuth.\nThen oauth again.";
        assert!(finders(&["OAuth"], false).any_in(text) && !finders(&["OAUTH"], false).any_in(text));
        assert!(finders(&["OAUTH"], true).any_in(text));
        assert!(!finders(&["a\nb"], false).any_in(b"a\nb"), "no finder for a literal with a newline");
        assert!(
            finders(&["x", ""], true).any_in(b"") && finders(&[""], false).any_in(b"y"),
            "an empty literal is everywhere"
        );
        let spans = |f: &Finders, t: &str| f.first_spans(t.as_bytes()).collect::<Vec<_>>();
        assert_eq!(spans(&finders(&["aa"], true), "AAAAa"), [0..2, 2..4], "as match_indices: no overlap");
        assert_eq!(spans(&finders(&["aa"], false), "aaaaa"), [0..2, 2..4]);
    }

    #[test]
    fn each_line_with_a_hit_is_tested_once() {
        let text = "x oauth oauth\nnone\nOAUTH y\n";
        let mut tested = Vec::new();
        let any = any_hit_line(text.as_bytes(), &finders(&["oauth"], true), |line| {
            tested.push(&text[line]);
            false
        });
        assert!(!any);
        assert_eq!(tested, ["x oauth oauth", "OAUTH y"]);
        assert!(any_hit_line(text.as_bytes(), &finders(&["none", "zzz"], false), |line| &text[line] == "none"));
    }
}
