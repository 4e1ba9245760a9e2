//! Writing a plan over an in-memory Chroma: the built-in embedding, and re-runs that write
//! and embed only what changed.

use super::*;
use crate::chroma::ClientConfig;
use crate::ingest::{parse_access_rules, plan, Rules, SourceFile};
use crate::testing::{block_on, chroma::URL, FakeChroma};
use std::cell::Cell;
use std::rc::Rc;

#[test]
fn default_embedding_is_deterministic_and_unit_length() {
    let a = default_embedding("Install the CLI");
    assert_eq!(a, default_embedding("install the cli"));
    assert!((a.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5);
    assert_eq!(default_embedding("").len(), DEFAULT_DIMENSION);
}

/// Counts the texts it embeds, and names the method it embeds them by, if any.
struct Counting(Cell<usize>, Option<&'static str>);

impl Embedder for Counting {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        self.0.set(self.0.get() + texts.len());
        Box::pin(async move { Ok(texts.iter().map(|t| default_embedding(t)).collect()) })
    }

    fn method(&self) -> Option<&str> {
        self.1
    }
}

fn files(pages: &[(&str, &str)]) -> Vec<SourceFile> {
    pages
        .iter()
        .map(|(p, c)| SourceFile { path: p.to_string(), content: c.as_bytes().to_vec(), mtime: Some(1000.0) })
        .collect()
}

/// One ingest run: the summary, and how many texts were embedded.
fn run(chroma: &FakeChroma, pages: &[(&str, &str)], access: &str) -> (Summary, usize) {
    run_by(chroma, pages, access, None)
}

/// One ingest run with an embedder that names its method.
fn run_by(chroma: &FakeChroma, pages: &[(&str, &str)], access: &str, method: Option<&'static str>) -> (Summary, usize) {
    let rules = Rules::new(parse_access_rules(access).unwrap(), false);
    let plan = plan(&files(pages), &rules, 64, "__path_tree__").unwrap();
    let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
    let schema = Schema::default();
    let counting = Rc::new(Counting(Cell::new(0), method));
    let c = counting.clone();
    let summary = block_on(async move {
        let opts = WriteOptions { collection: "docs", schema: &schema, plain_tree: false, lease: Default::default() };
        write(&client, &plan, &opts, &*c).await.unwrap()
    });
    let embedded = counting.0.get();
    (summary, embedded)
}

const LONG: &str = "line one of a page that is long enough to take chunks\nline two\nline three of it\nline four\n";

#[test]
fn a_rerun_over_unchanged_docs_writes_and_embeds_nothing() {
    let chroma = FakeChroma::new();
    let pages = [("a.md", LONG), ("b.md", "short\n"), ("internal/c.md", "secret\n")];
    let access = r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}}"#;
    let (first, embedded) = run(&chroma, &pages, access);
    assert!(first.chunks > 3 && first.chunks_written == first.chunks && first.tree_written);
    assert!(embedded >= first.chunks);
    chroma.clear_log();
    let (again, embedded) = run(&chroma, &pages, access);
    assert_eq!((again.chunks_written, again.removed_records, again.tree_written, embedded), (0, 0, false, 0));
    let writes = chroma.requests().iter().filter(|r| r.url.ends_with("/upsert") || r.url.ends_with("/delete")).count();
    assert_eq!(writes, 0, "nothing is written");
}

#[test]
fn a_rerun_writes_what_changed_and_every_chunk_of_a_page_made_private() {
    let chroma = FakeChroma::new();
    let access = r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}}"#;
    let pages = [("a.md", LONG), ("b.md", "short\n"), ("gone.md", "bye\n"), ("internal/c.md", "secret\n")];
    let (first, _) = run(&chroma, &pages, access);
    // a.md's last line edited; b.md made private; gone.md removed.
    let edited = LONG.replace("line four", "line 4");
    let pages = [("a.md", edited.as_str()), ("b.md", "short\n"), ("internal/c.md", "secret\n")];
    let private = r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}, "b.md": {"isPublic": false, "groups": ["admin"]}}"#;
    let (again, embedded) = run(&chroma, &pages, private);
    let a_chunks = first.chunks - 3;
    assert!(
        again.chunks_written >= 2 && again.chunks_written < a_chunks + 1,
        "a.md's changed chunk and b.md: {}",
        again.chunks_written
    );
    assert_eq!(embedded, again.chunks_written);
    assert_eq!(again.removed_records, 1, "gone.md's chunk");
    assert!(again.tree_written);
    // b.md's chunk now carries the admins' access.
    let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
    let got = block_on(async move {
        let id = client.collection("docs").await.unwrap().id;
        let req = GetRequest {
            ids: Some(vec![schema::chunk_id("b.md", 0)]),
            include: vec!["metadatas"],
            ..Default::default()
        };
        client.get_once(&id, &req, "b").await.unwrap()
    });
    assert_eq!(got.metadata(0).unwrap()[schema::IS_PUBLIC], json!(false));
    assert_eq!(got.metadata(0).unwrap()[schema::GROUPS], json!(["admin"]));
}

