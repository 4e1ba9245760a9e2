//! Bulk loads: many pages in as few requests as the quotas allow.
//!
//! A search that will read many pages asks for them all at once: the pages' chunks come
//! from batched `$in` queries of up to 300 records (issued together when the tree records
//! chunk counts, so the whole load is one round of parallel requests), lazy files are read
//! concurrently. A request that fails fails the load ([`PrefetchError`]): the search
//! that asked for it stops with that cause rather than reading page after page from a
//! server that is down. A page whose chunks do not assemble is only left out: reading it
//! reports what is wrong with it. Each page is held to what its tree entry declares
//! ([`Bound::page`]): a page with more chunks than that fails the load, naming it, at the
//! first answer that shows it, however many pages the load covers.

use super::assemble::Chunk;
use super::inflight::{Leader, Ticket};
use super::lru::{CachedPage, ChunkAccess};
use super::{assemble, Loaded, PageKey, PageRef, PageStore, Source};
use crate::base::hash::{PathMap, PathSet};
use crate::base::sync::{join_all, try_join_all, LocalFuture};
use crate::chroma::{ChromaError, GetRequest, GetResponse, MAX_PAGE};
use crate::pages::collection::Bound;
use crate::pages::store::process;
use crate::tree::schema::{self, Schema};
use serde_json::json;
use std::fmt;
use std::rc::Rc;

/// A bulk load that Chroma refused or could not answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PrefetchError {
    pub pages: usize,
    pub error: ChromaError,
}

impl fmt::Display for PrefetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pages {
            1 => self.error.fmt(f),
            n => write!(f, "cannot load {n} pages: {}", self.error),
        }
    }
}

/// A page of a bulk load with the flight its readers wait on.
pub(super) type Led<'s> = (&'s PageRef, Leader<'s, PageKey, Loaded>);

/// A bulk load begun ([`PageStore::begin_prefetch`]): its pages are in flight, so a reader
/// of one waits for it rather than asking again; [`Prefetch::finish`] does the loading.
pub(crate) struct Prefetch<'s> {
    store: &'s PageStore,
    chunked: Vec<Led<'s>>,
    lazy: Vec<&'s PageRef>,
    scope: Option<Within>,
}

impl PageStore {
    /// Loads many pages into the cache, up to its capacity. Pages being loaded are in
    /// flight like single reads, so a command reading one of them meanwhile waits for
    /// the bulk load instead of asking again; pages another load has in flight are left
    /// to it.
    pub(crate) async fn prefetch(&self, pages: &[PageRef]) -> Result<(), PrefetchError> {
        self.prefetch_in(pages, None).await
    }

    /// [`PageStore::prefetch`] for pages of a known scope: where they are most of it, the
    /// pages read by slug come from reading the scope whole, 300 records a request.
    pub(crate) async fn prefetch_in(&self, pages: &[PageRef], scope: Option<&Within>) -> Result<(), PrefetchError> {
        self.begin_prefetch(pages, scope).finish().await
    }

    /// A bulk load of `pages` (see [`PageStore::prefetch_in`]) whose pages are in flight
    /// from now on: a command run beside [`Prefetch::finish`] reads each page as soon as
    /// the request holding it is answered.
    pub(crate) fn begin_prefetch<'s>(&'s self, pages: &'s [PageRef], scope: Option<&Within>) -> Prefetch<'s> {
        let mut chunked = Vec::new();
        let mut lazy = Vec::new();
        let mut seen = PathSet::default();
        let mut budget = self.capacity() as u64;
        for page in pages {
            if !seen.insert(&page.key) || self.is_cached(&page.key) {
                continue;
            }
            let size = self.size_of(page);
            if size > budget {
                break;
            }
            budget -= size;
            match page.source {
                Source::Chunks { .. } => match self.flights.start(&page.key) {
                    Ticket::Lead(leader) => chunked.push((page, leader)),
                    Ticket::Follow(_) => {}
                },
                Source::Lazy(_) => lazy.push(page),
                // Reading it reports what is wrong with it.
                Source::Corrupt(_) => {}
            }
        }
        Prefetch { store: self, chunked, lazy, scope: scope.cloned() }
    }

