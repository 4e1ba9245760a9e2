//! [`Transport`] over the host's `fetch`, with a timeout from `AbortController`.
//!
//! The global `fetch` exists in every runtime chromafs targets (Node ≥ 18, browsers,
//! workerd, Vercel's edge runtime); a host may also hand in its own `fetch` function
//! (a Workers service binding, an authenticating proxy). Errors keep their cause:
//! Node reports a refused connection as `fetch failed` with the reason in `cause`.
//!
//! A body is read as a stream, chunk by chunk, and never past the request's `body_limit`:
//! the moment it would, the reader is cancelled and the request aborted, so a server
//! answering a gigabyte costs at most the limit in memory. A response without a body
//! stream (an old runtime, a host's `fetch` returning a plain object) is read whole and
//! checked after, after refusing one whose `content-length` is already too long.

use crate::base::sync::LocalFuture;
use crate::chroma::transport::{HttpRequest, HttpResponse, Transport, TransportError};
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_name = fetch)]
    fn global_fetch(url: &str, init: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &Function, ms: i32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// A JS value's `message`, with `cause` (Node's `connect ECONNREFUSED …`) when there is one.
pub(super) fn describe_js_error(e: &JsValue) -> String {
    let get = |v: &JsValue, k: &str| {
        Reflect::get(v, &JsValue::from_str(k)).ok().filter(|x| !x.is_undefined() && !x.is_null())
    };
    let message = get(e, "message")
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into());
    match get(e, "cause") {
        Some(cause) => match get(&cause, "message").and_then(|m| m.as_string()).or_else(|| cause.as_string()) {
            Some(c) if !c.is_empty() && c != message => format!("{message} ({c})"),
            _ => message,
        },
        None => message,
    }
}

pub(super) fn sleep_ms(ms: u32) -> LocalFuture<'static, ()> {
    let promise = Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms.min(i32::MAX as u32) as i32);
    });
    Box::pin(async move {
        let _ = JsFuture::from(promise).await;
    })
}

/// Sends requests with `fetch` (the global one, or the host's).
#[derive(Clone, Default)]
pub(super) struct FetchTransport {
    fetch: Option<Function>,
    /// Network failures name their cause only in the host's console (the operator's log):
    /// a server's agents need not learn the addresses behind it.
    log_causes: bool,
}

/// What a message says of a network failure whose cause went to the log.
const LOGGED: &str = "the cause is in the server's log";

impl FetchTransport {
    pub(super) fn new(fetch: Option<Function>, log_causes: bool) -> Self {
        FetchTransport { fetch, log_causes }
    }

    fn start(&self, url: &str, init: &JsValue) -> Result<Promise, JsValue> {
        match &self.fetch {
            Some(f) => f.call2(&JsValue::UNDEFINED, &JsValue::from_str(url), init)?.dyn_into::<Promise>(),
            None => global_fetch(url, init),
        }
    }
}

async fn exchange(transport: FetchTransport, req: HttpRequest) -> Result<HttpResponse, TransportError> {
    let net = |e: JsValue| TransportError::Network(describe_js_error(&e));
    let controller = web_sys::AbortController::new().map_err(net)?;
    let init = Object::new();
    let headers = Object::new();
    for (k, v) in &req.headers {
        Reflect::set(&headers, &k.into(), &v.into()).map_err(net)?;
    }
    Reflect::set(&init, &"method".into(), &req.method.into()).map_err(net)?;
    Reflect::set(&init, &"headers".into(), &headers).map_err(net)?;
    if let Some(body) = &req.body {
        Reflect::set(&init, &"body".into(), &body.into()).map_err(net)?;
    }
    Reflect::set(&init, &"signal".into(), &controller.signal()).map_err(net)?;
    // Redirects are the caller's decision: credentials must not follow one elsewhere.
    Reflect::set(&init, &"redirect".into(), &"manual".into()).map_err(net)?;

    let timed_out = Rc::new(Cell::new(false));
    let on_timeout = {
        let (controller, timed_out) = (controller.clone(), timed_out.clone());
        Closure::once(move || {
            timed_out.set(true);
            controller.abort();
        })
    };
    let timer = set_timeout(on_timeout.as_ref().unchecked_ref(), req.timeout_ms.min(i32::MAX as u32) as i32);
    let result = async {
        let resp: web_sys::Response = JsFuture::from(transport.start(&req.url, &init)?).await?.dyn_into()?;
        // A browser reports a manual redirect as an "opaqueredirect" with status 0.
        let opaque =
            Reflect::get(&resp, &"type".into()).ok().and_then(|t| t.as_string()).as_deref() == Some("opaqueredirect");
        let status = if opaque { 0 } else { resp.status() };
        let header = |name: &str| resp.headers().get(name).ok().flatten();
        let retry_after = header("retry-after").as_deref().and_then(crate::chroma::transport::retry_after_seconds);
        let location = header("location");
        let body = read_body(&resp, req.body_limit).await?;
        Ok::<_, JsValue>(body.map(|body| HttpResponse { status, body, retry_after, location }))
    }
    .await;
    clear_timeout(&timer);
    drop(on_timeout);
    match result {
        Ok(Some(resp)) => Ok(resp),
        Ok(None) => {
            controller.abort();
            Err(TransportError::TooLarge { limit: req.body_limit })
        }
        Err(_) if timed_out.get() => Err(TransportError::Timeout),
        Err(e) if transport.log_causes => {
            let line = format!("chromafs: {} {}: {}", req.method, req.url, describe_js_error(&e));
            web_sys::console::error_1(&JsValue::from_str(&line));
            Err(TransportError::Network(LOGGED.into()))
        }
        Err(e) => Err(net(e)),
    }
}

