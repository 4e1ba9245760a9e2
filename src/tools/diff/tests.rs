use crate::tools::testing::same_as_gnu;
use crate::tools::{run, Answers, Outcome, Stat};

#[test]
fn formats_as_gnu() {
    same_as_gnu(
        &[
            "diff a.txt b.txt",
            "diff b.txt a.txt",
            "diff a.txt a.txt",
            "diff a.txt ./a.txt",
            "diff -s a.txt a.txt",
            "diff --report-identical-files a.txt b.txt",
            "diff -q a.txt b.txt",
            "diff --brief a.txt a.txt",
            "diff -qs a.txt a.txt",
            "diff --normal a.txt b.txt",
            "diff -u --label a --label b a.txt b.txt",
            "diff -U 1 --label a --label b a.txt b.txt",
            "diff -U0 --label a --label b a.txt b.txt",
            "diff --unified=5 --label a --label b a.txt b.txt",
            "diff -u -L old -L new page.md a.txt",
            "diff -c --label a --label b a.txt b.txt",
            "diff -C 1 --label a --label b a.txt b.txt",
            "diff -C0 --label a --label b a.txt b.txt",
            "diff --context=2 --label a --label b a.txt b.txt",
            "diff -1 -u --label a --label b a.txt b.txt",
            "diff -u -12 --label a --label b page.md b.txt",
            "diff -2 a.txt b.txt",
            "diff -e a.txt b.txt",
            "diff --ed b.txt a.txt",
            "diff -f a.txt b.txt",
            "diff -n a.txt b.txt",
            "diff --rcs page.md a.txt",
            "diff -y a.txt b.txt",
            "diff -y -W 40 a.txt b.txt",
            "diff --side-by-side --width=60 page.md b.txt",
            "diff -y --suppress-common-lines a.txt b.txt",
            "diff -y --left-column a.txt b.txt",
            "diff -y -t -W 50 diffs/tabs.txt diffs/tabs2.txt",
            "diff -y -W 30 utf8.txt a.txt",
            "diff -y nonl.txt a.txt",
            "diff nonl.txt a.txt",
            "diff a.txt nonl.txt",
            "diff -u --label x --label y nonl.txt a.txt",
            "diff -c --label x --label y a.txt nonl.txt",
            "diff empty.txt a.txt",
            "diff a.txt empty.txt",
            "diff -u --label x --label y empty.txt a.txt",
            "diff -u --label x --label y a.txt empty.txt",
            "diff -c --label x --label y empty.txt a.txt",
            "diff empty.txt empty.txt",
            "diff page.md utf8.txt",
            "diff -u --label a --label b dup.txt a.txt",
            "diff words.txt csv.txt",
            "diff -T a.txt b.txt",
            "diff -T -u --label a --label b a.txt b.txt",
            "diff -t diffs/tabs.txt diffs/tabs2.txt",
            "diff --tabsize=4 -t diffs/tabs.txt diffs/tabs2.txt",
            "diff --suppress-blank-empty -u --label a --label b page.md a.txt",
            "diff -e nonl.txt a.txt",
            "diff -f a.txt nonl.txt",
            "diff -p -u --label a --label b diffs/c1.c diffs/c2.c",
            "diff -p diffs/c1.c diffs/c2.c --label a --label b",
            "diff -F '^static' -U1 --label a --label b diffs/c1.c diffs/c2.c",
            "diff --show-function-line=int -u --label a --label b diffs/c1.c diffs/c2.c",
            "diff -U1 --label a --label b diffs/c1.c diffs/c2.c",
            "diff -C 1 -p --label a --label b diffs/c1.c diffs/c2.c",
            "diff --horizon-lines=5 a.txt b.txt",
            "diff -d page.md b.txt",
            "diff --minimal -u --label a --label b page.md b.txt",
            "diff -H a.txt b.txt",
            "diff --speed-large-files a.txt b.txt",
            "diff --color=never a.txt b.txt",
            "diff --color=auto a.txt b.txt",
            "diff --color a.txt b.txt",
            "diff --label only a.txt b.txt",
            "diff --label a --label b a.txt b.txt",
            "diff -q --label a --label b a.txt b.txt",
        ],
        "",
    );
}

