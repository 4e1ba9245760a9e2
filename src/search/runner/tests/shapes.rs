//! Searches on a collection another tool wrote, annotated or not: how pages are read (by
//! slug, or the directory whole), and when an answer another session had may be used.

use super::*;

/// `n` one-chunk pages as another tool writes them (ids its own, the tree counting
/// nothing), every `every`th holding "token", the last private; annotated or not.
fn foreign(n: usize, every: usize, annotated: bool) -> FakeChroma {
    foreign_named(n, every, annotated, |i| format!("rec-{i}"))
}

/// The same, the other tool naming chunks as chromafs's ingest does (`slug#index`).
fn foreign_with_our_ids(n: usize, every: usize, annotated: bool) -> FakeChroma {
    foreign_named(n, every, annotated, |i| format!("{}#0", foreign_slug(i)))
}

fn foreign_named(n: usize, every: usize, annotated: bool, id: impl Fn(usize) -> String) -> FakeChroma {
    let chroma = FakeChroma::new();
    for i in 0..n {
        let doc = format!("page {i}\n{}\n", if i % every == 0 { "a token here" } else { "nothing" });
        chroma.put("docs", &id(i), Some(&doc), json!({"page_slug": foreign_slug(i), "chunk_index": 0}));
    }
    write_foreign_tree(&chroma, n, &[n - 1]);
    if annotated {
        annotate(&chroma);
    }
    chroma
}

fn foreign_slug(i: usize) -> String {
    format!("{}/p{i:04}.md", if i % 2 == 0 { "api" } else { "guides" })
}

/// The other tool's tree of `n` pages, those numbered in `private` for admins only.
fn write_foreign_tree(chroma: &FakeChroma, n: usize, private: &[usize]) {
    let tree: serde_json::Map<String, Value> = (0..n)
        .map(|i| {
            let access = match private.contains(&i) {
                false => json!({"isPublic": true}),
                true => json!({"isPublic": false, "groups": ["admin"]}),
            };
            (foreign_slug(i), access)
        })
        .collect();
    chroma.put("docs", "__path_tree__", Some(&Value::Object(tree).to_string()), json!({"line_aligned": true}));
}

fn annotate(chroma: &FakeChroma) {
    let client = crate::chroma::Client::new(crate::chroma::ClientConfig::new(URL), Rc::new(chroma.clone()));
    let schema = crate::tree::schema::Schema::default();
    block_on(async move { crate::ingest::annotate::annotate(&client, "docs", &schema, true).await.unwrap() });
}

#[test]
fn most_of_an_annotated_scope_is_read_whole_in_windows_not_a_few_slugs_a_request() {
    let chroma = foreign(2000, 1, true);
    let fs = connect(&chroma);
    chroma.clear_log();
    let (args, cs) = search(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 1999, "every visible page, and only those");
    assert_eq!(cs.prefetch_requests, 7, "1,999 chunks in windows of 300, the last short");
    let loads: Vec<Value> =
        chroma.gets().into_iter().filter(|g| g["include"] == json!(["documents", "metadatas"])).collect();
    assert!(loads.iter().all(|g| g["where"] == json!({"$and": [{"dirs": {"$contains": ""}}, {"isPublic": true}]})));
    let (args, cs) = search(&fs, &["grep", "-rc", "token", "/guides"]);
    assert_eq!((args.len(), cs.prefetch_requests), (3, 0), "in memory already");
    let other = connect_with(&chroma, |o| o.process_cache_bytes = Some(0));
    chroma.clear_log();
    let (_, cs) = search(&other, &["grep", "-rc", "token", "/api"]);
    assert_eq!(cs.prefetch_requests, 4, "1,000 chunks of /api, scoped to it");
    assert!(chroma.gets().iter().any(|g| g["where"]["$and"][0] == json!({"dirs": {"$contains": "api"}})));
}

#[test]
fn a_few_candidates_are_still_read_by_slug() {
    let chroma = foreign(2000, 400, true);
    let fs = connect(&chroma);
    chroma.clear_log();
    let (args, cs) = search(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 5);
    assert_eq!(cs.prefetch_requests, 1, "five pages, one slug list");
}

