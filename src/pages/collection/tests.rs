//! Scoped and bounded reads over an in-memory Chroma, including one that misbehaves.

use super::*;
use crate::chroma::transport::HttpResponse;
use crate::chroma::ClientConfig;
use crate::testing::{block_on, chroma::URL, FakeChroma, Latch};
use crate::tree::access::Groups;

fn seeded(records: usize) -> FakeChroma {
    let chroma = FakeChroma::new();
    for i in 0..records {
        let access = if i % 2 == 0 {
            json!({"isPublic": true})
        } else {
            json!({"isPublic": false, "groups": [format!("g{}", i % 8)]})
        };
        let mut meta = json!({"page_slug": "p", "chunk_index": i});
        meta.as_object_mut().unwrap().extend(access.as_object().unwrap().clone());
        chroma.put("docs", &format!("p#{i}"), Some("xy"), meta);
    }
    chroma
}

fn collection(chroma: &FakeChroma, scope: Option<SessionAccess>) -> Collection {
    let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(chroma.clone())));
    Collection::new(client, chroma.collection("docs"), Schema::default(), scope)
}

fn all(c: Collection, bound: Bound) -> Result<GetResponse, ChromaError> {
    block_on(async move { c.get_pages(&["p".to_string()], bound, "page \"p\"", &|_| Ok(())).await })
}

#[test]
fn pages_at_300_records() {
    let chroma = seeded(700);
    assert_eq!(all(collection(&chroma, None), Bound::records(700)).unwrap().ids.len(), 700);
    let windows: Vec<(u64, u64)> =
        chroma.gets().iter().map(|g| (g["limit"].as_u64().unwrap(), g["offset"].as_u64().unwrap_or(0))).collect();
    assert_eq!(windows, [(300, 0), (300, 300), (101, 600)], "the last asks for one more than the bound leaves");
}

#[test]
fn a_server_that_ignores_offset_is_an_error_not_a_loop() {
    let chroma = seeded(700);
    let fake = chroma.clone();
    chroma.set_fault(move |req| {
        let mut body: Value = serde_json::from_str(req.body.as_deref()?).ok()?;
        body.as_object_mut()?.remove("offset");
        Some(Ok(
            fake.store_answer(&crate::chroma::transport::HttpRequest { body: Some(body.to_string()), ..req.clone() })
        ))
    });
    let e = all(collection(&chroma, None), Bound::page(None, None)).unwrap_err();
    assert_eq!(e.to_string(), "unexpected answer from Chroma to page \"p\": record \"p#0\" came back twice (the server ignores offset or repeats records)");
    assert_eq!(chroma.gets().len(), 2, "stopped at the first repeat");
}

#[test]
fn more_than_expected_is_an_error() {
    let chroma = seeded(5);
    let e = all(collection(&chroma, None), Bound::records(4)).unwrap_err();
    assert_eq!(e.to_string(), "unexpected answer from Chroma to page \"p\": more records than 4 (the most expected)");
    let e = all(collection(&chroma, None), Bound { records: 10, bytes: 9, why: "test" }).unwrap_err();
    assert_eq!(e.to_string(), "unexpected answer from Chroma to page \"p\": more than 9 bytes of documents (test)");
    let fake = chroma.clone();
    chroma.set_fault(move |req| {
        let mut body: Value = serde_json::from_slice(&fake.store_answer(req).body).ok()?;
        let ids: Vec<Value> = (0..301).map(|i| json!(format!("x{i}"))).collect();
        body["ids"] = Value::Array(ids);
        body["documents"] = Value::Array(vec![json!("x"); 301]);
        body["metadatas"] = Value::Array(vec![json!({"page_slug": "p"}); 301]);
        Some(Ok(HttpResponse::new(200, body.to_string())))
    });
    let e = all(collection(&chroma, None), Bound::page(None, None)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unexpected answer from Chroma to page \"p\": 301 records in answer to a request for at most 300"
    );
}

#[test]
fn pages_are_named_and_the_access_checked_on_the_answer() {
    let chroma = seeded(8);
    let c = collection(&chroma, Some(SessionAccess::new(&Groups::new(["g1"]))));
    let got = all(c, Bound::page(None, None)).unwrap();
    assert_eq!(got.ids, ["p#0", "p#1", "p#2", "p#4", "p#6"], "public chunks and those of g1");
    assert_eq!(chroma.gets()[0]["where"], json!({"page_slug": "p"}), "no access clause for Chroma to match first");
    let groups = Groups::new((0..8).map(|i| format!("g{i}")));
    chroma.clear_log();
    let got = all(collection(&chroma, Some(SessionAccess::new(&groups))), Bound::page(None, None)).unwrap();
    assert_eq!((got.ids.len(), chroma.gets().len()), (8, 1), "many groups: still one request");
}

