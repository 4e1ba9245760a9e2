//! Words as the lexical ranking counts them, in queries and in pages alike.
//!
//! A word is a run of letters, digits and `_`, so `api_key`, `E401` and `v2` stay whole
//! while `mint.json` is two words. Letters are folded to lower case for ASCII only (the
//! Unicode tables would cost the module more than they add to a ranking), and a plural
//! ending is taken off (`keys` → `key`, `policies` → `policy`), the one inflection that
//! changes nothing a user means. Queries also drop the words that carry no topic ("how do
//! I …"), which would otherwise reward pages for being long.

/// Words that say nothing about what a question is about.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "before", "but",
    "by", "can", "could", "did", "do", "does", "doing", "each", "for", "from", "get", "got", "had", "has", "have",
    "having", "he", "her", "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "me",
    "might", "more", "most", "my", "need", "no", "not", "of", "on", "one", "or", "other", "our", "out", "should", "so",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to",
    "too", "up", "use", "using", "very", "want", "was", "way", "we", "were", "what", "when", "where", "which", "while",
    "who", "why", "will", "with", "would", "you", "your",
];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `word` (already lower case) without a plural ending.
fn stem(word: &str) -> String {
    let mut w = word.to_string();
    stem_in_place(&mut w);
    w
}

fn stem_in_place(word: &mut String) {
    let n = word.len();
    if n > 4 && word.ends_with("ies") {
        word.truncate(n - 3);
        word.push('y');
    } else if n > 4 && ["sses", "shes", "ches", "xes", "zes"].iter().any(|e| word.ends_with(e)) {
        word.truncate(n - 2);
    } else if n > 3 && word.ends_with('s') && !["ss", "us", "is"].iter().any(|e| word.ends_with(e)) {
        word.truncate(n - 1);
    }
}

/// The words of `text`, folded and stemmed, in order.
pub(super) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !is_word_char(c)).filter(|w| !w.is_empty()).map(|w| stem(&w.to_ascii_lowercase()))
}

/// Calls `f` with each of [`words`], through one buffer: the chunks a search scores hold
/// hundreds of thousands of words, and each need not be a string of its own.
pub(super) fn each_word(text: &str, mut f: impl FnMut(&str)) {
    let mut buf = String::new();
    for w in text.split(|c: char| !is_word_char(c)).filter(|w| !w.is_empty()) {
        buf.clear();
        buf.push_str(w);
        buf.make_ascii_lowercase();
        stem_in_place(&mut buf);
        f(&buf);
    }
}

/// The words of a query that count: a question is a few dozen words, and a query of a
/// hundred thousand (a pasted log) must cost what a question costs, so what follows the
/// first [`MAX_QUERY_WORDS`] is not read.
pub(super) const MAX_QUERY_WORDS: usize = 64;

/// The part of `query` that holds its first [`MAX_QUERY_WORDS`] words; found in one pass.
pub(super) fn bounded(query: &str) -> &str {
    let mut seen = 0;
    let mut in_word = false;
    for (i, c) in query.char_indices() {
        let word = is_word_char(c);
        if word && !in_word {
            if seen == MAX_QUERY_WORDS {
                return &query[..i];
            }
            seen += 1;
        }
        in_word = word;
    }
    query
}

/// The distinct words of a query that say what it is about, in the order they first
/// appear. A query of stopwords alone keeps them: it is still what the user asked.
pub(super) fn terms(query: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut all: Vec<String> = Vec::new();
    for w in words(bounded(query)) {
        if seen.insert(w.clone()) {
            all.push(w);
        }
    }
    let topical: Vec<String> = all.iter().filter(|w| !STOPWORDS.contains(&w.as_str())).cloned().collect();
    if topical.is_empty() {
        all
    } else {
        topical
    }
}

/// How telling a term is likely to be before anything is counted: identifiers (with a
/// digit or `_`) first, then longer words. Decides which terms ask Chroma for candidates
/// when there are more than a request should carry.
pub(super) fn specificity(term: &str) -> (bool, usize) {
    (term.chars().any(|c| c.is_ascii_digit() || c == '_'), term.chars().count())
}

