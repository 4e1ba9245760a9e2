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
//! The pieces are bytes of the folded text's UTF-8, three at a time, each with the class of
//! the byte that follows it ([`CLASSES`] of them, the end of a text counted as a newline): a
//! character of a script without spaces (Chinese, Japanese) is a piece on its own, and a
//! literal shorter than three bytes has none, so it cannot narrow a search. The class is
//! what makes a short word precise: `saml` is `sam` followed by `l`'s class, where three
//! bytes alone would keep every page holding `same` and `yaml`. A literal's pieces are its
//! windows of four bytes; one of exactly three bytes asks for its bytes followed by any class.

use super::fold_table::FOLDS;
use std::collections::HashSet;

/// A piece of folded text: three bytes of its UTF-8, then the class of the byte after them.
pub(crate) type Gram = [u8; 4];

/// How many classes the byte after a piece falls in.
pub(crate) const CLASSES: u8 = 2;

/// The class of the byte after a piece (a fixed part of the index's format).
fn class_of(b: u8) -> u8 {
    ((u32::from(b) * 0x9E) >> 3) as u8 % CLASSES
}

/// The piece of folded bytes `b` at `i`: three bytes and the class of the next (a newline
/// past the end).
fn piece_at(b: &[u8], i: usize) -> Gram {
    [b[i], b[i + 1], b[i + 2], class_of(b.get(i + 3).copied().unwrap_or(b'\n'))]
}

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
    String::from_utf8(folded_bytes(text)).expect("folding keeps text UTF-8")
}

/// The UTF-8 of `text` folded: ASCII a byte at a time, where a page of English with one
/// dash or curly quote would otherwise be decoded and encoded again character by character.
fn folded_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    while let Some(&b) = text.as_bytes().get(at) {
        if b.is_ascii() {
            out.push(b.to_ascii_lowercase());
            at += 1;
            continue;
        }
        let c = text[at..].chars().next().expect("a character starts after the last one");
        out.extend_from_slice(fold_char(c).encode_utf8(&mut [0; 4]).as_bytes());
        at += c.len_utf8();
    }
    out
}

/// The distinct pieces of `text`, folded.
#[cfg(test)]
pub(crate) fn grams(text: &str) -> HashSet<Gram> {
    codes(text).into_iter().map(gram_of).collect()
}

/// The distinct pieces of `text`, folded, each as a number ([`code`]), in no particular
/// order: what an ingest collects for every page (the segment sorts them all at once). A
/// small open-addressing set keeps repeats out, where sorting each page's pieces was most of
/// the time an ingest spent on its index.
pub(crate) fn codes(text: &str) -> Vec<u32> {
    let folded = folded_bytes(text);
    let b = folded.as_slice();
    let n = b.len().saturating_sub(2);
    let size = (2 * n).next_power_of_two().max(16);
    let shift = 32 - size.trailing_zeros();
    // No piece's number is `u32::MAX` (a class is below 255): it marks a free slot.
    let mut seen = vec![u32::MAX; size];
    let mut out = Vec::with_capacity(n / 2);
    for i in 0..n {
        let c = code(&piece_at(b, i));
        let mut at = (c.wrapping_mul(0x9E37_79B1) >> shift) as usize;
        loop {
            if seen[at] == c {
                break;
            }
            if seen[at] == u32::MAX {
                seen[at] = c;
                out.push(c);
                break;
            }
            at = (at + 1) & (size - 1);
        }
    }
    out
}

/// A piece as a number, its first byte highest (so numbers sort as pieces do).
pub(crate) fn code(g: &Gram) -> u32 {
    u32::from_be_bytes(*g)
}

/// The piece a [`code`] stands for.
pub(crate) fn gram_of(code: u32) -> Gram {
    code.to_be_bytes()
}

/// What a page holding `literal` (in any case) holds: all of these sets of pieces, one of
/// each set — a piece for each window of four bytes of the folded literal (repeats kept
/// out), or for a literal of three bytes, its bytes followed by any class; nothing for a
/// shorter one.
pub(crate) fn literal_grams(literal: &str) -> Vec<Vec<Gram>> {
    let folded = fold(literal);
    let b = folded.as_bytes();
    if b.len() == 3 {
        return vec![(0..CLASSES).map(|c| [b[0], b[1], b[2], c]).collect()];
    }
    let mut seen = HashSet::new();
    (0..b.len().saturating_sub(3)).map(|i| piece_at(b, i)).filter(|g| seen.insert(*g)).map(|g| vec![g]).collect()
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
        for literal in ["σίσυφος", "STRASSE".get(0..5).unwrap(), "kelvin", "istanbul", "本語の", "THE", "テキスト"]
        {
            for one_of in literal_grams(literal) {
                assert!(one_of.iter().any(|g| pieces.contains(g)), "{literal:?}: {one_of:?}");
            }
        }
        assert!(literal_grams("ab").is_empty(), "shorter than three bytes: no piece");
        assert_eq!(literal_grams("日"), vec![(0..CLASSES).map(|c| [0xe6, 0x97, 0xa5, c]).collect::<Vec<_>>()]);
        assert_eq!(literal_grams("aaaaa").len(), 1, "repeats kept out");
        assert!(grams("xyz").contains(&[b'x', b'y', b'z', class_of(b'\n')]), "the end of a text is a newline");
    }

    #[test]
    fn a_text_s_pieces_are_each_there_once() {
        let text = "abcabcabc, ABC! Straße straße \0\0\0\0 日本語日本語";
        let mut got = codes(text);
        let n = got.len();
        got.sort_unstable();
        got.dedup();
        assert_eq!(got.len(), n, "no repeats");
        let folded = fold(text);
        let b = folded.as_bytes();
        let mut want: Vec<u32> = (0..b.len() - 2).map(|i| code(&piece_at(b, i))).collect();
        want.sort_unstable();
        want.dedup();
        assert_eq!(got, want);
        assert!(codes("ab").is_empty());
    }

    #[test]
    fn text_folded_byte_by_byte_is_text_folded_by_character() {
        for text in [
            "",
            "plain ASCII, UPPER and lower",
            "a dash — and ‘quotes’",
            "ÀÉÎ İSTANBUL ΣΊΣΥΦΟΣ ẞ \u{212A}",
            "日本語 ok",
        ] {
            let by_character: String = text.chars().map(fold_char).collect();
            assert_eq!(folded_bytes(text), by_character.into_bytes(), "{text}");
        }
    }

    #[test]
    fn the_byte_after_a_piece_tells_words_apart() {
        let same = grams("the same yaml file");
        let saml = literal_grams("SAML");
        assert!(saml.iter().all(|one_of| one_of.len() == 1));
        assert!(!saml.iter().all(|one_of| same.contains(&one_of[0])), "`sam` then `e` is not `sam` then `l`");
        assert!(saml.iter().all(|one_of| grams("Sign in with saml.").contains(&one_of[0])));
        let classes: HashSet<u8> = (b'a'..=b'z').map(class_of).collect();
        assert_eq!(classes.len(), usize::from(CLASSES), "letters fall in every class");
    }
}
