//! chromafs: a read-only [just-bash](https://github.com/vercel-labs/just-bash) filesystem
//! over documentation stored in a Chroma collection.
//!
//! Each page is a file and each section a directory. The path tree and access rules are
//! loaded once; listings come from memory, page content from Chroma through a
//! quota-aware client and a byte-bounded cache. The pieces, one module each:
//!
//! - [`path`]: path normalisation, as just-bash does it.
//! - [`tree`]: the path tree record, its validation, and per-session views.
//! - [`access`]: who sees what (fail closed).
//! - [`chroma`]: the HTTP API v2 client; [`fetch`] moves its bytes in WebAssembly.
//! - [`pages`] and [`cache`]: assembling pages from chunks, and keeping them.
//! - [`lazy`]: files fetched from a URL or a host callback on first read.
//! - [`fs`]: the filesystem semantics; [`error`]: Node-style errors.
//! - [`ingest`]: turning a folder of docs into a collection.
//! - [`wasm`]: the JavaScript boundary, conversions only.

pub mod access;
pub mod cache;
pub mod chroma;
pub mod codec;
pub mod error;
pub mod fetch;
pub mod fs;
pub mod ingest;
pub mod join;
pub mod lazy;
pub mod pages;
pub mod path;
pub mod pattern;
pub mod search;
pub mod tree;
pub mod wasm;
