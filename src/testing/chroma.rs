//! An in-memory Chroma behind the [`Transport`] trait, for native tests.
//!
//! It answers what chromafs sends — collection lookup and creation, `get` (ids, `where`,
//! `where_document`, `include`, `limit`, `offset`), `upsert`, `delete`, `count` — with
//! Chroma's semantics: storage order, unknown ids dropped, one-key filter objects. Every
//! request is logged; a [`Fault`] can answer any request instead of the store, and a
//! [`Latch`] can hold every answer so a test can look at requests in flight. Like a real
//! transport it refuses an answer longer than the request's `body_limit`, faults included.

use super::Latch;
use crate::base::sync::LocalFuture;
use crate::chroma::transport::{HttpRequest, HttpResponse, Transport, TransportError};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Answers a request instead of the store (`None`: let the store answer).
type Fault = Rc<dyn Fn(&HttpRequest) -> Option<Result<HttpResponse, TransportError>>>;

#[derive(Clone, Debug)]
struct Record {
    id: String,
    document: Option<String>,
    metadata: Map<String, Value>,
    embedding: Option<Vec<f64>>,
}

struct Collection {
    id: String,
    name: String,
    records: Vec<Record>,
    /// Answers queries as an approximate index may (see [`FakeChroma::approximate`]).
    beam: Option<usize>,
    /// `configuration_json` as Chroma answers it (the embedding function recorded).
    configuration: Value,
}

#[derive(Default)]
struct Inner {
    collections: Vec<Collection>,
    log: Vec<HttpRequest>,
    fault: Option<Fault>,
    gate: Option<Latch>,
    /// Answers held apart: those of requests a predicate picks, until its latch opens.
    held: Vec<(Latch, Picks)>,
    in_flight: usize,
    max_in_flight: usize,
    slept: Vec<u32>,
    created: usize,
    /// The virtual clock: sleeps and `advance` move it.
    now: f64,
}

/// Which requests a hold applies to.
type Picks = Rc<dyn Fn(&HttpRequest) -> bool>;

/// A Chroma server in memory; clones share it.
#[derive(Clone, Default)]
pub(crate) struct FakeChroma(Rc<RefCell<Inner>>);

pub(crate) const URL: &str = "http://chroma.test";

impl FakeChroma {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Creates (or finds) a collection; returns its id.
    pub(crate) fn collection(&self, name: &str) -> String {
        let mut s = self.0.borrow_mut();
        if let Some(c) = s.collections.iter().find(|c| c.name == name) {
            return c.id.clone();
        }
        s.created += 1;
        // Unique in the process: caches that outlive a test (trees, the process tier) never
        // mix two tests' collections.
        static IDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let id = format!("00000000-0000-4000-8000-{n:012}");
        let configuration = json!({ "embedding_function": null, "hnsw": { "space": "l2" } });
        s.collections.push(Collection {
            id: id.clone(),
            name: name.into(),
            records: Vec::new(),
            beam: None,
            configuration,
        });
        id
    }

    /// Writes (or replaces) one record.
    pub(crate) fn put(&self, collection: &str, id: &str, document: Option<&str>, metadata: Value) {
        self.collection(collection);
        let mut s = self.0.borrow_mut();
        let c = s.collections.iter_mut().find(|c| c.name == collection).unwrap();
        let record = Record {
            id: id.into(),
            document: document.map(str::to_string),
            metadata: metadata.as_object().cloned().unwrap_or_default(),
            embedding: None,
        };
        match c.records.iter_mut().find(|r| r.id == id) {
            Some(r) => *r = record,
            None => c.records.push(record),
        }
    }

    /// Gives a record an embedding, for queries.
    pub(crate) fn embed(&self, collection: &str, id: &str, embedding: &[f64]) {
        let mut s = self.0.borrow_mut();
        let c = s.collections.iter_mut().find(|c| c.name == collection).expect("collection");
        c.records.iter_mut().find(|r| r.id == id).expect("record").embedding = Some(embedding.to_vec());
    }

