//! Origins: where a request may go.
//!
//! Two rules keep credentials and the server itself safe. Chroma's token and the host's
//! headers go to the configured origin only, so a redirect elsewhere is refused rather
//! than followed ([`redirect`]). And a lazy file's URL comes from the tree, which other
//! tools may write: unless the host names the origins it trusts, only `https:` URLs to
//! public hosts are fetched ([`LazyPolicy`]), so a tree cannot make a server fetch its
//! own loopback, link-local (cloud metadata) or private-network addresses.
//!
//! Both rules judge a [`Url`] as `fetch` will read it, and the request then goes to that
//! `Url` printed back, so the origin checked is the origin connected to.

use crate::chroma::url::{Host, Scheme, Url};
use std::net::Ipv4Addr;

/// Where a redirect from `from` to `location` goes, when it stays on `home`'s origin;
/// otherwise why not, in words that show no query string or password.
pub(crate) fn redirect(home: &str, from: &str, location: &str) -> Result<Url, String> {
    let base = Url::parse(from).map_err(|e| format!("from {}: {e}", crate::chroma::url::redact(from)))?;
    let target =
        base.join(location).map_err(|e| format!("to {}, {e}: not followed", crate::chroma::url::redact(location)))?;
    let home = Url::parse(home).map(|h| h.origin()).unwrap_or_default();
    if target.origin() != home {
        return Err(format!("to {}, another origin: not followed (credentials go only to {home})", target.shown()));
    }
    Ok(target)
}

fn blocked_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_link_local()
        || ip.is_private()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || (a == 100 && (64..128).contains(&b))
}

fn blocked_v6(g: [u16; 8]) -> bool {
    let zeros = |n: usize| g[..n].iter().all(|&x| x == 0);
    let loopback_or_unspecified = zeros(7) && g[7] <= 1;
    let mapped = (zeros(5) && g[5] == 0xffff).then(|| Ipv4Addr::from((g[6] as u32) << 16 | g[7] as u32));
    loopback_or_unspecified || (g[0] & 0xffc0) == 0xfe80 || (g[0] & 0xfe00) == 0xfc00 || mapped.is_some_and(blocked_v4)
}

/// Loopback, link-local, private or unspecified, or a `localhost` name.
fn internal(host: &Host) -> bool {
    match host {
        Host::V4(ip) => blocked_v4(Ipv4Addr::from(*ip)),
        Host::V6(g) => blocked_v6(*g),
        Host::Domain(d) => {
            let d = d.trim_end_matches('.');
            d == "localhost" || d.ends_with(".localhost")
        }
    }
}

/// Which lazy-file URLs named by a tree may be fetched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct LazyPolicy {
    /// The origins the host trusts (`lazyOrigins`); `None`: any public `https:` host.
    pub origins: Option<Vec<String>>,
}

impl LazyPolicy {
    pub(crate) fn new(origins: Option<Vec<String>>) -> Self {
        LazyPolicy {
            origins: origins.map(|o| o.iter().filter_map(|u| Url::parse(u).ok()).map(|u| u.origin()).collect()),
        }
    }

