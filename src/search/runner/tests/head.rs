//! A search whose output goes to `head`: it reads only the pages whose lines `head` takes,
//! when nothing it has not reached could change what the line shows.

use super::*;

fn answer_taking(fs: &Rc<Filesystem>, words: &[&str], wanted: Option<usize>) -> (Outcome, u64) {
    let fs2 = fs.clone();
    let (name, args) = (words[0].to_string(), words[1..].iter().map(|s| s.to_string()).collect());
    let before = fs.stats().requests.requests;
    let out = block_on(async move { run(&fs2, &name, args, "/", (true, true), wanted).await });
    (out, fs.stats().requests.requests - before)
}

fn head(out: &Outcome, n: usize) -> (String, String, i32) {
    let Outcome::Printed(p) = out else { panic!("not answered here: {out:?}") };
    let lines: String = p.stdout.split_inclusive('\n').take(n).collect();
    (lines, p.stderr.clone(), p.exit_code)
}

#[test]
fn a_search_piped_into_head_reads_only_the_pages_whose_lines_head_takes() {
    let chroma = ingested(2400, 1);
    let native = |o: &mut Options| o.native_commands = true;
    for (words, wanted) in [
        (&["grep", "-rn", "token", "/"][..], 20),
        (&["grep", "-rl", "token", "/api"][..], 5),
        (&["rg", "-n", "token", "/"][..], 20),
        (&["grep", "-rc", "token", "/"][..], 1),
        (&["grep", "-rn", "zzz", "/"][..], 10),
    ] {
        let (full, full_requests) = answer_taking(&connect_with(&chroma, native), words, None);
        let fs = connect_with(&chroma, native);
        let (taken, requests) = answer_taking(&fs, words, Some(wanted));
        assert_eq!(head(&taken, wanted), head(&full, wanted), "{words:?}: what head shows, and the status");
        if head(&full, usize::MAX).0.lines().count() > wanted {
            assert!(requests <= 3, "{words:?}: the coarse query and one window, not {requests} (all: {full_requests})");
            assert!(fs.stats().commands.pop().unwrap().note.unwrap().starts_with("its output goes to `head`"));
        }
    }
}

#[test]
fn a_search_piped_into_head_runs_to_the_end_when_later_files_could_change_what_is_shown() {
    let chroma = ingested(600, 1);
    let native = |o: &mut Options| o.native_commands = true;
    // A missing operand after the pages: grep's complaint about it is on the line's stderr.
    let words = ["grep", "-n", "token", "/api/p0000.md", "/api/p0002.md", "/nope.md"];
    let (full, _) = answer_taking(&connect_with(&chroma, native), &words, None);
    let (taken, _) = answer_taking(&connect_with(&chroma, native), &words, Some(1));
    assert_eq!(taken, full);
    assert_eq!(head(&full, 1).1, "grep: /nope.md: No such file or directory\n");
    // Counts of 0 first: the status is not settled until a page matches (p0007).
    let chroma = ingested(600, 7);
    let words = ["grep", "-rc", "token", "/guides"];
    let (full, _) = answer_taking(&connect_with(&chroma, native), &words, None);
    let (taken, _) = answer_taking(&connect_with(&chroma, native), &words, Some(2));
    assert_eq!(head(&taken, 2), head(&full, 2));
    assert_eq!(head(&full, 2), ("/guides/p0001.md:0\n/guides/p0003.md:0\n".into(), String::new(), 0));
}

#[test]
fn a_common_word_piped_into_head_is_answered_from_the_first_pages_without_a_coarse_query() {
    let chroma = ingested(2400, 1);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (out, requests) = answer_taking(&fs, &["grep", "-rn", "token", "/"], Some(20));
    assert_eq!(head(&out, usize::MAX).0.lines().count(), 20, "no more than the pages head shows");
    assert_eq!(requests, 1, "one bulk load of the first pages");
    let cs = fs.stats().commands.pop().unwrap();
    assert!(cs.note.unwrap().ends_with("Chroma was not asked which pages match"));
    let (again, requests) = answer_taking(&fs, &["grep", "-rn", "token", "/"], Some(10));
    assert_eq!((head(&again, 10), requests), (head(&out, 10), 0), "the same lines again come from memory");
    // A rare word: the first pages do not hold the lines, and the search goes on as usual.
    let chroma = ingested(2400, 600);
    let (full, _) =
        answer_taking(&connect_with(&chroma, |o| o.native_commands = true), &["grep", "-rn", "token", "/"], None);
    let fs = connect_with(&chroma, |o| o.native_commands = true);
    let (taken, _) = answer_taking(&fs, &["grep", "-rn", "token", "/"], Some(20));
    assert_eq!(taken, full);
    assert!(
        fs.stats().commands.pop().unwrap().coarse_matches > 0,
        "the coarse query's answer (the first session's) was used"
    );
}
