//! The JavaScript boundary: `ChromaFs` (just-bash's `IFileSystem`) and `ingest`.
//!
//! Mostly conversions — options in (read by [`crate::options`]), `Error`s with a `code`,
//! `Date`s, plain objects and `Uint8Array`s out — beside the host's `fetch` and functions,
//! and two entry points that run more than a conversion: the ranked `search` command and
//! `fs.search()` (`ranked`), and the writer (`ingest`). Async methods return a `Promise`
//! over a clone of the shared state, so just-bash may call them concurrently (grep reads
//! 50 files at once).

#[cfg(feature = "read")]
mod backtracker;
mod callback;
mod convert;
mod fetch;
#[cfg(feature = "write")]
mod ingest;
#[cfg(feature = "perl")]
mod perl;
#[cfg(feature = "read")]
mod ranked;
#[cfg(feature = "read")]
mod shell;
#[cfg(feature = "tools")]
mod tools;

#[cfg(feature = "read")]
pub use backtracker::set_perl_engine;
#[cfg(feature = "write")]
pub use ingest::{annotate, ingest};
#[cfg(feature = "perl")]
pub use perl::PerlRegex;
#[cfg(feature = "tools")]
pub use tools::{tool_names, write_failure, ToolRun};

use crate::base::error::{Errno, FsError};
use crate::base::path;
use crate::chroma::transport::Transport;
use crate::fs::{self, Filesystem};
use crate::js::fetch::FetchTransport;
use crate::options::Options;
use crate::search::runner::Outcome;
use crate::tree::load;
use convert::{entries, flag, fs_error, get, invalid, plain, promise, set, stat_object, to_bytes, to_json};
use js_sys::{Array, Date, Function, Object, Promise, Uint8Array};
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Installs the panic hook that turns a Rust panic into a readable JavaScript error.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The `fetch` option, or the global `fetch`; `networkErrors: "log"` keeps the causes of
/// network failures out of messages and writes them to the host's console instead.
fn transport(o: &JsValue) -> Result<Rc<dyn Transport>, JsValue> {
    let fetch = convert::function(o, "fetch", "option fetch must be a function")?;
    let json = to_json(o);
    let logged = match json.is_object() {
        true => crate::options::network_errors_logged(&crate::options::Fields::of(&json, "options").map_err(invalid)?),
        false => Ok(false),
    };
    Ok(Rc::new(FetchTransport::new(fetch, logged.map_err(invalid)?)))
}

fn options(o: &JsValue) -> Result<Options, JsValue> {
    let mut opts = Options::from_json(&to_json(o)).map_err(invalid)?;
    opts.shared_cache = callback::shared_cache(o)?;
    if let Some(lazy) = get(o, "lazyFiles") {
        for (p, v) in entries(&lazy) {
            if let Ok(f) = v.dyn_into::<Function>() {
                opts.add_lazy_file(&p, callback::provider(f)).map_err(invalid)?;
            }
        }
    }
    Ok(opts)
}

fn path_arg(v: &JsValue) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| invalid("path must be a string"))
}

/// A promise already settled with `result`.
fn settled(result: Result<JsValue, JsValue>) -> Promise {
    match result {
        Ok(v) => Promise::resolve(&v),
        Err(e) => Promise::reject(&e),
    }
}

/// A read-only just-bash filesystem over a Chroma collection.
#[cfg(feature = "read")]
#[wasm_bindgen]
pub struct ChromaFs {
    inner: Rc<Filesystem>,
    /// The host's `embed` function, for ranked searches.
    embedder: Option<Rc<callback::JsEmbedder>>,
}

#[cfg(feature = "read")]
#[wasm_bindgen]
impl ChromaFs {
    /// Opens a session (resolves `Promise<ChromaFs>`).
    pub fn connect(options_value: JsValue) -> Promise {
        match Self::setup(&options_value) {
            Ok((opts, transport, embedder)) => {
                promise(async move { Ok(Self::open(opts, transport, embedder).await?.into()) })
            }
            Err(e) => Promise::reject(&e),
        }
    }

    /// Sets the byte budget of the process tier (the pages shared by the sessions of this
    /// process); `0` turns it off. The same as `connect`'s `processCacheBytes`.
    #[wasm_bindgen(js_name = setProcessCacheBytes)]
    pub fn set_process_cache_bytes(bytes: f64) {
        crate::pages::store::process::set_capacity(if bytes.is_finite() && bytes > 0.0 { bytes as usize } else { 0 });
    }

