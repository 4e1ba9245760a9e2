//! Lazy files: pages whose content is not in Chroma but fetched on first read.
//!
//! A tree entry with a `url` (an OpenAPI spec in object storage, say) or a path the host
//! passes in `lazyFiles` has no chunks. Its content is loaded once, when something reads
//! it (or needs its exact size), and then lives in the page store like any page.
//! Chroma's credentials are never sent to a lazy file's URL, and a URL that came from
//! the tree is fetched only where the [`LazyPolicy`] allows — each redirect hop too.
//! A file is never held past its [`LazyLimit`]: the `size` the tree declares for it, else
//! the host's `lazyMaxBytes`; a longer answer is an error as soon as it passes the limit.

use crate::base::sync::LocalFuture;
use crate::chroma::origin::LazyPolicy;
use crate::chroma::transport::{HttpRequest, Transport, TransportError};
use crate::chroma::url::{self, Url};
use std::rc::Rc;

/// A host-supplied loader (in JS: `() => Promise<string | Uint8Array>`).
pub(crate) type Provider = Rc<dyn Fn() -> LocalFuture<'static, Result<Vec<u8>, String>>>;

/// Redirects followed for one lazy file.
const MAX_REDIRECTS: usize = 5;

/// The most bytes a lazy file without a `size` in the tree may have, unless the host
/// says otherwise (`lazyMaxBytes`).
pub(crate) const DEFAULT_MAX_BYTES: u64 = 32 << 20;

/// How long a lazy file may be, and who said so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LazyLimit {
    /// The path tree's `size` for it: not one byte more.
    Declared(u64),
    /// The host's `lazyMaxBytes`.
    Cap(u64),
}

impl LazyLimit {
    pub(crate) fn new(size: Option<u64>, cap: u64) -> LazyLimit {
        size.map_or(LazyLimit::Cap(cap), LazyLimit::Declared)
    }

    pub(crate) fn bytes(self) -> u64 {
        match self {
            LazyLimit::Declared(n) | LazyLimit::Cap(n) => n,
        }
    }

    fn why(self) -> &'static str {
        match self {
            LazyLimit::Declared(_) => "the size the path tree declares",
            LazyLimit::Cap(_) => "lazyMaxBytes",
        }
    }

    fn exceeded(self, what: &str) -> String {
        format!("{what} more than {} bytes ({})", self.bytes(), self.why())
    }
}

#[derive(Clone)]
pub(crate) enum LazySource {
    /// A URL the host gave (`lazyFiles`): trusted.
    Url(String),
    /// A URL the path tree names: checked against the policy.
    TreeUrl(String),
    Provider(Provider),
}

impl std::fmt::Debug for LazySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LazySource::Url(u) => write!(f, "Url({u:?})"),
            LazySource::TreeUrl(u) => write!(f, "TreeUrl({u:?})"),
            LazySource::Provider(_) => f.write_str("Provider"),
        }
    }
}

