//! `connect`'s options: required fields, types, ranges and clamps.

use super::*;
use serde_json::json;

fn err(v: Value) -> String {
    Options::from_json(&v).unwrap_err().0
}

#[test]
fn the_minimum_and_the_defaults() {
    let o = Options::from_json(&json!({"url": "http://127.0.0.1:8000/", "collection": "docs"})).unwrap();
    assert_eq!(o.client.url, "http://127.0.0.1:8000");
    assert_eq!((o.client.tenant.as_str(), o.client.database.as_str()), ("default_tenant", "default_database"));
    assert_eq!((o.client.timeout_ms, o.client.max_concurrency, o.client.retries), (10_000, 10, 3));
    assert_eq!(o.client.where_predicates, 8, "Chroma Cloud's quota, which every server takes");
    assert_eq!(o.schema, Schema::default());
    assert_eq!(o.cache_bytes, 64 << 20);
    assert_eq!(o.groups, Groups::default());
    assert!(o.extension.is_none() && o.tree_max_age_ms.is_none() && o.lazy_files.is_empty());
}

#[test]
fn required_options_and_types_are_named() {
    assert_eq!(err(json!("nope")), "ChromaFs.connect expects an options object");
    assert_eq!(err(json!({"collection": "docs"})), "option url is required");
    assert_eq!(err(json!({"url": "http://x"})), "option collection is required");
    assert_eq!(
        err(json!({"url": "ftp://x", "collection": "d"})),
        "option url must be an absolute http(s) URL, got \"ftp://x\" (not an http(s) URL)"
    );
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "groups": "admin"})),
        "option groups must be an array of strings"
    );
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "groups": ["a", 1]})),
        "option groups must be an array of strings"
    );
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "timeoutMs": -1})),
        "option timeoutMs must be a non-negative number"
    );
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "cacheBytes": "big"})),
        "option cacheBytes must be a non-negative number"
    );
    assert_eq!(err(json!({"url": "http://x", "collection": "d", "token": 5})), "option token must be a string");
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "headers": {"x-a": 1}})),
        "header x-a must be a string"
    );
    for headers in [json!("x-a: 1"), json!([["x-a", "1"]]), json!(5), json!(true)] {
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "headers": headers})),
            "option headers must be an object of strings"
        );
    }
    let bad_value = "header \"x-a\" has a value fetch cannot send (a line break, a NUL or a character above U+00FF); the value is not shown";
    for value in ["secret\nInjected: 1", "secret\r", "nul\0", "snowman \u{2603}"] {
        assert_eq!(err(json!({"url": "http://x", "collection": "d", "headers": {"x-a": value}})), bad_value);
    }
    assert_eq!(err(json!({"url": "http://x", "collection": "d", "token": "ck\nsecret"})), "option token has a value fetch cannot send (a line break, a NUL or a character above U+00FF); the value is not shown");
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "headers": {"bad name\n": "v"}})),
        "header \"bad name\\n\" is not a valid header name"
    );
    assert!(super::client_config(
        &Fields::of(&json!({"url": "http://x", "headers": {"x-b": "tab\tand latin-1 é"}}), "connect").unwrap()
    )
    .is_ok());
}

#[test]
fn numbers_are_clamped_to_what_works() {
    let o = Options::from_json(
        &json!({"url": "http://x", "collection": "d", "timeoutMs": 0, "maxConcurrency": 0, "retries": 99}),
    )
    .unwrap();
    assert_eq!((o.client.timeout_ms, o.client.max_concurrency, o.client.retries), (1, 1, 10));
    for (asked, used) in [(0.0, 1), (300.0, 300), (1e9, 1_000)] {
        let o = Options::from_json(&json!({"url": "http://x", "collection": "d", "maxWherePredicates": asked}));
        assert_eq!(o.unwrap().client.where_predicates, used);
    }
    let o =
        Options::from_json(&json!({"url": "http://x", "collection": "d", "timeoutMs": 1e12, "cacheBytes": 0})).unwrap();
    assert_eq!((o.client.timeout_ms, o.cache_bytes), (600_000, 0));
    assert_eq!(o.limits, Limits::default(), "commands are unlimited unless asked");
    let o = Options::from_json(
        &json!({"url": "http://x", "collection": "d", "maxRequestsPerCommand": 0, "commandTimeoutMs": 2500}),
    )
    .unwrap();
    assert_eq!(o.limits, Limits { max_requests: Some(1), timeout_ms: Some(2500) });
    let o =
        Options::from_json(&json!({"url": "http://x", "collection": "d", "scratch": "/tmp/", "scratchBytes": 1024}))
            .unwrap();
    assert_eq!((o.scratch.as_deref(), o.scratch_bytes), (Some("/tmp"), 1024));
    for bad in ["tmp", "/", "/a/b", "/dev"] {
        assert_eq!(
            err(json!({"url": "http://x", "collection": "d", "scratch": bad})),
            format!("option scratch {bad:?} must be a top-level directory such as \"/tmp\"")
        );
    }
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "commandTimeoutMs": "1s"})),
        "option commandTimeoutMs must be a non-negative number"
    );
}

