//! The filesystem over an in-memory Chroma: just-bash's semantics, hidden pages, errors.

use super::*;
use crate::chroma::transport::{HttpResponse, TransportError};
use crate::testing::{block_on, chroma::URL, FakeChroma};
use crate::tree::access::Groups;
use serde_json::json;

fn corpus() -> FakeChroma {
    let chroma = FakeChroma::new();
    chroma.pages(
        "docs",
        &[
            ("index.md", &["# Home\n", "welcome\n"], json!({"isPublic": true, "mtime": 1000})),
            ("guides/setup.md", &["setup steps\n"], json!({"isPublic": true, "mtime": 3000})),
            ("internal/secret.md", &["the launch code\n"], json!({"isPublic": false, "groups": ["admin"]})),
            ("internal/billing/plans.md", &["plans\n"], json!({"isPublic": false, "groups": ["billing", "admin"]})),
            ("drafts/unlisted.md", &["draft\n"], json!({"groups": []})),
        ],
        json!({"line_aligned": true}),
    );
    chroma
}

fn connect(chroma: &FakeChroma, groups: &[&str], tweak: impl FnOnce(&mut Options)) -> Rc<Filesystem> {
    let mut o = Options::new(URL, "docs");
    o.groups = Groups::new(groups.iter().copied());
    tweak(&mut o);
    let transport: Rc<dyn Transport> = Rc::new(chroma.clone());
    Rc::new(block_on(async move { Filesystem::connect(o, transport, 0.0).await }).unwrap())
}

fn read(fs: &Rc<Filesystem>, p: &str) -> Result<String, FsError> {
    let (fs, p) = (fs.clone(), p.to_string());
    block_on(async move { fs.read(&p).await.map(|b| String::from_utf8(b.to_vec()).unwrap()) })
}

fn stat(fs: &Rc<Filesystem>, p: &str) -> Result<StatInfo, FsError> {
    let (fs, p) = (fs.clone(), p.to_string());
    block_on(async move { fs.stat(&p, "stat").await })
}

#[test]
fn listings_come_from_memory() {
    let chroma = corpus();
    let fs = connect(&chroma, &[], |_| {});
    chroma.clear_log();
    assert_eq!(&*fs.readdir("/").unwrap(), &[("guides".to_string(), true), ("index.md".to_string(), false)]);
    assert!(fs.exists("/guides/setup.md") && fs.exists("//guides/./") && fs.exists("/dev/null"));
    let st = stat(&fs, "/guides").unwrap();
    assert!(st.is_dir && st.mtime_ms == 3000.0 && st.mode == 0o755);
    assert_eq!(stat(&fs, "/index.md").unwrap().size, 15, "the tree's size: no read");
    assert_eq!(fs.realpath("/guides/../index.md").unwrap(), "/index.md");
    assert!(chroma.requests().is_empty());
    assert_eq!(fs.stats().files, 2);
}

#[test]
fn hidden_pages_answer_exactly_as_absent_ones() {
    let chroma = corpus();
    let fs = connect(&chroma, &["billing"], |_| {});
    chroma.clear_log();
    for (hidden, absent) in [
        ("/internal/secret.md", "/internal/absent.md"),
        ("/drafts", "/nothing"),
        ("/drafts/unlisted.md", "/nothing/x.md"),
    ] {
        assert!(!fs.exists(hidden));
        let same =
            |h: FsError, a: FsError| assert_eq!(h.to_string().replace(hidden, "P"), a.to_string().replace(absent, "P"));
        same(stat(&fs, hidden).unwrap_err(), stat(&fs, absent).unwrap_err());
        same(read(&fs, hidden).unwrap_err(), read(&fs, absent).unwrap_err());
        same(fs.readdir(hidden).unwrap_err(), fs.readdir(absent).unwrap_err());
        same(fs.realpath(hidden).unwrap_err(), fs.realpath(absent).unwrap_err());
        same(fs.readlink(hidden).unwrap_err(), fs.readlink(absent).unwrap_err());
    }
    assert_eq!(read(&fs, "/internal/billing/plans.md").unwrap(), "plans\n");
    assert!(!fs.listing().all_paths().iter().any(|p| p.contains("secret") || p.contains("drafts")));
    for req in chroma.requests() {
        let body = req.body.unwrap_or_default();
        assert!(!body.contains("secret") && !body.contains("unlisted"), "{body}");
    }
}

