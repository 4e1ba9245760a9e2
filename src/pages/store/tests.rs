//! The page store over an in-memory Chroma: reads, sharing, bulk loads, failures.

use super::shared::memory::MemoryShared;
use super::*;
use crate::chroma::transport::{HttpResponse, TransportError};
use crate::chroma::{Client, ClientConfig};
use crate::testing::{block_on, chroma::URL, Executor, FakeChroma, Latch};
use crate::tree::schema::Schema;
use serde_json::json;
use std::cell::Cell;

fn store_with(chroma: &FakeChroma, cache_bytes: usize, shared: Option<Rc<dyn SharedCache>>) -> Rc<PageStore> {
    store_of(chroma, ClientConfig::new(URL), cache_bytes, shared)
}

fn store_of(
    chroma: &FakeChroma,
    config: ClientConfig,
    cache_bytes: usize,
    shared: Option<Rc<dyn SharedCache>>,
) -> Rc<PageStore> {
    let client = Rc::new(Client::new(config, Rc::new(chroma.clone())));
    let collection = Collection::new(client, chroma.collection("docs"), Schema::default(), None);
    Rc::new(PageStore::new(
        collection,
        Rc::new(chroma.clone()),
        StoreOptions { cache_bytes, shared, ..StoreOptions::default() },
    ))
}

fn store(chroma: &FakeChroma) -> Rc<PageStore> {
    store_with(chroma, 1 << 20, None)
}

/// A page of a collection written by another tool: read by slug.
fn page(slug: &str, size: Option<u64>, count: Option<u64>) -> PageRef {
    PageRef {
        key: PageKey { collection_id: "c".into(), tree_version: "v".into(), slug: slug.into() },
        size,
        source: Source::Chunks { slug: slug.into(), count, by_id: false, number: None },
        shareable: true,
    }
}

/// A page of a collection written by chromafs's ingest: its chunks are read by id.
fn known(slug: &str, size: u64, count: u64) -> PageRef {
    PageRef {
        source: Source::Chunks { slug: slug.into(), count: Some(count), by_id: true, number: None },
        ..page(slug, Some(size), Some(count))
    }
}

/// `n` one-chunk pages `p000.md`… of 8 bytes each.
fn many(n: usize) -> FakeChroma {
    let chroma = FakeChroma::new();
    for i in 0..n {
        let slug = format!("p{i:03}.md");
        chroma.put(
            "docs",
            &format!("{slug}#0"),
            Some(&format!("page {i:03}")[..8]),
            json!({"page_slug": slug, "chunk_index": 0}),
        );
    }
    chroma
}

fn read(store: &Rc<PageStore>, p: PageRef) -> Loaded {
    let s = store.clone();
    block_on(async move { s.read(&p).await })
}

#[test]
fn a_page_is_its_chunks_in_order_then_served_from_memory() {
    let chroma = FakeChroma::new();
    chroma.pages("docs", &[("a.md", &["one\n", "two\n", "three\n"], json!({"isPublic": true}))], json!({}));
    let s = store(&chroma);
    assert_eq!(&*read(&s, page("a.md", Some(14), Some(3))).unwrap(), b"one\ntwo\nthree\n");
    assert_eq!(&*read(&s, page("a.md", Some(14), Some(3))).unwrap(), b"one\ntwo\nthree\n");
    assert_eq!(chroma.gets().len(), 1, "the second read costs nothing");
    assert_eq!(chroma.gets()[0]["where"], json!({"page_slug": "a.md"}));
    let st = s.stats();
    assert_eq!((st.cache_misses, st.cache_hits, st.cached_pages, st.cached_bytes), (1, 1, 1, 14));
}

