//! The chunks a ranked search asks Chroma for: nearest neighbours of the query's
//! embedding, and the chunks that contain its terms.
//!
//! Both requests carry the session's access (when chunks carry it) and the `--path`
//! directory (when chunks carry their directories), exactly as grep's coarse query does,
//! and neither ever names a page. Every chunk that comes back is checked again here: its
//! access, and that its slug is a page of the session's listing under the directory
//! searched. A chunk that fails either check is dropped before anything is counted, so
//! hidden pages take no part in a score. On collections whose chunks carry no access
//! (written by other tools), Chroma cannot leave hidden chunks out; more neighbours are
//! asked for and the listing decides (`chromafs annotate` makes such a collection scoped).
//! How the nearest chunks are ranked is [`super::nearest`]'s.

use super::words::{specificity, spellings};
use crate::chroma::{ChromaError, GetRequest, GetResponse, MAX_PAGE};
use crate::pages::collection::Collection;
use crate::search::pattern::filter::MAX_DOCUMENT_PREDICATES;
use crate::search::view::SessionView;
use crate::tree::schema;
use serde_json::{json, Value};
use std::collections::HashSet;

/// Terms that ask Chroma for candidates, at most (two requests hold two or three each).
const FILTER_TERMS: usize = 6;
/// Pieces of CJK text asked at most (see [`super::script::probes`]): one spelling each, so
/// the two requests hold this many.
pub(super) const FILTER_PROBES: usize = 2 * MAX_DOCUMENT_PREDICATES;

/// One chunk of a visible page.
#[derive(Debug, Clone)]
pub(super) struct Chunk {
    pub id: String,
    pub path: String,
    /// The language of its page (see [`super::lang::of_page`]), read from the path without
    /// the mount directory.
    pub lang: &'static str,
    pub text: String,
    pub start_line: Option<u64>,
}

/// Where a search looks: a directory (normalised; `/` for everything).
pub(super) struct Reach<'a> {
    pub view: SessionView<'a>,
    pub dir: &'a str,
}

