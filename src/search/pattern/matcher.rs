//! The matcher of a search: a coarse filter for Chroma and a fine check for pages.
//!
//! Like ripgrep's matcher, it promises *never a false negative*: the coarse filter keeps
//! every chunk that could hold a matching line, and [`FineCheck::may_match`] returns
//! `true` for every page that could hold one. Both may say yes too often; just-bash's own
//! command, run over the pages that pass, has the last word and prints the output. A
//! pattern the matcher cannot reason about is [`Unsupported`], with the reason.

use super::filter::{Chunking, Filters};
use super::finders::{any_hit_line, Finders};
use super::literals::Required;
use super::rewrite::{to_re2, Dialect};
use super::syntax::{parse, Node};
use crate::commands::Unsupported;
use serde_json::Value;

/// What a search looks for, as its command line says.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Query<'a> {
    pub patterns: &'a [String],
    pub dialect: Dialect,
    pub ignore_case: bool,
    /// `-x`: a pattern must match a whole line.
    pub line_regexp: bool,
}

/// Whether a page could hold a matching line, decided on its whole text.
#[derive(Clone, Debug)]
pub(crate) struct FineCheck {
    regexes: Vec<regex_lite::Regex>,
    ignore_case: bool,
    /// When every pattern has literals one of which each of its matches contains: those
    /// literals (ASCII-lowercased under `-i`), so that only the lines holding one are
    /// tested — regex-lite has no literal search of its own, and over a whole page it is
    /// most of a search's time.
    needles: Option<Needles>,
}

#[derive(Clone, Debug)]
struct Needles {
    /// The literals, found in a page as it is (in any case under `-i`).
    finders: Finders,
    /// Every pattern is one literal: a line holding one matches.
    literal: bool,
}

impl PartialEq for FineCheck {
    fn eq(&self, other: &Self) -> bool {
        self.ignore_case == other.ignore_case
            && self.regexes.iter().map(|r| r.as_str()).eq(other.regexes.iter().map(|r| r.as_str()))
    }
}

impl FineCheck {
    /// `true` for every page where grep could print a line (and maybe more).
    pub(crate) fn may_match(&self, text: &str) -> bool {
        // regex-lite folds ASCII case only; RE2 also folds the Kelvin sign onto `k` and
        // the long s onto `s`, so a page holding either is kept.
        if self.ignore_case && super::engine::folds_beyond_ascii(text) {
            return true;
        }
        let Some(needles) = &self.needles else {
            return self.regexes.iter().any(|r| r.is_match(text));
        };
        any_hit_line(text.as_bytes(), &needles.finders, |line| {
            needles.literal || self.regexes.iter().any(|r| r.is_match(&text[line.clone()]))
        })
    }
}

/// The needles of a search's patterns (see [`FineCheck::needles`]).
fn needles(nodes: &[Node], ignore_case: bool) -> Option<Needles> {
    let mut all = Vec::new();
    for node in nodes {
        let found = node.needles();
        if found.is_empty() {
            return None;
        }
        all.extend(found);
    }
    Some(Needles { finders: Finders::new(&all, ignore_case), literal: nodes.iter().all(Node::is_literal) })
}

/// The coarse filter and the fine check of one search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Matcher {
    /// `where_document` for the coarse query.
    pub filter: Value,
    /// `None` when no check is exact enough (case folding beyond ASCII): every
    /// candidate is then searched.
    pub fine: Option<FineCheck>,
    /// The literals a matching line holds, in the case typed (one of the patterns'), small
    /// classes and alternations spelled out (see [`Node::spelled_out`]).
    pub required: Required,
}

/// The parse of one pattern: fixed strings are literals, everything else RE2.
fn pattern_node(p: &str, q: &Query) -> Result<Node, Unsupported> {
    let literal = || Node::Cat(p.chars().map(Node::Lit).collect());
    Ok(match to_re2(p, q.dialect)? {
        None if q.line_regexp => Node::Cat(vec![Node::Start, literal(), Node::End]),
        None => literal(),
        Some(re2) if q.line_regexp => Node::Cat(vec![Node::Start, Node::Group(Box::new(parse(&re2)?)), Node::End]),
        Some(re2) => parse(&re2)?,
    })
}

