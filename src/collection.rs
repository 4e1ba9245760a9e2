//! One collection, as the filesystem reads it: scoped, paginated, bounded.
//!
//! Every content query goes through a [`Collection`]. When the collection's chunks carry
//! their pages' access, the session's [`Scope`] is ANDed into each query's `where`, so
//! Chroma itself refuses what the session may not see. Paginated reads are bounded by what
//! the caller expects ([`Bound`]): a server that ignores `offset`, repeats or adds
//! records, or answers more than it was asked, gets an error that says so, never a loop
//! or unbounded memory.

use crate::access::Scope;
use crate::chroma::{ChromaError, Client, GetRequest, GetResponse, MAX_PAGE};
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
    /// The request once per access clause, each with the clause ANDed into its `where`.
    fn scoped(&self, req: GetRequest) -> Vec<GetRequest> {
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

    /// A read whose size is known (`total` records): every page of it at once, the client
    /// capping how many are in flight.
    pub async fn get_known(&self, req: GetRequest, total: usize, what: &str) -> Result<GetResponse, ChromaError> {
        let mut reqs = self.scoped(req);
        if reqs.len() > 1 {
            // Several clauses split the records unpredictably: read each to its end.
            let mut parts = Vec::new();
            for req in reqs {
                parts.push(get_all(&self.client, &self.id, req, Bound::records(total), what).await?);
            }
            return Ok(merge(parts));
        }
        let req = reqs.pop().expect("one clause");
        let windows = total.div_ceil(MAX_PAGE).max(1);
        let parts = join_all(
            (0..windows)
                .map(|i| {
                    let req = GetRequest { limit: Some(MAX_PAGE), offset: (i > 0).then_some(i * MAX_PAGE), ..req.clone() };
                    async move { self.client.get_once(&self.id, &req, what).await }
                })
                .collect(),
        )
        .await;
        let mut all = GetResponse::default();
        let mut seen = HashSet::new();
        for part in parts {
            let part = part?;
            if let Some(again) = part.ids.iter().find(|id| !seen.insert(id.as_str().to_string())) {
                return Err(decode_error(what, format!("record {again:?} came back twice (the server ignores offset or repeats records)")));
            }
            all.extend(part);
        }
        if all.ids.len() > total {
            return Err(decode_error(what, format!("more records than the {total} expected")));
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