    /// A grep, egrep or fgrep typed in `cwd` over mounts (`mounts`: their names; `home`: the
    /// one holding paths outside them; `root`: the names in `/`) as one grep per mount,
    /// `[{ mount, args }]` in order, or `null` when it is not split (see `search::mounts`).
    #[wasm_bindgen(js_name = splitSearch)]
    pub fn split_search(
        name: String,
        args: Vec<String>,
        cwd: String,
        mounts: Vec<String>,
        home: String,
        root: Vec<String>,
    ) -> JsValue {
        let at = crate::search::mounts::Mounts { names: &mounts, home: &home, root: &root };
        let Some(parts) = crate::search::mounts::split(&name, &args, &cwd, &at) else { return JsValue::NULL };
        let out = Array::new();
        for p in parts {
            let (o, words) = (Object::new(), Array::new());
            for a in p.args {
                words.push(&JsValue::from(a));
            }
            set(&o, "mount", p.mount);
            set(&o, "args", words);
            out.push(&o);
        }
        out.into()
    }

    /// Reads a `search` command line run in `cwd`, for splitting it across mounts:
    /// `{ help, usage, k, dir, version }` (see `search::ranked::command::SearchLine`); `k` is the
    /// number of pages it shows, the command's default without `-n`.
    #[wasm_bindgen(js_name = readSearchLine)]
    pub fn read_search_line(args: Vec<String>, cwd: String) -> Result<JsValue, JsValue> {
        plain(&crate::search::ranked::command::search_line(&args, &cwd))
    }

    /// Forgets the path trees this process has cached, so the next `connect` reloads.
    #[wasm_bindgen(js_name = forgetTrees)]
    pub fn forget_trees() {
        load::forget();
    }

    /// Runs an async call on a path argument.
    fn on_path<F, Fut>(&self, path: &JsValue, f: F) -> Promise
    where
        F: FnOnce(Rc<Filesystem>, String) -> Fut,
        Fut: Future<Output = Result<JsValue, JsValue>> + 'static,
    {
        match path_arg(path) {
            Ok(p) => promise(f(self.inner.clone(), p)),
            Err(e) => Promise::reject(&e),
        }
    }

    /// `readFile`: a page as text (`utf8` by default, or the encoding asked for).
    #[wasm_bindgen(js_name = readFile)]
    pub fn read_file(&self, path: JsValue, options: JsValue) -> Promise {
        let encoding = options.as_string().or_else(|| get(&options, "encoding").and_then(|e| e.as_string()));
        self.on_path(&path, |fs, p| async move {
            let bytes = fs.read(&p).await.map_err(fs_error)?;
            Ok(fs::decode(&bytes, encoding.as_deref()).into())
        })
    }

    /// `readFileBuffer`: a page's bytes.
    #[wasm_bindgen(js_name = readFileBuffer)]
    pub fn read_file_buffer(&self, path: JsValue) -> Promise {
        self.on_path(&path, |fs, p| async move {
            let bytes = fs.read(&p).await.map_err(fs_error)?;
            Ok(Uint8Array::from(&bytes[..]).into())
        })
    }

    /// The file as a latin1 "byte string" (one char per byte).
    #[wasm_bindgen(js_name = readFileBytes)]
    pub fn read_file_bytes(&self, path: JsValue) -> Promise {
        self.on_path(&path, |fs, p| async move {
            let bytes = fs.read(&p).await.map_err(fs_error)?;
            Ok(fs::decode(&bytes, Some("latin1")).into())
        })
    }

    /// `exists`: whether the session may see the path.
    pub fn exists(&self, path: JsValue) -> Promise {
        let found = path.as_string().is_some_and(|p| self.inner.exists(&p));
        Promise::resolve(&JsValue::from_bool(found))
    }

    /// `stat`: size, mode and times of a visible page or directory.
    pub fn stat(&self, path: JsValue) -> Promise {
        self.on_path(&path, |fs, p| async move { Ok(stat_object(&fs.stat(&p, "stat").await.map_err(fs_error)?)) })
    }

