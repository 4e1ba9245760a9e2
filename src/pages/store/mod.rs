//! The page store: where page contents come from and where they are kept.
//!
//! A read asks, in order: the memory LRU ([`lru`]), a load already in flight for the same
//! page ([`inflight`]), the host's shared cache ([`shared`]), and finally the source —
//! the page's chunks in Chroma, joined by [`assemble`], or a lazy file ([`lazy`]). Bulk
//! loads for searches go through [`PageStore::prefetch`], which asks Chroma for many
//! pages' chunks in a few large requests.
//!
//! The store never sees the listing or the session's groups: the filesystem resolves a
//! visible path to a [`PageRef`] (which page, how big, where its bytes come from) and
//! hands that over. Every record Chroma returns is checked against the slugs asked for,
//! so a record of any other page never reaches the cache. A page kept for other sessions
//! (the process tier, the shared cache) is served only once [`Freshness`] confirms that
//! the tree it was loaded under is still the collection's, as a read from Chroma would.

pub(crate) mod assemble;
mod by_id;
pub(crate) mod inflight;
pub(crate) mod lazy;
pub(crate) mod lru;
mod prefetch;
pub(crate) mod process;
mod readahead;
pub(crate) use prefetch::{PrefetchError, Within};
pub(crate) mod shared;

use crate::chroma::origin::LazyPolicy;
use crate::chroma::transport::Transport;
use crate::chroma::ChromaError;
use crate::pages::collection::{Bound, Collection};
pub(crate) use crate::pages::freshness::Freshness;
use crate::tree::annotations::PublicText;
use crate::tree::schema;
use assemble::AssemblyError;
use inflight::{Flights, Ticket};
use lazy::LazySource;
use lru::{CachedPage, ContentCache};
use process::ProcessPages;
use serde::Serialize;
use shared::{Lookup, SharedCache};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// What identifies a page's content. Its parts are shared, not copied: every cache use,
/// read-ahead plan and flight holds a key, and a search names tens of thousands of pages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PageKey {
    pub collection_id: Rc<str>,
    pub tree_version: Rc<str>,
    pub slug: Rc<str>,
}

/// Hashed by its slug alone: a map of keys holds one collection's tree or a few, so the
/// slug tells keys apart, and a search hashes tens of thousands of them. Equal keys
/// have equal slugs, so equality still compares every part.
impl std::hash::Hash for PageKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.slug.hash(state);
    }
}

impl PageKey {
    /// A flat string form, for shared caches outside this process: `chromafs:` and the
    /// three parts, each length-prefixed ([`crate::base::key`]), so no two pages share a key.
    fn to_key_string(&self) -> String {
        format!("chromafs:{}", crate::base::key::of([&*self.collection_id, &self.tree_version, &self.slug]))
    }
}

/// Where a page's bytes come from.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    /// Chunk records in Chroma; `count` when the tree records it; `by_id` when their ids
    /// derive from the slug (chromafs's ingest), so they can be asked for by id.
    Chunks {
        slug: Rc<str>,
        count: Option<u64>,
        by_id: bool,
        /// The page's number in the grep index, when the tree records one.
        number: Option<u32>,
    },
    Lazy(LazySource),
    /// A page whose tree entry cannot be right: reading it is this error, and asks nothing.
    Corrupt(String),
}

/// One page, as the filesystem resolved it.
#[derive(Clone, Debug)]
pub(crate) struct PageRef {
    pub key: PageKey,
    /// The tree's `size`, checked against what is loaded.
    pub size: Option<u64>,
    pub source: Source,
    /// Whether other sessions may share it: pages of the collection are, a host's
    /// session-only lazy files are not.
    pub shareable: bool,
}

/// Why a page could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LoadError {
    Chroma(ChromaError),
    /// `scoped`: the read carried the session's access, so missing chunks may mean the
    /// page changed or became private since the session connected.
    Assembly {
        slug: String,
        error: AssemblyError,
        scoped: bool,
    },
    Lazy(String),
    LazySize {
        actual: u64,
        expected: u64,
    },
    /// The page's tree entry cannot be right ([`Source::Corrupt`]).
    Corrupt(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Chroma(e) => e.fmt(f),
            LoadError::Assembly { slug, error: AssemblyError::NoChunks, scoped: true } => {
                write!(f, "page {slug:?} is not readable by this session any more: the docs changed since it connected (reconnect)")
            }
            LoadError::Assembly { slug, error, scoped: true } => {
                write!(f, "page {slug:?}: {error} (the docs may have changed since this session connected: reconnect)")
            }
            LoadError::Assembly { slug, error, .. } => write!(f, "page {slug:?}: {error}"),
            LoadError::Lazy(cause) => f.write_str(cause),
            LoadError::LazySize { actual, expected } => {
                write!(f, "lazy file is {actual} bytes but the path tree says {expected}")
            }
            LoadError::Corrupt(problem) => f.write_str(problem),
        }
    }
}

