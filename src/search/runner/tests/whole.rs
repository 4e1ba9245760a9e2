//! A directory that is a small part of the collection, read whole and searched here
//! instead of asked about (see `runner::whole`).

use super::*;

/// `n` pages written by chromafs's ingest, spread over sixteen directories; every
/// `every`th holds "a token here".
fn sixteen_dirs(n: usize, every: usize) -> FakeChroma {
    ingested_in(n, every, |i| format!("d{:02}", i % 16))
}

/// What `grep -rn token /dDD` prints over [`sixteen_dirs`], worked out from the pages.
fn expected(n: usize, every: usize, dir: usize) -> String {
    (0..n)
        .filter(|i| i % 16 == dir && i % every == 0)
        .map(|i| format!("/d{dir:02}/p{i:04}.md:2:a token here\n"))
        .collect()
}

#[test]
fn a_small_directory_is_read_whole_and_searched_without_a_text_filter() {
    let chroma = sixteen_dirs(320, 3);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    chroma.clear_log();
    let (out, cs) = answer(&fs, &["grep", "-rn", "token", "/d03"]);
    assert_eq!(out, printed(&expected(320, 3, 3), "", 0));
    assert_eq!((cs.plan, cs.scope, cs.coarse_requests), (PlanKind::Prefetch, 20, 0));
    let gets = chroma.gets();
    assert_eq!(gets.len() as u64, cs.prefetch_requests);
    assert!(
        gets.iter().all(|g| g.get("where_document").is_none() && g["ids"].is_array()),
        "read by id, no text filter: {gets:?}"
    );
    // The directory is in memory now: the next search of it asks nothing.
    chroma.clear_log();
    let (out, cs) = answer(&fs, &["grep", "-rl", "page 35$", "/d03"]);
    assert_eq!(out, printed("/d03/p0035.md\n", "", 0));
    assert!(chroma.requests().is_empty() && cs.plan == PlanKind::Memory);
}

#[test]
fn the_whole_collection_or_a_large_part_of_it_is_asked_about_first() {
    let chroma = sixteen_dirs(320, 3);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (_, cs) = answer(&fs, &["grep", "-rn", "token", "/"]);
    assert_eq!((cs.plan, cs.coarse_requests), (PlanKind::Narrow, 1));
    // A directory of a quarter of the pages is not small beside the collection.
    let chroma = sixteen_dirs(64, 3);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (out, cs) = answer(&fs, &["grep", "-rn", "token", "/d05", "/d06", "/d07", "/d08"]);
    assert_eq!(out, printed(&(5..9).map(|d| expected(64, 3, d)).collect::<String>(), "", 0));
    assert_eq!((cs.plan, cs.coarse_requests), (PlanKind::Narrow, 1));
}

#[test]
fn a_directory_too_large_for_its_share_of_the_cache_is_asked_about_first() {
    let chroma = sixteen_dirs(320, 3);
    // Twenty pages of about 20 bytes: more than a quarter of a 1,000-byte cache.
    let fs = connect_with(&chroma, |o| {
        o.native_commands = true;
        o.cache_bytes = 1_000;
    });
    let (out, cs) = answer(&fs, &["grep", "-rn", "token", "/d03"]);
    assert_eq!(out, printed(&expected(320, 3, 3), "", 0));
    assert_eq!((cs.plan, cs.coarse_requests), (PlanKind::Narrow, 1));
}

#[test]
fn a_command_held_to_a_few_requests_keeps_them_for_the_coarse_query() {
    let chroma = sixteen_dirs(320, 3);
    // One read by id and a freshness check: more than half of three, half of four. (In
    // this order: the pages the first session loads are in the process tier after it.)
    for (most, plan) in [(3, PlanKind::Narrow), (4, PlanKind::Prefetch)] {
        let fs = connect_with(&chroma, |o| {
            o.native_commands = true;
            o.limits.max_requests = Some(most);
        });
        let (out, report) = attempt(&fs, &["grep", "-rn", "token", "/d03"]);
        assert_eq!(out, printed(&expected(320, 3, 3), "", 0), "{report:?}");
        assert_eq!(fs.stats().commands.pop().unwrap().plan, plan, "a budget of {most}");
    }
}
