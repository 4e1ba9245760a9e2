//! Tools run natively against the real GNU tools: the same command line, over the same
//! files in a temporary directory, must print the same bytes with the same status.

use super::{run, Answers, Ask, Done, Failed, Outcome, Stat};
use std::path::Path;
use std::process::{Command, Stdio};

/// The files every case sees (`dir/` is a directory).
pub(crate) const FILES: &[(&str, &str)] = &[
    ("page.md", "---\ntitle: Install\ndescription: How to install\n---\n\n# Install\n\nRun this:\n\n```bash\nnpm install chromafs\nnpm test\n```\n\nThen read the [guide](guide.md).\n\n```js\nconst fs = await ChromaFs.connect();\n```\nThe end.\n"),
    ("a.txt", "apple\nbanana\ncherry\napple\ndate\n"),
    ("b.txt", "apple\nblueberry\ncherry\ndate\nelderberry\n"),
    ("nums.txt", "10\n9\n100\n-3\n2.5\n1e3\n0x10\n 7\n1K\n2M\n"),
    ("csv.txt", "name,age,city\nalice,30,paris\nbob,25,berlin\nno commas here\ncarol,,rome\n"),
    ("words.txt", "the quick brown fox\njumps over  the lazy dog\n\tTabbed line\nUPPER lower MiXeD\n"),
    ("nonl.txt", "first\nsecond\nno newline at end"),
    ("empty.txt", ""),
    ("utf8.txt", "café\nnaïve résumé\n日本語のテキスト\nemoji 🎉 here\n"),
    ("dup.txt", "a\na\nb\nB\nb\nc\nc\nc\n"),
    ("dir/inner.txt", "inside\n"),
    ("diffs/a/same.txt", "same\n"),
    ("diffs/b/same.txt", "same\n"),
    ("diffs/a/changed.txt", "one\ntwo\nthree\n"),
    ("diffs/b/changed.txt", "one\n2\nthree\nfour\n"),
    ("diffs/a/only-a.txt", "a\n"),
    ("diffs/b/only-b.txt", "b\n"),
    ("diffs/a/sub/deep.txt", "x\ny\n"),
    ("diffs/b/sub/deep.txt", "x\nz\n"),
    ("diffs/a/onlydir/f.txt", "f\n"),
    ("diffs/a/kind", "file\n"),
    ("diffs/b/kind/f", "in dir\n"),
    ("diffs/bin1", "ab\0cd\n"),
    ("diffs/bin2", "ab\0ce\n"),
    ("diffs/crlf.txt", "apple\r\nbanana\r\ncherry\r\napple\r\ndate\r\n"),
    ("diffs/spaces.txt", "apple  \nbanana\n\n  cherry\napple\n\tdate\n"),
    ("diffs/c1.c", "#include <x>\n\nint main(void)\n{\n  int a = 1;\n  int b = 2;\n  int c = 3;\n  int d = 4;\n  return a + b;\n}\n\nstatic int helper(int x)\n{\n  int y = x;\n  int z = y;\n  int w = z;\n  return x * 2;\n}\n"),
    ("diffs/c2.c", "#include <x>\n\nint main(void)\n{\n  int a = 1;\n  int b = 20;\n  int c = 3;\n  int d = 4;\n  return a + b;\n}\n\nstatic int helper(int x)\n{\n  int y = x;\n  int z = y;\n  int w = z;\n  return x * 3;\n}\n"),
    ("diffs/tabs.txt", "a\tb\n\tindented\nno tab\n"),
    ("diffs/tabs2.txt", "a       b\n        indented\nno tab \n"),
];

/// Writes [`FILES`] into a new temporary directory.
fn fixture() -> std::path::PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("chromafs-tools-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in FILES {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Shell words of `line`: quotes (single and double) and backslashes as bash reads them;
/// no expansions.
pub(crate) fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => out.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    w.push(c);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => w.push(chars.next().unwrap()),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    out
}

