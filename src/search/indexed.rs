//! The grep index as a search's coarse query (the index itself: [`crate::pages::grams`]).
//!
//! Single-node Chroma answers a case-insensitive or regex filter by reading every record,
//! so a narrowing that asks it costs a scan of the database. When the session's tree names
//! an index and every page of the scope has a number in it, the pages that may match come
//! from the index instead: the literals every match holds ([`Required`]) become a formula
//! over pieces of text, the records holding those pieces in the classes the session sees
//! are read by id in one round, and the pages the formula keeps are the candidates. What a
//! search reads then depends on its pattern's pieces and the visible classes' layout only,
//! never on Chroma's text filter or on hidden pages. A pattern with no piece to look up
//! (`.`, `a|b`, `\w+`) or an index that does not read leaves the search to the coarse query.

use crate::pages::grams::lookup::{lookup, LookupError};
use crate::pages::grams::manifest::Segment;
use crate::pages::grams::query::GramQuery;
use crate::pages::store::{PageRef, Source};
use crate::search::pattern::literals::Required;
use crate::search::view::SessionView;

/// What the index says about a search's scope.
pub(crate) enum Indexed {
    /// The pages that may match, by their numbers in the index.
    Pages(Numbered),
    /// The index cannot narrow this search (no index, no piece, a page it does not number).
    Unused,
    /// The index's records did not read: the search asks Chroma instead.
    Failed(LookupError),
}

/// Pages by their numbers in the grep index, one bit each: a page of the scope is a
/// candidate when its number's bit is set, with no slug hashed or compared.
pub(crate) struct Numbered {
    bits: Vec<u64>,
}

impl Numbered {
    fn of(numbers: &[u32]) -> Numbered {
        let mut bits = vec![0u64; numbers.iter().max().map_or(0, |&n| n as usize / 64 + 1)];
        for &n in numbers {
            bits[n as usize / 64] |= 1 << (n % 64);
        }
        Numbered { bits }
    }

    pub(crate) fn holds(&self, n: u32) -> bool {
        self.bits.get(n as usize / 64).is_some_and(|w| w & (1 << (n % 64)) != 0)
    }
}

/// The formula a page holding a match satisfies, from the literals a matching line holds.
pub(crate) fn gram_query(required: &Required) -> GramQuery {
    match required {
        Required::Any => GramQuery::Any,
        Required::Lit(s) => GramQuery::literal(s),
        Required::All(parts) => GramQuery::all(parts.iter().map(gram_query).collect()),
        Required::OneOf(parts) => GramQuery::one_of(parts.iter().map(gram_query).collect()),
    }
}

/// The pages among `pages` (the scope's) that may hold a line with `required`'s literals,
/// from the grep index: every page of the scope held in the collection must have a number
/// in it.
pub(crate) async fn candidates(view: SessionView<'_>, pages: &[&PageRef], required: &Required) -> Indexed {
    let Ok(manifest) = view.grep_index() else { return Indexed::Unused };
    let query = gram_query(required);
    let unnumbered = |p: &&PageRef| matches!(p.source, Source::Chunks { number: None, .. });
    if query == GramQuery::Any || pages.iter().any(unnumbered) {
        return Indexed::Unused;
    }
    let classes: Vec<&[Segment]> = manifest.visible(view.groups()).map(|c| c.segments.as_slice()).collect();
    match lookup(view.collection(), view.index_kept(), &classes, &query, manifest.pages).await {
        // Ascending, and only the visible classes' pages.
        Ok(numbers) => Indexed::Pages(Numbered::of(&numbers)),
        Err(e) => Indexed::Failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::rewrite::{to_re2, Dialect};
    use crate::search::pattern::syntax::parse;

    fn q(p: &str, d: Dialect) -> GramQuery {
        gram_query(&parse(&to_re2(p, d).unwrap().unwrap()).unwrap().spelled_out())
    }

    #[test]
    fn numbered_pages_hold_exactly_the_numbers_given() {
        let set = Numbered::of(&[0, 3, 63, 64, 200]);
        let held: Vec<u32> = (0..300).filter(|&n| set.holds(n)).collect();
        assert_eq!(held, [0, 3, 63, 64, 200]);
        assert!(!Numbered::of(&[]).holds(0), "no number: no page");
        assert!(!set.holds(u32::MAX), "beyond the last number: none");
    }

    #[test]
    fn a_pattern_asks_for_the_pieces_of_its_required_literals() {
        assert_eq!(q("oauth", Dialect::Basic), GramQuery::literal("oauth"));
        assert_eq!(q("OAuth", Dialect::Basic), GramQuery::literal("oauth"), "folded: the same pieces");
        assert_eq!(
            q("token|secret", Dialect::Extended),
            GramQuery::one_of(vec![GramQuery::literal("token"), GramQuery::literal("secret")])
        );
        assert_eq!(q("ab.*key", Dialect::Basic), GramQuery::literal("key"), "a two-byte literal asks nothing");
        for nothing in [".", "a|b", "\\w+", "x*", "ab"] {
            assert_eq!(q(nothing, Dialect::Perl), GramQuery::Any, "{nothing}");
        }
        assert_eq!(q("ab|cde", Dialect::Extended), GramQuery::Any, "one side without a piece: any page");
        assert_eq!(
            q("api[_-]key", Dialect::Extended),
            GramQuery::one_of(vec![GramQuery::literal("api_key"), GramQuery::literal("api-key")]),
            "a small class spelled out: pieces across it"
        );
    }
}
