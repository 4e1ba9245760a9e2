//! Host functions called from Rust: lazy-file loaders, a shared cache, an embedder.
//!
//! Each is a JavaScript function that may return a value or a promise; [`call`] calls
//! it, awaits the result and turns a throw or a rejection into a message. A host's value
//! is read only through operations that catch what it throws (a getter that throws, a
//! Proxy, a `then` that is not a function): an exception must never pass through the
//! module, which would leave it unusable. What a host function says when it fails is its
//! text, shown as server text is: one short line, control characters escaped.

#[cfg(feature = "write")]
use super::convert::to_json;
use super::convert::{get, invalid, to_bytes};
use crate::base::sync::LocalFuture;
use crate::chroma::redact::excerpt;
use crate::ingest::Embedder;
use crate::js::fetch::describe_js_error;
use crate::pages::store::lazy::{LazySource, Provider};
use crate::pages::store::shared::SharedCache;
use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Calls `f` with `this` and `args`, and awaits what it returns. The value is settled
/// through `Promise.all`, which turns a `then` or `constructor` getter that throws into a
/// rejection where `Promise.resolve` would throw.
pub(super) async fn call(f: &Function, this: &JsValue, args: &[JsValue]) -> Result<JsValue, String> {
    let failed = |e: JsValue| excerpt(&describe_js_error(&e));
    let args: Array = args.iter().collect();
    let value = f.apply(this, &args).map_err(failed)?;
    let settled = JsFuture::from(Promise::all(&Array::of1(&value))).await.map_err(failed)?;
    Reflect::get_u32(&settled, 0).map_err(failed)
}

/// A lazy file whose bytes come from a host function.
pub(super) fn provider(f: Function) -> LazySource {
    let load: Provider = Rc::new(move || -> LocalFuture<'static, Result<Vec<u8>, String>> {
        let f = f.clone();
        Box::pin(async move {
            let value = call(&f, &JsValue::UNDEFINED, &[]).await?;
            to_bytes(&value).ok_or_else(|| "the lazy file provider must return a string or a Uint8Array".to_string())
        })
    });
    LazySource::Provider(load)
}

/// A host's shared cache: any object with `get(key)` and `set(key, bytes)`.
struct JsSharedCache {
    target: JsValue,
    get: Function,
    set: Function,
}

impl SharedCache for JsSharedCache {
    fn get(&self, key: String) -> LocalFuture<'static, Result<Option<Vec<u8>>, String>> {
        let (target, get) = (self.target.clone(), self.get.clone());
        Box::pin(async move {
            let v = call(&get, &target, &[JsValue::from_str(&key)]).await?;
            if v.is_null() || v.is_undefined() {
                return Ok(None);
            }
            to_bytes(&v).map(Some).ok_or_else(|| "the shared cache returned neither bytes nor a string".to_string())
        })
    }

    fn set(&self, key: String, value: Rc<[u8]>) -> LocalFuture<'static, Result<(), String>> {
        let (target, set) = (self.target.clone(), self.set.clone());
        Box::pin(async move {
            call(&set, &target, &[JsValue::from_str(&key), Uint8Array::from(&value[..]).into()]).await.map(drop)
        })
    }
}

/// The `sharedCache` option, if given.
pub(super) fn shared_cache(o: &JsValue) -> Result<Option<Rc<dyn SharedCache>>, JsValue> {
    let Some(c) = get(o, "sharedCache") else { return Ok(None) };
    let method = |name: &str| get(&c, name).and_then(|f| f.dyn_into::<Function>().ok());
    match (method("get"), method("set")) {
        (Some(get), Some(set)) => Ok(Some(Rc::new(JsSharedCache { target: c, get, set }))),
        _ => Err(invalid("option sharedCache must have get(key) and set(key, value) methods")),
    }
}

/// An embedding function: `(texts: string[]) => number[][]` (or a promise of it), called
/// on `this` (an embedder object), with the model's name and method when the host gives
/// them.
pub(super) struct JsEmbedder {
    f: Function,
    /// The object's `embedQuery`, for questions, when it has one.
    query: Option<Function>,
    this: JsValue,
    model: Option<String>,
    method: Option<String>,
    /// The object's `concurrency`: calls of `embed` it takes at once.
    concurrency: usize,
    /// The object's `chromaFunction`, as JSON.
    chroma: Option<serde_json::Value>,
}

