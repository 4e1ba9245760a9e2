//! Whether what other sessions kept may be served to this one now.
//!
//! Pages in the process tier and the shared cache, and answers to coarse queries other
//! sessions asked, are kept by tree version. A session may still hold a tree the collection
//! has replaced (a re-ingest that made a page private): what was kept for that version is
//! served only once the session's tree is confirmed to be the collection's as of the
//! running command. The tree side answers it ([`crate::tree::load::TreeCheck`]); the page
//! side only asks.

use crate::base::sync::LocalFuture;
use std::fmt;

/// Whether the session's tree is still the collection's as of the running command's start.
pub(crate) trait Freshness {
    fn confirmed(&self) -> LocalFuture<'_, bool>;
}

impl fmt::Debug for dyn Freshness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Freshness")
    }
}
