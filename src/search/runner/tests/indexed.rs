//! Searches narrowed by the grep index an ingest writes (see `search::indexed`).

use super::*;
use crate::ingest::{self, parse_access_rules, Rules, SourceFile, Summary};

/// Writes `files` (path, text) as chromafs's ingest does, pages under `admin/` for the
/// `admin` group only.
fn write(chroma: &FakeChroma, files: &[(String, String)]) -> Summary {
    write_private(chroma, files, &[])
}

/// [`write`], with the pages `private` for the `admin` group only too.
fn write_private(chroma: &FakeChroma, files: &[(String, String)], private: &[&str]) -> Summary {
    let files: Vec<SourceFile> = files
        .iter()
        .map(|(path, text)| SourceFile { path: path.clone(), content: text.clone().into_bytes(), mtime: None })
        .collect();
    let admin = r#"{"admin/**": {"isPublic": false, "groups": ["admin"]}}"#;
    let hidden = files.iter().any(|f| f.path.starts_with("admin/"));
    let mut rules = if hidden { parse_access_rules(admin).unwrap() } else { Vec::new() };
    for path in private {
        rules.extend(
            parse_access_rules(&format!(r#"{{"{path}": {{"isPublic": false, "groups": ["admin"]}}}}"#)).unwrap(),
        );
    }
    let plan = ingest::plan(&files, &Rules::new(rules, false), 4096, "__path_tree__").unwrap();
    crate::testing::write_plan(chroma, plan, Rc::new(ingest::DefaultEmbedder)).unwrap()
}

/// `n` public pages in two directories, every `every`th holding "a Token here", each with
/// a line of made-up words, and `hidden` pages under `admin/` whose text is `admin_text`.
fn site(n: usize, every: usize, hidden: usize, admin_text: &str) -> Vec<(String, String)> {
    let mut seed = 7u64;
    let mut word = move || {
        let mut w = String::new();
        for _ in 0..6 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            w.push(char::from(b'a' + ((seed >> 33) % 26) as u8));
        }
        w
    };
    let mut files: Vec<(String, String)> = (0..n)
        .map(|i| {
            let dir = if i % 2 == 0 { "api" } else { "guides" };
            let text = if i % every == 0 { "a Token here" } else { "nothing" };
            let words: Vec<String> = (0..40).map(|_| word()).collect();
            (format!("{dir}/p{i:04}.md"), format!("page {i}\n{text}\n{}\n", words.join(" ")))
        })
        .collect();
    files.extend((0..hidden).map(|i| (format!("admin/h{i:03}.md"), format!("secret {i}\n{admin_text}\n"))));
    files
}

fn indexed(chroma: &FakeChroma, groups: &[&str]) -> Rc<Filesystem> {
    connect_with(chroma, |o| {
        o.native_commands = true;
        o.grep_index = true;
        o.unscoped_coarse_query = false;
        o.groups = Groups::new(groups.iter().copied());
    })
}

fn without_index(chroma: &FakeChroma) -> Rc<Filesystem> {
    connect_with(chroma, |o| {
        o.native_commands = true;
        o.unscoped_coarse_query = false;
    })
}

#[test]
fn a_case_insensitive_search_reads_the_index_by_id_and_never_filters_text() {
    let chroma = FakeChroma::new();
    let mut files = site(600, 50, 0, "");
    // A page without text has no chunk, and a number in the index all the same.
    files.push(("api/empty.md".into(), String::new()));
    write(&chroma, &files);
    for words in [
        &["grep", "-rni", "TOKEN", "/"][..],
        &["grep", "-rnE", "T[o0]ken|secret", "/api"],
        &["grep", "-rlw", "-e", "token", "-e", "nothing here", "/"],
        &["rg", "-i", "token", "/guides"],
        &["grep", "-rli", "page 1$", "/"],
    ] {
        let (expected, plain) = answer(&without_index(&chroma), words);
        assert!(plain.coarse_requests > 0 && !plain.index, "{words:?}: without the index Chroma is asked");
        chroma.clear_log();
        let (out, cs) = answer(&indexed(&chroma, &[]), words);
        assert_eq!(out, expected, "{words:?}: the same answer through the index");
        assert!(cs.index, "{words:?}: {cs:?}");
        assert!(cs.coarse_requests <= 1, "{words:?}: one round of reads by id (none for what the process kept)");
        let gets = chroma.gets();
        assert!(gets.iter().all(|g| g.get("where_document").is_none()), "{words:?}: no text filter: {gets:?}");
        assert!(gets.iter().all(|g| g.to_string().len() < 16_384), "{words:?}: no request grows with the corpus");
    }
}

#[test]
fn a_pattern_without_three_bytes_of_literal_asks_chroma_as_before() {
    let chroma = FakeChroma::new();
    write(&chroma, &site(600, 50, 0, ""));
    let (expected, _) = answer(&without_index(&chroma), &["grep", "-rn", "a.T", "/"]);
    let (out, cs) = answer(&indexed(&chroma, &[]), &["grep", "-rn", "a.T", "/"]);
    assert_eq!(out, expected);
    assert!(!cs.index, "{cs:?}");
}

#[test]
fn what_a_search_reads_does_not_depend_on_hidden_pages_text() {
    // The same public pages; the hidden ones hold the words searched for, or not.
    let quiet = FakeChroma::new();
    write(&quiet, &site(600, 50, 40, "nothing to see"));
    let loud = FakeChroma::new();
    write(&loud, &site(600, 50, 40, "Token token TOKEN secret"));
    for words in [&["grep", "-rni", "token", "/"][..], &["grep", "-rlE", "tok(en)?s?|secret", "/"]] {
        // Each session on its own: pages other sessions of the process read are not shared.
        let alone = |chroma: &FakeChroma| {
            connect_with(chroma, |o| {
                (o.native_commands, o.grep_index, o.unscoped_coarse_query) = (true, true, false);
                (o.groups, o.process_cache_bytes) = (Groups::default(), Some(0));
            })
        };
        let (fa, fb) = (alone(&quiet), alone(&loud));
        quiet.clear_log();
        loud.clear_log();
        let (a, ca) = answer(&fa, words);
        let gets_a = quiet.gets();
        let (b, cb) = answer(&fb, words);
        let gets_b = loud.gets();
        assert_eq!(a, b, "{words:?}");
        assert!(ca.index && cb.index);
        assert_eq!((ca.coarse_requests, ca.prefetch_requests), (cb.coarse_requests, cb.prefetch_requests));
        let ids = |gets: &[Value]| gets.iter().map(|g| g["ids"].clone()).collect::<Vec<_>>();
        assert_eq!(ids(&gets_a), ids(&gets_b), "{words:?}: the same records read");
    }
    // An admin sees the hidden pages, through the index too.
    let (out, cs) = answer(&indexed(&loud, &["admin"]), &["grep", "-rli", "TOKEN", "/"]);
    let Outcome::Printed(p) = out else { panic!("{out:?}") };
    assert_eq!((p.stdout.lines().count(), cs.index), (40 + 12, true));
}

#[test]
fn an_index_that_does_not_read_leaves_the_search_to_chroma() {
    let chroma = FakeChroma::new();
    write(&chroma, &site(600, 50, 0, ""));
    let (expected, _) = answer(&without_index(&chroma), &["grep", "-rni", "token", "/"]);
    // A newer ingest removed the records this session's tree names.
    let fs = indexed(&chroma, &[]);
    let gone: Vec<String> = chroma.ids("docs").into_iter().filter(|id| id.starts_with("__grams__:")).collect();
    assert!(!gone.is_empty());
    for id in &gone {
        chroma.remove("docs", id);
    }
    let (out, cs) = answer(&fs, &["grep", "-rni", "token", "/"]);
    assert_eq!(out, expected, "never a wrong answer");
    assert!(!cs.index && cs.note.as_deref().unwrap_or("").starts_with("the grep index did not read"), "{cs:?}");
    // Torn records: the same.
    let chroma = FakeChroma::new();
    write(&chroma, &site(600, 50, 0, ""));
    for id in chroma.ids("docs").into_iter().filter(|id| id.starts_with("__grams__:")) {
        chroma.put("docs", &id, None, json!({"chromafs": "grep-index", "grams0": "not base64!"}));
    }
    let (out, cs) = answer(&indexed(&chroma, &[]), &["grep", "-rni", "token", "/"]);
    assert_eq!(out, expected);
    assert!(!cs.index, "{cs:?}");
}

#[test]
fn a_one_page_edit_writes_one_record_of_the_index_and_searches_see_the_edit() {
    let chroma = FakeChroma::new();
    let mut files = site(2000, 50, 0, "");
    let first = write(&chroma, &files);
    assert!(first.grep_index.records >= 100, "{:?}", first.grep_index);
    assert_eq!(first.grep_index.written, first.grep_index.records);
    files[7].1 = "page 7\na ToKeN now\n".into();
    let second = write(&chroma, &files);
    assert_eq!(second.grep_index.written, 1, "{:?}", second.grep_index);
    assert!(second.grep_index.written * 100 <= second.grep_index.records);
    // Odd pages are in /guides, and none held the word before the edit.
    let (out, cs) = answer(&indexed(&chroma, &[]), &["grep", "-rli", "token", "/guides"]);
    assert_eq!(out, printed("/guides/p0007.md\n", "", 0));
    assert_eq!((cs.index, cs.candidates), (true, 1));
    files[7].1 = "page 7\nnothing\n".into();
    write(&chroma, &files);
    let (out, cs) = answer(&indexed(&chroma, &[]), &["grep", "-rli", "token", "/guides"]);
    assert_eq!(out, printed("", "", 1));
    assert_eq!((cs.index, cs.candidates), (true, 0), "a page the edit took the word from is no candidate");
}

#[test]
fn case_folding_beyond_ascii_and_scripts_without_spaces_find_their_pages() {
    let chroma = FakeChroma::new();
    let mut files = site(300, 50, 0, "");
    for (i, text) in ["İstanbul office", "die Straße", "ΣΊΣΥΦΟΣ myth", "日本語のテキスト", "the \u{212A}elvin scale"]
        .iter()
        .enumerate()
    {
        files.push((format!("intl/t{i}.md"), format!("{text}\n")));
    }
    write(&chroma, &files);
    for pattern in
        ["istanbul", "İSTANBUL", "STRASSE", "straße", "STRAẞE", "σίσυφος", "Σίσυφος", "本語の", "KELVIN", "kelvin"]
    {
        let words = ["grep", "-rli", pattern, "/"];
        let (expected, _) = answer(&without_index(&chroma), &words);
        let (out, cs) = answer(&indexed(&chroma, &[]), &words);
        assert!(cs.index, "{pattern}: {cs:?}");
        match (&out, &expected) {
            // Handed to just-bash: the index may keep more files for it to read, never fewer.
            (Outcome::Run(kept), Outcome::Run(asked)) => {
                let real = |a: &[String]| a.iter().filter(|f| f.ends_with(".md")).cloned().collect::<Vec<_>>();
                assert!(real(asked).iter().all(|f| kept.contains(f)), "{pattern}: {kept:?} ⊉ {asked:?}");
            }
            _ => assert_eq!(out, expected, "{pattern}: the same answer as without the index"),
        }
    }
    let (out, _) = answer(&indexed(&chroma, &[]), &["grep", "-rl", "本語の", "/"]);
    assert_eq!(out, printed("/intl/t3.md\n", "", 0), "one CJK character is a piece");
}

#[test]
fn a_page_made_private_between_two_ingests_is_never_a_public_candidate() {
    let chroma = FakeChroma::new();
    let mut files = site(600, 50, 0, "");
    files.push(("guides/zebra.md".into(), "the zebra page\n".into()));
    write(&chroma, &files);
    let (_, cs) = answer(&indexed(&chroma, &[]), &["grep", "-rli", "ZEBRA", "/"]);
    assert_eq!((cs.index, cs.candidates), (true, 1));
    // The same page and text, now for admins only: moved to another class of the index.
    let again = write_private(&chroma, &files, &["guides/zebra.md"]);
    assert!(again.grep_index.written <= 2, "{:?}", again.grep_index);
    let (out, cs) = answer(&indexed(&chroma, &[]), &["grep", "-rli", "ZEBRA", "/"]);
    assert_eq!(out, printed("", "", 1));
    assert_eq!((cs.index, cs.candidates), (true, 0), "{cs:?}");
    let (out, _) = answer(&indexed(&chroma, &["admin"]), &["grep", "-rli", "ZEBRA", "/"]);
    assert_eq!(out, printed("/guides/zebra.md\n", "", 0));
}

#[test]
fn an_index_of_another_format_is_not_read_and_the_next_ingest_makes_it_anew() {
    let chroma = FakeChroma::new();
    let files = site(600, 50, 0, "");
    write(&chroma, &files);
    let (expected, _) = answer(&without_index(&chroma), &["grep", "-rni", "token", "/"]);
    // The tree's manifest names an index of the format before this one.
    let (doc, meta) = chroma.record("docs", "__path_tree__").unwrap();
    let doc = doc.unwrap();
    let format = format!("\"v\":{}", crate::pages::grams::manifest::FORMAT);
    assert!(doc.contains(&format), "{doc}");
    chroma.put("docs", "__path_tree__", Some(&doc.replace(&format, "\"v\":2")), meta);
    let fs = indexed(&chroma, &[]);
    assert_eq!(fs.grep_index().err(), Some(crate::pages::grams::manifest::OTHER_FORMAT));
    let (out, cs) = answer(&fs, &["grep", "-rni", "token", "/"]);
    assert_eq!(out, expected, "the same answer, without the index");
    assert!(!cs.index, "{cs:?}");
    // Ingested again, unchanged: the index is made anew.
    let again = write(&chroma, &files);
    assert_eq!(again.grep_index.written, again.grep_index.records, "{:?}", again.grep_index);
    let (out, cs) = answer(&indexed(&chroma, &[]), &["grep", "-rni", "token", "/"]);
    assert_eq!(out, expected);
    assert!(cs.index, "{cs:?}");
}

#[test]
fn the_index_s_records_hold_their_text_in_metadata_and_no_document() {
    let chroma = FakeChroma::new();
    write(&chroma, &site(300, 50, 0, ""));
    let ids: Vec<String> = chroma.ids("docs").into_iter().filter(|id| id.starts_with("__grams__:")).collect();
    assert!(!ids.is_empty());
    for id in &ids {
        let (doc, meta) = chroma.record("docs", id).unwrap();
        assert_eq!(doc, None, "{id}: no document, so no full-text entry");
        assert_eq!(meta["chromafs"], "grep-index");
        assert!(meta["grams0"].as_str().is_some_and(|t| !t.is_empty() && t.len() <= 4_000), "{id}");
    }
}

#[test]
fn the_command_reads_the_candidates_as_they_load_and_a_load_that_fails_fails_it() {
    let (reference, chroma) = (FakeChroma::new(), FakeChroma::new());
    write(&reference, &site(600, 50, 0, ""));
    // Another server for the session measured: nothing the process kept of the first serves it.
    write(&chroma, &site(600, 50, 0, ""));
    let words = ["grep", "-rni", "token", "/"];
    let (expected, _) = answer(&without_index(&reference), &words);
    let fs = indexed(&chroma, &[]);
    chroma.clear_log();
    let (out, cs) = answer(&fs, &words);
    assert_eq!(out, expected);
    assert!(cs.index && cs.native, "{cs:?}");
    assert_eq!((cs.candidates, cs.searched), (12, 12), "no fine check before: the command is the check");
    let pages: Vec<_> = chroma.gets().into_iter().filter(|g| !g.to_string().contains("__grams__")).collect();
    assert_eq!((pages.len(), cs.prefetch_requests), (1, 1), "one request for the twelve pages' chunks: {pages:?}");
    // Chroma fails the pages' chunks: the command fails with that cause, printing nothing
    // (a third server, so that nothing the process kept serves it).
    let chroma = FakeChroma::new();
    write(&chroma, &site(600, 50, 0, ""));
    let fs = indexed(&chroma, &[]);
    chroma.set_fault(|req| {
        let chunks = req.url.ends_with("/get") && req.body.as_deref().is_some_and(|b| b.contains(".md#"));
        chunks.then(|| Err(crate::chroma::transport::TransportError::Network("connection reset".into())))
    });
    let (out, report) = attempt(&fs, &words);
    chroma.clear_fault();
    assert_eq!(out, Outcome::Failed, "never a partial answer");
    assert_eq!(report.total, 1, "{report:?}");
    assert!(report.unreported[0].cause.starts_with("cannot load 12 pages: "), "{report:?}");
}

/// [`write`], as a run that may fail.
fn try_write(chroma: &FakeChroma, files: &[(String, String)]) -> Result<Summary, String> {
    let files: Vec<SourceFile> = files
        .iter()
        .map(|(path, text)| SourceFile { path: path.clone(), content: text.clone().into_bytes(), mtime: None })
        .collect();
    let plan = ingest::plan(&files, &Rules::default(), 4096, "__path_tree__").unwrap();
    crate::testing::write_plan(chroma, plan, Rc::new(ingest::DefaultEmbedder))
}

#[test]
fn an_ingest_that_failed_after_its_chunks_leaves_no_grep_missing_a_line() {
    // The chunks of the edit written, then every write of the index refused, or then the
    // tree's: the chunks' stored hashes say "written", what depends on them is not.
    for refused in [crate::pages::grams::shard::PREFIX, "__path_tree__\""] {
        let chroma = FakeChroma::new();
        let files = site(600, 50, 0, "");
        write(&chroma, &files);
        let mut edited = files.clone();
        for (_, text) in edited.iter_mut().step_by(100) {
            text.push_str("the omega release\n");
        }
        let needle = format!("\"{refused}");
        chroma.set_fault(move |req| {
            let body = req.body.as_deref().unwrap_or("");
            (req.url.ends_with("/upsert") && body.contains(&needle))
                .then(|| Ok(crate::chroma::transport::HttpResponse::new(500, "{\"error\":\"Internal\"}")))
        });
        assert!(try_write(&chroma, &edited).is_err(), "{refused}: the run fails");
        chroma.clear_fault();
        let again = try_write(&chroma, &edited).unwrap();
        assert_eq!(again.chunks_written, 0, "{refused}: the chunks were written");
        assert!(again.grep_index.written > 0, "{refused}: the index is made anew");
        for words in
            [&["grep", "-rn", "omega", "/"][..], &["grep", "-rlw", "release", "/api"], &["rg", "-i", "OMEGA", "/"]]
        {
            let (expected, _) = answer(&without_index(&chroma), words);
            let (out, cs) = answer(&indexed(&chroma, &[]), words);
            assert!(cs.index, "{refused} {words:?}: {cs:?}");
            assert_eq!(out, expected, "{refused} {words:?}: the same lines as without the index");
        }
        let (Outcome::Printed(found), _) = answer(&indexed(&chroma, &[]), &["grep", "-rl", "omega", "/"]) else {
            panic!("{refused}: grep printed nothing")
        };
        assert_eq!(found.stdout.lines().count(), 6, "{refused}: {}", found.stdout);
        assert!(!chroma.ids("docs").iter().any(|id| id.contains("@ingest#")), "{refused}: no lease is left");
    }
}