#[test]
fn a_scoped_query_carries_the_access_once_per_clause() {
    let chroma = seeded(16);
    let groups = Groups::new((0..8).map(|i| format!("g{i}")));
    let c = collection(&chroma, Some(SessionAccess::new(&groups)));
    let req = GetRequest { where_: Some(json!({"page_slug": "p"})), include: vec!["metadatas"], ..Default::default() };
    let got = block_on(async move { c.read_windows(req, 16, Bound::records(16), "a search").await }).unwrap();
    assert_eq!(got.ids.len(), 16, "every chunk once, though public ones match both queries");
    let wheres: Vec<Value> = chroma.gets().iter().map(|g| g["where"].clone()).collect();
    assert_eq!(wheres.len(), 2);
    assert!(wheres.iter().all(|w| w["$and"][0] == json!({"page_slug": "p"}) && w["$and"][1].is_object()));
}

#[test]
fn a_scope_read_whole_stops_at_what_the_tree_declares() {
    let chroma = seeded(700);
    let c = collection(&chroma, None);
    let req = GetRequest { include: vec!["documents"], ..Default::default() };
    let got = block_on({
        let (c, req) = (c.clone(), req.clone());
        async move { c.read_windows(req, 700, Bound::records(700), "a scope").await }
    })
    .unwrap();
    assert_eq!(got.ids.len(), 700);
    assert_eq!(chroma.gets().len(), 3, "700 expected: three windows at once, the last short");
    let e = block_on(async move { c.read_windows(req, 10, Bound::records(400), "a scope").await }).unwrap_err();
    assert_eq!(e.to_string(), "unexpected answer from Chroma to a scope: more records than 400 (the most expected)");
}

#[test]
fn reads_by_id_go_out_together_300_ids_a_request() {
    let chroma = seeded(650);
    let latch = Latch::new();
    chroma.hold(&latch);
    let c = collection(&chroma, None);
    let ids: Vec<String> = (0..650).map(|i| format!("p#{i}")).chain(["gone#0".to_string()]).collect();
    let mut ex = crate::testing::Executor::new();
    let out = Rc::new(std::cell::RefCell::new(None));
    {
        let out = out.clone();
        ex.spawn(async move { *out.borrow_mut() = Some(c.get_by_ids(&ids, "a prefetch").await) });
    }
    ex.run_until_stalled();
    assert_eq!(chroma.in_flight(), 3, "651 ids: three requests at once");
    latch.open();
    ex.run_until_stalled();
    assert_eq!(out.borrow_mut().take().map(|r| r.map(|g| g.ids.len())), Some(Ok(650)), "ids not found are absent");
    assert!(chroma.gets().iter().all(|g| g["ids"].as_array().unwrap().len() <= 300 && g.get("where").is_none()));
}

#[test]
fn reads_by_id_keep_only_what_the_scope_admits_and_refuse_extra_records() {
    let chroma = seeded(4);
    let c = collection(&chroma, Some(SessionAccess::new(&Groups::new(["g1"]))));
    let ids: Vec<String> = (0..4).map(|i| format!("p#{i}")).collect();
    let got = block_on({
        let (c, ids) = (c.clone(), ids.clone());
        async move { c.get_by_ids(&ids, "page \"p\"").await }
    })
    .unwrap();
    assert_eq!(got.ids, ["p#0", "p#1", "p#2"], "p#3 belongs to g3");
    assert!(chroma.gets()[0].get("where").is_none(), "access is checked on the answer, not sent as a where");
    let fake = chroma.clone();
    chroma.set_fault(move |req| {
        let mut body: Value = serde_json::from_slice(&fake.store_answer(req).body).ok()?;
        body["ids"].as_array_mut()?.push(json!("intruder"));
        body["documents"].as_array_mut()?.push(json!("x"));
        body["metadatas"].as_array_mut()?.push(json!({"page_slug": "p"}));
        Some(Ok(HttpResponse::new(200, body.to_string())))
    });
    let e = block_on(async move { c.get_by_ids(&ids[..1], "page \"p\"").await }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unexpected answer from Chroma to page \"p\": 2 records in answer to a request for 1 ids"
    );
}