    /// Takes what the process tier and the shared cache have into the LRU, releasing their
    /// readers; returns the pages still to load.
    async fn take_from_shared_cache<'s>(&'s self, pages: Vec<Led<'s>>) -> Vec<Led<'s>> {
        let (held, mut rest): (Vec<_>, Vec<_>) =
            pages.into_iter().map(|p| (self.in_process(p.0), p)).partition(|(found, _)| found.is_some());
        if !held.is_empty() && self.confirmed().await {
            for (found, (page, leader)) in held {
                let bytes = self.keep_from_process(page, found.expect("held"));
                leader.finish(Ok(bytes));
            }
        } else {
            rest.extend(held);
        }
        let pages: Vec<Led<'s>> = rest.into_iter().map(|(_, p)| p).collect();
        if self.shared.is_none() || pages.is_empty() {
            return pages;
        }
        let found = join_all(pages.iter().map(|(p, _)| self.shared_get(&p.key, p.size)).collect()).await;
        let mut rest = Vec::new();
        for ((page, leader), hit) in pages.into_iter().zip(found) {
            match hit {
                Some(bytes) => {
                    self.cache.borrow_mut().insert(page.key.clone(), bytes.clone());
                    leader.finish(Ok(bytes));
                }
                None => rest.push((page, leader)),
            }
        }
        rest
    }

    /// The chunks of `pages`: by id where their ids are known, each page released as soon as
    /// the requests holding its chunks are answered; else by slug (or from their scope read
    /// whole), released together.
    async fn load_chunk_batches<'s>(
        &'s self,
        pages: Vec<Led<'s>>,
        scope: Option<&Within>,
    ) -> Result<(), PrefetchError> {
        let total = pages.len();
        let by_id_known = |p: &PageRef| matches!(p.source, Source::Chunks { count: Some(_), by_id: true, .. });
        let (by_id, by_slug): (Vec<Led<'s>>, Vec<Led<'s>>) = pages.into_iter().partition(|(p, _)| by_id_known(p));
        let what = format!("a prefetch of {total} pages");
        let loads: Vec<LocalFuture<'_, Result<(), ChromaError>>> =
            vec![Box::pin(self.load_by_id(by_id, &what)), Box::pin(self.load_by_slug(by_slug, scope, &what))];
        try_join_all(loads).await.map_err(|error| PrefetchError { pages: total, error })
    }

    /// Pages read by slug, released once all of them are in.
    async fn load_by_slug<'s>(
        &'s self,
        pages: Vec<Led<'s>>,
        scope: Option<&Within>,
        what: &str,
    ) -> Result<(), ChromaError> {
        if pages.is_empty() {
            return Ok(());
        }
        let schema = self.collection.schema();
        // As many slugs a query as Chroma Cloud's predicate quota leaves room for. Each
        // page is held to its own bound, so one page with far more chunks than the tree
        // says fails the load at the first answer that shows it.
        let bounded: Vec<(String, Bound)> = pages
            .iter()
            .map(|(page, _)| match &page.source {
                Source::Chunks { slug, count, .. } => (slug.to_string(), Bound::page(*count, page.size)),
                Source::Lazy(_) | Source::Corrupt(_) => unreachable!("only chunked pages are batched"),
            })
            .collect();
        let mut resp = match scope.filter(|w| w.worth_reading(bounded.len(), self.collection.slugs_per_query())) {
            Some(within) => match self.read_scope(within, &bounded, what).await {
                // A scope holding records the tree does not account for (chunks of
                // pages it does not name) is read page by page instead.
                Err(ChromaError::Decode { .. }) => self.read_by_slug(&bounded, what).await,
                read => read,
            },
            None => self.read_by_slug(&bounded, what).await,
        }?;
        // Defence in depth: only the slugs asked for (all visible) are kept.
        let mut by_slug: PathMap<&str, Vec<usize>> = bounded.iter().map(|(s, _)| (s.as_str(), Vec::new())).collect();
        for i in 0..resp.ids.len() {
            if let Some(records) = schema.slug_of(&resp, i).and_then(|s| by_slug.get_mut(s)) {
                records.push(i);
            }
        }
        let mut loaded = Vec::new();
        for ((page, leader), (slug, _)) in pages.into_iter().zip(&bounded) {
            let records = by_slug.remove(slug.as_str()).unwrap_or_default();
            let (chunks, access) = self.chunks_of(&mut resp, &records);
            if let Some(bytes) = self.keep_loaded(page, chunks, access) {
                leader.finish(Ok(bytes.clone()));
                loaded.push((page, bytes));
            }
        }
        self.share_loaded(loaded).await;
        Ok(())
    }

    /// A page joined from `chunks` and kept in the cache (and offered to the process tier)
    /// with the chunks' `access` (when they carry it); `None` when the chunks do not
    /// assemble: reading the page reports why.
    pub(super) fn keep_loaded(
        &self,
        page: &PageRef,
        chunks: Vec<Chunk>,
        access: Option<ChunkAccess>,
    ) -> Option<Rc<[u8]>> {
        let text = assemble::assemble(chunks, page.size).ok()?;
        let cached = CachedPage::of_text(text, access);
        let bytes = cached.bytes().clone();
        self.cache.borrow_mut().insert_page(page.key.clone(), cached.clone());
        self.offer_to_process(page, cached);
        Some(bytes)
    }

    /// The chunks of `records` of `resp` (their documents moved out), with their access
    /// when the session's reads are scoped by it.
    pub(super) fn chunks_of(&self, resp: &mut GetResponse, records: &[usize]) -> (Vec<Chunk>, Option<ChunkAccess>) {
        let access = self.collection.is_scoped().then(|| process::access_of(records.iter().map(|&i| resp.metadata(i))));
        let schema = self.collection.schema();
        (records.iter().map(|&i| Chunk::from_record(schema, resp, i)).collect(), access)
    }

    /// Counts pages a bulk load brought in and hands them to the host's shared cache.
    pub(super) async fn share_loaded(&self, loaded: Vec<(&PageRef, Rc<[u8]>)>) {
        self.stats.borrow_mut().prefetched_pages += loaded.len() as u64;
        if self.shared.is_some() {
            join_all(loaded.into_iter().map(|(p, b)| self.shared_set(&p.key, b)).collect()).await;
        }
    }
}

