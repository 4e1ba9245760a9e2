//! The filesystem: just-bash's `IFileSystem` semantics over a Chroma collection.
//!
//! Everything but content is answered from memory. [`Filesystem::connect`] loads the path
//! tree once per process (see [`TREES`]), prunes it to the session's groups and keeps the
//! resulting [`Listing`]; `stat`, `readdir`, `exists` and `realpath` never touch the
//! network (unless a page has no recorded `size`, in which case `stat` reads it to be
//! exact). Reads go through the content cache, then one paginated `get` per page, with
//! concurrent reads of the same page sharing one request.
//!
//! Hidden pages are not special cases here: they are simply absent from the listing, so
//! every method answers for them exactly as for a path that never existed. Content
//! queries only ever name a visible slug, and records for any other slug are dropped.

use crate::access::Groups;
use crate::cache::{ContentCache, PageKey, SharedCache};
use crate::chroma::{ChromaError, Client, ClientConfig, GetRequest, GetResponse, Transport, MAX_PAGE};
use crate::error::{Errno, FsError};
use crate::lazy::{self, LazySource};
use crate::pages::{self, Chunk};
use crate::join::join_all;
use crate::path;
use crate::search::{self, Plan, Target};
use crate::tree::{FileNode, Listing, Node, PathTree};
use serde::Serialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::task::{Poll, Waker};

/// The path that accepts and discards writes, so `cmd 2>/dev/null` works.
pub const DEV_NULL: &str = "/dev/null";

/// Everything `ChromaFs.connect` accepts, in Rust terms.
#[derive(Debug, Clone)]
pub struct Options {
    pub client: ClientConfig,
    pub collection: String,
    pub groups: Vec<String>,
    pub slug_field: String,
    pub chunk_index_field: String,
    pub tree_id: String,
    pub extension: Option<String>,
    pub cache_bytes: usize,
    pub lazy_files: Vec<(String, LazySource)>,
    /// Reload a process-cached tree older than this; `None` keeps it for the process's life.
    pub tree_max_age_ms: Option<f64>,
    /// A cache shared with other sessions, behind the in-memory one.
    pub shared_cache: Option<Rc<dyn SharedCache>>,
}

impl std::fmt::Debug for dyn SharedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedCache")
    }
}

impl Options {
    pub fn new(url: &str, collection: &str) -> Self {
        Options {
            client: ClientConfig::new(url),
            collection: collection.to_string(),
            groups: Vec::new(),
            slug_field: "page_slug".into(),
            chunk_index_field: "chunk_index".into(),
            tree_id: "__path_tree__".into(),
            extension: None,
            cache_bytes: 64 << 20,
            lazy_files: Vec::new(),
            tree_max_age_ms: None,
            shared_cache: None,
        }
    }

    fn tree_key(&self) -> String {
        let c = &self.client;
        format!(
            "{}\n{}\n{}\n{}\n{}\n{}",
            c.url,
            c.tenant,
            c.database,
            self.collection,
            self.tree_id,
            self.extension.as_deref().unwrap_or("")
        )
    }
}

/// A decoded tree and the collection it belongs to, shared by sessions.
#[derive(Debug)]
pub struct SharedTree {
    pub collection_id: String,
    pub tree: PathTree,
    /// The tree record's metadata (e.g. whether chunks are line-aligned).
    pub metadata: serde_json::Map<String, Value>,
    loaded_at: f64,
}

thread_local! {
    /// Decoded trees per (url, tenant, database, collection, tree id, extension): a second
    /// session on the same collection boots without a single request.
    static TREES: RefCell<HashMap<String, Rc<SharedTree>>> = RefCell::new(HashMap::new());
}

/// Forgets every process-cached tree (the next `connect` reloads).
pub fn forget_trees() {
    TREES.with(|t| t.borrow_mut().clear());
}

