//! The JavaScript boundary: `ChromaFs` (just-bash's `IFileSystem`) and `ingest`.
//!
//! Only conversions live here — options in, `Error`s with a `code`, `Date`s, plain
//! objects and `Uint8Array`s out. Async methods return a `Promise` over a clone of the
//! shared state, so just-bash may call them concurrently (grep reads 50 files at once).

use crate::cache::SharedCache;
use crate::chroma::{Client, ClientConfig, LocalFuture, Transport};
use crate::error::{Errno, FsError};
use crate::fetch::{describe_js_error, FetchTransport};
use crate::fs::{self, Filesystem, Options, StatInfo, DEV_NULL};
use crate::ingest::{self, DefaultEmbedder, Embedder, SourceFile, WriteOptions};
use crate::lazy::LazySource;
use crate::path;
use serde::Serialize;
use js_sys::{Array, Date, Function, Object, Promise, Reflect, Uint8Array};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

fn js_error(code: &str, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    set(&e, "code", code);
    e.into()
}

fn fs_error(e: FsError) -> JsValue {
    let err = js_error(e.code(), &e.to_string());
    let obj: &Object = err.unchecked_ref();
    set(obj, "syscall", e.syscall);
    set(obj, "path", e.path.as_str());
    err
}

fn invalid(message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    set(&e, "code", "EINVAL");
    e.into()
}

fn get(obj: &JsValue, key: &str) -> Option<JsValue> {
    if !obj.is_object() {
        return None;
    }
    Reflect::get(obj, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

fn get_string(obj: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    match get(obj, key) {
        None => Ok(None),
        Some(v) => v.as_string().map(Some).ok_or_else(|| invalid(&format!("option {key} must be a string"))),
    }
}

fn get_number(obj: &JsValue, key: &str) -> Result<Option<f64>, JsValue> {
    match get(obj, key) {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
            _ => Err(invalid(&format!("option {key} must be a non-negative number"))),
        },
    }
}

fn get_strings(obj: &JsValue, key: &str) -> Result<Vec<String>, JsValue> {
    match get(obj, key) {
        None => Ok(Vec::new()),
        Some(v) if Array::is_array(&v) => Array::from(&v)
            .iter()
            .map(|g| g.as_string())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| invalid(&format!("option {key} must be an array of strings"))),
        Some(_) => Err(invalid(&format!("option {key} must be an array of strings"))),
    }
}

fn entries(obj: &JsValue) -> Vec<(String, JsValue)> {
    let Some(obj) = obj.dyn_ref::<Object>() else { return Vec::new() };
    Object::entries(obj)
        .iter()
        .filter_map(|pair| {
            let pair = Array::from(&pair);
            Some((pair.get(0).as_string()?, pair.get(1)))
        })
        .collect()
}

/// Bytes from a string (UTF-8) or any ArrayBuffer view.
fn to_bytes(v: &JsValue) -> Option<Vec<u8>> {
    if let Some(s) = v.as_string() {
        return Some(s.into_bytes());
    }
    if v.is_instance_of::<Uint8Array>() {
        return Some(Uint8Array::from(v.clone()).to_vec());
    }
    if let Some(buf) = v.dyn_ref::<js_sys::ArrayBuffer>() {
        return Some(Uint8Array::new(buf).to_vec());
    }
    None
}

