//! The page side: what a visible page holds, and where its bytes come from.
//!
//! [`heading`] reads what a page says it is (its title and description).
//! [`store`] is the byte-bounded page store (memory, reads in flight, the host's shared
//! cache, chunk assembly, lazy files, bulk loads); [`collection`] is every content query
//! the store sends, scoped by the session's access and bounded by what the tree declares.
//! Its process tier ([`store::process`]) shares loaded pages between the sessions of one
//! process that share a tree, and [`collection::answers`] the answers to their coarse
//! queries; both serve them once [`freshness`] confirms the session's tree is current.
//! The page side never sees a session's groups or listing: the filesystem hands it a
//! visible page as a [`store::PageRef`].

pub(crate) mod collection;
pub(crate) mod freshness;
pub(crate) mod grams;
pub(crate) mod heading;
pub(crate) mod store;
