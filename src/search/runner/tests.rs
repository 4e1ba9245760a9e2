//! The search runner over an in-memory Chroma: what each plan costs and what it hands on.

use super::*;
use crate::chroma::transport::{HttpResponse, Transport};
use crate::fs::stats::CommandStats;
use crate::fs::Filesystem;
use crate::options::Options;
use crate::search::search as run;
use crate::testing::{block_on, chroma::URL, FakeChroma};
use crate::tree::access::Groups;
use serde_json::{json, Value};
use std::rc::Rc;

fn corpus(aligned: bool) -> FakeChroma {
    let chroma = FakeChroma::new();
    chroma.pages(
        "docs",
        &[
            ("a.md", &["intro\n", "set the token\n"], json!({"isPublic": true})),
            ("b.md", &["nothing here\n"], json!({"isPublic": true})),
            // Chunks cut mid-word: "to" + "ken" holds the word, "tok" + "en" does too.
            ("c.md", &["a to", "ken!\n"], json!({"isPublic": true})),
            ("d.md", &["no tok", "\nen\n"], json!({"isPublic": true})),
            ("pats.md", &["token\n"], json!({"isPublic": true})),
            ("secret.md", &["the token of admins\n"], json!({"isPublic": false, "groups": ["admin"]})),
        ],
        json!({"line_aligned": aligned}),
    );
    chroma
}

fn connect(chroma: &FakeChroma) -> Rc<Filesystem> {
    connect_with(chroma, |o| o.groups = Groups::default())
}

fn search(fs: &Rc<Filesystem>, words: &[&str]) -> (Vec<String>, CommandStats) {
    let fs2 = fs.clone();
    let (name, args) = (words[0].to_string(), words[1..].iter().map(|s| s.to_string()).collect());
    let out = block_on(async move { run(&fs2, &name, args, "/", (true, true), None).await });
    let Outcome::Run(args) = out else { panic!("the search cannot run: {out:?}") };
    (args, fs.stats().commands.pop().unwrap())
}

#[test]
fn a_literal_search_costs_one_coarse_query_and_one_bulk_load() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    chroma.clear_log();
    let (args, cs) = search(&fs, &["grep", "-rn", "token", "/"]);
    assert_eq!(args, ["-rn", "token", "--", "//a.md", "//pats.md"]);
    assert_eq!((cs.plan, cs.scope, cs.candidates, cs.searched), (PlanKind::Narrow, 5, 2, 2));
    assert_eq!((cs.coarse_requests, cs.prefetch_requests, cs.coarse_matches), (1, 1, 2));
    let gets = chroma.gets();
    assert_eq!(gets[0]["where_document"], json!({"$contains": "token"}));
    assert_eq!(gets[0]["include"], json!(["metadatas"]));
    assert_eq!(gets[1]["where"]["page_slug"]["$in"], json!(["a.md", "pats.md"]));
    chroma.clear_log();
    let (_, again) = search(&fs, &["grep", "-rn", "token", "/"]);
    assert_eq!((again.coarse_requests, again.prefetch_requests), (0, 0), "a repeat costs nothing");
    assert_eq!(again.candidates, 2, "the coarse query's answer is the one the session had");
    // Another session of the process asks again: the answer is the first session's, its
    // tree confirmed current (here by its own connect, so at no cost).
    let (_, other) = search(&connect(&chroma), &["grep", "-rn", "token", "/"]);
    assert_eq!((other.coarse_requests, other.candidates), (0, 2));
}

#[test]
fn hidden_pages_are_never_named_in_any_request() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    for cmd in [
        &["grep", "-r", "token", "/"][..],
        &["grep", "-rv", "x", "/"],
        &["rg", "-i", "TOKEN"],
        &["grep", "-rc", "admins", "/"],
    ] {
        search(&fs, cmd);
    }
    assert!(chroma.requests().len() >= 4);
    for req in chroma.requests() {
        assert!(!req.body.unwrap_or_default().contains("secret"));
    }
}

#[test]
fn the_fine_check_drops_pages_the_coarse_filter_kept_too_widely() {
    let chroma = corpus(false);
    let fs = connect(&chroma);
    let (args, cs) = search(&fs, &["grep", "-r", "token", "/"]);
    // c.md is kept (the word spans a cut); d.md ends a chunk with "tok" but has no "token".
    assert_eq!(args, ["-r", "token", "--", "//a.md", "//c.md", "//pats.md"]);
    assert_eq!((cs.candidates, cs.searched), (4, 3));
}

