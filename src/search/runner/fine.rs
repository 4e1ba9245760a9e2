//! The fine check: candidates loaded in batches that fit the page cache, each page checked
//! against what the pattern's matches must hold before the next batch is loaded, so a
//! search never needs more memory than the cache, whatever its size.
//!
//! A search whose candidates are known only roughly (the grep index's, or a whole scope)
//! may find, once the first pages are in memory, that its candidates hold more than the
//! cache: pages the size of those it has seen, where the tree gave no sizes. Checking on
//! would load each page twice, now and again when the command reads it after later
//! batches evicted it; so it stops there and leaves the rest to the command, which reads
//! ahead as it goes. Where nothing says how large pages are, and the guess leaves the
//! cache little room to spare, the first batch is one request's worth: a sample whose
//! sizes the later batches go by.

use super::{scope_of, shown, Failed};
use crate::pages::store::PageRef;
use crate::search::pattern::matcher::Matcher;
use crate::search::view::SessionView;

/// The candidates the fine check kept, in their order.
pub(super) struct Checked<'c> {
    pub kept: Vec<&'c (&'c str, PageRef)>,
    /// The candidates hold more than the cache: those not loaded here are kept
    /// unchecked, for the command to read ahead.
    pub unchecked: bool,
}

/// The candidates the fine check cannot rule out. Candidates only `rough`ly known that
/// hold more than the cache are all kept, unchecked: checking them here would load them
/// twice, now and again as the command reads them after the cache has moved on. Where
/// nothing says how large they are, that is known only once some are in memory.
pub(super) async fn keep<'c>(
    view: SessionView<'_>,
    candidates: &[&'c (&'c str, PageRef)],
    sizes: Sizes,
    matcher: &Matcher,
    rough: bool,
) -> Result<Checked<'c>, Failed> {
    if rough && !sizes.guessed && sizes.total > sizes.budget {
        return Ok(Checked { kept: candidates.to_vec(), unchecked: true });
    }
    check(view, candidates, matcher, sizes, rough).await
}

/// What the candidates hold, as far as the store can tell before loading them.
pub(super) struct Sizes {
    total: u64,
    /// What they may take of the cache ([`room`]).
    budget: u64,
    /// Nothing says how large some of them are ([`PageStore::guesses_size`]).
    ///
    /// [`PageStore::guesses_size`]: crate::pages::store::PageStore::guesses_size
    guessed: bool,
}

impl Sizes {
    pub(super) fn of(view: SessionView<'_>, candidates: &[&(&str, PageRef)]) -> Sizes {
        let store = view.store();
        Sizes {
            total: candidates.iter().map(|(_, p)| store.size_of(p)).sum(),
            budget: room(candidates, store.capacity() as u64),
            guessed: candidates.iter().any(|(_, p)| store.guesses_size(p)),
        }
    }

    /// Whether a command answered here may read the candidates as they load, with no fine
    /// check before: their sizes are known and they fit the cache together, so none is
    /// evicted before the command reads it. The command's own matching is then the check,
    /// and it runs while Chroma is still answering for later pages.
    pub(super) fn read_as_loaded(&self) -> bool {
        !self.guessed && self.total <= self.budget
    }
}

