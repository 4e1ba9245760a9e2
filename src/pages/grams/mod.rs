//! The grep index: which pages hold which pieces of text, kept in the collection itself.
//!
//! Chroma's own text filters are fast only where its index serves them; single-node Chroma
//! answers `$regex` and a case-insensitive search by reading every record, so a search on a
//! large site would wait on a scan of the whole database before a page is read. chromafs
//! keeps an index of its own instead, written by `chromafs ingest` with the tree: for each
//! access class, each piece of three bytes of the pages' case-folded text (with the class
//! of the byte after it) and the pages that hold it ([`fold`], [`postings`], [`shard`],
//! [`manifest`]). A search turns its patterns into a formula over pieces ([`query`]),
//! reads the few records that hold them by id ([`lookup`]), and reads and checks only the
//! pages the formula keeps. The index is a prefilter: folding and pieces can keep more
//! pages than match, never fewer, and the search's own check decides. [`build`] is what
//! an ingest adds to it.

pub(crate) mod build;
pub(crate) mod fold;
mod fold_table;
pub(crate) mod lookup;
pub(crate) mod manifest;
pub(crate) mod postings;
pub(crate) mod query;
pub(crate) mod shard;

/// Whether `id` is a record of the grep index (never a chunk or the tree).
pub(crate) fn is_index_record(id: &str) -> bool {
    id.strip_prefix(shard::PREFIX).is_some_and(|rest| rest.starts_with(':'))
}
