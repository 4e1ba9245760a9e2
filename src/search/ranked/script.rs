//! Letters as the lexical ranking compares them, whatever the script.
//!
//! Chinese and Japanese write no spaces between words, and Korean attaches particles to
//! its words (`설정을`, "the setting" as an object): a run of such characters is one
//! "word" to a space-splitting tokenizer, which then matches nothing. Those characters
//! are counted in overlapping pairs instead (`設定方法` → `設定`, `定方`, `方法`), as
//! Lucene's CJK analyzer counts them: a question's pairs meet a page's pairs wherever
//! they share a word, with no dictionary (a segmenter's dictionaries would weigh more than
//! the whole filesystem module).
//!
//! Other letters are folded: to lower case, and without their accents, so `Configuración`,
//! `configuracion` and `CONFIGURACIÓN` are one word, as users type them with or without
//! accents. Latin letters with accents (Latin-1 and Latin Extended-A, which cover the
//! languages of Western and Central Europe) fold through a table of their own; `ß`, `æ`,
//! `œ` become `ss`, `ae`, `oe`; combining accents are dropped; full-width Latin letters
//! and digits (common in Japanese text) become ASCII.

/// Whether `c` is written without spaces around words, or with particles attached:
/// Han, Hiragana, Katakana and Hangul.
pub(super) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF // Hangul Jamo
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x3130..=0x318F // Hangul compatibility Jamo
        | 0x31F0..=0x31FF // Katakana phonetic extensions
        | 0x3400..=0x4DBF // Han extension A
        | 0x4E00..=0x9FFF // Han
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF // Han compatibility
        | 0xFF66..=0xFF9F // half-width Katakana
        | 0x20000..=0x2FFFF // Han extensions B–F
    )
}

/// Whether `c` is an accent written after its letter (combining diacritical marks).
pub(super) fn is_combining(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F)
}

/// Latin-1's letters U+00C0–U+00FF folded, upper and lower case alike; `*` marks the few
/// that fold to two letters or are not letters (`×`, `÷`).
const LATIN_1: &[u8; 64] = b"aaaaaa*ceeeeiiiidnooooo*ouuuuy**aaaaaa*ceeeeiiiidnooooo*ouuuuy*y";
/// Latin Extended-A, U+0100–U+017F, folded; `*` marks `Ĳ ĳ Œ œ`.
const LATIN_EXTENDED_A: &[u8; 128] = b"aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkkllllllllllnnnnnnnnnoooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

/// Appends `c` folded to `out`: lower case, accents off (see the module's doc).
pub(super) fn fold_into(c: char, out: &mut String) {
    let u = c as u32;
    match u {
        0..=0x7F => out.push(c.to_ascii_lowercase()),
        0xC0..=0xFF => match LATIN_1[(u - 0xC0) as usize] {
            b'*' => out.push_str(match c {
                'Æ' | 'æ' => "ae",
                'Þ' | 'þ' => "th",
                'ß' => "ss",
                _ => "",
            }),
            b => out.push(b as char),
        },
        0x100..=0x17F => match LATIN_EXTENDED_A[(u - 0x100) as usize] {
            b'*' => out.push_str(if matches!(c, 'Ĳ' | 'ĳ') { "ij" } else { "oe" }),
            b => out.push(b as char),
        },
        0x0300..=0x036F => {}
        // Full-width ASCII letters and digits.
        0xFF10..=0xFF19 | 0xFF21..=0xFF3A | 0xFF41..=0xFF5A => {
            out.push(char::from_u32(u - 0xFEE0).map_or(c, |a| a.to_ascii_lowercase()))
        }
        _ => out.push(lower(c)),
    }
}

/// `c` in lower case, for the cased alphabets docs are written in: Latin (to Latin
/// Extended-A), Greek, Cyrillic and Armenian. Unicode's own case tables would add more to
/// the module than the rest of the ranking's text handling; other letters stay as written.
pub(super) fn lower(c: char) -> char {
    let u = c as u32;
    let l = match u {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE => u + 0x20,
        0x100..=0x137 | 0x14A..=0x177 if u % 2 == 0 => u + 1,
        0x139..=0x148 | 0x179..=0x17E if u % 2 == 1 => u + 1,
        0x178 => 0xFF,
        0x391..=0x3A1 | 0x3A3..=0x3AB => u + 0x20,
        0x400..=0x40F => u + 0x50,
        0x410..=0x42F => u + 0x20,
        0x531..=0x556 => u + 0x30,
        _ => u,
    };
    char::from_u32(l).unwrap_or(c)
}