async fn load_tree(client: &Client, opts: &Options, now_ms: f64) -> Result<SharedTree, FsError> {
    let fail = |cause: String| FsError::io("connect", &opts.collection, cause);
    let info = client.collection(&opts.collection).await.map_err(|e| match e.status() {
        Some(404) => fail(format!("collection {:?} does not exist", opts.collection)),
        _ => fail(e.to_string()),
    })?;
    let req = GetRequest { ids: Some(vec![opts.tree_id.clone()]), include: vec!["documents", "metadatas"], ..Default::default() };
    let resp = client.get_once(&info.id, &req, "the path tree").await.map_err(|e| fail(e.to_string()))?;
    let Some(i) = resp.ids.iter().position(|id| *id == opts.tree_id) else {
        return Err(fail(format!("collection {:?} has no path tree record {:?}", opts.collection, opts.tree_id)));
    };
    let doc = resp.document(i).ok_or_else(|| fail(format!("the path tree record {:?} has no document", opts.tree_id)))?;
    let tree = PathTree::from_document(doc, opts.extension.as_deref()).map_err(|e| fail(e.to_string()))?;
    let metadata = resp.metadata(i).cloned().unwrap_or_default();
    Ok(SharedTree { collection_id: info.id, tree, metadata, loaded_at: now_ms })
}

/// File metadata, as `stat` reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct StatInfo {
    pub is_file: bool,
    pub is_dir: bool,
    pub mode: u32,
    pub size: u64,
    pub mtime_ms: f64,
    pub ino: u64,
}

/// Counters since `connect`, for hosts, tests and benchmarks.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub requests: u64,
    pub bytes_received: u64,
    pub retries: u64,
    pub failures: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    pub cached_bytes: u64,
    pub cached_pages: u64,
    pub lazy_fetches: u64,
    /// Pages found in the shared cache, pages looked up there in vain, and shared-cache
    /// calls that failed (each counted as a miss).
    pub shared_hits: u64,
    pub shared_misses: u64,
    pub shared_errors: u64,
    /// Whether `connect` found the tree already decoded in this process.
    pub tree_from_cache: bool,
    pub files: u64,
    /// Pages loaded by bulk prefetches (counted apart from cache misses).
    pub prefetched_pages: u64,
    /// The most recent search commands (newest last), with what each cost.
    pub commands: Vec<CommandStats>,
}

/// What one `grep`/`rg` cost: how it was planned and the Chroma requests it made.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandStats {
    pub command: String,
    /// `narrow`, `prefetch` or `delegate`.
    pub plan: &'static str,
    /// Files the command would read without narrowing.
    pub scope: u64,
    /// Files left after the coarse query (`narrow` only).
    pub candidates: u64,
    /// Files handed to the command after the fine check (`narrow` only).
    pub searched: u64,
    /// Chunk records the coarse query matched.
    pub coarse_matches: u64,
    pub coarse_requests: u64,
    pub prefetch_requests: u64,
    /// Why the search was not narrowed, when it fell back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Search commands remembered in [`Stats::commands`].
const COMMAND_HISTORY: usize = 32;

type PageResult = Result<Rc<[u8]>, FsError>;

/// A read in progress that other readers of the same page wait for.
#[derive(Default)]
struct InFlight {
    result: RefCell<Option<PageResult>>,
    waiters: RefCell<Vec<Waker>>,
}

impl InFlight {
    async fn wait(self: Rc<Self>) -> PageResult {
        std::future::poll_fn(|cx| match &*self.result.borrow() {
            Some(r) => Poll::Ready(r.clone()),
            None => {
                self.waiters.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            }
        })
        .await
    }

    fn finish(&self, result: PageResult) {
        *self.result.borrow_mut() = Some(result);
        for w in self.waiters.borrow_mut().drain(..) {
            w.wake();
        }
    }
}

pub struct Filesystem {
    opts: Options,
    client: Client,
    transport: Rc<dyn Transport>,
    shared: Rc<SharedTree>,
    listing: Listing,
    lazy: HashMap<String, LazySource>,
    cache: RefCell<ContentCache>,
    inflight: RefCell<HashMap<PageKey, Rc<InFlight>>>,
    stats: RefCell<Stats>,
}

