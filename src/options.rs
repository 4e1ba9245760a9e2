//! Everything `ChromaFs.connect` accepts, read and checked natively.
//!
//! The JavaScript boundary turns the host's options object into JSON (functions such as a
//! lazy file's loader or a custom `fetch` are attached apart), and [`Options::from_json`]
//! does the rest: required fields, types, ranges and clamps, each failure an
//! [`OptionError`] that names the option. Keeping this native means every rule has a
//! unit test and the boundary only converts.

use crate::base::path;
use crate::chroma::budget::Limits;
use crate::chroma::url::{self, Url, UrlError};
use crate::chroma::ClientConfig;
use crate::pages::store::lazy::LazySource;
use crate::pages::store::shared::SharedCache;
use crate::tree::access::Groups;
use crate::tree::schema::Schema;
use serde_json::{Map, Value};
use std::fmt;
use std::rc::Rc;

/// An option that cannot be used; the message names it (`option url is required`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OptionError(pub String);

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OptionError {}

fn fail<T>(message: impl Into<String>) -> Result<T, OptionError> {
    Err(OptionError(message.into()))
}

/// Typed reads of an options object; a missing or `null` member is absent.
pub(crate) struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    pub(crate) fn of(value: &'a Value, what: &str) -> Result<Self, OptionError> {
        match value.as_object() {
            Some(o) => Ok(Fields(o)),
            None => fail(format!("{what} expects an options object")),
        }
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, OptionError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => fail(format!("option {key} must be a string")),
        }
    }

    pub(crate) fn required(&self, key: &str) -> Result<String, OptionError> {
        self.string(key)?.ok_or_else(|| OptionError(format!("option {key} is required")))
    }

    pub(crate) fn number(&self, key: &str) -> Result<Option<f64>, OptionError> {
        match self.get(key).map(Value::as_f64) {
            None => Ok(None),
            Some(Some(n)) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
            Some(_) => fail(format!("option {key} must be a non-negative number")),
        }
    }

    pub(crate) fn strings(&self, key: &str) -> Result<Vec<String>, OptionError> {
        let bad = || OptionError(format!("option {key} must be an array of strings"));
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => {
                items.iter().map(|v| v.as_str().map(str::to_string)).collect::<Option<_>>().ok_or_else(bad)
            }
            Some(_) => Err(bad()),
        }
    }

    pub(crate) fn flag(&self, key: &str) -> bool {
        match self.get(key) {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Number(n)) => n.as_f64() != Some(0.0),
            Some(Value::String(s)) => !s.is_empty(),
            Some(_) => true,
        }
    }

    pub(crate) fn member(&self, key: &str) -> Option<&'a Value> {
        self.get(key)
    }
}

/// Whether `fetch` can send a header: a name of token characters, a value of bytes with no
/// NUL, CR or LF. Checked here so that `fetch`'s own error, which quotes the value, never
/// shows a credential; the reason names what is wrong, never the value.
fn check_header(name: &str, value: &str) -> Result<(), &'static str> {
    let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(token) {
        return Err("is not a valid header name");
    }
    if value.chars().any(|c| matches!(c, '\0' | '\r' | '\n') || c as u32 > 0xff) {
        return Err(
            "has a value fetch cannot send (a line break, a NUL or a character above U+00FF); the value is not shown",
        );
    }
    Ok(())
}

/// Where the collection is and how to reach it: shared by `connect` and `ingest`.
/// `networkErrors`: `"log"` keeps the causes of network failures (addresses, the host's
/// words) out of messages and writes them to the host's console; `"show"`, the default,
/// puts them in messages.
pub(crate) fn network_errors_logged(f: &Fields) -> Result<bool, OptionError> {
    match f.string("networkErrors") {
        Ok(None) => Ok(false),
        Ok(Some(s)) if s == "show" => Ok(false),
        Ok(Some(s)) if s == "log" => Ok(true),
        _ => fail("option networkErrors must be \"show\" or \"log\""),
    }
}

