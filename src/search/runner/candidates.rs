//! Which pages of a narrowed search may match: from the grep index when the session's tree
//! names one that can say (see [`indexed`]), else from Chroma's coarse query (see
//! [`coarse`]), or none when the session may not ask Chroma (its answer would depend on
//! hidden text) and reads its scope instead.

use super::{chunk_count, chunk_slug};
use crate::base::hash::PathSet;
use crate::fs::stats::CommandStats;
use crate::pages::store::{PageRef, Source};
use crate::search::coarse::{self, Found, SearchScope};
use crate::search::indexed::{self, Indexed, Numbered};
use crate::search::plan::Narrowing;
use crate::search::view::{common_dir, SessionView};

/// Why a search read its scope whole instead of asking Chroma which pages match.
pub(super) const UNSCOPED_NOTE: &str = "the session has hidden pages and the collection's chunks carry no access, so Chroma was not asked which pages match (its answer would depend on hidden text): the scope was read whole; run `chromafs annotate` on the collection to search it with one query";

/// What a search narrowed by the grep index says it did.
const INDEX_NOTE: &str = "the grep index chose the pages that may match: Chroma filtered no text";

/// The pages of a narrowed search that may match.
pub(super) enum Hits {
    /// By their numbers in the grep index.
    Numbered(Numbered),
    /// By their slugs, from Chroma's coarse query.
    Slugs(PathSet<String>),
}

impl Hits {
    /// Whether `page` may match. Pages not in Chroma (a host's files, broken entries) are
    /// read to tell.
    pub(super) fn holds(&self, page: &PageRef) -> bool {
        match (&page.source, self) {
            (Source::Chunks { number: Some(n), .. }, Hits::Numbered(set)) => set.holds(*n),
            (Source::Chunks { slug, .. }, Hits::Slugs(slugs)) => slugs.contains(&**slug),
            // The index answers only for scopes whose pages it numbers all.
            (Source::Chunks { number: None, .. }, Hits::Numbered(_)) => true,
            (Source::Lazy(_) | Source::Corrupt(_), _) => true,
        }
    }
}

/// Which of `files` may match: from the grep index when it can say, else from Chroma's
/// coarse query; `None` when the search reads them all (the pattern matches most of them,
/// or the session may not ask), or the coarse query's failure.
pub(super) async fn which_pages(
    view: SessionView<'_>,
    files: &[(&str, PageRef)],
    n: &Narrowing,
    cs: &mut CommandStats,
) -> Result<Option<Hits>, String> {
    let before = view.requests();
    let pages: Vec<&PageRef> = files.iter().map(|(_, p)| p).collect();
    let index_failed = match indexed::candidates(view, &pages, &n.matcher.required).await {
        Indexed::Pages(found) => {
            cs.coarse_requests = view.requests() - before;
            cs.index = true;
            cs.note = Some(INDEX_NOTE.into());
            return Ok(Some(Hits::Numbered(found)));
        }
        Indexed::Unused => None,
        Indexed::Failed(e) => Some(e),
    };
    let Some(collection) = view.coarse() else {
        // Chroma would answer for hidden chunks too: how many hits, how many pages of
        // them, would tell the session about text it may not read. Read the scope instead.
        cs.note = Some(UNSCOPED_NOTE.into());
        return Ok(None);
    };
    let slugs: PathSet<&str> = files.iter().filter_map(|(_, p)| chunk_slug(p)).collect();
    let scope = SearchScope {
        slugs: &slugs,
        dir: view.chunks_have_dirs().then(|| {
            view.chunk_dir(&common_dir(files.iter().filter(|(_, p)| chunk_slug(p).is_some()).map(|(path, _)| *path)))
        }),
        chunks: files.iter().filter(|(_, p)| chunk_slug(p).is_some()).map(|(_, p)| chunk_count(p)).sum(),
    };
    let found = coarse::candidates(collection, &scope, &n.matcher.filter).await;
    cs.coarse_requests = view.requests() - before;
    if let Some(e) = index_failed {
        cs.note = Some(format!("the grep index did not read ({e}): Chroma was asked which pages match"));
    }
    match found {
        Ok(Found::Pages { slugs, matches }) => {
            cs.coarse_matches = matches as u64;
            Ok(Some(Hits::Slugs(slugs)))
        }
        Ok(Found::MostOfScope { matches }) => {
            cs.coarse_matches = matches as u64;
            cs.note = Some("the pattern matches most of the scope: loaded whole and checked here".into());
            Ok(None)
        }
        Err(e) => Err(e.to_string()),
    }
}