fn check_path(path: &str, syscall: &'static str) -> Result<String, FsError> {
    if path.contains('\0') {
        return Err(FsError::new(Errno::Enoent, syscall, path));
    }
    Ok(path::normalize(path))
}

impl Filesystem {
    /// Opens a session: resolves the collection and loads the tree (or reuses the
    /// process's copy), then builds this session's view.
    pub async fn connect(mut opts: Options, transport: Rc<dyn Transport>, now_ms: f64) -> Result<Filesystem, FsError> {
        let client = Client::new(opts.client.clone(), transport.clone());
        let key = opts.tree_key();
        let cached = TREES.with(|t| t.borrow().get(&key).cloned()).filter(|s| match opts.tree_max_age_ms {
            Some(max) => now_ms - s.loaded_at <= max,
            None => true,
        });
        let tree_from_cache = cached.is_some();
        let shared = match cached {
            Some(s) => s,
            None => {
                let s = Rc::new(load_tree(&client, &opts, now_ms).await?);
                TREES.with(|t| t.borrow_mut().insert(key, s.clone()));
                s
            }
        };
        let lazy: HashMap<String, LazySource> =
            std::mem::take(&mut opts.lazy_files).into_iter().map(|(p, s)| (path::normalize(&p), s)).collect();
        let extra: Vec<String> = lazy.keys().cloned().collect();
        let listing = shared
            .tree
            .view(&Groups::new(opts.groups.iter().cloned()), &extra)
            .map_err(|e| FsError::io("connect", &opts.collection, e))?;
        let stats = Stats { tree_from_cache, files: listing.file_count() as u64, ..Stats::default() };
        Ok(Filesystem {
            cache: RefCell::new(ContentCache::new(opts.cache_bytes)),
            opts,
            client,
            transport,
            shared,
            listing,
            lazy,
            inflight: RefCell::default(),
            stats: RefCell::new(stats),
        })
    }

    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    pub fn shared(&self) -> &SharedTree {
        &self.shared
    }

    pub fn stats(&self) -> Stats {
        let c = self.client.stats();
        let cache = self.cache.borrow();
        Stats {
            requests: c.requests,
            bytes_received: c.bytes_received,
            retries: c.retries,
            failures: c.failures,
            cached_bytes: cache.used() as u64,
            cached_pages: cache.len() as u64,
            ..self.stats.borrow().clone()
        }
    }

    /// Cheap and never failing: just-bash probes `/usr/bin/<cmd>` before every command.
    pub fn exists(&self, p: &str) -> bool {
        if p.contains('\0') {
            return false;
        }
        let p = path::normalize(p);
        p == DEV_NULL || self.listing.get(&p).is_some()
    }

    fn lookup(&self, p: &str, syscall: &'static str) -> Result<(String, &Node), FsError> {
        let norm = check_path(p, syscall)?;
        match self.listing.get(&norm) {
            Some(node) => Ok((norm, node)),
            None => Err(FsError::new(Errno::Enoent, syscall, p)),
        }
    }

    pub async fn stat(&self, p: &str, syscall: &'static str) -> Result<StatInfo, FsError> {
        if check_path(p, syscall)? == DEV_NULL {
            return Ok(StatInfo { is_file: true, is_dir: false, mode: 0o666, size: 0, mtime_ms: 0.0, ino: 0 });
        }
        let (norm, node) = self.lookup(p, syscall)?;
        match node {
            Node::Dir(d) => Ok(StatInfo { is_file: false, is_dir: true, mode: 0o755, size: 0, mtime_ms: d.mtime, ino: d.ino }),
            Node::File(f) => {
                let size = match f.size {
                    Some(s) => s,
                    None => self.read_node(&norm, p, f).await?.len() as u64,
                };
                Ok(StatInfo { is_file: true, is_dir: false, mode: 0o644, size, mtime_ms: f.mtime, ino: f.ino })
            }
        }
    }

    pub fn readdir(&self, p: &str) -> Result<&[(String, bool)], FsError> {
        let (_, node) = self.lookup(p, "scandir")?;
        match node {
            Node::Dir(d) => Ok(&d.children),
            Node::File(_) => Err(FsError::new(Errno::Enotdir, "scandir", p)),
        }
    }

