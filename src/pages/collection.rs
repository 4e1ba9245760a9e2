//! One collection, as a session reads it: the only way from a search or a page read to
//! Chroma, scoped, paginated and bounded.
//!
//! Access holds by construction. A [`Collection`] is made by [`Collection::new`] from a
//! session's access (when the collection's chunks carry it) and its fields are private: a
//! request reaches Chroma only as a [`Scoped`] request, which only [`Collection::scoped`]
//! makes, with the session's access ANDed into its `where`, and records read by id are
//! checked against that access on their metadata. So nothing above this module can send an
//! unscoped query, however it builds one. Paginated reads go through one paginator
//! ([`Pages`]) and are bounded by what the caller expects ([`Bound`]): a server that
//! ignores `offset`, repeats or adds records, or answers more than it was asked, gets an
//! error that says so, never a loop or unbounded memory.

use crate::base::sync::join_all;
use crate::chroma::limits::{BodyLimit, MAX_DOCUMENT_BYTES};
use crate::chroma::{
    ChromaError, Client, ClientConfig, GetRequest, GetResponse, QueryRequest, QueryResponse, MAX_PAGE,
};
use crate::tree::access::SessionAccess;
use crate::tree::schema::Schema;
use answers::Answers;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::rc::Rc;

/// Windows of `MAX_PAGE` records asked for at once (Chroma Cloud's concurrent reads).
pub(crate) const WINDOWS: usize = 10;

/// The most chunks a page may have when the path tree gives neither its chunk count nor
/// its size: 16 MiB of text at the ingest's 4 KiB chunks.
const PAGE_CHUNKS: usize = 4096;

/// What a paginated read may bring back at most, and why, for the error that names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    pub records: usize,
    /// Bytes of documents.
    pub bytes: u64,
    pub why: &'static str,
}

impl Bound {
    /// For reads of a whole collection (Chroma Cloud's cap on records per collection).
    pub(crate) const COLLECTION: Bound =
        Bound { records: 5_000_000, bytes: 1 << 40, why: "the most a collection holds" };

    #[cfg(test)]
    pub(crate) fn records(records: usize) -> Bound {
        Bound { records, bytes: records as u64 * MAX_DOCUMENT_BYTES, why: "the most expected" }
    }

    /// For one page's chunks: the chunk count the tree declares; without one, one chunk a
    /// byte of the tree's `size` (a chunk is never empty) up to [`PAGE_CHUNKS`], or
    /// [`PAGE_CHUNKS`]. Bytes: the declared `size`, else what that many chunks may hold.
    pub(crate) fn page(count: Option<u64>, size: Option<u64>) -> Bound {
        let (records, why) = match (count, size) {
            (Some(n), _) => (n.min(usize::MAX as u64) as usize, "the chunk count the path tree declares"),
            (None, Some(s)) => ((s.max(1) as usize).min(PAGE_CHUNKS), "one a byte of the size the path tree declares"),
            (None, None) => (PAGE_CHUNKS, "the most for a page whose chunk count the path tree does not give"),
        };
        Bound { records, bytes: size.unwrap_or(records as u64 * MAX_DOCUMENT_BYTES), why }
    }

    /// Several bounds' room together (a read of many pages).
    pub(crate) fn sum(bounds: impl IntoIterator<Item = Bound>) -> Bound {
        bounds.into_iter().fold(Bound { records: 0, bytes: 0, why: "the most the pages asked for may hold" }, |a, b| {
            Bound { records: a.records.saturating_add(b.records), bytes: a.bytes.saturating_add(b.bytes), ..a }
        })
    }

    /// The error for `what` holding more records than this bound.
    pub(crate) fn exceeded(&self, what: &str) -> ChromaError {
        decode_error(what, format!("more records than {} ({})", self.records, self.why))
    }

