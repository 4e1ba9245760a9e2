//! The process tier over an in-memory Chroma: shared between sessions of one tree, never
//! across credentials, and checked against each session's own access on every use.

use crate::chroma::transport::Transport;
use crate::fs::Filesystem;
use crate::options::Options;
use crate::testing::{block_on, chroma::URL, FakeChroma};
use crate::tree::access::Groups;
use serde_json::json;
use std::rc::Rc;

fn ingested(chroma: &FakeChroma) {
    let pages = [("guide.md", "one\ntwo\n"), ("internal/keys.md", "the launch code\n")];
    let access = r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}}"#;
    crate::testing::ingest(chroma, &pages, access, 4096, Rc::new(crate::ingest::DefaultEmbedder));
}

fn session(chroma: &FakeChroma, groups: &[&str], tweak: impl FnOnce(&mut Options)) -> Rc<Filesystem> {
    let mut o = Options::new(URL, "docs");
    o.groups = Groups::new(groups.iter().copied());
    tweak(&mut o);
    let t: Rc<dyn Transport> = Rc::new(chroma.clone());
    Rc::new(block_on(async move { Filesystem::connect(o, t, 0.0).await }).unwrap())
}

fn read(fs: &Rc<Filesystem>, p: &str) -> Result<String, String> {
    let (fs, p) = (fs.clone(), p.to_string());
    block_on(
        async move { fs.read(&p).await.map(|b| String::from_utf8(b.to_vec()).unwrap()).map_err(|e| e.to_string()) },
    )
}

#[test]
fn a_second_session_reads_what_the_first_loaded_without_asking() {
    let chroma = FakeChroma::new();
    ingested(&chroma);
    let first = session(&chroma, &[], |_| {});
    assert_eq!(read(&first, "/guide.md").unwrap(), "one\ntwo\n");
    let second = session(&chroma, &[], |_| {});
    chroma.clear_log();
    assert_eq!(read(&second, "/guide.md").unwrap(), "one\ntwo\n");
    assert!(chroma.requests().is_empty(), "{:?}", chroma.requests());
    assert_eq!(second.stats().store.process_hits, 1);
    assert_eq!(first.stats().store.process_hits, 0);
}

#[test]
fn other_credentials_share_nothing() {
    let chroma = FakeChroma::new();
    ingested(&chroma);
    let first = session(&chroma, &[], |o| o.client.headers = vec![("x-chroma-token".into(), "alice-token".into())]);
    read(&first, "/guide.md").unwrap();
    let other = session(&chroma, &[], |o| o.client.headers = vec![("x-chroma-token".into(), "bob-token".into())]);
    chroma.clear_log();
    read(&other, "/guide.md").unwrap();
    assert!(!chroma.requests().is_empty(), "another token reads through Chroma");
    assert_eq!(other.stats().store.process_hits, 0);
}

#[test]
fn a_page_an_admin_loaded_is_checked_against_each_sessions_access() {
    let chroma = FakeChroma::new();
    ingested(&chroma);
    // The tree says the guide is public, but one of its chunks is the admins' (a page being
    // made private, say): an admin's read keeps it with that chunk's access.
    let admin = session(&chroma, &["admin"], |_| {});
    let id = crate::tree::schema::chunk_id("guide.md", 0);
    let public = session(&chroma, &[], |_| {});
    chroma.put(
        "docs",
        &id,
        Some("secret!\n"),
        json!({
            "page_slug": "guide.md", "chunk_index": 0, "isPublic": false, "groups": ["admin"], "dirs": [""],
        }),
    );
    assert_eq!(read(&admin, "/guide.md").unwrap(), "secret!\n");
    let seen = read(&public, "/guide.md");
    assert!(seen.is_err(), "the public session gets Chroma's answer (no chunk it may read), not the admin's: {seen:?}");
    assert_eq!(public.stats().store.process_hits, 0);
}

#[test]
fn a_budget_of_zero_keeps_nothing() {
    let chroma = FakeChroma::new();
    ingested(&chroma);
    let first = session(&chroma, &[], |o| o.process_cache_bytes = Some(0));
    read(&first, "/guide.md").unwrap();
    let second = session(&chroma, &[], |_| {});
    chroma.clear_log();
    read(&second, "/guide.md").unwrap();
    assert!(!chroma.requests().is_empty());
    super::set_capacity(super::DEFAULT_BYTES);
}

fn ingest_with(chroma: &FakeChroma, access: &str) {
    let pages = [("guide.md", "one\ntwo\n"), ("internal/keys.md", "the launch code\n")];
    crate::testing::ingest(chroma, &pages, access, 4096, Rc::new(crate::ingest::DefaultEmbedder));
}

#[test]
fn a_page_a_reingest_made_private_is_not_served_from_the_tier() {
    let chroma = FakeChroma::new();
    ingest_with(&chroma, "{}");
    let (a, b) = (session(&chroma, &[], |_| {}), session(&chroma, &[], |_| {}));
    assert_eq!(read(&a, "/guide.md").unwrap(), "one\ntwo\n");
    chroma.advance(1_000.0);
    ingest_with(&chroma, r#"{"guide.md": {"isPublic": false, "groups": ["admin"]}}"#);
    chroma.advance(1_000.0);
    let e = read(&b, "/guide.md").unwrap_err();
    assert!(e.contains("is not readable by this session any more"), "{e}");
    assert_eq!(b.stats().store.process_hits, 0, "the tier did not answer for a tree that is no longer current");
    let c = session(&chroma, &[], |_| {});
    assert!(!c.exists("/guide.md"), "a new session does not see it at all");
    let admin = session(&chroma, &["admin"], |_| {});
    assert_eq!(read(&admin, "/guide.md").unwrap(), "one\ntwo\n");
}

#[test]
fn within_a_command_one_check_confirms_every_page_from_the_tier() {
    let chroma = FakeChroma::new();
    ingest_with(&chroma, "{}");
    let a = session(&chroma, &["admin"], |_| {});
    assert_eq!(read(&a, "/guide.md").unwrap(), "one\ntwo\n");
    assert_eq!(read(&a, "/internal/keys.md").unwrap(), "the launch code\n");
    let b = session(&chroma, &["admin"], |_| {});
    chroma.advance(50.0);
    chroma.clear_log();
    let mark = b.begin_command();
    read(&b, "/guide.md").unwrap();
    read(&b, "/internal/keys.md").unwrap();
    b.end_command(mark);
    assert_eq!(chroma.requests().len(), 1, "one small check of the tree for the command: {:?}", chroma.requests());
    assert_eq!(b.stats().store.process_hits, 2);
    let c = session(&chroma, &["admin"], |o| o.tree_max_age_ms = Some(60_000.0));
    chroma.advance(50.0);
    chroma.clear_log();
    let mark = c.begin_command();
    read(&c, "/guide.md").unwrap();
    c.end_command(mark);
    assert!(chroma.requests().is_empty(), "a host that accepts a minute's staleness is not asked again");
}