fn client_config(o: &JsValue) -> Result<ClientConfig, JsValue> {
    let url = get_string(o, "url")?.ok_or_else(|| invalid("option url is required"))?;
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(invalid(&format!("option url must be an absolute http(s) URL, got {url:?}")));
    }
    let mut c = ClientConfig::new(&url);
    if let Some(t) = get_string(o, "tenant")? {
        c.tenant = t;
    }
    if let Some(d) = get_string(o, "database")? {
        c.database = d;
    }
    if let Some(t) = get_string(o, "token")? {
        c.headers.push(("x-chroma-token".into(), t));
    }
    if let Some(h) = get(o, "headers") {
        for (k, v) in entries(&h) {
            let v = v.as_string().ok_or_else(|| invalid(&format!("header {k} must be a string")))?;
            c.headers.push((k, v));
        }
    }
    if let Some(t) = get_number(o, "timeoutMs")? {
        c.timeout_ms = t.clamp(1.0, 600_000.0) as u32;
    }
    if let Some(n) = get_number(o, "maxConcurrency")? {
        c.max_concurrency = (n as usize).max(1);
    }
    if let Some(n) = get_number(o, "retries")? {
        c.retries = (n as u32).min(10);
    }
    Ok(c)
}

fn transport(o: &JsValue) -> Result<Rc<dyn Transport>, JsValue> {
    let fetch = match get(o, "fetch") {
        None => None,
        Some(f) => Some(f.dyn_into::<Function>().map_err(|_| invalid("option fetch must be a function"))?),
    };
    Ok(Rc::new(FetchTransport::new(fetch)))
}

fn provider(f: Function) -> LazySource {
    LazySource::Provider(Rc::new(move || -> LocalFuture<'static, Result<Vec<u8>, String>> {
        let f = f.clone();
        Box::pin(async move {
            let value = f.call0(&JsValue::UNDEFINED).map_err(|e| describe_js_error(&e))?;
            let value = JsFuture::from(Promise::resolve(&value)).await.map_err(|e| describe_js_error(&e))?;
            to_bytes(&value).ok_or_else(|| "the lazy file provider must return a string or a Uint8Array".to_string())
        })
    }))
}

/// A host's shared cache: any object with `get(key)` and `set(key, bytes)` (either may
/// return a promise); see `redisCache` and `workersCache` in the package.
struct JsSharedCache {
    target: JsValue,
    get: Function,
    set: Function,
}

impl SharedCache for JsSharedCache {
    fn get(&self, key: String) -> LocalFuture<'static, Result<Option<Vec<u8>>, String>> {
        let (target, get) = (self.target.clone(), self.get.clone());
        Box::pin(async move {
            let v = get.call1(&target, &JsValue::from_str(&key)).map_err(|e| describe_js_error(&e))?;
            let v = JsFuture::from(Promise::resolve(&v)).await.map_err(|e| describe_js_error(&e))?;
            if v.is_null() || v.is_undefined() {
                return Ok(None);
            }
            to_bytes(&v).map(Some).ok_or_else(|| "the shared cache returned neither bytes nor a string".to_string())
        })
    }

    fn set(&self, key: String, value: Rc<[u8]>) -> LocalFuture<'static, Result<(), String>> {
        let (target, set) = (self.target.clone(), self.set.clone());
        Box::pin(async move {
            let bytes = Uint8Array::from(&value[..]);
            let v = set.call2(&target, &JsValue::from_str(&key), &bytes).map_err(|e| describe_js_error(&e))?;
            JsFuture::from(Promise::resolve(&v)).await.map_err(|e| describe_js_error(&e))?;
            Ok(())
        })
    }
}

fn shared_cache(o: &JsValue) -> Result<Option<Rc<dyn SharedCache>>, JsValue> {
    let Some(c) = get(o, "sharedCache") else { return Ok(None) };
    let method = |name: &str| get(&c, name).and_then(|f| f.dyn_into::<Function>().ok());
    match (method("get"), method("set")) {
        (Some(get), Some(set)) => Ok(Some(Rc::new(JsSharedCache { target: c, get, set }))),
        _ => Err(invalid("option sharedCache must have get(key) and set(key, value) methods")),
    }
}