/// The spellings of a folded term that a case-sensitive substring filter needs to find
/// it: as folded, capitalised, upper case (`api`, `Api`, `API`), and as `query` writes it
/// (`apiPlaygroundInput` for `apiPlaygroundInputs`: identifiers keep their inner capitals).
pub(super) fn spellings(term: &str, query: &str) -> Vec<String> {
    let mut capital = String::with_capacity(term.len());
    let mut chars = term.chars();
    if let Some(first) = chars.next() {
        capital.push(first.to_ascii_uppercase());
        capital.extend(chars);
    }
    let mut out = vec![term.to_string()];
    for s in [capital, term.to_ascii_uppercase()].into_iter().chain(written(term, query)) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// How `query` writes `term`: each of its words that folds and stems to the term, cut to
/// the term's length (the stem is a prefix of the folded word, but for `-ies` → `-y`).
fn written<'q>(term: &'q str, query: &'q str) -> impl Iterator<Item = String> + 'q {
    query
        .split(|c: char| !is_word_char(c))
        .filter(move |w| stem(&w.to_ascii_lowercase()) == term && w.to_ascii_lowercase().starts_with(term))
        .map(move |w| w[..term.len()].to_string())
}

/// Whether `query` writes `term` with a capital after its first letter (`apiPlaygroundInputs`).
pub(super) fn is_camel(term: &str, query: &str) -> bool {
    written(term, query)
        .any(|w| w.chars().skip(1).any(|c| c.is_ascii_uppercase()) && w.chars().any(|c| c.is_ascii_lowercase()))
}

/// Whether a term is an identifier (a digit or `_` in it): a page may write it inside a
/// longer one (`mint_dsc_` in `mint_dsc_8f2…`), so it counts wherever a word holds it.
pub(super) fn is_identifier(term: &str) -> bool {
    specificity(term).0 && term.len() >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_folded_and_plurals_taken_off() {
        let text = "Rotate the API_KEYS, policies and Keys; E401 in mint.json";
        let w: Vec<String> = words(text).collect();
        assert_eq!(w, ["rotate", "the", "api_key", "policy", "and", "key", "e401", "in", "mint", "json"]);
        let mut each = Vec::new();
        each_word(text, |w| each.push(w.to_string()));
        assert_eq!(each, w);
        assert_eq!(stem("class"), "class");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("boxes"), "box");
        assert_eq!(stem("gas"), "gas", "short words keep their s");
    }

    #[test]
    fn a_query_keeps_its_topical_words_once() {
        assert_eq!(terms("How do I rotate my API keys? Rotate key"), ["rotate", "api", "key"]);
        assert_eq!(terms("how do I"), ["how", "do", "i"], "only stopwords: kept as asked");
        assert!(terms("  ?! ").is_empty());
    }

    #[test]
    fn a_long_query_counts_its_first_words_only() {
        let long = "rotate ".repeat(10) + &"word ".repeat(200_000) + "tail";
        assert_eq!(bounded(&long).split_whitespace().count(), MAX_QUERY_WORDS);
        assert_eq!(terms(&long), ["rotate", "word"]);
        let distinct: String = (0..100_000).map(|i| format!("w{i} ")).collect();
        assert_eq!(terms(&distinct).len(), MAX_QUERY_WORDS);
        assert_eq!(bounded("a b"), "a b");
        assert_eq!(bounded("日本語 と English"), "日本語 と English");
    }

    #[test]
    fn spellings_cover_the_case_a_page_writes() {
        assert_eq!(spellings("api", "the api"), ["api", "Api", "API"]);
        assert_eq!(spellings("e401", "E401?"), ["e401", "E401"]);
        assert_eq!(spellings("42", ""), ["42"]);
        let q = "what is apiPlaygroundInputs for";
        assert_eq!(
            spellings("apiplaygroundinput", q),
            ["apiplaygroundinput", "Apiplaygroundinput", "APIPLAYGROUNDINPUT", "apiPlaygroundInput"]
        );
        assert_eq!(spellings("policy", "Policies"), ["policy", "Policy", "POLICY"], "no prefix of -ies to keep");
        assert!(is_camel("apiplaygroundinput", q));
        assert!(!is_camel("api", "the API and the Api"), "capitals alone or first only are not an identifier");
        assert!(is_identifier("mint_dsc_") && is_identifier("e401") && !is_identifier("key"));
        assert!(specificity("api_key") > specificity("authentication"));
        assert!(specificity("authentication") > specificity("key"));
    }
}
