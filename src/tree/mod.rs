//! The tree side: which pages exist, where, and who may see them.
//!
//! The pipeline, one module per step: [`load`] fetches the tree record (and its
//! [`shards`], gzip and base64 by [`codec`], or the [`annotations`] beside a tree another
//! tool wrote) and keeps decoded trees for the process;
//! [`decode`] validates a tree as a whole before anything is shown (each entry read as
//! its [`fields`], without building a JSON value per entry); [`access`] decides
//! visibility and turns a session's groups into Chroma `where` clauses; [`listing`]
//! indexes the pages one session may see, and [`versions`] which of them a session
//! scoped to one version of the docs shows. [`schema`] names the collection's fields, which
//! the tree side and the page side both read.
//!
//! Nothing here reads page contents: that is [`crate::pages`].

pub(crate) mod access;
pub(crate) mod annotations;
pub(crate) mod codec;
pub(crate) mod decode;
mod fields;
pub(crate) mod listing;
pub(crate) mod load;
pub(crate) mod schema;
pub(crate) mod shards;
pub(crate) mod versions;
