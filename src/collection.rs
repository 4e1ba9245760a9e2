//! One collection, as the filesystem reads it: scoped, paginated, bounded.
//!
//! Every content query goes through a [`Collection`]. When the collection's chunks carry
//! their pages' access, the session's [`Scope`] is ANDed into each query's `where`, so
//! Chroma itself refuses what the session may not see. Paginated reads are bounded by what
//! the caller expects ([`Bound`]): a server that ignores `offset`, repeats or adds
//! records, or answers more than it was asked, gets an error that says so, never a loop
//! or unbounded memory.

use crate::access::Scope;
use crate::chroma::{ChromaError, Client, GetRequest, GetResponse, MAX_PAGE, MAX_WHERE_PREDICATES};
use crate::schema::Schema;
use crate::sync::join_all;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::rc::Rc;

/// What a paginated read may bring back at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    pub records: usize,
    /// Bytes of documents.
    pub bytes: u64,
}

impl Bound {
    /// For reads whose size nothing predicts (a page with no recorded chunk count).
    pub const ANY: Bound = Bound { records: 100_000, bytes: 256 << 20 };

    /// For reads of a whole collection (Chroma Cloud's cap on records per collection).
    pub const COLLECTION: Bound = Bound { records: 5_000_000, bytes: 1 << 40 };

    pub fn records(records: usize) -> Bound {
        Bound { records, ..Bound::ANY }
    }
}

fn decode_error(what: &str, cause: String) -> ChromaError {
    ChromaError::Decode { what: what.to_string(), cause }
}

/// A `get` of every matching record, `MAX_PAGE` at a time, checked page by page.
pub async fn get_all(client: &Client, collection_id: &str, mut req: GetRequest, bound: Bound, what: &str) -> Result<GetResponse, ChromaError> {
    let mut all = GetResponse::default();
    let mut seen = HashSet::new();
    let mut bytes = 0u64;
    loop {
        req.limit = Some(MAX_PAGE);
        req.offset = (!all.ids.is_empty()).then_some(all.ids.len());
        let part = client.get_once(collection_id, &req, what).await?;
        let n = part.ids.len();
        if n > MAX_PAGE {
            return Err(decode_error(what, format!("{n} records in answer to a request for at most {MAX_PAGE}")));
        }
        if let Some(again) = part.ids.iter().find(|id| !seen.insert(id.as_str().to_string())) {
            return Err(decode_error(what, format!("record {again:?} came back twice (the server ignores offset or repeats records)")));
        }
        bytes += (0..n).filter_map(|i| part.document(i)).map(|d| d.len() as u64).sum::<u64>();
        all.extend(part);
        if all.ids.len() > bound.records {
            return Err(decode_error(what, format!("more records than the {} expected", bound.records)));
        }
        if bytes > bound.bytes {
            return Err(decode_error(what, format!("more than the {} bytes of documents expected", bound.bytes)));
        }
        if n < MAX_PAGE {
            return Ok(all);
        }
    }
}

/// A collection on a server, read by one session.
#[derive(Clone)]
pub struct Collection {
    pub client: Rc<Client>,
    pub id: String,
    pub schema: Schema,
    /// The session's access, when the collection's chunks carry it.
    pub scope: Option<Scope>,
}

impl Collection {
    /// How many values a `$in` may hold next to the access clause, within Chroma Cloud's
    /// where predicates (each `$in` value counts as one).
    pub fn slugs_per_query(&self) -> usize {
        let access = self.scope.as_ref().map_or(0, Scope::predicates);
        MAX_WHERE_PREDICATES.saturating_sub(access).max(1)
    }

    /// The request once per access clause, each with the clause ANDed into its `where`.
    pub fn scoped(&self, req: GetRequest) -> Vec<GetRequest> {
        let Some(scope) = &self.scope else { return vec![req] };
        scope
            .clauses()
            .into_iter()
            .map(|clause| {
                let where_ = match &req.where_ {
                    Some(w) => json!({ "$and": [w, clause] }),
                    None => clause,
                };
                GetRequest { where_: Some(where_), ..req.clone() }
            })
            .collect()
    }

    /// Every matching record the session may see, within `bound` per query.
    pub async fn get_all(&self, req: GetRequest, bound: Bound, what: &str) -> Result<GetResponse, ChromaError> {
        let mut parts = Vec::new();
        for req in self.scoped(req) {
            parts.push(get_all(&self.client, &self.id, req, bound, what).await?);
        }
        Ok(merge(parts))
    }

    /// Records by id, at most [`MAX_PAGE`] ids a request, the requests issued together
    /// (the client caps how many are in flight). Ids not found are simply absent, and so
    /// are records the session's access does not admit: they are checked here, on their
    /// metadata, because Chroma 1.5.9 answers `ids` combined with a `where` two orders of
    /// magnitude slower than either alone.
    pub async fn get_by_ids(&self, ids: &[String], what: &str) -> Result<GetResponse, ChromaError> {
        let reqs: Vec<GetRequest> = ids
            .chunks(MAX_PAGE)
            .map(|batch| GetRequest { ids: Some(batch.to_vec()), include: vec!["documents", "metadatas"], limit: Some(batch.len()), ..Default::default() })
            .collect();
        let parts = join_all(reqs.iter().map(|req| self.client.get_once(&self.id, req, what)).collect()).await;
        let mut all = GetResponse::default();
        for (req, part) in reqs.iter().zip(parts) {
            let part = part?;
            let asked = req.ids.as_ref().map_or(0, Vec::len);
            if part.ids.len() > asked {
                return Err(decode_error(what, format!("{} records in answer to a request for {asked} ids", part.ids.len())));
            }
            for i in 0..part.ids.len() {
                if self.scope.as_ref().is_none_or(|s| s.admits(part.metadata(i))) {
                    all.push_from(&part, i);
                }
            }
        }
        Ok(all)
    }
}

/// Records of several answers, each once.
fn merge(parts: Vec<GetResponse>) -> GetResponse {
    let mut parts = parts.into_iter();
    let mut all = parts.next().unwrap_or_default();
    let mut seen: HashSet<String> = all.ids.iter().cloned().collect();
    for part in parts {
        for i in 0..part.ids.len() {
            if seen.insert(part.ids[i].clone()) {
                all.push_from(&part, i);
            }
        }
    }
    all
}

/// `{field: {"$in": values}}`.
pub fn any_of(field: &str, values: &[String]) -> Value {
    json!({ field: { "$in": values } })
}

#[cfg(test)]
mod tests;
