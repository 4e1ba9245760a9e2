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

use crate::base::hash::PathSet;
use crate::pages::grams::lookup::{lookup, LookupError};
use crate::pages::grams::manifest::Segment;
use crate::pages::grams::query::GramQuery;
use crate::search::pattern::literals::Required;
use crate::search::view::SessionView;

/// What the index says about a search's scope.
pub(crate) enum Indexed {
    /// The slugs of the pages that may match (a subset of the scope's).
    Pages(PathSet<String>),
    /// The index cannot narrow this search (no index, no piece, a page it does not number).
    Unused,
    /// The index's records did not read: the search asks Chroma instead.
    Failed(LookupError),
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

/// The pages among `slugs` (the scope's pages held in the collection) that may hold a
/// line with `required`'s literals, from the grep index.
pub(crate) async fn candidates(view: SessionView<'_>, slugs: &PathSet<&str>, required: &Required) -> Indexed {
    let Ok(manifest) = view.grep_index() else { return Indexed::Unused };
    let query = gram_query(required);
    if query == GramQuery::Any || slugs.iter().any(|s| view.page_number(s).is_none()) {
        return Indexed::Unused;
    }
    let classes: Vec<&[Segment]> = manifest.visible(view.groups()).map(|c| c.segments.as_slice()).collect();
    match lookup(view.collection(), view.index_kept(), &classes, &query, manifest.pages).await {
        Ok(numbers) => Indexed::Pages(
            numbers
                .into_iter()
                .filter_map(|n| view.numbered(n))
                .filter(|s| slugs.contains(*s))
                .map(str::to_string)
                .collect(),
        ),
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