pub(crate) type Loaded = Result<Rc<[u8]>, LoadError>;

/// Counters of the store since it was made.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoreStats {
    pub cache_hits: u64,
    pub cache_misses: u64,
    pub lazy_fetches: u64,
    /// Pages found in the shared cache, pages looked up there in vain, and shared-cache
    /// calls that failed (each counted as a miss).
    pub shared_hits: u64,
    pub shared_misses: u64,
    pub shared_errors: u64,
    /// Pages found in the process tier: loaded by another session (or an earlier read of
    /// this one) and not fetched again.
    pub process_hits: u64,
    /// Pages loaded by bulk prefetches (counted apart from cache misses).
    pub prefetched_pages: u64,
    pub cached_bytes: u64,
    pub cached_pages: u64,
}

/// How a store keeps and fetches pages.
#[derive(Clone, Debug)]
pub(crate) struct StoreOptions {
    /// The memory cache's byte budget.
    pub cache_bytes: usize,
    pub shared: Option<Rc<dyn SharedCache>>,
    /// Where lazy URLs named by the tree may be fetched from.
    pub lazy_policy: LazyPolicy,
    /// The most bytes a lazy file without a `size` in the tree may have.
    pub lazy_max_bytes: u64,
    /// This session's view of the process tier, when it shares one.
    pub process: Option<ProcessPages>,
    /// What confirms pages from the process tier and the shared cache (none: always).
    pub fresh: Option<Rc<dyn Freshness>>,
    /// What the public pages' text holds, when an annotation measured it: what a page of
    /// unknown size is estimated by ([`PageStore::size_of`]).
    pub public_text: Option<PublicText>,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            cache_bytes: 0,
            shared: None,
            lazy_policy: LazyPolicy::default(),
            lazy_max_bytes: lazy::DEFAULT_MAX_BYTES,
            process: None,
            fresh: None,
            public_text: None,
        }
    }
}

pub(crate) struct PageStore {
    collection: Collection,
    /// For lazy URLs, which never carry Chroma's credentials.
    transport: Rc<dyn Transport>,
    timeout_ms: u32,
    cache: RefCell<ContentCache>,
    flights: Flights<PageKey, Loaded>,
    shared: Option<Rc<dyn SharedCache>>,
    lazy_policy: LazyPolicy,
    lazy_max_bytes: u64,
    process: Option<ProcessPages>,
    fresh: Option<Rc<dyn Freshness>>,
    public_text: Option<PublicText>,
    /// The pages the running command will read next, in order ([`readahead`]).
    plan: RefCell<readahead::ReadPlan>,
    stats: RefCell<StoreStats>,
}

/// The size assumed for a page of unknown size before any page is in memory.
const TYPICAL_PAGE_BYTES: u64 = 8 << 10;

impl PageStore {
    pub(crate) fn new(collection: Collection, transport: Rc<dyn Transport>, opts: StoreOptions) -> Self {
        let timeout_ms = collection.config().timeout_ms;
        PageStore {
            collection,
            transport,
            timeout_ms,
            cache: RefCell::new(ContentCache::new(opts.cache_bytes)),
            flights: Flights::default(),
            shared: opts.shared,
            lazy_policy: opts.lazy_policy,
            lazy_max_bytes: opts.lazy_max_bytes,
            process: opts.process,
            fresh: opts.fresh,
            public_text: opts.public_text,
            plan: RefCell::default(),
            stats: RefCell::default(),
        }
    }

