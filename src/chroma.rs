//! A small Chroma HTTP API v2 client, written for the quotas of Chroma Cloud.
//!
//! Every `get` is paginated at [`MAX_PAGE`] records (Cloud rejects larger limits), at
//! most `max_concurrency` requests are in flight per client (Cloud allows 10 concurrent
//! reads per collection), each request has a timeout, and 429/5xx answers and dropped
//! connections are retried with exponential backoff. Every failure becomes a
//! [`ChromaError`] that says what happened in words a person can act on: the status and
//! Chroma's own message, a timeout, or a refused connection.
//!
//! HTTP goes through a [`Transport`], so the protocol logic here does not depend on how
//! bytes move: in WebAssembly that is the host's `fetch` ([`crate::fetch`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// The most records one `get` asks for (Chroma Cloud's cap).
pub const MAX_PAGE: usize = 300;

pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

#[derive(Debug, Clone)]
pub struct HttpRequest {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    pub timeout_ms: u32,
}

#[derive(Debug, Clone)]
pub struct HttpResponse {
    pub status: u16,
    pub body: Vec<u8>,
    /// `Retry-After`, in seconds, when the server sent one.
    pub retry_after: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TransportError {
    Timeout,
    /// The request never got an answer: refused, reset, DNS, CORS…
    Network(String),
}

/// Moves one request and its response; implemented over `fetch` in WebAssembly.
pub trait Transport {
    fn send(&self, req: HttpRequest) -> LocalFuture<'static, Result<HttpResponse, TransportError>>;
    fn sleep(&self, ms: u32) -> LocalFuture<'static, ()>;
}

/// A failed Chroma call.
#[derive(Debug, Clone, PartialEq)]
pub enum ChromaError {
    Status { status: u16, what: String, message: String },
    Timeout { what: String, ms: u32 },
    Network { what: String, cause: String },
    Decode { what: String, cause: String },
}

impl fmt::Display for ChromaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChromaError::Status { status, what, message } if message.is_empty() => {
                write!(f, "Chroma answered HTTP {status} to {what}")
            }
            ChromaError::Status { status, what, message } => {
                write!(f, "Chroma answered HTTP {status} to {what}: {message}")
            }
            ChromaError::Timeout { what, ms } => write!(f, "Chroma did not answer {what} within {ms} ms"),
            ChromaError::Network { what, cause } => write!(f, "cannot reach Chroma for {what}: {cause}"),
            ChromaError::Decode { what, cause } => write!(f, "unexpected answer from Chroma to {what}: {cause}"),
        }
    }
}

impl std::error::Error for ChromaError {}

impl ChromaError {
    pub fn status(&self) -> Option<u16> {
        match self {
            ChromaError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// Where the collection lives and how to talk to it.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub url: String,
    pub tenant: String,
    pub database: String,
    pub headers: Vec<(String, String)>,
    pub timeout_ms: u32,
    pub max_concurrency: usize,
    pub retries: u32,
    pub page_size: usize,
}

impl ClientConfig {
    pub fn new(url: &str) -> Self {
        ClientConfig {
            url: url.trim_end_matches('/').to_string(),
            tenant: "default_tenant".into(),
            database: "default_database".into(),
            headers: Vec::new(),
            timeout_ms: 10_000,
            max_concurrency: 10,
            retries: 3,
            page_size: MAX_PAGE,
        }
    }
}

/// Counters since the client was made.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestStats {
    pub requests: u64,
    pub bytes_received: u64,
    pub retries: u64,
    pub failures: u64,
}

/// `POST …/get` body.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GetRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<String>>,
    #[serde(rename = "where", skip_serializing_if = "Option::is_none")]
    pub where_: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub where_document: Option<Value>,
    pub include: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct GetResponse {
    pub ids: Vec<String>,
    #[serde(default)]
    pub documents: Option<Vec<Option<String>>>,
    #[serde(default)]
    pub metadatas: Option<Vec<Option<Map<String, Value>>>>,
}

impl GetResponse {
    pub fn extend(&mut self, other: GetResponse) {
        self.ids.extend(other.ids);
        if let Some(d) = other.documents {
            self.documents.get_or_insert_with(Vec::new).extend(d);
        }
        if let Some(m) = other.metadatas {
            self.metadatas.get_or_insert_with(Vec::new).extend(m);
        }
    }

    pub fn document(&self, i: usize) -> Option<&str> {
        self.documents.as_ref()?.get(i)?.as_deref()
    }

