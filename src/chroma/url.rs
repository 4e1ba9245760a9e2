//! http(s) URLs, read exactly as `fetch` reads them.
//!
//! Every check chromafs makes on a URL — that a redirect stays on Chroma's origin, that a
//! lazy file's URL is allowed — is only as good as its agreement with the parser that
//! then connects. A check that reads `http://127.0.0.1:1\@127.0.0.1:2/` as port 2 while
//! `fetch` connects to port 1 is no check at all. So the configured URL, each redirect
//! `Location` and each lazy-file URL go through this one parser, which follows the WHATWG
//! URL standard for the special schemes `http` and `https`: blanks and C0 controls
//! trimmed, tabs and newlines removed, `\` as good as `/`, the authority ending at
//! `/ \ ? #`, hosts as in [`host`], ports up to 65535, and relative references resolved
//! against a base. What is handed to the transport is then this parse printed back
//! (`scheme://host[:port]/path?query`), so `fetch` re-reads a canonical string.
//!
//! Some URLs `fetch` accepts are refused on purpose ([`UrlError::is_policy`]): any user
//! name or password (credentials never travel in a URL), host names that need IDNA, and
//! schemes other than http and https.

pub mod host;

pub use host::Host;
use host::HostError;
use std::fmt;

/// The schemes chromafs connects with; any other is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `http:`
    Http,
    /// `https:`
    Https,
}

impl Scheme {
    fn name(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

/// Why a URL was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlError {
    /// Not a URL `fetch` would accept either.
    Invalid,
    /// A relative reference with nothing to resolve it against.
    Relative,
    /// A scheme other than http or https.
    Scheme,
    /// A user name or password (or an empty one: any `@` before the host).
    Userinfo,
    /// A host name that needs IDNA.
    International,
}

impl UrlError {
    /// Refused by chromafs's rules, though `fetch` would accept the URL.
    pub fn is_policy(self) -> bool {
        matches!(self, UrlError::Scheme | UrlError::Userinfo | UrlError::International)
    }
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UrlError::Invalid => "not a valid http(s) URL",
            UrlError::Relative => "not an absolute http(s) URL",
            UrlError::Scheme => "not an http(s) URL",
            UrlError::Userinfo => "a URL with a user name or password, which chromafs never sends",
            UrlError::International => "an internationalized host name, which chromafs does not support",
        })
    }
}

/// An absolute http(s) URL, without user name, password or fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    scheme: Scheme,
    host: Host,
    /// `None` for the scheme's default port.
    port: Option<u16>,
    /// Percent-encoded segments; printed as `/` followed by them joined with `/`.
    path: Vec<String>,
    query: Option<String>,
}

impl Url {
    /// Parses an absolute URL as `new URL(input)` does, refusing what chromafs does not send to.
    pub fn parse(input: &str) -> Result<Url, UrlError> {
        parse(&clean(input), None)
    }

    /// `input` (a `Location` header, say) resolved against this URL.
    pub fn join(&self, input: &str) -> Result<Url, UrlError> {
        parse(&clean(input), Some(self))
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The host a connection goes to.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The port, `None` when it is the scheme's default.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// `scheme://host[:port]`.
    pub fn origin(&self) -> String {
        match self.port {
            Some(p) => format!("{}://{}:{p}", self.scheme.name(), self.host),
            None => format!("{}://{}", self.scheme.name(), self.host),
        }
    }

    /// Whether the URL has a query string (`?` and anything after it).
    pub fn has_query(&self) -> bool {
        self.query.is_some()
    }

    /// The URL for a message: its query string, which may hold a signature, redacted.
    pub fn shown(&self) -> String {
        let query = if self.query.as_deref().is_some_and(|q| !q.is_empty()) { "?[redacted]" } else { "" };
        format!("{}{}{query}", self.origin(), self.path_text())
    }

    fn path_text(&self) -> String {
        if self.path.is_empty() {
            return "/".into();
        }
        self.path.iter().map(|s| format!("/{s}")).collect()
    }
}

/// The URL as sent: origin, path and query.
impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.origin(), self.path_text())?;
        match &self.query {
            Some(q) => write!(f, "?{q}"),
            None => Ok(()),
        }
    }
}

/// A URL that did not parse, for a message: no query string, no user name or password.
pub fn redact(raw: &str) -> String {
    let s = clean(raw);
    let (mut s, query) = match s.find(['?', '#']) {
        Some(i) => (s[..i].to_string(), s[i..].starts_with('?')),
        None => (s, false),
    };
    let from = split_scheme(&s).map_or(0, |(scheme, _)| scheme.len() + 1);
    let start = s.len() - s[from..].trim_start_matches(is_slash).len();
    let end = s[start..].find(['/', '\\']).map_or(s.len(), |i| start + i);
    if let Some(at) = s[start..end].rfind('@') {
        s.replace_range(start..=start + at, "");
    }
    if query {
        s.push_str("?[redacted]");
    }
    format!("{s:?}")
}

/// Leading and trailing C0 controls and spaces trimmed, tabs and newlines removed.
fn clean(input: &str) -> String {
    input.trim_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect()
}