    /// No symlinks exist, so `lstat` is `stat`.
    pub fn lstat(&self, path: JsValue) -> Promise {
        self.on_path(&path, |fs, p| async move { Ok(stat_object(&fs.stat(&p, "lstat").await.map_err(fs_error)?)) })
    }

    /// `readdir`: the names in a directory, sorted as just-bash sorts them.
    pub fn readdir(&self, path: JsValue) -> Promise {
        settled(path_arg(&path).and_then(|p| {
            let children = self.inner.readdir(&p).map_err(fs_error)?;
            Ok(children.iter().map(|(n, _)| JsValue::from_str(n)).collect::<Array>().into())
        }))
    }

    /// `readdir` with file types (`withFileTypes`).
    #[wasm_bindgen(js_name = readdirWithFileTypes)]
    pub fn readdir_with_file_types(&self, path: JsValue) -> Promise {
        settled(path_arg(&path).and_then(|p| {
            let out = Array::new();
            for (name, is_dir) in self.inner.readdir(&p).map_err(fs_error)?.iter() {
                let d = Object::new();
                set(&d, "name", name.as_str());
                set(&d, "isFile", !is_dir);
                set(&d, "isDirectory", *is_dir);
                set(&d, "isSymbolicLink", false);
                out.push(&d);
            }
            Ok(out.into())
        }))
    }

    /// `realpath`: the normalised path of a visible page or directory.
    pub fn realpath(&self, path: JsValue) -> Promise {
        settled(path_arg(&path).and_then(|p| self.inner.realpath(&p).map(JsValue::from).map_err(fs_error)))
    }

    /// `readlink`: EINVAL for an existing path (there are no symbolic links), else ENOENT.
    pub fn readlink(&self, path: JsValue) -> Promise {
        settled(path_arg(&path).and_then(|p| self.inner.readlink(&p).map(JsValue::from).map_err(fs_error)))
    }

    /// Synchronous, as just-bash requires.
    #[wasm_bindgen(js_name = resolvePath)]
    pub fn resolve_path(&self, base: String, path: String) -> String {
        path::resolve(&base, &path)
    }

    /// Every visible path (files and directories), for `ls 'quoted*glob'`.
    #[wasm_bindgen(js_name = getAllPaths)]
    pub fn get_all_paths(&self) -> Vec<String> {
        self.inner.all_paths()
    }

    fn read_only(&self, op: &'static str, path: &JsValue) -> Promise {
        let p = path.as_string().unwrap_or_default();
        Promise::reject(&fs_error(FsError::new(Errno::Erofs, op, &p)))
    }

    /// A write's outcome as the promise just-bash awaits.
    fn done(result: Result<(), FsError>) -> Promise {
        settled(result.map(|()| JsValue::UNDEFINED).map_err(fs_error))
    }

    fn write(&self, path: JsValue, content: JsValue, options: JsValue, append: bool) -> Promise {
        let Some(p) = path.as_string() else { return self.read_only(if append { "append" } else { "write" }, &path) };
        let encoding = options.as_string().or_else(|| get(&options, "encoding").and_then(|e| e.as_string()));
        let bytes = match content.as_string() {
            Some(text) => fs::encode(&text, encoding.as_deref()),
            None => to_bytes(&content).unwrap_or_default(),
        };
        Self::done(self.inner.write(&p, &bytes, append))
    }

    /// The scratch directory (option `scratch`) takes writes; `/dev/null` discards them;
    /// everything else is read-only.
    #[wasm_bindgen(js_name = writeFile)]
    pub fn write_file(&self, path: JsValue, content: JsValue, options: JsValue) -> Promise {
        self.write(path, content, options, false)
    }

    /// `appendFile`: EROFS outside the scratch directory.
    #[wasm_bindgen(js_name = appendFile)]
    pub fn append_file(&self, path: JsValue, content: JsValue, options: JsValue) -> Promise {
        self.write(path, content, options, true)
    }

    /// `mkdir`: EROFS outside the scratch directory.
    pub fn mkdir(&self, path: JsValue, options: JsValue) -> Promise {
        let Some(p) = path.as_string() else { return self.read_only("mkdir", &path) };
        Self::done(self.inner.mkdir(&p, flag(&options, "recursive")))
    }

    /// `rm`: EROFS outside the scratch directory.
    pub fn rm(&self, path: JsValue, options: JsValue) -> Promise {
        let Some(p) = path.as_string() else { return self.read_only("rm", &path) };
        Self::done(self.inner.rm(&p, flag(&options, "recursive"), flag(&options, "force")))
    }

