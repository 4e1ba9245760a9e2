//! A search of one version that no page of it answers: which other versions' pages do.
//!
//! `search --version V` keeps V's pages and those of no version. When none of them
//! answers, a question answered only in another version should say so rather than look
//! unanswered: the same question is asked once more over the session's whole view (every
//! version it may choose, built from its listing exactly as a search without `--version`
//! reads it, so never a hidden page), and the best pages of other versions are named.
//! Only then, and only for a session that sees other versions (a session scoped to one
//! sees no other): at most one search more, and none after a search that found a page.

use super::{search, Hit, Query, RankError};
use crate::base::embed::Embedder;
use crate::fs::Filesystem;
use crate::search::view::SessionView;

/// The most pages of other versions named.
pub(crate) const MAX_NAMED: usize = 3;

/// What a ranked search found: its hits, and when a search of one version found none,
/// the best pages of other versions that answer the same question (else none).
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub hits: Vec<Hit>,
    pub elsewhere: Vec<Hit>,
}

/// Whether a search of `version` that found nothing asks the other versions: the session
/// is not scoped to one and sees a version other than `version`.
pub(super) fn worth_asking(fs: &Filesystem, version: &str) -> bool {
    let seen = fs.versions();
    !seen.scoped && seen.names.iter().any(|n| n != version)
}

/// The best pages of versions other than `version` that answer `q` over the session's
/// whole view, at most [`MAX_NAMED`].
pub(super) async fn other_versions(
    fs: &Filesystem,
    embedder: Option<&dyn Embedder>,
    q: &Query,
    version: &str,
) -> Result<Vec<Hit>, RankError> {
    let whole = Query { version: None, k: q.k.max(MAX_NAMED), ..q.clone() };
    let hits = search(SessionView::new(fs, None), embedder, &whole).await?;
    let other = |h: &Hit| h.version.as_deref().is_some_and(|v| v != version);
    Ok(hits.into_iter().filter(other).take(MAX_NAMED).collect())
}

/// What `search --version V` says on stderr when no page of V answers but pages of
/// other versions do: the first of them, each with its version.
pub(crate) fn said(version: &str, elsewhere: &[Hit]) -> String {
    let named: Vec<String> = elsewhere
        .iter()
        .map(|h| format!("{} (version {})", h.path, h.version.as_deref().unwrap_or_default()))
        .collect();
    format!(
        "search: no page of version {version} answers the query; pages of other versions do: {}\n",
        named.join(", ")
    )
}
