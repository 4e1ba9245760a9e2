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

use crate::base::error::{Errno, FsError};
use crate::base::{key, path};
use crate::chroma::budget::{Budget, Budgeted, Limits};
use crate::chroma::origin::LazyPolicy;
use crate::chroma::transport::Transport;
use crate::chroma::Client;
use crate::fs::journal::{Journal, Report};
use crate::fs::scratch::Scratch;
use crate::fs::stats::{CommandStats, History, Stats};
use crate::options::Options;
use crate::pages::collection::{answers::Shared, Collection};
use crate::pages::store::lazy::LazySource;
use crate::pages::store::process::{self, ProcessPages};
use crate::pages::store::{Freshness, PageKey, PageRef, PageStore, Source, StoreOptions};
use crate::tree::access::SessionAccess;
use crate::tree::listing::{FileNode, Listing, Node};
use crate::tree::load::{self, LoadedTree, TreeCheck};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The path that accepts and discards writes, so `cmd 2>/dev/null` works.
pub(crate) const DEV_NULL: &str = "/dev/null";

pub(crate) struct Filesystem {
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
    /// The count of commands the budget had at this session's last command: a new one
    /// lets a tripped breaker probe at once.
    commands_seen: std::cell::Cell<u64>,
    journal: Journal,
    /// The session's transport, for its clock.
    transport: Rc<dyn Transport>,
    /// The session's writable directory, when it has one.
    scratch: Option<RefCell<Scratch>>,
    /// What process substitutions give commands to read (`/dev/fd/63`).
    dev_fd: RefCell<dev_fd::DevFd>,
    native_commands: bool,
    /// The host accepts searches whose cost depends on hidden text (see
    /// [`Filesystem::coarse_query_allowed`]).
    unscoped_coarse_query: bool,
    /// What is wrong with the tree entries this session could see, escaped.
    broken: Vec<String>,
    /// Whether the session's tree is still the collection's.
    check: Rc<TreeCheck>,
    /// The collection's name, for messages.
    name: String,
    /// The session's groups: which classes of the grep index it reads.
    groups: crate::tree::access::Groups,
    /// The version the session is scoped to (`version`), when it is.
    version: Option<String>,
    /// A mount scoped to a version it has no page of: the versions it has (see
    /// [`versions::scope_of`]).
    mount_versions: Option<Vec<String>>,
    /// Whether the session is one mount among several (`mountAt`).
    mounted: bool,
    /// Whether searches may read the grep index (`grepIndex`).
    grep_index: bool,
    /// The grep index's records this session read.
    index_kept: RefCell<crate::pages::grams::lookup::Kept>,
    /// The collection's id and the tree's version, as every page key of the session shares them.
    key_parts: (Rc<str>, Rc<str>),
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
    pub(crate) async fn connect(
        mut opts: Options,
        transport: Rc<dyn Transport>,
        now_ms: f64,
    ) -> Result<Filesystem, FsError> {
        if let Some(bytes) = opts.process_cache_bytes {
            process::set_capacity(bytes);
        }
        let budget = Rc::new(Budget::new(opts.limits));
        let transport: Rc<dyn Transport> = Rc::new(Budgeted::new(transport, budget.clone()));
        let client = Rc::new(Client::for_session(opts.client.clone(), transport.clone(), budget.clone()));
        let opened = load::open(&client, &opts.tree_location(), now_ms).await?;
        let tree = opened.tree;
        let lazy: HashMap<String, LazySource> =
            std::mem::take(&mut opts.lazy_files).into_iter().map(|(p, s)| (path::normalize(&p), s)).collect();
        let extra: Vec<String> = lazy.keys().cloned().collect();
        let version = opts.version.as_deref();
        let mount_versions = versions::scope_of(&tree.tree, &opts, version)
            .map_err(|why| FsError { cause: Some(why), ..FsError::new(Errno::Einval, "connect", &opts.collection) })?;
        let listing = versions::listing_of(&tree, &opts.groups, version, &extra)
            .map_err(|e| FsError::io("connect", &opts.collection, e))?;
        let access = tree.chunk_access().then(|| SessionAccess::new(&opts.groups));
        let check = Rc::new(TreeCheck::new(tree.clone(), client.clone(), budget.clone(), &opts.tree_location()));
        let tree_key = load::cache_key(&opts.tree_location());
        let mut collection =
            Collection::new(client.clone(), tree.collection_id.clone(), opts.schema.clone(), access.clone());
        if process::is_on() {
            let asked_under =
                key::of([tree_key.as_str(), &tree.collection_id, &format!("{:016x}", tree.fingerprint())]);
            collection = collection.sharing(Shared::new(asked_under, check.clone()));
        }
        let store_opts = StoreOptions {
            cache_bytes: opts.cache_bytes,
            shared: opts.shared_cache.clone(),
            lazy_policy: LazyPolicy::new(opts.lazy_origins.clone()),
            lazy_max_bytes: opts.lazy_max_bytes,
            process: Some(ProcessPages::new(&tree_key, &tree.collection_id, access)),
            fresh: Some(check.clone()),
            public_text: tree.public_text,
        };
        let store = PageStore::new(collection.clone(), transport.clone(), store_opts);
        let scratch_root = opts.scratch.clone();
        if let Some(root) = &scratch_root {
            if listing.get(root).is_some() {
                let why = "option scratch names a path in the docs: choose another directory";
                return Err(FsError { cause: Some(why.into()), ..FsError::new(Errno::Einval, "connect", root) });
            }
        }
        let scratch = scratch_root.as_deref().map(|root| RefCell::new(Scratch::new(root, opts.scratch_bytes, now_ms)));
        let broken = broken_entries(&tree.tree, &opts.groups);
        let key_parts = (tree.collection_id.as_str().into(), tree.tree.revision.as_str().into());
        Ok(Filesystem {
            client,
            collection,
            tree,
            tree_from_cache: opened.from_cache,
            listing,
            lazy,
            store,
            history: RefCell::default(),
            budget,
            commands_seen: std::cell::Cell::new(0),
            journal: Journal::default(),
            transport,
            scratch,
            dev_fd: RefCell::new(dev_fd::DevFd::new(opts.scratch_bytes)),
            native_commands: opts.native_commands,
            unscoped_coarse_query: opts.unscoped_coarse_query,
            broken,
            check,
            name: opts.collection.clone(),
            groups: opts.groups.clone(),
            version: opts.version.clone(),
            mount_versions,
            mounted: opts.mount_at.is_some(),
            grep_index: opts.grep_index,
            index_kept: RefCell::default(),
            key_parts,
        })
    }

