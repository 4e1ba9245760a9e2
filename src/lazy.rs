//! Lazy files: pages whose content is not in Chroma but fetched on first read.
//!
//! A tree entry with a `url` (an OpenAPI spec in object storage, say) or a path the host
//! passes in `lazyFiles` has no chunks. Its content is loaded once, when something reads
//! it (or needs its exact size), and then lives in the content cache like any page.
//! Chroma's credentials are never sent to a lazy file's URL.

use crate::chroma::{HttpRequest, LocalFuture, Transport, TransportError};
use std::rc::Rc;

/// A host-supplied loader (in JS: `() => Promise<string | Uint8Array>`).
pub type Provider = Rc<dyn Fn() -> LocalFuture<'static, Result<Vec<u8>, String>>>;

#[derive(Clone)]
pub enum LazySource {
    Url(String),
    Provider(Provider),
}

impl std::fmt::Debug for LazySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LazySource::Url(u) => write!(f, "Url({u:?})"),
            LazySource::Provider(_) => f.write_str("Provider"),
        }
    }
}

/// Loads a lazy file's bytes; the error says why in words.
pub async fn load(source: &LazySource, transport: &dyn Transport, timeout_ms: u32) -> Result<Vec<u8>, String> {
    match source {
        LazySource::Provider(p) => p().await,
        LazySource::Url(url) => {
            let req = HttpRequest { method: "GET", url: url.clone(), headers: Vec::new(), body: None, timeout_ms };
            match transport.send(req).await {
                Ok(r) if (200..300).contains(&r.status) => Ok(r.body),
                Ok(r) => Err(format!("GET {url} answered HTTP {}", r.status)),
                Err(TransportError::Timeout) => Err(format!("GET {url} did not answer within {timeout_ms} ms")),
                Err(TransportError::Network(cause)) => Err(format!("GET {url} failed: {cause}")),
            }
        }
    }
}