    /// Makes a collection answer queries as an approximate index may: from the `ef`
    /// records nearest to the query among all of them, hidden ones included (or the number
    /// asked for when larger), those the filters keep; at one distance, in storage order.
    /// Records the filters leave out then take places that visible ones would have had.
    pub(crate) fn approximate(&self, collection: &str, ef: usize) {
        self.collection(collection);
        let mut s = self.0.borrow_mut();
        s.collections.iter_mut().find(|c| c.name == collection).expect("collection").beam = Some(ef);
    }

    /// Records an embedding function in the configuration of the collection `id`.
    pub(crate) fn configure(&self, id: &str, function: Value) {
        let mut s = self.0.borrow_mut();
        if let Some(c) = s.collections.iter_mut().find(|c| c.id == id || c.name == id) {
            c.configuration["embedding_function"] = function;
        }
    }

    /// Deletes a collection; one created later under the name gets a new id.
    pub(crate) fn drop_collection(&self, name: &str) {
        self.0.borrow_mut().collections.retain(|c| c.name != name);
    }

    /// The ids of a collection's records, in storage order.
    pub(crate) fn ids(&self, collection: &str) -> Vec<String> {
        let s = self.0.borrow();
        s.collections
            .iter()
            .find(|c| c.name == collection)
            .map_or(Vec::new(), |c| c.records.iter().map(|r| r.id.clone()).collect())
    }

    /// A record's document and metadata, if the collection holds it.
    pub(crate) fn record(&self, collection: &str, id: &str) -> Option<(Option<String>, Value)> {
        let s = self.0.borrow();
        let c = s.collections.iter().find(|c| c.name == collection)?;
        let r = c.records.iter().find(|r| r.id == id)?;
        Some((r.document.clone(), Value::Object(r.metadata.clone())))
    }

    pub(crate) fn remove(&self, collection: &str, id: &str) {
        let mut s = self.0.borrow_mut();
        if let Some(c) = s.collections.iter_mut().find(|c| c.name == collection) {
            c.records.retain(|r| r.id != id);
        }
    }

    /// Writes pages as chromafs's ingest would (`slug#i` ids, default fields) and a plain
    /// JSON tree with each page's size and chunk count; `access` gives each page's entry
    /// fields (`isPublic`, `groups`).
    pub(crate) fn pages(&self, collection: &str, pages: &[(&str, &[&str], Value)], tree_metadata: Value) {
        let mut tree = Map::new();
        for (slug, chunks, access) in pages {
            for (i, doc) in chunks.iter().enumerate() {
                self.put(collection, &format!("{slug}#{i}"), Some(doc), json!({"page_slug": slug, "chunk_index": i}));
            }
            let mut entry = access.as_object().cloned().unwrap_or_default();
            entry.insert("size".into(), json!(chunks.concat().len()));
            entry.insert("chunks".into(), json!(chunks.len()));
            tree.insert(slug.to_string(), Value::Object(entry));
        }
        self.put(collection, "__path_tree__", Some(&Value::Object(tree).to_string()), tree_metadata);
    }

    pub(crate) fn set_fault(
        &self,
        fault: impl Fn(&HttpRequest) -> Option<Result<HttpResponse, TransportError>> + 'static,
    ) {
        self.0.borrow_mut().fault = Some(Rc::new(fault));
    }

    pub(crate) fn clear_fault(&self) {
        self.0.borrow_mut().fault = None;
    }

    /// Holds every answer until the latch opens.
    pub(crate) fn hold(&self, latch: &Latch) {
        self.0.borrow_mut().gate = Some(latch.clone());
    }

    /// Holds the answers of requests `which` picks until the latch opens.
    pub(crate) fn hold_where(&self, latch: &Latch, which: impl Fn(&HttpRequest) -> bool + 'static) {
        self.0.borrow_mut().held.push((latch.clone(), Rc::new(which)));
    }

    pub(crate) fn requests(&self) -> Vec<HttpRequest> {
        self.0.borrow().log.clone()
    }