#[test]
fn nothing_to_search_runs_the_command_on_dev_null() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    let (args, cs) = search(&fs, &["grep", "-r", "needle", "/"]);
    assert_eq!(args, ["-r", "needle", "--", "/dev/null"]);
    assert_eq!((cs.candidates, cs.prefetch_requests), (0, 0));
    let (args, _) = search(&fs, &["grep", "-r", "needle", "/nope"]);
    assert_eq!(args, ["-r", "needle", "--", "/nope"], "a missing operand is left for grep to report");
}

#[test]
fn a_failed_coarse_query_falls_back_to_a_bulk_load() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    chroma.set_fault(|req| {
        req.body
            .as_deref()
            .is_some_and(|b| b.contains("where_document"))
            .then(|| Ok(HttpResponse::new(422, r#"{"message":"Quota exceeded"}"#)))
    });
    let (args, cs) = search(&fs, &["grep", "-rn", "token", "/"]);
    assert_eq!(args, ["-rn", "token", "/"], "the command runs as typed");
    assert_eq!(cs.plan, PlanKind::Prefetch);
    assert_eq!(cs.note.as_deref(), Some("coarse query failed: Chroma answered HTTP 422 to a search: Quota exceeded"));
    assert_eq!(cs.prefetch_requests, 1);
    assert_eq!(fs.stats().store.prefetched_pages, 5, "every page in scope is in memory");
}

#[test]
fn searches_that_cannot_be_narrowed_say_why() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    let (_, cs) = search(&fs, &["grep", "-rE", "(?=x)", "/"]);
    assert_eq!(
        (cs.plan, cs.note.as_deref()),
        (PlanKind::Prefetch, Some("a repetition at the start of an expression in a GNU pattern is left to just-bash"))
    );
    let (_, cs) = search(&fs, &["grep", "-rc", "token", "/"]);
    assert_eq!(cs.note.as_deref(), Some("-c prints a count for every file"));
    assert_eq!(cs.scope, 5);
    let (args, cs) = search(&fs, &["grep", "token"]);
    assert_eq!((args, cs.plan), (vec!["token".to_string()], PlanKind::Delegate), "stdin: nothing of ours is read");
}

#[test]
fn pattern_files_are_read_then_planned() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    let (args, cs) = search(&fs, &["grep", "-r", "-f", "/pats.md", "/"]);
    assert_eq!(cs.plan, PlanKind::Narrow);
    assert_eq!(args, ["-r", "-f", "/pats.md", "--", "//a.md", "//pats.md"]);
    let (args, cs) = search(&fs, &["grep", "-r", "-f", "/missing.md", "/"]);
    assert_eq!((args.len(), cs.plan), (4, PlanKind::Delegate), "grep reports the missing file itself");
}

#[test]
fn rg_keeps_many_files_many() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    let (args, _) = search(&fs, &["rg", "-n", "intro", "/"]);
    assert_eq!(args, ["-n", "intro", "/a.md", "/dev/null"], "one file left must still print its name");
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let handed = |w: &[&str]| super::as_ripgrep(&crate::search::job::Job::parse("rg", words(w), "/"), words(w));
    assert_eq!(
        handed(&["--pre", "cat", "x"]),
        ["-s", "-N", "--pre", "cat", "x"],
        "case-sensitive, unnumbered, as ripgrep"
    );
    assert_eq!(handed(&["-U", "-n", "a\\nb"]), ["-s", "-U", "-n", "a\\nb"]);
    assert_eq!(handed(&["-U", "ab"]), ["-U", "ab"], "-U that cannot span lines is answered in Rust, else as typed");
}

/// `n` one-chunk pages of 16 bytes, every fifth holding "zzz".
fn many(n: usize) -> FakeChroma {
    let chroma = FakeChroma::new();
    let docs: Vec<String> =
        (0..n).map(|i| format!("page {i:05} {}\n", if i % 5 == 0 { "zzz" } else { "aaa" })).collect();
    let slugs: Vec<String> = (0..n).map(|i| format!("p{i:05}.md")).collect();
    let pages: Vec<(&str, Vec<&str>, serde_json::Value)> =
        slugs.iter().zip(&docs).map(|(s, d)| (s.as_str(), vec![d.as_str()], json!({"isPublic": true}))).collect();
    let pages: Vec<(&str, &[&str], serde_json::Value)> =
        pages.iter().map(|(s, d, a)| (*s, d.as_slice(), a.clone())).collect();
    chroma.pages("docs", &pages, json!({"line_aligned": true}));
    chroma
}

