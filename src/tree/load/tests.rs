//! Loading, keeping and revalidating trees, over an in-memory Chroma.

use super::*;
use crate::chroma::transport::{HttpResponse, TransportError};
use crate::options::Options;
use crate::testing::{block_on, chroma::URL, FakeChroma};
use serde_json::json;
use serde_json::Map;

fn opts(collection: &str) -> Options {
    Options::new(URL, collection)
}

fn open_now(chroma: &FakeChroma, o: Options, now: f64) -> Result<Opened, FsError> {
    let client = Client::new(o.client.clone(), Rc::new(chroma.clone()));
    block_on(async move { open(&client, &o.tree_location(), now).await })
}

/// A tree as chromafs's ingest writes it: a manifest and shards.
fn write_tree(chroma: &FakeChroma, collection: &str, doc: &str) -> shards::Written {
    let entries: Map<String, Value> = serde_json::from_str(doc).unwrap();
    let w = shards::write(&entries, ChunkFacts { line_aligned: true, access: true, dirs: true, ids: true }, false);
    for (i, shard) in w.shards.iter().enumerate() {
        chroma.put(collection, &shards::shard_id("__path_tree__", i), Some(shard), json!({"chromafs": "path-tree"}));
    }
    chroma.put(collection, "__path_tree__", Some(&w.document), json!({"chromafs": "path-tree"}));
    w
}

const ONE: &str = r#"{"a.md": {"isPublic": true}}"#;
const TWO: &str = r#"{"a.md": {"isPublic": true}, "b.md": {"isPublic": true}}"#;

#[test]
fn a_kept_tree_is_revalidated_with_one_small_request() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "fresh", ONE);
    let first = open_now(&chroma, opts("fresh"), 0.0).unwrap();
    assert!(!first.from_cache && first.tree.line_aligned() && first.tree.chunk_access());
    assert_eq!(chroma.requests().len(), 2, "collection id, then the manifest with its shards");
    chroma.clear_log();
    let second = open_now(&chroma, opts("fresh"), 1.0).unwrap();
    assert!(second.from_cache && second.revalidated && Rc::ptr_eq(&first.tree, &second.tree));
    let gets = chroma.gets();
    assert_eq!(gets.len(), 1);
    assert_eq!(
        gets[0]["ids"],
        json!(["__path_tree__", "__path_tree__@annotations"]),
        "the manifest alone (and the annotations of other tools' trees)"
    );
}

#[test]
fn a_changed_tree_is_reloaded() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "changing", ONE);
    let first = open_now(&chroma, opts("changing"), 0.0).unwrap();
    write_tree(&chroma, "changing", TWO);
    chroma.clear_log();
    let second = open_now(&chroma, opts("changing"), 1.0).unwrap();
    assert!(!second.from_cache && !Rc::ptr_eq(&first.tree, &second.tree));
    assert_eq!(second.tree.tree.entries.len(), 2);
    assert_eq!(
        chroma.requests().len(),
        3,
        "the manifest, the collection (what it records may have changed with it), then its shards"
    );
}

#[test]
fn trees_written_by_other_tools_are_compared_whole() {
    let chroma = FakeChroma::new();
    chroma.put("other-tool", "__path_tree__", Some(ONE), json!({"line_aligned": true}));
    let first = open_now(&chroma, opts("other-tool"), 0.0).unwrap();
    assert!(
        first.tree.line_aligned() && !first.tree.chunk_access(),
        "chunk access is only ever declared by a manifest"
    );
    chroma.clear_log();
    assert!(open_now(&chroma, opts("other-tool"), 1.0).unwrap().from_cache);
    chroma.put("other-tool", "__path_tree__", Some(TWO), json!({"line_aligned": true}));
    chroma.clear_log();
    let changed = open_now(&chroma, opts("other-tool"), 2.0).unwrap();
    assert!(!changed.from_cache);
    assert_eq!(changed.tree.tree.entries.len(), 2);
    assert_eq!(chroma.requests().len(), 2, "the tree came with the check; the collection is read again with it");
}