#[test]
fn credentials_layout_and_session_fields() {
    let o = Options::from_json(&json!({
        "url": "https://api.trychroma.com", "collection": "d", "tenant": "t", "database": "db",
        "token": "ck-1", "headers": {"x-team": "docs"}, "groups": ["b", "a"], "slugField": "page",
        "chunkIndexField": "n", "treeId": "tree", "extension": ".mdx", "treeMaxAgeMs": 500, "null": null,
    }))
    .unwrap();
    assert_eq!(
        o.client.headers,
        vec![("x-chroma-token".to_string(), "ck-1".to_string()), ("x-team".to_string(), "docs".to_string())]
    );
    assert_eq!((o.client.tenant.as_str(), o.client.database.as_str()), ("t", "db"));
    assert_eq!(o.schema, Schema { slug_field: "page".into(), chunk_index_field: "n".into(), tree_id: "tree".into() });
    assert_eq!(o.groups, Groups::new(["a", "b"]));
    assert_eq!((o.extension.as_deref(), o.tree_max_age_ms), (Some(".mdx"), Some(500.0)));
    let o = Options::from_json(&json!({"url": "http://x", "collection": "d", "extension": ""})).unwrap();
    assert_eq!(o.extension, None, "an empty extension is none");
}

#[test]
fn lazy_file_paths_must_be_absolute_files() {
    let o = Options::from_json(
        &json!({"url": "http://x", "collection": "d", "lazyFiles": {"/specs/a.json": "https://s/a.json"}}),
    )
    .unwrap();
    assert!(matches!(&o.lazy_files[..], [(p, LazySource::Url(u))] if p == "/specs/a.json" && u == "https://s/a.json"));
    for bad in ["specs/a.json", "/", "//", "/a\0b"] {
        let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {bad: "https://s"}}));
        assert_eq!(e, format!("lazyFiles key {bad:?} must be an absolute file path"));
    }
    let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {"/a": 3}}));
    assert_eq!(e, "lazyFiles[\"/a\"] must be a URL or a function");
}

#[test]
fn lazy_origins_are_origins() {
    let o =
        Options::from_json(&json!({"url": "http://x", "collection": "d", "lazyOrigins": ["https://cdn.example.com"]}))
            .unwrap();
    assert_eq!(o.lazy_origins, Some(vec!["https://cdn.example.com".to_string()]));
    assert_eq!(o.lazy_max_bytes, 32 << 20, "32 MiB unless the host says otherwise");
    let o = Options::from_json(&json!({"url": "http://x", "collection": "d", "lazyMaxBytes": 1000})).unwrap();
    assert_eq!(o.lazy_max_bytes, 1000);
    assert_eq!(err(json!({"url": "http://x", "collection": "d", "lazyOrigins": ["cdn"]})), "lazyOrigins entry \"cdn\" must be an http(s) origin such as \"https://example.com\" (not an absolute http(s) URL)");
    assert_eq!(
        err(json!({"url": "http://x", "collection": "d", "lazyOrigins": "https://a"})),
        "option lazyOrigins must be an array of strings"
    );
    let e = err(json!({"url": "http://x", "collection": "d", "lazyOrigins": ["https://u:secret@cdn.example.com"]}));
    assert_eq!(e, "lazyOrigins entry \"https://cdn.example.com\" must be an http(s) origin such as \"https://example.com\" (a URL with a user name or password, which chromafs never sends)");
}

#[test]
fn urls_are_read_as_fetch_reads_them_and_carry_no_credentials() {
    let o = Options::from_json(&json!({"url": " HTTP://Chroma.Test:80\\api\n/#y ", "collection": "d"})).unwrap();
    assert_eq!(o.client.url, "http://chroma.test/api", "what is sent is the canonical form, without the fragment");
    assert_eq!(
        err(json!({"url": "http://h/?api_key=X", "collection": "d"})),
        "option url must not have a query string, got http://h/?[redacted] (pass credentials with token or headers)",
        "a query would land inside every path, and the message never shows it"
    );
    for (url, shown) in [
        ("http://u:secret@x", None),
        ("http://@x", None),
        ("http://x:99999", Some("\"http://x:99999\" (not a valid http(s) URL)")),
    ] {
        let want = match shown {
            None => "option url must not contain a user name or password (pass credentials with token or headers)"
                .to_string(),
            Some(s) => format!("option url must be an absolute http(s) URL, got {s}"),
        };
        assert_eq!(err(json!({"url": url, "collection": "d"})), want);
    }
    let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {"/a": "https://u:secret@s/a?sig=1"}}));
    assert_eq!(e, "lazyFiles[\"/a\"] must be an absolute http(s) URL, got \"https://s/a?[redacted]\" (a URL with a user name or password, which chromafs never sends)");
    let e = err(json!({"url": "http://x", "collection": "d", "lazyFiles": {"/a": "a.json"}}));
    assert_eq!(e, "lazyFiles[\"/a\"] must be an absolute http(s) URL, got \"a.json\" (not an absolute http(s) URL)");
}

#[test]
fn a_mount_is_one_top_level_directory() {
    let with = |m: &str| Options::from_json(&json!({"url": "http://x", "collection": "d", "mountAt": m}));
    assert_eq!(with("/docs/").unwrap().mount_at.as_deref(), Some("/docs"));
    assert_eq!(with("/docs").unwrap().tree_location().mount, Some("docs"));
    for bad in ["docs", "/", "/a/b", "/..", "/a\nb"] {
        let e = with(bad).unwrap_err().to_string();
        assert!(e.contains("must be a top-level directory"), "{bad:?}: {e}");
    }
    let both = json!({"url": "http://x", "collection": "d", "mountAt": "/tmp", "scratch": "/tmp"});
    assert!(Options::from_json(&both).unwrap_err().to_string().contains("is the scratch directory too"));
}
