//! The cross-process cache: pages shared by many sessions, processes or workers.
//!
//! A host may put a cache it owns (Redis, the Workers Cache API) behind the in-memory
//! LRU. Keys are [`PageKey::to_key_string`]: they change with the collection and the tree
//! version, so entries never need invalidating. The shared cache is an optimisation and
//! nothing more: a failing one is a miss, never a failed read, and a value whose length
//! disagrees with the tree's `size` is ignored as stale or foreign.

use super::PageKey;
use crate::base::sync::LocalFuture;
use std::rc::Rc;

/// A cache shared beyond this session, implemented by the host.
pub(crate) trait SharedCache {
    fn get(&self, key: String) -> LocalFuture<'static, Result<Option<Vec<u8>>, String>>;
    fn set(&self, key: String, value: Rc<[u8]>) -> LocalFuture<'static, Result<(), String>>;
}

impl std::fmt::Debug for dyn SharedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedCache")
    }
}

/// What one lookup in the shared cache found.
pub(crate) enum Lookup {
    Hit(Rc<[u8]>),
    Miss,
    /// The cache failed; counted, and treated as a miss.
    Failed,
}

/// Looks a page up; `size` (from the tree) guards against a stale or foreign entry.
pub(crate) async fn get(cache: &dyn SharedCache, key: &PageKey, size: Option<u64>) -> Lookup {
    match cache.get(key.to_key_string()).await {
        Ok(Some(bytes)) if size.is_none_or(|s| s == bytes.len() as u64) => Lookup::Hit(bytes.into()),
        Ok(_) => Lookup::Miss,
        Err(_) => Lookup::Failed,
    }
}

#[cfg(test)]
pub(crate) mod memory {
    //! A shared cache in memory, for tests.
    use super::*;
    use std::cell::RefCell;
    use std::collections::HashMap;

    #[derive(Clone, Default)]
    pub(crate) struct MemoryShared {
        pub entries: Rc<RefCell<HashMap<String, Vec<u8>>>>,
        pub failing: Rc<std::cell::Cell<bool>>,
    }

    impl SharedCache for MemoryShared {
        fn get(&self, key: String) -> LocalFuture<'static, Result<Option<Vec<u8>>, String>> {
            let (entries, failing) = (self.entries.clone(), self.failing.get());
            Box::pin(async move {
                if failing {
                    Err("down".into())
                } else {
                    Ok(entries.borrow().get(&key).cloned())
                }
            })
        }
        fn set(&self, key: String, value: Rc<[u8]>) -> LocalFuture<'static, Result<(), String>> {
            let (entries, failing) = (self.entries.clone(), self.failing.get());
            Box::pin(async move {
                if failing {
                    return Err("down".into());
                }
                entries.borrow_mut().insert(key, value.to_vec());
                Ok(())
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::memory::MemoryShared;
    use super::*;
    use crate::testing::block_on;

    fn key() -> PageKey {
        PageKey { collection_id: "c".into(), tree_version: "v1".into(), slug: "a.md".into() }
    }

    #[test]
    fn stale_entries_and_failures_are_misses() {
        let cache = MemoryShared::default();
        cache.entries.borrow_mut().insert(key().to_key_string(), b"four".to_vec());
        let c = cache.clone();
        assert!(matches!(block_on(async move { get(&c, &key(), Some(4)).await }), Lookup::Hit(b) if &*b == b"four"));
        let c = cache.clone();
        assert!(
            matches!(block_on(async move { get(&c, &key(), Some(5)).await }), Lookup::Miss),
            "size disagrees with the tree"
        );
        cache.failing.set(true);
        let c = cache.clone();
        assert!(matches!(block_on(async move { get(&c, &key(), None).await }), Lookup::Failed));
        assert_eq!(key().to_key_string(), "chromafs:1:c2:v14:a.md");
    }
}
