//! The relevance floor: whether any page answers a question at all.
//!
//! Ranking always has a first page; a question about something the docs do not cover (a
//! string of nonsense, a recipe, another product) still ranks the pages that share a
//! common word with it, or whose embedding happens to lie nearest. The floor says "no
//! page answers" for those, from two pieces of evidence:
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
//! [`Floor`]. Neither means the same in every language or for every model, so the floors
//! are chosen per language and per model, on the project's question sets
//! (bench/corpus/search-questions.json, search-questions-multilingual.json and
//! search-none.json; docs/concepts/ranked-search.md has the figures):
//!
//! - A question in another language than English is held to lower floors: its words are
//!   counted in pieces (pairs of Chinese, Japanese and Korean characters) or with
//!   inflections that pages in that language do not share word for word, and an English
//!   model places it farther from every chunk, the right one too.
//! - Similarity is judged only for the models and languages it was measured on. For
//!   another model, or multilingual-e5-small in a language other than English (whose
//!   questions no page answers lie as near to the pages as those some page answers), the
//!   nearest chunks always count as an answer: the floor says "none" only on evidence it
//!   can read.
//!
//! Both are counted over what the session sees (its visible candidates, and the number of
//! chunks of its visible pages), so a hidden page never turns "none" into an answer, nor
//! the reverse.

use super::score::{idf, Counted};
use super::words::is_identifier;
use crate::base::embed::Space;

/// The share of a question's weight the best chunk must hold, in English (or a language not
/// told): beside the nearest chunks' similarity, and with words alone (where it is the only
/// evidence, so lower: 0.45 there cost the words-only ranking a tenth of its right pages).
pub(super) const MIN_COVERAGE: f64 = 0.45;
pub(super) const MIN_COVERAGE_WORDS: f64 = 0.38;
/// The share in any other language, with or without an embedding.
pub(super) const MIN_COVERAGE_OTHER: f64 = 0.12;

/// The cosine similarity the nearest chunk must reach, for the models it was measured on:
/// (model, English, other languages; `None`: not judged).
const MIN_SIMILARITY: &[(&str, f64, Option<f64>)] =
    &[("all-MiniLM-L6-v2", 0.40, Some(0.25)), ("multilingual-e5-small", 0.88, None)];

/// The floors a search's evidence is held to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Floor {
    pub coverage: f64,
    /// `None`: the model's similarities are not judged (they always answer).
    pub similarity: Option<f64>,
}

impl Floor {
    /// The floors for a question in `lang` (named or detected; `None` when not told),
    /// searched with an embedding of `model` (the collection's, as its manifest names it;
    /// `None` for a collection whose manifest names none), or by its words alone (`words`).
    pub(crate) fn of(lang: Option<&str>, model: Option<&str>, words: bool) -> Floor {
        let english = lang.is_none_or(|l| l == super::lang::DEFAULT_LANGUAGE);
        let coverage = match (english, words) {
            (false, _) => MIN_COVERAGE_OTHER,
            (true, true) => MIN_COVERAGE_WORDS,
            (true, false) => MIN_COVERAGE,
        };
        let known = model.and_then(|m| MIN_SIMILARITY.iter().find(|(name, _, _)| model_named(m, name)));
        Floor { coverage, similarity: known.and_then(|(_, en, other)| if english { Some(*en) } else { *other }) }
    }
}

/// Whether `model` (as a manifest names it: `all-MiniLM-L6-v2`, `Xenova/all-MiniLM-L6-v2`)
/// is `name`.
fn model_named(model: &str, name: &str) -> bool {
    model.rsplit('/').next().is_some_and(|m| m.eq_ignore_ascii_case(name))
}

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
    /// Whether some page answers the question, by `floor`.
    pub(crate) fn answers(&self, floor: Floor) -> bool {
        let near = match (self.similarity, floor.similarity) {
            (Some(s), Some(min)) => s >= min,
            (Some(_), None) => true,
            (None, _) => false,
        };
        self.identifier || self.coverage >= floor.coverage || near
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

/// Whether one of `counted` holds one of the identifiers among `terms` that has a letter: a
/// bare number (a year, a port, a status code) is on many pages for reasons of their own,
/// so the question's other words must say that one answers.
pub(super) fn identifier_held(counted: &[Counted], terms: &[String]) -> bool {
    let named = |t: &str| is_identifier(t) && t.chars().any(char::is_alphabetic);
    let ids: Vec<usize> = (0..terms.len()).filter(|&t| named(&terms[t])).collect();
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
        let en = Floor::of(Some("en"), Some("all-MiniLM-L6-v2"), false);
        let held = Evidence { coverage: 0.0, similarity: None, identifier: true };
        assert!(held.answers(en));
        assert!(!(Evidence { identifier: false, ..held }).answers(en), "nothing else said a page answers");
        assert!((Evidence { coverage: MIN_COVERAGE, ..Evidence::default() }).answers(en));
        assert!((Evidence { similarity: Some(0.40), ..Evidence::default() }).answers(en));
        assert!(!(Evidence { coverage: 0.3, similarity: Some(0.3), identifier: false }).answers(en));
    }

    #[test]
    fn floors_by_language_model_and_evidence() {
        let mini = Some("all-MiniLM-L6-v2");
        let weak = Evidence { coverage: 0.2, similarity: Some(0.3), identifier: false };
        assert!(!weak.answers(Floor::of(None, mini, false)), "no language told: English's");
        assert!(
            weak.answers(Floor::of(Some("ja"), Some("Xenova/all-MiniLM-L6-v2"), false)),
            "lower in another language"
        );
        let e5 = Some("multilingual-e5-small");
        assert_eq!(Floor::of(Some("en"), e5, false).similarity, Some(0.88), "measured in English");
        assert_eq!(Floor::of(Some("fr"), e5, false).similarity, None, "not judged in other languages");
        assert!(weak.answers(Floor::of(Some("fr"), e5, false)));
        assert!(weak.answers(Floor::of(Some("en"), Some("text-embedding-3-small"), false)), "a model not measured");
        let words = Evidence { coverage: 0.4, similarity: None, identifier: false };
        assert!(words.answers(Floor::of(Some("en"), None, true)), "words alone: a lower floor");
        assert!(!words.answers(Floor::of(Some("en"), mini, false)), "beside the meaning: a higher one");
    }

    #[test]
    fn a_bare_number_is_no_identifier_here() {
        let q = terms(&["1998", "cup"]);
        assert!(!identifier_held(&[count("founded in 1998", &q)], &q));
        let q = terms(&["e4012"]);
        assert!(identifier_held(&[count("E4012: the token expired", &q)], &q));
    }

    #[test]
    fn distances_read_as_cosine_similarity() {
        assert!((similarity(Some(Space::Cosine), 0.25) - 0.75).abs() < 1e-12);
        assert!((similarity(Some(Space::Ip), 0.25) - 0.75).abs() < 1e-12);
        assert!((similarity(Some(Space::L2), 0.5) - 0.75).abs() < 1e-12);
        assert!((similarity(None, 0.5) - 0.75).abs() < 1e-12, "Chroma's default space");
    }
}
