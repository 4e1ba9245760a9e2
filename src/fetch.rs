//! [`Transport`] over the host's `fetch`, with a timeout from `AbortController`.
//!
//! The global `fetch` exists in every runtime chromafs targets (Node ≥ 18, browsers,
//! workerd, Vercel's edge runtime); a host may also hand in its own `fetch` function
//! (a Workers service binding, an authenticating proxy). Errors keep their cause:
//! Node reports a refused connection as `fetch failed` with the reason in `cause`.

use crate::transport::{HttpRequest, HttpResponse, LocalFuture, Transport, TransportError};
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
pub fn describe_js_error(e: &JsValue) -> String {
    let get = |v: &JsValue, k: &str| Reflect::get(v, &JsValue::from_str(k)).ok().filter(|x| !x.is_undefined() && !x.is_null());
    let message = get(e, "message").and_then(|m| m.as_string()).or_else(|| e.as_string()).unwrap_or_else(|| "unknown error".into());
    match get(e, "cause") {
        Some(cause) => match get(&cause, "message").and_then(|m| m.as_string()).or_else(|| cause.as_string()) {
            Some(c) if !c.is_empty() && c != message => format!("{message} ({c})"),
            _ => message,
        },
        None => message,
    }
}

pub fn sleep_ms(ms: u32) -> LocalFuture<'static, ()> {
    let promise = Promise::new(&mut |resolve, _| {
        set_timeout(&resolve, ms.min(i32::MAX as u32) as i32);
    });
    Box::pin(async move {
        let _ = JsFuture::from(promise).await;
    })
}

/// Sends requests with `fetch` (the global one, or the host's).
#[derive(Clone, Default)]
pub struct FetchTransport {
    fetch: Option<Function>,
}

impl FetchTransport {
    pub fn new(fetch: Option<Function>) -> Self {
        FetchTransport { fetch }
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
        let opaque = Reflect::get(&resp, &"type".into()).ok().and_then(|t| t.as_string()).as_deref() == Some("opaqueredirect");
        let status = if opaque { 0 } else { resp.status() };
        let header = |name: &str| resp.headers().get(name).ok().flatten();
        let retry_after = header("retry-after").as_deref().and_then(crate::transport::retry_after_seconds);
        let location = header("location");
        let buf = JsFuture::from(resp.array_buffer()?).await?;
        Ok::<_, JsValue>(HttpResponse { status, body: Uint8Array::new(&buf).to_vec(), retry_after, location })
    }
    .await;
    clear_timeout(&timer);
    drop(on_timeout);
    result.map_err(|e| if timed_out.get() { TransportError::Timeout } else { net(e) })
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