/// Loads the candidates and keeps those the fine check cannot rule out; with `may_stop`,
/// it stops where the candidates turn out larger than the cache, after a sample where
/// their sizes are guessed (see the module's doc).
async fn check<'c>(
    view: SessionView<'_>,
    candidates: &[&'c (&'c str, PageRef)],
    matcher: &Matcher,
    Sizes { total, budget, guessed }: Sizes,
    may_stop: bool,
) -> Result<Checked<'c>, Failed> {
    let size = |page: &PageRef| view.store().size_of(page);
    // Candidates that fit the cache together may be read with the rest of their scope,
    // when that costs fewer requests; in batches, each would read it again.
    let scope =
        (total <= budget).then(|| scope_of(view, candidates.iter().map(|(path, page)| (*path, page)))).flatten();
    // A batch that reads its scope whole reads all of it however few pages it asks for:
    // no sample then.
    let mut sample = may_stop && guessed && scope.is_none() && total > budget / SPARE;
    let mut kept: Vec<&'c (&'c str, PageRef)> = Vec::new();
    let mut rest = candidates;
    while !rest.is_empty() {
        let (batch, later) = rest.split_at(batch_len(view, rest, budget, std::mem::take(&mut sample)));
        let pages: Vec<PageRef> = batch.iter().map(|(_, p)| p.clone()).collect();
        view.store().prefetch_in(&pages, scope.as_ref()).await.map_err(failed(batch))?;
        kept.extend(batch.iter().filter(|(_, page)| may_match(view, matcher, page)));
        rest = later;
        let held = kept.iter().chain(rest).map(|(_, p)| size(p)).sum::<u64>();
        if may_stop && !rest.is_empty() && held > budget {
            kept.extend(rest);
            return Ok(Checked { kept, unchecked: true });
        }
    }
    // Pages kept early may have been evicted by later batches: load them again together
    // (as many as the cache holds), rather than one request each when the command reads.
    let evicted: Vec<&(&str, PageRef)> =
        kept.iter().filter(|(_, page)| !view.store().is_cached(&page.key)).copied().collect();
    view.store()
        .prefetch(&evicted.iter().map(|(_, page)| page.clone()).collect::<Vec<_>>())
        .await
        .map_err(failed(&evicted))?;
    Ok(Checked { kept, unchecked: false })
}

/// What the candidates may take of the cache: all of it when the tree gives their sizes;
/// where their sizes are estimated, a margin is left for pages larger than the estimate
/// (a load that outgrows the cache evicts pages before the command reads them, and each
/// evicted page evicts the next when it comes back).
fn room(candidates: &[&(&str, PageRef)], capacity: u64) -> u64 {
    match candidates.iter().all(|(_, page)| page.size.is_some()) {
        true => capacity,
        false => capacity / 4 * 3,
    }
}

/// Where a guess of the candidates' size leaves less than this share of the cache free
/// (a quarter of it or more taken), a sample is loaded first.
const SPARE: u64 = 4;

/// Chunks a sample counts for a page whose chunks nothing counts (read by slug, a few
/// slugs a request).
const UNCOUNTED: u64 = 8;

/// How many of `rest` the next batch loads: as many as the cache holds, or for a sample,
/// one request's worth of chunks (a page nothing counts taken for [`UNCOUNTED`]).
fn batch_len(view: SessionView<'_>, rest: &[&(&str, PageRef)], budget: u64, sample: bool) -> usize {
    let (mut bytes, mut chunks) = (0u64, 0u64);
    let mut take = 0;
    for (_, page) in rest {
        let (size, n) = (view.store().size_of(page), super::chunk_count(page).unwrap_or(UNCOUNTED));
        let full = bytes + size > budget || (sample && chunks + n > crate::chroma::MAX_PAGE as u64);
        if take > 0 && full {
            break;
        }
        (bytes, chunks, take) = (bytes + size, chunks + n, take + 1);
    }
    take
}

/// Whether a loaded page may match: not when the matcher's exact check rules it out; a
/// page not in memory (or a matcher without an exact check) is left for the command.
fn may_match(view: SessionView<'_>, matcher: &Matcher, page: &PageRef) -> bool {
    match (&matcher.fine, view.store().cached(&page.key)) {
        (Some(fine), Some(cached)) => match cached.as_str() {
            Some(text) => fine.may_match(text),
            None => fine.may_match(&String::from_utf8_lossy(cached.bytes())),
        },
        _ => true,
    }
}

/// How a failed load of `batch` is reported.
fn failed(batch: &[&(&str, PageRef)]) -> impl FnOnce(crate::pages::store::PrefetchError) -> Failed {
    let path = shown(batch.iter().map(|(p, _)| *p));
    move |error| Failed { path, error }
}