impl Matcher {
    pub(crate) fn new(q: &Query, chunking: Chunking) -> Result<Matcher, Unsupported> {
        #[cfg(test)]
        crate::search::tally::bump(|t| t.matchers += 1);
        if q.patterns.is_empty() {
            return Err(Unsupported::new("no pattern"));
        }
        let filters = Filters { ignore_case: q.ignore_case, chunking };
        let flags = if q.ignore_case { "(?mi)" } else { "(?m)" };
        let mut regexes = Vec::new();
        let mut leaves = Vec::new();
        let mut nodes = Vec::new();
        for p in q.patterns {
            if p.is_empty() {
                return Err(Unsupported::new("an empty pattern matches every line"));
            }
            let node = pattern_node(p, q)?;
            let mut re = String::from(flags);
            node.to_rust_regex(&mut re);
            leaves.push(filters.pattern(&node, &re, q.line_regexp)?);
            regexes.push(re);
            nodes.push(node);
        }
        let filter = filters.any(leaves, &regexes, flags)?;
        // Beyond ASCII, RE2's case folding is wider than regex-lite's.
        let exact = !q.ignore_case || q.patterns.iter().all(|p| p.is_ascii());
        let compiled: Option<Vec<regex_lite::Regex>> = regexes.iter().map(|r| regex_lite::Regex::new(r).ok()).collect();
        let fine = compiled.filter(|_| exact).map(|regexes| FineCheck {
            regexes,
            ignore_case: q.ignore_case,
            needles: needles(&nodes, q.ignore_case),
        });
        let required = Required::one_of(nodes.iter().map(Node::spelled_out).collect());
        Ok(Matcher { filter, fine, required })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::filter::count_leaves;
    use serde_json::json;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn m(
        patterns: &[&str],
        dialect: Dialect,
        ignore_case: bool,
        line_regexp: bool,
        chunking: Chunking,
    ) -> Result<Matcher, Unsupported> {
        let patterns = s(patterns);
        Matcher::new(&Query { patterns: &patterns, dialect, ignore_case, line_regexp }, chunking)
    }

    use Chunking::{Arbitrary, LineAligned};

    #[test]
    fn filters() {
        let f = |p: &[&str], d, i, x| m(p, d, i, x, LineAligned).unwrap().filter;
        assert_eq!(f(&["access_token"], Dialect::Basic, false, false), json!({"$contains": "access_token"}));
        assert_eq!(
            f(&["a\\.b"], Dialect::Basic, false, false),
            json!({"$contains": "a.b"}),
            "an escaped dot is a literal dot"
        );
        assert_eq!(f(&["a.b"], Dialect::Basic, false, false), json!({"$regex": "(?m)a.b"}));
        assert_eq!(f(&["Token"], Dialect::Fixed, true, false), json!({"$regex": "(?mi)Token"}));
        assert_eq!(f(&["a.c"], Dialect::Fixed, false, true), json!({"$regex": "(?m)(?:^|\\x00)a\\.c(?:$|\\x00)"}));
        assert_eq!(
            f(&["a", "b"], Dialect::Fixed, false, false),
            json!({"$or": [{"$contains": "a"}, {"$contains": "b"}]})
        );
    }

    #[test]
    fn unsupported_patterns_say_why() {
        let why = |p: &[&str], chunking| m(p, Dialect::Extended, false, false, chunking).unwrap_err().0;
        assert_eq!(why(&["x", ""], LineAligned), "an empty pattern matches every line");
        assert_eq!(why(&["a*"], Arbitrary), "the pattern requires no literal text, and chunks are not line-aligned");
        assert_eq!(
            why(&["(?=x)"], LineAligned),
            "a repetition at the start of an expression in a GNU pattern is left to just-bash"
        );
        assert_eq!(m(&["(?=x)"], Dialect::Perl, false, false, LineAligned).unwrap_err().0, "a Perl (?…) group");
        assert_eq!(why(&["(a"], LineAligned), "a pattern GNU grep rejects (Unmatched ( or \\()");
        assert_eq!(
            m(&["\\Qx"], Dialect::Perl, false, false, LineAligned).unwrap_err().0,
            "the Perl escapes \\Q, \\x or \\K"
        );
    }

    #[test]
    fn unaligned_filters_catch_cut_literals() {
        let f = m(&["foo.*token"], Dialect::Basic, false, false, Arbitrary).unwrap().filter;
        assert_eq!(f, json!({"$or": [{"$contains": "token"}, {"$regex": "t(?:o(?:k(?:e)?)?)?\\z"}]}));
    }

    #[test]
    fn long_patterns_fall_back_to_literals() {
        let long = format!("{}.*end", "x".repeat(300));
        let f = m(&[long.as_str()], Dialect::Basic, false, false, LineAligned).unwrap().filter;
        assert_eq!(f, json!({"$and": [{"$contains": "x".repeat(256)}, {"$contains": "end"}]}));
        let many: Vec<String> = (0..12).map(|i| format!("w{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let f = m(&many, Dialect::Fixed, false, false, LineAligned).unwrap().filter;
        assert_eq!(count_leaves(&f), 1, "{f}");
        assert_eq!(
            m(&many, Dialect::Fixed, false, false, Arbitrary).unwrap_err().0,
            "too many patterns for one filter"
        );
    }

    #[test]
    fn the_fine_check_never_misses_a_match() {
        let fine = m(&["api[_-]key"], Dialect::Extended, true, false, LineAligned).unwrap().fine.unwrap();
        assert!(fine.may_match("set the\nAPI_KEY here\n"));
        assert!(!fine.may_match("set the api key\n"));
        let fine = m(&["^## Overview$"], Dialect::Basic, false, false, LineAligned).unwrap().fine.unwrap();
        assert!(fine.may_match("intro\n## Overview\nmore"), "anchors hold per line");
        assert!(!fine.may_match("## Overview and more"));
        let fine = m(&["skill"], Dialect::Fixed, true, false, LineAligned).unwrap().fine.unwrap();
        assert!(fine.may_match("S\u{212A}ILL"), "RE2 folds the Kelvin sign onto k: the page is kept");
    }

    #[test]
    fn the_fine_check_tests_the_lines_holding_a_literal_as_a_line_by_line_check_would() {
        use Dialect::*;
        let texts = [
            "",
            "OAuth here\nnothing",
            "a\nb oauth2 c\n",
            "api-key\n",
            "the api_key\nAPI-KEY",
            "key api\n",
            "x\n\nfoo bar\n",
            "api\nkey",
            "## Overview\n",
        ];
        let cases: &[(&[&str], Dialect, bool, bool)] = &[
            (&["oauth"], Fixed, true, false),
            (&["oauth"], Fixed, false, false),
            (&["api[_-]key"], Extended, true, false),
            (&["api[_-]key"], Extended, false, false),
            (&["foo|bar"], Extended, false, false),
            (&["api", "key"], Fixed, false, false),
            (&["^api"], Basic, false, false),
            (&["api-key"], Fixed, true, true),
            (&["api.key"], Basic, false, false),
            (&["a.*"], Extended, false, false),
            (&["oauth", "x*"], Extended, false, false),
            (&["api\\nkey"], Perl, false, false),
        ];
        for (patterns, dialect, ignore_case, line) in cases {
            let fine = m(patterns, *dialect, *ignore_case, *line, LineAligned).unwrap().fine.unwrap();
            for text in texts {
                let by_line = text.split('\n').any(|l| fine.regexes.iter().any(|r| r.is_match(l)));
                assert_eq!(fine.may_match(text), by_line, "{patterns:?} -i={ignore_case} -x={line} over {text:?}");
            }
        }
        let needles = |p: &[&str], d| m(p, d, false, false, LineAligned).unwrap().fine.unwrap().needles;
        assert!(needles(&["oauth"], Fixed).is_some_and(|n| n.literal), "a literal needs no regex");
        assert!(needles(&["api[_-]key"], Extended).is_some_and(|n| !n.literal));
        assert!(needles(&["oauth", "x*"], Extended).is_none(), "a pattern with no literal: the whole page is tested");
    }

    #[test]
    fn no_fine_check_where_case_folding_goes_beyond_ascii() {
        assert!(m(&["été"], Dialect::Fixed, true, false, LineAligned).unwrap().fine.is_none());
        assert!(m(&["été"], Dialect::Fixed, false, false, LineAligned).unwrap().fine.is_some());
    }
}
