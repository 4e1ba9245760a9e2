//! The pattern: what an agent's grep or rg pattern means, as Chroma's coarse filter and as
//! the check of a page's lines.
//!
//! [`rewrite`] turns a pattern into RE2 text as just-bash does, [`syntax`] parses that into
//! what the other steps read, and [`literals`] says which literals a matching line must
//! hold. [`lite`] spells RE2 for regex-lite, the one engine every check uses. [`filter`]
//! builds the coarse filter Chroma applies and [`matcher`] the fine check of loaded pages,
//! neither ever a false negative; [`engine`] matches lines exactly as just-bash's grep and rg
//! do, for the commands answered in Rust.

pub(crate) mod engine;
pub(crate) mod filter;
pub(crate) mod lite;
pub(crate) mod literals;
pub(crate) mod matcher;
pub(crate) mod rewrite;
pub(crate) mod syntax;