#[test]
fn another_model_embeds_everything_again() {
    let chroma = FakeChroma::new();
    let pages = [("a.md", "one\n"), ("b.md", "two\n")];
    run(&chroma, &pages, "{}");
    struct Other;
    impl Embedder for Other {
        fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
            Box::pin(async move { Ok(texts.iter().map(|_| vec![1.0, 0.0]).collect()) })
        }
        fn model(&self) -> Option<&str> {
            Some("other")
        }
    }
    let rules = Rules::default();
    let plan = plan(&files(&pages), &rules, 64, "__path_tree__").unwrap();
    let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
    let schema = Schema::default();
    let s = block_on(async move {
        let opts = WriteOptions { collection: "docs", schema: &schema, plain_tree: false, lease: Default::default() };
        write(&client, &plan, &opts, &Other).await.unwrap()
    });
    assert_eq!((s.chunks_written, s.tree_written), (2, true));
}

/// The embedding the stored tree's manifest records.
fn recorded(chroma: &FakeChroma) -> Option<Embedding> {
    let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
    let doc = block_on(async move {
        let id = client.collection("docs").await.unwrap().id;
        let req =
            GetRequest { ids: Some(vec!["__path_tree__".into()]), include: vec!["documents"], ..Default::default() };
        client.get_once(&id, &req, "tree").await.unwrap().document(0).unwrap().to_string()
    });
    match shards::read_record(&doc) {
        shards::Record::Manifest(m) => m.embedding,
        shards::Record::Whole(_) => panic!("the tree is a manifest"),
    }
}

#[test]
fn a_new_way_of_embedding_passages_embeds_everything_again_once() {
    let chroma = FakeChroma::new();
    let pages = [("a.md", LONG), ("b.md", "two\n")];
    // Written before embedders named their method: the manifest records none.
    let (first, _) = run(&chroma, &pages, "{}");
    assert_eq!(recorded(&chroma).map(|e| e.method), Some(None));
    let (s, embedded) = run_by(&chroma, &pages, "{}", Some("windows"));
    assert_eq!((s.chunks_written, embedded, s.tree_written), (first.chunks, first.chunks, true));
    assert_eq!(recorded(&chroma).and_then(|e| e.method).as_deref(), Some("windows"));
    let (s, embedded) = run_by(&chroma, &pages, "{}", Some("windows"));
    assert_eq!((s.chunks_written, embedded, s.tree_written), (0, 0, false), "the same method again embeds nothing");
    let (s, embedded) = run_by(&chroma, &pages, "{}", Some("another"));
    assert_eq!((s.chunks_written, embedded), (first.chunks, first.chunks));
    let (s, embedded) = run(&chroma, &pages, "{}");
    assert_eq!((s.chunks_written, embedded), (first.chunks, first.chunks), "a method no longer named is a change too");
    assert_eq!(recorded(&chroma).map(|e| e.method), Some(None));
}

/// Pages of `chunks` chunks in all (a chunk a line at 64 bytes a chunk).
fn many(chunks: usize) -> Vec<(String, String)> {
    (0..chunks.div_ceil(50))
        .map(|p| {
            (
                format!("p{p}.md"),
                (0..50).map(|l| format!("line {l} of page {p} that fills most of one chunk\n")).collect(),
            )
        })
        .collect()
}

/// An embedder that answers after a turn of the executor, says how many of its calls were in
/// flight at most, and fails its `fail_at`th call.
struct Service {
    calls: Cell<usize>,
    texts: Cell<usize>,
    in_flight: Cell<usize>,
    peak: Cell<usize>,
    concurrency: usize,
    fail_at: Option<usize>,
    function: Option<Value>,
}

impl Service {
    fn new(concurrency: usize, fail_at: Option<usize>) -> Self {
        Service {
            calls: Cell::new(0),
            texts: Cell::new(0),
            in_flight: Cell::new(0),
            peak: Cell::new(0),
            concurrency,
            fail_at,
            function: None,
        }
    }
}