#[test]
fn errors_follow_node() {
    let fs = connect(&corpus(), &[], |_| {});
    assert_eq!(
        read(&fs, "/guides").unwrap_err().to_string(),
        "EISDIR: illegal operation on a directory, read '/guides'"
    );
    assert_eq!(fs.readdir("/index.md").unwrap_err().to_string(), "ENOTDIR: not a directory, scandir '/index.md'");
    assert_eq!(fs.readlink("/index.md").unwrap_err().to_string(), "EINVAL: invalid argument, readlink '/index.md'");
    assert_eq!(stat(&fs, "/a\0b").unwrap_err().to_string(), "ENOENT: no such file or directory, stat '/a\0b'");
    assert!(!fs.exists("/index.md\0"));
    assert_eq!(read(&fs, "/dev/null").unwrap(), "");
    assert_eq!(stat(&fs, "/dev/null").unwrap().mode, 0o666);
}

#[test]
fn read_failures_are_eio_naming_the_path_as_given() {
    let chroma = corpus();
    let fs = connect(&chroma, &[], |_| {});
    chroma.set_fault(|_| Some(Ok(HttpResponse::new(500, r#"{"message":"boom"}"#))));
    let e = read(&fs, "//guides/./setup.md").unwrap_err();
    assert_eq!(e.errno, Errno::Eio);
    assert_eq!(
        e.to_string(),
        "EIO: i/o error, open '//guides/./setup.md': Chroma answered HTTP 500 to page \"guides/setup.md\": boom"
    );
    assert_eq!(fs.stats().requests.retries, 3);
    chroma.clear_fault();
    assert_eq!(read(&fs, "/guides/setup.md").unwrap(), "setup steps\n", "works again once the server is back");
}

#[test]
fn inside_a_command_a_server_that_is_down_fails_reads_at_once() {
    let chroma = corpus();
    let fs = connect(&chroma, &[], |_| {});
    chroma.set_fault(|_| Some(Ok(HttpResponse::new(500, r#"{"message":"boom"}"#))));
    let mark = fs.begin_command();
    assert!(read(&fs, "/guides/setup.md").is_err());
    chroma.clear_fault();
    chroma.clear_log();
    let e = read(&fs, "/index.md").unwrap_err();
    assert_eq!(e.to_string(), "EIO: i/o error, open '/index.md': Chroma is unreachable (Chroma answered HTTP 500 to page \"guides/setup.md\": boom); the next command tries again");
    assert!(chroma.requests().is_empty(), "no request while the breaker is open");
    assert_eq!(fs.end_command(mark).total, 2);
    let mark = fs.begin_command();
    assert_eq!(
        read(&fs, "/guides/setup.md").unwrap(),
        "setup steps\n",
        "the next command tries again, and works once the server is back"
    );
    assert_eq!(fs.end_command(mark), Report::default());
}

#[test]
fn a_command_learns_which_reads_failed_while_it_ran() {
    let chroma = corpus();
    let fs = connect(&chroma, &[], |_| {});
    chroma.set_fault(|_| Some(Err(TransportError::Network("connect ECONNREFUSED".into()))));
    let line = fs.begin_command();
    let cat = fs.begin_command();
    assert!(read(&fs, "/index.md").is_err());
    assert!(read(&fs, "/nope.md").is_err(), "a missing page is not a failure");
    let report = fs.end_command(cat);
    assert_eq!(report.total, 1);
    assert_eq!(report.unreported[0].path, "/index.md");
    assert!(
        report.unreported[0].cause.starts_with("cannot reach Chroma for page \"index.md\": connect ECONNREFUSED"),
        "{report:?}"
    );
    assert_eq!(fs.end_command(line), Report { unreported: vec![], total: 1 });
}

#[test]
fn a_page_without_a_size_is_read_to_stat_it() {
    let chroma = FakeChroma::new();
    chroma.put("nosize", "a.md#0", Some("abc\n"), json!({"page_slug": "a.md", "chunk_index": 0}));
    chroma.put("nosize", "__path_tree__", Some(r#"{"a.md": {"isPublic": true}}"#), json!({}));
    let fs = connect(&chroma, &[], |o| o.collection = "nosize".into());
    assert_eq!(stat(&fs, "/a.md").unwrap().size, 4);
    assert_eq!(fs.stats().store.cache_misses, 1);
}

#[test]
fn a_hosts_lazy_file_is_its_own() {
    let chroma = corpus();
    let provider: crate::pages::store::lazy::Provider =
        Rc::new(|| Box::pin(async { Ok(b"from the host, longer\n".to_vec()) }));
    let fs = connect(&chroma, &[], |o| {
        o.add_lazy_file("/index.md", LazySource::Provider(provider.clone())).unwrap();
        o.add_lazy_file("/extra/notes.txt", LazySource::Provider(provider)).unwrap();
    });
    assert_eq!(
        read(&fs, "/index.md").unwrap(),
        "from the host, longer\n",
        "it replaces the page, whatever the tree's size"
    );
    assert_eq!(stat(&fs, "/extra/notes.txt").unwrap().size, 22);
    assert_eq!(
        fs.readdir("/").unwrap().iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["extra", "guides", "index.md"]
    );
    let page = fs.page("/index.md").unwrap();
    assert!(!page.shareable && &*page.key.tree_version == "host");
}

#[test]
fn one_bad_entry_costs_its_page_only() {
    let chroma = FakeChroma::new();
    let tree = r#"{
        "a.md": {"isPublic": true}, "a.md/b": {"isPublic": true},
        "ok.md": {"isPublic": true}, "huge.md": {"isPublic": true, "chunks": 1e12},
        "x\ny.md": {"isPublic": true}, "secret\u001b.md": {"isPublic": false, "groups": ["admin"]},
        "odd.md": {"isPublic": "yes"}
    }"#;
    chroma.put("broken", "__path_tree__", Some(tree), json!({}));
    chroma.put("broken", "c0", Some("fine\n"), json!({"page_slug": "ok.md", "chunk_index": 0}));
    let t: Rc<dyn Transport> = Rc::new(chroma.clone());
    let public = {
        let t = t.clone();
        Rc::new(block_on(async move { Filesystem::connect(Options::new(URL, "broken"), t, 0.0).await.ok().unwrap() }))
    };
    assert_eq!(
        &*public.readdir("/").unwrap(),
        &[("a.md".to_string(), true), ("huge.md".to_string(), false), ("ok.md".to_string(), false)],
        "the directory a.md/ wins over the file a.md"
    );
    assert_eq!(read(&public, "/ok.md").unwrap(), "fine\n");
    let before = chroma.requests().len();
    let e = read(&public, "/huge.md").unwrap_err();
    assert_eq!(
        e.to_string(),
        "EIO: i/o error, open '/huge.md': corrupt path tree: entry \"huge.md\": chunks is more than 100000"
    );
    assert_eq!(chroma.requests().len(), before, "nothing is asked for a page whose entry cannot be right");
    assert_eq!(
        public.broken_pages(),
        [
            "corrupt path tree: entry \"huge.md\": chunks is more than 100000",
            "corrupt path tree: entry \"x\\ny.md\": path contains the control character '\\n'",
            "corrupt path tree: entry \"a.md\": is a file, and also the directory of \"a.md/b\"",
        ],
        "what the operator is told: escaped, and only what this session could see"
    );
    assert!(public.listing().has_hidden_pages(), "entries set aside count as hidden: their chunks may be in Chroma");
    let mut o = Options::new(URL, "broken");
    o.groups = Groups::new(["admin"]);
    let admin = block_on(async move { Filesystem::connect(o, t, 0.0).await.ok().unwrap() });
    assert!(admin.broken_pages().iter().any(|p| p.contains("secret\\u{1b}.md")), "{:?}", admin.broken_pages());
    assert!(
        !admin.broken_pages().iter().any(|p| p.contains("odd.md")),
        "an entry whose access cannot be read is named to nobody"
    );
}

fn cp(fs: &Rc<Filesystem>, src: &str, dest: &str, recursive: bool) -> Result<(), FsError> {
    let (fs, src, dest) = (fs.clone(), src.to_string(), dest.to_string());
    block_on(async move { fs.cp(&src, &dest, recursive).await })
}

#[test]
fn a_scratch_directory_is_writable_beside_read_only_docs() {
    let chroma = corpus();
    let fs = connect(&chroma, &[], |o| o.scratch = Some("/tmp".into()));
    assert_eq!(
        &*fs.readdir("/").unwrap(),
        &[("guides".to_string(), true), ("index.md".to_string(), false), ("tmp".to_string(), true)]
    );
    fs.write("/tmp/hits", b"a\n", false).unwrap();
    fs.write("/tmp//hits", b"b\n", true).unwrap();
    assert_eq!(read(&fs, "/tmp/hits").unwrap(), "a\nb\n");
    assert!(stat(&fs, "/tmp").unwrap().is_dir);
    assert!(fs.exists("/tmp/hits") && !fs.exists("/tmp/nope"));
    cp(&fs, "/guides", "/tmp/g", true).unwrap();
    assert_eq!(read(&fs, "/tmp/g/setup.md").unwrap(), "setup steps\n", "a copy reads from the docs");
    assert_eq!(
        cp(&fs, "/guides", "/tmp/h", false).unwrap_err().to_string(),
        "EISDIR: illegal operation on a directory, cp '/guides': is a directory"
    );
    assert_eq!(
        fs.write("/index.md", b"x", false).unwrap_err().to_string(),
        "EROFS: read-only file system, write '/index.md'"
    );
    assert_eq!(
        fs.mkdir("/guides/new", true).unwrap_err().to_string(),
        "EROFS: read-only file system, mkdir '/guides/new'"
    );
    assert_eq!(fs.mv("/index.md", "/tmp/i").unwrap_err().to_string(), "EROFS: read-only file system, mv '/index.md'");
    // Opening to write fails as open(2) does: the path's lookup first, then the filesystem.
    let open = |p: &str| fs.write_error(p).map_err(|e| e.to_string());
    assert_eq!(open("/index.md").unwrap_err(), "EROFS: read-only file system, open '/index.md'");
    assert_eq!(open("/guides/new.md").unwrap_err(), "EROFS: read-only file system, open '/guides/new.md'");
    assert_eq!(open("/nodir/x").unwrap_err(), "ENOENT: no such file or directory, open '/nodir/x'");
    assert_eq!(open("/index.md/x").unwrap_err(), "ENOTDIR: not a directory, open '/index.md/x'");
    assert_eq!(open("/guides").unwrap_err(), "EISDIR: illegal operation on a directory, open '/guides'");
    assert_eq!(open("/internal/x").unwrap_err(), "ENOENT: no such file or directory, open '/internal/x'");
    assert_eq!(open("/tmp/nodir/x").unwrap_err(), "ENOENT: no such file or directory, open '/tmp/nodir/x'");
    assert!(open("/tmp/new").is_ok() && open("/tmp/hits").is_ok() && open("/dev/null").is_ok());
    assert!(fs.write("/tmp/nodir/x", b"x", false).is_err() && !fs.exists("/tmp/nodir"));
    assert_eq!(
        fs.mv("/tmp/hits", "/guides/h").unwrap_err().to_string(),
        "EROFS: read-only file system, mv '/guides/h'"
    );
    assert_eq!(cp(&fs, "/tmp/hits", "/x", false).unwrap_err().to_string(), "EROFS: read-only file system, cp '/x'");
    assert!(
        cp(&fs, "/internal/secret.md", "/tmp/s", false).unwrap_err().to_string().starts_with("ENOENT"),
        "a hidden page cannot be copied"
    );
    fs.write("/dev/null", b"x", false).unwrap();
    let other = connect(&chroma, &[], |o| o.scratch = Some("/tmp".into()));
    assert!(!other.exists("/tmp/hits"), "each session has its own");
    let bad = block_on(Filesystem::connect(
        Options { scratch: Some("/guides".into()), ..Options::new(URL, "docs") },
        Rc::new(chroma.clone()),
        0.0,
    ));
    assert_eq!(bad.err().unwrap().to_string(), "EINVAL: invalid argument, connect '/guides': option scratch names a path in the docs: choose another directory");
}

#[test]
fn a_group_name_holding_a_separator_is_one_group_in_either_order() {
    let secret = "/internal/secret.md";
    for order in [["admin", "admin\u{1f}zzz"], ["admin\u{1f}zzz", "admin"]] {
        crate::tree::load::forget();
        let chroma = corpus();
        for first in order {
            let fs = if first == "admin" {
                connect(&chroma, &["admin", "zzz"], |_| {})
            } else {
                connect(&chroma, &[first], |_| {})
            };
            assert_eq!(fs.exists(secret), first == "admin", "groups {first:?} after {order:?}");
            if first != "admin" {
                assert!(read(&fs, secret).is_err());
                assert_eq!(
                    fs.listing().all_paths().len(),
                    connect(&chroma, &[], |_| {}).listing().all_paths().len(),
                    "the public view"
                );
            }
        }
    }
}