    pub fn metadata(&self, i: usize) -> Option<&Map<String, Value>> {
        self.metadatas.as_ref()?.get(i)?.as_ref()
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct CollectionInfo {
    pub id: String,
    pub name: String,
}

/// `POST …/upsert` body.
#[derive(Debug, Clone, Serialize)]
pub struct UpsertRequest {
    pub ids: Vec<String>,
    pub embeddings: Vec<Vec<f32>>,
    pub documents: Vec<String>,
    pub metadatas: Vec<Map<String, Value>>,
}

/// A counting semaphore for a single-threaded executor.
#[derive(Default)]
struct Semaphore {
    permits: Cell<usize>,
    waiters: RefCell<VecDeque<Waker>>,
}

struct Permit<'a>(&'a Semaphore);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.0.permits.set(self.0.permits.get() + 1);
        if let Some(w) = self.0.waiters.borrow_mut().pop_front() {
            w.wake();
        }
    }
}

impl Semaphore {
    fn new(n: usize) -> Self {
        Semaphore { permits: Cell::new(n.max(1)), waiters: RefCell::default() }
    }

    async fn acquire(&self) -> Permit<'_> {
        std::future::poll_fn(|cx: &mut Context<'_>| {
            let n = self.permits.get();
            if n > 0 {
                self.permits.set(n - 1);
                Poll::Ready(Permit(self))
            } else {
                self.waiters.borrow_mut().push_back(cx.waker().clone());
                Poll::Pending
            }
        })
        .await
    }
}