impl Embedder for Service {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        self.calls.set(self.calls.get() + 1);
        let call = self.calls.get();
        self.in_flight.set(self.in_flight.get() + 1);
        self.peak.set(self.peak.get().max(self.in_flight.get()));
        Box::pin(async move {
            let mut turned = false;
            std::future::poll_fn(|cx| {
                if turned {
                    return std::task::Poll::Ready(());
                }
                turned = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            })
            .await;
            self.in_flight.set(self.in_flight.get() - 1);
            if self.fail_at == Some(call) {
                return Err("the service answered 503 for 60 s".into());
            }
            self.texts.set(self.texts.get() + texts.len());
            Ok(texts.iter().map(|t| default_embedding(t)).collect())
        })
    }

    fn model(&self) -> Option<&str> {
        Some("text-embedding-3-small")
    }

    fn concurrency(&self) -> usize {
        self.concurrency
    }

    fn chroma_function(&self) -> Option<&Value> {
        self.function.as_ref()
    }
}

fn run_with(chroma: &FakeChroma, pages: &[(String, String)], embedder: Rc<Service>) -> Result<Summary, String> {
    let pages: Vec<(&str, &str)> = pages.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let plan = plan(&files(&pages), &Rules::default(), 64, "__path_tree__").unwrap();
    let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
    let schema = Schema::default();
    block_on(async move {
        let opts = WriteOptions { collection: "docs", schema: &schema, plain_tree: false, lease: Default::default() };
        write(&client, &plan, &opts, &*embedder).await
    })
}

#[test]
fn batches_are_embedded_ahead_of_the_write_as_many_at_once_as_the_embedder_takes() {
    let chroma = FakeChroma::new();
    let pages = many(3000);
    let service = Rc::new(Service::new(4, None));
    let s = run_with(&chroma, &pages, service.clone()).unwrap();
    assert_eq!(s.chunks_written, 3000);
    assert_eq!(service.texts.get(), 3000, "every chunk once");
    assert_eq!(service.peak.get(), 4, "four calls at once, never more");
    let one = Rc::new(Service::new(1, None));
    run_with(&FakeChroma::new(), &pages, one.clone()).unwrap();
    assert_eq!(one.peak.get(), 1);
}

/// How many records the upserts sent to `chroma` so far wrote, leases left out.
fn upserted(chroma: &FakeChroma) -> usize {
    chroma
        .requests()
        .iter()
        .filter(|r| r.url.ends_with("/upsert"))
        .flat_map(|r| {
            serde_json::from_str::<Value>(r.body.as_deref().unwrap()).unwrap()["ids"].as_array().unwrap().clone()
        })
        .filter(|id| !lease::is_lease("__path_tree__", id.as_str().unwrap()))
        .count()
}

#[test]
fn a_run_that_stopped_half_way_is_resumed_without_embedding_what_it_wrote() {
    let chroma = FakeChroma::new();
    let pages = many(3000);
    let failing = Rc::new(Service::new(2, Some(5)));
    let e = run_with(&chroma, &pages, failing.clone()).unwrap_err();
    assert!(e.contains("503"), "{e}");
    let written = upserted(&chroma);
    assert!((300..3000).contains(&written), "some batches were written before it stopped: {written}");
    let again = Rc::new(Service::new(2, None));
    let s = run_with(&chroma, &pages, again.clone()).unwrap();
    assert_eq!(s.chunks_written, 3000 - written, "only what the first run did not write");
    assert_eq!(again.texts.get(), 3000 - written);
    let third = Rc::new(Service::new(2, None));
    let s = run_with(&chroma, &pages, third.clone()).unwrap();
    assert_eq!((s.chunks_written, third.texts.get(), s.tree_written), (0, 0, false));
}

#[test]
fn every_batch_embedded_before_the_service_failed_is_written() {
    let chroma = FakeChroma::new();
    let pages = many(3000);
    // Four calls at once, the second fails: the first, third and fourth were embedded.
    let failing = Rc::new(Service::new(4, Some(2)));
    run_with(&chroma, &pages, failing.clone()).unwrap_err();
    let written = upserted(&chroma);
    assert_eq!(written, failing.texts.get(), "what was embedded is written, not embedded again next time");
    assert_eq!(written, 900);
}