    /// Bodies of the `get` requests, parsed.
    pub(crate) fn gets(&self) -> Vec<Value> {
        self.0
            .borrow()
            .log
            .iter()
            .filter(|r| r.url.ends_with("/get"))
            .map(|r| serde_json::from_str(r.body.as_deref().unwrap_or("null")).unwrap())
            .collect()
    }

    pub(crate) fn clear_log(&self) {
        let mut s = self.0.borrow_mut();
        s.log.clear();
        s.max_in_flight = s.in_flight;
    }

    pub(crate) fn in_flight(&self) -> usize {
        self.0.borrow().in_flight
    }

    pub(crate) fn max_in_flight(&self) -> usize {
        self.0.borrow().max_in_flight
    }

    /// Backoff sleeps the client asked for, in ms.
    pub(crate) fn slept(&self) -> Vec<u32> {
        self.0.borrow().slept.clone()
    }

    /// Moves the virtual clock on.
    pub(crate) fn advance(&self, ms: f64) {
        self.0.borrow_mut().now += ms;
    }

    fn answer(&self, req: &HttpRequest) -> Result<HttpResponse, TransportError> {
        let fault = self.0.borrow().fault.clone();
        if let Some(answer) = fault.and_then(|f| f(req)) {
            return answer;
        }
        Ok(self.store_answer(req))
    }

    /// What the store answers, faults aside (for a fault that tampers with answers).
    pub(crate) fn store_answer(&self, req: &HttpRequest) -> HttpResponse {
        self.route(req).unwrap_or_else(|(status, message)| {
            HttpResponse::new(status, json!({"error": "InvalidArgumentError", "message": message}).to_string())
        })
    }

    fn route(&self, req: &HttpRequest) -> Result<HttpResponse, (u16, String)> {
        let rest =
            req.url.strip_prefix(URL).and_then(|p| p.strip_prefix("/api/v2/tenants/")).ok_or((404, String::new()))?;
        let parts: Vec<&str> = rest.split('/').collect();
        let body: Value = match &req.body {
            Some(b) => serde_json::from_str(b).map_err(|e| (422, e.to_string()))?,
            None => Value::Null,
        };
        let ok = |v: Value| Ok(HttpResponse::new(200, v.to_string()));
        match (req.method, &parts[..]) {
            (_, [_, "databases", _, "collections"]) => {
                let name = body["name"].as_str().ok_or((422, "missing name".to_string()))?;
                let new = !self.0.borrow().collections.iter().any(|c| c.name == name);
                let id = self.collection(name);
                if new && body["configuration"]["embedding_function"].is_object() {
                    self.configure(&id, body["configuration"]["embedding_function"].clone());
                }
                let s = self.0.borrow();
                let c = s.collections.iter().find(|c| c.id == id).expect("created");
                ok(json!({"id": id, "name": name, "configuration_json": c.configuration}))
            }
            ("GET", [_, "databases", _, "collections", name]) => {
                let name = percent_decode(name);
                let s = self.0.borrow();
                let c = s
                    .collections
                    .iter()
                    .find(|c| c.name == name)
                    .ok_or((404, format!("Collection [{name}] does not exist")))?;
                ok(json!({"id": c.id, "name": c.name, "configuration_json": c.configuration}))
            }
            ("PUT", [_, "databases", _, "collections", id]) => {
                self.configure(id, body["new_configuration"]["embedding_function"].clone());
                ok(json!({}))
            }
            (_, [_, "databases", _, "collections", id, op]) => self.records(id, op, &body),
            _ => Err((404, String::new())),
        }
    }