    /// Whether the tree this session opened with is still the collection's, as of the
    /// running command's start (one small request, unless a check since then answers). A
    /// server that keeps sessions asks this before a call, and opens a new session when
    /// the docs changed.
    pub(crate) async fn is_current(&self) -> Result<bool, FsError> {
        self.check.check().await.map_err(|e| FsError::io("connect", &self.name, e))
    }

    /// What is wrong with the tree's entries that this session could see: pages listed
    /// but unreadable, and entries no listing shows. Entries whose access cannot be read,
    /// or that the session's groups would not see, are not named.
    pub(crate) fn broken_pages(&self) -> &[String] {
        &self.broken
    }

    pub(crate) fn listing(&self) -> &Listing {
        &self.listing
    }

    /// Whether a search may ask Chroma which chunks match (the coarse query). Chroma
    /// answers for every chunk its `where` admits; unless the chunks carry their page's
    /// access (so the session's access scopes the query), that includes hidden pages'
    /// chunks, and a search's requests, timing and budget would depend on hidden text.
    /// So a session that has hidden pages on such a collection reads its scope instead,
    /// unless the host accepts that dependence (`searchHiddenTextCost`).
    pub(crate) fn coarse_query_allowed(&self) -> bool {
        self.tree.chunk_access() || !self.listing.has_hidden_pages() || self.unscoped_coarse_query
    }

    /// Whether searches may be answered in Rust (the `nativeCommands` option).
    pub(crate) fn native_commands(&self) -> bool {
        self.native_commands
    }

    /// The session's listing with its scratch directory in it, when it has one: for a
    /// listing command that reaches the directory (its nodes are the files as they are now).
    pub(crate) fn listing_with_scratch(&self) -> Option<Listing> {
        self.scratch.as_ref().map(|s| self.listing.with_extra(s.borrow().nodes()))
    }

    /// The session's groups that no page it sees names: a group spelled wrong, or one the
    /// docs do not use (a page that names one of the session's groups is one it sees, so
    /// this says nothing of the pages it does not).
    pub(crate) fn unused_groups(&self) -> Vec<String> {
        let mut unused: Vec<&str> = self.groups.iter().collect();
        for (_, file) in self.listing.files() {
            let Some(entry) = file.entry.map(|i| &self.tree.tree.entries[i]) else { continue };
            unused.retain(|g| !entry.access.groups.iter().any(|a| a == g));
            if unused.is_empty() {
                break;
            }
        }
        unused.into_iter().map(String::from).collect()
    }