#[test]
fn the_function_is_recorded_where_chromas_clients_read_it() {
    let chroma = FakeChroma::new();
    let pages = many(10);
    let function = json!({"name": "openai", "config": {"model_name": "text-embedding-3-small", "api_key_env_var": "OPENAI_API_KEY"}});
    let service = Rc::new(Service { function: Some(function.clone()), ..Service::new(1, None) });
    run_with(&chroma, &pages, service).unwrap();
    let read = || {
        let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
        block_on(async move { client.collection("docs").await.unwrap().function })
    };
    let f = read().expect("recorded at creation");
    assert_eq!((f.name.as_str(), f.model.as_deref()), ("openai", Some("text-embedding-3-small")));
    chroma.clear_log();
    let same = Rc::new(Service { function: Some(function), ..Service::new(1, None) });
    run_with(&chroma, &pages, same).unwrap();
    assert!(!chroma.requests().iter().any(|r| r.method == "PUT"), "the same function is not written again");
    let other = json!({"name": "openai", "config": {"model_name": "m2", "api_key_env_var": "OPENAI_API_KEY", "api_base": "http://127.0.0.1:9/v1"}});
    let service = Rc::new(Service { function: Some(other), ..Service::new(1, None) });
    run_with(&chroma, &pages, service).unwrap();
    let f = read().unwrap();
    assert_eq!((f.model.as_deref(), f.api_base.as_deref()), (Some("m2"), Some("http://127.0.0.1:9/v1")));
}

#[test]
fn an_ingest_is_refused_while_another_holds_the_collection_and_goes_on_once_its_lease_lapsed() {
    let chroma = FakeChroma::new();
    let pages = [("a.md", LONG), ("b.md", "short\n")];
    run(&chroma, &pages, "{}");
    let now = {
        let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
        client.now_ms()
    };
    let other = |until: f64| json!({"chromafs": "ingest-lease", "owner": "other", "until": until});
    chroma.put("docs", &lease::lease_id("__path_tree__", "other"), None, other(now + 30_000.0));
    chroma.clear_log();
    let a = LONG.replace("line four", "line 4");
    let edited = [("a.md", a.as_str()), ("b.md", "short\n")];
    let plan = plan(&files(&edited), &Rules::default(), 64, "__path_tree__").unwrap();
    let attempt = |chroma: &FakeChroma| crate::testing::write_plan(chroma, plan.clone(), Rc::new(DefaultEmbedder));
    let e = attempt(&chroma).unwrap_err();
    assert!(e.starts_with("another ingest is writing collection \"docs\": its lease runs 30 s more"), "{e}");
    let writes = chroma.requests().iter().filter(|r| r.url.ends_with("/upsert") || r.url.ends_with("/delete")).count();
    assert_eq!(writes, 0, "nothing is written");
    // The other run was stopped: once its lease lapses, the next run goes on, makes the
    // index anew (what the stopped run wrote is not proven) and removes the lease.
    chroma.put("docs", &lease::lease_id("__path_tree__", "other"), None, other(now - 1.0));
    let s = attempt(&chroma).unwrap();
    assert!(s.chunks_written > 0 && s.tree_written && s.grep_index.written > 0);
    assert_eq!(s.removed_records, 0, "the lease is not counted as a page's record");
    assert!(!chroma.ids("docs").iter().any(|id| lease::is_lease("__path_tree__", id)), "no lease is left");
}

#[test]
fn of_two_ingests_started_together_one_withdraws_before_it_writes() {
    let chroma = FakeChroma::new();
    run(&chroma, &[("a.md", "one\n")], "{}");
    chroma.clear_log();
    // Another run's lease appears between this run's reading of the collection and its
    // first write, as when both start at once.
    let c = chroma.clone();
    let planted = Cell::new(false);
    chroma.set_fault(move |req| {
        if req.url.ends_with("/upsert") && !planted.replace(true) {
            let until = 1e15;
            c.put(
                "docs",
                &lease::lease_id("__path_tree__", "other"),
                None,
                json!({"chromafs": "ingest-lease", "owner": "other", "until": until}),
            );
        }
        None
    });
    let plan = plan(&files(&[("a.md", "two\n")]), &Rules::default(), 64, "__path_tree__").unwrap();
    let e = crate::testing::write_plan(&chroma, plan, Rc::new(DefaultEmbedder)).unwrap_err();
    assert!(e.starts_with("another ingest is writing collection \"docs\""), "{e}");
    let ids = chroma.ids("docs");
    assert_eq!(
        ids.iter().filter(|id| lease::is_lease("__path_tree__", id)).count(),
        1,
        "its own lease withdrawn: {ids:?}"
    );
    let upserted: Vec<String> = chroma
        .requests()
        .iter()
        .filter(|r| r.url.ends_with("/upsert"))
        .map(|r| r.body.clone().unwrap_or_default())
        .collect();
    assert_eq!(upserted.len(), 1, "only its lease was written: {upserted:?}");
}
