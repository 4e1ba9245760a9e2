//! `ingest()` for JavaScript hosts: the files and the embedding function come from the
//! host; everything else is read by [`crate::ingest::Settings`].

use super::callback::embedder;
use super::convert::{get, invalid, js_error, plain, promise, to_bytes, to_json};
use super::transport;
use crate::chroma::Client;
use crate::ingest::{self, DefaultEmbedder, Embedder, Settings, SourceFile, WriteOptions};
use crate::options::{self, Fields};
use js_sys::{Array, Promise};
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// An ingest ready to write.
struct Job {
    settings: Settings,
    plan: ingest::Plan,
    embedder: Box<dyn Embedder>,
    transport: std::rc::Rc<dyn crate::chroma::transport::Transport>,
}

fn files(o: &JsValue) -> Result<Vec<SourceFile>, JsValue> {
    let list = get(o, "files").filter(Array::is_array).ok_or_else(|| invalid("option files must be an array"))?;
    Array::from(&list)
        .iter()
        .map(|f| {
            let path = get(&f, "path").and_then(|p| p.as_string()).ok_or_else(|| invalid("every file needs a path"))?;
            let content = get(&f, "content")
                .and_then(|c| to_bytes(&c))
                .ok_or_else(|| invalid(format!("{path}: content must be a string or a Uint8Array")))?;
            let mtime = match get(&f, "mtime").map(|m| m.as_f64()) {
                None => None,
                Some(Some(m)) if m.is_finite() && m >= 0.0 => Some(m),
                Some(_) => return Err(invalid("option mtime must be a non-negative number")),
            };
            Ok(SourceFile { path, content, mtime })
        })
        .collect()
}

fn prepare(o: &JsValue) -> Result<Job, JsValue> {
    let mut json = to_json(o);
    // Access and version rules keep their order (the last match wins): they travel as JSON text.
    for (name, rules) in [("access", get(o, "access")), ("versions", get(o, "versions"))] {
        if let Some(rules) = rules.filter(|a| !a.is_string()) {
            let text = js_sys::JSON::stringify(&rules).map_err(|_| invalid(format!("option {name} must be JSON")))?;
            json[name] = Value::String(text.into());
        }
    }
    let settings = Settings::from_json(&json).map_err(invalid)?;
    let plan =
        ingest::plan(&files(o)?, &settings.rules, settings.chunk_bytes, &settings.schema.tree_id).map_err(invalid)?;
    let embedder: Box<dyn Embedder> = match embedder(o)? {
        Some(e) => Box::new(e),
        None => Box::new(DefaultEmbedder),
    };
    Ok(Job { settings, plan, embedder, transport: transport(o)? })
}

/// Writes a folder's pages (already read by the host) into a collection.
///
/// `options`: `{url, collection, files: [{path, content, mtime?}], access?, chunkBytes?,
/// embed?, plainTree?, leaseMs?, tenant?, database?, token?, headers?, slugField?,
/// chunkIndexField?, treeId?}`; resolves to a summary of what was written.
#[wasm_bindgen]
pub fn ingest(options_value: JsValue) -> Promise {
    let job = match prepare(&options_value) {
        Ok(job) => job,
        Err(e) => return Promise::reject(&e),
    };
    promise(async move {
        let Job { settings, plan, embedder, transport } = job;
        let client = Client::new(settings.client.clone(), transport);
        let opts = WriteOptions {
            collection: &settings.collection,
            schema: &settings.schema,
            plain_tree: settings.plain_tree,
            // Two runs started together tell their leases apart by it, not by the clock alone.
            lease: ingest::lease::Terms { ms: settings.lease_ms, entropy: (js_sys::Math::random() * 9.0e15) as u64 },
        };
        let summary = ingest::write(&client, &plan, &opts, &*embedder).await.map_err(|e| js_error("EIO", &e))?;
        plain(&summary)
    })
}

/// Annotates a collection written by another tool (see `chromafs annotate`).
///
/// `options`: `{url, collection, tenant?, database?, token?, headers?, fetch?, slugField?,
/// chunkIndexField?, treeId?, grepIndex?}`; resolves to `{collection, chunks, updated, orphans, readById,
/// grepIndex, requests}`. `grepIndex: true` also writes the grep index (see `chromafs annotate`).
#[wasm_bindgen]
pub fn annotate(options_value: JsValue) -> Promise {
    let prepared = (|| {
        let json = to_json(&options_value);
        let f = Fields::of(&json, "annotate").map_err(invalid)?;
        let collection = f.required("collection").map_err(invalid)?;
        let client = Client::new(options::client_config(&f).map_err(invalid)?, transport(&options_value)?);
        let grep_index = f.flag("grepIndex");
        Ok::<_, JsValue>((client, collection, options::schema(&f).map_err(invalid)?, grep_index))
    })();
    let (client, collection, schema, grep_index) = match prepared {
        Ok(x) => x,
        Err(e) => return Promise::reject(&e),
    };
    promise(async move {
        let summary = ingest::annotate::annotate(&client, &collection, &schema, grep_index)
            .await
            .map_err(|e| js_error("EIO", &e))?;
        plain(&summary)
    })
}