/// Loads a lazy file's bytes, at most `limit`; the error says why in words.
pub(crate) async fn load(
    source: &LazySource,
    transport: &dyn Transport,
    timeout_ms: u32,
    policy: &LazyPolicy,
    limit: LazyLimit,
) -> Result<Vec<u8>, String> {
    let (raw, checked) = match source {
        LazySource::Provider(p) => {
            let bytes = p().await?;
            return if bytes.len() as u64 > limit.bytes() {
                Err(limit.exceeded("the lazy file's loader returned"))
            } else {
                Ok(bytes)
            };
        }
        LazySource::Url(u) => (u, false),
        LazySource::TreeUrl(u) => (u, true),
    };
    let allowed = |u: &Url| if checked { policy.check(u) } else { Ok(()) };
    let first = Url::parse(raw).map_err(|why| format!("GET {} refused: {why}", url::redact(raw)))?;
    let first_shown = first.shown();
    allowed(&first).map_err(|why| format!("GET {first_shown} refused: {why}"))?;
    let mut target = first;
    for _ in 0..=MAX_REDIRECTS {
        let shown = target.shown();
        let resp = match transport.send(HttpRequest::get(target.to_string(), timeout_ms, limit.bytes())).await {
            Ok(r) => r,
            Err(TransportError::Timeout) => return Err(format!("GET {shown} did not answer within {timeout_ms} ms")),
            Err(TransportError::Network(cause)) => return Err(format!("GET {shown} failed: {cause}")),
            Err(TransportError::NotSent(why)) => return Err(format!("GET {shown} not sent: {why}")),
            Err(TransportError::TooLarge { .. }) => return Err(limit.exceeded(&format!("GET {shown} answered"))),
        };
        if !resp.is_redirect() {
            return if (200..300).contains(&resp.status) {
                Ok(resp.body)
            } else {
                Err(format!("GET {shown} answered HTTP {}", resp.status))
            };
        }
        let Some(location) = resp.location.as_deref() else {
            return Err(format!("GET {shown} redirected where the browser does not say"));
        };
        let next = target
            .join(location)
            .map_err(|why| format!("GET {shown} redirected to {}, refused: {why}", url::redact(location)))?;
        allowed(&next).map_err(|why| format!("GET {shown} redirected to {}, refused: {why}", next.shown()))?;
        target = next;
    }
    Err(format!("GET {first_shown} redirected more than {MAX_REDIRECTS} times"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chroma::transport::HttpResponse;
    use crate::testing::{block_on, FakeChroma};

    fn fetch(server: &FakeChroma, source: LazySource, policy: LazyPolicy) -> Result<Vec<u8>, String> {
        let t = server.clone();
        block_on(async move { load(&source, &t, 100, &policy, LazyLimit::Cap(1 << 20)).await })
    }

    fn redirect(to: &str) -> HttpResponse {
        HttpResponse { location: Some(to.into()), ..HttpResponse::new(302, "") }
    }

    #[test]
    fn urls_are_fetched_without_credentials_and_failures_say_why() {
        let server = FakeChroma::new();
        server.set_fault(|req| {
            Some(if req.url.ends_with("/ok") {
                Ok(HttpResponse::new(200, "spec"))
            } else {
                Ok(HttpResponse::new(404, ""))
            })
        });
        assert_eq!(
            fetch(&server, LazySource::TreeUrl("https://x.test/ok".into()), LazyPolicy::default()).unwrap(),
            b"spec"
        );
        let gone = fetch(&server, LazySource::Url("https://x.test/gone".into()), LazyPolicy::default());
        assert_eq!(gone.unwrap_err(), "GET https://x.test/gone answered HTTP 404");
        assert!(server.requests().iter().all(|r| r.headers.is_empty()), "no token, no host headers");
        server.set_fault(|_| Some(Err(TransportError::Timeout)));
        let slow = fetch(&server, LazySource::Url("https://x.test/slow".into()), LazyPolicy::default());
        assert_eq!(slow.unwrap_err(), "GET https://x.test/slow did not answer within 100 ms");
    }

    #[test]
    fn tree_urls_go_only_where_the_policy_allows_every_hop() {
        let server = FakeChroma::new();
        server.set_fault(|req| {
            Some(Ok(match req.url.as_str() {
                "https://cdn.test/moved" => redirect("/spec.json"),
                "https://cdn.test/sneaky" => redirect("http://169.254.169.254/latest/meta-data"),
                _ => HttpResponse::new(200, "spec"),
            }))
        });
        let tree = |u: &str| LazySource::TreeUrl(u.into());
        assert_eq!(fetch(&server, tree("https://cdn.test/moved"), LazyPolicy::default()).unwrap(), b"spec");
        let e = fetch(&server, tree("https://cdn.test/sneaky"), LazyPolicy::default()).unwrap_err();
        assert_eq!(e, "GET https://cdn.test/sneaky redirected to http://169.254.169.254/latest/meta-data, refused: http://169.254.169.254 is not https: (set lazyOrigins to allow it)");
        let e = fetch(&server, tree("https://127.0.0.1/x"), LazyPolicy::default()).unwrap_err();
        assert!(e.starts_with("GET https://127.0.0.1/x refused: https://127.0.0.1 is a loopback"), "{e}");
        let before = server.requests().len();
        assert!(fetch(&server, tree("http://127.0.0.1:9/x"), LazyPolicy::default()).is_err());
        assert_eq!(server.requests().len(), before, "a refused URL is never requested");
        let host = LazyPolicy::new(Some(vec!["http://127.0.0.1:9".into()]));
        assert_eq!(fetch(&server, tree("http://127.0.0.1:9/x"), host).unwrap(), b"spec");
        assert_eq!(
            fetch(&server, LazySource::Url("http://127.0.0.1:9/x".into()), LazyPolicy::default()).unwrap(),
            b"spec",
            "the host's own URLs are trusted"
        );
    }

    #[test]
    fn requests_go_to_the_url_as_fetch_reads_it_and_messages_hide_secrets() {
        let server = FakeChroma::new();
        server.set_fault(|req| {
            Some(Ok(match req.url.as_str() {
                "https://cdn.test/a%20b" => redirect("https://u:pw@cdn.test/c?sig=secret"),
                "https://cdn.test/signed?sig=secret" => HttpResponse::new(404, ""),
                "https://cdn.test/hop" => redirect("https://127.0.0.1:9\\@cdn.test/x?sig=secret"),
                _ => HttpResponse::new(200, "spec"),
            }))
        });
        let tree = |u: &str| fetch(&server, LazySource::TreeUrl(u.into()), LazyPolicy::default());
        assert_eq!(tree(" HTTPS:\\CDN.test\\x\t ").unwrap(), b"spec");
        assert_eq!(server.requests().last().unwrap().url, "https://cdn.test/x", "the canonical form is sent");
        assert_eq!(tree("https://cdn.test/a b").unwrap_err(), "GET https://cdn.test/a%20b redirected to \"https://cdn.test/c?[redacted]\", refused: a URL with a user name or password, which chromafs never sends");
        assert_eq!(
            tree("https://cdn.test/signed?sig=secret").unwrap_err(),
            "GET https://cdn.test/signed?[redacted] answered HTTP 404"
        );
        let e = tree("https://cdn.test/hop").unwrap_err();
        assert_eq!(e, "GET https://cdn.test/hop redirected to https://127.0.0.1:9/@cdn.test/x?[redacted], refused: https://127.0.0.1:9 is a loopback, link-local or private address (set lazyOrigins to allow it)");
        let before = server.requests().len();
        assert!(tree("https://u:pw@cdn.test/x")
            .unwrap_err()
            .starts_with("GET \"https://cdn.test/x\" refused: a URL with a user name"));
        assert_eq!(server.requests().len(), before);
    }

    #[test]
    fn a_file_is_never_held_past_its_declared_size_or_the_cap() {
        let server = FakeChroma::new();
        server.set_fault(|_| Some(Ok(HttpResponse::new(200, vec![b'x'; 4096]))));
        let get = |limit| {
            let t = server.clone();
            block_on(async move {
                load(&LazySource::Url("https://x.test/big".into()), &t, 100, &LazyPolicy::default(), limit).await
            })
        };
        assert_eq!(
            get(LazyLimit::Declared(10)).unwrap_err(),
            "GET https://x.test/big answered more than 10 bytes (the size the path tree declares)"
        );
        assert_eq!(
            get(LazyLimit::Cap(4095)).unwrap_err(),
            "GET https://x.test/big answered more than 4095 bytes (lazyMaxBytes)"
        );
        assert_eq!(get(LazyLimit::Cap(4096)).unwrap().len(), 4096);
        assert_eq!(server.requests().len(), 3, "not retried");
        assert!(server.requests().iter().all(|r| r.body_limit <= 4096), "the limit travels with the request");
        let p: Provider = Rc::new(|| Box::pin(async { Ok(vec![0u8; 11]) }));
        let e = block_on(async move {
            load(&LazySource::Provider(p), &FakeChroma::new(), 100, &LazyPolicy::default(), LazyLimit::new(None, 10))
                .await
        });
        assert_eq!(e.unwrap_err(), "the lazy file's loader returned more than 10 bytes (lazyMaxBytes)");
    }

    #[test]
    fn providers_are_called_on_load() {
        let p: Provider = Rc::new(|| Box::pin(async { Ok(b"from the host".to_vec()) }));
        assert_eq!(
            fetch(&FakeChroma::new(), LazySource::Provider(p), LazyPolicy::default()).unwrap(),
            b"from the host"
        );
    }
}
