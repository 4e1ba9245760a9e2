//! chromafs: a read-only [just-bash](https://github.com/vercel-labs/just-bash) filesystem
//! over documentation stored in a Chroma collection.
//!
//! Each page is a file and each section a directory. The path tree and access rules are
//! loaded once; listings come from memory, page content from Chroma through a
//! quota-aware client and a byte-bounded store. The pipeline, one module per step:
//!
//! - reading the tree: [`trees`] loads and caches it, [`tree`] decodes and validates it,
//!   [`access`] decides who sees what, [`listing`] indexes one session's view, and
//!   [`fs`] answers just-bash's filesystem calls over it;
//! - reading pages: [`store`] (memory LRU, reads in flight, shared cache, chunk assembly,
//!   lazy files, bulk loads) over [`chroma`], the HTTP client, over a [`transport`]
//!   ([`fetch`] in WebAssembly);
//! - searching: [`search`] plans a grep, asks Chroma, loads and checks candidates;
//! - around them: [`options`], [`url`] and [`origin`] (URLs read as `fetch` reads them, and
//!   where requests may go), [`schema`] (the collection's field names), [`stats`],
//!   [`error`] (Node-style errors), [`ingest`] (a folder of docs into a collection), and
//!   [`wasm`], the JavaScript boundary, which only converts.

pub mod access;
pub mod breaker;
pub mod budget;
pub mod chroma;
pub mod codec;
pub mod collection;
pub mod commands;
pub mod error;
pub mod fetch;
pub mod fs;
pub mod ingest;
pub mod journal;
pub mod json;
pub mod key;
pub mod layout;
pub mod listing;
pub mod options;
pub mod origin;
pub mod path;
pub mod redact;
pub mod schema;
pub mod scratch;
pub mod search;
pub mod sort;
pub mod stats;
pub mod store;
pub mod sync;
pub mod transport;
pub mod tree;
pub mod trees;
pub mod url;
pub mod wasm;

#[cfg(test)]
pub mod testing;