/// `scheme` and what follows its `:`, when the input starts with one.
fn split_scheme(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))).unwrap_or(s.len());
    let first_alpha = s.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    (first_alpha && s[end..].starts_with(':')).then(|| (&s[..end], &s[end + 1..]))
}

fn is_slash(c: char) -> bool {
    c == '/' || c == '\\'
}

fn parse(s: &str, base: Option<&Url>) -> Result<Url, UrlError> {
    let Some((name, rest)) = split_scheme(s) else {
        return relative(base.ok_or(UrlError::Relative)?, s);
    };
    let scheme = match name.to_ascii_lowercase().as_str() {
        "http" => Scheme::Http,
        "https" => Scheme::Https,
        _ => return Err(UrlError::Scheme),
    };
    match base {
        // `http:foo` against an http base is relative to it; `http://` never is.
        Some(b) if b.scheme == scheme && !rest.starts_with("//") => relative(b, rest),
        _ => authority(scheme, rest.trim_start_matches(is_slash)),
    }
}

/// A reference without a scheme, resolved against `base`.
fn relative(base: &Url, rest: &str) -> Result<Url, UrlError> {
    let mut url = base.clone();
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if is_slash(c) => {
            let after = chars.as_str();
            if after.starts_with(is_slash) {
                return authority(base.scheme, after.trim_start_matches(is_slash));
            }
            url.path.clear();
            url.query = parse_path(&mut url.path, after);
        }
        None | Some('#') => {}
        Some('?') => url.query = Some(encode_query(chars.as_str().split('#').next().unwrap_or(""))),
        Some(_) => {
            url.path.pop();
            url.query = parse_path(&mut url.path, rest);
        }
    }
    Ok(url)
}

/// `host[:port]` and what follows, after `scheme:` and its slashes.
fn authority(scheme: Scheme, s: &str) -> Result<Url, UrlError> {
    let end = s.find(['/', '\\', '?', '#']).unwrap_or(s.len());
    let (auth, rest) = s.split_at(end);
    if auth.contains('@') {
        return Err(UrlError::Userinfo);
    }
    let (host, port) = split_port(auth);
    if host.is_empty() {
        return Err(UrlError::Invalid);
    }
    let host = Host::parse(host).map_err(|e| match e {
        HostError::Invalid => UrlError::Invalid,
        HostError::International => UrlError::International,
    })?;
    let port = match port {
        Some(p) => parse_port(p)?.filter(|&p| p != scheme.default_port()),
        None => None,
    };
    let mut url = Url { scheme, host, port, path: Vec::new(), query: None };
    let rest = rest.strip_prefix(is_slash).unwrap_or(rest);
    url.query = parse_path(&mut url.path, rest);
    Ok(url)
}

/// The host and the text after the first `:` outside brackets.
fn split_port(auth: &str) -> (&str, Option<&str>) {
    let mut in_brackets = false;
    for (i, c) in auth.char_indices() {
        match c {
            '[' => in_brackets = true,
            ']' => in_brackets = false,
            ':' if !in_brackets => return (&auth[..i], Some(&auth[i + 1..])),
            _ => {}
        }
    }
    (auth, None)
}

/// Decimal digits up to 65535; empty means the default port.
fn parse_port(p: &str) -> Result<Option<u16>, UrlError> {
    if p.is_empty() {
        return Ok(None);
    }
    let mut n = 0u32;
    for b in p.bytes() {
        if !b.is_ascii_digit() {
            return Err(UrlError::Invalid);
        }
        n = n * 10 + (b - b'0') as u32;
        if n > 65535 {
            return Err(UrlError::Invalid);
        }
    }
    Ok(Some(n as u16))
}

/// Appends the path in `s` (up to `?` or `#`) to `path`, resolving `.` and `..`
/// segments; returns the query.
fn parse_path(path: &mut Vec<String>, s: &str) -> Option<String> {
    let end = s.find(['?', '#']).unwrap_or(s.len());
    let query = s[end..].strip_prefix('?').map(|q| encode_query(q.split('#').next().unwrap_or("")));
    let segments: Vec<&str> = s[..end].split(is_slash).collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let is = |spellings: &[&str]| spellings.iter().any(|d| seg.eq_ignore_ascii_case(d));
        if is(&["..", ".%2e", "%2e.", "%2e%2e"]) {
            path.pop();
            if last {
                path.push(String::new());
            }
        } else if is(&[".", "%2e"]) {
            if last {
                path.push(String::new());
            }
        } else {
            path.push(encode(seg, b" \"#<>?`{}"));
        }
    }
    query
}

fn encode_query(q: &str) -> String {
    encode(q, b" \"#<>'")
}

/// Percent-encodes C0 controls, DEL, non-ASCII and the bytes in `set`.
fn encode(s: &str, set: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if !(0x20..0x7f).contains(&b) || set.contains(&b) {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.extend(['%', HEX[(b >> 4) as usize] as char, HEX[(b & 15) as usize] as char]);
        } else {
            out.push(b as char);
        }
    }
    out
}

#[cfg(test)]
mod tests;