fn options(o: &JsValue) -> Result<Options, JsValue> {
    if !o.is_object() {
        return Err(invalid("ChromaFs.connect expects an options object"));
    }
    let collection = get_string(o, "collection")?.ok_or_else(|| invalid("option collection is required"))?;
    let mut opts = Options::new("http://unused", &collection);
    opts.client = client_config(o)?;
    opts.groups = get_strings(o, "groups")?;
    if let Some(s) = get_string(o, "slugField")? {
        opts.slug_field = s;
    }
    if let Some(s) = get_string(o, "chunkIndexField")? {
        opts.chunk_index_field = s;
    }
    if let Some(s) = get_string(o, "treeId")? {
        opts.tree_id = s;
    }
    opts.extension = get_string(o, "extension")?.filter(|e| !e.is_empty());
    if let Some(n) = get_number(o, "cacheBytes")? {
        opts.cache_bytes = n.min(usize::MAX as f64) as usize;
    }
    opts.tree_max_age_ms = get_number(o, "treeMaxAgeMs")?;
    opts.shared_cache = shared_cache(o)?;
    if let Some(lazy) = get(o, "lazyFiles") {
        for (p, v) in entries(&lazy) {
            if !p.starts_with('/') || p.contains('\0') || path::normalize(&p) == "/" {
                return Err(invalid(&format!("lazyFiles key {p:?} must be an absolute file path")));
            }
            let source = match (v.as_string(), v.dyn_into::<Function>()) {
                (Some(url), _) => LazySource::Url(url),
                (None, Ok(f)) => provider(f),
                _ => return Err(invalid(&format!("lazyFiles[{p:?}] must be a URL or a function"))),
            };
            opts.lazy_files.push((p, source));
        }
    }
    Ok(opts)
}

fn stat_object(s: &StatInfo) -> JsValue {
    let o = Object::new();
    set(&o, "isFile", s.is_file);
    set(&o, "isDirectory", s.is_dir);
    set(&o, "isSymbolicLink", false);
    set(&o, "mode", s.mode);
    set(&o, "size", s.size as f64);
    set(&o, "mtime", Date::new(&JsValue::from_f64(s.mtime_ms)));
    set(&o, "dev", 1);
    set(&o, "ino", s.ino as f64);
    o.into()
}

fn path_arg(v: &JsValue) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| invalid("path must be a string"))
}

fn rejected(e: JsValue) -> Promise {
    Promise::reject(&e)
}

/// A read-only just-bash filesystem over a Chroma collection.
#[wasm_bindgen]
pub struct ChromaFs {
    inner: Rc<Filesystem>,
}

#[wasm_bindgen]
impl ChromaFs {
    /// Opens a session (resolves `Promise<ChromaFs>`).
    pub fn connect(options_value: JsValue) -> Promise {
        let setup = options(&options_value).and_then(|o| Ok((o, transport(&options_value)?)));
        let (opts, transport) = match setup {
            Ok(x) => x,
            Err(e) => return rejected(e),
        };
        future_to_promise(async move { Ok(Self::open(opts, transport).await?.into()) })
    }

    /// Forgets the path trees this process has cached, so the next `connect` reloads.
    #[wasm_bindgen(js_name = forgetTrees)]
    pub fn forget_trees() {
        fs::forget_trees();
    }

    fn run<F>(&self, f: impl FnOnce(Rc<Filesystem>) -> F) -> Promise
    where
        F: std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
    {
        future_to_promise(f(self.inner.clone()))
    }

    #[wasm_bindgen(js_name = readFile)]
    pub fn read_file(&self, path: JsValue, options: JsValue) -> Promise {
        let p = match path_arg(&path) {
            Ok(p) => p,
            Err(e) => return rejected(e),
        };
        let encoding = options.as_string().or_else(|| get(&options, "encoding").and_then(|e| e.as_string()));
        self.run(|fs| async move {
            let bytes = fs.read(&p).await.map_err(fs_error)?;
            Ok(fs::decode(&bytes, encoding.as_deref()).into())
        })
    }