#[test]
fn a_cache_smaller_than_the_search_streams_candidates_through_the_fine_check() {
    for cache_bytes in [0, 10, 100, 1 << 20] {
        let chroma = many(600);
        let fs = connect_with(&chroma, |o| o.cache_bytes = cache_bytes);
        let (args, cs) = search(&fs, &["grep", "-rn", "zzz", "/"]);
        assert_eq!(args.len(), 3 + 120, "cache {cache_bytes}: every match is handed on");
        assert_eq!((cs.candidates, cs.searched), (120, 120));
        assert!(fs.stats().store.cached_bytes <= cache_bytes as u64);
        let (args, cs) = search(&fs, &["grep", "-rc", "zzz", "/"]);
        assert_eq!((args.len(), cs.scope), (3, 600), "cache {cache_bytes}: counts need every page");
    }
}

/// A collection written by chromafs's own ingest: manifest, access, dirs and ids on chunks.
fn ingested(n: usize, every: usize) -> FakeChroma {
    ingested_in(n, every, |i| if i % 2 == 0 { "api" } else { "guides" }.to_string())
}

/// [`ingested`] with page `i` in directory `dir(i)`.
fn ingested_in(n: usize, every: usize, dir: impl Fn(usize) -> String) -> FakeChroma {
    use crate::ingest::{self, Rules, SourceFile};
    let chroma = FakeChroma::new();
    let files: Vec<SourceFile> = (0..n)
        .map(|i| SourceFile {
            path: format!("{}/p{i:04}.md", dir(i)),
            content: format!("page {i}\n{}\n", if i % every == 0 { "a token here" } else { "nothing" }).into_bytes(),
            mtime: None,
        })
        .collect();
    let plan = ingest::plan(&files, &Rules::default(), 4096, "__path_tree__").unwrap();
    crate::testing::write_plan(&chroma, plan, Rc::new(ingest::DefaultEmbedder)).unwrap();
    chroma
}

#[test]
fn an_ingested_collection_is_searched_by_directory_and_read_by_id() {
    let chroma = ingested(200, 50);
    let fs = connect(&chroma);
    chroma.clear_log();
    let (args, cs) = search(&fs, &["grep", "-rl", "token", "/api"]);
    assert_eq!(args, ["-rl", "token", "--", "/api/p0000.md", "/api/p0050.md", "/api/p0100.md", "/api/p0150.md"]);
    assert_eq!((cs.coarse_requests, cs.prefetch_requests), (1, 1));
    let gets = chroma.gets();
    assert_eq!(gets[0]["where"], json!({"$and": [{"dirs": {"$contains": "api"}}, {"isPublic": true}]}));
    assert_eq!(gets[1]["ids"].as_array().unwrap().len(), 4, "candidates by chunk id");
    assert!(gets.iter().all(|g| g.to_string().len() < 1024), "no request grows with the corpus");
}

#[test]
fn a_pattern_that_matches_most_pages_loads_the_scope_whole() {
    let chroma = ingested(2400, 1);
    let fs = connect(&chroma);
    chroma.clear_log();
    let (args, cs) = search(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 2400);
    assert_eq!(cs.note.as_deref(), Some("the pattern matches most of the scope: loaded whole and checked here"));
    assert_eq!(
        (cs.coarse_requests, cs.prefetch_requests),
        (2, 8),
        "a page of hits and a probe at half the scope, then 2,400 chunks by id"
    );
    let (args, _) = search(&fs, &["grep", "-rl", "page 7$", "/"]);
    assert_eq!(args, ["-rl", "page 7$", "--", "//guides/p0007.md"], "the fine check keeps exact matches only");
}

fn connect_with(chroma: &FakeChroma, tweak: impl FnOnce(&mut Options)) -> Rc<Filesystem> {
    let mut o = Options::new(URL, "docs");
    // These tests look at what is handed to just-bash; native answers are tested below.
    o.native_commands = false;
    // The corpus has a hidden page and its chunks carry no access: these tests look at the
    // coarse query, which such a session only sends when the host accepts what it reveals
    // (the default is tested in `searches_cost_nothing_that_depends_on_hidden_text`).
    o.unscoped_coarse_query = true;
    // And at the coarse query itself, not the grep index an ingest writes (`indexed` is).
    o.grep_index = false;
    tweak(&mut o);
    let t: Rc<dyn Transport> = Rc::new(chroma.clone());
    Rc::new(block_on(async move { Filesystem::connect(o, t, 0.0).await }).unwrap())
}