    /// `cp`: EROFS unless the destination is in the scratch directory.
    pub fn cp(&self, src: JsValue, dest: JsValue, options: JsValue) -> Promise {
        let (Some(from), Some(to)) = (src.as_string(), dest.as_string()) else { return self.read_only("cp", &dest) };
        let (fs, recursive) = (self.inner.clone(), flag(&options, "recursive"));
        promise(async move { fs.cp(&from, &to, recursive).await.map(|()| JsValue::UNDEFINED).map_err(fs_error) })
    }

    /// `mv`: EROFS unless both paths are in the scratch directory.
    pub fn mv(&self, src: JsValue, dest: JsValue) -> Promise {
        let (Some(from), Some(to)) = (src.as_string(), dest.as_string()) else { return self.read_only("mv", &dest) };
        Self::done(self.inner.mv(&from, &to))
    }

    /// `chmod`: EROFS outside the scratch directory.
    pub fn chmod(&self, path: JsValue, mode: JsValue) -> Promise {
        let Some(p) = path.as_string() else { return self.read_only("chmod", &path) };
        Self::done(self.inner.chmod(&p, mode.as_f64().unwrap_or(0.0) as u32 & 0o7777))
    }

    /// There are no links, in the docs or in the scratch directory.
    pub fn symlink(&self, _target: JsValue, link_path: JsValue) -> Promise {
        self.read_only("symlink", &link_path)
    }

    /// `link`: always EROFS (no hard links, not even in the scratch directory).
    pub fn link(&self, _existing: JsValue, new_path: JsValue) -> Promise {
        self.read_only("link", &new_path)
    }

    /// `utimes`: changes a scratch file's times; EROFS elsewhere.
    pub fn utimes(&self, path: JsValue, _atime: JsValue, mtime: JsValue) -> Promise {
        let Some(p) = path.as_string() else { return self.read_only("utimes", &path) };
        // A Date, or seconds as Node's fs takes them.
        let ms = match mtime.dyn_ref::<Date>() {
            Some(d) => d.get_time(),
            None => mtime.as_f64().map_or(Date::now(), |s| s * 1000.0),
        };
        Self::done(self.inner.utimes(&p, ms))
    }