    #[wasm_bindgen(js_name = readFileBuffer)]
    pub fn read_file_buffer(&self, path: JsValue) -> Promise {
        let p = match path_arg(&path) {
            Ok(p) => p,
            Err(e) => return rejected(e),
        };
        self.run(|fs| async move {
            let bytes = fs.read(&p).await.map_err(fs_error)?;
            Ok(Uint8Array::from(&bytes[..]).into())
        })
    }

    /// The file as a latin1 "byte string" (one char per byte).
    #[wasm_bindgen(js_name = readFileBytes)]
    pub fn read_file_bytes(&self, path: JsValue) -> Promise {
        let p = match path_arg(&path) {
            Ok(p) => p,
            Err(e) => return rejected(e),
        };
        self.run(|fs| async move {
            let bytes = fs.read(&p).await.map_err(fs_error)?;
            Ok(fs::decode(&bytes, Some("latin1")).into())
        })
    }

    pub fn exists(&self, path: JsValue) -> Promise {
        let found = path.as_string().is_some_and(|p| self.inner.exists(&p));
        Promise::resolve(&JsValue::from_bool(found))
    }

    pub fn stat(&self, path: JsValue) -> Promise {
        self.stat_as(path, "stat")
    }

    /// No symlinks exist, so `lstat` is `stat`.
    pub fn lstat(&self, path: JsValue) -> Promise {
        self.stat_as(path, "lstat")
    }

    fn stat_as(&self, path: JsValue, syscall: &'static str) -> Promise {
        let p = match path_arg(&path) {
            Ok(p) => p,
            Err(e) => return rejected(e),
        };
        self.run(|fs| async move { Ok(stat_object(&fs.stat(&p, syscall).await.map_err(fs_error)?)) })
    }

    pub fn readdir(&self, path: JsValue) -> Promise {
        let result = path_arg(&path).and_then(|p| {
            let children = self.inner.readdir(&p).map_err(fs_error)?;
            Ok(children.iter().map(|(n, _)| JsValue::from_str(n)).collect::<Array>().into())
        });
        result.map_or_else(|e| Promise::reject(&e), |v: JsValue| Promise::resolve(&v))
    }

    #[wasm_bindgen(js_name = readdirWithFileTypes)]
    pub fn readdir_with_file_types(&self, path: JsValue) -> Promise {
        let result = path_arg(&path).and_then(|p| {
            let children = self.inner.readdir(&p).map_err(fs_error)?;
            let out = Array::new();
            for (name, is_dir) in children {
                let d = Object::new();
                set(&d, "name", name.as_str());
                set(&d, "isFile", !is_dir);
                set(&d, "isDirectory", *is_dir);
                set(&d, "isSymbolicLink", false);
                out.push(&d);
            }
            Ok(out.into())
        });
        result.map_or_else(|e| Promise::reject(&e), |v: JsValue| Promise::resolve(&v))
    }

    pub fn realpath(&self, path: JsValue) -> Promise {
        let result = path_arg(&path).and_then(|p| self.inner.realpath(&p).map(JsValue::from).map_err(fs_error));
        result.map_or_else(|e| Promise::reject(&e), |v| Promise::resolve(&v))
    }

    pub fn readlink(&self, path: JsValue) -> Promise {
        let result = path_arg(&path).and_then(|p| self.inner.readlink(&p).map(JsValue::from).map_err(fs_error));
        result.map_or_else(|e| Promise::reject(&e), |v| Promise::resolve(&v))
    }

    /// Synchronous, as just-bash requires.
    #[wasm_bindgen(js_name = resolvePath)]
    pub fn resolve_path(&self, base: String, path: String) -> String {
        path::resolve(&base, &path)
    }

    /// Every visible path (files and directories), for `ls 'quoted*glob'`.
    #[wasm_bindgen(js_name = getAllPaths)]
    pub fn get_all_paths(&self) -> Vec<String> {
        self.inner.listing().all_paths()
    }

    fn read_only(&self, op: &'static str, path: &JsValue) -> Promise {
        let p = path.as_string().unwrap_or_default();
        rejected(fs_error(FsError::new(Errno::Erofs, op, &p)))
    }

