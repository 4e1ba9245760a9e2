//! grep `-P` patterns beyond the subset: narrowed by their widened form, answered by the
//! backtracking engine (natively, the crate's own; see `search::pattern::perl`).

use super::*;

fn grep(words: &[&str]) -> (Outcome, CommandStats) {
    let chroma = corpus(true);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    answer(&fs, words)
}

#[test]
fn lookaround_backreferences_and_keep_out_are_answered_after_a_narrowing() {
    let (out, cs) = grep(&["grep", "-rnP", "the (?=token)", "/"]);
    assert_eq!(out, printed("/a.md:2:set the token\n", "", 0));
    assert_eq!((cs.plan, cs.coarse_requests), (PlanKind::Narrow, 1), "narrowed by `the `");
    assert!(cs.native);
    let (out, _) = grep(&["grep", "-rhoP", "set \\K\\w+", "/"]);
    assert_eq!(out, printed("the\n", "", 0));
    let (out, _) = grep(&["grep", "-rlP", "(?<!the )token", "/"]);
    assert_eq!(out, printed("/pats.md\n", "", 0));
    let (out, _) = grep(&["grep", "-cP", "(t)o\\1?ken", "/a.md", "/b.md"]);
    assert_eq!(out, printed("/a.md:1\n/b.md:0\n", "", 0));
}

#[test]
fn a_pattern_pcre_rejects_is_rejected_in_its_words() {
    let (out, _) = grep(&["grep", "-rP", "to(?=ken", "/"]);
    assert_eq!(out, printed("", "grep: missing closing parenthesis\n", 2));
    let (out, _) = grep(&["grep", "-rP", "(?<=a+)b", "/"]);
    assert_eq!(out, printed("", "grep: lookbehind assertion is not fixed length\n", 2));
}