    /// Whether `records` records holding `bytes` bytes of documents stay within the bound;
    /// the error for `what` when they do not.
    fn holds(&self, records: usize, bytes: u64, what: &str) -> Result<(), ChromaError> {
        if records > self.records {
            return Err(self.exceeded(what));
        }
        if bytes > self.bytes {
            return Err(decode_error(what, format!("more than {} bytes of documents ({})", self.bytes, self.why)));
        }
        Ok(())
    }
}

/// Checks the records read so far; runs after each page of a paginated read.
type Check<'a> = &'a dyn Fn(&GetResponse) -> Result<(), ChromaError>;

fn decode_error(what: &str, cause: String) -> ChromaError {
    ChromaError::Decode { what: what.to_string(), cause }
}

/// Windows of one answer put together, each checked as it comes: a window longer than
/// asked for, or a record that comes back twice (a server that ignores `offset`), is an
/// error that says so.
#[derive(Default)]
pub(crate) struct Pages {
    all: GetResponse,
    seen: HashSet<String>,
}

impl Pages {
    /// Adds a window that asked for at most `asked` records; how many it held.
    pub(crate) fn add(&mut self, part: GetResponse, asked: usize, what: &str) -> Result<usize, ChromaError> {
        let n = part.ids.len();
        if n > asked {
            return Err(decode_error(what, format!("{n} records in answer to a request for at most {asked}")));
        }
        if let Some(again) = part.ids.iter().find(|id| !self.seen.insert(id.as_str().to_string())) {
            return Err(decode_error(
                what,
                format!("record {again:?} came back twice (the server ignores offset or repeats records)"),
            ));
        }
        self.all.extend(part);
        Ok(n)
    }

    pub(crate) fn len(&self) -> usize {
        self.all.ids.len()
    }

    pub(crate) fn answer(&self) -> &GetResponse {
        &self.all
    }

    pub(crate) fn into_answer(self) -> GetResponse {
        self.all
    }
}

/// Every record of one request, a window at a time, `check` run on what has come back
/// after each. A window asks for one record more than the bound leaves room for, at most
/// `MAX_PAGE`, so a read of far more than the bound stops at its first answer.
async fn paginate(
    client: &Client,
    collection_id: &str,
    req: &GetRequest,
    bound: Bound,
    what: &str,
    check: Check<'_>,
) -> Result<GetResponse, ChromaError> {
    let mut pages = Pages::default();
    let mut bytes = 0u64;
    loop {
        let asked = (bound.records.saturating_add(1) - pages.len().min(bound.records)).min(MAX_PAGE);
        let window = GetRequest { limit: Some(asked), offset: (pages.len() > 0).then_some(pages.len()), ..req.clone() };
        let part = client.get_once(collection_id, &window, what).await?;
        bytes += document_bytes(&part, 0);
        let n = pages.add(part, asked, what)?;
        check(pages.answer())?;
        bound.holds(pages.len(), bytes, what)?;
        if n < asked {
            return Ok(pages.into_answer());
        }
    }
}

/// Bytes of the documents of `resp`'s records from `from` on.
fn document_bytes(resp: &GetResponse, from: usize) -> u64 {
    (from..resp.ids.len()).filter_map(|i| resp.document(i)).map(|d| d.len() as u64).sum()
}

/// Every record of a collection a writer reads whole (ingest's and annotate's lists of
/// what is there), unscoped: a writer holds the collection's credentials and sees all of
/// it. Sessions read through [`Collection`] only, which has no such door.
pub(crate) async fn read_whole(
    client: &Client,
    collection_id: &str,
    req: GetRequest,
    bound: Bound,
    what: &str,
) -> Result<GetResponse, ChromaError> {
    paginate(client, collection_id, &req, bound, what, &|_| Ok(())).await
}

/// A request that carries the session's access in its `where`: only
/// [`Collection::scoped`] and [`Collection::scoped_query`] make one, and only a
/// [`Collection`] sends one.
#[derive(Debug, Clone)]
pub(crate) struct Scoped<R>(R);