    pub fn realpath(&self, p: &str) -> Result<String, FsError> {
        let norm = check_path(p, "realpath")?;
        if norm == DEV_NULL {
            return Ok(norm);
        }
        self.lookup(p, "realpath").map(|(n, _)| n)
    }

    pub fn readlink(&self, p: &str) -> Result<String, FsError> {
        if !self.exists(p) {
            return Err(FsError::new(Errno::Enoent, "readlink", p));
        }
        Err(FsError::new(Errno::Einval, "readlink", p))
    }

    /// A file's bytes. Directories are `EISDIR`; `/dev/null` reads empty.
    pub async fn read(&self, p: &str) -> Result<Rc<[u8]>, FsError> {
        if check_path(p, "open")? == DEV_NULL {
            return Ok(Rc::from(Vec::new()));
        }
        let (norm, node) = self.lookup(p, "open")?;
        match node {
            Node::Dir(_) => Err(FsError::new(Errno::Eisdir, "read", p)),
            Node::File(f) => self.read_node(&norm, p, f).await,
        }
    }

    fn page_key(&self, norm: &str, file: &FileNode) -> PageKey {
        match file.entry {
            Some(i) => PageKey {
                collection_id: self.shared.collection_id.clone(),
                tree_version: self.shared.tree.version.clone(),
                slug: self.shared.tree.entries[i].slug.clone(),
            },
            // Host-supplied files are per session; the path is their identity.
            None => PageKey { collection_id: self.shared.collection_id.clone(), tree_version: "host".into(), slug: norm.to_string() },
        }
    }

    async fn read_node(&self, norm: &str, shown: &str, file: &FileNode) -> Result<Rc<[u8]>, FsError> {
        let key = self.page_key(norm, file);
        if let Some(bytes) = self.cache.borrow_mut().get(&key) {
            self.stats.borrow_mut().cache_hits += 1;
            return Ok(bytes);
        }
        let pending = self.inflight.borrow().get(&key).cloned();
        if let Some(pending) = pending {
            self.stats.borrow_mut().cache_hits += 1;
            return pending.wait().await;
        }
        self.stats.borrow_mut().cache_misses += 1;
        let flight = Rc::new(InFlight::default());
        self.inflight.borrow_mut().insert(key.clone(), flight.clone());
        // Only the collection's pages are shared: a host's lazy files belong to its session.
        let shareable = file.entry.is_some();
        let from_shared = if shareable { self.shared_get(&key, file.size).await } else { None };
        let result = match from_shared {
            Some(bytes) => Ok(bytes),
            None => {
                let fetched = self.fetch(norm, shown, file).await;
                if let (true, Ok(bytes)) = (shareable, &fetched) {
                    self.shared_set(&key, bytes.clone()).await;
                }
                fetched
            }
        };
        if let Ok(bytes) = &result {
            self.cache.borrow_mut().insert(key.clone(), bytes.clone());
        }
        self.inflight.borrow_mut().remove(&key);
        flight.finish(result.clone());
        result
    }

    /// A page from the shared cache; `size` (from the tree) guards against a stale or
    /// foreign entry.
    async fn shared_get(&self, key: &PageKey, size: Option<u64>) -> Option<Rc<[u8]>> {
        let shared = self.opts.shared_cache.as_ref()?;
        let found = shared.get(key.to_key_string()).await;
        let mut stats = self.stats.borrow_mut();
        match found {
            Ok(Some(bytes)) if size.is_none_or(|s| s == bytes.len() as u64) => {
                stats.shared_hits += 1;
                Some(bytes.into())
            }
            Ok(_) => {
                stats.shared_misses += 1;
                None
            }
            Err(_) => {
                stats.shared_errors += 1;
                None
            }
        }
    }

    async fn shared_set(&self, key: &PageKey, bytes: Rc<[u8]>) {
        if let Some(shared) = &self.opts.shared_cache {
            if shared.set(key.to_key_string(), bytes).await.is_err() {
                self.stats.borrow_mut().shared_errors += 1;
            }
        }
    }