#[test]
fn an_unannotated_collection_is_read_whole_only_by_a_session_that_sees_every_page() {
    let chroma = foreign(2000, 1, false);
    let admin = connect_with(&chroma, |o| o.groups = Groups::new(["admin"]));
    chroma.clear_log();
    let (args, cs) = search(&admin, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 2000);
    assert_eq!(cs.prefetch_requests, 7, "2,000 chunks: the seventh window of 300 comes back short");
    assert!(chroma.gets().iter().any(|g| g["where"] == json!({"chunk_index": {"$gte": 0}})));
    let public = connect_with(&chroma, |o| {
        (o.groups, o.unscoped_coarse_query, o.process_cache_bytes) = (Groups::default(), false, Some(0))
    });
    chroma.clear_log();
    let (args, _) = search(&public, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 1999);
    for g in chroma.gets().iter().filter(|g| g["ids"].is_null()) {
        assert!(g["where"]["page_slug"]["$in"].is_array(), "pages named one by one: {g}");
    }
}

#[test]
fn a_shared_answer_is_never_given_under_another_tree_or_another_access() {
    let chroma = foreign(300, 1, true);
    let early = connect(&chroma);
    let (args, _) = search(&connect(&chroma), &["grep", "-rl", "token", "/api"]);
    assert!(args.contains(&"/api/p0000.md".to_string()));
    let (_, cs) = search(&connect(&chroma), &["grep", "-rl", "token", "/api"]);
    assert_eq!(cs.coarse_requests, 0, "the same tree and access: the answer is shared");
    // The other tool makes /api/p0000.md private in its tree; annotate writes it on the chunks.
    write_foreign_tree(&chroma, 300, &[0, 299]);
    annotate(&chroma);
    chroma.clear_log();
    let (args, cs) = search(&connect(&chroma), &["grep", "-rl", "token", "/api"]);
    assert!(!args.contains(&"/api/p0000.md".to_string()));
    assert!(cs.coarse_requests > 0, "a new tree: asked again, not answered from the old tree's answer");
    assert!(chroma.gets().iter().all(|g| !g.to_string().contains("p0000")));
    // A session still on the old tree is not given the old answer either: its tree is not
    // the collection's any more (the connect above found that), so it asks Chroma, which
    // leaves the private page out.
    let (_, cs) = search(&early, &["grep", "-rl", "token", "/api"]);
    assert_eq!(cs.coarse_requests, 1, "Chroma asked: {cs:?}");
    assert_eq!(cs.coarse_matches, 149, "the page made private is not among Chroma's hits");
    // An admin session asks the same words under another access: its own question.
    let admin = connect_with(&chroma, |o| o.groups = Groups::new(["admin"]));
    let (args, cs) = search(&admin, &["grep", "-rl", "token", "/api"]);
    assert!(args.contains(&"/api/p0000.md".to_string()) && cs.coarse_requests > 0);
}

#[test]
fn annotated_chunks_named_as_ingest_names_them_are_read_by_id() {
    let chroma = foreign_with_our_ids(2000, 1, true);
    let fs = connect(&chroma);
    assert!(fs.tree().chunks.ids, "the annotation counted every page's chunks");
    chroma.clear_log();
    let (args, cs) = search(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 1999, "every visible page, and only those");
    assert_eq!(cs.prefetch_requests, 7, "1,999 chunks by id, 300 a request");
    let loads: Vec<Value> =
        chroma.gets().into_iter().filter(|g| g["include"] == json!(["documents", "metadatas"])).collect();
    assert!(loads.iter().all(|g| g["ids"].is_array() && g.get("where").is_none()), "{loads:?}");
    assert!(
        !loads.iter().any(|g| g["ids"].as_array().unwrap().contains(&json!(format!("{}#0", foreign_slug(1999))))),
        "the private page is never asked for"
    );
    let a = connect_with(&chroma, |o| o.groups = Groups::new(["admin"]));
    let path = format!("/{}", foreign_slug(1999));
    let page = block_on(async move { a.read(&path).await }).unwrap();
    assert!(page.starts_with(b"page 1999\n"));
}

#[test]
fn counts_of_an_older_tree_are_not_relied_on() {
    let chroma = foreign_with_our_ids(40, 1, true);
    // The other tool adds a page and writes its tree again: the annotation is for the old one.
    chroma.put(
        "docs",
        &format!("{}#0", foreign_slug(40)),
        Some("page 40\na token here\n"),
        json!({"page_slug": foreign_slug(40), "chunk_index": 0}),
    );
    write_foreign_tree(&chroma, 41, &[]);
    let fs = connect(&chroma);
    assert!(!fs.tree().chunks.ids && !fs.tree().chunks.access);
    let (args, _) = search(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 41, "every page, the new one too");
}

#[test]
fn chunks_named_otherwise_are_annotated_without_counts() {
    let chroma = foreign(40, 1, true);
    let fs = connect(&chroma);
    assert!(fs.tree().chunks.access && !fs.tree().chunks.ids);
}