    /// The scratch directory's structure now, for a search's walk, when the session has one.
    pub(crate) fn scratch_dirs(&self) -> Option<scratch::Dirs> {
        self.scratch.as_ref().map(|s| s.borrow().dirs())
    }

    /// The scratch directory's content (see `scratch/state.rs`), when the session has one.
    pub(crate) fn save_scratch(&self) -> Option<Vec<u8>> {
        self.scratch.as_ref().map(|s| s.borrow().save())
    }

    /// Replaces the scratch directory's content with a saved one, or empties it (`None`);
    /// either way the process substitutions' files (`/dev/fd`) are dropped. A state that
    /// does not read back is refused and changes nothing.
    pub(crate) fn restore_scratch(&self, saved: Option<&[u8]>) -> Result<(), FsError> {
        let Some(s) = &self.scratch else {
            if saved.is_none() {
                self.dev_fd.borrow_mut().clear();
                return Ok(());
            }
            let why = "this session has no scratch directory (option scratch)".to_string();
            return Err(FsError { cause: Some(why), ..FsError::new(Errno::Einval, "restore", "scratch") });
        };
        s.borrow_mut().restore(saved, self.now_ms())?;
        self.dev_fd.borrow_mut().clear();
        Ok(())
    }

    /// The scratch directory, when a normalised path is in it.
    fn scratch_for(&self, norm: &str) -> Option<&RefCell<Scratch>> {
        self.scratch.as_ref().filter(|s| s.borrow().contains(norm))
    }

    /// Every visible path, the scratch directory's included.
    pub(crate) fn all_paths(&self) -> Vec<String> {
        let mut paths = self.listing.all_paths();
        if let Some(s) = &self.scratch {
            paths.extend(s.borrow().paths().into_iter().cloned());
        }
        paths
    }

    /// Milliseconds on the session's clock.
    pub(crate) fn now_ms(&self) -> f64 {
        self.transport.now_ms()
    }

    /// The session's groups.
    pub(crate) fn groups(&self) -> &crate::tree::access::Groups {
        &self.groups
    }