#[test]
fn a_manifest_overwritten_by_a_whole_tree_is_read_as_one() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "overwritten", TWO);
    assert!(open_now(&chroma, opts("overwritten"), 0.0).unwrap().tree.chunk_access());
    // Another tool writes a whole tree; Chroma keeps the record's old metadata fields.
    chroma.put("overwritten", "__path_tree__", Some(ONE), json!({"chromafs": "path-tree"}));
    let now = open_now(&chroma, opts("overwritten"), 1.0).unwrap();
    assert_eq!(now.tree.tree.entries.len(), 1);
    assert!(!now.tree.chunk_access() && !now.tree.line_aligned());
}

#[test]
fn a_tree_caught_mid_rewrite_is_read_again() {
    let chroma = FakeChroma::new();
    let old = write_tree(&chroma, "torn", ONE);
    let new = write_tree(&chroma, "torn", TWO);
    // The new manifest is in, the old shard is still there.
    chroma.put("torn", "__path_tree__#0", Some(&old.shards[0]), json!({}));
    let fake = chroma.clone();
    let shard = new.shards[0].clone();
    let checks = Rc::new(std::cell::Cell::new(0));
    let seen = checks.clone();
    chroma.set_fault(move |_| {
        seen.set(seen.get() + 1);
        if seen.get() == 3 {
            fake.put("torn", "__path_tree__#0", Some(&shard), json!({}));
        }
        None
    });
    let t = open_now(&chroma, opts("torn"), 0.0).unwrap();
    assert_eq!(t.tree.tree.entries.len(), 2, "read again once the ingest finished");
    assert_eq!(chroma.slept(), [400]);
    chroma.clear_fault();
    chroma.put("torn", "__path_tree__#0", Some(&old.shards[0]), json!({}));
    crate::tree::load::forget();
    let e = open_now(&chroma, opts("torn"), 1.0).err().unwrap().to_string();
    assert!(e.starts_with("EIO: i/o error, connect 'torn': the path tree is being rewritten (shard 0 is"), "{e}");
}

#[test]
fn a_recreated_collection_is_loaded_again() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "recreated", ONE);
    let first = open_now(&chroma, opts("recreated"), 0.0).unwrap();
    chroma.drop_collection("recreated");
    write_tree(&chroma, "recreated", TWO);
    chroma.clear_log();
    let second = open_now(&chroma, opts("recreated"), 1.0).unwrap();
    assert!(!second.from_cache);
    assert_ne!(first.tree.collection_id, second.tree.collection_id);
    assert_eq!(second.tree.tree.entries.len(), 2);
    assert_eq!(chroma.requests().len(), 3, "the check (404 on the old id), then a load by name");
}

#[test]
fn staleness_is_opt_in() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "stale", ONE);
    open_now(&chroma, opts("stale"), 0.0).unwrap();
    chroma.clear_log();
    let relaxed = Options { tree_max_age_ms: Some(60_000.0), ..opts("stale") };
    let o = open_now(&chroma, relaxed.clone(), 30_000.0).unwrap();
    assert!(o.from_cache && !o.revalidated);
    assert!(chroma.requests().is_empty(), "within treeMaxAgeMs: no request");
    assert!(open_now(&chroma, relaxed, 90_001.0).unwrap().revalidated, "older: checked again");
}

#[test]
fn credentials_never_share_a_tree() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "creds", ONE);
    let good = |token: &str| {
        let mut o = opts("creds");
        o.client.headers.push(("x-chroma-token".into(), token.into()));
        o
    };
    open_now(&chroma, good("good"), 0.0).unwrap();
    chroma.set_fault(|req| {
        (req.header("x-chroma-token") != Some("good")).then(|| Ok(HttpResponse::new(401, r#"{"message":"bad token"}"#)))
    });
    for other in [good("wrong"), opts("creds")] {
        let e = open_now(&chroma, other, 1.0).err().unwrap();
        assert_eq!(
            e.to_string(),
            "EIO: i/o error, connect 'creds': Chroma answered HTTP 401 to collection \"creds\": bad token"
        );
    }
    assert!(open_now(&chroma, good("good"), 2.0).unwrap().from_cache);
}

#[test]
fn a_failed_check_fails_the_connect() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "down", ONE);
    open_now(&chroma, opts("down"), 0.0).unwrap();
    chroma.set_fault(|_| Some(Err(TransportError::Timeout)));
    let e = open_now(&chroma, opts("down"), 1.0).err().unwrap();
    assert_eq!(e.to_string(), "EIO: i/o error, connect 'down': Chroma did not answer the path tree within 10000 ms");
}