fn attempt(fs: &Rc<Filesystem>, words: &[&str]) -> (Outcome, crate::fs::journal::Report) {
    let fs2 = fs.clone();
    let (name, args) = (words[0].to_string(), words[1..].iter().map(|s| s.to_string()).collect());
    let mark = fs.begin_command();
    let out = block_on(async move { run(&fs2, &name, args, "/", (true, true), None).await });
    (out, fs.end_command(mark))
}

#[test]
fn a_server_that_is_down_stops_the_search_with_one_failure_not_one_per_page() {
    let chroma = many(600);
    let fs = connect_with(&chroma, |o| o.client.retries = 1);
    chroma.set_fault(|_| {
        Some(Err(crate::chroma::transport::TransportError::Network("connect ECONNREFUSED 127.0.0.1:8000".into())))
    });
    chroma.clear_log();
    let (out, report) = attempt(&fs, &["grep", "-rn", "zzz", "/"]);
    assert_eq!(out, Outcome::Failed, "the search does not run on what happens to be in memory");
    assert_eq!(report.total, 1);
    assert_eq!(report.unreported[0].path, "/");
    assert_eq!(report.unreported[0].cause, "cannot load 600 pages: Chroma is unreachable (cannot reach Chroma for a search: connect ECONNREFUSED 127.0.0.1:8000); the next command tries again");
    assert_eq!(chroma.requests().len(), 2, "the coarse query and its retry; the fallback load fails at once");
    chroma.clear_fault();
    let (out, report) = attempt(&fs, &["grep", "-rn", "zzz", "/"]);
    assert!(matches!(&out, Outcome::Run(a) if a.len() == 3 + 120), "the next command works once the server is back");
    assert_eq!(report.total, 0);
}