impl Prefetch<'_> {
    /// Loads the pages, releasing each page's readers as it comes in. A request that fails
    /// fails the load at once; the pages it held are released unloaded (their readers load
    /// them themselves, and report what is wrong).
    pub(crate) async fn finish(self) -> Result<(), PrefetchError> {
        let Prefetch { store, chunked, lazy, scope } = self;
        // Lazy files (a host's, rare beside chunks) first; those that fail are reported
        // when the command reads them.
        join_all(lazy.into_iter().map(|p| store.read_one(p)).collect()).await;
        let rest = store.take_from_shared_cache(chunked).await;
        store.load_chunk_batches(rest, scope.as_ref()).await
    }
}

impl PageStore {
    /// The chunks of pages read by slug, as many slugs a query as Chroma Cloud's predicate
    /// quota leaves room for, each page held to its own bound: one page with far more
    /// chunks than the tree says fails the load at the first answer that shows it.
    async fn read_by_slug(&self, pages: &[(String, Bound)], what: &str) -> Result<GetResponse, ChromaError> {
        let schema = self.collection.schema();
        let per_batch =
            slugs_per_batch(pages.len(), self.collection.slugs_per_query(), self.collection.config().max_concurrency);
        let batches: Vec<&[(String, Bound)]> = pages.chunks(per_batch).collect();
        let checks: Vec<_> =
            batches.iter().map(|batch| move |resp: &GetResponse| check_counts(schema, resp, batch)).collect();
        let parts = join_all(
            batches
                .iter()
                .zip(&checks)
                .map(|(batch, check)| {
                    let slugs: Vec<String> = batch.iter().map(|(s, _)| s.clone()).collect();
                    let bound = Bound::sum(batch.iter().map(|(_, b)| *b));
                    async move { self.collection.get_pages(&slugs, bound, what, check).await }
                })
                .collect(),
        )
        .await;
        let mut all = GetResponse::default();
        for part in parts {
            all.extend(part?);
        }
        Ok(all)
    }

