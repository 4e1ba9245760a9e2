//! The long texts the commands print, stored deflated (see `build.rs`, which packs them
//! from their `.txt` files) and inflated when one is asked for.

/// One text: its byte range in the inflated block.
#[derive(Clone, Copy)]
pub(crate) struct Text(usize, usize);

include!(concat!(env!("OUT_DIR"), "/texts.rs"));

const PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texts.deflate"));

/// The text, inflated.
pub(crate) fn get(text: Text) -> String {
    let all = miniz_oxide::inflate::decompress_to_vec_with_limit(PACKED, usize::MAX).expect("texts packed by build.rs");
    // Every range starts and ends at a file's boundary, so it holds whole UTF-8 text.
    String::from_utf8_lossy(&all[text.0..text.1]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_inflates_to_its_file() {
        let files = [
            (RG_TYPES, include_str!("../search/native/rg-types.txt")),
            (RG_VERSION, include_str!("../search/native/rg-version.txt")),
            (GREP_HELP, include_str!("../search/args/grep-help.txt")),
            (GREP_VERSION, include_str!("../search/args/grep-version.txt")),
            (DU_VERSION, include_str!("../commands/du-version.txt")),
            (FIND_VERSION, include_str!("../commands/find-version.txt")),
            (LS_VERSION, include_str!("../commands/ls-version.txt")),
        ];
        for (text, file) in files {
            assert_eq!(get(text), file);
        }
    }
}
