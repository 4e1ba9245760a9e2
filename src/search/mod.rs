//! grep and rg pushdown: searches answered by Chroma first, printed by just-bash.
//!
//! The pipeline, one module per step:
//! - [`args`]: the command line, parsed exactly as just-bash parses it;
//! - [`job`]: that parse, done once, with the walk of the scope, for every step to read;
//! - [`walk`]: the files the command's directory walk visits, in its order and spelling;
//! - [`rewrite`], [`syntax`], [`literals`]: the patterns, as RE2 text, as a parse, as the
//!   literals a match requires; [`lite`]: RE2 spelled for regex-lite, for every engine;
//! - [`filter`] and [`matcher`]: the coarse Chroma filter and the fine page check, both
//!   never a false negative;
//! - [`plan`]: what to do with the command (delegate, prefetch, narrow);
//! - [`coarse`]: the Chroma query behind a narrowing;
//! - [`runner`]: the composition, run once per command;
//! - [`engine`], [`printer`], [`native`], [`native_rg`]: grep and rg answered in Rust over
//!   the pages that are left, when their flags and patterns are ones whose output is
//!   modelled exactly.
//!
//! Otherwise just-bash's own command has the last word over the files that are left, so
//! every flag and output format is exactly just-bash's either way.

pub mod args;
pub mod coarse;
pub mod engine;
pub mod filter;
pub mod job;
pub mod lite;
pub mod literals;
pub mod matcher;
pub mod native;
pub mod native_rg;
pub mod plan;
pub mod printer;
pub mod rewrite;
pub mod runner;
pub mod syntax;
#[cfg(test)]
pub mod tally;
pub mod walk;

use std::fmt;

/// Why a search cannot be narrowed (shown as `fs.stats().commands[*].note`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl Unsupported {
    pub fn new(reason: impl Into<String>) -> Self {
        Unsupported(reason.into())
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