pub(crate) fn client_config(f: &Fields) -> Result<ClientConfig, OptionError> {
    let raw = f.required("url")?;
    let url = match Url::parse(&raw) {
        Ok(u) => u,
        Err(UrlError::Userinfo) => {
            return fail("option url must not contain a user name or password (pass credentials with token or headers)")
        }
        Err(e) => return fail(format!("option url must be an absolute http(s) URL, got {} ({e})", url::redact(&raw))),
    };
    // The API's paths go after the base URL: a query there would become part of every path
    // (`/?api_key=…/api/v2/…`), and whatever it holds would be sent where it was not meant.
    if url.has_query() {
        return fail(format!(
            "option url must not have a query string, got {} (pass credentials with token or headers)",
            url.shown()
        ));
    }
    let mut c = ClientConfig::new(&url.to_string());
    if let Some(t) = f.string("tenant")? {
        c.tenant = t;
    }
    if let Some(d) = f.string("database")? {
        c.database = d;
    }
    if let Some(t) = f.string("token")? {
        check_header("x-chroma-token", &t).map_err(|why| OptionError(format!("option token {why}")))?;
        c.headers.push(("x-chroma-token".into(), t));
    }
    if let Some(h) = f.member("headers") {
        let Some(h) = h.as_object() else { return fail("option headers must be an object of strings") };
        for (k, v) in h {
            let v = v.as_str().ok_or_else(|| OptionError(format!("header {k} must be a string")))?;
            check_header(k, v).map_err(|why| {
                OptionError(format!("header {} {why}", crate::chroma::redact::excerpt(&format!("{k:?}"))))
            })?;
            c.headers.push((k.clone(), v.to_string()));
        }
    }
    if let Some(t) = f.number("timeoutMs")? {
        c.timeout_ms = t.clamp(1.0, 600_000.0) as u32;
    }
    if let Some(n) = f.number("maxConcurrency")? {
        c.max_concurrency = (n as usize).max(1);
    }
    if let Some(n) = f.number("retries")? {
        c.retries = (n as u32).min(10);
    }
    if let Some(n) = f.number("maxWherePredicates")? {
        c.where_predicates = (n as usize).clamp(1, crate::chroma::WHERE_PREDICATES_CEILING);
    }
    Ok(c)
}

/// The limits `beginCommand` may add for one command (`{ maxRequests, timeoutMs }`);
/// absent or `undefined` adds none.
pub(crate) fn command_limits(value: &Value) -> Result<Limits, OptionError> {
    if value.is_null() {
        return Ok(Limits::default());
    }
    let f = Fields::of(value, "beginCommand")?;
    Ok(Limits {
        max_requests: f.number("maxRequests")?.map(|n| n.max(1.0) as u64),
        timeout_ms: f.number("timeoutMs")?.map(|n| n.clamp(1.0, u32::MAX as f64) as u32),
    })
}

/// The collection's field names and tree id.
pub(crate) fn schema(f: &Fields) -> Result<Schema, OptionError> {
    let d = Schema::default();
    Ok(Schema {
        slug_field: f.string("slugField")?.unwrap_or(d.slug_field),
        chunk_index_field: f.string("chunkIndexField")?.unwrap_or(d.chunk_index_field),
        tree_id: f.string("treeId")?.unwrap_or(d.tree_id),
    })
}

/// Everything a session is opened with.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub client: ClientConfig,
    pub collection: String,
    pub groups: Groups,
    /// `version`: the session sees this version's pages and those of none (see
    /// [`crate::tree::versions`]); `None`, every page.
    pub version: Option<String>,
    pub schema: Schema,
    pub extension: Option<String>,
    /// `mountAt`: every page is shown under this top-level directory (`/docs`), as one
    /// mount among several in one shell.
    pub mount_at: Option<String>,
    pub cache_bytes: usize,
    /// The process tier's byte budget, for every session of the process (`processCacheBytes`;
    /// `None` leaves it as it is).
    pub process_cache_bytes: Option<usize>,
    pub lazy_files: Vec<(String, LazySource)>,
    /// Reload a process-cached tree older than this; `None` keeps it for the process's life.
    pub tree_max_age_ms: Option<f64>,
    /// A cache shared with other sessions, behind the in-memory one.
    pub shared_cache: Option<Rc<dyn SharedCache>>,
    /// Origins lazy URLs named by the tree may be fetched from (`None`: public https).
    pub lazy_origins: Option<Vec<String>>,
    /// The most bytes a lazy file without a `size` in the tree may have (`lazyMaxBytes`).
    pub lazy_max_bytes: u64,
    /// What one command may spend (`maxRequestsPerCommand`, `commandTimeoutMs`).
    pub limits: Limits,
    /// A writable top-level directory for this session (`scratch`), and its byte budget.
    pub scratch: Option<String>,
    pub scratch_bytes: u64,
    /// Whether searches and `ls`/`find`/`tree`/`du` may be answered in Rust
    /// (`nativeCommands`, default on); off, every
    /// command runs in just-bash, which prints the same bytes more slowly.
    pub native_commands: bool,
    /// `searchHiddenTextCost: "accept"`: on collections whose chunks carry no access, a
    /// session with hidden pages still asks Chroma which pages match, although what that
    /// costs then depends on text only hidden pages hold (default: it reads the scope).
    pub unscoped_coarse_query: bool,
    /// Whether searches read the collection's grep index when it has one (`grepIndex`,
    /// default on); off, they ask Chroma which pages match as on a collection without one.
    pub grep_index: bool,
}