    async fn fetch(&self, norm: &str, shown: &str, file: &FileNode) -> Result<Rc<[u8]>, FsError> {
        let entry = file.entry.map(|i| &self.shared.tree.entries[i]);
        let source = match (self.lazy.get(norm), entry.and_then(|e| e.url.as_ref())) {
            (Some(s), _) => Some(s.clone()),
            (None, Some(url)) => Some(LazySource::Url(url.clone())),
            (None, None) => None,
        };
        if let Some(source) = source {
            self.stats.borrow_mut().lazy_fetches += 1;
            let bytes = lazy::load(&source, &*self.transport, self.opts.client.timeout_ms)
                .await
                .map_err(|cause| FsError::io("open", shown, cause))?;
            if let Some(size) = file.size {
                if size != bytes.len() as u64 {
                    return Err(FsError::io("open", shown, format!("lazy file is {} bytes but the path tree says {size}", bytes.len())));
                }
            }
            return Ok(bytes.into());
        }
        let entry = entry.expect("a file without a lazy source comes from the tree");
        let page = self.fetch_page(&entry.slug, file.size).await.map_err(|cause| FsError::io("open", shown, cause))?;
        Ok(Rc::from(page.into_bytes()))
    }

    /// One paginated `get` of a page's chunks, joined.
    async fn fetch_page(&self, slug: &str, size: Option<u64>) -> Result<String, String> {
        let field = &self.opts.slug_field;
        let req = GetRequest {
            where_: Some(json!({ field.as_str(): slug })),
            include: vec!["documents", "metadatas"],
            ..Default::default()
        };
        let what = format!("page {slug:?}");
        let resp = self.client.get_all(&self.shared.collection_id, req, &what).await.map_err(|e: ChromaError| e.to_string())?;
        let mut chunks = Vec::with_capacity(resp.ids.len());
        for (i, id) in resp.ids.iter().enumerate() {
            let meta = resp.metadata(i);
            // Defence in depth: a record for any other slug never reaches the page.
            if meta.and_then(|m| m.get(field)).and_then(Value::as_str) != Some(slug) {
                continue;
            }
            chunks.push(Chunk {
                id: id.clone(),
                index: meta.and_then(|m| m.get(&self.opts.chunk_index_field)).cloned(),
                document: resp.document(i).map(str::to_string),
            });
        }
        pages::assemble(chunks, size).map_err(|e| format!("page {slug:?}: {e}"))
    }
}

/// A page whose chunks a bulk prefetch will load.
struct PrefetchPage {
    key: PageKey,
    slug: String,
    size: Option<u64>,
    chunks: Option<u64>,
}

impl Filesystem {
    fn aligned(&self) -> bool {
        self.shared.metadata.get("line_aligned") == Some(&Value::Bool(true))
    }

    fn requests(&self) -> u64 {
        self.client.stats().requests
    }

