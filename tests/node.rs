//! The JavaScript boundary, run in Node by wasm-bindgen-test: what a host receives must be
//! real `Error`s with a `code`, real `Date`s, `Uint8Array`s and plain objects.
//!
//! The tests that need a server read its URL from `CHROMAFS_TEST_URL` (the test script
//! starts a local Chroma); without it they are skipped with a notice.
#![cfg(target_arch = "wasm32")]

use chromafs::wasm::{ingest, ChromaFs};
use js_sys::{Array, Date, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(k)).unwrap()
}

fn set(o: &Object, k: &str, v: impl Into<JsValue>) {
    Reflect::set(o, &JsValue::from_str(k), &v.into()).unwrap();
}

fn server_url() -> Option<String> {
    let process = get(&js_sys::global(), "process");
    if process.is_undefined() {
        return None;
    }
    let url = get(&get(&process, "env"), "CHROMAFS_TEST_URL").as_string();
    if url.is_none() {
        web_sys::console::log_1(&"CHROMAFS_TEST_URL is not set: skipping the server-backed boundary tests".into());
    }
    url
}

async fn rejection(p: Promise) -> JsValue {
    JsFuture::from(p).await.expect_err("the promise should reject")
}

fn assert_error(e: &JsValue, code: &str, message_start: &str) {
    assert!(e.is_instance_of::<js_sys::Error>(), "not an Error: {e:?}");
    assert_eq!(get(e, "code").as_string().as_deref(), Some(code));
    let message = get(e, "message").as_string().unwrap();
    assert!(message.starts_with(message_start), "{message:?} does not start with {message_start:?}");
}

fn options(url: &str, collection: &str) -> Object {
    let o = Object::new();
    set(&o, "url", url);
    set(&o, "collection", collection);
    o
}

#[wasm_bindgen_test]
async fn bad_options_are_rejected_with_einval() {
    let e = rejection(ChromaFs::connect(JsValue::from_str("nope"))).await;
    assert_error(&e, "EINVAL", "ChromaFs.connect expects an options object");
    let o = Object::new();
    set(&o, "collection", "docs");
    assert_error(&rejection(ChromaFs::connect(o.into())).await, "EINVAL", "option url is required");
    let o = options("ftp://x", "docs");
    assert_error(&rejection(ChromaFs::connect(o.into())).await, "EINVAL", "option url must be an absolute http(s) URL");
    let o = options("http://127.0.0.1:39999", "docs");
    set(&o, "groups", "admin");
    assert_error(&rejection(ChromaFs::connect(o.into())).await, "EINVAL", "option groups must be an array of strings");
}

#[wasm_bindgen_test]
async fn an_unreachable_server_is_eio_with_the_cause() {
    let o = options("http://127.0.0.1:39999", "docs");
    set(&o, "retries", 0);
    let e = rejection(ChromaFs::connect(o.into())).await;
    assert_error(&e, "EIO", "EIO: i/o error, connect 'docs': cannot reach Chroma for collection \"docs\"");
    let message = get(&e, "message").as_string().unwrap();
    assert!(message.contains("ECONNREFUSED"), "{message}");
}

#[wasm_bindgen_test]
async fn filesystem_values_have_javascript_types() {
    let Some(url) = server_url() else { return };
    let files = Array::new();
    for (path, content) in [("a.md", "alpha\n"), ("dir/b.md", "beta\n")] {
        let f = Object::new();
        set(&f, "path", path);
        set(&f, "content", content);
        set(&f, "mtime", 1_700_000_000_000f64);
        files.push(&f);
    }
    let o = options(&url, "wasm-boundary");
    set(&o, "files", files);
    JsFuture::from(ingest(o.into())).await.unwrap();

    let fs = ChromaFs::connect_with(options(&url, "wasm-boundary").into()).await.unwrap();

    let st = JsFuture::from(fs.stat("/a.md".into())).await.unwrap();
    assert!(get(&st, "mtime").is_instance_of::<Date>());
    assert_eq!(get(&st, "mtime").unchecked_into::<Date>().get_time(), 1_700_000_000_000f64);
    assert_eq!(get(&st, "size").as_f64(), Some(6.0));
    assert_eq!(get(&st, "isFile").as_bool(), Some(true));
    assert!(get(&st, "ino").as_f64().unwrap() > 0.0);
    let dir = JsFuture::from(fs.lstat("/".into())).await.unwrap();
    assert_eq!(get(&dir, "isDirectory").as_bool(), Some(true));
    assert_eq!(get(&dir, "mode").as_f64(), Some(0o755 as f64));

    let buf = JsFuture::from(fs.read_file_buffer("//dir/./b.md".into())).await.unwrap();
    assert_eq!(buf.unchecked_into::<Uint8Array>().to_vec(), b"beta\n");
    let text = JsFuture::from(fs.read_file("/a.md".into(), JsValue::UNDEFINED)).await.unwrap();
    assert_eq!(text.as_string().as_deref(), Some("alpha\n"));

    let names = JsFuture::from(fs.readdir("/".into())).await.unwrap();
    assert_eq!(Array::from(&names).iter().map(|n| n.as_string().unwrap()).collect::<Vec<_>>(), ["a.md", "dir"]);
    let dirents = JsFuture::from(fs.readdir_with_file_types("/".into())).await.unwrap();
    assert_eq!(get(&Array::from(&dirents).get(1), "isDirectory").as_bool(), Some(true));

    assert_error(&rejection(fs.read_file("/nope.md".into(), JsValue::UNDEFINED)).await, "ENOENT", "ENOENT: no such file or directory, open '/nope.md'");
    assert_error(&rejection(fs.read_file_buffer("/dir".into())).await, "EISDIR", "EISDIR: illegal operation on a directory, read '/dir'");
    assert_error(&rejection(fs.readdir("/a.md".into())).await, "ENOTDIR", "ENOTDIR: not a directory, scandir '/a.md'");
    assert_error(&rejection(fs.write_file("/a.md".into(), "x".into(), JsValue::UNDEFINED)).await, "EROFS", "EROFS: read-only file system, write '/a.md'");
    assert_error(&rejection(fs.readlink("/a.md".into())).await, "EINVAL", "EINVAL: invalid argument, readlink '/a.md'");
    assert_error(&rejection(fs.stat(JsValue::from_f64(3.0))).await, "EINVAL", "path must be a string");
    let e = rejection(fs.stat("/nope".into())).await;
    assert_eq!(get(&e, "syscall").as_string().as_deref(), Some("stat"));
    assert_eq!(get(&e, "path").as_string().as_deref(), Some("/nope"));

    JsFuture::from(fs.write_file("/dev/null".into(), "x".into(), JsValue::UNDEFINED)).await.unwrap();
    assert_eq!(JsFuture::from(fs.exists("/dev/null".into())).await.unwrap().as_bool(), Some(true));
    assert_eq!(JsFuture::from(fs.exists(JsValue::NULL)).await.unwrap().as_bool(), Some(false));
    assert_eq!(fs.resolve_path("/dir".into(), "../a.md".into()), "/a.md");

    let stats = fs.stats().unwrap();
    assert_eq!(get(&stats, "cacheMisses").as_f64(), Some(2.0));
    assert!(get(&stats, "requests").as_f64().unwrap() >= 2.0);
}
