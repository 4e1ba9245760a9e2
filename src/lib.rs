//! chromafs: a read-only [just-bash](https://github.com/vercel-labs/just-bash) filesystem
//! over documentation stored in a Chroma collection.
//!
//! Each page is a file and each section a directory. The path tree and access rules are
//! loaded once; listings come from memory, page content from Chroma through a
//! quota-aware client and a byte-bounded store. The folders read as the pipeline:
//!
//! - [`tree`]: load the path tree, decode and validate it, decide who sees what, and index
//!   one session's listing;
//! - [`pages`]: the page store and the scoped, bounded queries it sends;
//! - [`chroma`]: the HTTP client, and under it the transport, budgets, the breaker and the
//!   URL rules every request obeys;
//! - [`fs`]: just-bash's filesystem calls over a listing and a page store, with the
//!   scratch directory and what each command cost;
//! - [`search`] (grep, egrep, fgrep, rg: parse once, ask Chroma, load and check candidates,
//!   print) and [`commands`] (ls, find, tree, du from the listing);
//! - [`ingest`]: a folder of docs into a collection;
//! - [`js`]: the JavaScript boundary: conversions, `fetch`, and the entry points of the
//!   ranked `search` and the writer;
//! - around them: [`options`] (what `connect` accepts) and [`base`] (errors, paths, JSON,
//!   keys, sorting, concurrency).

#![warn(unreachable_pub, missing_docs)]
// A module built with one side only (see Cargo.toml's features) leaves the other side's
// code unused; the full build, which clippy and the tests check, has no dead code.
#![cfg_attr(
    not(all(feature = "read", feature = "write", feature = "tools", feature = "perl")),
    allow(dead_code, unused_imports)
)]

mod base;
mod chroma;
mod commands;
mod fs;
mod ingest;
pub mod js;
mod options;
mod pages;
#[cfg(feature = "perl")]
mod perl;
mod search;
mod tools;
mod tree;

pub use chroma::url;

#[cfg(test)]
mod testing;
