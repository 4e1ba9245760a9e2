//! A small scope read whole instead of asked about.
//!
//! Asking Chroma which pages may match costs a text filter whose price follows the
//! collection, not the scope: single-node Chroma scans every document of its database
//! for each `$contains` or `$regex` (at 50,000 pages, 0.3–0.5 s a query however small
//! the directory searched), and Cloud's trigram index grows with the collection too.
//! Reading a scope costs what the scope holds. So when the search's scope is a small part
//! of the collection (an eighth of its visible pages at most) and what of it is not in
//! memory yet comes to at most two rounds of reads by id, a quarter of the page cache and
//! half of what the command may still send, the scope is loaded whole and the search is
//! answered from memory: a round of reads sent together instead of a text filter and then
//! the candidates, and the next search of the same directory in this session asks Chroma
//! nothing at all. A search piped into `head` tries its first pages before this: a common
//! word fills `head` from a small load.

use crate::chroma::MAX_PAGE;
use crate::commands::Printed;
use crate::fs::stats::{CommandStats, PlanKind};
use crate::pages::collection::WINDOWS;
use crate::pages::store::{PageRef, PrefetchError, Source};
use crate::search::native::Native;
use crate::search::view::SessionView;

/// A scope is small beside its collection when it holds at most this share of the
/// collection's visible pages (1 / this).
const SMALL_SHARE: usize = 8;

/// Chunk records a scope may still need from Chroma to be read whole: two rounds of
/// parallel reads by id.
const MOST_CHUNKS: u64 = 2 * (MAX_PAGE * WINDOWS) as u64;

/// The page cache a scope read whole may fill (1 / this of it), so that it stays there
/// for the searches after it.
const CACHE_SHARE: u64 = 4;

/// Whether the pages a search reads are a small scope worth reading whole.
fn small_scope(view: SessionView<'_>, pages: &[PageRef]) -> bool {
    if pages.is_empty() || pages.len().saturating_mul(SMALL_SHARE) > view.visible_pages() {
        return false;
    }
    let store = view.store();
    let bytes: u64 = pages.iter().map(|p| store.size_of(p)).sum();
    let mut chunks = 0u64;
    for page in pages.iter().filter(|p| !store.is_held(p)) {
        match page.source {
            Source::Chunks { count: Some(count), by_id: true, .. } => chunks += count,
            // Read by slug, eight pages a request, or a host's own file: not cheap to read
            // ahead of the coarse query.
            _ => return false,
        }
    }
    // A command held to a few requests (an edge runtime's subrequests) keeps most of them
    // for the rest of its command line: the coarse query costs one or two.
    let requests = chunks.div_ceil(MAX_PAGE as u64) + 1;
    let affordable = view.requests_left().is_none_or(|left| requests.saturating_mul(2) <= left);
    chunks <= MOST_CHUNKS && bytes <= store.capacity() as u64 / CACHE_SHARE && affordable
}

/// The search answered from its scope loaded whole, when that is the cheaper way (see the
/// module's documentation): `None` to plan it as usual, or the load that failed. `pages`
/// are the pages it reads.
pub(super) async fn read_whole(
    view: SessionView<'_>,
    grep: &Native,
    pages: &[PageRef],
    wanted: Option<usize>,
    cs: &mut CommandStats,
) -> Option<Result<Printed, (String, PrefetchError)>> {
    if !small_scope(view, pages) {
        return None;
    }
    let before = view.requests();
    let loaded = view.store().prefetch(pages).await;
    cs.prefetch_requests += view.requests() - before;
    cs.scope = pages.len() as u64;
    if let Err(e) = loaded {
        cs.note = Some(format!("stopped: {e}"));
        return Some(Err((super::shown(grep.paths()), e)));
    }
    let printed = grep.run(view, wanted).await?;
    cs.native = true;
    cs.plan = PlanKind::Prefetch;
    cs.note = Some(
        "a small part of the collection: read whole and searched here instead of asking Chroma which pages match"
            .into(),
    );
    Some(Ok(printed))
}
