//! A small Chroma HTTP API v2 client, written for the quotas of Chroma Cloud.
//!
//! A `get` asks for at most [`MAX_PAGE`] records (Cloud rejects larger limits; paging
//! is in [`crate::collection`]), at most `max_concurrency` requests are in flight per client (Cloud allows 10 concurrent
//! reads per collection), each request has a timeout, and 429/5xx answers and dropped
//! connections are retried with exponential backoff. Every failure becomes a
//! [`ChromaError`] that says what happened in words a person can act on: the status and
//! Chroma's own message, a timeout, or a refused connection.
//!
//! HTTP goes through a [`Transport`], so the protocol logic here does not depend on how
//! bytes move: in WebAssembly that is the host's `fetch` ([`crate::fetch`]); in native
//! tests, an in-memory Chroma.

use crate::breaker::{Admit, Breaker};
use crate::budget::{Budget, Refusal};
use crate::origin;
use crate::redact::Secrets;
use crate::sync::Semaphore;
use crate::transport::{HttpRequest, HttpResponse, Transport, TransportError};
use serde::Serialize;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

pub mod limits;
mod wire;
pub use limits::BodyLimit;
pub use wire::{CollectionInfo, FromJson, GetRequest, GetResponse, UpsertRequest};

/// The most records one `get` asks for (Chroma Cloud's cap).
pub const MAX_PAGE: usize = 300;
/// Chroma Cloud's quota on where predicates per query; each `$in` value counts as one.
pub const MAX_WHERE_PREDICATES: usize = 8;
/// Same-origin redirects followed in a row before giving up.
const MAX_REDIRECTS: u32 = 5;

/// A failed Chroma call.
#[derive(Debug, Clone, PartialEq)]
pub enum ChromaError {
    Status {
        status: u16,
        what: String,
        message: String,
    },
    Timeout {
        what: String,
        ms: u32,
    },
    Network {
        what: String,
        cause: String,
    },
    Decode {
        what: String,
        cause: String,
    },
    Redirect {
        what: String,
        status: u16,
        why: String,
    },
    /// Not sent: the command's budget, deadline or abort ([`crate::budget`]).
    NotSent {
        what: String,
        why: Refusal,
    },
    /// Not sent: the server failed moments ago ([`crate::breaker`]).
    Unavailable {
        what: String,
        cause: String,
    },
    /// The answer was longer than anything a faithful server sends ([`limits`]).
    TooLarge {
        what: String,
        limit: BodyLimit,
    },
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
            ChromaError::Redirect { what, status, why } => {
                write!(f, "Chroma answered {what} with a redirect (HTTP {status}) {why}")
            }
            ChromaError::NotSent { why, .. } => write!(f, "{why}"),
            ChromaError::Unavailable { cause, .. } => {
                write!(f, "Chroma is unreachable ({cause}); the next command tries again")
            }
            ChromaError::TooLarge { what, limit } => {
                write!(f, "Chroma answered {what} with more than {} bytes ({})", limit.bytes, limit.why)
            }
        }
    }
}

impl std::error::Error for ChromaError {}

impl ChromaError {
    /// The server answered, but with what a faithful server never sends: asking again
    /// brings the same.
    pub fn is_wrong_answer(&self) -> bool {
        matches!(self, ChromaError::Decode { .. } | ChromaError::TooLarge { .. })
    }

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
        }
    }
}

/// Counters since the client was made.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestStats {
    pub requests: u64,
    /// Bytes of request bodies sent, and of answers received.
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub retries: u64,
    pub failures: u64,
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

/// Chroma's `{"error": …, "message": …}`, or whatever text the body holds, unabridged:
/// the client shows it only through [`Secrets::excerpt`].
fn error_message(body: &[u8]) -> String {
    if let Ok(Value::Object(o)) = serde_json::from_slice::<Value>(body) {
        let field = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        if let Some(m) = field("message").filter(|m| !m.is_empty()) {
            return m;
        }
        if let Some(e) = field("error") {
            return e;
        }
    }
    String::from_utf8_lossy(body).into_owned()
}

fn retryable(status: u16) -> bool {
    status == 429 || (500..600).contains(&status) && status != 501
}

pub struct Client {
    cfg: ClientConfig,
    transport: Rc<dyn Transport>,
    gate: Semaphore,
    breaker: Breaker,
    /// The session's commands: the breaker fails requests fast only inside one.
    budget: Option<Rc<Budget>>,
    stats: RefCell<RequestStats>,
    /// The header values sent, kept out of every error ([`crate::redact`]).
    secrets: Secrets,
}