impl<R> Scoped<R> {
    /// The request as it will be sent (for a key that names it).
    pub(crate) fn request(&self) -> &R {
        &self.0
    }
}

impl Scoped<GetRequest> {
    /// The same request, for one window of its answer: `limit` records after `offset`.
    pub(crate) fn window(&self, limit: usize, offset: usize) -> Scoped<GetRequest> {
        Scoped(GetRequest { limit: Some(limit), offset: (offset > 0).then_some(offset), ..self.0.clone() })
    }
}

/// A collection on a server, read by one session: see the module's documentation.
#[derive(Clone)]
pub(crate) struct Collection {
    client: Rc<Client>,
    id: String,
    schema: Schema,
    /// The session's access, when the collection's chunks carry it.
    access: Option<SessionAccess>,
    /// Answers to the queries searches ask again.
    answers: Rc<Answers>,
    /// The answers other sessions of the process had, for the same tree.
    shared: Option<answers::Shared>,
}

impl Collection {
    /// A session's collection: `access` is the session's, when the collection's chunks
    /// carry access (then every query is scoped by it), `None` when they do not (the
    /// session's listing decides what is kept of an answer).
    pub(crate) fn new(client: Rc<Client>, id: String, schema: Schema, access: Option<SessionAccess>) -> Self {
        Collection { client, id, schema, access, answers: Rc::default(), shared: None }
    }

    /// The same collection, sharing its answers with the process's other sessions of a tree.
    pub(crate) fn sharing(self, shared: answers::Shared) -> Self {
        Collection { shared: Some(shared), ..self }
    }

    /// The answers other sessions of the process had, when they may be shared.
    pub(crate) fn shared_answers(&self) -> Option<&answers::Shared> {
        self.shared.as_ref()
    }

    pub(crate) fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The client's settings (timeout, requests in flight).
    pub(crate) fn config(&self) -> &ClientConfig {
        self.client.config()
    }

    /// Whether Chroma itself leaves out what the session may not see.
    pub(crate) fn is_scoped(&self) -> bool {
        self.access.is_some()
    }

    /// The answers kept for queries asked again.
    pub(crate) fn answers(&self) -> &Answers {
        &self.answers
    }

    /// How many values a `$in` may hold next to the access clause, within the where
    /// predicates the server takes (each `$in` value counts as one; Chroma Cloud's 8 by
    /// default, `maxWherePredicates`).
    pub(crate) fn slugs_per_query(&self) -> usize {
        let access = self.access.as_ref().map_or(0, SessionAccess::predicates);
        self.client.config().where_predicates.saturating_sub(access).max(1)
    }

    /// The request once per access clause, each with the clause ANDed into its `where`
    /// (the request as it is when the chunks carry no access).
    pub(crate) fn scoped(&self, req: GetRequest) -> Vec<Scoped<GetRequest>> {
        self.wheres(req.where_.clone()).into_iter().map(|where_| Scoped(GetRequest { where_, ..req.clone() })).collect()
    }

    /// [`Collection::scoped`] for a nearest-neighbour query.
    pub(crate) fn scoped_query(&self, req: QueryRequest) -> Vec<Scoped<QueryRequest>> {
        self.wheres(req.where_.clone())
            .into_iter()
            .map(|where_| Scoped(QueryRequest { where_, ..req.clone() }))
            .collect()
    }

    /// One scoped `get`.
    pub(crate) async fn get(&self, req: &Scoped<GetRequest>, what: &str) -> Result<GetResponse, ChromaError> {
        self.client.get_once(&self.id, &req.0, what).await
    }

    /// One scoped `get` that asks for the records' vectors, of `dimension` numbers each.
    pub(crate) async fn get_with_vectors(
        &self,
        req: &Scoped<GetRequest>,
        dimension: usize,
        what: &str,
    ) -> Result<GetResponse, ChromaError> {
        let limit = BodyLimit::with_vectors(req.0.limit.unwrap_or(MAX_PAGE), dimension);
        self.client.get_within(&self.id, &req.0, what, &limit).await
    }

