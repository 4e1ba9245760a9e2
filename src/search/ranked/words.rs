//! Words as the lexical ranking counts them, in queries and in pages alike.
//!
//! A word is a run of letters, digits and `_`, so `api_key`, `E401` and `v2` stay whole
//! while `mint.json` is two words. Letters are folded ([`script`]: lower case, accents
//! off), Chinese, Japanese and Korean text is counted in pairs of characters, and a
//! plural ending is taken off (`keys` → `key`, `policies` → `policy`), the one inflection
//! that changes nothing a user means. Queries also drop the words that carry no topic
//! ("how do I …", "comment puis-je …"), which would otherwise reward pages for being long.

use super::script::{self, fold, fold_into, is_cjk};

/// Words that say nothing about what a question is about, folded: English, then French,
/// Spanish, Portuguese and German (the languages docs sites translate into most whose
/// words have spaces between them).
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "before", "but",
    "by", "can", "could", "did", "do", "does", "doing", "each", "for", "from", "get", "got", "had", "has", "have",
    "having", "he", "her", "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "me",
    "might", "more", "most", "my", "need", "no", "not", "of", "on", "one", "or", "other", "our", "out", "should", "so",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to",
    "too", "up", "use", "using", "very", "want", "was", "way", "we", "were", "what", "when", "where", "which", "while",
    "who", "why", "will", "with", "would", "you", "your",
    // The negated auxiliaries of English contractions, with or without the apostrophe.
    "aren", "couldn", "didn", "doesn", "don", "hadn", "hasn", "haven", "isn", "shouldn", "wasn", "weren", "wouldn",
    "arent", "couldnt", "didnt", "doesnt", "dont", "isnt", "wasnt", "wouldnt", // French
    "au", "aux", "avec", "ce", "ces", "comment", "dans", "de", "des", "du", "elle", "en", "est", "et", "faire", "il",
    "je", "la", "le", "les", "leur", "ma", "mes", "mon", "ne", "nous", "ou", "par", "pas", "peut", "peux", "pour",
    "puis", "quand", "que", "quel", "quelle", "qui", "sa", "se", "ses", "son", "sont", "sur", "un", "une", "vous",
    "votre", "vos", "y", // Spanish
    "al", "como", "con", "cual", "cuando", "del", "donde", "el", "ella", "esta", "este", "hacer", "lo", "los", "las",
    "mi", "mis", "para", "pero", "por", "puedo", "si", "su", "sus", "tengo", "uno", "una", "unos", "yo",
    // Portuguese
    "da", "dos", "em", "eu", "meu", "minha", "na", "nos", "um", "uma", "posso", "voce", // German
    "auf", "der", "das", "den", "dem", "ein", "eine", "einen", "ich", "ist", "kann", "und", "wie", "wo", "zu",
];

/// What an English contraction leaves once its apostrophe splits it (`can't`: `can`, `t`;
/// `we're`: `we`, `re`; `I'd`, `I'm`, `it's`): stopwords of an English question
/// (or one in no language `lang::detect` can tell), not of one in another language,
/// whose elisions (`d'API`, `s'appliquent`) its pages write the same way.
const ENGLISH_PIECES: &[&str] = &["d", "ll", "m", "re", "s", "t", "ve"];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || script::is_combining(c)
}

/// `word` (already folded) without a plural ending.
fn stem(word: &str) -> String {
    let mut w = word.to_string();
    stem_in_place(&mut w);
    w
}

fn stem_in_place(word: &mut String) {
    // Every ending taken off ends in `s`: most words have none.
    if !word.ends_with('s') {
        return;
    }
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
pub(super) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_word(text, |w| out.push(w.to_string()));
    out
}

/// Calls `f` with each of [`words`], through one buffer: the chunks a search scores hold
/// hundreds of thousands of words, and each need not be a string of its own.
pub(super) fn each_word(text: &str, mut f: impl FnMut(&str)) {
    each_word_where(text, |_| true, |w| f(w.expect("every word is wanted")));
}

