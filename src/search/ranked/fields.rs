//! The fields a chunk is scored on, BM25F-style: its text, its headings, its page's title
//! and its page's path.
//!
//! A page's title, its headings and its path name what the page is about in a few words;
//! a question's words found there say more than the same words in a paragraph. So a term
//! counts once in the text (as BM25 counts it) and again, weighed, for each time it is in
//! a heading line of the chunk (`# …`), in the page's title (front matter `title:` or
//! first heading, see [`heading_of`]) and in the page's path (`/deploy/docs-subpath.mdx`:
//! deploy, docs, subpath). The sum is BM25's term frequency; the length that scales it is
//! the text's alone. The title is known for the pages whose first chunk is among the
//! candidates (the words-only ranking reads every page, so knows them all).
//!
//! A heading counts once more ([`WEIGHTS`]); the title and the path, not at all. On the
//! project's English question set (bench/corpus/search-questions.json, all-MiniLM-L6-v2,
//! docs/concepts/ranked-search.md), a heading weight of 1 took the default ranking's hit@1
//! from 0.79 to 0.81 and left the words-only ranking's where it was (0.66); a title weight
//! of 1 did as much for the default ranking, but the title is known only for the pages whose
//! first chunk is among the candidates; a path weight of 1 added nothing; all three at 1,
//! or at 2, 2 and 1, took the words-only ranking's hit@1 to 0.63. No weight moved hit@5.

use super::chunks::Chunk;
use super::score::{count, Counted};
use crate::pages::heading::heading_of;
use std::collections::HashMap;

/// What a term counts in each field, beside its count in the text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Weights {
    pub heading: f64,
    pub title: f64,
    pub path: f64,
}

/// The weights ranking uses (see the module's doc).
pub(super) const WEIGHTS: Weights = Weights { heading: 1.0, title: 0.0, path: 0.0 };

/// Whether a chunk is the first of its page: it starts on line 1, or its id is chromafs's
/// `SLUG#0`.
pub(super) fn is_first(c: &Chunk) -> bool {
    c.start_line == Some(1) || c.id.ends_with("#0")
}

/// The title of each page whose first chunk is in `chunks`, by path.
pub(super) fn titles(chunks: &[Chunk]) -> HashMap<&str, String> {
    chunks.iter().filter(|c| is_first(c)).filter_map(|c| Some((c.path.as_str(), heading_of(&c.text).title?))).collect()
}

/// `c` counted for `terms` over its fields, its page titled `title` when known.
pub(super) fn counted(c: &Chunk, title: Option<&str>, terms: &[String], w: Weights) -> Counted {
    let mut counted = count(&c.text, terms);
    let mut add = |text: &str, weight: f64| {
        if weight == 0.0 || text.is_empty() {
            return;
        }
        for (tf, more) in counted.tf.iter_mut().zip(count(text, terms).tf) {
            *tf += weight * more;
        }
    };
    add(&headings(&c.text), w.heading);
    add(title.unwrap_or(""), w.title);
    add(&path_words(&c.path), w.path);
    counted
}

/// The heading lines of a Markdown text (`#` to `######` then a space), joined.
fn headings(text: &str) -> String {
    let heading = |l: &&str| {
        let l = l.trim_start();
        let hashes = l.bytes().take_while(|b| *b == b'#').count();
        (1..=6).contains(&hashes) && l[hashes..].starts_with(' ')
    };
    text.lines().filter(heading).collect::<Vec<_>>().join("\n")
}

/// A page's path as words: its directories and name, without the extension.
fn path_words(path: &str) -> String {
    let name_at = path.rfind('/').map_or(0, |i| i + 1);
    let stem = match path[name_at..].rfind('.') {
        Some(dot) if dot > 0 => &path[..name_at + dot],
        _ => path,
    };
    stem.replace(['/', '-', '.'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(id: &str, path: &str, start: u64, text: &str) -> Chunk {
        Chunk { id: id.into(), path: path.into(), lang: "en", text: text.into(), start_line: Some(start) }
    }

    fn terms(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_term_counts_again_in_headings_title_and_path() {
        let w = Weights { heading: 2.0, title: 3.0, path: 1.5 };
        let c = chunk("p#1", "/deploy/docs-subpath.mdx", 9, "## Subpath setup\n\nServe the docs at a subpath.\n");
        let q = terms(&["subpath", "vercel", "mdx"]);
        let n = counted(&c, Some("Vercel subpath"), &q, w);
        // subpath: 2 in the text, 1 in a heading, 1 in the title, 1 in the path.
        assert_eq!(n.tf, [2.0 + 2.0 + 3.0 + 1.5, 3.0, 0.0], "the extension is not a word of the path");
        assert_eq!(n.len, count(&c.text, &q).len, "the length is the text's");
        let plain = counted(&c, Some("Vercel subpath"), &q, Weights { heading: 0.0, title: 0.0, path: 0.0 });
        assert_eq!(plain.tf, count(&c.text, &q).tf, "no weight: BM25 over the text");
    }

    #[test]
    fn headings_are_markdown_heading_lines() {
        assert_eq!(headings("# A\ntext #b\n  ### C\n#hashtag\n####### seven\n"), "# A\n  ### C");
        assert_eq!(path_words("/a/b-c.d.md"), " a b c d");
        assert_eq!(path_words("/dir.v2/name"), " dir v2 name");
    }

    #[test]
    fn titles_come_from_first_chunks() {
        let chunks = [
            chunk("a.md#0", "/a.md", 1, "---\ntitle: Keys\n---\n# Other\n"),
            chunk("a.md#1", "/a.md", 9, "# Not the title\n"),
            chunk("b.md#2", "/b.md", 30, "# Section\n"),
        ];
        let t = titles(&chunks);
        assert_eq!(t.get("/a.md").map(String::as_str), Some("Keys"));
        assert_eq!(t.get("/b.md"), None, "a page whose first chunk is not at hand");
    }
}
