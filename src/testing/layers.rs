//! The layers of the crate, kept by a test rather than by prose.
//!
//! ARCHITECTURE.md draws the crate as a stack of folders, highest first (the lines of its
//! first diagram that start with `src/`). Two rules follow, checked here on the source
//! itself: a module imports nothing from a folder above its own, and no two modules import
//! each other, directly or round a longer loop (a module and the modules inside it are one
//! thing and do not count). Test code is left out: a test may build its fixtures from any
//! layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub(super) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folders of the crate, highest first, as ARCHITECTURE.md's first diagram stacks them.
fn layer_order() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let diagram = text.split("```").nth(1).expect("a diagram in ARCHITECTURE.md");
    diagram
        .lines()
        .filter_map(|l| l.strip_prefix("src/"))
        .map(|l| l.split(|c: char| c == '/' || c == '.' || c.is_whitespace()).next().unwrap_or("").to_string())
        .collect()
}

/// A module's path from its file: `src/pages/store/mod.rs` is `pages::store`.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root().join("src")).expect("under src");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// Every source file that is not a test: `tests.rs` files, the `tests/` folders beside them
/// and the test harness left out.
pub(super) fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "testing" && n != "tests") {
                source_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its test module.
pub(super) fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("readable");
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The paths `text` names from `crate::`, `super::` or `self::`, each as segments: a `use`
/// with braces is expanded one path per item.
fn paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let starts = ["crate::", "super::", "self::"].iter().find(|p| bytes[i..].starts_with(p.as_bytes()));
        if starts.is_none() || (i > 0 && (ident(bytes[i - 1]) || bytes[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let (segments, end) = read_path(text, i);
        i = end;
        if text[end..].starts_with("::{") {
            let close = matching_brace(text, end + 2);
            for item in split_top(&text[end + 3..close]) {
                let (inner, _) = read_path(item.trim(), 0);
                out.push(segments.iter().cloned().chain(inner).collect());
            }
            i = close;
        } else {
            out.push(segments);
        }
    }
    out
}

/// The `::`-separated identifiers of the path starting at `at`, and where it ends.
fn read_path(text: &str, at: usize) -> (Vec<String>, usize) {
    let bytes = text.as_bytes();
    let (mut segments, mut i) = (Vec::new(), at);
    loop {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if i == start {
            break;
        }
        segments.push(text[start..i].to_string());
        if text[i..].starts_with("::") && bytes.get(i + 2).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            i += 2;
        } else {
            break;
        }
    }
    (segments, i)
}

fn matching_brace(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// Items of a brace group, split at its top-level commas.
fn split_top(group: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&group[start..]);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// The crate's modules and, for each, the modules its code names.
pub(super) fn graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    source_files(&root().join("src"), &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let resolve = |from: &[String], path: &[String]| -> Option<Vec<String>> {
        let mut full: Vec<String> = match path.first()?.as_str() {
            "crate" => Vec::new(),
            "self" => from.to_vec(),
            "super" => from[..from.len().checked_sub(1)?].to_vec(),
            _ => return None,
        };
        let mut rest = &path[1..];
        while rest.first().is_some_and(|s| s == "super") {
            full.pop();
            rest = &rest[1..];
        }
        full.extend(rest.iter().cloned());
        // The longest prefix that is a module.
        (0..=full.len()).rev().map(|n| full[..n].to_vec()).find(|m| modules.contains(m))
    };
    let mut graph = BTreeMap::new();
    for file in &files {
        let from = module_of(file);
        let targets: BTreeSet<Vec<String>> = paths(&code(file)).iter().filter_map(|p| resolve(&from, p)).collect();
        graph.insert(from, targets);
    }
    graph
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let order = layer_order();
    assert!(order.len() >= 8, "ARCHITECTURE.md's diagram lists the folders: {order:?}");
    let rank = |m: &[String]| m.first().and_then(|top| order.iter().position(|l| l == top));
    let mut upward = Vec::new();
    for (from, targets) in graph() {
        let Some(own) = rank(&from) else { continue };
        for to in targets {
            if rank(&to).is_some_and(|r| r < own) {
                upward.push(format!("{} -> {}", from.join("::"), to.join("::")));
            }
        }
    }
    let missing: Vec<String> =
        graph().keys().filter(|m| !m.is_empty() && rank(m).is_none()).map(|m| m.join("::")).collect();
    assert!(missing.is_empty(), "folders ARCHITECTURE.md's diagram does not place: {missing:?}");
    assert!(upward.is_empty(), "imports of a layer above (order: {order:?}):\n{}", upward.join("\n"));
}

#[test]
fn no_two_modules_import_each_other() {
    let graph = graph();
    let related = |a: &[String], b: &[String]| a.starts_with(b) || b.starts_with(a);
    // Whether `to` can reach `from` again, through modules not inside either.
    let reaches = |start: &Vec<String>, goal: &Vec<String>| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start.clone()];
        while let Some(m) = stack.pop() {
            if &m == goal {
                return true;
            }
            if !seen.insert(m.clone()) {
                continue;
            }
            for next in graph.get(&m).into_iter().flatten() {
                if !related(&m, next) {
                    stack.push(next.clone());
                }
            }
        }
        false
    };
    let mut loops = Vec::new();
    for (from, targets) in &graph {
        for to in targets.iter().filter(|to| !related(from, to)) {
            if reaches(to, from) {
                loops.push(format!("{} <-> {}", from.join("::"), to.join("::")));
            }
        }
    }
    assert!(loops.is_empty(), "modules that import each other:\n{}", loops.join("\n"));
}

#[test]
fn paths_are_read_as_rust_writes_them() {
    let text = "use crate::pages::{collection::Collection, store::{PageRef, Source}};\nlet x = super::lru::get();";
    let found: Vec<String> = paths(text).iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["crate::pages::collection::Collection", "crate::pages::store", "super::lru::get"]);
    assert_eq!(module_of(&root().join("src/pages/store/mod.rs")), ["pages", "store"]);
}
