//! The memory cache: a byte-bounded LRU of page contents.
//!
//! Keys carry the collection id and the tree version as well as the slug, so a
//! re-ingested collection (new tree version) or another collection never hits an old
//! entry. Pages are reference-counted: a hit hands out the same bytes with no copy.
//! A page larger than the whole budget is served but never cached. Whether a page is
//! UTF-8 is decided once, when it is cached, so searches over cached pages need not
//! validate them again.

use super::PageKey;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// A page's bytes, and whether they are UTF-8 (decided once, when the page is made).
#[derive(Debug, Clone)]
pub(crate) struct CachedPage {
    bytes: Rc<[u8]>,
    utf8: bool,
}

impl CachedPage {
    pub(crate) fn new(bytes: Rc<[u8]>) -> Self {
        let utf8 = std::str::from_utf8(&bytes).is_ok();
        CachedPage { bytes, utf8 }
    }

    pub(crate) fn bytes(&self) -> &Rc<[u8]> {
        &self.bytes
    }

    /// The bytes as text when they are UTF-8, without validating them again.
    pub(crate) fn as_str(&self) -> Option<&str> {
        // SAFETY: `utf8` is private and set only by `new`, from `str::from_utf8`.
        self.utf8.then(|| unsafe { std::str::from_utf8_unchecked(&self.bytes) })
    }
}

#[derive(Debug)]
pub(crate) struct ContentCache {
    capacity: usize,
    used: usize,
    tick: u64,
    /// The page, and when it was last used.
    entries: HashMap<PageKey, (CachedPage, u64)>,
    order: BTreeMap<u64, PageKey>,
}

impl ContentCache {
    pub(crate) fn new(capacity: usize) -> Self {
        ContentCache { capacity, used: 0, tick: 0, entries: HashMap::new(), order: BTreeMap::new() }
    }

    pub(crate) fn get(&mut self, key: &PageKey) -> Option<CachedPage> {
        self.tick += 1;
        let tick = self.tick;
        let (page, last) = self.entries.get_mut(key)?;
        self.order.remove(last);
        *last = tick;
        self.order.insert(tick, key.clone());
        Some(page.clone())
    }

    pub(crate) fn contains(&self, key: &PageKey) -> bool {
        self.entries.contains_key(key)
    }

    pub(crate) fn insert(&mut self, key: PageKey, bytes: Rc<[u8]>) {
        self.remove(&key);
        if bytes.len() > self.capacity {
            return;
        }
        while self.used + bytes.len() > self.capacity {
            let Some((_, oldest)) = self.order.pop_first() else { break };
            if let Some((p, _)) = self.entries.remove(&oldest) {
                self.used -= p.bytes.len();
            }
        }
        self.tick += 1;
        self.used += bytes.len();
        self.order.insert(self.tick, key.clone());
        self.entries.insert(key, (CachedPage::new(bytes), self.tick));
    }

    pub(crate) fn remove(&mut self, key: &PageKey) {
        if let Some((p, tick)) = self.entries.remove(key) {
            self.used -= p.bytes.len();
            self.order.remove(&tick);
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
