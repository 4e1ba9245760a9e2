//! UTF-8 validation that passes over ASCII sixteen bytes at a time.
//!
//! Answers from Chroma and pages of docs are nearly all ASCII, with a character beyond it
//! here and there (a dash, a quote, a name). `str::from_utf8` is built for size in the
//! wasm module, and its ASCII path goes a machine word at a time; [`text`] skips ASCII
//! with the module's 128-bit vectors and checks each character beyond ASCII on its own,
//! so that a whole answer can be validated once and parsed as text.

/// `bytes` as text when they are UTF-8: exactly when `str::from_utf8` accepts them.
pub(crate) fn text(bytes: &[u8]) -> Option<&str> {
    let mut i = 0;
    while i < bytes.len() {
        i = ascii_end(bytes, i);
        let Some(&lead) = bytes.get(i) else { break };
        let width = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return None,
        };
        // One character: `from_utf8` rejects overlong forms, surrogates and bad
        // continuation bytes, and a concatenation of valid characters is valid.
        std::str::from_utf8(bytes.get(i..i + width)?).ok()?;
        i += width;
    }
    // SAFETY: every byte was checked above, as ASCII or as part of a whole character.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The first position at or after `from` that does not hold an ASCII byte.
fn ascii_end(bytes: &[u8], mut i: usize) -> usize {
    i = blocks_end(bytes, i);
    while i < bytes.len() && bytes[i] < 0x80 {
        i += 1;
    }
    i
}

/// Past the whole sixteen-byte blocks of ASCII from `i`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn blocks_end(bytes: &[u8], mut i: usize) -> usize {
    use core::arch::wasm32::{u8x16_bitmask, v128_load};
    while i + 16 <= bytes.len() {
        // SAFETY: the sixteen bytes from `i` are in `bytes`; v128_load needs no alignment.
        let block = unsafe { v128_load(bytes.as_ptr().add(i).cast()) };
        if u8x16_bitmask(block) != 0 {
            break;
        }
        i += 16;
    }
    i
}

/// Past the whole sixteen-byte blocks of ASCII from `i`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn blocks_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(block) = bytes.get(i..i + 16) {
        let (a, b) = block.split_at(8);
        let word = |w: &[u8]| u64::from_le_bytes(w.try_into().unwrap_or([0xFF; 8]));
        if (word(a) | word(b)) & 0x8080_8080_8080_8080 != 0 {
            break;
        }
        i += 16;
    }
    i
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
}