    /// Counters since `connect`: requests, bytesReceived, cacheHits, cacheMisses, …, and
    /// per search command what it cost (`commands`).
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        plain(&self.inner.stats())
    }

    /// Prepares a `grep`/`egrep`/`fgrep`/`rg` command line (see `commands()`): narrows
    /// its file operands with Chroma and loads the pages it will read. Resolves to the
    /// arguments to run the original command with, or `null` when the pages it needs
    /// cannot be loaded (the failure is reported by `endCommand`); rejects when the
    /// command must not run (a pattern too long to search), with the reason.
    /// `linesWanted`: the command's output goes to `head -n N`, which takes only its first
    /// N lines; a command answered here may then stop once it has printed them. `stdin`:
    /// the command's standard input as text, for a search that reads it. `stdoutFile`: the
    /// file its standard output goes to (`grep … > /tmp/hits`), which grep will not read.
    #[wasm_bindgen(js_name = planSearch)]
    #[allow(clippy::too_many_arguments)] // JavaScript's positional arguments, converted
    pub fn plan_search(
        &self,
        name: String,
        args: Vec<String>,
        cwd: String,
        stdin_empty: Option<bool>,
        own_fs: Option<bool>,
        lines_wanted: Option<u32>,
        stdin: Option<String>,
        stdout_file: Option<String>,
    ) -> Promise {
        let fs = self.inner.clone();
        promise(async move {
            // A host that passes no text says only whether there is any.
            let stdin = stdin.or_else(|| stdin_empty.unwrap_or(true).then(String::new));
            let wanted = lines_wanted.map(|n| n as usize);
            let own_fs = own_fs.unwrap_or(false);
            let streams = crate::search::Streams { stdin, stdout_file };
            match crate::search::search_reading(&fs, &name, args, &cwd, own_fs, wanted, streams).await {
                Outcome::Run(args) => Ok(args.into_iter().map(JsValue::from).collect::<Array>().into()),
                Outcome::Failed => Ok(JsValue::NULL),
                Outcome::Printed(p) => plain(&p),
                Outcome::Refused(why) => Err(invalid(why)),
            }
        })
    }

    /// `ls`, `find`, `tree` or `du` answered from the listing (and the files the command
    /// names to read first, `stdin` standard input's text): `{ stdout, stderr, exitCode }`,
    /// or `null` when just-bash's own command must run (the reason is in `stats().commands`).
    #[wasm_bindgen(js_name = runCommand)]
    pub fn run_command(
        &self,
        name: String,
        args: Vec<String>,
        cwd: String,
        own_fs: Option<bool>,
        stdin: Option<String>,
    ) -> Promise {
        let fs = self.inner.clone();
        promise(async move {
            let own_fs = own_fs.unwrap_or(false);
            match crate::commands::answer(&fs, &name, &args, &cwd, own_fs, stdin.as_deref()).await {
                Some(p) => plain(&p),
                None => Ok(JsValue::NULL),
            }
        })
    }

    /// A command starts: its request budget opens, and failures are collected for it.
    /// Returns the mark to pass to `endCommand`.
    /// `limits` (`{ maxRequests, timeoutMs }`, optional) hold this command tighter than the
    /// session's own `maxRequestsPerCommand` and `commandTimeoutMs`, never looser.
    #[wasm_bindgen(js_name = beginCommand)]
    pub fn begin_command(&self, limits: JsValue) -> Result<f64, JsValue> {
        let limits = match limits.is_undefined() {
            true => Default::default(),
            false => crate::options::command_limits(&to_json(&limits)).map_err(invalid)?,
        };
        Ok(self.inner.begin_command_within(limits) as f64)
    }

    /// Whether the tree this session opened with is still the collection's (see
    /// `Filesystem::is_current`): a server that keeps sessions asks before each call.
    #[wasm_bindgen(js_name = isCurrent)]
    pub fn is_current(&self) -> Promise {
        let inner = self.inner.clone();
        promise(async move { inner.is_current().await.map(JsValue::from_bool).map_err(fs_error) })
    }

    /// What each of `paths` states it is: `{ title, description }` (front matter `title:`,
    /// else its first heading; front matter `description:`), each `null` where none is
    /// stated or the page is not read by id; at most 100 paths, one request (see
    /// `Filesystem::headings`). For lists of pages: MCP resources, llms.txt.
    #[wasm_bindgen(js_name = pageHeadings)]
    pub fn page_headings(&self, paths: Vec<String>) -> Promise {
        let inner = self.inner.clone();
        promise(async move { plain(&inner.headings(&paths).await.map_err(fs_error)?) })
    }

    /// The running command will read `paths` in this order: they load in bulk, a window at
    /// a time, not a request each (see `Filesystem::plan_page_reads`).
    #[wasm_bindgen(js_name = planReads)]
    pub fn plan_reads(&self, paths: Vec<String>) {
        self.inner.plan_page_reads(&paths);
    }

    /// The versions of the docs this session may choose among:
    /// `{ versions, default, scoped }` (see `Filesystem::versions`).
    pub fn versions(&self) -> Result<JsValue, JsValue> {
        plain(&self.inner.versions())
    }

    /// A command ends: `{ unreported: [{ path, cause }], total }`, the reads that failed
    /// while it ran and that no inner command has reported.
    #[wasm_bindgen(js_name = endCommand)]
    pub fn end_command(&self, mark: f64) -> Result<JsValue, JsValue> {
        plain(&self.inner.end_command(mark as u64))
    }

    /// From now on this session's commands draw on `other`'s budget: a command open on
    /// either is open on both and their requests count together (mounts shown as one shell).
    #[wasm_bindgen(js_name = shareBudget)]
    pub fn share_budget(&self, other: &ChromaFs) {
        self.inner.share_budget(&other.inner);
    }

    /// The host aborted the running command: nothing more is sent for it.
    #[wasm_bindgen(js_name = abortCommand)]
    pub fn abort_command(&self) {
        self.inner.abort_command();
    }

    /// The same session, searching with the embedder of `options` (`embed`, `embedModel`,
    /// as `connect` reads them) instead of its own: no request is sent.
    #[wasm_bindgen(js_name = withEmbed)]
    pub fn with_embed(&self, options: JsValue) -> Result<ChromaFs, JsValue> {
        Ok(ChromaFs { inner: self.inner.clone(), embedder: callback::embedder(&options)?.map(Rc::new) })
    }

    /// Tree-level facts: the collection id, the tree version, whether chunks are
    /// line-aligned, carry access and are read by id, and the tree record's metadata.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let tree = self.inner.tree();
        let o = Object::new();
        set(&o, "collectionId", tree.collection_id.as_str());
        set(&o, "treeVersion", tree.tree.revision.as_str());
        set(&o, "files", self.inner.listing().file_count() as f64);
        let unused: Array = self.inner.unused_groups().into_iter().map(JsValue::from).collect();
        set(&o, "unusedGroups", unused);
        set(&o, "lineAligned", tree.line_aligned());
        set(&o, "chunkAccess", tree.chunk_access());
        set(&o, "readById", tree.chunks.ids);
        set(&o, "searchesReadScope", !self.inner.coarse_query_allowed());
        let index = Object::new();
        match self.inner.grep_index() {
            Ok(_) => {
                set(&index, "used", true);
                set(&index, "why", JsValue::NULL);
            }
            Err(why) => {
                set(&index, "used", false);
                set(&index, "why", why);
            }
        }
        set(&o, "grepIndex", index);
        set(&o, "treeMetadata", plain(&tree.metadata)?);
        let embedding = match &tree.embedding {
            Some(e) => {
                let v = Object::new();
                set(&v, "model", e.model.as_str());
                set(&v, "dimension", e.dimension as f64);
                if let Some(method) = &e.method {
                    set(&v, "method", method.as_str());
                }
                v.into()
            }
            None => JsValue::NULL,
        };
        set(&o, "embedding", embedding);
        set(&o, "collectionEmbedding", recorded_function(tree.function.as_ref()));
        set(&o, "collectionDimension", tree.dimension.map_or(JsValue::NULL, |d| JsValue::from_f64(d as f64)));
        let broken = Array::new();
        for problem in self.inner.broken_pages() {
            broken.push(&JsValue::from_str(problem));
        }
        set(&o, "brokenPages", broken);
        Ok(o.into())
    }
}

