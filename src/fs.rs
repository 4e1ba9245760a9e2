//! The filesystem: just-bash's `IFileSystem` semantics over a listing and a page store.
//!
//! Everything but content is answered from the session's [`Listing`]: `stat`, `readdir`,
//! `exists` and `realpath` never touch the network (unless a page has no recorded `size`,
//! in which case `stat` reads it to be exact). Content comes from the [`PageStore`], to
//! which a visible path is handed as a [`PageRef`]. Hidden pages are not special cases
//! here: they are absent from the listing, so every method answers for them exactly as
//! for a path that never existed. Paths are normalised as just-bash normalises them, a
//! path with a NUL names nothing, and `/dev/null` exists and swallows writes so that
//! `cmd 2>/dev/null` works on a read-only tree.

use crate::access::Scope;
use crate::budget::{Budget, Budgeted};
use crate::chroma::Client;
use crate::collection::Collection;
use crate::error::{Errno, FsError};
use crate::journal::{Journal, Report};
use crate::listing::{FileNode, Listing, Node};
use crate::options::Options;
use crate::path;
use crate::stats::{CommandStats, History, Stats};
use crate::store::lazy::LazySource;
use crate::origin::LazyPolicy;
use crate::store::{PageKey, PageRef, PageStore, Source, StoreOptions};
use crate::transport::Transport;
use crate::trees::{self, LoadedTree};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The path that accepts and discards writes, so `cmd 2>/dev/null` works.
pub const DEV_NULL: &str = "/dev/null";

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

pub struct Filesystem {
    client: Rc<Client>,
    collection: Collection,
    tree: Rc<LoadedTree>,
    tree_from_cache: bool,
    listing: Rc<Listing>,
    /// The host's session-only files, by normalised path.
    lazy: HashMap<String, LazySource>,
    store: PageStore,
    history: RefCell<History>,
    budget: Rc<Budget>,
    journal: Journal,
    /// The session's transport, for its clock.
    transport: Rc<dyn Transport>,
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
        let budget = Rc::new(Budget::new(opts.limits));
        let transport: Rc<dyn Transport> = Rc::new(Budgeted::new(transport, budget.clone()));
        let client = Rc::new(Client::for_session(opts.client.clone(), transport.clone(), budget.clone()));
        let opened = trees::open(&client, &opts, now_ms).await?;
        let tree = opened.tree;
        let lazy: HashMap<String, LazySource> = std::mem::take(&mut opts.lazy_files).into_iter().map(|(p, s)| (path::normalize(&p), s)).collect();
        let extra: Vec<String> = lazy.keys().cloned().collect();
        // Listings with a host's own files are this session's alone; others are shared.
        let listing = match extra.is_empty() {
            true => tree.listing(&opts.groups),
            false => Listing::new(&tree.tree, &opts.groups, &extra).map(Rc::new),
        }
        .map_err(|e| FsError::io("connect", &opts.collection, e))?;
        let scope = tree.chunk_access().then(|| Scope::new(&opts.groups));
        let collection = Collection { client: client.clone(), id: tree.collection_id.clone(), schema: opts.schema.clone(), scope };
        let store_opts = StoreOptions { cache_bytes: opts.cache_bytes, shared: opts.shared_cache.clone(), lazy_policy: LazyPolicy::new(opts.lazy_origins.clone()) };
        let store = PageStore::new(collection.clone(), transport.clone(), store_opts);
        Ok(Filesystem { client, collection, tree, tree_from_cache: opened.from_cache, listing, lazy, store, history: RefCell::default(), budget, journal: Journal::default(), transport })
    }

    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    pub fn tree(&self) -> &LoadedTree {
        &self.tree
    }

    pub fn store(&self) -> &PageStore {
        &self.store
    }

    pub fn collection(&self) -> &Collection {
        &self.collection
    }

    /// Chroma requests made so far.
    pub fn requests(&self) -> u64 {
        self.client.stats().requests
    }

    pub fn record(&self, command: CommandStats) {
        self.history.borrow_mut().push(command);
    }

    pub fn stats(&self) -> Stats {
        Stats {
            requests: self.client.stats(),
            store: self.store.stats(),
            tree_from_cache: self.tree_from_cache,
            files: self.listing.file_count() as u64,
            commands: self.history.borrow().to_vec(),
        }
    }

    /// A command starts (see [`crate::budget`] and [`crate::journal`]); the mark to end it with.
    pub fn begin_command(&self) -> u64 {
        let first = self.budget.commands();
        self.budget.begin(self.transport.now_ms());
        if self.budget.commands() != first {
            self.client.breaker().rearm();
        }
        self.journal.mark()
    }

    /// A command ends: what failed while it ran.
    pub fn end_command(&self, mark: u64) -> Report {
        self.budget.end();
        if !self.budget.in_command() {
            self.store.clear_plan();
        }
        self.journal.since(mark)
    }

    /// The host gave up on the running command: nothing more is sent for it.
    pub fn abort_command(&self) {
        self.budget.abort();
    }

    /// Notes a failure for the command that is running.
    pub fn failed(&self, path: &str, cause: impl ToString) {
        self.journal.record(path, cause);
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
                    None => self.read_file(&norm, p, f).await?.len() as u64,
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
            Node::File(f) => self.read_file(&norm, p, f).await,
        }
    }

    async fn read_file(&self, norm: &str, shown: &str, file: &FileNode) -> Result<Rc<[u8]>, FsError> {
        self.store.read(&self.page_ref(norm, file)).await.map_err(|cause| {
            self.journal.record(norm, &cause);
            FsError::io("open", shown, cause)
        })
    }

    /// The page behind a visible file at a normalised path.
    pub fn page(&self, norm: &str) -> Option<PageRef> {
        match self.listing.get(norm)? {
            Node::File(f) => Some(self.page_ref(norm, f)),
            Node::Dir(_) => None,
        }
    }

    fn page_ref(&self, norm: &str, file: &FileNode) -> PageRef {
        let collection_id = self.tree.collection_id.clone();
        let entry = file.entry.map(|i| &self.tree.tree.entries[i]);
        if let Some(source) = self.lazy.get(norm) {
            // Host-supplied files belong to this session: keyed by path, never shared.
            let key = PageKey { collection_id, tree_version: "host".into(), slug: norm.to_string() };
            return PageRef { key, size: file.size, source: Source::Lazy(source.clone()), shareable: false };
        }
        let e = entry.expect("a file that is not a host's lazy file comes from the tree");
        let key = PageKey { collection_id, tree_version: self.tree.tree.version.clone(), slug: e.slug.clone() };
        let source = match &e.url {
            Some(url) => Source::Lazy(LazySource::TreeUrl(url.clone())),
            None => Source::Chunks { slug: e.slug.clone(), count: e.chunks, by_id: self.tree.chunks.ids && e.chunks.is_some() },
        };
        PageRef { key, size: file.size, source, shareable: true }
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
mod tests;
