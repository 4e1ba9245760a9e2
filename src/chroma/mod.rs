//! A small Chroma HTTP API v2 client, written for the quotas of Chroma Cloud.
//!
//! A `get` asks for at most [`MAX_PAGE`] records (Cloud rejects larger limits; paging
//! is in [`crate::pages::collection`]), at most `max_concurrency` requests are in flight per client (Cloud allows 10 concurrent
//! reads per collection), each request has a timeout, and 429/5xx answers and dropped
//! connections are retried with exponential backoff. Every failure becomes a
//! [`ChromaError`] that says what happened in words a person can act on: the status and
//! Chroma's own message, a timeout, or a refused connection.
//!
//! HTTP goes through a [`Transport`], so the protocol logic here does not depend on how
//! bytes move: in WebAssembly that is the host's `fetch` (`js::fetch`); in native
//! tests, an in-memory Chroma.
//!
//! Under the client, one module each: [`transport`] (one HTTP exchange), [`budget`] (what
//! a command may spend), [`breaker`] (failing fast while the server is down), [`limits`]
//! (body sizes), [`wire`] (the JSON sent and read), [`recorded`] (the embedding function
//! a collection records), and the rules every request obeys:
//! [`url`] reads URLs as `fetch` does, [`origin`] says where a request may go, and
//! [`redact`] makes server text fit to show.

use crate::base::sync::{Permit, Semaphore};
use crate::chroma::breaker::{Admit, Breaker};
use crate::chroma::budget::Budget;
use crate::chroma::redact::Secrets;
use crate::chroma::transport::Refusal;
use crate::chroma::transport::{HttpRequest, HttpResponse, Transport, TransportError};
use serde::Serialize;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

pub(crate) mod breaker;
pub(crate) mod budget;
pub(crate) mod limits;
pub(crate) mod origin;
pub(crate) mod recorded;
pub(crate) mod redact;
pub(crate) mod transport;
pub mod url;
mod wire;
pub(crate) use limits::BodyLimit;
pub(crate) use wire::{CollectionInfo, FromJson, GetRequest, GetResponse, QueryRequest, QueryResponse, UpsertRequest};

/// The most records one request asks for or writes (Chroma Cloud's cap on both).
pub(crate) const MAX_PAGE: usize = 300;
/// Chroma Cloud's quota on where predicates per query; each `$in` value counts as one. The
/// default of [`ClientConfig::where_predicates`], since every server accepts it.
pub(crate) const MAX_WHERE_PREDICATES: usize = 8;
/// The most where predicates a query may use whatever the server accepts: a `$in` of this
/// many slugs stays a request of tens of kilobytes.
pub(crate) const WHERE_PREDICATES_CEILING: usize = 1_000;
/// Same-origin redirects followed in a row before giving up.
const MAX_REDIRECTS: u32 = 5;