    /// The grep index the session's searches read, or why they read none.
    pub(crate) fn grep_index(&self) -> Result<crate::pages::grams::manifest::Manifest, &'static str> {
        if !self.grep_index {
            return Err("the host turned it off (grepIndex: false)");
        }
        crate::pages::grams::manifest::Manifest::of_tree(self.tree.grams.as_ref())
    }

    pub(crate) fn tree(&self) -> &LoadedTree {
        &self.tree
    }

    pub(crate) fn store(&self) -> &PageStore {
        &self.store
    }

    pub(crate) fn collection(&self) -> &Collection {
        &self.collection
    }

    /// The grep index's records this session read (see [`crate::pages::grams::lookup`]).
    pub(crate) fn index_kept(&self) -> &RefCell<crate::pages::grams::lookup::Kept> {
        &self.index_kept
    }

    /// Chroma requests made so far.
    pub(crate) fn requests(&self) -> u64 {
        self.client.stats().requests
    }

    /// Requests the running command may still send, when its budget limits them.
    pub(crate) fn requests_left(&self) -> Option<u64> {
        self.budget.requests_left()
    }

    pub(crate) fn record(&self, command: CommandStats) {
        self.history.borrow_mut().push(command);
    }

    pub(crate) fn stats(&self) -> Stats {
        Stats {
            requests: self.client.stats(),
            store: self.store.stats(),
            tree_from_cache: self.tree_from_cache,
            files: self.listing.file_count() as u64,
            commands: self.history.borrow().to_vec(),
        }
    }

    /// A command starts (see [`crate::chroma::budget`] and [`crate::fs::journal`]); the mark to end it with.
    #[cfg(test)]
    pub(crate) fn begin_command(&self) -> u64 {
        self.begin_command_within(Limits::default())
    }

    /// A command starts (see [`crate::chroma::budget`] and [`crate::fs::journal`]), held to
    /// `tighter` limits too; the mark to end it with.
    pub(crate) fn begin_command_within(&self, tighter: Limits) -> u64 {
        self.budget.begin_within(self.transport.now_ms(), tighter);
        let commands = self.budget.commands();
        if self.commands_seen.replace(commands) != commands {
            self.client.breaker().rearm();
        }
        self.journal.mark()
    }

    /// This session's commands draw on `other`'s budget from now on (several sessions shown
    /// as one shell: a command over all of them may send what one command may).
    pub(crate) fn share_budget(&self, other: &Filesystem) {
        self.budget.join(&other.budget);
    }

    /// `work`'s outcome, or the running command's time limit when that passes first (work
    /// outside Chroma, such as a host's embedding function, has no timeout of its own).
    pub(crate) async fn before_deadline<F: std::future::Future>(&self, work: F) -> Result<F::Output, u32> {
        let Some((left, limit)) = self.budget.time_left(self.transport.now_ms()) else { return Ok(work.await) };
        let timer = self.transport.sleep(left.ceil().min(u32::MAX as f64) as u32);
        match crate::base::sync::first(work, timer).await {
            crate::base::sync::First::Left(out) => Ok(out),
            crate::base::sync::First::Right(()) => Err(limit),
        }
    }

    /// A command ends: what failed while it ran.
    pub(crate) fn end_command(&self, mark: u64) -> Report {
        self.budget.end();
        if !self.budget.in_command() {
            self.store.clear_plan();
        }
        self.journal.since(mark)
    }

    /// The host gave up on the running command: nothing more is sent for it.
    pub(crate) fn abort_command(&self) {
        self.budget.abort();
    }

    /// Notes a failure for the command that is running.
    pub(crate) fn failed(&self, path: &str, cause: impl ToString) {
        self.journal.record(path, cause);
    }

    /// Cheap and never failing: just-bash probes `/usr/bin/<cmd>` before every command.
    pub(crate) fn exists(&self, p: &str) -> bool {
        if p.contains('\0') {
            return false;
        }
        let dir_only = path::names_dir(p);
        let p = path::normalize(p);
        if let Some(s) = self.scratch_for(&p) {
            let s = s.borrow();
            return s.exists(&p) && !(dir_only && s.stat(&p, &p, "stat").is_ok_and(|st| st.is_file));
        }
        match self.listing.get(&p) {
            Some(Node::File(_)) => !dir_only,
            Some(Node::Dir(_)) => true,
            None => !dir_only && (p == DEV_NULL || self.dev_fd.borrow().get(&p).is_some()),
        }
    }

    /// The node a path names: a file named as a directory (`a.md/`) is ENOTDIR.
    fn lookup(&self, p: &str, syscall: &'static str) -> Result<(String, &Node), FsError> {
        let norm = check_path(p, syscall)?;
        match self.listing.get(&norm) {
            Some(Node::File(_)) if path::names_dir(p) => Err(FsError::new(Errno::Enotdir, syscall, p)),
            Some(node) => Ok((norm, node)),
            None => Err(FsError::new(Errno::Enoent, syscall, p)),
        }
    }

    pub(crate) async fn stat(&self, p: &str, syscall: &'static str) -> Result<StatInfo, FsError> {
        let norm = check_path(p, syscall)?;
        if norm == DEV_NULL {
            return Ok(StatInfo { is_file: true, is_dir: false, mode: 0o666, size: 0, mtime_ms: 0.0, ino: 0 });
        }
        if let Some(s) = self.scratch_for(&norm) {
            return match s.borrow().stat(&norm, p, syscall)? {
                st if st.is_file && path::names_dir(p) => Err(FsError::new(Errno::Enotdir, syscall, p)),
                st => Ok(st),
            };
        }
        if let Some(bytes) = self.dev_fd.borrow().get(&norm) {
            return Ok(StatInfo {
                is_file: true,
                is_dir: false,
                mode: 0o600,
                size: bytes.len() as u64,
                mtime_ms: 0.0,
                ino: 0,
            });
        }
        let (norm, node) = self.lookup(p, syscall)?;
        match node {
            Node::Dir(d) => {
                Ok(StatInfo { is_file: false, is_dir: true, mode: 0o755, size: 0, mtime_ms: d.mtime, ino: d.ino })
            }
            Node::File(f) => {
                let size = match f.size {
                    Some(s) => s,
                    None => self.read_file(&norm, p, f).await?.len() as u64,
                };
                Ok(StatInfo { is_file: true, is_dir: false, mode: 0o644, size, mtime_ms: f.mtime, ino: f.ino })
            }
        }
    }

    /// A directory's names, with whether each is a directory; the root also lists the
    /// scratch directory.
    pub(crate) fn readdir(&self, p: &str) -> Result<Cow<'_, [(String, bool)]>, FsError> {
        let norm = check_path(p, "scandir")?;
        if let Some(s) = self.scratch_for(&norm) {
            return s.borrow().readdir(&norm, p).map(Cow::Owned);
        }
        let (_, node) = self.lookup(p, "scandir")?;
        match (node, &self.scratch) {
            (Node::Dir(d), Some(s)) if norm == "/" => {
                let mut children = d.children.clone();
                let name = s.borrow().name().to_string();
                let at = children.partition_point(|(n, _)| path::js_cmp(n, &name).is_lt());
                children.insert(at, (name, true));
                Ok(Cow::Owned(children))
            }
            (Node::Dir(d), _) => Ok(Cow::Borrowed(&d.children)),
            (Node::File(_), _) => Err(FsError::new(Errno::Enotdir, "scandir", p)),
        }
    }

    pub(crate) fn realpath(&self, p: &str) -> Result<String, FsError> {
        let norm = check_path(p, "realpath")?;
        if norm == DEV_NULL {
            return Ok(norm);
        }
        if let Some(s) = self.scratch_for(&norm) {
            return match s.borrow().exists(&norm) {
                true => Ok(norm),
                false => Err(FsError::new(Errno::Enoent, "realpath", p)),
            };
        }
        self.lookup(p, "realpath").map(|(n, _)| n)
    }

    pub(crate) fn readlink(&self, p: &str) -> Result<String, FsError> {
        if !self.exists(p) {
            return Err(FsError::new(Errno::Enoent, "readlink", p));
        }
        Err(FsError::new(Errno::Einval, "readlink", p))
    }

    /// A file's bytes. Directories are `EISDIR`; `/dev/null` reads empty.
    pub(crate) async fn read(&self, p: &str) -> Result<Rc<[u8]>, FsError> {
        let norm = check_path(p, "open")?;
        if norm == DEV_NULL {
            return Ok(Rc::from(Vec::new()));
        }
        if let Some(s) = self.scratch_for(&norm) {
            if path::names_dir(p) && s.borrow().stat(&norm, p, "open").is_ok_and(|st| st.is_file) {
                return Err(FsError::new(Errno::Enotdir, "open", p));
            }
            return s.borrow().read(&norm, p);
        }
        if let Some(bytes) = self.dev_fd.borrow().get(&norm) {
            return Ok(bytes);
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
    pub(crate) fn page(&self, norm: &str) -> Option<PageRef> {
        match self.listing.get(norm)? {
            Node::File(f) => Some(self.page_ref(norm, f)),
            Node::Dir(_) => None,
        }
    }

    fn page_ref(&self, norm: &str, file: &FileNode) -> PageRef {
        let (collection_id, tree_version) = self.key_parts.clone();
        let entry = file.entry.map(|i| &self.tree.tree.entries[i]);
        if let Some(source) = self.lazy.get(norm) {
            // Host-supplied files belong to this session: keyed by path, never shared.
            let key = PageKey { collection_id, tree_version: "host".into(), slug: norm.into() };
            return PageRef { key, size: file.size, source: Source::Lazy(source.clone()), shareable: false };
        }
        let e = entry.expect("a file that is not a host's lazy file comes from the tree");
        let slug: Rc<str> = e.slug.as_str().into();
        let key = PageKey { collection_id, tree_version, slug: slug.clone() };
        let source = match (&e.problem, &e.url) {
            (Some(problem), _) => Source::Corrupt(problem.clone()),
            (None, Some(url)) => Source::Lazy(LazySource::TreeUrl(url.clone())),
            (None, None) => Source::Chunks {
                slug,
                count: e.chunks,
                by_id: self.tree.chunks.ids && e.chunks.is_some(),
                number: e.number,
            },
        };
        PageRef { key, size: file.size, source, shareable: true }
    }
}

/// The page store asks the tree whether what other sessions loaded may be served.
impl Freshness for TreeCheck {
    fn confirmed(&self) -> crate::base::sync::LocalFuture<'_, bool> {
        Box::pin(TreeCheck::confirmed(self))
    }
}

/// The problems of the entries of `tree` that `groups` could see, in the tree's order.
fn broken_entries(tree: &crate::tree::decode::PathTree, groups: &crate::tree::access::Groups) -> Vec<String> {
    let listed = tree.entries.iter().filter(|e| groups.can_see(&e.access)).filter_map(|e| e.problem.clone());
    let aside = tree.set_aside.iter().filter(|s| s.access.as_ref().is_some_and(|a| groups.can_see(a)));
    listed.chain(aside.map(|s| s.problem.clone())).collect()
}

mod dev_fd;
mod encoding;
pub(crate) mod journal;
pub(crate) mod named;
mod plan;
pub(crate) mod scratch;
mod stat_info;
pub(crate) mod stats;
pub(crate) mod titles;
pub(crate) mod versions;
mod write;

pub(crate) use encoding::{decode, encode, text};
pub(crate) use stat_info::StatInfo;

#[cfg(test)]
mod tests;
