//! The language of a question and of a page, so that a question finds the pages written
//! in its language first.
//!
//! Docs sites ship their translations beside the original, and a reader who asks in
//! French wants the French page, not the English one that happens to share more words
//! with the question (identifiers, product names). A page's language is read from its
//! path, as docs sites lay translations out: the first directory, when it is a language
//! tag (`/fr/guides/…`, `/ja/…`, `/zh-cn/…`, `/pt-BR/…`: two letters of a known language,
//! with a region or script after `-` or `_`). A page under no such directory is in the
//! site's default language, taken to be English (`/guides/…` beside `/fr/guides/…`).
//!
//! A question's language is read from its script (kana is Japanese, Hangul Korean, Han
//! alone Chinese, Cyrillic Russian, Greek Greek…) and, for the languages written in Latin
//! letters, from its common words ("comment", "cómo", "wie"…): the language with the most
//! of them, when one has more than any other. A question with none (`api key rotate`)
//! has no language, and nothing is reordered. Nor is a question in the default language:
//! there a translation ranks where its text puts it, since it is often the best answer at
//! hand. A search may also name the language (the `--lang` option), which then keeps to
//! that language's pages.

use super::script::fold;
use super::words::words;

/// The language of pages under no language directory.
pub(crate) const DEFAULT_LANGUAGE: &str = "en";

/// ISO 639-1 codes of the languages docs sites are translated into, as path prefixes.
const LANGUAGES: &[&str] = &[
    "ar", "bg", "bn", "ca", "cs", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "he", "hi", "hr", "hu", "id",
    "it", "ja", "ko", "lt", "lv", "ms", "nb", "nl", "no", "pl", "pt", "ro", "ru", "sk", "sl", "sr", "sv", "th", "tr",
    "uk", "vi", "zh",
];

/// Common words of the Latin-script languages, folded, each list of words found in that
/// language far more than in the others.
const COMMON: &[(&str, &[&str])] = &[
    ("en", &["the", "how", "what", "do", "does", "is", "my", "to", "can", "why", "which", "with", "and", "of", "when"]),
    (
        "fr",
        &[
            "comment", "le", "les", "des", "est", "une", "pour", "dans", "avec", "quelle", "quel", "puis", "je", "du",
            "ce",
        ],
    ),
    (
        "es",
        &["como", "el", "los", "las", "para", "una", "puedo", "con", "del", "cual", "que", "hago", "mi", "es", "por"],
    ),
    (
        "pt",
        &["como", "os", "para", "uma", "posso", "com", "do", "da", "meu", "minha", "qual", "voce", "nao", "em", "faco"],
    ),
    (
        "de",
        &["wie", "der", "die", "das", "ich", "und", "mit", "ist", "ein", "eine", "kann", "fur", "den", "auf", "was"],
    ),
    (
        "it",
        &["come", "il", "gli", "della", "per", "una", "posso", "con", "che", "del", "mio", "qual", "sono", "di", "nel"],
    ),
];

/// The language a path's first directory names, as its lower-case ISO 639-1 code, or
/// [`DEFAULT_LANGUAGE`] for a page under none.
pub(crate) fn of_page(path: &str) -> &'static str {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    let mut parts = first.splitn(2, ['-', '_']);
    let code = parts.next().unwrap_or("");
    let rest_ok =
        parts.next().is_none_or(|r| (2..=4).contains(&r.len()) && r.chars().all(|c| c.is_ascii_alphanumeric()));
    let is_dir = path.trim_start_matches('/').contains('/');
    match LANGUAGES.iter().find(|l| l.eq_ignore_ascii_case(code)) {
        Some(l) if rest_ok && is_dir => l,
        _ => DEFAULT_LANGUAGE,
    }
}

/// The language `tag` names (`fr`, `pt-BR`, `zh_hant`), as [`of_page`] names languages,
/// or `None` when it names none it knows.
pub(crate) fn parse(tag: &str) -> Option<&'static str> {
    let code = tag.split(['-', '_']).next().unwrap_or("");
    LANGUAGES.iter().find(|l| l.eq_ignore_ascii_case(code)).copied()
}