    /// Plans and prepares one search command; resolves to the arguments to run the
    /// command with (the original ones unless the search was narrowed).
    pub async fn search(&self, name: &str, args: Vec<String>, cwd: &str, stdin_empty: bool) -> Vec<String> {
        let mut cs = CommandStats { command: std::iter::once(name).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" "), ..Default::default() };
        let cwd = path::normalize(cwd);
        let aligned = self.aligned();
        let mut plan = if name == "rg" {
            search::plan_rg(&args, &cwd, &self.listing, aligned, stdin_empty)
        } else {
            search::plan_grep(name, &args, &cwd, &self.listing, aligned, None)
        };
        if let Plan::ReadPatternFiles(files) = &plan {
            let mut contents = Vec::new();
            for f in files {
                match self.read(&path::resolve(&cwd, f)).await {
                    Ok(bytes) => contents.push(decode(&bytes, None)),
                    // grep reports the unreadable file itself, before reading anything else.
                    Err(_) => {
                        contents.clear();
                        break;
                    }
                }
            }
            plan = if contents.len() == files.len() {
                search::plan_grep(name, &args, &cwd, &self.listing, aligned, Some(&contents))
            } else {
                Plan::Delegate
            };
        }
        let run = match plan {
            Plan::Delegate | Plan::ReadPatternFiles(_) => {
                cs.plan = "delegate";
                args
            }
            Plan::Prefetch(files) => {
                cs.plan = "prefetch";
                cs.scope = files.len() as u64;
                let before = self.requests();
                self.prefetch(&files).await;
                cs.prefetch_requests = self.requests() - before;
                args
            }
            Plan::Narrow(n) => self.narrow(n, &mut cs).await.unwrap_or(args),
        };
        let mut stats = self.stats.borrow_mut();
        if stats.commands.len() >= COMMAND_HISTORY {
            stats.commands.remove(0);
        }
        stats.commands.push(cs);
        run
    }

    /// Runs a narrowed search's coarse query, prefetch and fine check; `None` means
    /// "run the command as typed" (its files have been prefetched).
    async fn narrow(&self, n: search::Narrowing, cs: &mut CommandStats) -> Option<Vec<String>> {
        cs.plan = "narrow";
        let files: Vec<(&str, &str)> = n
            .targets
            .iter()
            .filter_map(|t| match t {
                Target::File { shown, path } => Some((shown.as_str(), path.as_str())),
                Target::Keep(_) => None,
            })
            .collect();
        cs.scope = files.len() as u64;
        let matcher = &n.matcher;
        let all_paths: Vec<String> = files.iter().map(|(_, p)| p.to_string()).collect();
        // Pages in Chroma are filtered there; lazy files can only be read.
        let mut slugs = Vec::new();
        let mut always = HashSet::new();
        for (_, p) in &files {
            match self.chunk_slug(p) {
                Some(slug) => slugs.push(slug),
                None => {
                    always.insert(p.to_string());
                }
            }
        }
        let before = self.requests();
        let hits = match self.coarse(&slugs, &matcher.filter).await {
            Ok((h, matches)) => {
                cs.coarse_matches = matches as u64;
                h
            }
            Err(e) => {
                cs.coarse_requests = self.requests() - before;
                return self.fallback(all_paths, format!("coarse query failed: {e}"), cs).await;
            }
        };
        cs.coarse_requests = self.requests() - before;
        let candidates: Vec<String> = files
            .iter()
            .filter(|(_, p)| always.contains(*p) || self.chunk_slug(p).is_some_and(|s| hits.contains(&s)))
            .map(|(_, p)| p.to_string())
            .collect();
        cs.candidates = candidates.len() as u64;
        let before = self.requests();
        self.prefetch(&candidates).await;
        cs.prefetch_requests = self.requests() - before;
        let fine: Vec<regex_lite::Regex> = matcher.fine.iter().flatten().filter_map(|r| regex_lite::Regex::new(r).ok()).collect();
        let fine_usable = matcher.fine.as_ref().is_some_and(|f| f.len() == fine.len());
        let candidates: HashSet<&str> = candidates.iter().map(String::as_str).collect();
        let mut out = n.args.clone();
        let mut searched = 0;
        for t in &n.targets {
            match t {
                Target::Keep(op) => out.push(op.clone()),
                Target::File { shown, path } => {
                    if !candidates.contains(path.as_str()) {
                        continue;
                    }
                    if fine_usable {
                        if let Some(bytes) = self.cached(path) {
                            let text = String::from_utf8_lossy(&bytes);
                            // regex-lite folds ASCII case only: two non-ASCII letters fold onto ASCII ones.
                            let folds_unseen = matcher.ignore_case && text.contains(['\u{212A}', '\u{17F}']);
                            if !folds_unseen && !fine.iter().any(|r| r.is_match(&text)) {
                                continue;
                            }
                        }
                    }
                    searched += 1;
                    out.push(shown.clone());
                }
            }
        }
        cs.searched = searched;
        if out.len() == n.args.len() || (n.keep_many && out.len() == n.args.len() + 1) {
            // Nothing can match, so the command runs on an empty file (it still validates its
            // pattern and options); or rg, left with one file, must not print bare lines.
            out.push(DEV_NULL.to_string());
        }
        Some(out)
    }

    async fn fallback(&self, paths: Vec<String>, why: String, cs: &mut CommandStats) -> Option<Vec<String>> {
        cs.plan = "prefetch";
        cs.note = Some(why);
        let before = self.requests();
        self.prefetch(&paths).await;
        cs.prefetch_requests = self.requests() - before;
        None
    }

    /// The slug of a page whose content lives in Chroma chunks (not a lazy file).
    fn chunk_slug(&self, p: &str) -> Option<String> {
        if self.lazy.contains_key(p) {
            return None;
        }
        match self.listing.get(p)? {
            Node::File(FileNode { entry: Some(i), .. }) => {
                let e = &self.shared.tree.entries[*i];
                e.url.is_none().then(|| e.slug.clone())
            }
            _ => None,
        }
    }

    fn cached(&self, p: &str) -> Option<Rc<[u8]>> {
        let Some(Node::File(f)) = self.listing.get(p) else { return None };
        let key = self.page_key(p, f);
        self.cache.borrow_mut().get(&key)
    }

    /// The slugs among `slugs` whose chunks match `filter`: one paginated query,
    /// returning metadata only. No query at all for an empty scope.
    async fn coarse(&self, slugs: &[String], filter: &Value) -> Result<(HashSet<String>, usize), ChromaError> {
        if slugs.is_empty() {
            return Ok((HashSet::new(), 0));
        }
        let field = self.opts.slug_field.as_str();
        let req = GetRequest {
            where_: Some(json!({ field: { "$in": slugs } })),
            where_document: Some(filter.clone()),
            include: vec!["metadatas"],
            ..Default::default()
        };
        let resp = self.client.get_all(&self.shared.collection_id, req, "a search").await?;
        let wanted: HashSet<&str> = slugs.iter().map(String::as_str).collect();
        let hits = (0..resp.ids.len())
            .filter_map(|i| resp.metadata(i)?.get(field)?.as_str())
            .filter(|s| wanted.contains(s))
            .map(str::to_string)
            .collect();
        Ok((hits, resp.ids.len()))
    }

    /// Loads many files into the cache with as few requests as the quotas allow: the
    /// pages' chunks come from batched `$in` queries of up to 300 records (issued at once
    /// when the tree records chunk counts), lazy files are read concurrently. Failures
    /// are left for the reads that follow to report. Stops at the cache's capacity.
    pub async fn prefetch(&self, paths: &[String]) {
        let mut pages: Vec<PrefetchPage> = Vec::new();
        let mut lazy = Vec::new();
        let mut seen = HashSet::new();
        let mut budget = self.opts.cache_bytes as u64;
        for p in paths {
            let Some(Node::File(f)) = self.listing.get(p) else { continue };
            let key = self.page_key(p, f);
            if !seen.insert(key.clone()) || self.cache.borrow().contains(&key) {
                continue;
            }
            let size = f.size.unwrap_or(0);
            if size > budget {
                break;
            }
            budget -= size;
            match self.chunk_slug(p) {
                Some(slug) => {
                    let chunks = f.entry.and_then(|i| self.shared.tree.entries[i].chunks);
                    pages.push(PrefetchPage { key, slug, size: f.size, chunks });
                }
                None => lazy.push((p.clone(), f.clone())),
            }
        }
        let lazy_reads = join_all(lazy.iter().map(|(p, f)| self.read_node(p, p, f)).collect());
        let page_reads = async {
            let pages = self.take_from_shared_cache(pages).await;
            self.prefetch_pages(pages).await
        };
        let (_, ()) = (lazy_reads.await, page_reads.await);
    }

    /// Takes what the shared cache has into the LRU; returns the pages still to load.
    async fn take_from_shared_cache(&self, pages: Vec<PrefetchPage>) -> Vec<PrefetchPage> {
        if self.opts.shared_cache.is_none() || pages.is_empty() {
            return pages;
        }
        let found = join_all(pages.iter().map(|p| self.shared_get(&p.key, p.size)).collect()).await;
        let mut rest = Vec::new();
        for (page, hit) in pages.into_iter().zip(found) {
            match hit {
                Some(bytes) => self.cache.borrow_mut().insert(page.key, bytes),
                None => rest.push(page),
            }
        }
        rest
    }

    async fn prefetch_pages(&self, pages: Vec<PrefetchPage>) {
        if pages.is_empty() {
            return;
        }
        let field = self.opts.slug_field.as_str();
        let slugs: Vec<&str> = pages.iter().map(|p| p.slug.as_str()).collect();
        let req = GetRequest {
            where_: Some(json!({ field: { "$in": slugs } })),
            include: vec!["documents", "metadatas"],
            ..Default::default()
        };
        let what = format!("a prefetch of {} pages", pages.len());
        let resp = match pages.iter().map(|p| p.chunks).sum::<Option<u64>>() {
            // Known total: every page of results at once (the client caps concurrency).
            Some(total) => {
                let requests = (total as usize).div_ceil(MAX_PAGE).max(1);
                let parts = join_all(
                    (0..requests)
                        .map(|i| {
                            let req = GetRequest { limit: Some(MAX_PAGE), offset: (i > 0).then_some(i * MAX_PAGE), ..req.clone() };
                            let what = what.clone();
                            async move { self.client.get_once(&self.shared.collection_id, &req, &what).await }
                        })
                        .collect(),
                )
                .await;
                let mut all = GetResponse::default();
                for part in parts {
                    match part {
                        Ok(p) => all.extend(p),
                        Err(_) => return,
                    }
                }
                all
            }
            None => match self.client.get_all(&self.shared.collection_id, req, &what).await {
                Ok(r) => r,
                Err(_) => return,
            },
        };
        let mut by_slug: HashMap<&str, Vec<Chunk>> = HashMap::new();
        for (i, id) in resp.ids.iter().enumerate() {
            let meta = resp.metadata(i);
            let Some(slug) = meta.and_then(|m| m.get(field)).and_then(Value::as_str) else { continue };
            // Defence in depth: only the slugs asked for (all visible) are kept.
            let Some(page) = pages.iter().find(|p| p.slug == slug) else { continue };
            by_slug.entry(page.slug.as_str()).or_default().push(Chunk {
                id: id.clone(),
                index: meta.and_then(|m| m.get(&self.opts.chunk_index_field)).cloned(),
                document: resp.document(i).map(str::to_string),
            });
        }
        let mut loaded = Vec::new();
        for page in &pages {
            let chunks = by_slug.remove(page.slug.as_str()).unwrap_or_default();
            if let Ok(text) = pages::assemble(chunks, page.size) {
                let bytes: Rc<[u8]> = Rc::from(text.into_bytes());
                self.cache.borrow_mut().insert(page.key.clone(), bytes.clone());
                loaded.push((page, bytes));
            }
        }
        self.stats.borrow_mut().prefetched_pages += loaded.len() as u64;
        if self.opts.shared_cache.is_some() {
            join_all(loaded.into_iter().map(|(p, b)| self.shared_set(&p.key, b)).collect()).await;
        }
    }
}

/// Decodes bytes as just-bash's `readFile` does for its encodings.
pub fn decode(bytes: &[u8], encoding: Option<&str>) -> String {
    match encoding {
        Some("binary") | Some("latin1") => bytes.iter().map(|&b| b as char).collect(),
        Some("hex") => bytes.iter().map(|b| format!("{b:02x}")).collect(),
        Some("base64") => crate::codec::base64_encode(bytes),
        // TextDecoder: UTF-8, a leading BOM dropped, invalid sequences replaced.
        _ => String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_like_text_decoder() {
        assert_eq!(decode(b"\xEF\xBB\xBFhi", None), "hi");
        assert_eq!(decode(b"a\xFFb", Some("utf8")), "a\u{FFFD}b");
        assert_eq!(decode(b"\xE9", Some("latin1")), "é");
        assert_eq!(decode(b"\x01\xAB", Some("hex")), "01ab");
        assert_eq!(decode(b"hello", Some("base64")), "aGVsbG8=");
    }
}