#[test]
fn side_by_side_counts_columns_as_glibc() {
    // Emoji and symbols glibc's wcwidth counts wide, a combining mark none: a half line is
    // cut where the real tool cuts it.
    let wide =
        "🚀🚀🚀🚀🚀🚀🚀🚀🚀\n✅ done ✅ done ✅ done\n⌚🀄 e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}\n";
    same_as_gnu(&["diff -y -W 24 - a.txt", "diff -y -W 31 a.txt -", "diff -y -t -W 20 - b.txt"], wide);
}

#[test]
fn comparing_as_gnu() {
    same_as_gnu(
        &[
            "diff -i a.txt diffs/spaces.txt",
            "diff -b a.txt diffs/spaces.txt",
            "diff -w a.txt diffs/spaces.txt",
            "diff -Z a.txt diffs/spaces.txt",
            "diff -B a.txt diffs/spaces.txt",
            "diff -wB a.txt diffs/spaces.txt",
            "diff -bB -u --label a --label b a.txt diffs/spaces.txt",
            "diff -ZB a.txt diffs/spaces.txt",
            "diff --ignore-all-space --ignore-blank-lines a.txt diffs/spaces.txt",
            "diff -E diffs/tabs.txt diffs/tabs2.txt",
            "diff -E -Z diffs/tabs.txt diffs/tabs2.txt",
            "diff -b diffs/tabs.txt diffs/tabs2.txt",
            "diff -w diffs/tabs.txt diffs/tabs2.txt",
            "diff --ignore-tab-expansion --ignore-trailing-space diffs/tabs.txt diffs/tabs2.txt",
            "diff a.txt diffs/crlf.txt",
            "diff --strip-trailing-cr a.txt diffs/crlf.txt",
            "diff --strip-trailing-cr -q a.txt diffs/crlf.txt",
            "diff -i dup.txt a.txt",
            "diff --ignore-case -u --label a --label b dup.txt a.txt",
            "diff -I apple a.txt b.txt",
            "diff -I 'b.*' a.txt b.txt",
            "diff -I apple -I date a.txt b.txt",
            "diff --ignore-matching-lines='^[a-c]' a.txt b.txt",
            "diff -I banana -I blueberry -u --label a --label b a.txt b.txt",
            "diff -B page.md a.txt",
            "diff -q -B a.txt diffs/spaces.txt",
            "diff diffs/bin1 diffs/bin2",
            "diff diffs/bin1 diffs/bin1",
            "diff -q diffs/bin1 diffs/bin2",
            "diff -s diffs/bin1 diffs/bin2",
            "diff diffs/bin1 a.txt",
            "diff -a diffs/bin1 diffs/bin2",
            "diff --text -u --label a --label b diffs/bin1 diffs/bin2",
            "diff - a.txt",
            "diff a.txt -",
            "diff -u --label in --label a - a.txt",
            "diff - -",
            "diff -q - b.txt",
        ],
        "apple\nbanana\nkiwi\ndate\n",
    );
}

#[test]
fn files_and_directories_as_gnu() {
    same_as_gnu(
        &[
            "diff diffs/a diffs/b",
            "diff -r diffs/a diffs/b",
            "diff -ru -L x -L y diffs/a diffs/b",
            "diff -r -I 'a{2}' -I 'x]' -I '{' -I \"it's\" diffs/a diffs/b",
            "diff -r -u --label=x --label=y diffs/a diffs/b",
            "diff --recursive --brief diffs/a diffs/b",
            "diff -rq diffs/a diffs/b",
            "diff -rs diffs/a diffs/b",
            "diff -rN diffs/a diffs/b",
            "diff -rNq diffs/a diffs/b",
            "diff -r --unidirectional-new-file diffs/a diffs/b",
            "diff -r --unidirectional-new-file diffs/b diffs/a",
            "diff -r diffs/b diffs/a",
            "diff -r diffs/a/ diffs/b/",
            "diff -r -x 'only*' diffs/a diffs/b",
            "diff -r --exclude=sub diffs/a diffs/b",
            "diff -r -S only diffs/a diffs/b",
            "diff -r --starting-file=sub diffs/a diffs/b",
            "diff -r -e diffs/a diffs/b",
            "diff -r -c diffs/a diffs/b --label x --label y",
            "diff -r diffs/a diffs/a",
            "diff -r -- diffs/a diffs/b",
            "diff -r -U 1 --label 'a b' --label 'it'\\''s' diffs/a diffs/b",
            "diff -r -I one diffs/a diffs/b",
            "diff diffs/a/changed.txt diffs/b",
            "diff diffs/b diffs/a/changed.txt",
            "diff a.txt dir",
            "diff dir a.txt",
            "diff dir dir",
            "diff dir diffs",
            "diff -N a.txt nosuch",
            "diff -N nosuch a.txt",
            "diff -u -N --label a --label b nosuch a.txt",
            "diff --new-file a.txt nosuch",
            "diff -P nosuch a.txt",
            "diff -P a.txt nosuch",
            "diff nosuch a.txt",
            "diff a.txt nosuch",
            "diff nosuch other",
            "diff -q nosuch a.txt",
            "diff - dir",
            "diff dir -",
            "diff --from-file=a.txt b.txt a.txt",
            "diff --to-file=a.txt b.txt dup.txt",
            "diff --from-file a.txt b.txt nosuch",
            "diff --from-file=diffs/a diffs/b",
        ],
        "",
    );
}

