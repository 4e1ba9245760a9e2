//! The memory cache: a byte-bounded LRU of page contents.
//!
//! Keys carry the collection id and the tree version as well as the slug, so a
//! re-ingested collection (new tree version) or another collection never hits an old
//! entry. Pages are reference-counted: a hit hands out the same bytes with no copy.
//! A page larger than the whole budget is served but never cached. Whether a page is
//! UTF-8 is decided once, when it is cached, so searches over cached pages need not
//! validate them again.

use super::PageKey;
use crate::base::hash::PathMap;
use serde_json::{Map, Value};
use std::rc::Rc;

/// The chunk metadata a page's access is checked on: `isPublic` and `groups`, once per
/// distinct value among its chunks.
pub(crate) type ChunkAccess = Rc<[Map<String, Value>]>;

/// A page's bytes, and whether they are UTF-8 (decided once, when the page is made).
#[derive(Debug, Clone)]
pub(crate) struct CachedPage {
    bytes: Rc<[u8]>,
    utf8: bool,
    /// The access of the page's chunks, where the process tier keeps it.
    access: Option<ChunkAccess>,
}

impl CachedPage {
    pub(crate) fn new(bytes: Rc<[u8]>) -> Self {
        Self::with_access(bytes, None)
    }

    pub(crate) fn with_access(bytes: Rc<[u8]>, access: Option<ChunkAccess>) -> Self {
        let utf8 = crate::base::utf8::text(&bytes).is_some();
        CachedPage { bytes, utf8, access }
    }

    /// A page joined from text (chunks are JSON strings): UTF-8 without a check.
    pub(crate) fn of_text(text: String, access: Option<ChunkAccess>) -> Self {
        CachedPage { bytes: Rc::from(text.into_bytes()), utf8: true, access }
    }

    pub(crate) fn access(&self) -> Option<&ChunkAccess> {
        self.access.as_ref()
    }

    pub(crate) fn bytes(&self) -> &Rc<[u8]> {
        &self.bytes
    }

    /// The bytes as text when they are UTF-8, without validating them again.
    pub(crate) fn as_str(&self) -> Option<&str> {
        // SAFETY: `utf8` is private and set only from `utf8::text` or from a `String`.
        self.utf8.then(|| unsafe { std::str::from_utf8_unchecked(&self.bytes) })
    }
}

#[derive(Debug)]
pub(crate) struct ContentCache {
    capacity: usize,
    used: usize,
    tick: u64,
    /// The page, and when it was last used.
    entries: PathMap<PageKey, (CachedPage, u64)>,
    /// Every use, oldest first from `head`: `(tick, key)`. A use is current while the
    /// entry's tick is still its tick; older ones are skipped when eviction reaches them,
    /// and the log is rebuilt from the entries when stale uses outnumber them.
    uses: Vec<(u64, PageKey)>,
    head: usize,
}

impl ContentCache {
    pub(crate) fn new(capacity: usize) -> Self {
        ContentCache { capacity, used: 0, tick: 0, entries: PathMap::default(), uses: Vec::new(), head: 0 }
    }

    /// Records a use of `key` at a new tick; returns the tick.
    fn touch(&mut self, key: &PageKey) -> u64 {
        self.tick += 1;
        self.uses.push((self.tick, key.clone()));
        if self.uses.len() - self.head > 2 * self.entries.len() + 64 {
            self.compact();
        } else if self.head > 64 && 2 * self.head > self.uses.len() {
            // Most of the log has been evicted past: drop that part.
            self.uses.drain(..self.head);
            self.head = 0;
        }
        self.tick
    }

    /// The log of uses rebuilt from the entries: one current use each, oldest first.
    fn compact(&mut self) {
        let mut current: Vec<(u64, PageKey)> = self.entries.iter().map(|(k, (_, t))| (*t, k.clone())).collect();
        crate::base::sort::sort_by(&mut current, |a, b| a.0.cmp(&b.0));
        self.uses = current;
        self.head = 0;
    }

    /// Evicts the least recently used entry; false when there is none.
    fn evict_oldest(&mut self) -> bool {
        while self.head < self.uses.len() {
            let (tick, key) = &self.uses[self.head];
            self.head += 1;
            if self.entries.get(key).is_some_and(|(_, t)| t == tick) {
                let key = key.clone();
                if let Some((p, _)) = self.entries.remove(&key) {
                    self.used -= p.bytes.len();
                }
                return true;
            }
        }
        false
    }

    pub(crate) fn get(&mut self, key: &PageKey) -> Option<CachedPage> {
        if !self.entries.contains_key(key) {
            return None;
        }
        let tick = self.touch(key);
        let (page, last) = self.entries.get_mut(key)?;
        *last = tick;
        Some(page.clone())
    }

    pub(crate) fn contains(&self, key: &PageKey) -> bool {
        self.entries.contains_key(key)
    }

    pub(crate) fn insert(&mut self, key: PageKey, bytes: Rc<[u8]>) {
        self.insert_page(key, CachedPage::new(bytes));
    }