    fn records(&self, id: &str, op: &str, body: &Value) -> Result<HttpResponse, (u16, String)> {
        let mut s = self.0.borrow_mut();
        let c =
            s.collections.iter_mut().find(|c| c.id == id).ok_or((404, format!("Collection [{id}] does not exist")))?;
        let ok = |v: Value| Ok(HttpResponse::new(200, v.to_string()));
        match op {
            "get" => ok(get(&c.records, body)?),
            "query" => ok(query(&c.records, body, c.beam)?),
            "count" => ok(json!(c.records.len())),
            "upsert" => {
                let ids = body["ids"].as_array().cloned().unwrap_or_default();
                for (i, id) in ids.iter().enumerate() {
                    let record = Record {
                        id: id.as_str().unwrap_or_default().to_string(),
                        document: body["documents"][i].as_str().map(str::to_string),
                        metadata: body["metadatas"][i].as_object().cloned().unwrap_or_default(),
                        embedding: body["embeddings"][i]
                            .as_array()
                            .map(|v| v.iter().filter_map(Value::as_f64).collect()),
                    };
                    match c.records.iter_mut().find(|r| r.id == record.id) {
                        Some(r) => *r = record,
                        None => c.records.push(record),
                    }
                }
                ok(json!({}))
            }
            "update" => {
                // Chroma merges the metadata it is given into what a record has.
                let ids = body["ids"].as_array().cloned().unwrap_or_default();
                for (i, id) in ids.iter().enumerate() {
                    let Some(r) = c.records.iter_mut().find(|r| Some(r.id.as_str()) == id.as_str()) else { continue };
                    if let Some(m) = body["metadatas"][i].as_object() {
                        r.metadata.extend(m.clone());
                    }
                    if let Some(d) = body["documents"][i].as_str() {
                        r.document = Some(d.to_string());
                    }
                }
                ok(json!({}))
            }
            "delete" => {
                let ids: Vec<&str> =
                    body["ids"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
                c.records.retain(|r| !ids.contains(&r.id.as_str()));
                ok(json!({}))
            }
            _ => Err((404, String::new())),
        }
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn get(records: &[Record], body: &Value) -> Result<Value, (u16, String)> {
    let ids: Option<Vec<&str>> =
        body.get("ids").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect());
    let mut hits = Vec::new();
    for r in records {
        if ids.as_ref().is_some_and(|ids| !ids.contains(&r.id.as_str())) {
            continue;
        }
        if let Some(w) = body.get("where").filter(|w| !w.is_null()) {
            if !where_matches(w, &r.metadata).map_err(|m| (400, m))? {
                continue;
            }
        }
        if let Some(w) = body.get("where_document").filter(|w| !w.is_null()) {
            if !document_matches(w, r.document.as_deref().unwrap_or("")).map_err(|m| (400, m))? {
                continue;
            }
        }
        hits.push(r);
    }
    let offset = body.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize;
    let limit = body.get("limit").and_then(Value::as_u64).map_or(usize::MAX, |l| l as usize);
    let page: Vec<&Record> = hits.into_iter().skip(offset).take(limit).collect();
    let include: Vec<&str> = match body.get("include").and_then(Value::as_array) {
        Some(a) => a.iter().filter_map(Value::as_str).collect(),
        None => vec!["documents", "metadatas"],
    };
    Ok(json!({
        "ids": page.iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
        "documents": include.contains(&"documents").then(|| page.iter().map(|r| r.document.clone()).collect::<Vec<_>>()),
        "metadatas": include.contains(&"metadatas").then(|| page.iter().map(|r| r.metadata.clone()).collect::<Vec<_>>()),
        "embeddings": include.contains(&"embeddings").then(|| page.iter().map(|r| r.embedding.clone()).collect::<Vec<_>>()),
        "include": include,
    }))
}

/// Nearest neighbours by squared L2 distance among the records the filters keep (or, with
/// a `beam`, among those of the `beam` nearest records that the filters keep).
fn query(records: &[Record], body: &Value, beam: Option<usize>) -> Result<Value, (u16, String)> {
    let q: Vec<f64> = body["query_embeddings"][0]
        .as_array()
        .ok_or((422, "missing query_embeddings".into()))?
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    let n = body["n_results"].as_u64().unwrap_or(10) as usize;
    let filter =
        json!({"where": body.get("where"), "where_document": body.get("where_document"), "include": ["metadatas"]});
    let kept = get(records, &filter)?;
    let ids: Vec<&str> = kept["ids"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let mut near: Vec<(f64, &Record)> = Vec::new();
    for r in records.iter().filter(|r| beam.is_some() || ids.contains(&r.id.as_str())) {
        let Some(e) = &r.embedding else { continue };
        if e.len() != q.len() {
            return Err((
                400,
                format!("Collection expecting embedding with dimension of {}, got {}", e.len(), q.len()),
            ));
        }
        near.push((e.iter().zip(&q).map(|(a, b)| (a - b) * (a - b)).sum(), r));
    }
    match beam {
        Some(ef) => {
            near.sort_by(|a, b| a.0.total_cmp(&b.0));
            near.truncate(ef.max(n));
            near.retain(|(_, r)| ids.contains(&r.id.as_str()));
        }
        None => near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id))),
    }
    near.truncate(n);
    Ok(json!({
        "ids": [near.iter().map(|(_, r)| r.id.clone()).collect::<Vec<_>>()],
        "documents": [near.iter().map(|(_, r)| r.document.clone()).collect::<Vec<_>>()],
        "metadatas": [near.iter().map(|(_, r)| r.metadata.clone()).collect::<Vec<_>>()],
        "distances": [near.iter().map(|(d, _)| *d).collect::<Vec<_>>()],
    }))
}

