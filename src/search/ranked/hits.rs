//! Hits: the best pages, each with the lines of its best chunk and a line to show.
//!
//! A page ranks by its best chunk. The lines come from the chunk's `start_line` (written
//! by `chromafs ingest`) and the newlines in its text, so a hit costs no read of its page;
//! for collections without `start_line` the shown pages are loaded together (one bulk
//! read) and each chunk is found in its page. A chunk that cannot be found there (the page
//! changed since) is shown by its path alone, never with lines that may be wrong.
//!
//! Each hit carries its page's title, read from the page's first chunk: the search's own
//! candidates often hold it; the rest are asked for together, in one request.

use super::chunks::Chunk;
use super::words::each_word;
use super::RankError;
use crate::chroma::ChromaError;
use crate::pages::heading::heading_of;
use crate::pages::store::Source;
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
/// loaded together) and their titles (see [`titles`]).
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
    let paths: Vec<&str> = best.iter().map(|(c, _)| c.path.as_str()).collect();
    let mut titles = titles(view, &paths, pool).await.map_err(RankError::Chroma)?.into_iter();
    Ok(best
        .iter()
        .map(|(c, score)| {
            let start = c.start_line.or_else(|| start_in_page(view, c));
            let lines = start.map(|s| (s, s + extra_lines(&c.text)));
            let title = titles.next().flatten();
            let version = view.version_of(&c.path).map(str::to_string);
            Hit { path: c.path.clone(), lines, score: *score, snippet: snippet(&c.text, start, terms), title, version }
        })
        .collect())
}

/// Each page's title (see [`heading_of`]), in the order of `paths`: from its first chunk
/// when the search already holds it (`pool`), else from the page when the store holds it,
/// else from its first chunk, asked of Chroma for all such pages in one request (unless
/// the command has no request left to spend: then they have none).
async fn titles(view: SessionView<'_>, paths: &[&str], pool: &[Chunk]) -> Result<Vec<Option<String>>, ChromaError> {
    let at_hand = |path: &str| {
        if let Some(c) = pool.iter().find(|c| c.path == path && super::fields::is_first(c)) {
            return Some(heading_of(&c.text).title);
        }
        let page = view.page(path)?;
        let cached = view.store().cached(&page.key)?;
        Some(heading_of(cached.as_str()?).title)
    };
    let mut found: Vec<Option<Option<String>>> = paths.iter().map(|p| at_hand(p)).collect();
    let slugs: Vec<(usize, String)> = paths
        .iter()
        .enumerate()
        .filter(|(i, _)| found[*i].is_none())
        .filter_map(|(i, p)| match view.page(p)?.source {
            Source::Chunks { slug, .. } => Some((i, slug.to_string())),
            _ => None,
        })
        .collect();
    // A command's budget of requests spent: the titles are left out rather than the search failed.
    if !slugs.is_empty() && view.requests_left() != Some(0) {
        let asked: Vec<String> = slugs.iter().map(|(_, s)| s.clone()).collect();
        let collection = view.collection();
        let resp = collection.first_chunks(&asked, "the titles of a ranked search's pages").await?;
        for r in 0..resp.ids.len() {
            let Some(slug) = collection.schema().slug_of(&resp, r) else { continue };
            let Some((i, _)) = slugs.iter().find(|(_, s)| s == slug) else { continue };
            if found[*i].is_none() {
                found[*i] = Some(resp.document(r).and_then(|text| heading_of(text).title));
            }
        }
    }
    Ok(found.into_iter().map(Option::flatten).collect())
}

/// Where a chunk starts in its page, read from the page in memory.
fn start_in_page(view: SessionView<'_>, c: &Chunk) -> Option<u64> {
    let page = view.page(&c.path)?;
    let cached = view.store().cached(&page.key)?;
    let text = cached.as_str()?;
    let at = text.find(c.text.as_str())?;
    Some(1 + text[..at].matches('\n').count() as u64)
}

/// The chunk's line with the most of the query's terms (the first non-blank one when none
/// has any), cut to [`SNIPPET_CHARS`].
fn snippet(text: &str, start: Option<u64>, terms: &[String]) -> Option<(Option<u64>, String)> {
    let score = |line: &str| {
        let mut n = 0;
        each_word(line, |w| n += usize::from(terms.iter().any(|t| t == w)));
        n
    };
    let lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (score(l), i, l));
    // The first of the lines with the most terms.
    let (_, i, line) = lines.max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))?;
    let line = line.trim();
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
    }
}
