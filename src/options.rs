//! Everything `ChromaFs.connect` accepts, read and checked natively.
//!
//! The JavaScript boundary turns the host's options object into JSON (functions such as a
//! lazy file's loader or a custom `fetch` are attached apart), and [`Options::from_json`]
//! does the rest: required fields, types, ranges and clamps, each failure an
//! [`OptionError`] that names the option. Keeping this native means every rule has a
//! unit test and the boundary only converts.

mod client;
mod fields;

pub(crate) use client::{client_config, command_limits, network_errors_logged, schema};
use fields::fail;
pub(crate) use fields::{Fields, OptionError};

use crate::base::path;
use crate::chroma::budget::Limits;
use crate::chroma::url::{self, Url};
use crate::chroma::ClientConfig;
use crate::pages::store::lazy::LazySource;
use crate::pages::store::shared::SharedCache;
use crate::tree::access::Groups;
use crate::tree::schema::Schema;
use serde_json::Value;
use std::rc::Rc;

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
mod tests;
