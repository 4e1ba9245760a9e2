//! The text the grep index sees: case folded, then cut into three-byte pieces.
//!
//! The index answers "which pages may hold a match" for searches with and without `-i`
//! alike, so it keeps pages' text folded and looks up the pattern's literals folded the
//! same way: folding can only make more pages candidates, never fewer. Two characters
//! that any matcher here treats as the same letter under `-i` — GNU grep, ripgrep, the
//! JavaScript engine just-bash uses — must fold to one. Unicode's own case mappings do
//! that when followed to a fixed point: lower case, upper case, lower case again, each
//! time the first character of the mapping. `ſ` (long s), `S` and `s` meet at `s`; `K`
//! (the Kelvin sign) and `k` at `k`; `ς`, `σ` and `Σ` at `σ`; `İ`, `ı`, `I` and `i` at `i`;
//! `ß` and `ẞ` at `s`, which also takes in every `s`: more candidates, never a miss.
//!
//! The pieces are bytes of the folded text's UTF-8, three at a time: a character of a
//! script without spaces (Chinese, Japanese) is a piece on its own, and a literal shorter
//! than three bytes has none, so it cannot narrow a search.

use std::collections::HashSet;

/// A piece of folded text: three bytes of its UTF-8.
pub(crate) type Gram = [u8; 3];

/// The first character of `c`'s lower-case mapping.
fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// The first character of `c`'s upper-case mapping.
fn upper(c: char) -> char {
    c.to_uppercase().next().unwrap_or(c)
}

/// The letter every case form of `c` folds to (see the module's documentation).
pub(crate) fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let mut x = lower(c);
    // A mapping's chain ends in at most a few steps; four bounds it whatever the tables say.
    for _ in 0..4 {
        let next = lower(upper(x));
        if next == x {
            break;
        }
        x = next;
    }
    x
}

/// `text` folded, character by character.
pub(crate) fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.chars().map(fold_char).collect()
}

/// The distinct pieces of `text`, folded.
pub(crate) fn grams(text: &str) -> HashSet<Gram> {
    let folded = fold(text);
    folded.as_bytes().windows(3).map(|w| [w[0], w[1], w[2]]).collect()
}

/// The pieces of a literal every match holds, in order (repeats kept out), folded.
pub(crate) fn literal_grams(literal: &str) -> Vec<Gram> {
    let folded = fold(literal);
    let mut seen = HashSet::new();
    folded.as_bytes().windows(3).map(|w| [w[0], w[1], w[2]]).filter(|g| seen.insert(*g)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_form_folds_to_one_letter() {
        for class in [
            &['s', 'S', 'ſ'][..],
            &['k', 'K', '\u{212A}'],
            &['σ', 'ς', 'Σ'],
            &['i', 'I', 'İ', 'ı'],
            &['ß', 'ẞ'],
            &['é', 'É'],
            &['ǆ', 'ǅ', 'Ǆ'],
            &['ω', 'Ω', '\u{2126}'],
        ] {
            let folded: HashSet<char> = class.iter().map(|&c| fold_char(c)).collect();
            assert_eq!(folded.len(), 1, "{class:?} → {folded:?}");
        }
        assert_eq!(fold_char('ß'), fold_char('s'), "sharp s joins s: more candidates, never a miss");
        assert_ne!(fold_char('a'), fold_char('b'));
        assert_eq!(fold_char('日'), '日');
    }

    #[test]
    fn a_literal_s_pieces_are_among_the_text_s_whatever_the_case() {
        let text = "The ΣΊΣΥΦΟΣ and straße, KELVIN and \u{212A}elvin; İstanbul — 日本語のテキスト";
        let pieces = grams(text);
        for literal in ["σίσυφος", "STRASSE".get(0..5).unwrap(), "kelvin", "istanbul", "本語の", "THE"] {
            for g in literal_grams(literal) {
                assert!(pieces.contains(&g), "{literal:?}: {g:?}");
            }
        }
        assert!(literal_grams("ab").is_empty(), "shorter than three bytes: no piece");
        assert_eq!(literal_grams("日").len(), 1, "one CJK character is a piece");
        assert_eq!(literal_grams("aaaa"), vec![*b"aaa"], "repeats kept out");
    }
}