impl Client {
    pub fn new(cfg: ClientConfig, transport: Rc<dyn Transport>) -> Self {
        let gate = Semaphore::new(cfg.max_concurrency);
        let secrets = Secrets::new(cfg.headers.iter().map(|(_, v)| v.as_str()));
        Client { cfg, transport, gate, breaker: Breaker::default(), budget: None, stats: RefCell::default(), secrets }
    }

    /// A session's client: inside a command of `budget`, an open breaker fails requests
    /// at once; outside one (a host's own call) every request is tried.
    pub fn for_session(cfg: ClientConfig, transport: Rc<dyn Transport>, budget: Rc<Budget>) -> Self {
        Client { budget: Some(budget), ..Client::new(cfg, transport) }
    }

    pub fn config(&self) -> &ClientConfig {
        &self.cfg
    }

    pub fn stats(&self) -> RequestStats {
        self.stats.borrow().clone()
    }

    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    fn db_url(&self) -> String {
        format!(
            "{}/api/v2/tenants/{}/databases/{}",
            self.cfg.url,
            encode_segment(&self.cfg.tenant),
            encode_segment(&self.cfg.database)
        )
    }

    /// One HTTP exchange with retries; `what` names it in errors, `limit` bounds its answer.
    async fn call(
        &self,
        method: &'static str,
        url: String,
        body: Option<String>,
        what: &str,
        limit: &BodyLimit,
    ) -> Result<Vec<u8>, ChromaError> {
        let mut headers = vec![("accept".to_string(), "application/json".to_string())];
        if body.is_some() {
            headers.push(("content-type".into(), "application/json".into()));
        }
        headers.extend(self.cfg.headers.iter().cloned());
        let mut req =
            HttpRequest { method, url, headers, body, timeout_ms: self.cfg.timeout_ms, body_limit: limit.bytes };
        let (mut attempt, mut hops) = (0, 0);
        loop {
            if self.budget.as_ref().is_some_and(|b| b.in_command()) {
                let unavailable = |cause| ChromaError::Unavailable { what: what.to_string(), cause };
                if self.breaker.admit(self.transport.now_ms()).map_err(unavailable)? == Admit::Probe {
                    attempt = self.cfg.retries; // a probe is not retried
                }
            }
            let result = {
                let _permit = self.gate.acquire().await;
                self.transport.send(req.clone()).await
            };
            if !matches!(result, Err(TransportError::NotSent(_))) {
                let mut stats = self.stats.borrow_mut();
                stats.requests += 1;
                stats.bytes_sent += req.body.as_ref().map_or(0, |b| b.len() as u64);
            }
            let (error, wait) = match result {
                Ok(resp) if resp.is_redirect() => {
                    self.breaker.answered();
                    match self.redirect_target(&req, &resp, hops) {
                        Ok(target) => {
                            (req.url, hops) = (target, hops + 1);
                            continue;
                        }
                        Err(why) => {
                            return Err(self.failed(ChromaError::Redirect {
                                what: what.into(),
                                status: resp.status,
                                why,
                            }))
                        }
                    }
                }
                Ok(resp) => {
                    self.stats.borrow_mut().bytes_received += resp.body.len() as u64;
                    if resp.status < 500 {
                        self.breaker.answered();
                    }
                    if (200..300).contains(&resp.status) {
                        return Ok(resp.body);
                    }
                    let err = ChromaError::Status {
                        status: resp.status,
                        what: what.to_string(),
                        message: error_message(&resp.body),
                    };
                    let err = self.shown(err);
                    if !retryable(resp.status) {
                        return Err(self.failed(err));
                    }
                    (err, resp.retry_after.map(|s| (s * 1000.0).clamp(0.0, 10_000.0) as u32))
                }
                // Retrying a slow server only multiplies the wait.
                Err(TransportError::Timeout) => {
                    return Err(
                        self.unreachable(ChromaError::Timeout { what: what.to_string(), ms: self.cfg.timeout_ms })
                    )
                }
                Err(TransportError::NotSent(why)) => {
                    return Err(self.failed(ChromaError::NotSent { what: what.to_string(), why }))
                }
                Err(TransportError::Network(cause)) => {
                    (self.shown(ChromaError::Network { what: what.to_string(), cause }), None)
                }
                // The server is up (it answered) but its answer cannot be right: asking
                // again would bring the same, and the breaker is for servers that are down.
                Err(TransportError::TooLarge { .. }) => {
                    self.breaker.answered();
                    return Err(self.failed(ChromaError::TooLarge { what: what.to_string(), limit: limit.clone() }));
                }
            };
            if attempt >= self.cfg.retries {
                return Err(match error.status() {
                    Some(429) => self.failed(error),
                    _ => self.unreachable(error),
                });
            }
            attempt += 1;
            self.stats.borrow_mut().retries += 1;
            self.transport.sleep(wait.unwrap_or(100u32 << attempt.min(6))).await;
        }
    }