    /// Keeps a page (and what is known of it), evicting the least recently used to fit.
    pub(crate) fn insert_page(&mut self, key: PageKey, page: CachedPage) {
        self.remove(&key);
        let len = page.bytes.len();
        if len > self.capacity {
            return;
        }
        while self.used + len > self.capacity && self.evict_oldest() {}
        self.used += len;
        let tick = self.touch(&key);
        self.entries.insert(key, (page, tick));
    }

    /// Keeps a page only where it fits without evicting another.
    pub(crate) fn insert_if_room(&mut self, key: PageKey, page: CachedPage) {
        if self.contains(&key) || self.used + page.bytes.len() > self.capacity {
            return;
        }
        self.insert_page(key, page);
    }

    /// A new byte budget; pages past it are evicted, least recently used first.
    pub(crate) fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        while self.used > self.capacity && self.evict_oldest() {}
    }

    pub(crate) fn remove(&mut self, key: &PageKey) {
        if let Some((p, _)) = self.entries.remove(key) {
            self.used -= p.bytes.len();
        }
    }

    /// The byte budget.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Bytes currently held.
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(slug: &str) -> PageKey {
        PageKey { collection_id: "c".into(), tree_version: "v1".into(), slug: slug.into() }
    }

    fn bytes(n: usize) -> Rc<[u8]> {
        vec![b'x'; n].into()
    }

    #[test]
    fn evicts_least_recently_used_by_bytes() {
        let mut c = ContentCache::new(100);
        c.insert(key("a"), bytes(40));
        c.insert(key("b"), bytes(40));
        assert!(c.get(&key("a")).is_some()); // a is now the most recent
        c.insert(key("c"), bytes(40)); // evicts b
        assert!(c.contains(&key("a")));
        assert!(!c.contains(&key("b")));
        assert!(c.contains(&key("c")));
        assert_eq!(c.used(), 80);
    }

    #[test]
    fn the_log_of_uses_stays_bounded_and_the_order_exact() {
        let mut c = ContentCache::new(30);
        for k in ["a", "b", "c"] {
            c.insert(key(k), bytes(10));
        }
        for _ in 0..1000 {
            c.get(&key("a"));
            c.get(&key("b"));
        }
        assert!(c.uses.len() - c.head <= 2 * c.len() + 64, "{} uses kept", c.uses.len());
        c.insert(key("d"), bytes(10));
        assert!(!c.contains(&key("c")), "c, untouched since its insert, is the oldest");
        c.insert(key("e"), bytes(10));
        assert!(!c.contains(&key("a")), "then a, used before b each round");
        assert!(c.contains(&key("b")) && c.contains(&key("d")) && c.contains(&key("e")));
        for i in 0..5000 {
            c.insert(key(&format!("n{i}")), bytes(10));
        }
        assert!(c.uses.len() <= 2 * 64 + 2 * c.len() + 2, "evicted uses are dropped: {}", c.uses.len());
    }

    #[test]
    fn never_exceeds_its_budget() {
        let mut c = ContentCache::new(100);
        for i in 0..50 {
            c.insert(key(&i.to_string()), bytes(7 + i % 13));
            assert!(c.used() <= 100);
        }
        c.insert(key("huge"), bytes(101));
        assert!(!c.contains(&key("huge")));
        assert!(c.used() <= 100);
    }

    #[test]
    fn a_scan_fills_the_room_left_and_evicts_nothing() {
        let mut c = ContentCache::new(100);
        c.insert(key("kept"), bytes(40));
        for i in 0..10 {
            c.insert_if_room(key(&format!("scan{i}")), CachedPage::new(bytes(25)));
        }
        assert!(c.contains(&key("kept")), "what was there stays");
        assert!(c.contains(&key("scan0")) && c.contains(&key("scan1")) && !c.contains(&key("scan2")));
        assert_eq!(c.used(), 90);
    }

    #[test]
    fn replacing_an_entry_keeps_the_accounting() {
        let mut c = ContentCache::new(100);
        c.insert(key("a"), bytes(60));
        c.insert(key("a"), bytes(30));
        assert_eq!(c.used(), 30);
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn versions_and_collections_are_separate() {
        let mut c = ContentCache::new(100);
        c.insert(key("a"), bytes(1));
        let newer = PageKey { tree_version: "v2".into(), ..key("a") };
        let other = PageKey { collection_id: "d".into(), ..key("a") };
        assert!(c.get(&newer).is_none());
        assert!(c.get(&other).is_none());
    }

    #[test]
    fn pages_know_whether_they_are_text() {
        assert_eq!(CachedPage::new(b"caf\xc3\xa9".as_slice().into()).as_str(), Some("café"));
        assert_eq!(CachedPage::new(b"\xff".as_slice().into()).as_str(), None);
        let mut c = ContentCache::new(100);
        c.insert(key("a"), b"\xc3".as_slice().into());
        assert_eq!(c.get(&key("a")).map(|p| p.as_str().is_none()), Some(true));
    }
}