    /// One scoped nearest-neighbour query.
    pub(crate) async fn query(&self, req: &Scoped<QueryRequest>, what: &str) -> Result<QueryResponse, ChromaError> {
        self.client.query(&self.id, &req.0, what).await
    }

    /// Windows `first..first + count` of `MAX_PAGE` records of a scoped request, asked
    /// together and added to `pages` in order; whether the last came back full.
    pub(crate) async fn windows(
        &self,
        req: &Scoped<GetRequest>,
        first: usize,
        count: usize,
        pages: &mut Pages,
        what: &str,
    ) -> Result<bool, ChromaError> {
        let windows: Vec<Scoped<GetRequest>> =
            (first..first + count).map(|i| req.window(MAX_PAGE, i * MAX_PAGE)).collect();
        let mut last_full = false;
        for part in join_all(windows.iter().map(|w| self.get(w, what)).collect()).await {
            last_full = pages.add(part?, MAX_PAGE, what)? == MAX_PAGE;
        }
        Ok(last_full)
    }

    /// Every record of a request, read in windows of `MAX_PAGE` records (once per access
    /// clause) until one comes back short: as many windows at first as `expected` records
    /// need, then [`WINDOWS`] at a time, held to `bound` after each round. A scope is read
    /// this way where that costs fewer requests than naming its pages.
    pub(crate) async fn read_windows(
        &self,
        req: GetRequest,
        expected: usize,
        bound: Bound,
        what: &str,
    ) -> Result<GetResponse, ChromaError> {
        let mut parts = Vec::new();
        for req in self.scoped(req) {
            let mut pages = Pages::default();
            let (mut next, mut bytes) = (0, 0u64);
            loop {
                // One record past what is expected, or past the bound's room, shows whether
                // there are more.
                let want = match expected.checked_sub(pages.len()) {
                    Some(left) => left + 1,
                    None => WINDOWS * MAX_PAGE,
                };
                let room = bound.records.saturating_sub(pages.len()).saturating_add(1);
                let count = want.min(room).div_ceil(MAX_PAGE).clamp(1, WINDOWS);
                let before = pages.len();
                let last_full = self.windows(&req, next, count, &mut pages, what).await?;
                next += count;
                bytes += document_bytes(pages.answer(), before);
                bound.holds(pages.len(), bytes, what)?;
                if !last_full {
                    break;
                }
            }
            parts.push(pages.into_answer());
        }
        let all = merge(parts);
        if all.ids.len() > bound.records {
            return Err(bound.exceeded(what));
        }
        Ok(all)
    }

    /// A `where` once per access clause, each clause ANDed into it; `where_` alone when
    /// the chunks carry no access.
    fn wheres(&self, where_: Option<Value>) -> Vec<Option<Value>> {
        let Some(scope) = &self.access else { return vec![where_] };
        scope
            .clauses()
            .into_iter()
            .map(|clause| {
                Some(match &where_ {
                    Some(w) => json!({ "$and": [w, clause] }),
                    None => clause,
                })
            })
            .collect()
    }

    /// Whether the session may see a record by its metadata: always, when the chunks
    /// carry no access (the listing decides then).
    pub(crate) fn admits(&self, metadata: Option<&serde_json::Map<String, Value>>) -> bool {
        self.access.as_ref().is_none_or(|s| s.admits(metadata))
    }

    /// Every chunk of the pages `slugs` names (visible pages: the caller takes them from the
    /// session's listing) that the session may see, within `bound`, `check` run after each
    /// window. Like reads by id, the request names its pages and the access is checked
    /// here on each record's metadata: a `where` that ANDs the access to a slug list makes
    /// Chroma 1.5.9 match the access against every record of the collection first (tens of
    /// milliseconds a request on 40,000 chunks, against a few for the slugs alone), and
    /// what comes back is the same.
    pub(crate) async fn get_pages(
        &self,
        slugs: &[String],
        bound: Bound,
        what: &str,
        check: Check<'_>,
    ) -> Result<GetResponse, ChromaError> {
        let where_ = match slugs {
            [one] => json!({ self.schema.slug_field.as_str(): one }),
            _ => any_of(&self.schema.slug_field, slugs),
        };
        let req = GetRequest { where_: Some(where_), include: vec!["documents", "metadatas"], ..Default::default() };
        let mut all = paginate(&self.client, &self.id, &req, bound, what, check).await?;
        all.retain(|r, i| self.admits(r.metadata(i)));
        Ok(all)
    }

