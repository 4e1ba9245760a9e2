use crate::tools::testing::same_as_gnu;
use crate::tools::{run, Answers, Outcome, Stat};

#[test]
fn basics() {
    same_as_gnu(&["diff a.txt b.txt", "diff -u --label a --label b a.txt b.txt"], "");
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
