//! xargs plans command lines for its host to run: these tests run GNU xargs with each
//! command name standing for a script that prints its argv, and compare that with the
//! planned command lines printed the same way.

use super::testing::{gnu, words, Ran, FILES};
use super::{run, Answers, Failed, Outcome};

/// Command names the tests use, each a script printing `<name><arg>...` and a newline.
const SHIMS: &[&str] = &["echo", "printf", "cmd", "grep", "wc"];

/// A directory of the scripts (made once).
fn shims() -> String {
    let dir = std::env::temp_dir().join(format!("chromafs-xargs-shims-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in SHIMS {
        let path = dir.join(name);
        if !path.exists() {
            std::fs::write(&path, "#!/bin/sh\nprintf '<%s>' \"${0##*/}\" \"$@\"\necho\n").unwrap();
            let mut perms = std::fs::metadata(&path).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
            std::fs::set_permissions(&path, perms).unwrap();
        }
    }
    dir.display().to_string()
}

/// `line` through our xargs, its planned command lines printed as the scripts print them.
fn ours(line: &str, stdin: &str) -> Ran {
    let words = words(line);
    let mut answers = Answers::default();
    let done = loop {
        match run(&words[0], &words[1..], stdin.as_bytes(), &answers).unwrap() {
            Outcome::Done(done) => break done,
            Outcome::Need(asks) => {
                for (_, path) in asks {
                    let got = match FILES.iter().find(|(n, _)| *n == path) {
                        Some((_, text)) => Ok(text.as_bytes().to_vec()),
                        None if path == "dir" => Err(Failed::new("EISDIR", "Is a directory")),
                        None => Err(Failed::new("ENOENT", "No such file or directory")),
                    };
                    answers.reads.insert(path, got);
                }
            }
        }
    };
    let mut stdout = String::from_utf8_lossy(&done.stdout).into_owned();
    for argv in &done.runs {
        for a in argv {
            stdout.push_str(&format!("<{a}>"));
        }
        stdout.push('\n');
    }
    Ran { stdout, stderr: done.stderr, status: done.status }
}

/// Each of `lines` plans the command lines GNU xargs runs, with its messages and status.
fn same_runs_as_gnu(lines: &[&str], stdin: &str) {
    let path = shims();
    let mut differ = Vec::new();
    for line in lines {
        let want = gnu(&format!("PATH={path}:$PATH {line}"), stdin);
        let got = ours(line, stdin);
        if want != got {
            differ.push(format!("{line}\n  GNU:  {want:?}\n  ours: {got:?}"));
        }
    }
    assert!(differ.is_empty(), "{} of {} lines differ from GNU:\n{}", differ.len(), lines.len(), differ.join("\n"));
}

#[test]
fn xargs_words_as_gnu() {
    same_runs_as_gnu(
        &[
            "xargs",
            "xargs echo",
            "xargs -n1",
            "xargs -n 1 echo",
            "xargs -n2 printf '[%s]\\n'",
            "xargs -n 3 cmd -v",
            "xargs --max-args=2 cmd",
            "xargs --max-a 2 cmd",
            "xargs -L1",
            "xargs -L 2 cmd",
            "xargs -l cmd",
            "xargs -l2 cmd",
            "xargs --max-lines=1 cmd",
            "xargs -I{} cmd x{}y",
            "xargs -I {} cmd {} {}",
            "xargs -I % cmd -f % --",
            "xargs -i cmd {}",
            "xargs -iX cmd aXb",
            "xargs --replace cmd {}",
            "xargs --replace=@ cmd @",
            "xargs -I{} cmd",
            "xargs -I{} -n1 cmd {}",
            "xargs -I{} -n2 cmd {}",
            "xargs -n2 -I{} cmd {}",
            "xargs -n2 -L1 cmd",
            "xargs -L1 -n2 cmd",
            "xargs -L1 -I{} cmd {}",
            "xargs -t cmd",
            "xargs -t -n2 cmd 'a b'",
            "xargs --verbose -I{} cmd '{}'",
            "xargs -r cmd",
            "xargs --no-run-if-empty cmd",
            "xargs -E stop cmd",
            "xargs -e echo x",
            "xargs -eb cmd",
            "xargs -E b cmd",
            "xargs --eof=b cmd",
            "xargs -s 20 cmd",
            "xargs -s 30 -t cmd x",
            "xargs -s 5 cmd",
            "xargs -s 12 -x cmd",
            "xargs -x -n2 -s 14 cmd",
            "xargs -P 1 -n1 cmd",
            "xargs -P0 cmd",
            "xargs --max-procs=2 cmd",
            "xargs --process-slot-var=SLOT cmd",
            "xargs --process-slot-var=A=B cmd",
            "xargs cmd -n1",
            "xargs -- cmd -n",
            "xargs grep -l needle",
            "xargs -n 0 cmd",
            "xargs -n x cmd",
            "xargs -n -1 cmd",
            "xargs -L 0 cmd",
            "xargs -P -1 cmd",
            "xargs -s x cmd",
            "xargs -s 0 cmd",
            "xargs -n ' 2' cmd",
            "xargs -n",
            "xargs -E",
            "xargs -y",
            "xargs --foo",
            "xargs --max",
            "xargs --help",
            "xargs --version",
        ],
        "alpha beta\n  gamma\tdelta \n\n'quoted word' \"double q\" back\\ slash\nlast\n",
    );
}

#[test]
fn xargs_input_as_gnu() {
    let cases: &[(&str, &str)] = &[
        ("xargs cmd", ""),
        ("xargs -r cmd", ""),
        ("xargs -I{} cmd {}", ""),
        ("xargs cmd", "   \n\n  \n"),
        ("xargs cmd", "a b"),
        ("xargs cmd", "'' \"\" x\n"),
        ("xargs cmd", "''"),
        ("xargs cmd", "a ''"),
        ("xargs cmd", "a 'b\n"),
        ("xargs cmd", "a \"b c"),
        ("xargs cmd", "a 'b"),
        ("xargs cmd", "'"),
        ("xargs -n1 cmd", "a b 'c\nd'"),
        ("xargs cmd", "a\\\nb c\\"),
        ("xargs cmd", "it\\'s \"it's\" 'say \"hi\"'\n"),
        ("xargs -L1 cmd", "a b \nc\nd e\n\nf"),
        ("xargs -L2 cmd", "a\nb\nc\nd\ne\n"),
        ("xargs -I{} cmd [{}]", "  lead\ntrail  \n a b \n"),
        ("xargs -I{} cmd {}", "'q x' \"y\"\n"),
        ("xargs -0 cmd", "a b\0c\nd\0\0e"),
        ("xargs -0 -n1 cmd", "a\0b\0"),
        ("xargs --null -I{} cmd '<{}>'", "one\0two\0"),
        ("xargs -0", ""),
        ("xargs -d '\\n' cmd", "a b\n'c'\n\nd"),
        ("xargs -d, cmd", "a,b,,c\n"),
        ("xargs -d '\\t' -n2 cmd", "a\tb\tc"),
        ("xargs -d '\\x41' cmd", "xAyAz"),
        ("xargs -d '\\101' cmd", "xAyAz"),
        ("xargs -d ab cmd", "x"),
        ("xargs -d '\\q' cmd", "x"),
        ("xargs -d '\\x100' cmd", "x"),
        ("xargs -d '\\400' cmd", "x"),
        ("xargs -d '\\x4g' cmd", "x"),
        ("xargs -0 -E x cmd", "a\0x\0b"),
        ("xargs -E x cmd", "a x b"),
        ("xargs -E x cmd", "x b"),
        ("xargs -E x -I{} cmd {}", "a\nx\nb\n"),
        ("xargs -E x -L1 cmd", "a b\nc x d\ne\n"),
        ("xargs cmd", "a\0b c"),
        ("xargs -n2 -t cmd", "a b c d e\n"),
        ("xargs -t cmd", "'a b' 'it'\\''s' '' \"$x\"\n"),
        ("xargs -t cmd", "a:b 'x]' '{' '#a' 'a#' 'it'\\''s!' '\\'\n"),
        ("xargs -a a.txt cmd", "ignored"),
        ("xargs -a page.md -n5 cmd", ""),
        ("xargs --arg-file=csv.txt -d, cmd", ""),
        ("xargs -a nosuch cmd", ""),
        ("xargs -a dir cmd", ""),
        ("xargs -a utf8.txt -I{} cmd {}", ""),
        ("xargs -s 15 cmd", "aaaa bbbb cccc dddd eeee"),
        ("xargs -s 15 cmd", "aaaaaaaaaaaaaaaaaaaa"),
        ("xargs -s 20 -I{} cmd {}", "aaaaaaaaaaaaaaaaaaaa\n"),
        ("xargs -s 25 -L1 cmd", "aaaa bbbb cccc dddd eeee\n"),
        ("xargs -s 12 -n1 cmd", "a bb ccc"),
    ];
    for (line, stdin) in cases {
        same_runs_as_gnu(&[line], stdin);
    }
}