/// A failed Chroma call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ChromaError {
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
    /// Not sent: the command's budget, deadline or abort ([`crate::chroma::budget`]).
    NotSent {
        what: String,
        why: Refusal,
    },
    /// Not sent: the server failed moments ago ([`crate::chroma::breaker`]).
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
    pub(crate) fn is_wrong_answer(&self) -> bool {
        matches!(self, ChromaError::Decode { .. } | ChromaError::TooLarge { .. })
    }

    pub(crate) fn status(&self) -> Option<u16> {
        match self {
            ChromaError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// Where the collection lives and how to talk to it.
#[derive(Debug, Clone)]
pub(crate) struct ClientConfig {
    pub url: String,
    pub tenant: String,
    pub database: String,
    pub headers: Vec<(String, String)>,
    pub timeout_ms: u32,
    pub max_concurrency: usize,
    pub retries: u32,
    /// Where predicates one query may use (each `$in` value is one): Chroma Cloud's 8
    /// unless the host knows its server takes more.
    pub where_predicates: usize,
}

impl ClientConfig {
    pub(crate) fn new(url: &str) -> Self {
        ClientConfig {
            url: url.trim_end_matches('/').to_string(),
            tenant: "default_tenant".into(),
            database: "default_database".into(),
            headers: Vec::new(),
            timeout_ms: 10_000,
            max_concurrency: 10,
            retries: 3,
            where_predicates: MAX_WHERE_PREDICATES,
        }
    }
}

/// Counters since the client was made.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RequestStats {
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

pub(crate) struct Client {
    cfg: ClientConfig,
    transport: Rc<dyn Transport>,
    gate: Semaphore,
    breaker: Breaker,
    /// The session's commands: the breaker fails requests fast only inside one.
    budget: Option<Rc<Budget>>,
    stats: RefCell<RequestStats>,
    /// The header values sent, kept out of every error ([`crate::chroma::redact`]).
    secrets: Secrets,
}

impl Client {
    pub(crate) fn new(cfg: ClientConfig, transport: Rc<dyn Transport>) -> Self {
        let gate = Semaphore::new(cfg.max_concurrency);
        let secrets = Secrets::new(cfg.headers.iter().map(|(_, v)| v.as_str()));
        Client { cfg, transport, gate, breaker: Breaker::default(), budget: None, stats: RefCell::default(), secrets }
    }

    /// A session's client: inside a command of `budget`, an open breaker fails requests
    /// at once; outside one (a host's own call) every request is tried.
    pub(crate) fn for_session(cfg: ClientConfig, transport: Rc<dyn Transport>, budget: Rc<Budget>) -> Self {
        Client { budget: Some(budget), ..Client::new(cfg, transport) }
    }

    pub(crate) fn config(&self) -> &ClientConfig {
        &self.cfg
    }

    pub(crate) fn stats(&self) -> RequestStats {
        self.stats.borrow().clone()
    }

    pub(crate) fn breaker(&self) -> &Breaker {
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
        // Held while this request probes an open breaker.
        let mut _probe = None;
        loop {
            if self.budget.as_ref().is_some_and(|b| b.in_command()) {
                if let Some(permit) = self.admitted(what).await? {
                    attempt = self.cfg.retries; // a probe is not retried
                    _probe = Some(permit);
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
                Err(TransportError::Network(cause)) => (ChromaError::Network { what: what.to_string(), cause }, None),
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

    /// Whether the breaker lets a request go now: `Some` when it goes as the probe,
    /// after waiting for a probe already out to be done.
    async fn admitted(&self, what: &str) -> Result<Option<Permit<'_>>, ChromaError> {
        loop {
            match self.breaker.admit(self.transport.now_ms()) {
                Ok(Admit::Go) => return Ok(None),
                Ok(Admit::Probe(permit)) => return Ok(Some(permit)),
                Ok(Admit::Wait) => self.breaker.settled().await,
                Err(cause) => return Err(ChromaError::Unavailable { what: what.to_string(), cause }),
            }
        }
    }

    /// Milliseconds on the transport's clock.
    pub(crate) fn now_ms(&self) -> f64 {
        self.transport.now_ms()
    }

    /// Waits, on the transport's clock.
    pub(crate) async fn pause(&self, ms: u32) {
        self.transport.sleep(ms).await;
    }

    /// Every error the client returns from a call passes here, and leaves it as a message
    /// may show it ([`Client::shown`]).
    fn failed(&self, e: ChromaError) -> ChromaError {
        self.stats.borrow_mut().failures += 1;
        self.shown(e)
    }

    /// A failure that says the server cannot answer: the breaker opens.
    fn unreachable(&self, e: ChromaError) -> ChromaError {
        let e = self.failed(e);
        self.breaker.failed(self.transport.now_ms(), e.to_string());
        e
    }

    /// The error as a message may show it: whatever came from the server or the network
    /// cut to one short line, with the session's secrets redacted.
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
        // Validated once as a whole, then parsed as text: serde_json would check each string.
        let text = crate::base::utf8::text(&bytes).ok_or_else(|| decode("the answer is not UTF-8".to_string()))?;
        let v: Value = serde_json::from_str(text).map_err(|e| decode(e.to_string()))?;
        T::from_json(v).ok_or_else(|| decode(format!("not the JSON expected: {}", error_message(&bytes))))
    }

    /// Resolves a collection name to its id (and checks that it exists).
    pub(crate) async fn collection(&self, name: &str) -> Result<CollectionInfo, ChromaError> {
        let url = format!("{}/collections/{}", self.db_url(), encode_segment(name));
        self.call_json("GET", url, None, &format!("collection {name:?}"), &BodyLimit::small()).await
    }

    /// Creates the collection unless it exists; a new one records `function` (`{"name",
    /// "config"}`, as Chroma's clients write an embedding function) in its configuration.
    pub(crate) async fn create_collection(
        &self,
        name: &str,
        function: Option<&Value>,
    ) -> Result<CollectionInfo, ChromaError> {
        let mut body = serde_json::json!({ "name": name, "get_or_create": true });
        if let Some(f) = function {
            body["configuration"] = serde_json::json!({ "embedding_function": known(f) });
        }
        let url = format!("{}/collections", self.db_url());
        self.call_json("POST", url, Some(body.to_string()), &format!("create collection {name:?}"), &BodyLimit::small())
            .await
    }

    /// Records `function` as the collection's embedding function (see `create_collection`).
    pub(crate) async fn configure(&self, collection_id: &str, function: &Value) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}", self.db_url(), collection_id);
        let body = serde_json::json!({ "new_configuration": { "embedding_function": known(function) } });
        self.call("PUT", url, Some(body.to_string()), "the collection's configuration", &BodyLimit::small())
            .await
            .map(drop)
    }

    /// One `get` request, as given; its answer may hold the records it asks for.
    pub(crate) async fn get_once(
        &self,
        collection_id: &str,
        req: &GetRequest,
        what: &str,
    ) -> Result<GetResponse, ChromaError> {
        let limit = BodyLimit::for_get(req.limit, req.ids.as_ref().map(Vec::len));
        self.get_within(collection_id, req, what, &limit).await
    }

    /// One `get` request whose answer may take `limit` (a read of the path tree).
    pub(crate) async fn get_within(
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

    /// One `query`: the records nearest to one embedding.
    pub(crate) async fn query(
        &self,
        collection_id: &str,
        req: &QueryRequest,
        what: &str,
    ) -> Result<QueryResponse, ChromaError> {
        let url = format!("{}/collections/{}/query", self.db_url(), collection_id);
        let body = serde_json::to_string(req).expect("query requests serialise");
        self.call_json("POST", url, Some(body), what, &BodyLimit::records(req.n_results)).await
    }

    pub(crate) async fn upsert(&self, collection_id: &str, req: &UpsertRequest) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}/upsert", self.db_url(), collection_id);
        let body = serde_json::to_string(req)
            .map_err(|e| ChromaError::Decode { what: "upsert".into(), cause: e.to_string() })?;
        self.call("POST", url, Some(body), &format!("upsert of {} records", req.ids.len()), &BodyLimit::small())
            .await
            .map(drop)
    }

    /// Merges metadata into existing records.
    pub(crate) async fn update_metadata(
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

    pub(crate) async fn delete(&self, collection_id: &str, ids: &[String]) -> Result<(), ChromaError> {
        let url = format!("{}/collections/{}/delete", self.db_url(), collection_id);
        let body = serde_json::json!({ "ids": ids }).to_string();
        self.call("POST", url, Some(body), &format!("delete of {} records", ids.len()), &BodyLimit::small())
            .await
            .map(drop)
    }
}

/// A function as a collection's configuration records it: `{"type": "known", "name", "config"}`.
fn known(function: &Value) -> Value {
    serde_json::json!({ "type": "known", "name": function["name"], "config": function["config"] })
}

#[cfg(test)]
mod tests;