#[test]
fn concurrent_reads_of_one_page_share_one_request() {
    let chroma = many(3);
    let latch = Latch::new();
    chroma.hold(&latch);
    let s = store(&chroma);
    let done = Rc::new(Cell::new(0));
    let mut ex = Executor::new();
    for _ in 0..8 {
        let (s, done) = (s.clone(), done.clone());
        ex.spawn(async move {
            assert_eq!(&*s.read(&page("p001.md", Some(8), None)).await.unwrap(), b"page 001");
            done.set(done.get() + 1);
        });
    }
    ex.run_until_stalled();
    assert_eq!(chroma.requests().len(), 1);
    latch.open();
    assert_eq!(ex.run_until_stalled(), 0);
    assert_eq!(done.get(), 8);
    assert_eq!((s.stats().cache_misses, s.stats().cache_hits), (1, 7));
}

#[test]
fn an_abandoned_read_does_not_leave_other_readers_waiting() {
    let chroma = many(1);
    let latch = Latch::new();
    chroma.hold(&latch);
    let s = store(&chroma);
    let got = Rc::new(RefCell::new(None));
    let mut ex = Executor::new();
    let first = {
        let s = s.clone();
        ex.spawn(async move {
            let _ = s.read(&page("p000.md", Some(8), None)).await;
        })
    };
    {
        let (s, got) = (s.clone(), got.clone());
        ex.spawn(async move {
            *got.borrow_mut() = Some(s.read(&page("p000.md", Some(8), None)).await);
        });
    }
    ex.run_until_stalled();
    ex.cancel(first);
    latch.open();
    assert_eq!(ex.run_until_stalled(), 0, "the waiting reader went on by itself");
    assert_eq!(&*got.borrow_mut().take().unwrap().unwrap(), b"page 000");
}

