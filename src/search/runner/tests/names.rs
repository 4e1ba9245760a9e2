//! `-l`, `-L` and `-q` (rg's `--files-with-matches`, `--files-without-match`, `-q`), with
//! `-v`, `-m` and `-c`: the files listed and the exit status, as GNU grep 3.8 and ripgrep
//! 15 give them over the same files (the [`corpus`]'s visible pages, written to a folder).

use super::*;

/// What a command answered here prints, its lines sorted (the tools' walks order a
/// folder's files each in their own way), and its status.
fn listed(fs: &Rc<Filesystem>, words: &[&str]) -> (Vec<String>, String, i32) {
    let (out, cs) = answer(fs, words);
    assert!(cs.native, "{words:?} is answered here");
    let Outcome::Printed(p) = out else { panic!("{words:?} not answered here: {out:?}") };
    let mut lines: Vec<String> = p.stdout.lines().map(String::from).collect();
    lines.sort();
    (lines, p.stderr, p.exit_code)
}

fn files(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| format!("/{n}.md")).collect()
}

#[test]
fn grep_lists_files_with_and_without_a_selected_line() {
    let chroma = corpus(false);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let ok = |names: &[&str]| (files(names), String::new(), 0);
    assert_eq!(listed(&fs, &["grep", "-rl", "token", "/"]), ok(&["a", "c", "pats"]));
    assert_eq!(listed(&fs, &["grep", "-rL", "token", "/"]), ok(&["b", "d"]));
    assert_eq!(listed(&fs, &["grep", "-rlv", "token", "/"]), ok(&["a", "b", "d"]), "-v: a line without it");
    assert_eq!(listed(&fs, &["grep", "-rLv", "token", "/"]), ok(&["c", "pats"]), "-v: every line holds it");
    assert_eq!(listed(&fs, &["grep", "-rcl", "token", "/"]), ok(&["a", "c", "pats"]), "-l wins over -c");
    assert_eq!(listed(&fs, &["grep", "-rcL", "token", "/"]), ok(&["b", "d"]));
    assert_eq!(listed(&fs, &["grep", "-rl", "-m0", "token", "/"]), (vec![], String::new(), 1));
    assert_eq!(
        listed(&fs, &["grep", "-rL", "-m0", "token", "/"]),
        (files(&["a", "b", "c", "d", "pats"]), String::new(), 1),
        "-m 0: every file is without a selected line, and the status says no line was"
    );
}

#[test]
fn grep_q_exits_with_whether_a_line_is_selected() {
    let chroma = corpus(false);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let status = |words: &[&str]| {
        let (lines, stderr, code) = listed(&fs, words);
        assert!(lines.is_empty() && stderr.is_empty(), "{words:?} prints nothing");
        code
    };
    assert_eq!(status(&["grep", "-rq", "token", "/"]), 0);
    assert_eq!(status(&["grep", "-rq", "zzz", "/"]), 1);
    assert_eq!(status(&["grep", "-qv", "token", "/pats.md"]), 1, "its only line holds the word");
    assert_eq!(status(&["grep", "-qv", "token", "/a.md"]), 0);
    assert_eq!(status(&["grep", "-q", "-m0", "token", "/a.md"]), 1);
    assert_eq!(status(&["grep", "-rcq", "token", "/"]), 0);
    assert_eq!(status(&["grep", "-rLq", "token", "/"]), 0, "-q: the status is grep's, not -L's");
    assert_eq!(status(&["grep", "-rLq", "zzz", "/"]), 1);
}

#[test]
fn rg_lists_files_with_and_without_a_match() {
    let chroma = corpus(false);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let ok = |names: &[&str]| (files(names), String::new(), 0);
    assert_eq!(listed(&fs, &["rg", "-l", "token", "/"]), ok(&["a", "c", "pats"]));
    assert_eq!(listed(&fs, &["rg", "-lv", "token", "/"]), ok(&["a", "b", "d"]));
    assert_eq!(listed(&fs, &["rg", "-l", "-m1", "-v", "token", "/"]), ok(&["a", "b", "d"]));
    assert_eq!(listed(&fs, &["rg", "--files-without-match", "token", "/"]), ok(&["b", "d"]));
    assert_eq!(listed(&fs, &["rg", "--files-without-match", "-v", "token", "/"]), ok(&["c", "pats"]));
    assert_eq!(listed(&fs, &["rg", "-c", "-l", "token", "/"]), ok(&["a", "c", "pats"]));
    assert_eq!(listed(&fs, &["rg", "-q", "zzz", "/"]), (vec![], String::new(), 1));
    assert_eq!(listed(&fs, &["rg", "-qv", "token", "/pats.md"]), (vec![], String::new(), 1));
    assert_eq!(listed(&fs, &["rg", "-q", "--files-without-match", "zzz", "/"]), (vec![], String::new(), 0));
    for words in [
        &["rg", "-l", "-m0", "token", "/"][..],
        &["rg", "--files-without-match", "-m0", "token", "/"],
        &["rg", "-c", "-m0", "token", "/"],
        &["rg", "-m0", "token", "/", "/nope.md"],
    ] {
        assert_eq!(listed(&fs, words), (vec![], String::new(), 1), "{words:?}: rg searches nothing under -m 0");
    }
}
