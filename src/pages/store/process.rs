//! The process tier: pages shared by every session of a process (or isolate).
//!
//! A page is immutable for a tree version, so a server hosting many conversations about
//! one docs site need not fetch it once per session. Pages are shared only between
//! sessions that share a tree (the same server, tenant, database, collection, tree record
//! and credentials: the process tree cache's key), so a session never reads through
//! another's token what its own would not get. Access does not change: a session reaches a
//! page only through its own listing, and on a collection whose chunks carry access, the
//! page is kept with the access of each of its chunks and every use checks them against
//! the session's own scope, exactly as Chroma would have: a page an admin session loaded
//! never reaches a public one. One byte budget bounds the tier for the whole process,
//! least recently used pages going first.

use super::lru::{CachedPage, ChunkAccess, ContentCache};
use super::PageKey;
use crate::tree::access::SessionAccess;
use serde_json::{Map, Value};
use std::cell::RefCell;

/// The default byte budget of the tier (`processCacheBytes`).
pub(crate) const DEFAULT_BYTES: usize = 64 << 20;

thread_local! {
    static TIER: RefCell<ContentCache> = RefCell::new(ContentCache::new(DEFAULT_BYTES));
}

/// Sets the tier's byte budget for the whole process; 0 turns it off, and with it the
/// answers to coarse queries sessions share ([`crate::pages::collection::answers::Shared`]).
pub(crate) fn set_capacity(bytes: usize) {
    TIER.with(|t| t.borrow_mut().set_capacity(bytes));
    if bytes == 0 {
        crate::pages::collection::answers::forget_shared();
    }
}

/// The tier's byte budget.
pub(crate) fn capacity() -> usize {
    TIER.with(|t| t.borrow().capacity())
}

/// Whether the tier is on: sessions then share what they load and what Chroma answered.
pub(crate) fn is_on() -> bool {
    TIER.with(|t| t.borrow().capacity() > 0)
}

/// One session's view of the tier.
#[derive(Debug, Clone)]
pub(crate) struct ProcessPages {
    /// The tree's process-wide key and the collection's id, keyed injectively.
    prefix: std::rc::Rc<str>,
    /// The session's access, when the collection's chunks carry it.
    scope: Option<SessionAccess>,
}

impl ProcessPages {
    pub(crate) fn new(tree_key: &str, collection_id: &str, scope: Option<SessionAccess>) -> Self {
        ProcessPages { prefix: crate::base::key::of([tree_key, collection_id]).into(), scope }
    }

    fn key(&self, key: &PageKey) -> PageKey {
        PageKey { collection_id: self.prefix.clone(), tree_version: key.tree_version.clone(), slug: key.slug.clone() }
    }

    /// A page another session (or this one) loaded, if this session may read it as it is.
    pub(crate) fn get(&self, key: &PageKey) -> Option<CachedPage> {
        let page = TIER.with(|t| t.borrow_mut().get(&self.key(key)))?;
        match (&self.scope, page.access()) {
            (None, _) => Some(page),
            (Some(scope), Some(access)) if access.iter().all(|m| scope.admits(Some(m))) => Some(page),
            // Kept without its chunks' access (from the host's shared cache), or holding
            // a chunk this session may not read: Chroma decides.
            (Some(_), _) => None,
        }
    }

    /// Keeps a page for every session of the tree, with its access as its chunks said,
    /// when they carry access.
    pub(crate) fn put(&self, key: &PageKey, page: CachedPage) {
        TIER.with(|t| t.borrow_mut().insert_page(self.key(key), page));
    }

    /// [`ProcessPages::put`] only where the page fits without evicting another.
    pub(crate) fn put_if_room(&self, key: &PageKey, page: CachedPage) {
        TIER.with(|t| t.borrow_mut().insert_if_room(self.key(key), page));
    }
}

/// The distinct access metadata of records `records` of an answer.
pub(crate) fn access_of<'a>(metadata: impl Iterator<Item = Option<&'a Map<String, Value>>>) -> ChunkAccess {
    let mut seen: Vec<Map<String, Value>> = Vec::new();
    for m in metadata {
        let mut only = Map::new();
        for field in [crate::tree::schema::IS_PUBLIC, crate::tree::schema::GROUPS] {
            if let Some(v) = m.and_then(|m| m.get(field)) {
                only.insert(field.to_string(), v.clone());
            }
        }
        if !seen.contains(&only) {
            seen.push(only);
        }
    }
    seen.into()
}

#[cfg(test)]
mod tests;
