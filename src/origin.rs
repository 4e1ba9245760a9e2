//! Origins: where a request may go.
//!
//! Two rules keep credentials and the server itself safe. Chroma's token and the host's
//! headers go to the configured origin only, so a redirect elsewhere is refused rather
//! than followed ([`same_origin`]). And a lazy file's URL comes from the tree, which other
//! tools may write: unless the host names the origins it trusts, only `https:` URLs to
//! public hosts are fetched ([`LazyPolicy`]), so a tree cannot make a server fetch its
//! own loopback, link-local (cloud metadata) or private-network addresses.
//!
//! Hosts are read as the WHATWG URL parser (and so `fetch`) reads them: case-folded,
//! percent-decoded, with `0x7f.1` and `2130706433` both meaning 127.0.0.1. IP hosts are
//! parsed and printed here rather than through `std::net`, whose parser and `Display` cost
//! the wasm module 6 KB.

use std::net::Ipv4Addr;

/// The parts of a URL that make its origin.
struct Origin {
    scheme: String,
    /// Canonical: dotted IPv4, bracketed IPv6, or a lower-case name.
    host: String,
    port: Option<String>,
}

impl Origin {
    fn parse(url: &str) -> Option<Origin> {
        let (scheme, rest) = url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let authority = rest.split(['/', '?', '#']).next()?;
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let (host, port) = split_port(host_port)?;
        let default = if scheme == "http" { "80" } else { "443" };
        let port = port.filter(|p| *p != default).map(str::to_string);
        Some(Origin { host: canonical_host(host)?, scheme, port })
    }

    fn render(&self) -> String {
        match &self.port {
            Some(p) => format!("{}://{}:{p}", self.scheme, self.host),
            None => format!("{}://{}", self.scheme, self.host),
        }
    }
}

/// `scheme://host[:port]` of an absolute http(s) URL, lower-cased, default port dropped.
pub fn origin(url: &str) -> Option<String> {
    Origin::parse(url).map(|o| o.render())
}

fn split_port(host_port: &str) -> Option<(&str, Option<&str>)> {
    if host_port.starts_with('[') {
        let end = host_port.find(']')?;
        let port = host_port[end + 1..].strip_prefix(':').filter(|p| !p.is_empty());
        return Some((&host_port[..=end], port));
    }
    Some(match host_port.rsplit_once(':') {
        Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) => (h, (!p.is_empty()).then_some(p)),
        Some(_) => return None,
        None => (host_port, None),
    })
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The host as `fetch` would connect to it: IPv4 in dotted decimal, IPv6 bracketed.
fn canonical_host(host: &str) -> Option<String> {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return Some(format!("[{}]", render_v6(parse_v6(inner)?)));
    }
    let host = percent_decode(host)?.to_ascii_lowercase();
    let host = host.strip_suffix('.').unwrap_or(&host).to_string();
    if host.is_empty() {
        return None;
    }
    Some(match whatwg_ipv4(&host) {
        Some(ip) => render_v4(ip),
        None => host,
    })
}

/// WHATWG's IPv4 parser: 1 to 4 parts, each decimal, `0x` hex or `0` octal.
fn whatwg_ipv4(host: &str) -> Option<u32> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 || !parts.last()?.bytes().next()?.is_ascii_digit() {
        return None;
    }
    let mut nums = Vec::with_capacity(parts.len());
    for p in &parts {
        let n = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
            if h.is_empty() { 0 } else { u64::from_str_radix(h, 16).ok()? }
        } else if p.len() > 1 && p.starts_with('0') {
            u64::from_str_radix(&p[1..], 8).ok()?
        } else {
            p.parse::<u64>().ok()?
        };
        nums.push(n);
    }
    let last = nums.pop()?;
    if nums.iter().any(|&n| n > 255) || last >= 256u64.pow(4 - nums.len() as u32) {
        return None;
    }
    let mut ip = last;
    for (i, n) in nums.iter().enumerate() {
        ip += n << (8 * (3 - i));
    }
    Some(ip as u32)
}

fn render_v4(ip: u32) -> String {
    let [a, b, c, d] = ip.to_be_bytes();
    format!("{a}.{b}.{c}.{d}")
}

