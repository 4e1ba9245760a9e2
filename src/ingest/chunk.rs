//! Chunking: pages cut into records that fit Chroma Cloud, on line boundaries.
//!
//! A chunk holds whole lines whenever a line fits (so a search may match chunk by chunk);
//! only a single line longer than the limit is cut, at a character boundary, and the
//! ingest records whether that happened.

/// Splits text into chunks of at most `max` bytes on line boundaries. Returns the chunks
/// and whether any line had to be cut.
pub(crate) fn chunk_lines(text: &str, max: usize) -> (Vec<&str>, bool) {
    let max = max.max(4);
    let mut chunks = Vec::new();
    let mut cut = false;
    let mut start = 0;
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        if end - start + line.len() <= max {
            end += line.len();
            continue;
        }
        if end > start {
            chunks.push(&text[start..end]);
            start = end;
        }
        if line.len() <= max {
            end += line.len();
            continue;
        }
        cut = true;
        let mut rest = line;
        while rest.len() > max {
            let mut at = max;
            while !rest.is_char_boundary(at) {
                at -= 1;
            }
            chunks.push(&rest[..at]);
            rest = &rest[at..];
        }
        start = end + line.len() - rest.len();
        end += line.len();
    }
    if end > start {
        chunks.push(&text[start..end]);
    }
    (chunks, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_keep_every_byte_and_whole_lines() {
        let text = "alpha\nbeta\ngamma delta\n\nepsilon";
        for max in [4, 6, 8, 12, 100] {
            let (chunks, _) = chunk_lines(text, max);
            assert_eq!(chunks.concat(), text, "max {max}");
            assert!(chunks.iter().all(|c| c.len() <= max), "max {max}: {chunks:?}");
        }
        let (chunks, cut) = chunk_lines(text, 12);
        assert!(!cut);
        assert_eq!(chunks, vec!["alpha\nbeta\n", "gamma delta\n", "\nepsilon"]);
    }

    #[test]
    fn long_lines_are_cut_at_char_boundaries() {
        let text = "short\n".to_string() + &"é".repeat(10) + "\nend\n";
        let (chunks, cut) = chunk_lines(&text, 7);
        assert!(cut);
        assert_eq!(chunks.concat(), text);
        assert!(chunks.iter().all(|c| c.len() <= 7));
        assert_eq!(chunks[0], "short\n");
    }

    #[test]
    fn empty_text_has_no_chunks() {
        assert_eq!(chunk_lines("", 10).0, Vec::<&str>::new());
    }
}