    fn dev_null_or_read_only(&self, op: &'static str, path: &JsValue) -> Promise {
        match path.as_string() {
            Some(p) if !p.contains('\0') && path::normalize(&p) == DEV_NULL => Promise::resolve(&JsValue::UNDEFINED),
            _ => self.read_only(op, path),
        }
    }

    /// Read-only: only `/dev/null` accepts (and discards) writes.
    #[wasm_bindgen(js_name = writeFile)]
    pub fn write_file(&self, path: JsValue, _content: JsValue, _options: JsValue) -> Promise {
        self.dev_null_or_read_only("write", &path)
    }

    #[wasm_bindgen(js_name = appendFile)]
    pub fn append_file(&self, path: JsValue, _content: JsValue, _options: JsValue) -> Promise {
        self.dev_null_or_read_only("append", &path)
    }

    pub fn mkdir(&self, path: JsValue, _options: JsValue) -> Promise {
        self.read_only("mkdir", &path)
    }

    pub fn rm(&self, path: JsValue, _options: JsValue) -> Promise {
        self.read_only("rm", &path)
    }

    pub fn cp(&self, _src: JsValue, dest: JsValue, _options: JsValue) -> Promise {
        self.read_only("cp", &dest)
    }

    pub fn mv(&self, _src: JsValue, dest: JsValue) -> Promise {
        self.read_only("mv", &dest)
    }

    pub fn chmod(&self, path: JsValue, _mode: JsValue) -> Promise {
        self.read_only("chmod", &path)
    }

    pub fn symlink(&self, _target: JsValue, link_path: JsValue) -> Promise {
        self.read_only("symlink", &link_path)
    }

    pub fn link(&self, _existing: JsValue, new_path: JsValue) -> Promise {
        self.read_only("link", &new_path)
    }

    pub fn utimes(&self, path: JsValue, _atime: JsValue, _mtime: JsValue) -> Promise {
        self.read_only("utimes", &path)
    }

    /// Counters since `connect`: requests, bytesReceived, cacheHits, cacheMisses, …, and
    /// per search command what it cost (`commands`).
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        self.inner.stats().serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| invalid(&e.to_string()))
    }

    /// Prepares a `grep`/`egrep`/`fgrep`/`rg` command line (see `commands()`): narrows
    /// its file operands with Chroma and loads the pages it will read. Resolves to the
    /// arguments to run the original command with.
    #[wasm_bindgen(js_name = planSearch)]
    pub fn plan_search(&self, name: String, args: Vec<String>, cwd: String, stdin_empty: Option<bool>) -> Promise {
        self.run(|fs| async move {
            let run = fs.search(&name, args, &cwd, stdin_empty.unwrap_or(true)).await;
            Ok(run.into_iter().map(JsValue::from).collect::<Array>().into())
        })
    }

    /// Tree-level facts: the collection id, the tree version and the tree record's metadata.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let shared = self.inner.shared();
        let o = Object::new();
        set(&o, "collectionId", shared.collection_id.as_str());
        set(&o, "treeVersion", shared.tree.version.as_str());
        set(&o, "files", self.inner.listing().file_count() as f64);
        let meta = shared.metadata.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| invalid(&e.to_string()))?;
        set(&o, "treeMetadata", meta);
        Ok(o.into())
    }
}

impl ChromaFs {
    async fn open(opts: Options, transport: Rc<dyn Transport>) -> Result<ChromaFs, JsValue> {
        let fs = Filesystem::connect(opts, transport, Date::now()).await.map_err(fs_error)?;
        Ok(ChromaFs { inner: Rc::new(fs) })
    }

    /// `connect` for Rust callers: the session itself rather than a `Promise`.
    pub async fn connect_with(options_value: JsValue) -> Result<ChromaFs, JsValue> {
        let opts = options(&options_value)?;
        Self::open(opts, transport(&options_value)?).await
    }
}