/// [`each_word`], but an ASCII word that `wanted` refuses (given as written) is given as
/// `None`, neither folded nor stemmed: scoring compares each word of a chunk with a few
/// terms, and most words cannot be any of them (another first letter, another length).
pub(super) fn each_word_where(text: &str, wanted: impl Fn(&str) -> bool, mut f: impl FnMut(Option<&str>)) {
    let mut buf = String::new();
    let mut pair = String::new();
    each_run(text, |run, ascii| {
        buf.clear();
        if !ascii {
            return each_part(run, &mut buf, &mut pair, &mut |w: &str| f(Some(w)));
        }
        if !wanted(run) {
            return f(None);
        }
        buf.push_str(run);
        buf.make_ascii_lowercase();
        stem_in_place(&mut buf);
        f(Some(&buf));
    });
}

/// Calls `f` with each run of word characters in `text`, and whether it is all ASCII.
/// Bytes below 128 are told apart without decoding: docs are mostly ASCII.
fn each_run(text: &str, mut f: impl FnMut(&str, bool)) {
    let bytes = text.as_bytes();
    let (mut start, mut ascii) = (None, true);
    let mut i = 0;
    while i < bytes.len() {
        let (word, width) = match bytes[i] {
            b if b < 0x80 => (b.is_ascii_alphanumeric() || b == b'_', 1),
            _ => text[i..].chars().next().map_or((false, 1), |c| (is_word_char(c), c.len_utf8())),
        };
        match start {
            None if word => (start, ascii) = (Some(i), width == 1),
            Some(s) if !word => {
                f(&text[s..i], ascii);
                start = None;
            }
            Some(_) => ascii &= width == 1,
            None => {}
        }
        i += width;
    }
    if let Some(s) = start {
        f(&text[s..], ascii);
    }
}