#[test]
fn failures_say_what_and_where_and_are_not_cached() {
    let chroma = FakeChroma::new();
    chroma.pages("docs", &[("a.md", &["one\n", "two\n", "six\n"], json!({"isPublic": true}))], json!({}));
    chroma.remove("docs", "a.md#2");
    let s = store(&chroma);
    let e = read(&s, page("a.md", Some(12), Some(3))).unwrap_err();
    assert_eq!(e.to_string(), "page \"a.md\": the chunks hold 8 bytes but the path tree says 12");
    chroma.remove("docs", "a.md#1");
    chroma.put("docs", "a.md#2", Some("six\n"), json!({"page_slug": "a.md", "chunk_index": 2}));
    let e = read(&s, page("a.md", None, None)).unwrap_err();
    assert_eq!(e.to_string(), "page \"a.md\": chunk 1 is missing");
    chroma.set_fault(|_| Some(Ok(HttpResponse::new(400, r#"{"message":"bad"}"#))));
    let e = read(&s, page("a.md", None, None)).unwrap_err();
    assert_eq!(e.to_string(), "Chroma answered HTTP 400 to page \"a.md\": bad");
    assert_eq!(s.stats().cached_pages, 0);
}

#[test]
fn records_of_other_pages_never_reach_a_page() {
    let chroma = FakeChroma::new();
    chroma.pages("docs", &[("a.md", &["mine\n"], json!({}))], json!({}));
    let fake = chroma.clone();
    chroma.set_fault(move |req| {
        // A server that slips another page's chunk into every answer.
        let resp = fake.store_answer(req);
        let mut body: serde_json::Value = serde_json::from_slice(&resp.body).unwrap();
        body["ids"].as_array_mut().unwrap().push(json!("secret.md#0"));
        body["documents"].as_array_mut().unwrap().push(json!("SECRET\n"));
        body["metadatas"].as_array_mut().unwrap().push(json!({"page_slug": "secret.md", "chunk_index": 1}));
        Some(Ok(HttpResponse::new(200, body.to_string())))
    });
    let s = store(&chroma);
    assert_eq!(&*read(&s, page("a.md", None, None)).unwrap(), b"mine\n", "the stray record is dropped");
    let other = store(&chroma);
    let s2 = other.clone();
    block_on(async move { s2.prefetch(&[page("a.md", None, None)]).await }).unwrap();
    assert_eq!(other.stats().cached_pages, 1);
    assert!(other.cached(&page("secret.md", None, None).key).is_none());
    let e = read(&store(&chroma), page("a.md", Some(5), Some(1))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unexpected answer from Chroma to page \"a.md\": more records than 1 (the chunk count the path tree declares)",
        "more than the tree declares"
    );
}

#[test]
fn prefetch_asks_for_known_pages_by_id_300_a_request_all_at_once() {
    let chroma = many(700);
    let latch = Latch::new();
    chroma.hold(&latch);
    let s = store(&chroma);
    let pages: Vec<PageRef> = (0..700).map(|i| known(&format!("p{i:03}.md"), 8, 1)).collect();
    let mut ex = Executor::new();
    {
        let s = s.clone();
        ex.spawn(async move { s.prefetch(&pages).await.unwrap() });
    }
    ex.run_until_stalled();
    assert_eq!(chroma.in_flight(), 3, "every request at once");
    latch.open();
    assert_eq!(ex.run_until_stalled(), 0);
    let sizes: Vec<usize> = chroma.gets().iter().map(|g| g["ids"].as_array().unwrap().len()).collect();
    assert_eq!(sizes, [300, 300, 100]);
    assert!(chroma.gets().iter().all(|g| g.get("where").is_none()), "no slug list");
    assert_eq!((s.stats().prefetched_pages, s.stats().cached_pages), (700, 700));
    chroma.clear_log();
    assert_eq!(&*read(&s, known("p123.md", 8, 1)).unwrap(), b"page 123");
    assert!(chroma.requests().is_empty(), "prefetched pages are served from memory");
}

#[test]
fn a_page_of_many_chunks_is_read_by_id_in_parallel() {
    let chroma = FakeChroma::new();
    let chunks: Vec<String> = (0..700).map(|i| format!("{i:04}\n")).collect();
    let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
    chroma.pages("docs", &[("big.md", &refs, json!({}))], json!({}));
    let s = store(&chroma);
    assert_eq!(read(&s, known("big.md", 3500, 700)).unwrap().len(), 3500);
    let gets = chroma.gets();
    assert_eq!(gets.len(), 3);
    assert!(gets.iter().all(|g| g.get("offset").is_none()), "no sequential offset walk");
}

#[test]
fn prefetch_of_other_tools_pages_keeps_slug_lists_within_the_quota() {
    let chroma = many(20);
    let s = store(&chroma);
    let pages: Vec<PageRef> = (0..20).map(|i| page(&format!("p{i:03}.md"), Some(8), None)).collect();
    let s2 = s.clone();
    block_on(async move { s2.prefetch(&pages).await }).unwrap();
    let lists: Vec<usize> =
        chroma.gets().iter().map(|g| g["where"]["page_slug"]["$in"].as_array().unwrap().len()).collect();
    assert_eq!(lists, [8, 8, 4], "each $in value is one of Chroma Cloud's 8 predicates");
    assert_eq!(s.stats().prefetched_pages, 20);
}

#[test]
fn a_server_that_takes_more_predicates_gets_longer_slug_lists() {
    let chroma = many(20);
    let config = ClientConfig { where_predicates: 100, ..ClientConfig::new(URL) };
    let s = store_of(&chroma, config, 1 << 20, None);
    let pages: Vec<PageRef> = (0..20).map(|i| page(&format!("p{i:03}.md"), Some(8), None)).collect();
    let wanted = pages.clone();
    let s2 = s.clone();
    block_on(async move { s2.prefetch(&pages).await }).unwrap();
    let lists: Vec<usize> =
        chroma.gets().iter().map(|g| g["where"]["page_slug"]["$in"].as_array().unwrap().len()).collect();
    assert_eq!(lists, [20], "one request for the twenty pages");
    for (i, p) in wanted.into_iter().enumerate() {
        assert_eq!(&*read(&s, p).unwrap(), format!("page {i:03}").as_bytes());
    }
    assert_eq!(chroma.gets().len(), 1, "every page was in the one answer");
}

#[test]
fn prefetch_skips_cached_pages_and_stops_at_the_cache_budget() {
    let chroma = many(10);
    let s = store_with(&chroma, 40, None);
    read(&s, page("p000.md", Some(8), Some(1))).unwrap();
    chroma.clear_log();
    let pages: Vec<PageRef> = (0..10).map(|i| known(&format!("p{i:03}.md"), 8, 1)).collect();
    let s2 = s.clone();
    block_on(async move { s2.prefetch(&pages).await }).unwrap();
    let asked = chroma.gets()[0]["ids"].as_array().unwrap().len();
    assert_eq!(asked, 5, "p000 is cached; five more fill the 40-byte budget");
    assert!(s.stats().cached_bytes <= 40);
}

#[test]
fn pages_of_unknown_size_count_as_the_pages_in_memory_do() {
    // Trees other tools write give no sizes: a bulk load of more pages than the cache holds
    // would evict the first before the command reads them, and each would come back alone.
    let chroma = many(100);
    let s = store_with(&chroma, 40, None);
    read(&s, page("p000.md", None, None)).unwrap();
    assert_eq!(s.size_of(&page("p001.md", None, None)), 8, "the average of the pages held");
    assert_eq!(s.size_of(&page("p001.md", Some(3), None)), 3, "a size the tree gives wins");
    let pages: Vec<PageRef> = (0..100).map(|i| page(&format!("p{i:03}.md"), None, None)).collect();
    let s2 = s.clone();
    block_on(async move { s2.prefetch(&pages).await }).unwrap();
    assert_eq!(s.stats().prefetched_pages, 5, "as many as fill the 40-byte cache, not all 100");
    assert_eq!(s.stats().cached_pages, 5);
    let empty = store_with(&chroma, 1 << 20, None);
    assert_eq!(empty.size_of(&page("p001.md", None, None)), 8 << 10, "a typical page before any is read");
}

#[test]
fn a_failed_prefetch_names_its_cause_and_caches_nothing() {
    let chroma = many(2);
    chroma.set_fault(|req| {
        req.body.as_deref().is_some_and(|b| b.contains("$in")).then_some(Err(TransportError::Timeout))
    });
    let s = store(&chroma);
    let pages = vec![page("p000.md", Some(8), Some(1)), page("p001.md", Some(8), Some(1))];
    let s2 = s.clone();
    let e = block_on(async move { s2.prefetch(&pages).await }).unwrap_err();
    assert_eq!(e.to_string(), "cannot load 2 pages: Chroma did not answer a prefetch of 2 pages within 10000 ms");
    assert_eq!(s.stats().cached_pages, 0);
    assert_eq!(&*read(&s, page("p001.md", Some(8), Some(1))).unwrap(), b"page 001", "a read alone still works");
}

#[test]
fn the_shared_cache_sits_behind_memory() {
    let chroma = many(3);
    let shared = MemoryShared::default();
    let s = store_with(&chroma, 1 << 20, Some(Rc::new(shared.clone())));
    read(&s, page("p000.md", Some(8), Some(1))).unwrap();
    assert_eq!(shared.entries.borrow().len(), 1, "a loaded page is shared");
    let other = store_with(&chroma, 1 << 20, Some(Rc::new(shared.clone())));
    chroma.clear_log();
    assert_eq!(&*read(&other, page("p000.md", Some(8), Some(1))).unwrap(), b"page 000");
    assert!(chroma.requests().is_empty(), "another session reads it from the shared cache");
    let st = other.stats();
    assert_eq!((st.shared_hits, st.shared_misses), (1, 0));
    shared.failing.set(true);
    assert_eq!(
        &*read(&other, page("p001.md", Some(8), Some(1))).unwrap(),
        b"page 001",
        "a failing shared cache is only a miss"
    );
    assert_eq!(other.stats().shared_errors, 2, "the lookup and the store both failed");
}

#[test]
fn lazy_pages_are_loaded_checked_and_kept_apart() {
    let chroma = FakeChroma::new();
    chroma.collection("docs");
    chroma.set_fault(|req| req.url.starts_with("https://files.test/").then(|| Ok(HttpResponse::new(200, "spec\n"))));
    let shared = MemoryShared::default();
    let s = store_with(&chroma, 1 << 20, Some(Rc::new(shared.clone())));
    let lazy = |url: &str, size, shareable| PageRef {
        key: PageKey { collection_id: "c".into(), tree_version: "host".into(), slug: url.into() },
        size,
        source: Source::Lazy(LazySource::Url(url.into())),
        shareable,
    };
    assert_eq!(&*read(&s, lazy("https://files.test/a", Some(5), false)).unwrap(), b"spec\n");
    assert!(shared.entries.borrow().is_empty(), "a session's own lazy file is not shared");
    let e = read(&s, lazy("https://files.test/b", Some(9), true)).unwrap_err();
    assert_eq!(e.to_string(), "lazy file is 5 bytes but the path tree says 9");
    assert_eq!(s.stats().lazy_fetches, 2);
}

#[test]
fn eviction_during_a_prefetch_never_leaves_a_reader_waiting() {
    // A bulk load larger than the cache, with 50 readers (just-bash's batch) at once and
    // a client that lets 10 requests through at a time.
    let chroma = many(300);
    let latch = Latch::new();
    chroma.hold(&latch);
    let s = store_with(&chroma, 64, None);
    let pages: Vec<PageRef> = (0..300).map(|i| page(&format!("p{i:03}.md"), Some(8), Some(1))).collect();
    let done = Rc::new(Cell::new(0));
    let mut ex = Executor::new();
    {
        let (s, pages) = (s.clone(), pages.clone());
        ex.spawn(async move { s.prefetch(&pages).await.unwrap() });
    }
    for i in 0..50 {
        let (s, p, done) = (s.clone(), pages[(i * 7) % 300].clone(), done.clone());
        ex.spawn(async move {
            let bytes = s.read(&p).await.unwrap();
            assert_eq!(&*bytes, format!("page {:03}", (i * 7) % 300).as_bytes());
            done.set(done.get() + 1);
        });
    }
    ex.run_until_stalled();
    assert!(chroma.in_flight() <= 10);
    latch.open();
    assert_eq!(ex.run_until_stalled(), 0, "every task finished");
    assert_eq!(done.get(), 50);
    assert!(s.stats().cached_bytes <= 64);
}

#[test]
fn a_command_that_may_stop_early_reads_ahead_in_growing_windows() {
    let chroma = many(2000);
    let s = store_with(&chroma, 1 << 20, None);
    let pages: Vec<PageRef> = (0..2000).map(|i| known(&format!("p{i:03}.md"), 8, 1)).collect();
    s.plan_reads_growing(pages.clone(), 1000);
    chroma.clear_log();
    let read_upto = |end: usize| {
        for p in &pages[..end] {
            read(&s, p.clone()).unwrap();
        }
        chroma.gets().iter().map(|g| g["ids"].as_array().unwrap().len()).collect::<Vec<_>>()
    };
    assert_eq!(read_upto(10), [300], "the first pages cost one request of one page of records");
    assert_eq!(read_upto(900), [300, 300, 300], "then a window twice as large");
    assert_eq!(read_upto(901).len(), 7, "and twice again");
}

#[test]
fn a_command_reading_more_than_the_cache_holds_reads_ahead_in_windows() {
    let chroma = many(600);
    // Room for 100 of the 600 pages; the command reads them in order, 50 at a time.
    let s = store_with(&chroma, 800, None);
    let pages: Vec<PageRef> = (0..600).map(|i| known(&format!("p{i:03}.md"), 8, 1)).collect();
    s.plan_reads(pages.clone());
    chroma.clear_log();
    for batch in pages.chunks(50) {
        let mut ex = Executor::new();
        for (i, p) in batch.iter().enumerate() {
            let (s, p) = (s.clone(), p.clone());
            ex.spawn(async move {
                let bytes = s.read(&p).await.unwrap();
                assert_eq!(bytes.len(), 8, "page {i}");
            });
        }
        assert_eq!(ex.run_until_stalled(), 0);
    }
    let gets = chroma.gets();
    assert_eq!(gets.len(), 12, "windows of half the cache (50 pages), not one request a page");
    assert!(gets.iter().all(|g| g["ids"].as_array().unwrap().len() == 50));
    s.clear_plan();
    chroma.clear_log();
    read(&s, pages[0].clone()).unwrap();
    assert_eq!(chroma.gets()[0]["ids"].as_array().unwrap().len(), 1, "without a plan, a miss loads its page alone");
}

#[test]
fn a_read_of_a_page_a_bulk_load_is_fetching_waits_for_it() {
    let chroma = many(2);
    let latch = Latch::new();
    chroma.hold(&latch);
    let s = store(&chroma);
    let pages = vec![known("p000.md", 8, 1), known("p001.md", 8, 1)];
    let mut ex = Executor::new();
    {
        let (s, pages) = (s.clone(), pages.clone());
        ex.spawn(async move { s.prefetch(&pages).await.unwrap() });
    }
    ex.run_until_stalled();
    {
        let (s, p) = (s.clone(), pages[1].clone());
        ex.spawn(async move { assert_eq!(&*s.read(&p).await.unwrap(), b"page 001") });
    }
    ex.run_until_stalled();
    latch.open();
    assert_eq!(ex.run_until_stalled(), 0);
    assert_eq!(chroma.requests().len(), 1, "one bulk load, no second request for the page");
}

/// A page `big.md` with `n` chunks in Chroma, beside one-chunk pages `p000.md`….
fn oversized(n: usize) -> FakeChroma {
    let chroma = many(20);
    for i in 0..n {
        chroma.put("docs", &format!("big.md#{i}"), Some("x\n"), json!({"page_slug": "big.md", "chunk_index": i}));
    }
    chroma
}

#[test]
fn a_page_with_more_chunks_than_declared_fails_at_the_first_answer() {
    let chroma = oversized(2000);
    let e = read(&store(&chroma), page("big.md", Some(2), Some(1))).unwrap_err();
    assert_eq!(e.to_string(), "unexpected answer from Chroma to page \"big.md\": more records than 1 (the chunk count the path tree declares)");
    assert_eq!(chroma.gets().len(), 1, "one request");
    assert_eq!(chroma.gets()[0]["limit"], 2, "asks for one more than declared");
    chroma.clear_log();
    let e = read(&store(&chroma), page("big.md", Some(10), None)).unwrap_err();
    assert_eq!(e.to_string(), "unexpected answer from Chroma to page \"big.md\": more records than 10 (one a byte of the size the path tree declares)");
    assert_eq!(chroma.gets().len(), 1);
}

#[test]
fn without_a_chunk_count_or_size_a_page_holds_at_most_4096_chunks() {
    let chroma = oversized(5000);
    let s = store(&chroma);
    let e = read(&s, page("big.md", None, None)).unwrap_err();
    assert_eq!(e.to_string(), "unexpected answer from Chroma to page \"big.md\": more records than 4096 (the most for a page whose chunk count the path tree does not give)");
    assert_eq!(chroma.gets().len(), 14, "ceil(4097 / 300) requests, not 5000 / 300");
    assert_eq!(s.stats().cached_pages, 0, "nothing cached");
    let fine = oversized(4096);
    assert_eq!(read(&store(&fine), page("big.md", None, None)).unwrap().len(), 8192, "the bound itself is fine");
}

#[test]
fn a_bulk_load_names_the_page_with_too_many_chunks_within_a_few_requests() {
    let chroma = oversized(2000);
    let s = store(&chroma);
    let mut pages: Vec<PageRef> = (0..20).map(|i| page(&format!("p{i:03}.md"), Some(8), Some(1))).collect();
    pages.insert(7, page("big.md", Some(2), Some(1)));
    let s2 = s.clone();
    let e = block_on(async move { s2.prefetch(&pages).await }).unwrap_err();
    assert_eq!(e.to_string(), "cannot load 21 pages: unexpected answer from Chroma to page \"big.md\": more records than 1 (the chunk count the path tree declares)");
    assert!(chroma.gets().len() <= 3, "{} requests", chroma.gets().len());
    assert!(
        chroma.gets().iter().all(|g| g["limit"].as_u64() <= Some(9)),
        "each query asks for one more than its pages may hold"
    );
    // Known pages read by id are bounded by the ids asked for.
    let by_id = oversized(2000);
    let s = store(&by_id);
    let s2 = s.clone();
    block_on(async move { s2.prefetch(&[known("big.md", 2, 1)]).await }).unwrap();
    assert_eq!(by_id.gets()[0]["ids"], json!(["big.md#0"]));
}

#[test]
fn a_lazy_file_longer_than_declared_fails_at_once_and_is_not_kept() {
    let chroma = FakeChroma::new();
    chroma.collection("docs");
    chroma.set_fault(|req| {
        req.url.starts_with("https://files.test/").then(|| Ok(HttpResponse::new(200, vec![b'x'; 1 << 16])))
    });
    let s = store_with(&chroma, 1 << 20, None);
    let lazy = |size| PageRef {
        key: PageKey { collection_id: "c".into(), tree_version: "v".into(), slug: "spec.json".into() },
        size,
        source: Source::Lazy(LazySource::TreeUrl("https://files.test/spec.json".into())),
        shareable: true,
    };
    let e = read(&s, lazy(Some(10))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "GET https://files.test/spec.json answered more than 10 bytes (the size the path tree declares)"
    );
    assert_eq!(chroma.requests().last().unwrap().body_limit, 10);
    assert_eq!(s.stats().cached_pages, 0);
    let capped = Rc::new(PageStore::new(
        s.collection.clone(),
        Rc::new(chroma.clone()),
        StoreOptions { cache_bytes: 1 << 20, lazy_max_bytes: 1000, ..StoreOptions::default() },
    ));
    let e = read(&capped, lazy(None)).unwrap_err();
    assert_eq!(e.to_string(), "GET https://files.test/spec.json answered more than 1000 bytes (lazyMaxBytes)");
    assert_eq!(read(&store_with(&chroma, 1 << 20, None), lazy(None)).unwrap().len(), 1 << 16, "32 MiB by default");
}

#[test]
fn a_window_holding_a_page_with_too_many_chunks_stops_reading_ahead() {
    let chroma = oversized(2000);
    let s = store(&chroma);
    let mut pages: Vec<PageRef> = (0..20).map(|i| page(&format!("p{i:03}.md"), Some(8), Some(1))).collect();
    pages.insert(10, page("big.md", Some(2), Some(1)));
    s.plan_reads(pages.clone());
    for p in &pages[..5] {
        read(&s, p.clone()).unwrap();
    }
    let windows = chroma.gets().iter().filter(|g| g["where"]["page_slug"]["$in"].is_array()).count();
    assert!(windows <= 3, "the failing window is asked for once, not once a page: {windows} bulk queries");
    assert_eq!(chroma.gets().len(), windows + 5, "then each page alone");
    let e = read(&s, pages[10].clone()).unwrap_err();
    assert!(e.to_string().contains("more records than 1"), "{e}");
}

#[test]
fn a_scan_larger_than_the_process_tier_leaves_what_it_keeps_in_place() {
    let chroma = many(200);
    let session = || {
        let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(chroma.clone())));
        let collection = Collection::new(client, chroma.collection("docs"), Schema::default(), None);
        let process = Some(ProcessPages::new("tree", "docs", None));
        Rc::new(PageStore::new(
            collection,
            Rc::new(chroma.clone()),
            StoreOptions { cache_bytes: 1 << 20, process, ..StoreOptions::default() },
        ))
    };
    process::set_capacity(400);
    let (a, b) = (session(), session());
    let hot = known("p199.md", 8, 1);
    read(&a, hot.clone()).unwrap();
    // 150 pages of 8 bytes: three times what the tier holds.
    let scan: Vec<PageRef> = (0..150).map(|i| known(&format!("p{i:03}.md"), 8, 1)).collect();
    a.plan_reads(scan.clone());
    for p in scan {
        read(&a, p).unwrap();
    }
    a.clear_plan();
    chroma.clear_log();
    read(&b, hot).unwrap();
    assert!(chroma.gets().is_empty(), "the page another session kept is still there");
    read(&b, known("p000.md", 8, 1)).unwrap();
    assert!(chroma.gets().is_empty(), "and the scan's first pages filled the room left");
    process::set_capacity(process::DEFAULT_BYTES);
}