struct JsEmbedder(Function);

impl Embedder for JsEmbedder {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(async move {
            let arg: Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
            let value = self.0.call1(&JsValue::UNDEFINED, &arg).map_err(|e| describe_js_error(&e))?;
            let value = JsFuture::from(Promise::resolve(&value)).await.map_err(|e| describe_js_error(&e))?;
            serde_wasm_bindgen::from_value(value).map_err(|e| format!("embeddings must be arrays of numbers: {e}"))
        })
    }
}

/// Writes a folder's pages (already read by the host) into a collection.
///
/// `options`: `{url, collection, files: [{path, content, mtime?}], access?, chunkBytes?,
/// embed?, plainTree?, tenant?, database?, token?, headers?, slugField?, chunkIndexField?,
/// treeId?}`; resolves to a summary of what was written.
#[wasm_bindgen]
pub fn ingest(options_value: JsValue) -> Promise {
    let prepared = (|| -> Result<_, JsValue> {
        let o = &options_value;
        let cfg = client_config(o)?;
        let collection = get_string(o, "collection")?.ok_or_else(|| invalid("option collection is required"))?;
        let files_value = get(o, "files").filter(Array::is_array).ok_or_else(|| invalid("option files must be an array"))?;
        let mut files = Vec::new();
        for f in Array::from(&files_value).iter() {
            let path = get_string(&f, "path")?.ok_or_else(|| invalid("every file needs a path"))?;
            let content = get(&f, "content")
                .and_then(|c| to_bytes(&c))
                .ok_or_else(|| invalid(&format!("{path}: content must be a string or a Uint8Array")))?;
            files.push(SourceFile { path, content, mtime: get_number(&f, "mtime")? });
        }
        let rules = match get(o, "access") {
            None => Vec::new(),
            Some(v) if v.is_string() => ingest::parse_access_rules(&v.as_string().unwrap()).map_err(|e| invalid(&e))?,
            Some(v) => {
                let json = js_sys::JSON::stringify(&v).map_err(|_| invalid("option access must be JSON"))?;
                ingest::parse_access_rules(&String::from(json)).map_err(|e| invalid(&e))?
            }
        };
        let chunk_bytes = get_number(o, "chunkBytes")?.map_or(ingest::DEFAULT_CHUNK_BYTES, |n| n as usize);
        let tree_id = get_string(o, "treeId")?.unwrap_or_else(|| "__path_tree__".into());
        let slug_field = get_string(o, "slugField")?.unwrap_or_else(|| "page_slug".into());
        let chunk_index_field = get_string(o, "chunkIndexField")?.unwrap_or_else(|| "chunk_index".into());
        let plain_tree = get(o, "plainTree").is_some_and(|v| v.is_truthy());
        let embedder: Box<dyn Embedder> = match get(o, "embed") {
            None => Box::new(DefaultEmbedder),
            Some(f) => Box::new(JsEmbedder(f.dyn_into().map_err(|_| invalid("option embed must be a function"))?)),
        };
        let plan = ingest::plan(&files, &rules, chunk_bytes, &tree_id).map_err(|e| invalid(&e))?;
        Ok((cfg, transport(o)?, collection, plan, tree_id, slug_field, chunk_index_field, plain_tree, embedder))
    })();
    let (cfg, transport, collection, plan, tree_id, slug_field, chunk_index_field, plain_tree, embedder) = match prepared {
        Ok(x) => x,
        Err(e) => return rejected(e),
    };
    future_to_promise(async move {
        let client = Client::new(cfg, transport);
        let opts = WriteOptions { collection: &collection, tree_id: &tree_id, slug_field: &slug_field, chunk_index_field: &chunk_index_field, plain_tree };
        let summary = ingest::write(&client, &plan, &opts, &*embedder).await.map_err(|e| js_error("EIO", &e))?;
        serde_wasm_bindgen::to_value(&summary).map_err(|e| invalid(&e.to_string()))
    })
}