fn single(w: &Value, what: &str) -> Result<(String, Value), String> {
    match w.as_object() {
        Some(o) if o.len() == 1 => {
            let (k, v) = o.iter().next().unwrap();
            Ok((k.clone(), v.clone()))
        }
        _ => Err(format!("Invalid {what} clause")),
    }
}

fn where_matches(w: &Value, meta: &Map<String, Value>) -> Result<bool, String> {
    let (key, value) = single(w, "where")?;
    match key.as_str() {
        "$and" | "$or" => {
            let items = value.as_array().ok_or("Invalid where clause")?;
            let results: Result<Vec<bool>, String> = items.iter().map(|i| where_matches(i, meta)).collect();
            let results = results?;
            Ok(if key == "$and" { results.iter().all(|b| *b) } else { results.iter().any(|b| *b) })
        }
        field => {
            let actual = meta.get(field);
            let (op, operand) = match value.as_object() {
                Some(_) => single(&value, "where")?,
                None => ("$eq".to_string(), value.clone()),
            };
            let list = || operand.as_array().cloned().ok_or_else(|| "Invalid where clause".to_string());
            Ok(match op.as_str() {
                "$eq" => actual == Some(&operand),
                "$ne" => actual != Some(&operand),
                "$in" => actual.is_some_and(|a| list().is_ok_and(|l| l.contains(a))),
                "$nin" => !actual.is_some_and(|a| list().is_ok_and(|l| l.contains(a))),
                "$contains" => actual.and_then(Value::as_array).is_some_and(|a| a.contains(&operand)),
                "$not_contains" => !actual.and_then(Value::as_array).is_some_and(|a| a.contains(&operand)),
                "$gte" => actual.and_then(Value::as_f64).zip(operand.as_f64()).is_some_and(|(a, b)| a >= b),
                _ => return Err("Invalid where clause".into()),
            })
        }
    }
}

fn document_matches(w: &Value, doc: &str) -> Result<bool, String> {
    let (key, value) = single(w, "where document")?;
    let text = || value.as_str().ok_or_else(|| "Invalid where document clause".to_string());
    let regex = || regex_lite::Regex::new(text()?).map_err(|e| format!("Regex syntax errror: {e}"));
    Ok(match key.as_str() {
        "$contains" => doc.contains(text()?),
        "$not_contains" => !doc.contains(text()?),
        "$regex" => regex()?.is_match(doc),
        "$not_regex" => !regex()?.is_match(doc),
        "$and" | "$or" => {
            let items = value.as_array().ok_or("Invalid where document clause")?;
            let results: Result<Vec<bool>, String> = items.iter().map(|i| document_matches(i, doc)).collect();
            let results = results?;
            if key == "$and" {
                results.iter().all(|b| *b)
            } else {
                results.iter().any(|b| *b)
            }
        }
        _ => return Err("Invalid where document clause".into()),
    })
}