/// `word` folded (see [`fold_into`]).
pub(super) fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    word.chars().for_each(|c| fold_into(c, &mut out));
    out
}

/// Han characters that mostly join Chinese words rather than name a topic.
const FUNCTION_HAN: &str = "的了是在我你他她它把被为和与或及吗呢吧么如何怎样什哪里这那个要能会可以有给从到用将对于中";

/// Strings of three CJK characters from `query` for Chroma's substring filter, the most
/// telling first, at most `n`. Its full-text index works on three characters, so the
/// pairs that rank cannot ask it; a page that holds a word of the question holds its
/// three-character pieces. Kana that inflects and joins words (Hiragana) tells little, and
/// so do Chinese's commonest function characters ("how", "of", "in"…): the pieces with the
/// fewest of either come first, then in the question's order.
pub(super) fn probes(query: &str, n: usize) -> Vec<String> {
    let hiragana = |c: &&char| matches!(**c as u32, 0x3040..=0x309F) || FUNCTION_HAN.contains(**c);
    let mut found: Vec<(usize, usize, String)> = Vec::new();
    for run in query.split(|c: char| !is_cjk(c)) {
        let chars: Vec<char> = run.chars().collect();
        for w in chars.windows(3) {
            let probe: String = w.iter().collect();
            if !found.iter().any(|f| f.2 == probe) {
                found.push((w.iter().filter(hiragana).count(), found.len(), probe));
            }
        }
    }
    crate::base::sort::sort_by(&mut found, |a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    found.into_iter().take(n).map(|f| f.2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_fold_to_their_letters() {
        assert_eq!(fold("Configuración"), "configuracion");
        assert_eq!(fold("Élément ÇA où"), "element ca ou");
        assert_eq!(fold("Straße Œuvre Æsir"), "strasse oeuvre aesir");
        assert_eq!(fold("Łódź Příliš žluťoučký"), "lodz prilis zlutoucky");
        assert_eq!(fold("e\u{301}te\u{301}"), "ete", "combining accents are dropped");
        assert_eq!(fold("ＡＰＩ１２"), "api12", "full-width letters and digits");
        assert_eq!(fold("ΑΒΓ Привет"), "αβγ привет", "other scripts: lower case");
        assert_eq!(fold("×÷"), "");
        assert_eq!(fold("ñÑüÜ"), "nnuu");
    }

    #[test]
    fn the_tables_cover_their_ranges() {
        for u in 0xC0..=0x17Fu32 {
            let c = char::from_u32(u).unwrap();
            let f = fold(&c.to_string());
            assert!(f.is_ascii(), "U+{u:04X} {c} → {f}");
            if c.is_alphabetic() && !c.is_lowercase() && c.to_lowercase().count() == 1 {
                let lower = c.to_lowercase().next().unwrap();
                if (0xC0..=0x17F).contains(&(lower as u32)) {
                    assert_eq!(fold(&lower.to_string()), f, "{c} and {lower} fold alike");
                }
            }
        }
    }

    #[test]
    fn probes_are_the_telling_three_characters() {
        assert_eq!(probes("コンポーネントを作る", 3), ["コンポ", "ンポー", "ポーネ"]);
        assert_eq!(probes("설정", 3), Vec::<String>::new(), "two characters make no probe");
        assert_eq!(probes("api の設定方法は", 2), ["設定方", "定方法"]);
        assert_eq!(probes("如何为博客创建动态路由", 2), ["博客创", "客创建"], "how-to words come last");
        assert!(probes("plain english", 6).is_empty());
    }

    #[test]
    fn lower_case_agrees_with_unicode_where_it_applies() {
        let ranges = [0x41..=0x5A, 0xC0..=0x17F, 0x391..=0x3AB, 0x400..=0x42F, 0x531..=0x556];
        for u in ranges.into_iter().flatten().filter(|u| *u != 0x130) {
            let Some(c) = char::from_u32(u) else { continue };
            let mut unicode = c.to_lowercase();
            if unicode.len() == 1 {
                assert_eq!(lower(c), unicode.next().unwrap(), "U+{u:04X} {c}");
            }
        }
        assert_eq!(lower('字'), '字');
    }

    #[test]
    fn cjk_scripts_are_known() {
        assert!("設定方法をすべてカタカナ설정".chars().all(is_cjk));
        assert!(!"aé1_Жα".chars().any(is_cjk));
    }
}