fn method(target: &JsValue, name: &str) -> Result<Function, JsValue> {
    Reflect::get(target, &name.into())?.dyn_into::<Function>()
}

/// The body, or `None` when it is longer than `limit` (what was read is dropped).
async fn read_body(resp: &web_sys::Response, limit: u64) -> Result<Option<Vec<u8>>, JsValue> {
    let stream = Reflect::get(resp, &"body".into())?;
    if stream.is_null() || stream.is_undefined() {
        return read_whole(resp, limit).await;
    }
    let reader = method(&stream, "getReader")?.call0(&stream)?;
    let read = method(&reader, "read")?;
    let mut body = Vec::new();
    loop {
        // `Promise::resolve` and `ArrayBuffer.isView`, not `instanceof`: in an edge runtime
        // the stream's promises and chunks may come from another realm.
        let step = JsFuture::from(Promise::resolve(&read.call0(&reader)?)).await?;
        if Reflect::get(&step, &"done".into())?.is_truthy() {
            return Ok(Some(body));
        }
        let value = Reflect::get(&step, &"value".into())?;
        if !js_sys::ArrayBuffer::is_view(&value) {
            return Err(js_sys::Error::new("the response body stream gave something other than bytes").into());
        }
        let chunk: Uint8Array = value.unchecked_into();
        let (at, n) = (body.len(), chunk.length() as usize);
        if (at + n) as u64 > limit {
            // Stop the stream; the caller aborts the request. What was read goes with `body`.
            if let Ok(p) = method(&reader, "cancel").and_then(|c| c.call0(&reader)) {
                swallow(&p);
            }
            return Ok(None);
        }
        if body.capacity() < at + n {
            // Doubling, but never past the limit: a body near it takes no more than it.
            let cap = usize::try_from(limit).unwrap_or(usize::MAX);
            body.reserve_exact((2 * body.capacity()).max(at + n).min(cap) - at);
        }
        // Copied straight into the spare room: zeroing it first costs as much as the copy.
        chunk.copy_to_uninit(&mut body.spare_capacity_mut()[..n]);
        // SAFETY: the `n` bytes after `at` were just written by `copy_to_uninit`.
        unsafe { body.set_len(at + n) };
    }
}

/// A promise whose rejection nobody needs to hear about (an unhandled one ends a Node
/// process). Only on the error path: the handler's few bytes stay if it is never called.
fn swallow(promise: &JsValue) {
    let ignore: JsValue = Closure::once_into_js(|_: JsValue| {});
    if let Ok(catch) = method(promise, "catch") {
        let _ = catch.call1(promise, &ignore);
    }
}

/// A body read in one piece, for a response that has no stream.
async fn read_whole(resp: &web_sys::Response, limit: u64) -> Result<Option<Vec<u8>>, JsValue> {
    let declared = resp.headers().get("content-length").ok().flatten().and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Ok(None);
    }
    let buf = JsFuture::from(resp.array_buffer()?).await?;
    let bytes = Uint8Array::new(&buf);
    if bytes.length() as u64 > limit {
        return Ok(None);
    }
    Ok(Some(bytes.to_vec()))
}

impl Transport for FetchTransport {
    fn send(&self, req: HttpRequest) -> LocalFuture<'static, Result<HttpResponse, TransportError>> {
        Box::pin(exchange(self.clone(), req))
    }

    fn sleep(&self, ms: u32) -> LocalFuture<'static, ()> {
        sleep_ms(ms)
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }
}