/// The words of a run with letters beyond ASCII: its CJK characters in overlapping pairs
/// (one alone where it has no CJK neighbour), the letters between them folded, as words.
fn each_part(run: &str, buf: &mut String, pair: &mut String, f: &mut impl FnMut(&str)) {
    let word = |buf: &mut String, f: &mut dyn FnMut(&str)| {
        if !buf.is_empty() {
            stem_in_place(buf);
            f(buf);
            buf.clear();
        }
    };
    // The CJK character before this one, and whether it is in no pair yet.
    let mut prev: Option<(char, bool)> = None;
    for c in run.chars() {
        if is_cjk(c) {
            word(buf, f);
            if let Some((p, _)) = prev {
                pair.clear();
                pair.push(p);
                pair.push(c);
                f(pair);
            }
            prev = Some((c, prev.is_none()));
        } else {
            if let Some((p, true)) = prev {
                f(p.encode_utf8(&mut [0; 4]));
            }
            prev = None;
            fold_into(c, buf);
        }
    }
    word(buf, f);
    if let Some((p, true)) = prev {
        f(p.encode_utf8(&mut [0; 4]));
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
        // A CJK character is a word of its own here: a sentence of them is one run.
        if word && (!in_word || is_cjk(c)) {
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
/// appear. A query of stopwords alone keeps them: it is still what the user asked. What an
/// English contraction leaves ([`ENGLISH_PIECES`]) is dropped when the query is `english`
/// (in English, or in no language the search can tell).
pub(super) fn terms(query: &str, english: bool) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut all: Vec<String> = Vec::new();
    for w in words(bounded(query)) {
        if seen.insert(w.clone()) {
            all.push(w);
        }
    }
    let piece = |w: &str| english && ENGLISH_PIECES.contains(&w);
    let topical: Vec<String> = all.iter().filter(|w| !is_stopword(w) && !piece(w)).cloned().collect();
    if topical.is_empty() {
        all
    } else {
        topical
    }
}

/// Whether `word` (folded and stemmed, as [`words`] gives it) is a stopword: the stopwords
/// are compared as stemmed too, so `does` (stemmed `doe`) is one.
fn is_stopword(word: &str) -> bool {
    STOPWORDS.iter().any(|s| *s == word || (s.ends_with('s') && stem(s) == word))
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
/// the term's length (the stem is a prefix of the folded word, but for `-ies` → `-y`). A
/// word with accents is also given in lower case (`Configuración`, `configuración`); one
/// whose folding changes its length (`Straße`) is given whole.
fn written<'q>(term: &'q str, query: &'q str) -> impl Iterator<Item = String> + 'q {
    query.split(|c: char| !is_word_char(c)).filter(|w| !w.is_empty() && !w.chars().any(is_cjk)).flat_map(move |w| {
        let folded = fold(w);
        if stem(&folded) != term || !folded.starts_with(term) {
            return Vec::new();
        }
        if w.is_ascii() {
            return vec![w[..term.len()].to_string()];
        }
        let kept: String = if folded.chars().count() == w.chars().count() {
            w.chars().take(term.chars().count()).collect()
        } else {
            w.to_string()
        };
        let lower: String = kept.chars().map(script::lower).collect();
        if lower == kept {
            vec![kept]
        } else {
            vec![kept, lower]
        }
    })
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
        let w = words(text);
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
    fn cjk_text_is_counted_in_pairs() {
        assert_eq!(words("設定方法"), ["設定", "定方", "方法"]);
        assert_eq!(words("Astroのコンポーネント"), ["astro", "のコ", "コン", "ンポ", "ポー", "ーネ", "ネン", "ント"]);
        assert_eq!(words("API키를 설정"), ["api", "키를", "설정"]);
        assert_eq!(words("の config 字"), ["の", "config", "字"], "a character alone is a word");
        assert_eq!(words("数据库v2配置"), ["数据", "据库", "v2", "配置"]);
        let q = terms("如何配置数据库连接？", true);
        assert!(q.contains(&"配置".to_string()) && q.contains(&"数据".to_string()), "{q:?}");
        let page = words("本页介绍如何配置数据库的连接参数");
        assert!(q.iter().filter(|t| page.contains(t)).count() >= 4, "the question's pairs meet the page's");
    }

    #[test]
    fn accents_fold_on_both_sides() {
        assert_eq!(words("Configuración de las Páginas"), ["configuracion", "de", "las", "pagina"]);
        assert_eq!(terms("¿Cómo configuro la configuración?", true), ["configuro", "configuracion"]);
        assert_eq!(terms("Comment créer une page", true), ["creer", "page"]);
        assert_eq!(words("e\u{301}cole"), ["ecole"], "a combining accent stays in its word");
        assert_eq!(
            spellings("configuracion", "la Configuración"),
            ["configuracion", "Configuracion", "CONFIGURACION", "Configuración", "configuración"]
        );
        assert_eq!(spellings("strasse", "Straße"), ["strasse", "Strasse", "STRASSE", "Straße", "straße"]);
        assert_eq!(spellings("設定", "設定方法"), ["設定"]);
    }

    #[test]
    fn a_long_cjk_query_counts_its_first_characters() {
        let long = "設定".repeat(100_000);
        assert_eq!(bounded(&long).chars().count(), MAX_QUERY_WORDS);
        assert!(terms(&long, true).len() <= 2);
    }

    #[test]
    fn a_query_keeps_its_topical_words_once() {
        assert_eq!(terms("How do I rotate my API keys? Rotate key", true), ["rotate", "api", "key"]);
        assert_eq!(terms("how do I", true), ["how", "do", "i"], "only stopwords: kept as asked");
        assert!(terms("  ?! ", true).is_empty());
    }

    #[test]
    fn stopwords_are_dropped_however_a_plural_ending_leaves_them() {
        assert_eq!(terms("does the API reference handle oneOf", true), ["api", "reference", "handle", "oneof"]);
        assert_eq!(stem("does"), "doe", "stemmed like any word ending in s");
        assert!(is_stopword("doe") && !is_stopword("reference"));
    }

    #[test]
    fn what_a_contraction_leaves_is_no_topic() {
        assert_eq!(terms("the AI chat can't answer, isn't it?", true), ["ai", "chat", "answer"]);
        assert_eq!(
            terms("I'm moving off Docusaurus; we're sure it's the customer's", true),
            ["moving", "off", "docusaurus", "sure", "customer"]
        );
        assert_eq!(
            terms("the preview doesnt look right, I'd rather we'll see", true),
            ["preview", "look", "right", "rather", "see"]
        );
        assert_eq!(
            terms("Où mettre une clé d'API secrète pour qu'elle ne soit pas visible ?", false),
            ["mettre", "cle", "d", "api", "secrete", "qu", "soit", "visible"],
            "a French question keeps its elisions, as its pages write them"
        );
    }

    #[test]
    fn a_long_query_counts_its_first_words_only() {
        let long = "rotate ".repeat(10) + &"word ".repeat(200_000) + "tail";
        assert_eq!(bounded(&long).split_whitespace().count(), MAX_QUERY_WORDS);
        assert_eq!(terms(&long, true), ["rotate", "word"]);
        let distinct: String = (0..100_000).map(|i| format!("w{i} ")).collect();
        assert_eq!(terms(&distinct, true).len(), MAX_QUERY_WORDS);
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
