//! Hits: the best pages, each with the lines of its best chunk and a line to show.
//!
//! A page ranks by its best chunk. The lines come from the chunk's `start_line` (written
//! by `chromafs ingest`) and the newlines in its text, so a hit costs no read of its page;
//! for collections without `start_line` the shown pages are loaded together (one bulk
//! read) and each chunk is found in its page. A chunk that cannot be found there (the page
//! changed since) is shown by its path alone, never with lines that may be wrong.
//!
//! Each hit carries its page's title when the search holds the page's first chunk among its
//! candidates, or the page is in memory; no request is sent for a title alone.

use super::chunks::Chunk;
use super::words::each_word;
use super::RankError;
use crate::pages::heading::heading_of;
use crate::search::native::searcher::{self, Lines, Sink, Window};
use crate::search::view::SessionView;

/// The most characters of a snippet.
const SNIPPET_CHARS: usize = 160;

/// One page found by a ranked search.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hit {
    pub path: String,
    /// The first and last line of the best chunk, when known.
    pub lines: Option<(u64, u64)>,
    pub score: f64,
    /// The chunk's line that holds the most of the query's terms (its number, when known).
    pub snippet: Option<(Option<u64>, String)>,
    /// What the page says it is: its front matter's `title:`, else its first heading.
    pub title: Option<String>,
    /// The version of the docs the page belongs to, when it belongs to one.
    pub version: Option<String>,
}

/// Lines a chunk spans past its first: its newlines, not counting a last one.
fn extra_lines(text: &str) -> u64 {
    let n = text.matches('\n').count() as u64;
    n - u64::from(text.ends_with('\n') && n > 0)
}

/// The best pages, best first: each page scored by its best chunk. `fused` is best
/// first, so a page's first chunk in it is its best.
pub(super) fn best_pages<'c>(chunks: &'c [Chunk], fused: &[(&str, f64)], k: usize) -> Vec<(&'c Chunk, f64)> {
    let mut pages: Vec<(&Chunk, f64)> = Vec::new();
    for (id, score) in fused {
        if pages.len() == k {
            break;
        }
        let Some(c) = chunks.iter().find(|c| c.id == *id) else { continue };
        if !pages.iter().any(|(p, _)| p.path == c.path) {
            pages.push((c, *score));
        }
    }
    pages
}

/// The hits for the best pages, with their lines (from `start_line`, else from the pages,
/// loaded together) and their titles when at hand (see [`title`]).
pub(super) async fn hits(
    view: SessionView<'_>,
    best: &[(&Chunk, f64)],
    pool: &[Chunk],
    terms: &[String],
) -> Result<Vec<Hit>, RankError> {
    let unknown: Vec<_> =
        best.iter().filter(|(c, _)| c.start_line.is_none()).filter_map(|(c, _)| view.page(&c.path)).collect();
    if !unknown.is_empty() {
        view.store().prefetch(&unknown).await.map_err(RankError::Load)?;
    }
    Ok(best
        .iter()
        .map(|(c, score)| {
            let start = c.start_line.or_else(|| start_in_page(view, c));
            let lines = start.map(|s| (s, s + extra_lines(&c.text)));
            let title = title(view, &c.path, pool);
            let version = view.version_of(&c.path).map(str::to_string);
            Hit { path: c.path.clone(), lines, score: *score, snippet: snippet(&c.text, start, terms), title, version }
        })
        .collect())
}

/// A page's title (see [`heading_of`]) when it is at hand: from its first chunk when the
/// search already holds it (`pool`), else from the page when the store holds it in memory.
/// Never asked of Chroma: a search's requests stay those its ranking needs, and a title
/// not at hand is unknown (`None`).
fn title(view: SessionView<'_>, path: &str, pool: &[Chunk]) -> Option<String> {
    if let Some(c) = pool.iter().find(|c| c.path == path && super::fields::is_first(c)) {
        return heading_of(&c.text).title;
    }
    let page = view.page(path)?;
    let cached = view.store().cached(&page.key)?;
    heading_of(cached.as_str()?).title
}

