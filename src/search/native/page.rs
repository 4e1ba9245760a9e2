//! A page as a search command reads it.
//!
//! Shared by native grep and rg: a page already in memory is taken as it is (its UTF-8
//! check done once, when it was cached); otherwise it is read the whole way, as just-bash
//! would read it.

use crate::base::error::FsError;
use crate::fs::text;
use crate::pages::store::lru::CachedPage;
use crate::search::view::SessionView;
use std::borrow::Cow;

/// A page as a command reads it: taken from memory as it is (already known to be UTF-8
/// or not), else read the whole way.
pub(super) async fn read_page(view: SessionView<'_>, path: &str) -> Result<CachedPage, FsError> {
    match view.page(path).and_then(|p| view.store().cached_page(&p.key)) {
        Some(page) => Ok(page),
        None => view.read(path).await.map(CachedPage::new),
    }
}

/// A page as just-bash's `readFile` reads it (see [`text`]).
pub(super) fn page_text(page: &CachedPage) -> Cow<'_, str> {
    match page.as_str() {
        Some(s) => Cow::Borrowed(s.strip_prefix('\u{FEFF}').unwrap_or(s)),
        None => text(page.bytes()),
    }
}