    /// `Ok` when the URL may be fetched, else why not.
    pub(crate) fn check(&self, url: &Url) -> Result<(), String> {
        let shown = url.origin();
        if let Some(allowed) = &self.origins {
            return if allowed.contains(&shown) {
                Ok(())
            } else {
                Err(format!("{shown} is not one of the lazyOrigins"))
            };
        }
        if url.scheme() != Scheme::Https {
            return Err(format!("{shown} is not https: (set lazyOrigins to allow it)"));
        }
        if internal(url.host()) {
            return Err(format!("{shown} is a loopback, link-local or private address (set lazyOrigins to allow it)"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(u: &str) -> Option<String> {
        Url::parse(u).ok().map(|u| u.origin())
    }

    #[test]
    fn origins_are_canonical() {
        assert_eq!(origin("http://127.0.0.1:8000/api/v2").as_deref(), Some("http://127.0.0.1:8000"));
        assert_eq!(origin("HTTPS://Api.TryChroma.com:443/x?y#z").as_deref(), Some("https://api.trychroma.com"));
        assert_eq!(origin("http://0x7f.1/").as_deref(), Some("http://127.0.0.1"));
        assert_eq!(origin("http://2130706433/").as_deref(), Some("http://127.0.0.1"));
        assert_eq!(origin("http://%31%32%37.0.0.1/").as_deref(), Some("http://127.0.0.1"));
        assert_eq!(origin("http://[0:0::1]:9/").as_deref(), Some("http://[::1]:9"));
        assert_eq!(
            origin("http://127.0.0.1:1\\@127.0.0.1:2/").as_deref(),
            Some("http://127.0.0.1:1"),
            "a backslash ends the authority"
        );
        assert_eq!(origin("http://user:pw@host:80/"), None, "no credentials in URLs");
        assert_eq!(origin("ftp://x/"), None);
        assert_eq!(origin("/relative"), None);
    }

    #[test]
    fn redirects_resolve_and_stay_home() {
        let home = "http://a:1";
        let to = |l: &str| redirect(home, "http://a:1/api/v2/x/get?q=1", l).map(|u| u.to_string());
        assert_eq!(to("/other").as_deref(), Ok("http://a:1/other"));
        assert_eq!(to("next").as_deref(), Ok("http://a:1/api/v2/x/next"));
        assert_eq!(to("HTTP://A:1/y").as_deref(), Ok("http://a:1/y"));
        assert_eq!(
            to("//evil.test/p?sig=s").unwrap_err(),
            "to http://evil.test/p?[redacted], another origin: not followed (credentials go only to http://a:1)"
        );
        assert_eq!(
            to("\\\\evil.test/p").unwrap_err(),
            "to http://evil.test/p, another origin: not followed (credentials go only to http://a:1)"
        );
        assert_eq!(
            to("http://a:2\\@a:1/").unwrap_err(),
            "to http://a:2/@a:1/, another origin: not followed (credentials go only to http://a:1)"
        );
        assert_eq!(
            to("https://a:1/").unwrap_err(),
            "to https://a:1/, another origin: not followed (credentials go only to http://a:1)"
        );
        let e = to("http://u:secret@a:1/x?sig=s").unwrap_err();
        assert_eq!(e, "to \"http://a:1/x?[redacted]\", a URL with a user name or password, which chromafs never sends: not followed");
    }

    #[test]
    fn lazy_urls_stay_public_unless_the_host_says_otherwise() {
        let p = LazyPolicy::default();
        let check = |p: &LazyPolicy, u: &str| Url::parse(u).map_err(|e| e.to_string()).and_then(|u| p.check(&u));
        assert_eq!(check(&p, "https://cdn.example.com/spec.json"), Ok(()));
        for bad in [
            "http://cdn.example.com/x",
            "https://localhost/x",
            "https://localhost./x",
            "https://api.localhost/x",
            "https://127.0.0.1/x",
            "https://127.9.9.9:8443/x",
            "https://0x7f.0.0.1/x",
            "https://2130706433/x",
            "https://169.254.169.254/latest/meta-data",
            "https://10.1.2.3/x",
            "https://192.168.0.1/x",
            "https://[::1]/x",
            "https://[fe80::1]/x",
            "https://[::ffff:127.0.0.1]/x",
            "https://0.0.0.0/x",
            "https://127.0.0.1:9\\@example.com/spec.json",
            "file:///etc/passwd",
        ] {
            assert!(check(&p, bad).is_err(), "{bad} should be refused");
        }
        let trusted = LazyPolicy::new(Some(vec!["http://127.0.0.1:9000".into()]));
        assert_eq!(check(&trusted, "http://127.0.0.1:9000/spec.json"), Ok(()));
        assert_eq!(
            check(&trusted, "https://cdn.example.com/x").unwrap_err(),
            "https://cdn.example.com is not one of the lazyOrigins"
        );
        assert_eq!(
            check(&trusted, "http://127.0.0.1:9001\\@127.0.0.1:9000/x").unwrap_err(),
            "http://127.0.0.1:9001 is not one of the lazyOrigins"
        );
    }
}
