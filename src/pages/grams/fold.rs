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
//! Unicode's own case tables would add some 27 KB to the module every host loads; the fold
//! is kept instead as runs of characters that fold by one offset ([`FOLDS`], a few KB), made
//! from those tables and checked against them for every character by the tests.
//!
//! The pieces are bytes of the folded text's UTF-8, three at a time: a character of a
//! script without spaces (Chinese, Japanese) is a piece on its own, and a literal shorter
//! than three bytes has none, so it cannot narrow a search.

use super::fold_table::FOLDS;
use std::collections::HashSet;

/// A piece of folded text: three bytes of its UTF-8.
pub(crate) type Gram = [u8; 3];

/// The letter every case form of `c` folds to (see the module's documentation).
pub(crate) fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let u = c as u32;
    let i = FOLDS.partition_point(|&(start, ..)| start <= u);
    let Some(&(start, count, stride, delta)) = i.checked_sub(1).map(|i| &FOLDS[i]) else { return c };
    let (offset, stride) = (u - start, u32::from(stride));
    if offset % stride != 0 || offset / stride >= u32::from(count) {
        return c;
    }
    char::from_u32(u.wrapping_add_signed(delta)).unwrap_or(c)
}

/// `text` folded, character by character.
pub(crate) fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.chars().map(fold_char).collect()
}

/// The distinct pieces of `text`, folded.
#[cfg(test)]
pub(crate) fn grams(text: &str) -> HashSet<Gram> {
    codes(text).into_iter().map(gram_of).collect()
}

/// The distinct pieces of `text`, folded, each as a number ([`code`]), in ascending order:
/// what an ingest collects for every page, sorted rather than hashed.
pub(crate) fn codes(text: &str) -> Vec<u32> {
    let folded = fold(text);
    let mut codes: Vec<u32> = folded.as_bytes().windows(3).map(code).collect();
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// A piece as a number: its three bytes, the first highest (so numbers sort as pieces do).
pub(crate) fn code(w: &[u8]) -> u32 {
    u32::from(w[0]) << 16 | u32::from(w[1]) << 8 | u32::from(w[2])
}

/// The piece a [`code`] stands for.
pub(crate) fn gram_of(code: u32) -> Gram {
    [(code >> 16) as u8, (code >> 8) as u8, code as u8]
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

    /// The fold as Unicode's case mappings give it, followed to a fixed point: lower case,
    /// upper case, lower case again, each time the first character of the mapping.
    fn unicode_fold(c: char) -> char {
        if c.is_ascii() {
            return c.to_ascii_lowercase();
        }
        let lower = |c: char| c.to_lowercase().next().unwrap_or(c);
        let upper = |c: char| c.to_uppercase().next().unwrap_or(c);
        let mut x = lower(c);
        for _ in 0..4 {
            let next = lower(upper(x));
            if next == x {
                break;
            }
            x = next;
        }
        x
    }

    /// The runs of characters `unicode_fold` moves by one offset: (first, count, stride, offset).
    fn runs() -> Vec<(u32, u8, u8, i32)> {
        let moved: Vec<(u32, i32)> = (0x80..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| unicode_fold(c) != c)
            .map(|c| (c as u32, unicode_fold(c) as i32 - c as i32))
            .collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < moved.len() {
            let (start, delta) = moved[i];
            let stride = match moved.get(i + 1) {
                Some(&(next, d)) if d == delta && next - start <= 2 => next - start,
                _ => 1,
            };
            let mut count = 1;
            while count < 255
                && moved.get(i + count).is_some_and(|&(u, d)| d == delta && u == start + stride * count as u32)
            {
                count += 1;
            }
            out.push((start, count as u8, stride as u8, delta));
            i += count;
        }
        out
    }

    #[test]
    fn the_runs_fold_every_character_as_unicode_s_case_mappings_do() {
        assert_eq!(
            FOLDS,
            runs().as_slice(),
            "fold_table.rs is out of date: `cargo test print_fold_table -- --ignored --nocapture`"
        );
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(fold_char(c), unicode_fold(c), "{c:?} U+{:04X}", c as u32);
        }
    }

    #[test]
    #[ignore = "prints src/pages/grams/fold_table.rs"]
    fn print_fold_table() {
        println!("//! Runs of characters that fold by one offset (see `fold`): generated from Unicode's case");
        println!("//! mappings by `cargo test print_fold_table -- --ignored --nocapture`, checked by `fold`'s tests.");
        println!();
        println!("/// (first character, characters, stride, offset), by first character.");
        println!("#[rustfmt::skip]");
        println!("pub(crate) const FOLDS: &[(u32, u8, u8, i32)] = &[");
        for chunk in runs().chunks(4) {
            let row: Vec<String> = chunk.iter().map(|(s, n, k, d)| format!("(0x{s:X}, {n}, {k}, {d})")).collect();
            println!("    {},", row.join(", "));
        }
        println!("];");
    }

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