/// The language `query` is written in, when its script or its common words say.
pub(crate) fn detect(query: &str) -> Option<&'static str> {
    let (mut kana, mut hangul, mut han, mut cyrillic, mut greek, mut latin) = (0, 0, 0, 0, 0, 0);
    for c in query.chars() {
        match c as u32 {
            0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => kana += 1,
            0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => hangul += 1,
            0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => han += 1,
            0x0400..=0x04FF => cyrillic += 1,
            0x0370..=0x03FF => greek += 1,
            _ if c.is_alphabetic() => latin += 1,
            _ => {}
        }
    }
    let by_script = [(kana, "ja"), (hangul, "ko"), (cyrillic, "ru"), (greek, "el")];
    if let Some((_, lang)) = by_script.iter().filter(|(n, _)| *n > 0).max_by_key(|(n, _)| *n) {
        return Some(lang);
    }
    if han > 0 {
        return Some("zh");
    }
    if latin == 0 {
        return None;
    }
    // An inverted question or exclamation mark is Spanish's alone.
    if query.contains(['¿', '¡']) {
        return Some("es");
    }
    by_common_words(query)
}

/// The Latin-script language with the most of its common words in `query`, if one has
/// more than any other.
fn by_common_words(query: &str) -> Option<&'static str> {
    let ws: Vec<String> = words(&fold(query));
    let counts: Vec<(usize, &str)> = COMMON
        .iter()
        .map(|(lang, common)| (ws.iter().filter(|w| common.contains(&w.as_str())).count(), *lang))
        .collect();
    let best = counts.iter().map(|c| c.0).max().unwrap_or(0);
    let mut leaders = counts.iter().filter(|c| c.0 == best);
    match (leaders.next(), leaders.next()) {
        (Some((n, lang)), None) if *n > 0 => Some(lang),
        _ => None,
    }
}

/// How a search treats languages: the one its pages should be in first, and whether it
/// keeps to that language's pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Preference {
    pub lang: &'static str,
    pub only: bool,
}

/// The preference for `query`: the named language, kept to, or the detected one, first.
pub(crate) fn preference(named: Option<&str>, query: &str) -> Option<Preference> {
    match named {
        Some(tag) => parse(tag).map(|lang| Preference { lang, only: true }),
        None => detect(query).map(|lang| Preference { lang, only: false }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_in_the_language_its_first_directory_names() {
        assert_eq!(of_page("/fr/guides/routing.md"), "fr");
        assert_eq!(of_page("/zh-cn/guides/routing.md"), "zh");
        assert_eq!(of_page("/pt-BR/start.mdx"), "pt");
        assert_eq!(of_page("/zh_hant/a.md"), "zh");
        assert_eq!(of_page("/ja/index.md"), "ja");
        assert_eq!(of_page("/guides/routing.md"), "en", "no language directory: the default");
        assert_eq!(of_page("/fr.md"), "en", "a page named like a language is not a directory");
        assert_eq!(of_page("/go/install.md"), "en", "not a language code");
        assert_eq!(of_page("/de-facto-standards/x.md"), "en", "a longer name is not a tag");
        assert_eq!(parse("pt-BR"), Some("pt"));
        assert_eq!(parse("klingon"), None);
    }

    #[test]
    fn a_question_is_in_the_language_its_script_or_words_say() {
        assert_eq!(detect("Astroでコンポーネントを作る方法"), Some("ja"));
        assert_eq!(detect("컴포넌트를 만드는 방법"), Some("ko"));
        assert_eq!(detect("如何创建组件"), Some("zh"));
        assert_eq!(detect("如何使用 API"), Some("zh"));
        assert_eq!(detect("как создать компонент"), Some("ru"));
        assert_eq!(detect("¿Cómo paso datos a un componente?"), Some("es"), "Spanish's own question mark");
        assert_eq!(detect("Comment créer une page dynamique ?"), Some("fr"));
        assert_eq!(detect("Où mettre une clé d'API pour qu'elle ne soit pas visible ?"), Some("fr"));
        assert_eq!(detect("¿Cómo puedo crear una página?"), Some("es"));
        assert_eq!(detect("Wie kann ich eine Seite erstellen"), Some("de"));
        assert_eq!(detect("How do I rotate my API keys"), Some("en"));
        assert_eq!(detect("api key rotate"), None, "no common word: no language");
        assert_eq!(detect("E401 42"), None);
    }

    #[test]
    fn a_named_language_keeps_to_its_pages() {
        assert_eq!(preference(Some("ja"), "how do I"), Some(Preference { lang: "ja", only: true }));
        assert_eq!(preference(None, "comment créer une page"), Some(Preference { lang: "fr", only: false }));
        assert_eq!(preference(None, "api key"), None);
    }
}