#[test]
fn a_mounted_collection_shows_its_pages_under_its_directory_and_scopes_by_the_chunks_own() {
    let chroma = foreign(40, 1, true);
    let fs = connect_with(&chroma, |o| o.mount_at = Some("/docs".into()));
    assert!(block_on({
        let fs = fs.clone();
        async move { fs.read(&format!("/docs/{}", foreign_slug(1))).await }
    })
    .is_ok());
    chroma.clear_log();
    let (args, _) = search(&fs, &["grep", "-rl", "token", "/docs/guides"]);
    assert_eq!(args.len(), 3 + 19, "the private page left out");
    assert!(args[3..].iter().all(|a| a.starts_with("/docs/guides/p")), "{args:?}");
    let gets = chroma.gets();
    assert!(gets.iter().any(|g| g["where"]["$and"][0] == json!({"dirs": {"$contains": "guides"}})), "{gets:?}");
    let (args, _) = search(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 39, "the root holds the mount");
}

#[test]
fn an_annotated_collection_is_searched_through_the_index_annotate_wrote_while_its_tree_is_the_same() {
    for ours in [false, true] {
        let chroma = if ours { foreign_with_our_ids(900, 30, true) } else { foreign(900, 30, true) };
        let session = |index: bool| {
            connect_with(&chroma, |o| {
                (o.native_commands, o.grep_index, o.unscoped_coarse_query) = (true, index, false);
                o.groups = Groups::default();
            })
        };
        for words in [&["grep", "-rni", "TOKEN", "/"][..], &["grep", "-rlE", "tok(en|ens)|zebra", "/guides"]] {
            let (expected, _) = answer(&session(false), words);
            chroma.clear_log();
            let (out, cs) = answer(&session(true), words);
            assert_eq!(out, expected, "{words:?}");
            assert!(cs.index, "{words:?}: {cs:?}");
            assert!(chroma.gets().iter().all(|g| g.get("where_document").is_none()), "{words:?}: no text filter");
        }
        // The other tool writes again: its tree is another version, and the index is not used.
        write_foreign_tree(&chroma, 901, &[899]);
        chroma.put("docs", "late", Some("a late token\n"), json!({"page_slug": foreign_slug(900), "chunk_index": 0}));
        let (_, cs) = answer(&session(true), &["grep", "-rni", "TOKEN", "/"]);
        assert!(!cs.index, "{cs:?}");
    }
}

#[test]
fn annotating_again_writes_no_index_record_that_is_there_and_removes_the_old_ones() {
    let chroma = foreign(900, 30, true);
    let client = crate::chroma::Client::new(crate::chroma::ClientConfig::new(URL), Rc::new(chroma.clone()));
    let schema = crate::tree::schema::Schema::default();
    let again =
        block_on(async move { crate::ingest::annotate::annotate(&client, "docs", &schema, true).await.unwrap() });
    assert!(again.grep_index.records > 0);
    assert_eq!((again.grep_index.written, again.grep_index.removed), (0, 0), "{:?}", again.grep_index);
    chroma.put("docs", "rec-3", Some("page 3\nnow a zebra\n"), json!({"page_slug": foreign_slug(3), "chunk_index": 0}));
    let client = crate::chroma::Client::new(crate::chroma::ClientConfig::new(URL), Rc::new(chroma.clone()));
    let schema = crate::tree::schema::Schema::default();
    let third =
        block_on(async move { crate::ingest::annotate::annotate(&client, "docs", &schema, true).await.unwrap() });
    assert!(third.grep_index.written > 0 && third.grep_index.removed > 0, "{:?}", third.grep_index);
    let left = chroma.ids("docs").into_iter().filter(|id| id.starts_with("__grams__:")).count();
    assert_eq!(left, third.grep_index.records, "only the new index's records are left");
}

/// `n` pages of ten chunks of about 2 KB each, named as chromafs's ingest names them, every one
/// holding "token", annotated (the tree gives no page's size); the last is private, and
/// its chunks `hidden_kb` KB each.
fn foreign_large(n: usize, hidden_kb: usize) -> FakeChroma {
    let chroma = FakeChroma::new();
    for i in 0..n {
        let filler = match i == n - 1 {
            true => "x".repeat(hidden_kb << 10),
            false => "words of a long page\n".repeat(90),
        };
        for c in 0..10 {
            let doc = format!("page {i} part {c}\n{}a token here\n", filler);
            let id = format!("{}#{c}", foreign_slug(i));
            chroma.put("docs", &id, Some(&doc), json!({"page_slug": foreign_slug(i), "chunk_index": c}));
        }
    }
    write_foreign_tree(&chroma, n, &[n - 1]);
    annotate(&chroma);
    chroma
}

