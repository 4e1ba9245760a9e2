//! How bytes move: one HTTP exchange at a time, behind the [`Transport`] trait.
//!
//! The protocol logic (the Chroma client, lazy files) is written against this trait and
//! never against `fetch`, so it runs natively in tests over a scripted transport and in
//! WebAssembly over the host's `fetch` (`js::fetch`). Everything is single-threaded:
//! futures are `!Send` and boxed as [`LocalFuture`].

use crate::base::sync::LocalFuture;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HttpRequest {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    pub timeout_ms: u32,
    /// The most bytes of response body the caller accepts. A transport never holds more:
    /// past it, it stops reading, drops what it read and answers [`TransportError::TooLarge`].
    pub body_limit: u64,
}

impl HttpRequest {
    /// A request with no headers and no body, whose answer may hold `body_limit` bytes.
    pub(crate) fn get(url: impl Into<String>, timeout_ms: u32, body_limit: u64) -> Self {
        HttpRequest { method: "GET", url: url.into(), headers: Vec::new(), body: None, timeout_ms, body_limit }
    }

    #[cfg(test)]
    /// The value of a header (names compare case-insensitively).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HttpResponse {
    pub status: u16,
    pub body: Vec<u8>,
    /// `Retry-After`, in seconds, when the server sent one.
    pub retry_after: Option<f64>,
    /// `Location`, on a redirect. Redirects are never followed by the transport: the
    /// caller decides (status 0 is a redirect whose target the browser hides).
    pub location: Option<String>,
}

impl HttpResponse {
    #[cfg(test)]
    pub(crate) fn new(status: u16, body: impl Into<Vec<u8>>) -> Self {
        HttpResponse { status, body: body.into(), retry_after: None, location: None }
    }

    pub(crate) fn is_redirect(&self) -> bool {
        self.status == 0 || (300..400).contains(&self.status)
    }
}

/// A `Retry-After` of delay seconds (`120`, or `1.5` as some servers send), in seconds; an
/// HTTP date or anything else is ignored. Parsed by hand: `str::parse::<f64>` would bring
/// 20 KB of float tables into the wasm for this one header.
pub(crate) fn retry_after_seconds(value: &str) -> Option<f64> {
    let (whole, frac) = value.trim().split_once('.').unwrap_or((value.trim(), ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 9 || !digits(whole) || !digits(frac) {
        return None;
    }
    let ms: String = frac.chars().chain("000".chars()).take(3).collect();
    Some(whole.parse::<u32>().ok()? as f64 + ms.parse::<u32>().ok()? as f64 / 1000.0)
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TransportError {
    Timeout,
    /// The request never got an answer: refused, reset, DNS, CORS…
    Network(String),
    /// The request was not sent: the command it belongs to may not send more.
    NotSent(Refusal),
    /// The answer's body is longer than the request's `body_limit`; it was not kept.
    TooLarge {
        limit: u64,
    },
}

/// Moves one request and its response; implemented over `fetch` in WebAssembly.
pub(crate) trait Transport {
    fn send(&self, req: HttpRequest) -> LocalFuture<'static, Result<HttpResponse, TransportError>>;
    fn sleep(&self, ms: u32) -> LocalFuture<'static, ()>;
    /// Milliseconds on the transport's clock (wall time in WebAssembly).
    fn now_ms(&self) -> f64;
}

#[cfg(test)]
mod tests {
    use super::retry_after_seconds;

    #[test]
    fn retry_after_reads_delay_seconds_only() {
        assert_eq!(retry_after_seconds("120"), Some(120.0));
        assert_eq!(retry_after_seconds(" 1.5 "), Some(1.5));
        assert_eq!(retry_after_seconds("0.25"), Some(0.25));
        assert_eq!(retry_after_seconds("2."), Some(2.0));
        for bad in ["", ".5", "-1", "1e3", "Wed, 21 Oct 2015 07:28:00 GMT", "1.2.3", "9999999999"] {
            assert_eq!(retry_after_seconds(bad), None, "{bad:?}");
        }
    }
}

/// Why a request was not sent: the command's budget (see [`crate::chroma::budget`]) refused it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Refusal {
    /// `maxRequestsPerCommand` requests were sent already.
    Spent(u64),
    /// `commandTimeoutMs` passed.
    Deadline(u32),
    /// The host aborted the command.
    Aborted,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Spent(n) => write!(f, "the command used its budget of {n} requests (maxRequestsPerCommand)"),
            Refusal::Deadline(ms) => write!(f, "the command ran out of time after {ms} ms (commandTimeoutMs)"),
            Refusal::Aborted => f.write_str("the command was aborted"),
        }
    }
}