/// Where a chunk starts in its page, read from the page in memory.
fn start_in_page(view: SessionView<'_>, c: &Chunk) -> Option<u64> {
    let page = view.page(&c.path)?;
    let cached = view.store().cached(&page.key)?;
    let text = cached.as_str()?;
    let at = text.find(c.text.as_str())?;
    Some(1 + text[..at].matches('\n').count() as u64)
}

/// The snippet's sink: of the lines the searcher selects (those not blank), the first with
/// the most of the query's terms.
struct Best<'a, F: Fn(&str) -> usize> {
    lines: &'a Lines<'a>,
    score: F,
    /// The best line so far: its score and its index.
    best: Option<(usize, usize)>,
}

impl<F: Fn(&str) -> usize> Sink for Best<'_, F> {
    fn matched(&mut self, i: usize) -> bool {
        let n = (self.score)(self.lines.lines[i]);
        if self.best.is_none_or(|(most, _)| n > most) {
            self.best = Some((n, i));
        }
        true
    }
    fn context(&mut self, _: usize) {}
}

/// The chunk's line with the most of the query's terms (the first non-blank one when none
/// has any), cut to [`SNIPPET_CHARS`].
fn snippet(text: &str, start: Option<u64>, terms: &[String]) -> Option<(Option<u64>, String)> {
    let score = |line: &str| {
        let mut n = 0;
        each_word(line, |w| n += usize::from(terms.iter().any(|t| t == w)));
        n
    };
    let lines = Lines::split(text, b'\n');
    let mut best = Best { lines: &lines, score, best: None };
    let window = Window { before: 0, after: 0, limit: u64::MAX, separated: false };
    searcher::search(lines.lines.len(), |i| !lines.lines[i].trim().is_empty(), window, &mut best);
    let (_, i) = best.best?;
    let line = lines.lines[i].trim();
    let shown: String = line.chars().take(SNIPPET_CHARS).collect();
    let shown = if shown.len() < line.len() { format!("{shown}…") } else { shown };
    Some((start.map(|s| s + i as u64), shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(id: &str, path: &str, text: &str) -> Chunk {
        Chunk { id: id.into(), path: path.into(), lang: "en", text: text.into(), start_line: Some(10) }
    }

    #[test]
    fn a_chunk_spans_its_lines() {
        assert_eq!(extra_lines("one\ntwo\n"), 1);
        assert_eq!(extra_lines("one\ntwo"), 1);
        assert_eq!(extra_lines("one"), 0);
        assert_eq!(extra_lines("\n"), 0);
    }

    #[test]
    fn a_page_ranks_by_its_best_chunk() {
        let chunks = [chunk("a#0", "/a.md", "x"), chunk("a#1", "/a.md", "y"), chunk("b#0", "/b.md", "z")];
        let fused = [("a#1", 0.5), ("b#0", 0.3), ("a#0", 0.1)];
        let best = best_pages(&chunks, &fused, 10);
        assert_eq!(best.iter().map(|(c, _)| c.id.as_str()).collect::<Vec<_>>(), ["a#1", "b#0"]);
        assert_eq!(best_pages(&chunks, &fused, 1).len(), 1);
    }

    #[test]
    fn the_snippet_is_the_line_with_most_terms() {
        let terms = vec!["rotate".to_string(), "key".to_string()];
        let text = "# Keys\n\nYou can rotate keys here.\nOther text\n";
        assert_eq!(snippet(text, Some(5), &terms), Some((Some(7), "You can rotate keys here.".into())));
        assert_eq!(snippet("\n  intro  \n", None, &terms), Some((None, "intro".into())));
        let long = "key ".repeat(100);
        assert!(snippet(&long, None, &terms).unwrap().1.ends_with('…'));
        let crlf = "one\r\n\r\nrotate the key\r\nkey\r\n";
        assert_eq!(
            snippet(crlf, Some(1), &terms),
            Some((Some(3), "rotate the key".into())),
            "CRLF lines, ties to the first"
        );
        assert_eq!(snippet(" \n\t\n", None, &terms), None, "blank lines give no snippet");
    }
}
