//! The JavaScript boundary, run in Node by wasm-bindgen-test: what a host receives must be
//! real `Error`s with a `code`, real `Date`s, `Uint8Array`s and plain objects.
//!
//! The tests that need a server read its URL from `CHROMAFS_TEST_URL` (the test script
//! starts a local Chroma); without it they fail, saying so, rather than pass unrun.
#![cfg(all(target_arch = "wasm32", feature = "read", feature = "write"))]

use chromafs::js::{ingest, ChromaFs};
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

fn server_url() -> String {
    let env = get(&get(&js_sys::global(), "process"), "env");
    get(&env, "CHROMAFS_TEST_URL")
        .as_string()
        .expect("CHROMAFS_TEST_URL is not set: run these tests with `npm test`, which starts a local Chroma")
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
    let url = server_url();
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

    assert_error(
        &rejection(fs.read_file("/nope.md".into(), JsValue::UNDEFINED)).await,
        "ENOENT",
        "ENOENT: no such file or directory, open '/nope.md'",
    );
    assert_error(
        &rejection(fs.read_file_buffer("/dir".into())).await,
        "EISDIR",
        "EISDIR: illegal operation on a directory, read '/dir'",
    );
    assert_error(&rejection(fs.readdir("/a.md".into())).await, "ENOTDIR", "ENOTDIR: not a directory, scandir '/a.md'");
    assert_error(
        &rejection(fs.write_file("/a.md".into(), "x".into(), JsValue::UNDEFINED)).await,
        "EROFS",
        "EROFS: read-only file system, write '/a.md'",
    );
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

#[wasm_bindgen]
extern "C" {
    /// The WHATWG URL parser of the runtime: what `fetch` connects by.
    #[wasm_bindgen(js_name = URL)]
    type WhatwgUrl;
    #[wasm_bindgen(constructor, js_class = "URL", catch)]
    fn new(input: &str, base: &JsValue) -> Result<WhatwgUrl, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn origin(this: &WhatwgUrl) -> String;
    #[wasm_bindgen(method, getter)]
    fn protocol(this: &WhatwgUrl) -> String;
    #[wasm_bindgen(method, getter)]
    fn hostname(this: &WhatwgUrl) -> String;
    #[wasm_bindgen(method, getter)]
    fn port(this: &WhatwgUrl) -> String;
    #[wasm_bindgen(method, getter)]
    fn pathname(this: &WhatwgUrl) -> String;
    #[wasm_bindgen(method, getter)]
    fn search(this: &WhatwgUrl) -> String;
}

/// Tricky spellings of http(s) URLs and of `Location` values, from a fixed seed.
fn tricky_urls(count: usize) -> Vec<(Option<&'static str>, String)> {
    const SCHEMES: &[&str] =
        &["http:", "https:", "HTTP:", "hTtPs:", "http:", "https:", "ftp:", "ws:", "", "h\ttp:", "http"];
    const SLASHES: &[&str] = &["//", "//", "//", "", "/", "\\\\", "/\\", "\\/", "///", "\\", "\n//"];
    const USERINFO: &[&str] =
        &["", "", "", "", "", "u@", "u:p@", "@", ":@", "a@b@", "%40@", "u:p\\@", "127.0.0.1:1\\@"];
    const HOSTS: &[&str] = &[
        "example.com",
        "EXAMPLE.Com",
        "127.0.0.1",
        "127.1",
        "0x7f.1",
        "0X7F.0.0.1",
        "0177.0.0.1",
        "2130706433",
        "017700000001",
        "1.2.3.4.5",
        "256.0.0.1",
        "1.2.3.256",
        "4294967295",
        "4294967296",
        "0x100000000",
        "0xffffffff",
        "%31%32%37.0.0.1",
        "ex%41mple.com",
        "a%2fb",
        "a%",
        "a%zz",
        "a%00b",
        "[::1]",
        "[0:0::1]",
        "[::ffff:127.0.0.1]",
        "[::1",
        "::1]",
        "[fe80::1%25eth0]",
        "[1:2:3:4:5:6:7:8]",
        "[1::2::3]",
        "[::127.0.0.01]",
        "[1:2:3:4:5:6:1.2.3.4]",
        "a.0x",
        "a.09",
        "a.08",
        "foo.0x1f",
        "foo.0xg",
        "x..y",
        "a.b.",
        "127.0.0.1.",
        "",
        "a b",
        "a\tb",
        "a^b",
        "a|b",
        "a<b",
        "xn--bcher-kva.example",
        "b\u{fc}cher.example",
        "a_b.test",
        "a'b",
        "0x",
        "0",
        "09",
        "1.2.3.4.",
        ".",
        "..",
        "localhost",
        "LOCALHOST.",
        "a.b.c.d.e",
        "1.2.3.0x4",
        "1.2.0x30004",
        "0.0.0.0",
        "%5B::1%5D",
        "a\u{7f}b",
    ];
    const PORTS: &[&str] = &[
        "",
        "",
        "",
        ":",
        ":80",
        ":443",
        ":0080",
        ":8080",
        ":65535",
        ":65536",
        ":99999999999",
        ":-1",
        ":8a",
        ": 80",
        ":00000000000000000443",
        ":9\\",
    ];
    const TAILS: &[&str] = &[
        "",
        "/",
        "/p",
        "\\p",
        "?q",
        "#f",
        "\\@127.0.0.1:9/",
        "/@x",
        "?x@y",
        "/a/../b",
        "/%2e%2E/x",
        "\\\\x",
        "/p?q=1#h",
        "#@evil",
        "?\\@evil",
    ];
    const RELATIVE: &[&str] =
        &["", "/", "//", "\\\\", "/\\", "?a=1", "#f", "../", "./x", "p", "http:", "https:", "http:/", "http:\\\\"];
    const NOISE: &[&str] = &["\t", "\n", "\r", " ", "\u{0}", "\u{1f}", "\\", "@", "/", ":", "%", "."];
    const BASES: &[&str] = &["http://a.test:8000/api/v2/x/get?q=1", "https://b.test/", "http://127.0.0.1:9/dir/file"];
    let mut seed = 0x5eed_u64;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    (0..count)
        .map(|_| {
            let base = (next(3) == 0).then(|| BASES[next(BASES.len())]);
            let head = if base.is_some() && next(2) == 0 {
                RELATIVE[next(RELATIVE.len())].to_string()
            } else {
                format!("{}{}", SCHEMES[next(SCHEMES.len())], SLASHES[next(SLASHES.len())])
            };
            let common = if next(2) == 0 { 8 } else { HOSTS.len() }; // half the time, a host that parses
            let host = next(common);
            let mut s = format!(
                "{head}{}{}{}{}",
                USERINFO[next(USERINFO.len())],
                HOSTS[host],
                PORTS[next(PORTS.len())],
                TAILS[next(TAILS.len())]
            );
            if next(4) == 0 {
                let at = s.char_indices().map(|(i, _)| i).nth(next(s.chars().count() + 1)).unwrap_or(s.len());
                s.insert_str(at, NOISE[next(NOISE.len())]);
            }
            if next(6) == 0 {
                s = format!("{}{s}{}", [" ", "\u{1}", "\t"][next(3)], ["", " ", "\u{1f}\n"][next(3)]);
            }
            (base, s)
        })
        .collect()
}

#[wasm_bindgen_test]
fn urls_are_read_as_the_whatwg_parser_reads_them() {
    use chromafs::url::{Url, UrlError};
    let (mut agreed, mut both_refused, mut policy) = (0, 0, std::collections::BTreeMap::<String, usize>::new());
    for (base, input) in tricky_urls(4000) {
        let ours = match base {
            Some(b) => Url::parse(b).unwrap().join(&input),
            None => Url::parse(&input),
        };
        let theirs = WhatwgUrl::new(&input, &base.map_or(JsValue::UNDEFINED, JsValue::from_str));
        let case = format!("{input:?} against {base:?}");
        match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => {
                agreed += 1;
                assert_eq!(ours.origin(), theirs.origin(), "{case}");
                let port = ours.port().map(|p| p.to_string()).unwrap_or_default();
                assert_eq!((ours.host().to_string(), port), (theirs.hostname(), theirs.port()), "{case}");
                assert_eq!(
                    ours.to_string(),
                    format!("{}{}{}", theirs.origin(), theirs.pathname(), theirs.search()),
                    "{case}"
                );
                let sent = WhatwgUrl::new(&ours.to_string(), &JsValue::UNDEFINED).unwrap();
                assert_eq!(sent.origin(), ours.origin(), "{case}: the string handed to fetch");
            }
            (Ok(ours), Err(_)) => panic!("{case}: accepted as {ours}, but the WHATWG parser refuses it"),
            (Err(_), Err(_)) => both_refused += 1,
            (Err(e), Ok(theirs)) => {
                assert!(
                    e.is_policy(),
                    "{case}: refused ({e}) though the WHATWG parser reads it as {}",
                    theirs.origin()
                );
                match e {
                    UrlError::Scheme => assert!(!["http:", "https:"].contains(&theirs.protocol().as_str()), "{case}"),
                    UrlError::International => assert!(theirs.hostname().contains("xn--"), "{case}"),
                    _ => {}
                }
                *policy.entry(format!("{e:?}")).or_default() += 1;
            }
        }
    }
    web_sys::console::log_1(
        &format!("URLs: {agreed} read alike, {both_refused} refused by both, refused by policy: {policy:?}").into(),
    );
    assert!(agreed > 1000 && both_refused > 300, "{agreed} read alike, {both_refused} refused by both");
    assert!(policy.len() == 3, "every policy refusal is exercised: {policy:?}");
}