    /// Waits, on the transport's clock.
    pub async fn pause(&self, ms: u32) {
        self.transport.sleep(ms).await;
    }

    fn failed(&self, e: ChromaError) -> ChromaError {
        self.stats.borrow_mut().failures += 1;
        self.shown(e)
    }

    /// A failure that says the server cannot answer: the breaker opens.
    fn unreachable(&self, e: ChromaError) -> ChromaError {
        let e = self.shown(e);
        self.breaker.failed(self.transport.now_ms(), e.to_string());
        self.failed(e)
    }

    /// The error as a message may show it: whatever came from the server or the network
    /// cut to one short line, with the session's secrets redacted. Idempotent.
    fn shown(&self, e: ChromaError) -> ChromaError {
        let s = |text: String| self.secrets.excerpt(&text);
        match e {
            ChromaError::Status { status, what, message } => ChromaError::Status { status, what, message: s(message) },
            ChromaError::Network { what, cause } => ChromaError::Network { what, cause: s(cause) },
            ChromaError::Decode { what, cause } => ChromaError::Decode { what, cause: s(cause) },
            ChromaError::Redirect { what, status, why } => {
                ChromaError::Redirect { what, status, why: self.secrets.scrub(&why) }
            }
            ChromaError::Unavailable { what, cause } => ChromaError::Unavailable { what, cause: s(cause) },
            other => other,
        }
    }

    /// Where a redirect may be followed: the configured origin only (the request carries
    /// credentials), a few hops at most, and keeping the method.
    fn redirect_target(&self, req: &HttpRequest, resp: &HttpResponse, hops: u32) -> Result<String, String> {
        let Some(location) = &resp.location else { return Err("the browser hides where to: not followed".into()) };
        let target = origin::redirect(&self.cfg.url, &req.url, location)?;
        if hops >= MAX_REDIRECTS || (req.method != "GET" && !matches!(resp.status, 307 | 308)) {
            return Err(format!("to {}: not followed", target.shown()));
        }
        Ok(target.to_string())
    }