    /// The chunks of a whole scope, in windows of 300 records ten at a time, held to what
    /// the tree says the scope holds; each page asked for is held to its own bound.
    async fn read_scope(
        &self,
        within: &Within,
        pages: &[(String, Bound)],
        what: &str,
    ) -> Result<GetResponse, ChromaError> {
        let schema = self.collection.schema();
        let req = GetRequest {
            where_: Some(match within.dir.as_deref() {
                // The root is `""`: every chunk has it, the tree's own records do not.
                Some(dir) => json!({ schema::DIRS: { "$contains": dir } }),
                // Chunks, not the tree's own records beside them.
                None => json!({ &schema.chunk_index_field: { "$gte": 0 } }),
            }),
            include: vec!["documents", "metadatas"],
            ..Default::default()
        };
        let all = self.collection.read_windows(req, within.chunks, within.bound, what).await?;
        check_counts(schema, &all, pages)?;
        Ok(all)
    }
}

/// The scope a bulk load's pages lie in, when the caller knows it and the session may read
/// it whole (Chroma leaves out what it may not see, or it sees every page).
#[derive(Debug, Clone)]
pub(crate) struct Within {
    /// The directory holding the pages, as chunks spell it in `dirs` (`""`: the root);
    /// `None` when chunks carry no directories (the whole collection).
    pub dir: Option<String>,
    /// Chunks the scope is expected to hold (at least one a page).
    pub chunks: usize,
    /// Pages whose chunks nothing counts (each is one of `chunks`).
    pub uncounted: usize,
    /// What the scope's records may hold at most.
    pub bound: Bound,
}

impl Within {
    /// Whether reading the scope whole, 300 records a request, costs fewer requests than
    /// reading `by_slug` pages `per_query` slugs a request; a page nothing counts is taken
    /// to have [`UNCOUNTED_CHUNKS`].
    fn worth_reading(&self, by_slug: usize, per_query: usize) -> bool {
        let chunks = self.chunks + self.uncounted * (UNCOUNTED_CHUNKS - 1);
        chunks.div_ceil(MAX_PAGE) < by_slug.div_ceil(per_query.max(1))
    }
}

/// Chunks assumed of a page whose chunks nothing counts: twice a typical page's, so that a
/// scope is read whole only when that is clearly cheaper.
const UNCOUNTED_CHUNKS: usize = 8;

/// An error naming the first of `pages` (slugs and their bounds) with more records in
/// `resp` than its bound; records of other slugs are not counted.
fn check_counts(schema: &Schema, resp: &GetResponse, pages: &[(String, Bound)]) -> Result<(), ChromaError> {
    let mut counts: PathMap<&str, (usize, &Bound)> = pages.iter().map(|(s, b)| (s.as_str(), (0, b))).collect();
    for i in 0..resp.ids.len() {
        let Some(slug) = schema.slug_of(resp, i) else { continue };
        let Some((n, bound)) = counts.get_mut(slug) else { continue };
        *n += 1;
        if *n > bound.records {
            return Err(bound.exceeded(&format!("page {slug:?}")));
        }
    }
    Ok(())
}

/// Slugs a bulk load names per request, on a server that takes `limit` of them: a long list
/// is spread over the requests that can be in flight, since one list too long for an answer
/// is paged through one request after another, but never cut below [`SPREAD_FLOOR`] a list.
fn slugs_per_batch(pages: usize, limit: usize, in_flight: usize) -> usize {
    limit.min(pages.div_ceil(in_flight.max(1)).max(SPREAD_FLOOR)).max(1)
}

/// Pages whose chunks one answer of 300 records usually holds (about nine chunks a page).
const SPREAD_FLOOR: usize = 32;

#[cfg(test)]
mod tests {
    use super::slugs_per_batch;

    #[test]
    fn long_slug_lists_are_spread_over_the_requests_in_flight() {
        // Chroma Cloud's quota decides whatever the count.
        assert_eq!(slugs_per_batch(20, 8, 10), 8);
        assert_eq!(slugs_per_batch(1_000, 8, 10), 8);
        // A server without it: a short list is one request, a long one ten in flight.
        assert_eq!(slugs_per_batch(20, 300, 10), 32);
        assert_eq!(slugs_per_batch(1_000, 300, 10), 100);
        assert_eq!(slugs_per_batch(5_000, 300, 10), 300);
        assert_eq!(slugs_per_batch(0, 300, 10), 32);
        assert_eq!(slugs_per_batch(10, 1, 0), 1);
    }
}