/// What a command printed: stdout, stderr, status.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

/// `line` run by GNU bash over a fresh copy of [`FILES`], standard input `stdin`.
pub(crate) fn gnu(line: &str, stdin: &str) -> Ran {
    let dir = fixture();
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(line)
        .current_dir(&dir)
        .env("LC_ALL", "C.UTF-8")
        .env("POSIXLY_CORRECT", "")
        .env_remove("POSIXLY_CORRECT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), stdin.as_bytes()).ok();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    Ran {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        status: out.status.code().unwrap_or(-1),
    }
}

fn failed(e: &std::io::Error, path: &Path) -> Failed {
    if path.is_dir() {
        return Failed::new("EISDIR", "Is a directory");
    }
    match e.kind() {
        std::io::ErrorKind::NotFound => Failed::new("ENOENT", "No such file or directory"),
        _ if e.raw_os_error() == Some(20) => Failed::new("ENOTDIR", "Not a directory"),
        _ => Failed::new("EIO", "Input/output error"),
    }
}

/// `line` run by this module's tool over a fresh copy of [`FILES`], its host's answers
/// read from that copy.
pub(crate) fn ours(line: &str, stdin: &str) -> Ran {
    let done = ours_done(line, stdin);
    Ran { stdout: String::from_utf8_lossy(&done.stdout).into_owned(), stderr: done.stderr, status: done.status }
}

