//! Values across the boundary: JavaScript in, JavaScript out.
//!
//! Options objects become JSON for the native readers ([`crate::options`]); functions are
//! left out and attached apart. Errors go out as real `Error`s with Node's `code`,
//! `syscall` and `path`; stats as plain objects with a real `Date`.

use crate::base::error::FsError;
use crate::fs::StatInfo;
use js_sys::{Array, Date, Function, Object, Promise, Reflect, Uint8Array};
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub(super) fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

pub(super) fn js_error(code: &str, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    set(&e, "code", code);
    e.into()
}

pub(super) fn fs_error(e: FsError) -> JsValue {
    let err = js_error(e.code(), &e.to_string());
    let obj: &Object = err.unchecked_ref();
    set(obj, "syscall", e.syscall);
    set(obj, "path", e.path.as_str());
    err
}

pub(super) fn invalid(message: impl std::fmt::Display) -> JsValue {
    js_error("EINVAL", &message.to_string())
}

/// A member of an object; `undefined` and `null` are absent.
/// A boolean member of an options object (`{ recursive: true }`); absent is false.
pub(super) fn flag(obj: &JsValue, key: &str) -> bool {
    get(obj, key).is_some_and(|v| v.is_truthy())
}

pub(super) fn get(obj: &JsValue, key: &str) -> Option<JsValue> {
    if !obj.is_object() {
        return None;
    }
    Reflect::get(obj, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

/// A member that must be a function, if present.
pub(super) fn function(obj: &JsValue, key: &str, message: &str) -> Result<Option<Function>, JsValue> {
    get(obj, key).map(|f| f.dyn_into::<Function>().map_err(|_| invalid(message))).transpose()
}

/// An object's own enumerable members, in order.
pub(super) fn entries(obj: &JsValue) -> Vec<(String, JsValue)> {
    let Some(obj) = obj.dyn_ref::<Object>() else { return Vec::new() };
    Object::entries(obj)
        .iter()
        .filter_map(|pair| {
            let pair = Array::from(&pair);
            Some((pair.get(0).as_string()?, pair.get(1)))
        })
        .collect()
}

/// The JSON view of an options value: functions and `undefined` dropped, a number that
/// JSON cannot hold kept as its text (so a reader rejects it as not a number), and
/// nesting cut off where options never go.
pub(super) fn to_json(v: &JsValue) -> Value {
    fn go(v: &JsValue, depth: usize) -> Option<Value> {
        if v.is_undefined() || v.is_function() {
            return None;
        }
        if v.is_null() {
            return Some(Value::Null);
        }
        if let Some(b) = v.as_bool() {
            return Some(Value::Bool(b));
        }
        if let Some(n) = v.as_f64() {
            if n.fract() == 0.0 && n.abs() < 9.0e15 {
                return Some(Value::Number(Number::from(n as i64)));
            }
            // Only NaN and the infinities are not JSON numbers; spelled as JavaScript does.
            let spelled = || {
                Value::String(
                    if n.is_nan() {
                        "NaN"
                    } else if n > 0.0 {
                        "Infinity"
                    } else {
                        "-Infinity"
                    }
                    .into(),
                )
            };
            return Some(Number::from_f64(n).map_or_else(spelled, Value::Number));
        }
        if let Some(s) = v.as_string() {
            return Some(Value::String(s));
        }
        if depth > 4 || v.is_instance_of::<Uint8Array>() {
            return Some(Value::String("[object]".into()));
        }
        if Array::is_array(v) {
            return Some(Value::Array(
                Array::from(v).iter().map(|x| go(&x, depth + 1).unwrap_or(Value::Null)).collect(),
            ));
        }
        // Inserted one by one: collecting a map sorts its pairs first, one more compiled sort.
        let mut members = Map::new();
        for (k, x) in entries(v) {
            if let Some(x) = go(&x, depth + 1) {
                members.insert(k, x);
            }
        }
        Some(Value::Object(members))
    }
    go(v, 0).unwrap_or(Value::Null)
}

/// Bytes from a string (UTF-8) or any ArrayBuffer view.
pub(super) fn to_bytes(v: &JsValue) -> Option<Vec<u8>> {
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

pub(super) fn stat_object(s: &StatInfo) -> JsValue {
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

pub(super) fn plain<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(invalid)
}

/// A `Promise` for a future. Every async method goes through this one boxed instance of
/// `future_to_promise`: instantiated per future type, its glue would be compiled once per
/// method (about 17 KB of the module).
pub(super) fn promise(f: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    boxed_promise(Box::pin(f))
}

#[inline(never)]
fn boxed_promise(f: std::pin::Pin<Box<dyn std::future::Future<Output = Result<JsValue, JsValue>>>>) -> Promise {
    wasm_bindgen_futures::future_to_promise(f)
}
