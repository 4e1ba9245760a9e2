//! Ranked search for JavaScript: the `search` command's answer, and `fs.search()`.

use super::convert::{get, invalid, plain, promise, set};
use super::ChromaFs;
use crate::base::embed::Embedder;
use crate::base::error::{Errno, FsError};
use crate::base::path;
use crate::base::sync::LocalFuture;
use crate::commands::Printed;
use crate::fs::Filesystem;
use crate::search::ranked::{self, command, Query, RankError};
use js_sys::{Array, Object, Promise};

use wasm_bindgen::prelude::*;

/// Runs one ranked search for a session (see [`ranked::recorded`]). Boxed, so the command
/// and `fs.search()` share one compiled search rather than each inlining it.
fn run<'a>(
    fs: &'a Filesystem,
    embedder: Option<&'a dyn Embedder>,
    q: &'a Query,
    args: &'a [String],
) -> LocalFuture<'a, Result<ranked::elsewhere::Found, RankError>> {
    Box::pin(ranked::recorded(fs, embedder, q, args))
}

/// A hit as `fs.search()` returns it: `{ path, startLine, endLine, score, snippet, title }`.
fn hit_object(h: &ranked::Hit) -> JsValue {
    let o = Object::new();
    let line = |l: Option<u64>| l.map_or(JsValue::NULL, |l| JsValue::from_f64(l as f64));
    set(&o, "path", h.path.as_str());
    set(&o, "startLine", line(h.lines.map(|l| l.0)));
    set(&o, "endLine", line(h.lines.map(|l| l.1)));
    set(&o, "score", command::rounded(h.score));
    set(&o, "snippet", h.snippet.as_ref().map_or(JsValue::NULL, |s| JsValue::from_str(&s.1)));
    set(&o, "title", h.title.as_deref().map_or(JsValue::NULL, JsValue::from_str));
    if let Some(v) = &h.version {
        set(&o, "version", v.as_str());
    }
    o.into()
}

#[wasm_bindgen]
impl ChromaFs {
    /// The `search` command: `{ stdout, stderr, exitCode }` for its arguments, and when
    /// the search ran, `blocks`: each hit as printed, best first, `hits`: each as
    /// `fs.search()` returns it, and `otherVersions` when it has them (see `search`).
    #[wasm_bindgen(js_name = searchCommand)]
    pub fn search_command(&self, args: Vec<String>, cwd: String) -> Promise {
        let (fs, embedder) = (self.inner.clone(), self.embedder.clone());
        promise(async move {
            let (printed, blocks) = match command::parse(&args, &path::normalize(&cwd)) {
                Err(usage) => (usage, None),
                Ok(command::Parsed::Help) => (Printed { stdout: command::HELP.into(), ..Printed::default() }, None),
                Ok(command::Parsed::Search { query, format }) => {
                    let e = embedder.as_deref().map(|e| e as &dyn Embedder);
                    match run(&fs, e, &query, &args).await {
                        Ok(found) => {
                            let blocks = command::blocks(&found.hits, format);
                            let printed = command::print_found(&blocks, query.version.as_deref(), &found.elsewhere);
                            (printed, Some((blocks, found)))
                        }
                        Err(e) => {
                            (Printed { stderr: format!("search: {e}\n"), exit_code: 2, ..Printed::default() }, None)
                        }
                    }
                }
            };
            let out = plain(&printed)?;
            if let Some((blocks, found)) = blocks {
                set(out.unchecked_ref(), "blocks", blocks.into_iter().map(JsValue::from).collect::<Array>());
                set(out.unchecked_ref(), "hits", found.hits.iter().map(hit_object).collect::<Array>());
                if !found.elsewhere.is_empty() {
                    set(
                        out.unchecked_ref(),
                        "otherVersions",
                        found.elsewhere.iter().map(hit_object).collect::<Array>(),
                    );
                }
            }
            Ok(out)
        })
    }

    /// `fs.search(query, { k, path, cwd, mode, lang, version })`: the best pages, as
    /// `[{ path, startLine, endLine, score, snippet, title, version? }]`, best first (none
    /// when no page answers the query); a search of one version that found none but whose
    /// question pages of other versions answer names them in the array's `otherVersions`.
    pub fn search(&self, query: String, options: JsValue) -> Promise {
        let (fs, embedder) = (self.inner.clone(), self.embedder.clone());
        let number = |key: &str| get(&options, key).and_then(|v| v.as_f64());
        let text = |key: &str| get(&options, key).and_then(|v| v.as_string());
        let options = command::Options {
            k: number("k"),
            cwd: text("cwd"),
            path: text("path"),
            mode: text("mode"),
            lang: text("lang"),
            version: text("version"),
        };
        let q = match command::query_of(query, options) {
            Ok(q) => q,
            Err(why) => return Promise::reject(&invalid(&why)),
        };
        promise(async move {
            let e = embedder.as_deref().map(|e| e as &dyn Embedder);
            match run(&fs, e, &q, std::slice::from_ref(&q.text)).await {
                Ok(found) => {
                    let hits = found.hits.iter().map(hit_object).collect::<Array>();
                    if !found.elsewhere.is_empty() {
                        let other = found.elsewhere.iter().map(hit_object).collect::<Array>();
                        set(hits.unchecked_ref(), "otherVersions", other);
                    }
                    Ok(hits.into())
                }
                Err(e) => {
                    let errno =
                        if matches!(e, RankError::Empty | RankError::Version(_)) { Errno::Einval } else { Errno::Eio };
                    Err(super::convert::fs_error(FsError {
                        cause: Some(e.to_string()),
                        ..FsError::new(errno, "search", &q.dir)
                    }))
                }
            }
        })
    }
}