impl Options {
    /// Where the tree is, as the tree side reads it.
    pub(crate) fn tree_location(&self) -> crate::tree::load::TreeLocation<'_> {
        crate::tree::load::TreeLocation {
            client: &self.client,
            collection: &self.collection,
            schema: &self.schema,
            extension: self.extension.as_deref(),
            mount: self.mount_at.as_deref().map(|m| &m[1..]),
            tree_max_age_ms: self.tree_max_age_ms,
        }
    }

    pub(crate) fn new(url: &str, collection: &str) -> Self {
        Options {
            client: ClientConfig::new(url),
            collection: collection.to_string(),
            groups: Groups::default(),
            version: None,
            schema: Schema::default(),
            extension: None,
            mount_at: None,
            cache_bytes: 64 << 20,
            process_cache_bytes: None,
            lazy_files: Vec::new(),
            tree_max_age_ms: None,
            shared_cache: None,
            lazy_origins: None,
            lazy_max_bytes: crate::pages::store::lazy::DEFAULT_MAX_BYTES,
            limits: Limits::default(),
            scratch: None,
            scratch_bytes: 16 << 20,
            native_commands: true,
            unscoped_coarse_query: false,
            grep_index: true,
        }
    }

    /// Reads `connect`'s options. Lazy files given as URLs are read here; loaders (host
    /// functions) are added with [`Options::add_lazy_file`].
    pub(crate) fn from_json(value: &Value) -> Result<Options, OptionError> {
        let f = Fields::of(value, "ChromaFs.connect")?;
        let collection = f.required("collection")?;
        let client = client_config(&f)?;
        let mut opts = Options { client, ..Options::new("http://unused", &collection) };
        opts.groups = Groups::new(f.strings("groups")?);
        opts.version = f.string("version")?;
        if let Some(v) = &opts.version {
            crate::tree::versions::check(v).map_err(|why| OptionError(format!("option {why}")))?;
        }
        opts.schema = schema(&f)?;
        opts.extension = f.string("extension")?.filter(|e| !e.is_empty());
        if let Some(n) = f.number("cacheBytes")? {
            opts.cache_bytes = n.min(usize::MAX as f64) as usize;
        }
        opts.process_cache_bytes = f.number("processCacheBytes")?.map(|n| n.min(usize::MAX as f64) as usize);
        opts.tree_max_age_ms = f.number("treeMaxAgeMs")?;
        // Zero would refuse every request: at least one.
        opts.limits.max_requests = f.number("maxRequestsPerCommand")?.map(|n| n.max(1.0) as u64);
        opts.limits.timeout_ms = f.number("commandTimeoutMs")?.map(|n| n.clamp(1.0, u32::MAX as f64) as u32);
        if let Some(dir) = f.string("scratch")? {
            let norm = path::normalize(&dir);
            if !dir.starts_with('/') || dir.contains('\0') || norm == "/" || norm[1..].contains('/') || norm == "/dev" {
                return fail(format!("option scratch {dir:?} must be a top-level directory such as \"/tmp\""));
            }
            opts.scratch = Some(norm);
        }
        if let Some(dir) = f.string("mountAt")? {
            let norm = path::normalize(&dir);
            let name = norm.get(1..).unwrap_or("");
            if !dir.starts_with('/')
                || name.is_empty()
                || name.contains('/')
                || crate::tree::decode::check_key(name).is_err()
            {
                return fail(format!("option mountAt {dir:?} must be a top-level directory such as \"/docs\""));
            }
            if opts.scratch.as_deref() == Some(norm.as_str()) {
                return fail(format!("option mountAt {dir:?} is the scratch directory too"));
            }
            opts.mount_at = Some(norm);
        }
        if let Some(n) = f.number("scratchBytes")? {
            opts.scratch_bytes = n as u64;
        }
        if let Some(v) = f.member("nativeCommands") {
            opts.native_commands = match v {
                Value::Bool(b) => *b,
                _ => return fail("option nativeCommands must be true or false".to_string()),
            };
        }
        if let Some(v) = f.member("grepIndex") {
            opts.grep_index = match v {
                Value::Bool(b) => *b,
                _ => return fail("option grepIndex must be true or false".to_string()),
            };
        }
        opts.unscoped_coarse_query = match f.string("searchHiddenTextCost")?.as_deref() {
            None | Some("hide") => false,
            Some("accept") => true,
            Some(other) => {
                return fail(format!("option searchHiddenTextCost must be \"hide\" or \"accept\", got {other:?}"))
            }
        };
        if f.member("lazyOrigins").is_some() {
            let origins = f.strings("lazyOrigins")?;
            if let Some((bad, why)) = origins.iter().find_map(|o| Url::parse(o).err().map(|e| (o, e))) {
                return fail(format!(
                    "lazyOrigins entry {} must be an http(s) origin such as \"https://example.com\" ({why})",
                    url::redact(bad)
                ));
            }
            opts.lazy_origins = Some(origins);
        }
        if let Some(n) = f.number("lazyMaxBytes")? {
            opts.lazy_max_bytes = n.max(0.0) as u64;
        }
        if let Some(lazy) = f.member("lazyFiles") {
            for (p, v) in lazy.as_object().into_iter().flatten() {
                match v.as_str() {
                    Some(u) => match Url::parse(u) {
                        Ok(_) => opts.add_lazy_file(p, LazySource::Url(u.to_string()))?,
                        Err(e) => {
                            return fail(format!(
                                "lazyFiles[{p:?}] must be an absolute http(s) URL, got {} ({e})",
                                url::redact(u)
                            ))
                        }
                    },
                    None => return fail(format!("lazyFiles[{p:?}] must be a URL or a function")),
                }
            }
        }
        Ok(opts)
    }

    /// Adds a session-only file; its path must be an absolute file path.
    pub(crate) fn add_lazy_file(&mut self, p: &str, source: LazySource) -> Result<(), OptionError> {
        if !p.starts_with('/') || p.contains('\0') || path::normalize(p) == "/" {
            return fail(format!("lazyFiles key {p:?} must be an absolute file path"));
        }
        self.lazy_files.push((p.to_string(), source));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: Value) -> String {
        Options::from_json(&v).unwrap_err().0
    }

    #[test]
    fn the_minimum_and_the_defaults() {
        let o = Options::from_json(&json!({"url": "http://127.0.0.1:8000/", "collection": "docs"})).unwrap();
        assert_eq!(o.client.url, "http://127.0.0.1:8000");
        assert_eq!((o.client.tenant.as_str(), o.client.database.as_str()), ("default_tenant", "default_database"));
        assert_eq!((o.client.timeout_ms, o.client.max_concurrency, o.client.retries), (10_000, 10, 3));
        assert_eq!(o.client.where_predicates, 8, "Chroma Cloud's quota, which every server takes");
        assert_eq!(o.schema, Schema::default());
        assert_eq!(o.cache_bytes, 64 << 20);
        assert_eq!(o.groups, Groups::default());
        assert!(o.extension.is_none() && o.tree_max_age_ms.is_none() && o.lazy_files.is_empty());
    }

    #[test]
    fn required_options_and_types_are_named() {
        assert_eq!(err(json!("nope")), "ChromaFs.connect expects an options object");
        assert_eq!(err(json!({"collection": "docs"})), "option url is required");
        assert_eq!(err(json!({"url": "http://x"})), "option collection is required");
        assert_eq!(
            err(json!({"url": "ftp://x", "collection": "d"})),
            "option url must be an absolute http(s) URL, got \"ftp://x\" (not an http(s) URL)"
        );
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "groups": "admin"})),
            "option groups must be an array of strings"
        );
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "groups": ["a", 1]})),
            "option groups must be an array of strings"
        );
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "timeoutMs": -1})),
            "option timeoutMs must be a non-negative number"
        );
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "cacheBytes": "big"})),
            "option cacheBytes must be a non-negative number"
        );
        assert_eq!(err(json!({"url": "http://x", "collection": "d", "token": 5})), "option token must be a string");
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "headers": {"x-a": 1}})),
            "header x-a must be a string"
        );
        for headers in [json!("x-a: 1"), json!([["x-a", "1"]]), json!(5), json!(true)] {
            assert_eq!(
                err(json!({"url": "http://x", "collection": "d", "headers": headers})),
                "option headers must be an object of strings"
            );
        }
        let bad_value = "header \"x-a\" has a value fetch cannot send (a line break, a NUL or a character above U+00FF); the value is not shown";
        for value in ["secret\nInjected: 1", "secret\r", "nul\0", "snowman \u{2603}"] {
            assert_eq!(err(json!({"url": "http://x", "collection": "d", "headers": {"x-a": value}})), bad_value);
        }
        assert_eq!(err(json!({"url": "http://x", "collection": "d", "token": "ck\nsecret"})), "option token has a value fetch cannot send (a line break, a NUL or a character above U+00FF); the value is not shown");
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "headers": {"bad name\n": "v"}})),
            "header \"bad name\\n\" is not a valid header name"
        );
        assert!(super::client_config(
            &Fields::of(&json!({"url": "http://x", "headers": {"x-b": "tab\tand latin-1 é"}}), "connect").unwrap()
        )
        .is_ok());
    }

    #[test]
    fn numbers_are_clamped_to_what_works() {
        let o = Options::from_json(
            &json!({"url": "http://x", "collection": "d", "timeoutMs": 0, "maxConcurrency": 0, "retries": 99}),
        )
        .unwrap();
        assert_eq!((o.client.timeout_ms, o.client.max_concurrency, o.client.retries), (1, 1, 10));
        for (asked, used) in [(0.0, 1), (300.0, 300), (1e9, 1_000)] {
            let o = Options::from_json(&json!({"url": "http://x", "collection": "d", "maxWherePredicates": asked}));
            assert_eq!(o.unwrap().client.where_predicates, used);
        }
        let o = Options::from_json(&json!({"url": "http://x", "collection": "d", "timeoutMs": 1e12, "cacheBytes": 0}))
            .unwrap();
        assert_eq!((o.client.timeout_ms, o.cache_bytes), (600_000, 0));
        assert_eq!(o.limits, Limits::default(), "commands are unlimited unless asked");
        let o = Options::from_json(
            &json!({"url": "http://x", "collection": "d", "maxRequestsPerCommand": 0, "commandTimeoutMs": 2500}),
        )
        .unwrap();
        assert_eq!(o.limits, Limits { max_requests: Some(1), timeout_ms: Some(2500) });
        let o = Options::from_json(
            &json!({"url": "http://x", "collection": "d", "scratch": "/tmp/", "scratchBytes": 1024}),
        )
        .unwrap();
        assert_eq!((o.scratch.as_deref(), o.scratch_bytes), (Some("/tmp"), 1024));
        for bad in ["tmp", "/", "/a/b", "/dev"] {
            assert_eq!(
                err(json!({"url": "http://x", "collection": "d", "scratch": bad})),
                format!("option scratch {bad:?} must be a top-level directory such as \"/tmp\"")
            );
        }
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "commandTimeoutMs": "1s"})),
            "option commandTimeoutMs must be a non-negative number"
        );
    }

    #[test]
    fn credentials_layout_and_session_fields() {
        let o = Options::from_json(&json!({
            "url": "https://api.trychroma.com", "collection": "d", "tenant": "t", "database": "db",
            "token": "ck-1", "headers": {"x-team": "docs"}, "groups": ["b", "a"], "slugField": "page",
            "chunkIndexField": "n", "treeId": "tree", "extension": ".mdx", "treeMaxAgeMs": 500, "null": null,
        }))
        .unwrap();
        assert_eq!(
            o.client.headers,
            vec![("x-chroma-token".to_string(), "ck-1".to_string()), ("x-team".to_string(), "docs".to_string())]
        );
        assert_eq!((o.client.tenant.as_str(), o.client.database.as_str()), ("t", "db"));
        assert_eq!(
            o.schema,
            Schema { slug_field: "page".into(), chunk_index_field: "n".into(), tree_id: "tree".into() }
        );
        assert_eq!(o.groups, Groups::new(["a", "b"]));
        assert_eq!((o.extension.as_deref(), o.tree_max_age_ms), (Some(".mdx"), Some(500.0)));
        let o = Options::from_json(&json!({"url": "http://x", "collection": "d", "extension": ""})).unwrap();
        assert_eq!(o.extension, None, "an empty extension is none");
    }

    #[test]
    fn lazy_file_paths_must_be_absolute_files() {
        let o = Options::from_json(
            &json!({"url": "http://x", "collection": "d", "lazyFiles": {"/specs/a.json": "https://s/a.json"}}),
        )
        .unwrap();
        assert!(
            matches!(&o.lazy_files[..], [(p, LazySource::Url(u))] if p == "/specs/a.json" && u == "https://s/a.json")
        );
        for bad in ["specs/a.json", "/", "//", "/a\0b"] {
            let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {bad: "https://s"}}));
            assert_eq!(e, format!("lazyFiles key {bad:?} must be an absolute file path"));
        }
        let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {"/a": 3}}));
        assert_eq!(e, "lazyFiles[\"/a\"] must be a URL or a function");
    }

    #[test]
    fn lazy_origins_are_origins() {
        let o = Options::from_json(
            &json!({"url": "http://x", "collection": "d", "lazyOrigins": ["https://cdn.example.com"]}),
        )
        .unwrap();
        assert_eq!(o.lazy_origins, Some(vec!["https://cdn.example.com".to_string()]));
        assert_eq!(o.lazy_max_bytes, 32 << 20, "32 MiB unless the host says otherwise");
        let o = Options::from_json(&json!({"url": "http://x", "collection": "d", "lazyMaxBytes": 1000})).unwrap();
        assert_eq!(o.lazy_max_bytes, 1000);
        assert_eq!(err(json!({"url": "http://x", "collection": "d", "lazyOrigins": ["cdn"]})), "lazyOrigins entry \"cdn\" must be an http(s) origin such as \"https://example.com\" (not an absolute http(s) URL)");
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "lazyOrigins": "https://a"})),
            "option lazyOrigins must be an array of strings"
        );
        let e = err(json!({"url": "http://x", "collection": "d", "lazyOrigins": ["https://u:secret@cdn.example.com"]}));
        assert_eq!(e, "lazyOrigins entry \"https://cdn.example.com\" must be an http(s) origin such as \"https://example.com\" (a URL with a user name or password, which chromafs never sends)");
    }

    #[test]
    fn urls_are_read_as_fetch_reads_them_and_carry_no_credentials() {
        let o = Options::from_json(&json!({"url": " HTTP://Chroma.Test:80\\api\n/#y ", "collection": "d"})).unwrap();
        assert_eq!(o.client.url, "http://chroma.test/api", "what is sent is the canonical form, without the fragment");
        assert_eq!(
            err(json!({"url": "http://h/?api_key=X", "collection": "d"})),
            "option url must not have a query string, got http://h/?[redacted] (pass credentials with token or headers)",
            "a query would land inside every path, and the message never shows it"
        );
        for (url, shown) in [
            ("http://u:secret@x", None),
            ("http://@x", None),
            ("http://x:99999", Some("\"http://x:99999\" (not a valid http(s) URL)")),
        ] {
            let want = match shown {
                None => "option url must not contain a user name or password (pass credentials with token or headers)"
                    .to_string(),
                Some(s) => format!("option url must be an absolute http(s) URL, got {s}"),
            };
            assert_eq!(err(json!({"url": url, "collection": "d"})), want);
        }
        let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {"/a": "https://u:secret@s/a?sig=1"}}));
        assert_eq!(e, "lazyFiles[\"/a\"] must be an absolute http(s) URL, got \"https://s/a?[redacted]\" (a URL with a user name or password, which chromafs never sends)");
        let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {"/a": "a.json"}}));
        assert_eq!(
            e,
            "lazyFiles[\"/a\"] must be an absolute http(s) URL, got \"a.json\" (not an absolute http(s) URL)"
        );
    }

    #[test]
    fn a_mount_is_one_top_level_directory() {
        let with = |m: &str| Options::from_json(&json!({"url": "http://x", "collection": "d", "mountAt": m}));
        assert_eq!(with("/docs/").unwrap().mount_at.as_deref(), Some("/docs"));
        assert_eq!(with("/docs").unwrap().tree_location().mount, Some("docs"));
        for bad in ["docs", "/", "/a/b", "/..", "/a\nb"] {
            let e = with(bad).unwrap_err().to_string();
            assert!(e.contains("must be a top-level directory"), "{bad:?}: {e}");
        }
        let both = json!({"url": "http://x", "collection": "d", "mountAt": "/tmp", "scratch": "/tmp"});
        assert!(Options::from_json(&both).unwrap_err().to_string().contains("is the scratch directory too"));
    }
}