    async fn call_json<T: FromJson>(
        &self,
        method: &'static str,
        url: String,
        body: Option<String>,
        what: &str,
        limit: &BodyLimit,
    ) -> Result<T, ChromaError> {
        let bytes = self.call(method, url, body, what, limit).await?;
        let decode = |cause: String| self.shown(ChromaError::Decode { what: what.to_string(), cause });
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| decode(e.to_string()))?;
        T::from_json(v).ok_or_else(|| decode(format!("not the JSON expected: {}", error_message(&bytes))))
    }

    /// Resolves a collection name to its id (and checks that it exists).
    pub async fn collection(&self, name: &str) -> Result<CollectionInfo, ChromaError> {
        let url = format!("{}/collections/{}", self.db_url(), encode_segment(name));
        self.call_json("GET", url, None, &format!("collection {name:?}"), &BodyLimit::small()).await
    }

    pub async fn create_collection(
        &self,
        name: &str,
        metadata: Option<Map<String, Value>>,
    ) -> Result<CollectionInfo, ChromaError> {
        let mut body = serde_json::json!({ "name": name, "get_or_create": true });
        if let Some(m) = metadata {
            body["metadata"] = Value::Object(m);
        }
        let url = format!("{}/collections", self.db_url());
        self.call_json("POST", url, Some(body.to_string()), &format!("create collection {name:?}"), &BodyLimit::small())
            .await
    }

    pub async fn delete_collection(&self, name: &str) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}", self.db_url(), encode_segment(name));
        self.call("DELETE", url, None, &format!("delete collection {name:?}"), &BodyLimit::small()).await.map(drop)
    }

    /// One `get` request, as given; its answer may hold the records it asks for.
    pub async fn get_once(
        &self,
        collection_id: &str,
        req: &GetRequest,
        what: &str,
    ) -> Result<GetResponse, ChromaError> {
        let limit = BodyLimit::for_get(req.limit, req.ids.as_ref().map(Vec::len));
        self.get_within(collection_id, req, what, &limit).await
    }

    /// One `get` request whose answer may take `limit` (a read of the path tree).
    pub async fn get_within(
        &self,
        collection_id: &str,
        req: &GetRequest,
        what: &str,
        limit: &BodyLimit,
    ) -> Result<GetResponse, ChromaError> {
        let url = format!("{}/collections/{}/get", self.db_url(), collection_id);
        let body = serde_json::to_string(req).expect("get requests serialise");
        self.call_json("POST", url, Some(body), what, limit).await
    }

    pub async fn count(&self, collection_id: &str) -> Result<u64, ChromaError> {
        let url = format!("{}/collections/{}/count", self.db_url(), collection_id);
        self.call_json("GET", url, None, "count", &BodyLimit::small()).await
    }

    pub async fn upsert(&self, collection_id: &str, req: &UpsertRequest) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}/upsert", self.db_url(), collection_id);
        let body = serde_json::to_string(req)
            .map_err(|e| ChromaError::Decode { what: "upsert".into(), cause: e.to_string() })?;
        self.call("POST", url, Some(body), &format!("upsert of {} records", req.ids.len()), &BodyLimit::small())
            .await
            .map(drop)
    }

    /// Merges metadata into existing records.
    pub async fn update_metadata(
        &self,
        collection_id: &str,
        ids: &[String],
        metadatas: &[Map<String, Value>],
    ) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}/update", self.db_url(), collection_id);
        let body = serde_json::json!({ "ids": ids, "metadatas": metadatas }).to_string();
        self.call("POST", url, Some(body), &format!("update of {} records", ids.len()), &BodyLimit::small())
            .await
            .map(drop)
    }

    pub async fn delete(&self, collection_id: &str, ids: &[String]) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}/delete", self.db_url(), collection_id);
        let body = serde_json::json!({ "ids": ids }).to_string();
        self.call("POST", url, Some(body), &format!("delete of {} records", ids.len()), &BodyLimit::small())
            .await
            .map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::{block_on, Executor, FakeChroma, Latch};
    use serde_json::json;

    #[test]
    fn error_bodies_name_the_error() {
        assert_eq!(error_message(br#"{"error": "NotFound", "message": ""}"#), "NotFound");
        assert_eq!(error_message(br#"{"error": "E", "message": "no such collection"}"#), "no such collection");
        assert_eq!(error_message(b"plain text"), "plain text");
    }

    fn client(chroma: &FakeChroma, tweak: impl FnOnce(&mut ClientConfig)) -> Rc<Client> {
        let mut cfg = ClientConfig::new(crate::testing::chroma::URL);
        tweak(&mut cfg);
        Rc::new(Client::new(cfg, Rc::new(chroma.clone())))
    }

    fn seeded(records: usize) -> (FakeChroma, String) {
        let chroma = FakeChroma::new();
        let id = chroma.collection("docs");
        for i in 0..records {
            chroma.put("docs", &format!("p#{i}"), Some("x"), json!({"page_slug": "p", "chunk_index": i}));
        }
        (chroma, id)
    }

    #[test]
    fn transient_failures_are_retried_with_backoff() {
        let (chroma, id) = seeded(1);
        let failures = Rc::new(RefCell::new(vec![503u16, 500]));
        let f = failures.clone();
        chroma.set_fault(move |_| f.borrow_mut().pop().map(|s| Ok(HttpResponse::new(s, "{}"))));
        let c = client(&chroma, |_| {});
        let c2 = c.clone();
        let resp = block_on(async move { c2.get_once(&id, &GetRequest::default(), "page").await });
        assert_eq!(resp.unwrap().ids, ["p#0"]);
        assert_eq!(chroma.slept(), [200, 400], "exponential backoff");
        assert_eq!((c.stats().requests, c.stats().retries, c.stats().failures), (3, 2, 0));
    }

    #[test]
    fn retry_after_is_honoured_and_persistent_failures_name_the_status() {
        let (chroma, id) = seeded(1);
        chroma.set_fault(|_| {
            Some(Ok(HttpResponse { retry_after: Some(0.25), ..HttpResponse::new(429, r#"{"message":"slow down"}"#) }))
        });
        let c = client(&chroma, |cfg| cfg.retries = 2);
        let c2 = c.clone();
        let err = block_on(async move { c2.get_once(&id, &GetRequest::default(), "page \"p\"").await }).unwrap_err();
        assert_eq!(err.to_string(), "Chroma answered HTTP 429 to page \"p\": slow down");
        assert_eq!(chroma.slept(), [250, 250]);
        assert_eq!(c.stats().failures, 1);
    }

    #[test]
    fn client_errors_and_timeouts_are_not_retried() {
        let (chroma, id) = seeded(1);
        chroma.set_fault(|_| {
            Some(Ok(HttpResponse::new(400, r#"{"error":"InvalidArgumentError","message":"Invalid where clause"}"#)))
        });
        let c = client(&chroma, |cfg| cfg.timeout_ms = 50);
        let (c2, id2) = (c.clone(), id.clone());
        let err = block_on(async move { c2.get_once(&id2, &GetRequest::default(), "a search").await }).unwrap_err();
        assert_eq!(err.to_string(), "Chroma answered HTTP 400 to a search: Invalid where clause");
        chroma.set_fault(|_| Some(Err(TransportError::Timeout)));
        let c2 = c.clone();
        let err = block_on(async move { c2.get_once(&id, &GetRequest::default(), "page \"a\"").await }).unwrap_err();
        assert_eq!(err.to_string(), "Chroma did not answer page \"a\" within 50 ms");
        assert_eq!(chroma.requests().len(), 2, "one attempt each");
        assert!(chroma.slept().is_empty());
    }

    #[test]
    fn network_failures_are_retried_then_reported() {
        let (chroma, id) = seeded(1);
        chroma.set_fault(|_| {
            Some(Err(TransportError::Network("fetch failed (connect ECONNREFUSED 127.0.0.1:1)".into())))
        });
        let c = client(&chroma, |cfg| cfg.retries = 1);
        let err = block_on(async move { c.get_once(&id, &GetRequest::default(), "the path tree").await }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot reach Chroma for the path tree: fetch failed (connect ECONNREFUSED 127.0.0.1:1)"
        );
        assert_eq!(chroma.requests().len(), 2);
    }

    #[test]
    fn an_answer_longer_than_asked_for_is_refused_not_retried_and_leaves_the_breaker_closed() {
        let (chroma, id) = seeded(1);
        let fake = chroma.clone();
        // A page of 2 records, padded past what 2 records may take.
        chroma.set_fault(move |req| {
            let mut body: Value = serde_json::from_slice(&fake.store_answer(req).body).ok()?;
            body["pad"] = Value::String("x".repeat(2 * limits::RECORD_BYTES as usize));
            Some(Ok(HttpResponse::new(200, body.to_string())))
        });
        let c = client(&chroma, |_| {});
        let req = GetRequest { limit: Some(2), ..Default::default() };
        let (c2, id2) = (c.clone(), id.clone());
        let err = block_on(async move { c2.get_once(&id2, &req, "page \"p\"").await }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Chroma answered page \"p\" with more than 245760 bytes (the most an answer of 2 records may take)"
        );
        assert_eq!(chroma.requests().len(), 1, "not retried: the same request gets the same answer");
        assert_eq!(chroma.requests()[0].body_limit, 245_760);
        assert!(!c.breaker().is_open(), "the server answered: it is not down");
        assert_eq!(c.stats().failures, 1);
        // A full page may take 300 records' worth.
        let c2 = c.clone();
        let ok =
            block_on(
                async move { c2.get_once(&id, &GetRequest { limit: Some(300), ..Default::default() }, "page").await },
            );
        assert_eq!(ok.unwrap().ids, ["p#0"]);
    }

    #[test]
    fn redirects_stay_on_the_configured_origin() {
        let (chroma, id) = seeded(1);
        let fake = chroma.clone();
        chroma.set_fault(move |req| {
            let to = |l: &str| Some(Ok(HttpResponse { location: Some(l.into()), ..HttpResponse::new(307, "") }));
            if req.url.contains("/moved/") {
                return Some(Ok(
                    fake.store_answer(&HttpRequest { url: req.url.replace("/moved/", "/"), ..req.clone() })
                ));
            }
            match req.body.as_deref() {
                Some(b) if b.contains("same") => to(&req.url.replace("/collections/", "/collections/moved/")),
                Some(b) if b.contains("away") => to("http://evil.test/steal"),
                Some(b) if b.contains("backslash") => to("http://evil.test\\@chroma.test/steal?sig=secret"),
                _ => None,
            }
        });
        let c = client(&chroma, |cfg| cfg.headers.push(("x-chroma-token".into(), "ck".into())));
        let get = |where_: Value| {
            let (c, id) = (c.clone(), id.clone());
            block_on(async move {
                c.get_once(&id, &GetRequest { where_: Some(where_), ..Default::default() }, "page \"p\"").await
            })
        };
        assert_eq!(
            get(json!({"$or": [{"k": "same"}, {"page_slug": "p"}]})).unwrap().ids,
            ["p#0"],
            "a same-origin 307 is followed"
        );
        let err = get(json!({"k": "away"})).unwrap_err();
        assert_eq!(err.to_string(), format!("Chroma answered page \"p\" with a redirect (HTTP 307) to http://evil.test/steal, another origin: not followed (credentials go only to {})", crate::testing::chroma::URL));
        let err = get(json!({"k": "backslash"})).unwrap_err();
        assert_eq!(err.to_string(), format!("Chroma answered page \"p\" with a redirect (HTTP 307) to http://evil.test/@chroma.test/steal?[redacted], another origin: not followed (credentials go only to {})", crate::testing::chroma::URL));
        assert!(chroma.requests().iter().all(|r| !r.url.starts_with("http://evil.test")), "nothing was sent there");
    }

    #[test]
    fn headers_and_concurrency_cap() {
        let (chroma, id) = seeded(1);
        let latch = Latch::new();
        chroma.hold(&latch);
        let c = client(&chroma, |cfg| {
            cfg.max_concurrency = 3;
            cfg.headers.push(("x-chroma-token".into(), "ck".into()));
        });
        let mut ex = Executor::new();
        for _ in 0..8 {
            let (c, id) = (c.clone(), id.clone());
            ex.spawn(async move {
                c.get_once(&id, &GetRequest::default(), "page").await.unwrap();
            });
        }
        ex.run_until_stalled();
        assert_eq!(chroma.in_flight(), 3);
        latch.open();
        assert_eq!(ex.run_until_stalled(), 0);
        assert_eq!(chroma.max_in_flight(), 3);
        let reqs = chroma.requests();
        assert_eq!(reqs.len(), 8);
        assert!(reqs
            .iter()
            .all(|r| r.header("x-chroma-token") == Some("ck") && r.header("content-type") == Some("application/json")));
    }

    #[test]
    fn error_messages_come_from_chroma() {
        assert_eq!(
            error_message(br#"{"error":"NotFoundError","message":"Collection [x] does not exist"}"#),
            "Collection [x] does not exist"
        );
        assert_eq!(error_message(br#"{"error":"InternalError"}"#), "InternalError");
        assert_eq!(error_message(b"Payload too large"), "Payload too large");
        assert_eq!(error_message(b""), "");
        assert_eq!(error_message("é".repeat(400).as_bytes()).chars().count(), 400, "cut only where it is shown");
    }

    #[test]
    fn server_text_in_errors_is_one_short_line_without_the_session_secrets() {
        let (chroma, id) = seeded(1);
        let echo = |req: &HttpRequest| {
            let headers: Vec<String> = req.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!("{{\"message\": \"rejected request\\n{}\\n{}\"}}", headers.join("\\n"), "x".repeat(500))
        };
        for status in [400u16, 401, 422, 500] {
            chroma.set_fault(move |req| Some(Ok(HttpResponse::new(status, echo(req)))));
            let c = client(&chroma, |cfg| {
                cfg.retries = 0;
                cfg.headers.push(("x-chroma-token".into(), "ck-live-0123456789".into()));
                cfg.headers.push(("x-gateway-key".into(), "gw-secret".into()));
            });
            let id = id.clone();
            let err = block_on(async move { c.get_once(&id, &GetRequest::default(), "page \"p\"").await })
                .unwrap_err()
                .to_string();
            assert!(!err.contains("ck-live-0123456789") && !err.contains("gw-secret"), "{err}");
            assert!(err.contains("x-chroma-token: [redacted]") && err.contains("x-gateway-key: [redacted]"), "{err}");
            assert!(!err.contains('\n') && err.ends_with('…') && err.chars().count() < 300, "{err}");
        }
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