/// The `embed` option: a function, or an object with an `embed` method, a `model` name
/// and perhaps a `method` and an `embedQuery` method (as `chromafs/embed`'s
/// `createEmbedder()` returns); `embedModel` names the model of a bare function.
pub(super) fn embedder(o: &JsValue) -> Result<Option<JsEmbedder>, JsValue> {
    let Some(value) = get(o, "embed") else { return Ok(None) };
    let named = get(o, "embedModel").and_then(|m| m.as_string());
    if let Some(f) = value.dyn_ref::<Function>() {
        return Ok(Some(JsEmbedder {
            f: f.clone(),
            query: None,
            this: JsValue::UNDEFINED,
            model: named,
            method: None,
            concurrency: 1,
            chroma: None,
        }));
    }
    match get(&value, "embed").and_then(|f| f.dyn_into::<Function>().ok()) {
        Some(f) => {
            let model = named.or_else(|| get(&value, "model").and_then(|m| m.as_string()));
            let method = get(&value, "method").and_then(|m| m.as_string());
            let query = get(&value, "embedQuery").and_then(|f| f.dyn_into::<Function>().ok());
            let (concurrency, chroma) = for_ingest(&value);
            Ok(Some(JsEmbedder { f, query, this: value, model, method, concurrency, chroma }))
        }
        None => Err(invalid("option embed must be a function or an object with an embed method")),
    }
}

impl JsEmbedder {
    async fn run(&self, f: &Function, texts: Vec<String>) -> Result<Vec<Vec<f32>>, String> {
        let arg: Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
        let value = call(f, &self.this, &[arg.into()]).await?;
        embeddings(&value, texts.len())
    }
}

impl Embedder for JsEmbedder {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(self.run(&self.f, texts))
    }

    fn embed_query(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(self.run(self.query.as_ref().unwrap_or(&self.f), texts))
    }

    fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    fn method(&self) -> Option<&str> {
        self.method.as_deref()
    }

    fn concurrency(&self) -> usize {
        self.concurrency
    }

    fn chroma_function(&self) -> Option<&serde_json::Value> {
        self.chroma.as_ref()
    }
}

/// The most calls of `embed` an ingest has in flight, whatever the embedder says.
#[cfg(feature = "write")]
const MAX_CONCURRENCY: f64 = 64.0;

/// What only an ingest reads of an embedder object: its `concurrency`, and its
/// `chromaFunction` when it is one as Chroma's clients record it (`{ name, config: {…} }`).
/// The filesystem's module has no ingest, and reads neither.
#[cfg(feature = "write")]
fn for_ingest(value: &JsValue) -> (usize, Option<serde_json::Value>) {
    let concurrency = get(value, "concurrency")
        .and_then(|n| n.as_f64())
        .filter(|n| n.is_finite() && *n >= 1.0)
        .map_or(1, |n| n.min(MAX_CONCURRENCY) as usize);
    let chroma = get(value, "chromaFunction").map(|v| to_json(&v)).filter(|v| {
        v.get("name").and_then(serde_json::Value::as_str).is_some_and(|n| !n.is_empty())
            && v.get("config").is_some_and(serde_json::Value::is_object)
    });
    (concurrency, chroma)
}

#[cfg(not(feature = "write"))]
fn for_ingest(_: &JsValue) -> (usize, Option<serde_json::Value>) {
    (1, None)
}

/// The most numbers one embedding may have (the largest models have a few thousand).
const MAX_DIMENSION: u32 = 65_536;

/// `number[][]` (or an array of typed arrays), at most one vector for each of `expected`
/// texts (the caller checks the count). Read element by element with `Reflect.get`, which
/// catches what a getter or a Proxy throws, and bounded before anything is read (a
/// `length` of a billion is refused).
fn embeddings(value: &JsValue, expected: usize) -> Result<Vec<Vec<f32>>, String> {
    let shape = || "embeddings must be arrays of numbers".to_string();
    let length = |v: &JsValue| -> Result<u32, String> {
        let n = Reflect::get(v, &JsValue::from_str("length")).map_err(|e| excerpt(&describe_js_error(&e)))?;
        n.as_f64()
            .filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n <= u32::MAX as f64)
            .map(|n| n as u32)
            .ok_or_else(shape)
    };
    let count = if value.is_object() { length(value)? } else { return Err(shape()) };
    if count as usize > expected {
        return Err(format!("the embedding function returned {count} vectors for {expected} texts"));
    }
    let at = |v: &JsValue, i: u32| Reflect::get_u32(v, i).map_err(|e| excerpt(&describe_js_error(&e)));
    (0..count)
        .map(|i| {
            let v = at(value, i)?;
            // A Float32Array (what chromafs's embedders return) is copied whole: an ingest
            // reads thousands of vectors (a search reads one, and does without).
            #[cfg(feature = "write")]
            if let Some(f) = v.dyn_ref::<js_sys::Float32Array>() {
                if f.length() > MAX_DIMENSION {
                    return Err(format!("an embedding has {} numbers, more than {MAX_DIMENSION}", f.length()));
                }
                return Ok(f.to_vec());
            }
            let n = if v.is_object() { length(&v)? } else { return Err(shape()) };
            if n > MAX_DIMENSION {
                return Err(format!("an embedding has {n} numbers, more than {MAX_DIMENSION}"));
            }
            (0..n).map(|j| at(&v, j)?.as_f64().map(|x| x as f32).ok_or_else(shape)).collect()
        })
        .collect()
}
