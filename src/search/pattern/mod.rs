//! The pattern: what an agent's grep or rg pattern means, as Chroma's coarse filter and as
//! the check of a page's lines.
//!
//! [`rewrite`] turns a pattern into RE2-subset text with the tool's meaning ([`gnu`] for
//! GNU grep's BRE and ERE), [`syntax`] parses that into what the other steps read, and
//! [`literals`] says which literals a matching line must hold. [`lite`] spells RE2 for
//! regex-lite, the one engine every check uses. [`filter`] builds the coarse filter Chroma
//! applies and [`matcher`] the fine check of loaded pages, neither ever a false negative;
//! [`engine`] matches lines exactly as GNU grep and ripgrep do, for the commands answered
//! in Rust ([`unicode`] for lines beyond ASCII, [`longest`] for GNU grep's `-o`);
//! [`multiline`] says whether an rg `-U` pattern can span lines at all, [`rg_syntax`] which
//! malformed count ripgrep refuses; [`finders`] finds
//! the literals a matching line holds in a page as it is, [`caseless`] in any case without
//! folding the page. [`perl`] names the backtracking engine grep `-P` patterns beyond the
//! subset are matched with, and widens them into the subset for everything else.

mod caseless;
pub(crate) mod engine;
pub(crate) mod filter;
mod finders;
pub(crate) mod gnu;
pub(crate) mod lite;
pub(crate) mod literals;
mod longest;
pub(crate) mod matcher;
pub(crate) mod multiline;
pub(crate) mod perl;
pub(crate) mod rewrite;
pub(crate) mod rg_syntax;
pub(crate) mod syntax;
mod unicode;
mod unicode_tables;
