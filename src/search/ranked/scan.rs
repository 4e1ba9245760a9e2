//! Ranking from the pages themselves, for a session Chroma cannot scope.
//!
//! On a collection whose chunks carry no access (written by another tool and not
//! annotated), Chroma answers a full-text or nearest-neighbour request for every chunk,
//! hidden pages' included: how many requests a search takes, how long it waits, and which
//! visible chunks make the 300 an answer holds would all depend on text the session may
//! not read. So a session with hidden pages reads its scope instead, as grep does
//! (`searchHiddenTextCost: "accept"` trades this for speed): the visible pages under the
//! directory searched, in order, through the page store (which reads ahead in bulk), each
//! cut into pieces of whole lines as the ingest cuts chunks, ranked by BM25 alone. What
//! that costs depends on the visible pages only.
//!
//! Only what ranks is kept while reading (a piece's term counts, not its text), so a scope
//! of any size takes memory for its candidates' counts alone; the few pages shown are read
//! again, from memory when the cache still holds them, for their lines and snippets.

use super::chunks::Chunk;
use super::score;
use crate::pages::store::{LoadError, PageRef, Source};
use crate::search::view::SessionView;
use std::fmt;

/// The most bytes of a piece: the ingest's chunk size.
const PIECE_BYTES: usize = 4096;

/// A page of the scope that could not be read.
#[derive(Debug)]
pub(crate) struct ScanError {
    pub path: String,
    pub error: LoadError,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.error)
    }
}

/// Where a piece that holds a term is: its page, its place in the page, and how many of
/// the query's identifiers it holds.
struct Place {
    page: usize,
    index: usize,
    identifiers: usize,
}

/// A page cut into pieces of whole lines of at most [`PIECE_BYTES`] (a longer line is a
/// piece of its own), each with the line it starts on.
fn pieces(text: &str) -> Vec<(u64, &str)> {
    let mut out = Vec::new();
    let (mut start, mut line, mut first_line) = (0, 1u64, 1u64);
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        if at > start && at + l.len() - start > PIECE_BYTES {
            out.push((first_line, &text[start..at]));
            (start, first_line) = (at, line);
        }
        at += l.len();
        line += 1;
    }
    if at > start {
        out.push((first_line, &text[start..at]));
    }
    out
}

/// The `k` best pages under `dir` for `terms`, read from the pages: each page's best piece
/// as a chunk, best first, with its score; the best piece's coverage of the terms, and
/// whether a piece holds one of their identifiers (see [`super::floor`]).
pub(super) async fn best(
    view: SessionView<'_>,
    dir: &str,
    terms: &[String],
    k: usize,
) -> Result<(Vec<(Chunk, f64)>, f64, bool), ScanError> {
    let pages: Vec<(String, PageRef)> = view
        .files_under(dir)
        .into_iter()
        .filter_map(|p| Some((p.clone(), view.page(&p)?)))
        .filter(|(_, p)| matches!(p.source, Source::Chunks { .. }))
        .collect();
    view.store().plan_reads(pages.iter().map(|(_, p)| p.clone()).collect());
    let (mut counted, mut places) = (Vec::new(), Vec::new());
    let weights = super::fields::WEIGHTS;
    let mut total = 0u64;
    for (i, (path, page)) in pages.iter().enumerate() {
        let bytes = read(view, path, page).await?;
        let text = String::from_utf8_lossy(&bytes);
        let title = crate::pages::heading::heading_of(&text).title;
        for (index, (line, piece)) in pieces(&text).into_iter().enumerate() {
            total += 1;
            let chunk = Chunk {
                id: String::new(),
                path: path.clone(),
                lang: "",
                text: piece.to_string(),
                start_line: Some(line),
            };
            let c = super::fields::counted(&chunk, title.as_deref(), terms, weights);
            if c.holds_any() {
                counted.push(c);
                places.push(Place { page: i, index, identifiers: score::identifiers_held(piece, terms) });
            }
        }
    }
    view.store().clear_plan();
    let coverage = super::floor::coverage(&counted, terms.len(), total as f64);
    let identifier = places.iter().any(|p| p.identifiers > 0);
    // As the hybrid search ranks: by rank fused (one ranking here), then identifiers first.
    let mut ranked: Vec<(usize, f64)> = score::bm25_counted(&counted, terms.len(), total as f64)
        .into_iter()
        .enumerate()
        .map(|(rank, (i, _))| (i, score::rrf(rank)))
        .collect();
    crate::base::sort::sort_by(&mut ranked, |a, b| places[b.0].identifiers.cmp(&places[a.0].identifiers));
    let mut shown: Vec<(usize, usize, f64)> = Vec::new();
    for (i, s) in ranked {
        if shown.len() == k {
            break;
        }
        let place = &places[i];
        if !shown.iter().any(|(page, _, _)| *page == place.page) {
            shown.push((place.page, place.index, s + place.identifiers as f64));
        }
    }
    let mut out = Vec::new();
    for (page, index, s) in shown {
        let (path, page_ref) = &pages[page];
        let bytes = read(view, path, page_ref).await?;
        let text = String::from_utf8_lossy(&bytes);
        if let Some((line, piece)) = pieces(&text).into_iter().nth(index) {
            let chunk = Chunk {
                id: format!("{path}#{index}"),
                path: path.clone(),
                lang: super::lang::of_page(view.unmounted(path)),
                text: piece.to_string(),
                start_line: Some(line),
            };
            out.push((chunk, s));
        }
    }
    Ok((out, coverage, identifier))
}

async fn read(view: SessionView<'_>, path: &str, page: &PageRef) -> Result<std::rc::Rc<[u8]>, ScanError> {
    view.store().read(page).await.map_err(|error| ScanError { path: path.to_string(), error })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_cut_into_whole_lines() {
        assert_eq!(pieces("a\nb\n"), [(1, "a\nb\n")]);
        assert_eq!(pieces(""), Vec::<(u64, &str)>::new());
        let long = "x".repeat(3000) + "\n";
        let text = format!("{long}{long}{long}tail");
        let cut = pieces(&text);
        assert_eq!(cut.iter().map(|(l, p)| (*l, p.len())).collect::<Vec<_>>(), [(1, 3001), (2, 3001), (3, 3005)]);
        assert_eq!(cut.iter().map(|(_, p)| *p).collect::<String>(), text, "nothing lost or added");
        let huge = "y".repeat(10_000);
        assert_eq!(pieces(&huge), [(1, huge.as_str())], "a line longer than a piece is one piece");
    }
}