#[test]
fn listings_are_kept_per_group_set() {
    let chroma = FakeChroma::new();
    write_tree(&chroma, "listings", r#"{"a.md": {"isPublic": true}, "b.md": {"groups": ["x"]}}"#);
    let t = open_now(&chroma, opts("listings"), 0.0).unwrap().tree;
    let public = t.listing(&Groups::default(), None).unwrap();
    assert!(Rc::ptr_eq(&public, &t.listing(&Groups::new(Vec::<String>::new()), None).unwrap()));
    let x = t.listing(&Groups::new(["x"]), None).unwrap();
    assert_eq!((public.file_count(), x.file_count()), (1, 2));
}

#[test]
fn missing_collections_and_trees_are_named() {
    let chroma = FakeChroma::new();
    let e = open_now(&chroma, opts("trees-none"), 0.0).err().unwrap();
    assert_eq!(e.to_string(), "EIO: i/o error, connect 'trees-none': collection \"trees-none\" does not exist");
    chroma.collection("trees-empty");
    let e = open_now(&chroma, opts("trees-empty"), 0.0).err().unwrap();
    assert_eq!(
        e.to_string(),
        "EIO: i/o error, connect 'trees-empty': collection \"trees-empty\" has no path tree record \"__path_tree__\""
    );
    chroma.put("trees-bad", "__path_tree__", Some("{\"a\": {\"isPublic\": tru"), json!({}));
    let e = open_now(&chroma, opts("trees-bad"), 0.0).err().unwrap();
    assert!(
        e.to_string().starts_with("EIO: i/o error, connect 'trees-bad': corrupt path tree: invalid JSON: "),
        "a tree that is not JSON is refused as a whole: {e}"
    );
}

#[test]
fn a_check_that_waits_its_turn_asks_as_of_its_command_even_once_that_command_ended() {
    use crate::chroma::budget::{Budget, Limits};
    use crate::testing::poll_once;
    let chroma = FakeChroma::new();
    write_tree(&chroma, "turn", ONE);
    let o = opts("turn");
    let opened = open_now(&chroma, o.clone(), 0.0).unwrap();
    let client = Rc::new(Client::new(o.client.clone(), Rc::new(chroma.clone())));
    let budget = Rc::new(Budget::new(Limits::default()));
    let check = Rc::new(TreeCheck::new(opened.tree.clone(), client.clone(), budget.clone(), &o.tree_location()));
    // Another session's check is in flight: this command's check waits for its turn.
    let in_flight = opened.tree.checking.try_acquire().expect("free");
    chroma.advance(100.0);
    budget.begin(client.now_ms());
    let waiting = check.clone();
    let mut asked = Box::pin(async move { waiting.check().await });
    assert!(poll_once(asked.as_mut()).is_pending(), "it waits for the check in flight");
    // The command ends first (a server checks beside it); the check in flight, asked after
    // the command began, found the tree current.
    budget.end();
    opened.tree.validated_at.set(client.now_ms() + 10.0);
    drop(in_flight);
    chroma.advance(100.0);
    chroma.clear_log();
    assert_eq!(block_on(asked), Ok(true));
    assert!(chroma.requests().is_empty(), "answered by the check in flight: {:?}", chroma.requests());
    // Outside a command, a check asks as of now.
    assert_eq!(block_on(async move { check.check().await }), Ok(true));
    assert_eq!(chroma.requests().len(), 1);
}