/// An IPv6 address (brackets removed) as its eight groups: hex groups of 1 to 4 digits, at
/// most one `::` standing for one or more zero groups, and optionally a dotted-decimal
/// IPv4 address as the last two groups.
fn parse_v6(s: &str) -> Option<[u16; 8]> {
    let (head, tail) = match s.split_once("::") {
        Some((h, t)) => (groups_v6(h, false)?, Some(groups_v6(t, true)?)),
        None => (groups_v6(s, true)?, None),
    };
    let mut out = [0u16; 8];
    match tail {
        None if head.len() == 8 => out.copy_from_slice(&head),
        Some(tail) if head.len() + tail.len() <= 7 => {
            out[..head.len()].copy_from_slice(&head);
            out[8 - tail.len()..].copy_from_slice(&tail);
        }
        _ => return None,
    }
    Some(out)
}

/// The groups of one side of a `::` (`v4_tail`: the last piece may be dotted IPv4).
fn groups_v6(part: &str, v4_tail: bool) -> Option<Vec<u16>> {
    if part.is_empty() {
        return Some(Vec::new());
    }
    let pieces: Vec<&str> = part.split(':').collect();
    let mut out = Vec::with_capacity(8);
    for (i, p) in pieces.iter().enumerate() {
        if v4_tail && i + 1 == pieces.len() && p.contains('.') {
            let [a, b, c, d] = dotted_quad(p)?;
            out.extend([u16::from_be_bytes([a, b]), u16::from_be_bytes([c, d])]);
        } else if (1..=4).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_hexdigit()) {
            out.push(u16::from_str_radix(p, 16).ok()?);
        } else {
            return None;
        }
        if out.len() > 8 {
            return None;
        }
    }
    Some(out)
}

/// Four decimal octets without leading zeros, as an IPv6 address may end with.
fn dotted_quad(s: &str) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut parts = s.split('.');
    for o in &mut out {
        let p = parts.next()?;
        if p.is_empty() || p.len() > 3 || (p.len() > 1 && p.starts_with('0')) || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// Lower-case hex groups, the first longest run of two or more zero groups as `::`.
fn render_v6(g: [u16; 8]) -> String {
    let (mut best, mut run) = ((0, 0), (0, 0));
    for (i, &x) in g.iter().enumerate() {
        run = if x == 0 { (if run.1 == 0 { i } else { run.0 }, run.1 + 1) } else { (0, 0) };
        if run.1 > best.1 {
            best = run;
        }
    }
    let hex = |r: &[u16]| r.iter().map(|x| format!("{x:x}")).collect::<Vec<_>>().join(":");
    if best.1 < 2 {
        return hex(&g);
    }
    format!("{}::{}", hex(&g[..best.0]), hex(&g[best.0 + best.1..]))
}

/// Resolves a `Location` header against the URL it answered.
pub fn resolve(base: &str, location: &str) -> String {
    if location.contains("://") {
        return location.to_string();
    }
    let Some(o) = origin(base) else { return location.to_string() };
    if let Some(rest) = location.strip_prefix("//") {
        let scheme = o.split("://").next().unwrap_or("https");
        return format!("{scheme}://{rest}");
    }
    if location.starts_with('/') {
        return format!("{o}{location}");
    }
    let dir = base.rsplit_once('/').map_or(base, |(d, _)| d);
    format!("{dir}/{location}")
}

/// Whether two URLs share an origin.
pub fn same_origin(a: &str, b: &str) -> bool {
    matches!((origin(a), origin(b)), (Some(x), Some(y)) if x == y)
}

fn blocked_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback() || ip.is_link_local() || ip.is_private() || ip.is_unspecified() || ip.is_broadcast() || (a == 100 && (64..128).contains(&b))
}

fn blocked_v6(g: [u16; 8]) -> bool {
    let zeros = |n: usize| g[..n].iter().all(|&x| x == 0);
    let loopback_or_unspecified = zeros(7) && g[7] <= 1;
    let mapped = (zeros(5) && g[5] == 0xffff).then(|| Ipv4Addr::from((g[6] as u32) << 16 | g[7] as u32));
    loopback_or_unspecified || (g[0] & 0xffc0) == 0xfe80 || (g[0] & 0xfe00) == 0xfc00 || mapped.is_some_and(blocked_v4)
}

/// Which lazy-file URLs named by a tree may be fetched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LazyPolicy {
    /// The origins the host trusts (`lazyOrigins`); `None`: any public `https:` host.
    pub origins: Option<Vec<String>>,
}

impl LazyPolicy {
    pub fn new(origins: Option<Vec<String>>) -> Self {
        LazyPolicy { origins: origins.map(|o| o.iter().filter_map(|u| origin(u)).collect()) }
    }