    /// Records by id, at most [`MAX_PAGE`] ids a request, the requests issued together
    /// (the client caps how many are in flight). Ids not found are simply absent, and so
    /// are records the session's access does not admit (see [`Collection::get_ids_once`]).
    pub(crate) async fn get_by_ids(&self, ids: &[String], what: &str) -> Result<GetResponse, ChromaError> {
        let parts = join_all(ids.chunks(MAX_PAGE).map(|batch| self.get_ids_once(batch, what)).collect()).await;
        let mut all = GetResponse::default();
        for part in parts {
            all.extend(part?);
        }
        Ok(all)
    }

    /// Records by id in one request (at most [`MAX_PAGE`] ids). Ids not found are simply
    /// absent, and so are records the session's access does not admit: they are checked
    /// here, on their metadata, because Chroma 1.5.9 answers `ids` combined with a `where`
    /// two orders of magnitude slower than either alone.
    pub(crate) async fn get_ids_once(&self, ids: &[String], what: &str) -> Result<GetResponse, ChromaError> {
        debug_assert!(ids.len() <= MAX_PAGE, "one request's ids");
        let req = GetRequest {
            ids: Some(ids.to_vec()),
            include: vec!["documents", "metadatas"],
            limit: Some(ids.len()),
            ..Default::default()
        };
        let mut part = self.client.get_once(&self.id, &req, what).await?;
        if part.ids.len() > ids.len() {
            return Err(decode_error(
                what,
                format!("{} records in answer to a request for {} ids", part.ids.len(), ids.len()),
            ));
        }
        part.retain(|r, i| self.admits(r.metadata(i)));
        Ok(part)
    }
}

impl Collection {
    /// Records of the grep index by id (documents only), at most [`MAX_PAGE`] ids a request,
    /// the requests issued together. They are not chunks and carry no access: which of them
    /// a session may read is decided from the index's manifest by access class, before it
    /// asks (see [`crate::pages::grams`]). Only ids of the index are sent.
    pub(crate) async fn index_records(&self, ids: &[String], what: &str) -> Result<GetResponse, ChromaError> {
        assert!(ids.iter().all(|id| crate::pages::grams::is_index_record(id)), "only records of the grep index");
        let reqs: Vec<GetRequest> = ids
            .chunks(MAX_PAGE)
            .map(|batch| GetRequest {
                ids: Some(batch.to_vec()),
                include: vec!["metadatas"],
                limit: Some(batch.len()),
                ..Default::default()
            })
            .collect();
        let parts = join_all(reqs.iter().map(|req| self.client.get_once(&self.id, req, what)).collect()).await;
        let mut all = GetResponse::default();
        for part in parts {
            all.extend(part?);
        }
        Ok(all)
    }

    /// The collection's id.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }
}

/// Records of several answers, each once.
fn merge(parts: Vec<GetResponse>) -> GetResponse {
    let mut parts = parts.into_iter();
    let mut all = parts.next().unwrap_or_default();
    let mut seen: HashSet<String> = all.ids.iter().cloned().collect();
    for mut part in parts {
        part.retain(|r, i| seen.insert(r.ids[i].clone()));
        all.extend(part);
    }
    all
}

/// `{field: {"$in": values}}`.
pub(crate) fn any_of(field: &str, values: &[String]) -> Value {
    json!({ field: { "$in": values } })
}

pub(crate) mod answers;
#[cfg(test)]
mod tests;
