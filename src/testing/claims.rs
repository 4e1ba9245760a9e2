//! ARCHITECTURE.md's claims about who calls what, checked on the source as [`super::layers`]
//! checks the layer order. Each test reads the claim's own sentence, so the prose and the
//! code cannot drift apart unnoticed.

use super::layers::{code, graph, root, source_files};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The paragraph of ARCHITECTURE.md's invariants that starts with `lead`.
fn claim(lead: &str) -> String {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = text.find(lead).unwrap_or_else(|| panic!("ARCHITECTURE.md no longer claims {lead:?}"));
    let rest = &text[start..];
    let end = rest.find("\n- ").or_else(|| rest.find("\n\n")).unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The `backticked` words of a text.
fn quoted(text: &str) -> BTreeSet<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The crate's non-test source files, with their code.
fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    source_files(&root().join("src"), &mut files);
    files.into_iter().map(|f| (f.clone(), code(&f))).collect()
}

#[test]
fn only_the_writer_reads_around_the_collection() {
    let said = claim("**Only the writer reads around `Collection`**");
    let callers: BTreeSet<String> = sources()
        .into_iter()
        .filter(|(f, code)| code.contains("collection::read_whole(") && !f.ends_with("pages/collection.rs"))
        .map(|(f, _)| f.strip_prefix(root().join("src")).unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(callers.iter().all(|c| c.starts_with("ingest/")), "read_whole is called from {callers:?}");
    let named: BTreeSet<String> = quoted(&said).into_iter().filter(|w| w.ends_with(".rs")).collect();
    let files: BTreeSet<String> = callers.iter().map(|c| c.rsplit('/').next().unwrap().to_string()).collect();
    assert_eq!(files, named, "the claim names the callers of read_whole: {said}");
}

#[test]
fn the_boundary_reads_only_what_json_cannot_carry() {
    let said = claim("**Options are read and checked natively**");
    let allowed = quoted(&said);
    let mut read = BTreeSet::new();
    for (file, code) in sources().into_iter().filter(|(f, _)| f.starts_with(root().join("src/js"))) {
        for call in ["get(", "function("] {
            for (at, _) in code.match_indices(call) {
                let args = &code[at + call.len()..];
                let receiver = args.split(',').next().unwrap_or("").trim().trim_start_matches('&');
                // The options of connect, ingest and annotate are `o` (or `options_value`)
                // wherever the boundary reads them.
                if !matches!(receiver, "o" | "options_value") {
                    continue;
                }
                if let Some(key) = args.split('"').nth(1) {
                    read.insert((key.to_string(), file.file_name().unwrap().to_string_lossy().into_owned()));
                }
            }
        }
    }
    let beyond: Vec<_> = read.iter().filter(|(k, _)| !allowed.contains(k)).collect();
    assert!(read.len() >= 5, "the options the boundary reads: {read:?}");
    assert!(beyond.is_empty(), "src/js reads options the claim does not name ({said}): {beyond:?}");
}

#[test]
fn the_tools_and_the_perl_engine_never_touch_a_session() {
    let graph = graph();
    let below = |m: &Vec<String>| {
        matches!(m.first().map(String::as_str), Some("base" | "tools" | "perl"))
            || m.starts_with(&["search".to_string(), "pattern".to_string()])
    };
    let mut reached = Vec::new();
    for (from, targets) in &graph {
        if matches!(from.first().map(String::as_str), Some("tools" | "perl")) {
            reached.extend(
                targets.iter().filter(|t| !below(t)).map(|t| format!("{} -> {}", from.join("::"), t.join("::"))),
            );
        }
        // The engine is named by a trait only: nothing but the boundary reaches the module.
        if !matches!(from.first().map(String::as_str), Some("perl" | "js")) {
            reached.extend(
                targets
                    .iter()
                    .filter(|t| t.first().is_some_and(|s| s == "perl"))
                    .map(|t| format!("{} -> {}", from.join("::"), t.join("::"))),
            );
        }
    }
    claim("**The tools and grep -P's engine never touch a session**");
    assert!(reached.is_empty(), "{}", reached.join("\n"));
}

#[test]
fn a_search_reads_a_files_lines_once_and_walks_its_scope_once() {
    let said = claim("**A search reads a file's lines once and walks its scope once**");
    let named: BTreeSet<String> = quoted(&said).into_iter().filter(|w| w.ends_with(".rs")).collect();
    let search = root().join("src/search");
    let in_search: Vec<(String, String)> = sources()
        .into_iter()
        .filter(|(f, _)| f.starts_with(&search))
        .map(|(f, code)| (f.file_name().unwrap().to_string_lossy().into_owned(), code))
        .collect();
    let files_with = |needle: &str| -> BTreeSet<String> {
        in_search.iter().filter(|(_, code)| code.contains(needle)).map(|(f, _)| f.clone()).collect()
    };
    // The printers: every sink of the searcher, and nothing else, is named.
    let sinks = files_with(" Sink for ");
    let printers: BTreeSet<String> =
        named.iter().filter(|f| !matches!(f.as_str(), "searcher.rs" | "walk.rs")).cloned().collect();
    assert_eq!(sinks, printers, "the sinks of the searcher: {said}");
    // Lines are split by the searcher's `Lines`, and only where a sink is fed.
    let splitters = files_with("Lines::split(");
    assert!(splitters.is_subset(&sinks), "a file is split into lines outside the printers: {splitters:?}");
    assert!(
        files_with("fn split(").contains("searcher.rs") && files_with("pub(crate) fn search(").contains("searcher.rs")
    );
}

#[test]
fn one_walk_serves_every_command_that_walks() {
    let said = claim("**One walk**");
    let walkers = ["src/search", "src/commands/find", "src/commands/du.rs"].map(|p| root().join(p));
    let walking: Vec<(PathBuf, String)> =
        sources().into_iter().filter(|(f, _)| walkers.iter().any(|w| f.starts_with(w))).collect();
    // Only the walk reads a directory's entries in a tool's order; each of them visits.
    let reads: Vec<&PathBuf> = walking
        .iter()
        .filter(|(_, code)| code.contains("byte_ordered(") || code.contains("js_ordered("))
        .map(|(f, _)| f)
        .collect();
    assert!(reads.is_empty(), "directories read outside commands/walk.rs: {reads:?}");
    for named in ["src/search/walk.rs", "src/commands/find/mod.rs", "src/commands/du.rs"] {
        assert!(said.contains(named.trim_end_matches("mod.rs")), "{named} is not named");
        let code = walking.iter().find(|(f, _)| f.ends_with(named)).map(|(_, c)| c).expect(named);
        assert!(code.contains("visit(") && code.contains("impl Visitor for"), "{named} does not walk with a visitor");
    }
    // Every policy named is one some command walks with.
    for policy in quoted(&said).into_iter().filter(|w| w.starts_with("Policy::")) {
        let users = walking.iter().filter(|(_, code)| code.contains(&policy)).count();
        assert!(users > 0, "{policy} is named but no command walks with it");
    }
    let walk = std::fs::read_to_string(root().join("src/commands/walk.rs")).expect("the walk");
    assert!(said.contains("`src/commands/walk.rs`") && walk.contains("pub(crate) fn visit<"));
}