#[test]
fn a_search_over_its_request_budget_stops_with_the_budget_as_its_cause() {
    let chroma = ingested(2400, 1);
    let fs = connect_with(&chroma, |o| o.limits.max_requests = Some(3));
    let (out, report) = attempt(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(out, Outcome::Failed);
    assert!(
        report.unreported[0].cause.ends_with("the command used its budget of 3 requests (maxRequestsPerCommand)"),
        "{report:?}"
    );
    assert_eq!(fs.stats().requests.requests, 2 + 3, "connect, then the budget and not one more");
    let fs = connect_with(&chroma, |o| o.limits.max_requests = Some(10));
    let (out, _) = attempt(&fs, &["grep", "-rl", "token", "/"]);
    assert!(matches!(out, Outcome::Run(a) if a.len() == 3 + 2400), "within its budget the same search succeeds");
}

#[test]
fn most_of_a_scope_larger_than_the_cache_is_loaded_once_as_the_command_reads_it() {
    let chroma = ingested(2400, 1);
    let fs = connect_with(&chroma, |o| o.cache_bytes = 20_000);
    let (args, cs) = search(&fs, &["grep", "-rl", "token", "/"]);
    assert_eq!(args.len(), 3 + 2400);
    assert_eq!(
        cs.note.as_deref(),
        Some("the pattern matches most of a scope larger than the cache: read ahead as the command reads")
    );
    assert_eq!(
        (cs.coarse_requests, cs.prefetch_requests),
        (2, 0),
        "a page of hits and a probe, and nothing loaded twice"
    );
    let before = fs.requests();
    for path in &args[3..] {
        let fs2 = fs.clone();
        let path = path.clone();
        block_on(async move { fs2.read(&path).await }).unwrap();
    }
    let reads = fs.requests() - before;
    assert!(reads <= 12, "the command's reads come in windows of half the cache: {reads} requests");
    assert!(fs.stats().store.cached_bytes <= 20_000);
}

#[test]
fn a_pattern_too_long_for_just_bash_is_refused_before_anything_is_sent() {
    let chroma = corpus(true);
    let fs = connect(&chroma);
    chroma.clear_log();
    let long = "x".repeat(MAX_PATTERN_BYTES + 1);
    for words in [vec!["grep", "-r", long.as_str(), "/"], vec!["rg", "-e", long.as_str()], vec!["grep", long.as_str()]]
    {
        let (out, _) = attempt(&fs, &words);
        assert_eq!(
            out,
            Outcome::Refused(format!(
                "a pattern of {} bytes is longer than the {MAX_PATTERN_BYTES} this shell searches with",
                long.len()
            ))
        );
    }
    assert!(chroma.requests().is_empty());
    let ok = "x".repeat(MAX_PATTERN_BYTES);
    assert!(matches!(attempt(&fs, &["grep", "-r", ok.as_str(), "/"]).0, Outcome::Run(_)));
}

/// The outcome (without where its errors came in its output, which `errors_come_where_grep_wrote_them` checks) and its stats.
pub(super) fn answer(fs: &Rc<Filesystem>, words: &[&str]) -> (Outcome, CommandStats) {
    let fs2 = fs.clone();
    let (name, args) = (words[0].to_string(), words[1..].iter().map(|s| s.to_string()).collect());
    let mut out = block_on(async move { run(&fs2, &name, args, "/", (true, true), None).await });
    if let Outcome::Printed(p) = &mut out {
        p.stderr_at.clear();
    }
    (out, fs.stats().commands.pop().unwrap())
}

#[test]
fn errors_come_where_grep_wrote_them() {
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let fs2 = fs.clone();
    let args = ["-c", "token", "/a.md", "/nope.md", "/b.md"].map(String::from).to_vec();
    let out = block_on(async move { run(&fs2, "grep", args, "/", (true, true), None).await });
    let Outcome::Printed(p) = out else { panic!("not answered here: {out:?}") };
    assert_eq!(
        (p.stdout.as_str(), p.stderr.as_str()),
        ("/a.md:1\n/b.md:0\n", "grep: /nope.md: No such file or directory\n")
    );
    assert_eq!(p.stderr_at, [(8, 42)], "after the first file's count");
}

fn printed(stdout: &str, stderr: &str, exit_code: i32) -> Outcome {
    Outcome::Printed(Printed { stdout: stdout.into(), stderr: stderr.into(), exit_code, ..Default::default() })
}

#[test]
fn narrowed_searches_are_answered_natively() {
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (out, cs) = answer(&fs, &["grep", "-rn", "token", "/"]);
    assert_eq!(out, printed("/a.md:2:set the token\n/pats.md:1:token\n", "", 0));
    assert!(cs.native && cs.delegated.is_none());
    assert_eq!(
        answer(&fs, &["grep", "-rc", "token", "/"]).0,
        printed("/a.md:1\n/b.md:0\n/c.md:1\n/d.md:0\n/pats.md:1\n", "", 0)
    );
    assert_eq!(answer(&fs, &["grep", "-rl", "zzz", "/"]).0, printed("", "", 1));
    assert_eq!(
        answer(&fs, &["grep", "token", "/b.md", "/nope.md", "/"]).0,
        printed("", "grep: /nope.md: No such file or directory\ngrep: /: Is a directory\n", 2)
    );
    assert_eq!(
        answer(&fs, &["grep", "-q", "token", "/nope.md", "/a.md"]).0,
        printed("", "grep: /nope.md: No such file or directory\n", 0),
        "-q exits 0 at the first match, after the errors before it"
    );
    assert_eq!(answer(&fs, &["grep", "-sq", "token", "/nope.md"]).0, printed("", "", 2), "-s: no message");
    assert_eq!(
        answer(&fs, &["grep", "-rl", "--exclude-dir=/", "token", "/"]).0,
        printed("", "", 1),
        "the operand's own name is tested"
    );
    // `-rc` loaded every page: a search over them now asks Chroma nothing.
    chroma.clear_log();
    let (out, cs) = answer(&fs, &["grep", "-rn", "ken", "/"]);
    assert_eq!(out, printed("/a.md:2:set the token\n/c.md:1:a token!\n/pats.md:1:token\n", "", 0));
    assert!(chroma.requests().is_empty() && cs.native && cs.coarse_requests == 0);
}

#[test]
fn pattern_files_are_read_here_and_cost_no_more_than_the_plan() {
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let before = fs.stats().requests.requests;
    let (out, cs) = answer(&fs, &["grep", "-rn", "-f", "/pats.md", "-e", "intro", "/"]);
    assert_eq!(out, printed("/a.md:1:intro\n/a.md:2:set the token\n/pats.md:1:token\n", "", 0));
    assert!(cs.native && cs.plan == PlanKind::Narrow);
    assert_eq!(fs.stats().requests.requests - before, 3, "the pattern file, the coarse query and one bulk load");
    let missing = "grep: /nope.md: No such file or directory\n";
    assert_eq!(
        answer(&fs, &["grep", "-rs", "-f", "/nope.md", "x", "/"]).0,
        printed("", missing, 2),
        "-s hides no -f error"
    );
    let dir = "grep: /sub: Is a directory\n";
    assert_eq!(answer(&fs, &["grep", "-r", "-f", "/", "x", "/b.md"]).0, printed("", &dir.replace("/sub", "/"), 2));
    let (out, _) = answer(&fs, &["grep", "-c", "-f", "/dev/null", "/a.md", "/b.md"]);
    assert_eq!(out, printed("", "", 1), "no pattern: nothing read, nothing said");
    assert_eq!(answer(&fs, &["grep", "-vc", "-f", "/dev/null", "/a.md"]).0, printed("2\n", "", 0), "-v: every line");
    assert_eq!(answer(&fs, &["grep", "-L", "-f", "/dev/null", "/a.md"]).0, printed("/a.md\n", "", 1));
}

#[test]
fn color_always_is_answered_natively() {
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (out, cs) = answer(&fs, &["grep", "-rn", "--colour=always", "token", "/"]);
    let (name, sep, number, start, end) =
        ("\x1b[35m\x1b[K", "\x1b[36m\x1b[K", "\x1b[32m\x1b[K", "\x1b[01;31m\x1b[K", "\x1b[m\x1b[K");
    let line = |file: &str, n: u32, before: &str| {
        format!("{name}{file}{end}{sep}:{end}{number}{n}{end}{sep}:{end}{before}{start}token{end}\n")
    };
    let expected = format!("{}{}", line("/a.md", 2, "set the "), line("/pats.md", 1, ""));
    assert_eq!(out, printed(&expected, "", 0));
    assert!(cs.native && cs.delegated.is_none());
    let (out, _) = answer(&fs, &["grep", "-rl", "--color=yes", "token", "/"]);
    assert_eq!(out, printed(&format!("{name}/a.md{end}\n{name}/pats.md{end}\n"), "", 0), "-l: names coloured");
    // A binary page: GNU grep 3.8's message, not coloured, and nothing on stdout.
    let chroma = FakeChroma::new();
    chroma.pages("docs", &[("bin.md", &["ab\0token\n"], json!({"isPublic": true}))], json!({"line_aligned": true}));
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (out, cs) = answer(&fs, &["grep", "-n", "--color=always", "token", "/bin.md"]);
    assert_eq!(out, printed("", "grep: /bin.md: binary file matches\n", 0));
    assert!(cs.native);
}

#[test]
fn only_matching_passes_over_empty_matches_as_gnu_grep() {
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (out, cs) = answer(&fs, &["grep", "-on", "t*o", "/a.md"]);
    assert_eq!(out, printed("1:o\n2:to\n", "", 0));
    assert!(cs.native);
    let (out, cs) = answer(&fs, &["grep", "-o", "x*", "/a.md"]);
    assert_eq!(out, printed("", "", 0), "every line matches, with nothing to print");
    assert!(cs.native);
    assert_eq!(
        answer(&fs, &["grep", "-ob", "e*n", "/a.md", "/b.md"]).0,
        printed("/a.md:1:n\n/a.md:17:en\n/b.md:0:n\n/b.md:5:n\n", "", 0)
    );
}

#[test]
fn searches_outside_the_modelled_set_go_to_just_bash_and_say_why() {
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    assert_eq!(answer(&fs, &["grep", "x"]).0, printed("", "", 1), "an empty standard input is searched here");
    for (cmd, why) in [
        (&["grep", "-r", "--color=always", "x*", "/"][..], "--color=always with a pattern that matches empty text"),
        (&["grep", "-rowE", "x*", "/"], "-o -w with a pattern that matches empty text"),
        (&["grep", "-r", "--include=[[:alpha:]].md", "x", "/"], "a character class in a glob"),
    ] {
        let (out, cs) = answer(&fs, cmd);
        assert!(matches!(out, Outcome::Run(_)), "{cmd:?}: {out:?}");
        assert_eq!((cs.native, cs.delegated.as_deref()), (false, Some(why)), "{cmd:?}");
    }
}

/// What a search sent and recorded, for comparing two collections.
fn footprint(chroma: &FakeChroma, fs: &Rc<Filesystem>, words: &[&str]) -> (Outcome, Vec<String>, CommandStats) {
    chroma.clear_log();
    let (outcome, _) = attempt(fs, words);
    let bodies = chroma.requests().into_iter().map(|r| r.body.unwrap_or_default()).collect();
    let mut cs = fs.stats().commands.pop().unwrap();
    cs.command.clear();
    (outcome, bodies, cs)
}

#[test]
fn searches_cost_nothing_that_depends_on_hidden_text() {
    // Two collections written by another tool (no access on chunks), the same but for
    // what hidden pages hold: the word 400 times, or not at all.
    let make = |hidden_word: bool| {
        let chroma = FakeChroma::new();
        let hidden: Vec<&str> = vec![if hidden_word { "zebra stripes\n" } else { "plain stripes\n" }; 400];
        // More visible pages than a slug list in one query may name.
        let names: Vec<String> = (0..12).map(|i| format!("p{i:02}.md")).collect();
        let mut pages: Vec<(&str, &[&str], Value)> =
            names.iter().map(|n| (n.as_str(), &["some text\n"][..], json!({"isPublic": true}))).collect();
        pages.push(("hidden.md", &hidden, json!({"isPublic": false, "groups": ["admin"]})));
        chroma.pages("docs", &pages, json!({"line_aligned": true}));
        chroma
    };
    let run = |hidden_word: bool, words: &[&str], tweak: fn(&mut Options)| {
        crate::tree::load::forget();
        let chroma = make(hidden_word);
        let fs = connect_with(&chroma, |o| {
            o.unscoped_coarse_query = false;
            tweak(o);
        });
        footprint(&chroma, &fs, words)
    };
    for words in [&["grep", "-r", "zebra", "/"][..], &["grep", "-rc", "zebra", "/"], &["rg", "-l", "zebra"]] {
        let (with, without) = (run(true, words, |_| {}), run(false, words, |_| {}));
        assert_eq!(format!("{with:?}"), format!("{without:?}"), "{words:?}: outcome, requests and stats");
        assert_eq!(with.2.coarse_requests, 0);
        if words[1] != "-rc" {
            assert_eq!(with.2.note.as_deref(), Some(UNSCOPED_NOTE), "{words:?}");
        }
        let budget = |o: &mut Options| o.limits.max_requests = Some(1);
        let (with, without) = (run(true, words, budget), run(false, words, budget));
        assert_eq!(format!("{with:?}"), format!("{without:?}"), "{words:?} within a budget of one request");
    }
    // A host may accept the dependence for speed: the coarse query is sent, and then
    // what a search costs does tell the two collections apart.
    let accept = |o: &mut Options| o.unscoped_coarse_query = true;
    let (with, without) =
        (run(true, &["grep", "-r", "zebra", "/"], accept), run(false, &["grep", "-r", "zebra", "/"], accept));
    assert!(with.2.coarse_requests >= 1);
    assert_ne!(format!("{with:?}"), format!("{without:?}"));
}

#[test]
fn a_search_parses_walks_and_compiles_once() {
    use crate::search::tally::{take, Tally};
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let once = Tally { parses: 1, walks: 1, engines: 1, matchers: 1 };
    for words in [&["grep", "-rn", "token", "/"][..], &["egrep", "-rn", "tok(en)", "/"], &["rg", "-n", "ken", "/"]] {
        crate::tree::load::forget();
        let fs = connect_with(&corpus(true), |o| o.native_commands = true);
        take();
        let (out, cs) = answer(&fs, words);
        assert!(matches!(out, Outcome::Printed(_)) && cs.plan == PlanKind::Narrow, "{words:?}: {out:?} {cs:?}");
        assert_eq!(take(), once, "{words:?}");
    }
    // Pattern files are read between two plans, but the command line is parsed once.
    take();
    let (out, cs) = answer(&fs, &["grep", "-rn", "-f", "/pats.md", "/"]);
    assert!(matches!(out, Outcome::Printed(_)) && cs.plan == PlanKind::Narrow, "{out:?}");
    assert_eq!(take(), Tally { parses: 1, walks: 1, engines: 1, matchers: 1 }, "the engine is made once -f is read");
}

mod head;
mod indexed;
mod names;
mod perl;
mod shapes;
mod versions;
mod whole;