/// The embedding function a collection records, as `fs.info().collectionEmbedding` shows it:
/// `{ name, model, apiBase, apiKeyEnvVar, dimensions, apiType, organizationId, url }` (null
/// where the record says nothing), or null.
#[cfg(feature = "read")]
fn recorded_function(f: Option<&crate::chroma::recorded::RecordedFunction>) -> JsValue {
    let Some(f) = f else { return JsValue::NULL };
    let o = Object::new();
    let text = |v: &Option<String>| v.as_deref().map_or(JsValue::NULL, JsValue::from_str);
    set(&o, "name", f.name.as_str());
    set(&o, "model", text(&f.model));
    set(&o, "apiBase", text(&f.api_base));
    set(&o, "apiKeyEnvVar", text(&f.api_key_env_var));
    set(&o, "dimensions", f.dimensions.map_or(JsValue::NULL, |d| JsValue::from_f64(d as f64)));
    set(&o, "apiType", text(&f.api_type));
    set(&o, "organizationId", text(&f.organization_id));
    set(&o, "url", text(&f.url));
    o.into()
}

/// What `connect` reads from the host's options.
#[cfg(feature = "read")]
type Setup = (Options, Rc<dyn Transport>, Option<Rc<callback::JsEmbedder>>);

#[cfg(feature = "read")]
impl ChromaFs {
    fn setup(o: &JsValue) -> Result<Setup, JsValue> {
        let embedder = callback::embedder(o)?;
        Ok((options(o)?, transport(o)?, embedder.map(Rc::new)))
    }

    async fn open(
        opts: Options,
        transport: Rc<dyn Transport>,
        embedder: Option<Rc<callback::JsEmbedder>>,
    ) -> Result<ChromaFs, JsValue> {
        let fs = Filesystem::connect(opts, transport, Date::now()).await.map_err(fs_error)?;
        Ok(ChromaFs { inner: Rc::new(fs), embedder })
    }

    /// `connect` for Rust callers: the session itself rather than a `Promise`.
    pub async fn connect_with(options_value: JsValue) -> Result<ChromaFs, JsValue> {
        let (opts, transport, embedder) = Self::setup(&options_value)?;
        Self::open(opts, transport, embedder).await
    }
}