impl Transport for FakeChroma {
    fn send(&self, req: HttpRequest) -> LocalFuture<'static, Result<HttpResponse, TransportError>> {
        let this = self.clone();
        Box::pin(async move {
            let gates: Vec<Latch> = {
                let mut s = this.0.borrow_mut();
                s.log.push(req.clone());
                s.in_flight += 1;
                s.max_in_flight = s.max_in_flight.max(s.in_flight);
                let held = s.held.iter().filter(|(_, which)| which(&req)).map(|(latch, _)| latch.clone());
                s.gate.clone().into_iter().chain(held).collect()
            };
            // Counted as in flight until answered, even if the caller gives up first.
            struct Done(FakeChroma);
            impl Drop for Done {
                fn drop(&mut self) {
                    self.0 .0.borrow_mut().in_flight -= 1;
                }
            }
            let _done = Done(this.clone());
            for gate in gates {
                gate.wait().await;
            }
            // Like a real transport, never hand over more than the caller accepts.
            match this.answer(&req) {
                Ok(resp) if resp.body.len() as u64 > req.body_limit => {
                    Err(TransportError::TooLarge { limit: req.body_limit })
                }
                answer => answer,
            }
        })
    }

    fn sleep(&self, ms: u32) -> LocalFuture<'static, ()> {
        let mut inner = self.0.borrow_mut();
        inner.slept.push(ms);
        inner.now += ms as f64;
        Box::pin(async {})
    }

    fn now_ms(&self) -> f64 {
        self.0.borrow().now
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::block_on;

    fn post(chroma: &FakeChroma, path: &str, body: Value) -> Value {
        let req = HttpRequest {
            method: "POST",
            url: format!("{URL}/api/v2/tenants/t/databases/d/collections/{path}"),
            headers: vec![],
            body: Some(body.to_string()),
            timeout_ms: 1000,
            body_limit: u64::MAX,
        };
        let resp = block_on(chroma.send(req)).unwrap();
        serde_json::from_slice(&resp.body).unwrap()
    }

    #[test]
    fn filters_and_pages_like_chroma() {
        let c = FakeChroma::new();
        let id = c.collection("docs");
        for (i, (slug, doc)) in [("a", "Foo bar"), ("a", "baz"), ("b", "foo"), ("c", "qux foo")].iter().enumerate() {
            c.put("docs", &format!("r{i}"), Some(doc), json!({"page_slug": slug, "groups": ["x", slug]}));
        }
        let ids =
            |v: Value| v["ids"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect::<Vec<_>>();
        assert_eq!(ids(post(&c, &format!("{id}/get"), json!({"where": {"page_slug": "a"}}))), ["r0", "r1"]);
        assert_eq!(
            ids(post(&c, &format!("{id}/get"), json!({"where": {"page_slug": {"$in": ["b", "c"]}}}))),
            ["r2", "r3"]
        );
        assert_eq!(ids(post(&c, &format!("{id}/get"), json!({"where_document": {"$contains": "foo"}}))), ["r2", "r3"]);
        assert_eq!(
            ids(post(
                &c,
                &format!("{id}/get"),
                json!({"where_document": {"$regex": "(?i)foo"}, "limit": 2, "offset": 1})
            )),
            ["r2", "r3"]
        );
        assert_eq!(ids(post(&c, &format!("{id}/get"), json!({"where": {"groups": {"$contains": "c"}}}))), ["r3"]);
        assert_eq!(ids(post(&c, &format!("{id}/get"), json!({"ids": ["r3", "nope", "r0"]}))), ["r0", "r3"]);
        let bad = post(&c, &format!("{id}/get"), json!({"where": {"a": 1, "b": 2}}));
        assert_eq!(bad["message"], "Invalid where clause");
        assert_eq!(c.gets().len(), 7);
    }
}