    pub(crate) fn stats(&self) -> StoreStats {
        let cache = self.cache.borrow();
        StoreStats {
            cached_bytes: cache.used() as u64,
            cached_pages: cache.len() as u64,
            ..self.stats.borrow().clone()
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.cache.borrow().capacity()
    }

    /// What a page will take in the cache: its size from the tree, else its chunks times
    /// the bytes a chunk holds on average (when an annotation measured them), else the
    /// average of the pages held now, else a typical page. Bulk loads and read-ahead
    /// windows count pages by it so that a load never brings in more than the cache
    /// holds, which would evict pages before the command reads them.
    pub(crate) fn size_of(&self, page: &PageRef) -> u64 {
        self.known_size(page).unwrap_or_else(|| {
            let cache = self.cache.borrow();
            match cache.len() {
                0 => TYPICAL_PAGE_BYTES,
                n => (cache.used() / n) as u64,
            }
        })
    }

    /// Whether [`PageStore::size_of`] has nothing to go on for this page: no size in the
    /// tree, no average from an annotation, and no page in memory to take one from.
    pub(crate) fn guesses_size(&self, page: &PageRef) -> bool {
        self.known_size(page).is_none() && self.cache.borrow().len() == 0
    }

    /// A page's size from its tree entry, else its chunks (or the public pages' average
    /// count) times the bytes a public chunk holds on average.
    fn known_size(&self, page: &PageRef) -> Option<u64> {
        page.size.or_else(|| {
            let text = self.public_text?;
            let chunks = match page.source {
                Source::Chunks { count, .. } => count.map_or_else(|| text.chunks_per_page(), |n| n as f64),
                Source::Lazy(_) | Source::Corrupt(_) => return None,
            };
            Some((chunks * text.bytes_per_chunk()).ceil() as u64)
        })
    }

    /// A page's bytes, from wherever they are nearest. A miss on a page the running
    /// command plans to read loads it together with the pages it reads next.
    pub(crate) async fn read(&self, page: &PageRef) -> Loaded {
        if let Some(bytes) = self.in_memory(&page.key) {
            return Ok(bytes);
        }
        if let Some(window) = self.window_from(&page.key) {
            // A failed window is not this read's failure: the page then loads on its own.
            // An answer that cannot be right (a page with more chunks than declared) would
            // fail every window that holds it: the command reads ahead no more.
            if let Err(e) = self.prefetch(&window).await {
                if e.error.is_wrong_answer() {
                    self.clear_plan();
                }
            }
        }
        self.read_one(page).await
    }

    /// A page held in memory, counted as a cache hit.
    pub(crate) fn in_memory(&self, key: &PageKey) -> Option<Rc<[u8]>> {
        self.cached_page(key).map(|p| p.bytes().clone())
    }

    /// A page held in memory with what the cache knows of it, counted as a cache hit.
    pub(crate) fn cached_page(&self, key: &PageKey) -> Option<CachedPage> {
        let page = self.cache.borrow_mut().get(key)?;
        self.stats.borrow_mut().cache_hits += 1;
        Some(page)
    }

    /// [`PageStore::read`] without reading ahead.
    async fn read_one(&self, page: &PageRef) -> Loaded {
        if let Some(bytes) = self.in_memory(&page.key) {
            return Ok(bytes);
        }
        if let Some(bytes) = self.take_from_process(page).await {
            return Ok(bytes);
        }
        loop {
            match self.flights.start(&page.key) {
                Ticket::Follow(flight) => {
                    self.stats.borrow_mut().cache_hits += 1;
                    if let Some(result) = flight.wait().await {
                        return result;
                    }
                }
                Ticket::Lead(flight) => {
                    self.stats.borrow_mut().cache_misses += 1;
                    let result = self.load(page).await.map(|loaded| {
                        let bytes = loaded.bytes().clone();
                        self.cache.borrow_mut().insert_page(page.key.clone(), loaded);
                        bytes
                    });
                    flight.finish(result.clone());
                    return result;
                }
            }
        }
    }

    /// A page from the process tier, kept in this session's cache too.
    async fn take_from_process(&self, page: &PageRef) -> Option<Rc<[u8]>> {
        let found = self.in_process(page)?;
        if !self.confirmed().await {
            return None;
        }
        Some(self.keep_from_process(page, found))
    }

    /// A page the process tier holds that this session may read as it is (unconfirmed).
    fn in_process(&self, page: &PageRef) -> Option<CachedPage> {
        self.process.as_ref().filter(|_| page.shareable)?.get(&page.key)
    }

    /// Keeps a page from the process tier in this session's cache, counted as a hit.
    fn keep_from_process(&self, page: &PageRef, found: CachedPage) -> Rc<[u8]> {
        self.stats.borrow_mut().process_hits += 1;
        let bytes = found.bytes().clone();
        self.cache.borrow_mut().insert(page.key.clone(), bytes.clone());
        bytes
    }

    /// Whether pages kept for other sessions may be served now ([`Freshness`]).
    async fn confirmed(&self) -> bool {
        match &self.fresh {
            Some(f) => f.confirmed().await,
            None => true,
        }
    }

    /// Offers a loaded page (with its chunks' access, when they carry it) to the process tier.
    pub(super) fn offer_to_process(&self, page: &PageRef, loaded: CachedPage) {
        if let Some(tier) = self.process.as_ref().filter(|_| page.shareable) {
            match self.scanning() {
                true => tier.put_if_room(&page.key, loaded),
                false => tier.put(&page.key, loaded),
            }
        }
    }

    /// A page if it is in memory now (no load, not counted as a hit).
    pub(crate) fn cached(&self, key: &PageKey) -> Option<CachedPage> {
        self.cache.borrow_mut().get(key)
    }

    pub(crate) fn is_cached(&self, key: &PageKey) -> bool {
        self.cache.borrow().contains(key)
    }

    /// Whether the page is in this session's cache or the process tier (served from the
    /// tier once the tree is confirmed current), so that loading it asks Chroma nothing
    /// for its text.
    pub(crate) fn is_held(&self, page: &PageRef) -> bool {
        self.is_cached(&page.key) || self.in_process(page).is_some()
    }

    /// A page from the host's shared cache, else from its source (offered to the process
    /// tier and the shared cache): its UTF-8 check done once, for every cache it goes to.
    async fn load(&self, page: &PageRef) -> Result<CachedPage, LoadError> {
        if let Source::Corrupt(problem) = &page.source {
            return Err(LoadError::Corrupt(problem.clone()));
        }
        if page.shareable {
            if let Some(bytes) = self.shared_get(&page.key, page.size).await {
                return Ok(CachedPage::new(bytes));
            }
        }
        let loaded = match &page.source {
            Source::Lazy(source) => self.load_lazy(source, page.size).await.map(CachedPage::new)?,
            Source::Chunks { slug, count, by_id, .. } => self.load_chunks(slug, *count, *by_id, page.size).await?,
            Source::Corrupt(problem) => return Err(LoadError::Corrupt(problem.clone())),
        };
        self.offer_to_process(page, loaded.clone());
        if page.shareable {
            self.shared_set(&page.key, loaded.bytes().clone()).await;
        }
        Ok(loaded)
    }

    async fn load_lazy(&self, source: &LazySource, size: Option<u64>) -> Loaded {
        self.stats.borrow_mut().lazy_fetches += 1;
        let limit = lazy::LazyLimit::new(size, self.lazy_max_bytes);
        let bytes = lazy::load(source, &*self.transport, self.timeout_ms, &self.lazy_policy, limit)
            .await
            .map_err(LoadError::Lazy)?;
        match size {
            Some(expected) if expected != bytes.len() as u64 => {
                Err(LoadError::LazySize { actual: bytes.len() as u64, expected })
            }
            _ => Ok(bytes.into()),
        }
    }

    /// A page's chunks, joined: by id when they are known, else one paginated `get` by
    /// slug. What the tree says (chunk count, size) bounds what is accepted.
    /// With the page, the access of its chunks when the session's reads are scoped by it
    /// (for the process tier).
    async fn load_chunks(
        &self,
        slug: &str,
        count: Option<u64>,
        by_id: bool,
        size: Option<u64>,
    ) -> Result<CachedPage, LoadError> {
        let schema = self.collection.schema();
        let what = format!("page {slug:?}");
        let mut resp = match count {
            Some(n) if by_id => {
                let ids: Vec<String> = (0..n as usize).map(|i| schema::chunk_id(slug, i)).collect();
                self.collection.get_by_ids(&ids, &what).await
            }
            _ => self.collection.get_pages(&[slug.to_string()], Bound::page(count, size), &what, &|_| Ok(())).await,
        }
        .map_err(LoadError::Chroma)?;
        // Defence in depth: a record for any other slug never reaches the page.
        let mine: Vec<usize> = (0..resp.ids.len()).filter(|&i| schema.slug_of(&resp, i) == Some(slug)).collect();
        let chunks = mine.iter().map(|&i| assemble::Chunk::from_record(schema, &mut resp, i)).collect();
        let scoped = self.collection.is_scoped();
        let text = assemble::assemble(chunks, size).map_err(|error| LoadError::Assembly {
            slug: slug.to_string(),
            error,
            scoped,
        })?;
        let access = scoped.then(|| process::access_of(mine.iter().map(|&i| resp.metadata(i))));
        Ok(CachedPage::of_text(text, access))
    }

    async fn shared_get(&self, key: &PageKey, size: Option<u64>) -> Option<Rc<[u8]>> {
        let cache = self.shared.as_ref()?;
        let found = match shared::get(&**cache, key, size).await {
            // Kept under a tree this session cannot confirm as current: Chroma decides.
            Lookup::Hit(_) if !self.confirmed().await => Lookup::Miss,
            other => other,
        };
        let mut stats = self.stats.borrow_mut();
        match found {
            Lookup::Hit(bytes) => {
                stats.shared_hits += 1;
                Some(bytes)
            }
            Lookup::Miss => {
                stats.shared_misses += 1;
                None
            }
            Lookup::Failed => {
                stats.shared_errors += 1;
                None
            }
        }
    }

    async fn shared_set(&self, key: &PageKey, bytes: Rc<[u8]>) {
        if let Some(cache) = &self.shared {
            if cache.set(key.to_key_string(), bytes).await.is_err() {
                self.stats.borrow_mut().shared_errors += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests;
