//! The Chroma client over an in-memory Chroma: retries, redirects, limits, and what its errors show.

use super::*;

use crate::testing::{block_on, Executor, FakeChroma, Latch};
use serde_json::json;

#[test]
fn error_bodies_name_the_error() {
    assert_eq!(error_message(br#"{"error": "NotFound", "message": ""}"#), "NotFound");
    assert_eq!(error_message(br#"{"error": "E", "message": "no such collection"}"#), "no such collection");
    assert_eq!(error_message(b"plain text"), "plain text");
}

fn client(chroma: &FakeChroma, tweak: impl FnOnce(&mut ClientConfig)) -> Rc<Client> {
    let mut cfg = ClientConfig::new(crate::testing::chroma::URL);
    tweak(&mut cfg);
    Rc::new(Client::new(cfg, Rc::new(chroma.clone())))
}

fn seeded(records: usize) -> (FakeChroma, String) {
    let chroma = FakeChroma::new();
    let id = chroma.collection("docs");
    for i in 0..records {
        chroma.put("docs", &format!("p#{i}"), Some("x"), json!({"page_slug": "p", "chunk_index": i}));
    }
    (chroma, id)
}

#[test]
fn transient_failures_are_retried_with_backoff() {
    let (chroma, id) = seeded(1);
    let failures = Rc::new(RefCell::new(vec![503u16, 500]));
    let f = failures.clone();
    chroma.set_fault(move |_| f.borrow_mut().pop().map(|s| Ok(HttpResponse::new(s, "{}"))));
    let c = client(&chroma, |_| {});
    let c2 = c.clone();
    let resp = block_on(async move { c2.get_once(&id, &GetRequest::default(), "page").await });
    assert_eq!(resp.unwrap().ids, ["p#0"]);
    assert_eq!(chroma.slept(), [200, 400], "exponential backoff");
    assert_eq!((c.stats().requests, c.stats().retries, c.stats().failures), (3, 2, 0));
}

#[test]
fn retry_after_is_honoured_and_persistent_failures_name_the_status() {
    let (chroma, id) = seeded(1);
    chroma.set_fault(|_| {
        Some(Ok(HttpResponse { retry_after: Some(0.25), ..HttpResponse::new(429, r#"{"message":"slow down"}"#) }))
    });
    let c = client(&chroma, |cfg| cfg.retries = 2);
    let c2 = c.clone();
    let err = block_on(async move { c2.get_once(&id, &GetRequest::default(), "page \"p\"").await }).unwrap_err();
    assert_eq!(err.to_string(), "Chroma answered HTTP 429 to page \"p\": slow down");
    assert_eq!(chroma.slept(), [250, 250]);
    assert_eq!(c.stats().failures, 1);
}

#[test]
fn client_errors_and_timeouts_are_not_retried() {
    let (chroma, id) = seeded(1);
    chroma.set_fault(|_| {
        Some(Ok(HttpResponse::new(400, r#"{"error":"InvalidArgumentError","message":"Invalid where clause"}"#)))
    });
    let c = client(&chroma, |cfg| cfg.timeout_ms = 50);
    let (c2, id2) = (c.clone(), id.clone());
    let err = block_on(async move { c2.get_once(&id2, &GetRequest::default(), "a search").await }).unwrap_err();
    assert_eq!(err.to_string(), "Chroma answered HTTP 400 to a search: Invalid where clause");
    chroma.set_fault(|_| Some(Err(TransportError::Timeout)));
    let c2 = c.clone();
    let err = block_on(async move { c2.get_once(&id, &GetRequest::default(), "page \"a\"").await }).unwrap_err();
    assert_eq!(err.to_string(), "Chroma did not answer page \"a\" within 50 ms");
    assert_eq!(chroma.requests().len(), 2, "one attempt each");
    assert!(chroma.slept().is_empty());
}

#[test]
fn network_failures_are_retried_then_reported() {
    let (chroma, id) = seeded(1);
    chroma.set_fault(|_| Some(Err(TransportError::Network("fetch failed (connect ECONNREFUSED 127.0.0.1:1)".into()))));
    let c = client(&chroma, |cfg| cfg.retries = 1);
    let err = block_on(async move { c.get_once(&id, &GetRequest::default(), "the path tree").await }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot reach Chroma for the path tree: fetch failed (connect ECONNREFUSED 127.0.0.1:1)"
    );
    assert_eq!(chroma.requests().len(), 2);
}

#[test]
fn an_answer_longer_than_asked_for_is_refused_not_retried_and_leaves_the_breaker_closed() {
    let (chroma, id) = seeded(1);
    let fake = chroma.clone();
    // A page of 2 records, padded past what 2 records may take.
    chroma.set_fault(move |req| {
        let mut body: Value = serde_json::from_slice(&fake.store_answer(req).body).ok()?;
        body["pad"] = Value::String("x".repeat(2 * limits::RECORD_BYTES as usize));
        Some(Ok(HttpResponse::new(200, body.to_string())))
    });
    let c = client(&chroma, |_| {});
    let req = GetRequest { limit: Some(2), ..Default::default() };
    let (c2, id2) = (c.clone(), id.clone());
    let err = block_on(async move { c2.get_once(&id2, &req, "page \"p\"").await }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Chroma answered page \"p\" with more than 245760 bytes (the most an answer of 2 records may take)"
    );
    assert_eq!(chroma.requests().len(), 1, "not retried: the same request gets the same answer");
    assert_eq!(chroma.requests()[0].body_limit, 245_760);
    assert!(!c.breaker().is_open(), "the server answered: it is not down");
    assert_eq!(c.stats().failures, 1);
    // A full page may take 300 records' worth.
    let c2 = c.clone();
    let ok =
        block_on(async move { c2.get_once(&id, &GetRequest { limit: Some(300), ..Default::default() }, "page").await });
    assert_eq!(ok.unwrap().ids, ["p#0"]);
}

#[test]
fn redirects_stay_on_the_configured_origin() {
    let (chroma, id) = seeded(1);
    let fake = chroma.clone();
    chroma.set_fault(move |req| {
        let to = |l: &str| Some(Ok(HttpResponse { location: Some(l.into()), ..HttpResponse::new(307, "") }));
        if req.url.contains("/moved/") {
            return Some(Ok(fake.store_answer(&HttpRequest { url: req.url.replace("/moved/", "/"), ..req.clone() })));
        }
        match req.body.as_deref() {
            Some(b) if b.contains("same") => to(&req.url.replace("/collections/", "/collections/moved/")),
            Some(b) if b.contains("away") => to("http://evil.test/steal"),
            Some(b) if b.contains("backslash") => to("http://evil.test\\@chroma.test/steal?sig=secret"),
            _ => None,
        }
    });
    let c = client(&chroma, |cfg| cfg.headers.push(("x-chroma-token".into(), "ck".into())));
    let get = |where_: Value| {
        let (c, id) = (c.clone(), id.clone());
        block_on(async move {
            c.get_once(&id, &GetRequest { where_: Some(where_), ..Default::default() }, "page \"p\"").await
        })
    };
    assert_eq!(
        get(json!({"$or": [{"k": "same"}, {"page_slug": "p"}]})).unwrap().ids,
        ["p#0"],
        "a same-origin 307 is followed"
    );
    let err = get(json!({"k": "away"})).unwrap_err();
    assert_eq!(err.to_string(), format!("Chroma answered page \"p\" with a redirect (HTTP 307) to http://evil.test/steal, another origin: not followed (credentials go only to {})", crate::testing::chroma::URL));
    let err = get(json!({"k": "backslash"})).unwrap_err();
    assert_eq!(err.to_string(), format!("Chroma answered page \"p\" with a redirect (HTTP 307) to http://evil.test/@chroma.test/steal?[redacted], another origin: not followed (credentials go only to {})", crate::testing::chroma::URL));
    assert!(chroma.requests().iter().all(|r| !r.url.starts_with("http://evil.test")), "nothing was sent there");
}

#[test]
fn headers_and_concurrency_cap() {
    let (chroma, id) = seeded(1);
    let latch = Latch::new();
    chroma.hold(&latch);
    let c = client(&chroma, |cfg| {
        cfg.max_concurrency = 3;
        cfg.headers.push(("x-chroma-token".into(), "ck".into()));
    });
    let mut ex = Executor::new();
    for _ in 0..8 {
        let (c, id) = (c.clone(), id.clone());
        ex.spawn(async move {
            c.get_once(&id, &GetRequest::default(), "page").await.unwrap();
        });
    }
    ex.run_until_stalled();
    assert_eq!(chroma.in_flight(), 3);
    latch.open();
    assert_eq!(ex.run_until_stalled(), 0);
    assert_eq!(chroma.max_in_flight(), 3);
    let reqs = chroma.requests();
    assert_eq!(reqs.len(), 8);
    assert!(reqs
        .iter()
        .all(|r| r.header("x-chroma-token") == Some("ck") && r.header("content-type") == Some("application/json")));
}

#[test]
fn error_messages_come_from_chroma() {
    assert_eq!(
        error_message(br#"{"error":"NotFoundError","message":"Collection [x] does not exist"}"#),
        "Collection [x] does not exist"
    );
    assert_eq!(error_message(br#"{"error":"InternalError"}"#), "InternalError");
    assert_eq!(error_message(b"Payload too large"), "Payload too large");
    assert_eq!(error_message(b""), "");
    assert_eq!(error_message("é".repeat(400).as_bytes()).chars().count(), 400, "cut only where it is shown");
}

#[test]
fn server_text_in_errors_is_one_short_line_without_the_session_secrets() {
    let (chroma, id) = seeded(1);
    let echo = |req: &HttpRequest| {
        let headers: Vec<String> = req.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!("{{\"message\": \"rejected request\\n{}\\n{}\"}}", headers.join("\\n"), "x".repeat(500))
    };
    for status in [400u16, 401, 422, 500] {
        chroma.set_fault(move |req| Some(Ok(HttpResponse::new(status, echo(req)))));
        let c = client(&chroma, |cfg| {
            cfg.retries = 0;
            cfg.headers.push(("x-chroma-token".into(), "ck-live-0123456789".into()));
            cfg.headers.push(("x-gateway-key".into(), "gw-secret".into()));
        });
        let id = id.clone();
        let err = block_on(async move { c.get_once(&id, &GetRequest::default(), "page \"p\"").await })
            .unwrap_err()
            .to_string();
        assert!(!err.contains("ck-live-0123456789") && !err.contains("gw-secret"), "{err}");
        assert!(err.contains("x-chroma-token: [redacted]") && err.contains("x-gateway-key: [redacted]"), "{err}");
        assert!(!err.contains('\n') && err.ends_with('…') && err.chars().count() < 300, "{err}");
    }
}

#[test]
fn get_requests_serialise_as_chroma_expects() {
    let req = GetRequest {
        where_: Some(serde_json::json!({"page_slug": "a.md"})),
        include: vec!["documents", "metadatas"],
        limit: Some(300),
        ..GetRequest::default()
    };
    assert_eq!(
        serde_json::to_string(&req).unwrap(),
        r#"{"where":{"page_slug":"a.md"},"include":["documents","metadatas"],"limit":300}"#
    );
}

#[test]
fn only_transient_statuses_are_retried() {
    assert!(retryable(429) && retryable(500) && retryable(503));
    assert!(!retryable(400) && !retryable(404) && !retryable(422) && !retryable(501));
}

#[test]
fn segments_are_percent_encoded() {
    assert_eq!(encode_segment("docs v2/x"), "docs%20v2%2Fx");
    assert_eq!(encode_segment("default_tenant"), "default_tenant");
}

#[test]
fn errors_read_well() {
    let e = ChromaError::Status { status: 500, what: "page \"a.md\"".into(), message: "boom".into() };
    assert_eq!(e.to_string(), "Chroma answered HTTP 500 to page \"a.md\": boom");
    let e = ChromaError::Timeout { what: "the path tree".into(), ms: 50 };
    assert_eq!(e.to_string(), "Chroma did not answer the path tree within 50 ms");
}

#[test]
fn an_answer_that_is_not_utf8_or_not_json_is_a_decode_error() {
    let (chroma, id) = seeded(1);
    for (body, cause) in [(&b"{\"ids\": [\"p\xff\"]}"[..], "the answer is not UTF-8"), (b"{\"ids\": [", "EOF")] {
        let body = body.to_vec();
        chroma.set_fault(move |_| Some(Ok(HttpResponse { body: body.clone(), ..HttpResponse::new(200, "") })));
        let c = client(&chroma, |_| {});
        let id = id.clone();
        let err = block_on(async move { c.get_once(&id, &GetRequest::default(), "page \"p\"").await }).unwrap_err();
        assert!(matches!(&err, ChromaError::Decode { what, .. } if what == "page \"p\""), "{err:?}");
        assert!(err.to_string().contains(cause), "{err}");
    }
}