    /// `Ok` when the URL may be fetched, else why not.
    pub fn check(&self, url: &str) -> Result<(), String> {
        let Some(o) = Origin::parse(url) else { return Err(format!("{url:?} is not an absolute http(s) URL")) };
        let shown = o.render();
        if let Some(allowed) = &self.origins {
            return if allowed.contains(&shown) { Ok(()) } else { Err(format!("{shown} is not one of the lazyOrigins")) };
        }
        if o.scheme != "https" {
            return Err(format!("{shown} is not https: (set lazyOrigins to allow it)"));
        }
        let host = o.host.as_str();
        let internal = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            Some(v6) => parse_v6(v6).map_or(true, blocked_v6),
            None => match whatwg_ipv4(host) {
                Some(v4) => blocked_v4(Ipv4Addr::from(v4)),
                None => host == "localhost" || host.ends_with(".localhost"),
            },
        };
        if internal {
            return Err(format!("{shown} is a loopback, link-local or private address (set lazyOrigins to allow it)"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_canonical() {
        assert_eq!(origin("http://127.0.0.1:8000/api/v2").as_deref(), Some("http://127.0.0.1:8000"));
        assert_eq!(origin("HTTPS://Api.TryChroma.com:443/x?y#z").as_deref(), Some("https://api.trychroma.com"));
        assert_eq!(origin("http://user:pw@host:80/").as_deref(), Some("http://host"));
        assert_eq!(origin("http://0x7f.1/").as_deref(), Some("http://127.0.0.1"));
        assert_eq!(origin("http://2130706433/").as_deref(), Some("http://127.0.0.1"));
        assert_eq!(origin("http://%31%32%37.0.0.1/").as_deref(), Some("http://127.0.0.1"));
        assert_eq!(origin("http://[0:0::1]:9/").as_deref(), Some("http://[::1]:9"));
        assert_eq!(origin("ftp://x/"), None);
        assert_eq!(origin("/relative"), None);
    }

    #[test]
    fn ipv6_hosts_parse_as_the_standard_library_does() {
        let mut seed = 11u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let pieces = ["0", "1", "ff", "FFFF", "12345", "", "g", "0db8", "::", ":", "1.2.3.4", "255.0.0.01", "256.1.1.1", "0.0.0.0"];
        let mut valid = 0;
        for _ in 0..20_000 {
            let s: String = (0..1 + next(10)).map(|_| pieces[next(pieces.len() as u64) as usize]).collect::<Vec<_>>().join(if next(3) == 0 { "" } else { ":" });
            let std = s.parse::<std::net::Ipv6Addr>().ok();
            assert_eq!(parse_v6(&s), std.map(|ip| ip.segments()), "{s:?}");
            if let Some(ip) = std {
                valid += 1;
                assert_eq!(parse_v6(&render_v6(ip.segments())), Some(ip.segments()), "{s:?} printed");
                let (rendered, shown) = (render_v6(ip.segments()), ip.to_string());
                if !shown.contains('.') {
                    assert_eq!(rendered, shown, "{s:?}");
                }
            }
        }
        assert!(valid > 300, "only {valid} of the generated hosts are addresses");
        assert_eq!(render_v6([1, 0, 0, 2, 0, 0, 0, 3]), "1:0:0:2::3");
        assert_eq!(render_v6([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]), "::ffff:7f00:1");
    }

    #[test]
    fn redirects_resolve_and_compare() {
        assert_eq!(resolve("http://a:1/api/v2/x/get", "/other"), "http://a:1/other");
        assert_eq!(resolve("http://a:1/api/v2/x/get", "//evil.test/p"), "http://evil.test/p");
        assert_eq!(resolve("http://a:1/api/v2/x/get", "next"), "http://a:1/api/v2/x/next");
        assert!(same_origin("http://a:1/x", "HTTP://A:1/y"));
        assert!(!same_origin("http://a:1/x", "http://a:2/x"));
        assert!(!same_origin("http://a/x", "https://a/x"));
    }

    #[test]
    fn lazy_urls_stay_public_unless_the_host_says_otherwise() {
        let p = LazyPolicy::default();
        assert_eq!(p.check("https://cdn.example.com/spec.json"), Ok(()));
        for bad in [
            "http://cdn.example.com/x",
            "https://localhost/x",
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
            "file:///etc/passwd",
        ] {
            assert!(p.check(bad).is_err(), "{bad} should be refused");
        }
        let trusted = LazyPolicy::new(Some(vec!["http://127.0.0.1:9000".into()]));
        assert_eq!(trusted.check("http://127.0.0.1:9000/spec.json"), Ok(()));
        assert_eq!(trusted.check("https://cdn.example.com/x").unwrap_err(), "https://cdn.example.com is not one of the lazyOrigins");
    }
}