#[test]
fn candidates_larger_than_the_cache_on_an_annotated_collection_are_each_loaded_once() {
    let chroma = foreign_large(100, 2);
    let session = |cache_bytes: usize| {
        connect_with(&chroma, |o| {
            (o.native_commands, o.grep_index, o.unscoped_coarse_query) = (true, true, false);
            (o.groups, o.cache_bytes, o.process_cache_bytes) = (Groups::default(), cache_bytes, Some(0));
        })
    };
    let grep = ["grep", "-rn", "token", "/"];
    let (expected, _) = answer(&session(64 << 20), &grep);
    // The annotation measured the public pages' text: about 19 KB a page, 1.9 MB in all,
    // which a cache of 1 MB holds half of; and as an older annotation, which did not
    // measure it, whose pages the search takes for 8 KB until it has seen some.
    for measured in [true, false] {
        if !measured {
            let id = "__path_tree__@annotations";
            let (doc, meta) = chroma.record("docs", id).unwrap();
            let mut doc: Value = serde_json::from_str(&doc.unwrap()).unwrap();
            doc.as_object_mut().unwrap().remove("public").expect("the annotation measured the text");
            chroma.put("docs", id, Some(&doc.to_string()), meta);
        }
        chroma.clear_log();
        let (out, cs) = answer(&session(1 << 20), &grep);
        assert_eq!(out, expected);
        assert!(cs.index, "{cs:?}");
        assert_eq!(cs.note.as_deref(), Some(INDEX_WIDE_NOTE), "measured: {measured}");
        let mut asked: Vec<String> = chroma
            .gets()
            .iter()
            .filter(|g| g["include"] == json!(["documents", "metadatas"]))
            .flat_map(|g| g["ids"].as_array().cloned().unwrap_or_default())
            .map(|id| id.as_str().unwrap().to_string())
            .filter(|id| id.starts_with("api/") || id.starts_with("guides/"))
            .collect();
        let all = asked.len();
        eprintln!(
            "{cs:?} {:?}",
            chroma
                .gets()
                .iter()
                .filter(|g| g["include"] == json!(["documents", "metadatas"]))
                .map(|g| g["ids"].as_array().map_or(0, |a| a.len()))
                .collect::<Vec<_>>()
        );
        asked.sort();
        asked.dedup();
        assert_eq!((all, asked.len()), (10 * 99, 10 * 99), "every visible chunk asked for once (measured: {measured})");
    }
}

#[test]
fn what_a_search_of_pages_of_unknown_size_asks_does_not_depend_on_hidden_pages_text() {
    let asked = |hidden_kb: usize| {
        let chroma = foreign_large(100, hidden_kb);
        let fs = connect_with(&chroma, |o| {
            (o.native_commands, o.grep_index, o.unscoped_coarse_query) = (true, true, false);
            (o.groups, o.cache_bytes, o.process_cache_bytes) = (Groups::default(), 1 << 20, Some(0));
        });
        chroma.clear_log();
        let (out, cs) = answer(&fs, &["grep", "-rn", "token", "/"]);
        (out, format!("{cs:?}"), chroma.gets())
    };
    let (small, large) = (asked(1), asked(200));
    assert_eq!(small, large, "the same output, plan and requests whatever the private page holds");
}

#[test]
fn a_scope_read_by_slug_whose_sizes_nothing_says_is_asked_for_once() {
    let chroma = foreign(2000, 1, false);
    for cache_bytes in [64 << 20, 4 << 20] {
        let public = connect_with(&chroma, |o| {
            (o.groups, o.unscoped_coarse_query, o.process_cache_bytes) = (Groups::default(), false, Some(0));
            (o.native_commands, o.cache_bytes) = (true, cache_bytes);
        });
        chroma.clear_log();
        let (out, cs) = answer(&public, &["grep", "-rl", "token", "/"]);
        assert!(matches!(&out, Outcome::Printed(p) if p.stdout.lines().count() == 1999), "{out:?}");
        assert_eq!(cs.plan, PlanKind::Narrow, "{cs:?}");
        let mut named: Vec<String> = chroma
            .gets()
            .iter()
            .flat_map(|g| g["where"]["page_slug"]["$in"].as_array().cloned().unwrap_or_default())
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let all = named.len();
        named.sort();
        named.dedup();
        assert_eq!((all, named.len()), (1999, 1999), "every visible page named once (cache {cache_bytes})");
    }
}
