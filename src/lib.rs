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

mod access;
mod breaker;
mod budget;
mod chroma;
mod codec;
mod collection;
mod commands;
mod error;
mod fetch;
mod fs;
mod ingest;
mod journal;
mod json;
mod key;
mod layout;
mod listing;
mod options;
mod origin;
mod path;
mod redact;
mod schema;
mod scratch;
mod search;
mod sort;
mod stats;
mod store;
mod sync;
mod transport;
mod tree;
mod trees;
pub mod url;
pub mod wasm;

#[cfg(test)]
mod testing;
