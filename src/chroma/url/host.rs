//! The host of an http(s) URL, read as the WHATWG URL standard (and so `fetch`) reads it:
//! percent-decoded, lower-cased, checked for forbidden code points, and an address
//! whenever the last label is a number, so that `0x7f.1`, `2130706433` and
//! `%31%32%37.0.0.1` all mean 127.0.0.1. Names that need IDNA (non-ASCII, or `xn--`
//! labels, which IDNA would check) are refused rather than guessed at.
//!
//! IP hosts are parsed and printed here rather than through `std::net`, whose parser and
//! `Display` cost the wasm module 6 KB.

/// A parsed host: what a connection goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Host {
    /// Lower-case ASCII, as written otherwise (a trailing dot is kept: it is another origin).
    Domain(String),
    /// An IPv4 address, in any spelling `fetch` accepts (`127.1`, `0x7f.1`).
    V4(u32),
    /// An IPv6 address, as eight pieces.
    V6([u16; 8]),
}

/// Why a host was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostError {
    /// Not a host `fetch` accepts either.
    Invalid,
    /// A name that needs IDNA, which chromafs does not implement.
    International,
}

impl Host {
    /// Parses the host of a special URL as `fetch` does, without IDNA.
    pub fn parse(input: &str) -> Result<Host, HostError> {
        if let Some(rest) = input.strip_prefix('[') {
            let inner = rest.strip_suffix(']').ok_or(HostError::Invalid)?;
            return parse_v6(inner).map(Host::V6).ok_or(HostError::Invalid);
        }
        let bytes = percent_decode(input.as_bytes());
        if !bytes.is_ascii() {
            return Err(HostError::International);
        }
        let domain = String::from_utf8(bytes).map_err(|_| HostError::Invalid)?.to_ascii_lowercase();
        if domain.is_empty() || domain.bytes().any(forbidden_in_domain) {
            return Err(HostError::Invalid);
        }
        if domain.split('.').any(|label| label.starts_with("xn--")) {
            return Err(HostError::International);
        }
        if ends_in_number(&domain) {
            return parse_v4(&domain).map(Host::V4).ok_or(HostError::Invalid);
        }
        Ok(Host::Domain(domain))
    }
}

impl std::fmt::Display for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Host::Domain(d) => f.write_str(d),
            Host::V4(ip) => {
                let [a, b, c, d] = ip.to_be_bytes();
                write!(f, "{a}.{b}.{c}.{d}")
            }
            Host::V6(g) => write!(f, "[{}]", render_v6(*g)),
        }
    }
}

/// The standard's forbidden domain code points: C0 controls, space, `%`, DEL and
/// `# / : < > ? @ [ \ ] ^ |`.
fn forbidden_in_domain(b: u8) -> bool {
    b <= b' ' || b == 0x7f || b"#%/:<>?@[\\]^|".contains(&b)
}

/// `%XX` becomes the byte; a `%` not followed by two hex digits stays as it is.
fn percent_decode(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let hex =
            s.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (s[i], hex) {
            (b'%', Some(b)) if s[i + 1].is_ascii_hexdigit() => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// Whether the last label (a trailing dot aside) is a number: then the host is an IPv4
/// address or invalid, never a name.
fn ends_in_number(domain: &str) -> bool {
    let mut labels: Vec<&str> = domain.split('.').collect();
    if labels.last() == Some(&"") {
        if labels.len() == 1 {
            return false;
        }
        labels.pop();
    }
    let last = labels.last().copied().unwrap_or("");
    (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit())) || ipv4_number(last).is_some()
}

/// One part of an IPv4 address: decimal, `0x` hex or `0` octal; saturates when huge.
fn ipv4_number(p: &str) -> Option<u64> {
    if p.is_empty() {
        return None;
    }
    let (digits, radix) = match p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None if p.len() > 1 && p.starts_with('0') => (&p[1..], 8),
        None => (p, 10),
    };
    digits.chars().try_fold(0u64, |n, c| Some(n.saturating_mul(radix as u64).saturating_add(c.to_digit(radix)? as u64)))
}

/// The standard's IPv4 parser: 1 to 4 parts, the last filling the remaining bytes.
fn parse_v4(host: &str) -> Option<u32> {
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    if parts.len() > 4 {
        return None;
    }
    let nums = parts.iter().map(|p| ipv4_number(p)).collect::<Option<Vec<u64>>>()?;
    let (last, init) = nums.split_last()?;
    if init.iter().any(|&n| n > 255) || *last >= 256u64.pow(5 - nums.len() as u32) {
        return None;
    }
    let high = init.iter().enumerate().fold(0u64, |ip, (i, n)| ip + (n << (8 * (3 - i))));
    Some((high + last) as u32)
}

/// An IPv6 address (brackets removed) as its eight groups: hex groups of 1 to 4 digits, at
/// most one `::` standing for one or more zero groups, and optionally a dotted-decimal
/// IPv4 address as the last two groups.
pub fn parse_v6(s: &str) -> Option<[u16; 8]> {
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
        if p.is_empty() || p.len() > 3 || (p.len() > 1 && p.starts_with('0')) || !p.bytes().all(|b| b.is_ascii_digit())
        {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(h: &str) -> Result<String, HostError> {
        Host::parse(h).map(|h| h.to_string())
    }

    #[test]
    fn names_and_addresses_read_as_fetch_reads_them() {
        assert_eq!(shown("Api.TryChroma.com").as_deref(), Ok("api.trychroma.com"));
        assert_eq!(shown("example.com.").as_deref(), Ok("example.com."), "a trailing dot is kept");
        assert_eq!(shown("0x7f.1").as_deref(), Ok("127.0.0.1"));
        assert_eq!(shown("2130706433").as_deref(), Ok("127.0.0.1"));
        assert_eq!(shown("0177.0.0.1").as_deref(), Ok("127.0.0.1"));
        assert_eq!(shown("127.0.0.1.").as_deref(), Ok("127.0.0.1"));
        assert_eq!(shown("%31%32%37.0.0.1").as_deref(), Ok("127.0.0.1"));
        assert_eq!(shown("[0:0::1]").as_deref(), Ok("[::1]"));
        for bad in [
            "",
            "a b",
            "a%",
            "a%2f",
            "256.0.0.1",
            "1.2.3.4.5",
            "foo.0x",
            "foo.123",
            "0x100000000",
            "1..2",
            "[::1",
            "[::1]x",
            "a\\b",
            "a^b",
        ] {
            assert_eq!(shown(bad), Err(HostError::Invalid), "{bad:?}");
        }
        for idn in ["exämple.com", "ex%C3%A4mple.com", "xn--exmple-cua.com"] {
            assert_eq!(shown(idn), Err(HostError::International), "{idn:?}");
        }
    }

    #[test]
    fn ipv6_hosts_parse_as_the_standard_library_does() {
        let mut seed = 11u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let pieces = [
            "0",
            "1",
            "ff",
            "FFFF",
            "12345",
            "",
            "g",
            "0db8",
            "::",
            ":",
            "1.2.3.4",
            "255.0.0.01",
            "256.1.1.1",
            "0.0.0.0",
        ];
        let mut valid = 0;
        for _ in 0..20_000 {
            let s: String = (0..1 + next(10))
                .map(|_| pieces[next(pieces.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(if next(3) == 0 { "" } else { ":" });
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
}