impl Reach<'_> {
    pub(super) fn collection(&self) -> &Collection {
        self.view.collection()
    }

    /// The directory as a `where`, when chunks carry their directories.
    pub(super) fn dir_where(&self) -> Option<Value> {
        let dir = self.view.chunk_dir(self.dir.trim_start_matches('/'));
        (!dir.is_empty() && self.view.chunks_have_dirs()).then(|| json!({ schema::DIRS: { "$contains": dir } }))
    }

    /// Whether Chroma leaves out what the search may not show: what the session may not
    /// see, and other versions' pages when the view leaves them out.
    pub(super) fn scoped(&self) -> bool {
        self.collection().is_scoped() && !self.view.leaves_out_versions()
    }

    /// How many chunks the visible pages a scoped request selects have (those under the
    /// directory when chunks carry their directories, else the whole collection's), when
    /// the tree counts every one's.
    pub(super) fn scope_chunks(&self) -> Option<u64> {
        self.view.chunks_counted_under(if self.dir_where().is_some() { self.dir } else { "/" })
    }

    /// Record `i` as a chunk of a page the session sees under the directory searched.
    pub(super) fn chunk(&self, resp: &GetResponse, i: usize) -> Option<Chunk> {
        let collection = self.collection();
        let meta = resp.metadata(i);
        if !collection.admits(meta) {
            return None;
        }
        let slug = collection.schema().slug_of(resp, i)?;
        let path = self.view.path_of(slug)?;
        let under = self.dir == "/" || path.strip_prefix(self.dir).is_some_and(|rest| rest.starts_with('/'));
        if !under {
            return None;
        }
        Some(Chunk {
            id: resp.ids[i].clone(),
            path: path.to_string(),
            lang: super::lang::of_page(self.view.unmounted(path)),
            text: resp.document(i)?.to_string(),
            start_line: meta.and_then(|m| m.get(schema::START_LINE)).and_then(Value::as_u64),
        })
    }

    fn chunks(&self, resp: &GetResponse, seen: &mut HashSet<String>) -> Vec<Chunk> {
        (0..resp.ids.len()).filter(|i| seen.insert(resp.ids[*i].clone())).filter_map(|i| self.chunk(resp, i)).collect()
    }

    /// Chunks holding any of `terms` (by substring, in the spellings a page writes), in
    /// at most two requests of at most [`MAX_DOCUMENT_PREDICATES`] spellings each, the most
    /// specific terms first. When a request comes back full, the term that most of its
    /// chunks hold is left out and the rest asked again, so a common word cannot crowd out
    /// the rare ones; otherwise the next request asks the terms that did not fit.
    /// `probes` (pieces of CJK text, the most telling first) fill what room the terms leave.
    pub(super) async fn containing(
        &self,
        terms: &[String],
        probes: &[String],
        query: &str,
    ) -> Result<Vec<Chunk>, ChromaError> {
        let mut pending: Vec<&String> = terms.iter().filter(|t| t.chars().count() >= 3).collect();
        crate::base::sort::sort_by(&mut pending, |a, b| specificity(b).cmp(&specificity(a)));
        pending.truncate(FILTER_TERMS);
        let used: usize = pending.iter().map(|t| spellings(t, query).len()).sum();
        pending.extend(probes.iter().take(FILTER_PROBES.saturating_sub(used)));
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for _ in 0..2 {
            if pending.is_empty() {
                break;
            }
            let (asked, leaves) = next_batch(&pending, query);
            let (chunks, full) = self.containing_once(leaves, &mut seen).await?;
            out.extend(chunks);
            if full && asked.len() > 1 {
                let commonest = commonest(&asked, &out);
                pending.retain(|t| **t != commonest);
            } else {
                pending.retain(|t| !asked.contains(t));
            }
        }
        Ok(out)
    }

    async fn containing_once(
        &self,
        mut contains: Vec<Value>,
        seen: &mut HashSet<String>,
    ) -> Result<(Vec<Chunk>, bool), ChromaError> {
        let collection = self.collection();
        let where_document = if contains.len() == 1 { contains.remove(0) } else { json!({ "$or": contains }) };
        let mut out = Vec::new();
        let mut full = false;
        let req = GetRequest {
            where_: self.dir_where(),
            where_document: Some(where_document),
            include: vec!["documents", "metadatas"],
            limit: Some(MAX_PAGE),
            ..Default::default()
        };
        for req in collection.scoped(req) {
            let resp = collection.get(&req, "a ranked search").await?;
            full |= resp.ids.len() >= MAX_PAGE;
            out.extend(self.chunks(&resp, seen));
        }
        Ok((out, full))
    }
}

/// The terms one request asks for, from the front of `pending`, and their `$contains`
/// leaves: whole terms while their spellings fit in Chroma Cloud's limit on full-text
/// predicates (the first term always, cut to the limit).
fn next_batch<'t>(pending: &[&'t String], query: &str) -> (Vec<&'t String>, Vec<Value>) {
    let mut asked = Vec::new();
    let mut leaves = Vec::new();
    for term in pending {
        let mut forms = spellings(term, query);
        if leaves.len() + forms.len() > MAX_DOCUMENT_PREDICATES {
            if !asked.is_empty() {
                break;
            }
            forms.truncate(MAX_DOCUMENT_PREDICATES);
        }
        leaves.extend(forms.into_iter().map(|s| json!({ "$contains": s })));
        asked.push(*term);
    }
    (asked, leaves)
}

/// The term the most chunks hold (ignoring case).
fn commonest(terms: &[&String], chunks: &[Chunk]) -> String {
    let lower: Vec<String> = chunks.iter().map(|c| c.text.to_ascii_lowercase()).collect();
    let held = |t: &String| lower.iter().filter(|text| text.contains(t.as_str())).count();
    terms.iter().max_by_key(|t| held(t)).map(|t| t.to_string()).unwrap_or_default()
}