fn encode_segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Chroma's `{"error": …, "message": …}`, or whatever text the body holds.
fn error_message(body: &[u8]) -> String {
    #[derive(Deserialize)]
    struct ErrorBody {
        error: Option<String>,
        message: Option<String>,
    }
    if let Ok(e) = serde_json::from_slice::<ErrorBody>(body) {
        if let Some(m) = e.message.filter(|m| !m.is_empty()) {
            return m;
        }
        if let Some(e) = e.error {
            return e;
        }
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

fn retryable(status: u16) -> bool {
    status == 429 || (500..600).contains(&status) && status != 501
}

pub struct Client {
    cfg: ClientConfig,
    transport: Rc<dyn Transport>,
    gate: Semaphore,
    stats: RefCell<RequestStats>,
}

impl Client {
    pub fn new(cfg: ClientConfig, transport: Rc<dyn Transport>) -> Self {
        let gate = Semaphore::new(cfg.max_concurrency);
        Client { cfg, transport, gate, stats: RefCell::default() }
    }

    pub fn config(&self) -> &ClientConfig {
        &self.cfg
    }

    pub fn stats(&self) -> RequestStats {
        self.stats.borrow().clone()
    }

    fn db_url(&self) -> String {
        format!(
            "{}/api/v2/tenants/{}/databases/{}",
            self.cfg.url,
            encode_segment(&self.cfg.tenant),
            encode_segment(&self.cfg.database)
        )
    }

    /// One HTTP exchange with retries; `what` names it in errors.
    async fn call(&self, method: &'static str, url: String, body: Option<String>, what: &str) -> Result<Vec<u8>, ChromaError> {
        let mut headers = vec![("accept".to_string(), "application/json".to_string())];
        if body.is_some() {
            headers.push(("content-type".into(), "application/json".into()));
        }
        headers.extend(self.cfg.headers.iter().cloned());
        let mut attempt = 0;
        loop {
            let req = HttpRequest { method, url: url.clone(), headers: headers.clone(), body: body.clone(), timeout_ms: self.cfg.timeout_ms };
            let result = {
                let _permit = self.gate.acquire().await;
                self.stats.borrow_mut().requests += 1;
                self.transport.send(req).await
            };
            let (error, wait) = match result {
                Ok(resp) => {
                    self.stats.borrow_mut().bytes_received += resp.body.len() as u64;
                    if (200..300).contains(&resp.status) {
                        return Ok(resp.body);
                    }
                    let err = ChromaError::Status { status: resp.status, what: what.to_string(), message: error_message(&resp.body) };
                    if !retryable(resp.status) {
                        self.stats.borrow_mut().failures += 1;
                        return Err(err);
                    }
                    (err, resp.retry_after.map(|s| (s * 1000.0).clamp(0.0, 10_000.0) as u32))
                }
                Err(TransportError::Timeout) => {
                    // Retrying a slow server only multiplies the wait.
                    self.stats.borrow_mut().failures += 1;
                    return Err(ChromaError::Timeout { what: what.to_string(), ms: self.cfg.timeout_ms });
                }
                Err(TransportError::Network(cause)) => (ChromaError::Network { what: what.to_string(), cause }, None),
            };
            if attempt >= self.cfg.retries {
                self.stats.borrow_mut().failures += 1;
                return Err(error);
            }
            attempt += 1;
            self.stats.borrow_mut().retries += 1;
            let backoff = wait.unwrap_or(100u32 << attempt.min(6));
            self.transport.sleep(backoff).await;
        }
    }

    async fn call_json<T: for<'de> Deserialize<'de>>(&self, method: &'static str, url: String, body: Option<String>, what: &str) -> Result<T, ChromaError> {
        let bytes = self.call(method, url, body, what).await?;
        serde_json::from_slice(&bytes).map_err(|e| ChromaError::Decode { what: what.to_string(), cause: e.to_string() })
    }

    /// Resolves a collection name to its id (and checks that it exists).
    pub async fn collection(&self, name: &str) -> Result<CollectionInfo, ChromaError> {
        let url = format!("{}/collections/{}", self.db_url(), encode_segment(name));
        self.call_json("GET", url, None, &format!("collection {name:?}")).await
    }

    pub async fn create_collection(&self, name: &str, metadata: Option<Map<String, Value>>) -> Result<CollectionInfo, ChromaError> {
        let mut body = serde_json::json!({ "name": name, "get_or_create": true });
        if let Some(m) = metadata {
            body["metadata"] = Value::Object(m);
        }
        let url = format!("{}/collections", self.db_url());
        self.call_json("POST", url, Some(body.to_string()), &format!("create collection {name:?}")).await
    }

    pub async fn delete_collection(&self, name: &str) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}", self.db_url(), encode_segment(name));
        self.call("DELETE", url, None, &format!("delete collection {name:?}")).await.map(drop)
    }

    /// One `get` request, as given.
    pub async fn get_once(&self, collection_id: &str, req: &GetRequest, what: &str) -> Result<GetResponse, ChromaError> {
        let url = format!("{}/collections/{}/get", self.db_url(), collection_id);
        let body = serde_json::to_string(req).expect("get requests serialise");
        self.call_json("POST", url, Some(body), what).await
    }

    /// A `get` of every matching record, paginated at the configured page size.
    pub async fn get_all(&self, collection_id: &str, mut req: GetRequest, what: &str) -> Result<GetResponse, ChromaError> {
        let page = self.cfg.page_size.clamp(1, MAX_PAGE);
        let mut all = GetResponse::default();
        let mut offset = 0;
        loop {
            req.limit = Some(page);
            req.offset = if offset == 0 { None } else { Some(offset) };
            let part = self.get_once(collection_id, &req, what).await?;
            let n = part.ids.len();
            all.extend(part);
            if n < page {
                return Ok(all);
            }
            offset += n;
        }
    }

    pub async fn count(&self, collection_id: &str) -> Result<u64, ChromaError> {
        let url = format!("{}/collections/{}/count", self.db_url(), collection_id);
        self.call_json("GET", url, None, "count").await
    }

    pub async fn upsert(&self, collection_id: &str, req: &UpsertRequest) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}/upsert", self.db_url(), collection_id);
        let body = serde_json::to_string(req).map_err(|e| ChromaError::Decode { what: "upsert".into(), cause: e.to_string() })?;
        self.call("POST", url, Some(body), &format!("upsert of {} records", req.ids.len())).await.map(drop)
    }

    pub async fn delete(&self, collection_id: &str, ids: &[String]) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}/delete", self.db_url(), collection_id);
        let body = serde_json::json!({ "ids": ids }).to_string();
        self.call("POST", url, Some(body), &format!("delete of {} records", ids.len())).await.map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_come_from_chroma() {
        assert_eq!(error_message(br#"{"error":"NotFoundError","message":"Collection [x] does not exist"}"#), "Collection [x] does not exist");
        assert_eq!(error_message(br#"{"error":"InternalError"}"#), "InternalError");
        assert_eq!(error_message(b"Payload too large"), "Payload too large");
        assert_eq!(error_message(b""), "");
        assert_eq!(error_message("é".repeat(400).as_bytes()).chars().count(), 301);
    }

    #[test]
    fn get_requests_serialise_as_chroma_expects() {
        let req = GetRequest {
            where_: Some(serde_json::json!({"page_slug": "a.md"})),
            include: vec!["documents", "metadatas"],
            limit: Some(300),
            ..GetRequest::default()
        };
        assert_eq!(
            serde_json::to_string(&req).unwrap(),
            r#"{"where":{"page_slug":"a.md"},"include":["documents","metadatas"],"limit":300}"#
        );
    }

    #[test]
    fn only_transient_statuses_are_retried() {
        assert!(retryable(429) && retryable(500) && retryable(503));
        assert!(!retryable(400) && !retryable(404) && !retryable(422) && !retryable(501));
    }

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(encode_segment("docs v2/x"), "docs%20v2%2Fx");
        assert_eq!(encode_segment("default_tenant"), "default_tenant");
    }

    #[test]
    fn errors_read_well() {
        let e = ChromaError::Status { status: 500, what: "page \"a.md\"".into(), message: "boom".into() };
        assert_eq!(e.to_string(), "Chroma answered HTTP 500 to page \"a.md\": boom");
        let e = ChromaError::Timeout { what: "the path tree".into(), ms: 50 };
        assert_eq!(e.to_string(), "Chroma did not answer the path tree within 50 ms");
    }
}
