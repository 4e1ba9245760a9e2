//! Reading ahead: a command that reads more pages than the cache holds.
//!
//! A search hands just-bash's command its list of files; the command then reads them in
//! that order, a few dozen at a time. When those pages do not all fit in the cache, the
//! ones loaded in bulk beforehand are evicted before the command gets to them, and each
//! would come back in a request of its own: thousands of requests for a common word over
//! a large site. So the search leaves its list here ([`PageStore::plan_reads`]), and a
//! miss on a page in it loads that page and the ones after it in one bulk load of up to
//! half the cache — the other half still holds what the command is reading now.
//!
//! Such a command is a scan: what it loads goes into the process tier only while the tier
//! has room, so that it does not evict what other commands and sessions keep there.
//!
//! A command that will stop early (its output piped into `head`) reads with windows that
//! start small (no more than one request's worth of chunks) and double after each: a few
//! pages are all it may need, and a long read still reaches full windows after a few steps.

use super::{PageKey, PageRef, PageStore, Source};
use crate::base::hash::PathMap;
use crate::chroma::MAX_PAGE;

/// The most chunks one window asks for: ten requests of 300 ids, all in flight at once.
const WINDOW_CHUNKS: u64 = 3000;

#[derive(Default)]
pub(super) struct ReadPlan {
    pages: Vec<PageRef>,
    at: PathMap<PageKey, usize>,
    /// The most chunks the next window asks for.
    window_chunks: u64,
    /// The pages hold more than the process tier: they are a scan, which should not push
    /// out of the tier what other sessions keep there (see [`PageStore::scanning`]).
    scan: bool,
}

impl PageStore {
    /// The pages the running command will read, in its order (replacing any earlier plan).
    pub(crate) fn plan_reads(&self, pages: Vec<PageRef>) {
        self.plan_with(pages, WINDOW_CHUNKS);
    }

    /// [`PageStore::plan_reads`] for a command that may stop after its first pages:
    /// windows start at `first_chunks` (at most one request's worth) and double.
    pub(crate) fn plan_reads_growing(&self, pages: Vec<PageRef>, first_chunks: u64) {
        self.plan_with(pages, first_chunks.clamp(1, MAX_PAGE as u64));
    }

    fn plan_with(&self, pages: Vec<PageRef>, window_chunks: u64) {
        let at = pages.iter().enumerate().map(|(i, p)| (p.key.clone(), i)).collect();
        let bytes: u64 = pages.iter().map(|p| self.size_of(p)).sum();
        let scan = bytes > super::process::capacity() as u64;
        *self.plan.borrow_mut() = ReadPlan { pages, at, window_chunks, scan };
    }

    /// Whether the running command reads more than the process tier holds. Its pages then
    /// go into the tier only while there is room: a scan that evicted as it went would
    /// leave the tier holding the scan's last pages, which the next scan reaches last, and
    /// push out the pages every other command of every session keeps asking for.
    pub(super) fn scanning(&self) -> bool {
        self.plan.borrow().scan
    }

    /// The command is over: nothing more to read ahead for.
    pub(crate) fn clear_plan(&self) {
        *self.plan.borrow_mut() = ReadPlan::default();
    }

    /// The pages to load with a missed page: it and those after it in the plan, up to half
    /// the cache and [`WINDOW_CHUNKS`], and up to a page that is already loading (the
    /// command's other readers miss together: one window, not one each); `None` when the
    /// page is not in the plan or is loading.
    pub(super) fn window_from(&self, key: &PageKey) -> Option<Vec<PageRef>> {
        let mut plan = self.plan.borrow_mut();
        let &start = plan.at.get(key)?;
        // Where nothing says how large pages are, the first window is a sample whose sizes
        // the next windows go by.
        let max_chunks = match plan.pages.get(start).is_some_and(|p| self.guesses_size(p)) {
            true => plan.window_chunks.min(MAX_PAGE as u64),
            false => plan.window_chunks,
        };
        let budget = (self.capacity() / 2) as u64;
        let (mut bytes, mut chunks) = (0u64, 0u64);
        let mut window = Vec::new();
        for page in &plan.pages[start..] {
            let Source::Chunks { count, .. } = page.source else { continue };
            if self.flights.is_loading(&page.key) {
                break;
            }
            let (size, n) = (self.size_of(page), count.unwrap_or(1));
            if !window.is_empty() && (bytes + size > budget || chunks + n > max_chunks) {
                break;
            }
            (bytes, chunks) = (bytes + size, chunks + n);
            window.push(page.clone());
        }
        plan.window_chunks = (plan.window_chunks * 2).min(WINDOW_CHUNKS);
        (window.len() > 1).then_some(window)
    }
}
