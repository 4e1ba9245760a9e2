//! The relevance floor: whether any page answers a question at all.
//!
//! Ranking always has a first page; a question about something the docs do not cover (a
//! string of nonsense, a recipe, another product) still ranks the pages that share a
//! common word with it, or whose embedding happens to lie nearest. The floor says "no
//! page answers" for those, from two pieces of evidence that mean the same on any
//! collection, whatever its size, language or model:
//!
//! - **coverage**: the share of the question's weight that the best chunk holds, each term
//!   weighed by its BM25 rarity (so a word every page has weighs little, and a word no
//!   page has weighs the most). A chunk holding every term covers 1; one holding only
//!   `how` and `docs` of a question about sourdough, almost 0.
//! - **similarity**: the cosine similarity of the question's embedding to the nearest
//!   chunk's, read back from the distance in the collection's space.
//!
//! A search answers when a chunk holds one of its identifiers (an exact `E4012` or
//! `mint_dsc_` answers however few other words are there), or when either is at its
//! floor: [`MIN_COVERAGE`] for the words (with or without an embedder, and for the
//! words-only ranking of a session Chroma cannot scope), [`MIN_SIMILARITY`] for the
//! meaning. Both were chosen on the project's question sets, with all-MiniLM-L6-v2: the
//! pair that says "none" for at least 95 % of bench/corpus/search-none.json's questions
//! (nonsense, and questions the corpus does not cover) and keeps the most of the English
//! questions' right pages in the first five (bench/corpus/search-questions.json), as
//! docs/concepts/ranked-search.md says.
//!
//! Both are counted over what the session sees (its visible candidates, and the number of
//! chunks of its visible pages), so a hidden page never turns "none" into an answer.

use super::score::{idf, Counted};
use super::words::is_identifier;
use crate::base::embed::Space;

/// The share of a question's weight the best chunk must hold (see the module's doc). On the
/// English questions, 0.45 beside a similarity of 0.40 said "none" for 95 % of the
/// questions no page answers and kept the right page in the first five for 91 % (93 %
/// without a floor); 0.40 said "none" for 88 %.
pub(super) const MIN_COVERAGE: f64 = 0.45;
/// The cosine similarity the nearest chunk must reach (see the module's doc).
pub(super) const MIN_SIMILARITY: f64 = 0.40;

/// What a search found to say that a page answers it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Evidence {
    /// The best chunk's share of the question's weight, 0 to 1.
    pub coverage: f64,
    /// The nearest chunk's cosine similarity, when the search had an embedding.
    pub similarity: Option<f64>,
    /// Whether a chunk holds one of the question's identifiers (`E4012`, `mint_dsc_`): an
    /// exact identifier answers, however few of the other words are there.
    pub identifier: bool,
}

impl Evidence {
    /// Whether some page answers the question.
    pub(crate) fn answers(&self) -> bool {
        self.identifier || self.coverage >= MIN_COVERAGE || self.similarity.is_some_and(|s| s >= MIN_SIMILARITY)
    }
}

/// The most any one of `counted` holds of `terms` terms' weight, each weighed by its
/// rarity over `counted` among `total` chunks (0 when nothing is counted).
pub(super) fn coverage(counted: &[Counted], terms: usize, total: f64) -> f64 {
    let weights = idf(counted, terms, total);
    let whole: f64 = weights.iter().sum();
    if whole <= 0.0 {
        return 0.0;
    }
    let held = |c: &Counted| c.tf.iter().zip(&weights).filter(|(f, _)| **f > 0.0).map(|(_, w)| w).sum::<f64>();
    counted.iter().map(held).fold(0.0, f64::max) / whole
}

/// Whether one of `counted` holds one of the identifiers among `terms`.
pub(super) fn identifier_held(counted: &[Counted], terms: &[String]) -> bool {
    let ids: Vec<usize> = (0..terms.len()).filter(|&t| is_identifier(&terms[t])).collect();
    !ids.is_empty() && counted.iter().any(|c| ids.iter().any(|&t| c.tf[t] > 0.0))
}

/// The cosine similarity a distance in `space` stands for. Squared Euclidean and inner
/// product distances are read as between vectors of length 1, as embedding models give
/// them (`space` unknown: Chroma's default, squared Euclidean).
pub(super) fn similarity(space: Option<Space>, distance: f64) -> f64 {
    match space.unwrap_or(Space::L2) {
        Space::L2 => 1.0 - distance / 2.0,
        Space::Cosine | Space::Ip => 1.0 - distance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ranked::score::count;

    fn terms(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_chunk_with_every_term_covers_the_question() {
        let q = terms(&["rotate", "key"]);
        let counted = [count("rotate the key", &q), count("a key", &q)];
        assert!((coverage(&counted, 2, 100.0) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_term_no_page_holds_weighs_the_most() {
        let q = terms(&["sourdough", "page"]);
        let counted: Vec<Counted> = (0..20).map(|_| count("a page of docs", &q)).collect();
        let c = coverage(&counted, 2, 40.0);
        assert!(c < 0.3, "the common word alone covers little: {c}");
        assert_eq!(coverage(&[], 2, 40.0), 0.0, "nothing counted covers nothing");
    }

    #[test]
    fn a_held_identifier_answers() {
        let q = terms(&["e4012", "mean"]);
        let counted = [count("E4012 is a token error", &q)];
        assert!(identifier_held(&counted, &q));
        assert!(!identifier_held(&counted, &terms(&["token", "mean"])), "plain words are not identifiers");
        let held = Evidence { coverage: 0.0, similarity: None, identifier: true };
        assert!(held.answers());
        assert!(!(Evidence { identifier: false, ..held }).answers(), "nothing else said a page answers");
        assert!((Evidence { coverage: MIN_COVERAGE, ..Evidence::default() }).answers());
        assert!((Evidence { similarity: Some(MIN_SIMILARITY), ..Evidence::default() }).answers());
        assert!(!(Evidence { coverage: 0.3, similarity: Some(0.3), identifier: false }).answers());
    }

    #[test]
    fn distances_read_as_cosine_similarity() {
        assert!((similarity(Some(Space::Cosine), 0.25) - 0.75).abs() < 1e-12);
        assert!((similarity(Some(Space::Ip), 0.25) - 0.75).abs() < 1e-12);
        assert!((similarity(Some(Space::L2), 0.5) - 0.75).abs() < 1e-12);
        assert!((similarity(None, 0.5) - 0.75).abs() < 1e-12, "Chroma's default space");
    }
}