/// What [`ours`] runs, as the tool gives it back.
fn ours_done(line: &str, stdin: &str) -> Done {
    let dir = fixture();
    let words = words(line);
    let mut answers = Answers::default();
    let done = loop {
        match run(&words[0], &words[1..], stdin.as_bytes(), &answers).expect("a tool of this module") {
            Outcome::Done(done) => break done,
            Outcome::Need(asks) => {
                for (ask, path) in asks {
                    let at = if path.starts_with('/') { Path::new(&path).to_path_buf() } else { dir.join(&path) };
                    match ask {
                        Ask::Read => {
                            let got = std::fs::read(&at).map_err(|e| failed(&e, &at));
                            answers.reads.insert(path, got);
                        }
                        Ask::Stat => {
                            let got = std::fs::metadata(&at)
                                .map(|m| Stat { absolute: at.display().to_string(), dir: m.is_dir(), size: m.len() })
                                .map_err(|e| failed(&e, &at));
                            answers.stats.insert(path, got);
                        }
                        Ask::List => {
                            let got = std::fs::read_dir(&at)
                                .map(|d| {
                                    let mut names: Vec<String> =
                                        d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
                                    names.sort();
                                    names
                                })
                                .map_err(|e| failed(&e, &at));
                            answers.lists.insert(path, got);
                        }
                        Ask::Create | Ask::MakeDir => {
                            let made = match ask {
                                Ask::MakeDir => std::fs::create_dir(&at),
                                _ => std::fs::OpenOptions::new().write(true).create_new(true).open(&at).map(drop),
                            };
                            let got = made.map_err(|e| match e.kind() {
                                std::io::ErrorKind::AlreadyExists => Failed::new("EEXIST", "File exists"),
                                _ => failed(&e, &at),
                            });
                            answers.made.insert(path, got);
                        }
                    }
                }
            }
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    done
}

/// Each of `lines`, its standard error sent where its output goes (`2>&1`), prints what
/// GNU's tool prints: the errors where the tool's marks (`Done::stderr_at`) put them, or
/// first without marks, as the host merges a short output.
pub(crate) fn merged_as_gnu(lines: &[&str]) {
    let mut differ = Vec::new();
    for line in lines {
        let want = gnu(&format!("{line} 2>&1"), "").stdout;
        let done = ours_done(line, "");
        let (out, err) = (&done.stdout, done.stderr.as_bytes());
        let mut merged = Vec::new();
        if done.stderr_at.is_empty() {
            merged.extend_from_slice(err);
        }
        let (mut o, mut e) = (0, 0);
        for &(at_out, at_err) in &done.stderr_at {
            merged.extend_from_slice(&out[o..at_out]);
            merged.extend_from_slice(&err[e..at_err]);
            (o, e) = (at_out, at_err);
        }
        merged.extend_from_slice(&out[o..]);
        if !done.stderr_at.is_empty() {
            merged.extend_from_slice(&err[e..]);
        }
        let got = String::from_utf8_lossy(&merged);
        if want != got {
            differ.push(format!("{line} 2>&1\n  GNU:  {want:?}\n  ours: {got:?}"));
        }
    }
    assert!(differ.is_empty(), "{} of {} lines differ from GNU:\n{}", differ.len(), lines.len(), differ.join("\n"));
}

/// Each of `lines` (with `stdin`) prints what GNU's tool prints; panics listing every
/// line that does not.
pub(crate) fn same_as_gnu(lines: &[&str], stdin: &str) {
    let mut differ = Vec::new();
    for line in lines {
        let (want, got) = (gnu(line, stdin), ours(line, stdin));
        if want != got {
            differ.push(format!("{line}\n  GNU:  {want:?}\n  ours: {got:?}"));
        }
    }
    assert!(differ.is_empty(), "{} of {} lines differ from GNU:\n{}", differ.len(), lines.len(), differ.join("\n"));
}

/// `line` run by GNU bash as [`gnu`] runs it, with a directory of links first on `PATH`:
/// each `(name, program)` of `links` makes `name` run `program` (`awk` as gawk, where the
/// system's `awk` is another), under the name the command line gives it.
pub(crate) fn gnu_as(line: &str, stdin: &str, links: &[(&str, &str)]) -> Ran {
    let bin = std::env::temp_dir().join(format!("chromafs-tools-bin-{}", std::process::id()));
    std::fs::create_dir_all(&bin).unwrap();
    for (name, program) in links {
        let target = Command::new("bash").arg("-c").arg(format!("command -v {program}")).output().unwrap();
        let target = String::from_utf8_lossy(&target.stdout).trim().to_string();
        let link = bin.join(name);
        if std::fs::read_link(&link).map(|l| l.display().to_string() != target).unwrap_or(true) {
            let _ = std::fs::remove_file(&link);
            let _ = std::os::unix::fs::symlink(&target, &link);
        }
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    gnu(&format!("PATH={} && {line}", path), stdin)
}

/// [`same_as_gnu`], with GNU's side run through [`gnu_as`]'s `links`.
pub(crate) fn same_as_gnu_as(lines: &[&str], stdin: &str, links: &[(&str, &str)]) {
    let mut differ = Vec::new();
    for line in lines {
        let (want, got) = (gnu_as(line, stdin, links), ours(line, stdin));
        if want != got {
            differ.push(format!("{line}\n  GNU:  {want:?}\n  ours: {got:?}"));
        }
    }
    assert!(differ.is_empty(), "{} of {} lines differ from GNU:\n{}", differ.len(), lines.len(), differ.join("\n"));
}

#[test]
fn errors_come_between_the_output_where_gnu_writes_them() {
    merged_as_gnu(&[
        "head -n1 a.txt nope b.txt",
        "tail -n1 a.txt nope b.txt",
        "wc -l a.txt nope b.txt",
        "cut -c1-3 a.txt nope b.txt",
        "nl a.txt nope b.txt",
        "fold -w 3 a.txt nope",
        "md5sum a.txt nope b.txt",
        "tac a.txt nope b.txt",
        "sed -n 1p a.txt nope a.txt",
        "sort a.txt nope",
        "paste a.txt nope",
        "expand diffs/tabs.txt nope a.txt nope",
        "unexpand -a diffs/spaces.txt nope b.txt",
        "head -n1 nope a.txt",
    ]);
}