#[test]
fn command_lines_as_gnu() {
    same_as_gnu(
        &[
            "diff",
            "diff a.txt",
            "diff a.txt b.txt page.md",
            "diff -k a.txt b.txt",
            "diff --foo a.txt b.txt",
            "diff --no a.txt b.txt",
            "diff --c a.txt b.txt",
            "diff --s a.txt b.txt",
            "diff --un a.txt b.txt",
            "diff --bri a.txt b.txt",
            "diff --brief=yes a.txt b.txt",
            "diff -U",
            "diff -x",
            "diff --label",
            "diff -C x a.txt b.txt",
            "diff -U -1 a.txt b.txt",
            "diff --unified=x a.txt b.txt",
            "diff -W 0 -y a.txt b.txt",
            "diff -W x a.txt b.txt",
            "diff --tabsize=0 a.txt b.txt",
            "diff --tabsize=x a.txt b.txt",
            "diff --horizon-lines=x a.txt b.txt",
            "diff -W 40 -W 50 a.txt b.txt",
            "diff -u -c a.txt b.txt",
            "diff -e -u a.txt b.txt",
            "diff -y -n a.txt b.txt",
            "diff -u -U 2 --label a --label b a.txt b.txt",
            "diff -U 2 -u --label a --label b a.txt b.txt",
            "diff -C 2 -c --label a --label b a.txt b.txt",
            "diff --color=sometimes a.txt b.txt",
            "diff -L a -L b -L c a.txt b.txt",
            "diff --from-file=a.txt --to-file=b.txt",
            "diff --version",
            "diff -v",
            "diff --help",
            "diff --ver",
            "diff -- a.txt b.txt",
            "diff a.txt -- b.txt",
        ],
        "",
    );
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Our diff over two in-memory files `x` and `y`.
fn ours(args: &[&str], x: &[u8], y: &[u8]) -> (Vec<u8>, String, i32) {
    let mut answers = Answers::default();
    for (name, data) in [("x", x), ("y", y)] {
        answers.reads.insert(name.into(), Ok(data.to_vec()));
        let stat = Stat { absolute: format!("/t/{name}"), dir: false, size: data.len() as u64 };
        answers.stats.insert(name.into(), Ok(stat));
    }
    let words: Vec<String> = args.iter().map(|s| s.to_string()).chain(["x".into(), "y".into()]).collect();
    match run("diff", &words, b"", &answers) {
        Some(Outcome::Done(d)) => (d.stdout, d.stderr, d.status),
        _ => panic!("diff asked for more"),
    }
}

/// GNU diff over the same two files.
fn gnu(args: &[&str], x: &[u8], y: &[u8], dir: &std::path::Path) -> (Vec<u8>, String, i32) {
    std::fs::write(dir.join("x"), x).unwrap();
    std::fs::write(dir.join("y"), y).unwrap();
    let out = std::process::Command::new("diff")
        .args(args)
        .args(["x", "y"])
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .output()
        .unwrap();
    (out.stdout, String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

fn random_text(r: &mut Rng, alphabet: &[&str]) -> Vec<u8> {
    let n = r.below(16);
    let mut t = Vec::new();
    for _ in 0..n {
        t.extend_from_slice(alphabet[r.below(alphabet.len())].as_bytes());
        t.push(b'\n');
    }
    if !t.is_empty() && r.below(5) == 0 {
        t.pop();
    }
    t
}

#[test]
fn random_pairs_as_gnu() {
    let dir = std::env::temp_dir().join(format!("chromafs-diff-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let option_sets: &[&[&str]] = &[
        &[],
        &["-u", "--label", "a", "--label", "b"],
        &["-c", "--label", "a", "--label", "b"],
        &["-U1", "--label", "a", "--label", "b"],
        &["-C0", "--label", "a", "--label", "b"],
        &["-U0", "--label", "a", "--label", "b"],
        &["-e"],
        &["-n"],
        &["-f"],
        &["-y", "-W", "40"],
        &["-y", "--suppress-common-lines"],
        &["-b"],
        &["-w", "-u", "--label", "a", "--label", "b"],
        &["-B"],
        &["-B", "-u", "--label", "a", "--label", "b"],
        &["-i"],
        &["-Z"],
        &["-q"],
        &["-d"],
    ];
    let alphabets: &[&[&str]] =
        &[&["a", "b", "c"], &["a", "b", "c", "d", "e", "f", "g"], &["a", "A", "", " a", "a ", "\ta", "b"]];
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut failures = Vec::new();
    for case in 0..300 {
        let alphabet = alphabets[case % alphabets.len()];
        let x = random_text(&mut r, alphabet);
        let y = if r.below(4) == 0 {
            // A small edit of x, the common case.
            let mut lines: Vec<&[u8]> = x.split_inclusive(|&b| b == b'\n').collect();
            if !lines.is_empty() {
                let k = r.below(lines.len());
                lines.remove(k);
            }
            lines.concat()
        } else {
            random_text(&mut r, alphabet)
        };
        for args in option_sets {
            let (want, got) = (gnu(args, &x, &y, &dir), ours(args, &x, &y));
            if want != got {
                failures.push(format!(
                    "diff {:?} over {:?} and {:?}\n  GNU:  {:?}\n  ours: {:?}",
                    args,
                    String::from_utf8_lossy(&x),
                    String::from_utf8_lossy(&y),
                    (String::from_utf8_lossy(&want.0), &want.1, want.2),
                    (String::from_utf8_lossy(&got.0), &got.1, got.2)
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Longer files with many repeated lines, where GNU discards lines that match too often
/// and keeps horizons of the common prefix and suffix.
#[test]
fn random_long_files_as_gnu() {
    let dir = std::env::temp_dir().join(format!("chromafs-diff-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let option_sets: &[&[&str]] = &[&[], &["-U2", "--label", "a", "--label", "b"], &["-b", "-e"], &["-d"]];
    let mut r = Rng(0x1234_5678_9abc_def1);
    let mut failures = Vec::new();
    for case in 0..60 {
        let n = 50 + r.below(400);
        let kinds = 3 + r.below(40);
        let mut x = Vec::new();
        for _ in 0..n {
            // Skewed: a few lines recur very often.
            let k = if r.below(3) == 0 { r.below(3) } else { r.below(kinds) };
            x.extend_from_slice(format!("line {k}\n").as_bytes());
        }
        let mut lines: Vec<Vec<u8>> = x.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        for _ in 0..1 + r.below(20) {
            let at = r.below(lines.len() + 1);
            match r.below(3) {
                0 if at < lines.len() => {
                    lines.remove(at);
                }
                1 => lines.insert(at, format!("new {}\n", r.below(kinds + 5)).into_bytes()),
                _ if at < lines.len() => lines[at] = format!("line {}\n", r.below(kinds)).into_bytes(),
                _ => {}
            }
        }
        if case % 7 == 0 {
            lines.reverse();
        }
        let y = lines.concat();
        for args in option_sets {
            let (want, got) = (gnu(args, &x, &y, &dir), ours(args, &x, &y));
            if want != got {
                failures.push(format!(
                    "case {case} diff {args:?}\n  GNU:  {:?}\n  ours: {:?}",
                    String::from_utf8_lossy(&want.0),
                    String::from_utf8_lossy(&got.0)
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.iter().take(3).cloned().collect::<Vec<_>>().join("\n")
    );
}
