//! UTF-8 validation that passes over ASCII sixteen bytes at a time.
//!
//! Answers from Chroma and pages of docs are nearly all ASCII, with a character beyond it
//! here and there (a dash, a quote, a name). `str::from_utf8` is built for size in the
//! wasm module, and its ASCII path goes a machine word at a time; [`text`] skips ASCII
//! with the module's 128-bit vectors and hands `from_utf8` only the stretches around
//! characters beyond it, so that a whole answer can be validated once and parsed as text.

/// `bytes` as text when they are UTF-8: exactly when `str::from_utf8` accepts them.
pub(crate) fn text(bytes: &[u8]) -> Option<&str> {
    let mut i = 0;
    loop {
        i = ascii_end(bytes, i);
        if i >= bytes.len() {
            break;
        }
        // The stretch up to the next block of sixteen ASCII bytes goes to `from_utf8`
        // whole. That block's first byte is ASCII, so the stretch ends on a character's
        // end, and text made of valid stretches and ASCII is valid.
        let mut end = i + 16;
        while end < bytes.len() && !is_ascii_block(bytes, end) {
            end += 16;
        }
        let end = end.min(bytes.len());
        std::str::from_utf8(&bytes[i..end]).ok()?;
        i = end;
    }
    // SAFETY: every byte was checked above, as ASCII or in a stretch `from_utf8` accepted.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The first position at or after `i` that does not hold an ASCII byte.
fn ascii_end(bytes: &[u8], mut i: usize) -> usize {
    while is_ascii_block(bytes, i) {
        i += 16;
    }
    while i < bytes.len() && bytes[i] < 0x80 {
        i += 1;
    }
    i
}

/// Whether the sixteen bytes from `i` are all in `bytes` and all ASCII.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn is_ascii_block(bytes: &[u8], i: usize) -> bool {
    use core::arch::wasm32::{u8x16_bitmask, v128_load};
    if bytes.len() < 16 || i > bytes.len() - 16 {
        return false;
    }
    // SAFETY: the sixteen bytes from `i` are in `bytes`; v128_load needs no alignment.
    let block = unsafe { v128_load(bytes.as_ptr().add(i).cast()) };
    u8x16_bitmask(block) == 0
}

/// Whether the sixteen bytes from `i` are all in `bytes` and all ASCII.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn is_ascii_block(bytes: &[u8], i: usize) -> bool {
    let Some(block) = bytes.get(i..i.saturating_add(16)) else { return false };
    let (a, b) = block.split_at(8);
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().unwrap_or([0xFF; 8]));
    (word(a) | word(b)) & 0x8080_8080_8080_8080 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_standard_library() {
        let mut cases: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"plain ASCII, longer than one block of sixteen bytes".to_vec(),
            "a dash \u{2014} and a quote \u{201C}x\u{201D}, caf\u{E9}, \u{1F600}".as_bytes().to_vec(),
            "\u{65E5}\u{672C}\u{8A9E}\u{306E}\u{6587}\u{66F8}".repeat(9).into_bytes(),
        ];
        // Overlong, surrogate, out of range, stray continuation, cut short, lone lead.
        for bad in [&[0xC0, 0x80][..], &[0xED, 0xA0, 0x80], &[0xF4, 0x90, 0x80, 0x80], &[0x80], &[0xE2, 0x80], &[0xFF]]
        {
            for at in [0, 5, 16, 31] {
                let mut v = b"x".repeat(40);
                v.splice(at..at, bad.iter().copied());
                cases.push(v);
            }
        }
        for case in &cases {
            assert_eq!(text(case), std::str::from_utf8(case).ok(), "{case:?}");
        }
        // Every cut of a valid text, so that characters straddle the blocks.
        let long = "abc\u{E9}defghijklmn\u{2014}opqrstuvwxyz\u{1F600}0123456789".repeat(3);
        for end in 0..=long.len() {
            let b = &long.as_bytes()[..end];
            assert_eq!(text(b), std::str::from_utf8(b).ok(), "cut at {end}");
        }
    }

    #[test]
    fn agrees_on_mixed_text_and_random_damage() {
        let pieces = ["a", "plain words ", "\u{E9}", "\u{2014}", "\u{65E5}\u{672C}", "\u{1F600}", "\n"];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let mut v = Vec::new();
            for _ in 0..next() % 40 {
                v.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize].as_bytes());
            }
            if next() % 2 == 0 && !v.is_empty() {
                let at = (next() % v.len() as u64) as usize;
                v[at] = (next() & 0xFF) as u8;
            }
            assert_eq!(text(&v), std::str::from_utf8(&v).ok(), "{v:?}");
        }
    }
}
