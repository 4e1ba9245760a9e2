//! Commands answered in Rust from what the session already holds.
//!
//! just-bash runs every command in JavaScript behind one filesystem call per file or
//! directory; over thousands of pages that walk is most of a command's time. The
//! commands here — [`ls`], [`find`], [`tree`], [`du`], and grep and rg in `search::native` — print
//! what the real tools print (GNU coreutils `ls` and `du`, findutils `find`, tree 2.x), for
//! the flags and operands whose output they model, and say [`Unsupported`] (with the
//! reason) for anything else, which then runs in just-bash.

pub(crate) mod du;
pub(crate) mod find;
pub(crate) mod inputs;
pub(crate) mod ls;
pub(crate) mod meta;
pub(crate) mod strftime;
pub(crate) mod tree;
pub(crate) mod units;
pub(crate) mod walk;

use crate::fs::stats::CommandStats;
use crate::fs::{Filesystem, DEV_NULL};
use crate::tree::listing::Listing;
use serde::Serialize;
use std::fmt;

/// Why a command is left to just-bash, or a search cannot be narrowed (shown in
/// `fs.stats().commands[*]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unsupported(pub String);

impl Unsupported {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        Unsupported(reason.into())
    }
}

impl From<crate::base::glob::GlobError> for Unsupported {
    fn from(e: crate::base::glob::GlobError) -> Self {
        Unsupported::new(e.0)
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a command stops before it walks anything: the real tool's usage error (printed),
/// or something left to just-bash.
pub(crate) enum Stop {
    Usage(Printed),
    Delegate(Unsupported),
}

impl From<Unsupported> for Stop {
    fn from(u: Unsupported) -> Self {
        Stop::Delegate(u)
    }
}

impl Stop {
    /// The command's answer: the usage error, or the reason to delegate.
    pub(crate) fn answer(self) -> Result<Printed, Unsupported> {
        match self {
            Stop::Usage(printed) => Ok(printed),
            Stop::Delegate(why) => Err(why),
        }
    }
}

/// A command's result, as just-bash's command returns it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Printed {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
    /// `Bytes` when `stdout` is bytes that are not UTF-8 text, one character a byte (tree
    /// `-S`'s code page 437 lines), as just-bash's `stdoutKind` says.
    #[serde(skip_serializing_if = "Kind::is_text")]
    pub stdout_kind: Kind,
    /// When the command wrote its errors, for a host that sends them where its output goes
    /// (`2>&1`): `(o, e)` says the first `e` bytes of `stderr` were written once `stdout`
    /// held `o` bytes, as a GNU tool that flushes its output before each error writes them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stderr_at: Vec<(usize, usize)>,
}

/// What a command's standard output holds (just-bash's `stdoutKind`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    #[default]
    Text,
    Bytes,
}

impl Kind {
    fn is_text(&self) -> bool {
        *self == Kind::Text
    }
}

impl Printed {
    /// An error line; the command's exit code becomes `code`.
    pub(crate) fn fail(&mut self, code: i32, line: String) {
        self.stderr.push_str(&line);
        self.stderr_at.push((self.stdout.len(), self.stderr.len()));
        self.exit_code = code;
    }
}

/// Why a command over the listing alone stops: it reaches the scratch directory, and runs
/// again over the listing with the directory in it.
const SCRATCH_LISTED: &str = "reaches the scratch directory";

/// Where a command runs: the session's listing and scratch directory, and its cwd.
#[derive(Clone, Copy)]
pub(crate) struct Place<'a> {
    pub listing: &'a Listing,
    pub scratch: Option<&'a crate::fs::scratch::Dirs>,
    /// Normalised.
    pub cwd: &'a str,
}

impl Place<'_> {
    /// Paths the listing does not answer for: the scratch directory and `/dev`.
    pub(crate) fn check(&self, full: &str) -> Result<(), Unsupported> {
        let under = |root: &str| full == root || full.starts_with(&format!("{root}/"));
        if self.scratch.is_some_and(|s| under(s.root())) {
            return Err(Unsupported::new(format!("{SCRATCH_LISTED}: {full}")));
        }
        if under("/dev") || full == DEV_NULL {
            return Err(Unsupported::new("/dev is listed by just-bash"));
        }
        Ok(())
    }

    /// [`Place::check`] for a search, which walks and reads the scratch directory itself.
    pub(crate) fn check_searched(&self, full: &str) -> Result<(), Unsupported> {
        match self.scratch {
            Some(s) if s.contains(full) => Ok(()),
            _ => self.check(full),
        }
    }

    /// A directory whose entries the listing alone holds: not the root when the session
    /// has a scratch directory beside the docs.
    fn check_dir(&self, full: &str) -> Result<(), Unsupported> {
        if full == "/" && self.scratch.is_some() {
            return Err(Unsupported::new(format!("{SCRATCH_LISTED}: /")));
        }
        Ok(())
    }
}

/// Answers a listing command for a session when it can, and records which way it went.
/// `own_fs`: the command reads this filesystem itself, not a host's around it. The files
/// its line names are read first (see [`inputs`]); `stdin` is standard input's text, when
/// the host passes it.
pub(crate) async fn answer(
    fs: &Filesystem,
    name: &str,
    args: &[String],
    cwd: &str,
    own_fs: bool,
    stdin: Option<&str>,
) -> Option<Printed> {
    let cwd = crate::base::path::normalize(cwd);
    let mut cs = CommandStats::new(name, args);
    let answered = match (own_fs, fs.native_commands()) {
        (false, _) => Err(Unsupported::new("the command reads another filesystem")),
        (_, false) => Err(Unsupported::new("native commands are off")),
        _ => {
            let files = match name {
                "tree" => tree::reads(args),
                "du" => du::reads(args),
                _ => Vec::new(),
            };
            let read = inputs::read(fs, &cwd, files, stdin).await;
            let scratch = fs.scratch_dirs();
            let place = Place { listing: fs.listing(), scratch: scratch.as_ref(), cwd: &cwd };
            read.and_then(|read| match run_reading(name, args, place, fs.now_ms(), &read) {
                // A command that reaches the scratch directory lists it beside the docs.
                Err(why) if why.0.starts_with(SCRATCH_LISTED) => match fs.listing_with_scratch() {
                    Some(with) => {
                        run_reading(name, args, Place { listing: &with, scratch: None, cwd: &cwd }, fs.now_ms(), &read)
                    }
                    None => Err(why),
                },
                answered => answered,
            })
        }
    };
    let printed = answered.map_err(|why| cs.delegated = Some(why.0)).ok();
    cs.native = printed.is_some();
    fs.record(cs);
    printed
}

/// [`run_reading`] of a line that names no file to read first (the unit tests' way in).
#[cfg(test)]
pub(crate) fn run(name: &str, args: &[String], place: Place, now_ms: f64) -> Result<Printed, Unsupported> {
    run_reading(name, args, place, now_ms, &inputs::Inputs::default())
}

/// Runs `name` here when its output is modelled, with the files its line names already
/// read; the reason otherwise. `now_ms`: the session's clock (`ls -l` prints a recent time
/// with its hour).
fn run_reading(
    name: &str,
    args: &[String],
    place: Place,
    now_ms: f64,
    read: &inputs::Inputs,
) -> Result<Printed, Unsupported> {
    if args.iter().any(|a| a == "--help") {
        return Err(Unsupported::new("help is just-bash's"));
    }
    match name {
        "ls" => ls::ls(args, place, now_ms),
        "find" => find::find(args, place, now_ms),
        "tree" => tree::tree(args, place, now_ms, read),
        "du" => du::du(args, place, read),
        _ => Err(Unsupported::new(format!("{name} is run by just-bash"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::access::Groups;
    use crate::tree::decode::PathTree;

    fn listing() -> Listing {
        let json = r#"{"a.md":{"isPublic":true},"docs/b.md":{"isPublic":true},"docs/.hidden.md":{"isPublic":true},
            "docs/sub/c.md":{"isPublic":true},"secret.md":{"isPublic":false},"Upper/d.md":{"isPublic":true}}"#;
        Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap()
    }

    /// 2026-11-27, when the tree's times (0) are long past.
    const NOW: f64 = 1_795_749_644_000.0;

    fn run_in(cmd: &str, cwd: &str) -> Result<Printed, Unsupported> {
        let words: Vec<&str> = cmd.split(' ').collect();
        let args: Vec<String> = words[1..].iter().map(|s| s.to_string()).collect();
        let l = listing();
        run(words[0], &args, Place { listing: &l, scratch: None, cwd }, NOW)
    }

    fn stdout(cmd: &str) -> String {
        run_in(cmd, "/").unwrap().stdout
    }

    #[test]
    fn ls_follows_gnu_ls() {
        assert_eq!(stdout("ls /docs"), "b.md\nsub\n");
        assert_eq!(stdout("ls -a /docs"), ".\n..\n.hidden.md\nb.md\nsub\n");
        assert_eq!(stdout("ls -p /docs"), "b.md\nsub/\n");
        assert_eq!(stdout("ls -R /docs"), "/docs:\nb.md\nsub\n\n/docs/sub:\nc.md\n");
        assert_eq!(stdout("ls /docs/b.md /a.md"), "/a.md\n/docs/b.md\n", "files together, sorted");
        assert_eq!(stdout("ls /docs/sub /a.md /Upper"), "/a.md\n\n/Upper:\nd.md\n\n/docs/sub:\nc.md\n");
        assert_eq!(stdout("ls -d /docs/sub/ /Upper/"), "/Upper/\n/docs/sub/\n");
        assert_eq!(
            stdout("ls -dp /docs/sub/ /"),
            "//\n/docs/sub//\n",
            "GNU appends the indicator whatever the name ends with"
        );
        let missing = run_in("ls /secret.md", "/").unwrap();
        assert_eq!(
            (missing.stderr.as_str(), missing.exit_code),
            ("ls: cannot access '/secret.md': No such file or directory\n", 2)
        );
        assert_eq!(stdout("ls /"), "Upper\na.md\ndocs\n", "byte order");
        assert_eq!(stdout("ls -i /docs"), "7 b.md\n9 sub\n", "the listing's inode numbers");
    }

    #[test]
    fn ls_quotes_headers_and_leaves_counts_unpadded_between_commas_as_gnu_ls() {
        let json = r#"{"sp ace/x.md":{"isPublic":true,"size":50000,"mtime":0},"c:d/y.md":{"isPublic":true,"size":1,"mtime":0}}"#;
        let l = Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
        let out = |a: &[&str]| {
            let args: Vec<String> = a.iter().map(|s| s.to_string()).collect();
            run("ls", &args, Place { listing: &l, scratch: None, cwd: "/" }, NOW).unwrap().stdout
        };
        assert_eq!(out(&["-b", "-R", "/"]), "/:\nc:d\nsp\\ ace\n\n/c\\:d:\ny.md\n\n/sp ace:\nx.md\n");
        assert_eq!(out(&["--quoting-style=shell", "/c:d", "/sp ace"]), "'/c:d':\ny.md\n\n'/sp ace':\nx.md\n");
        assert_eq!(out(&["-N", "/c:d"]), "y.md\n");
        assert_eq!(out(&["-s", "-m", "/sp ace", "/c:d"]), "/c:d:\ntotal 4\n4 y.md\n\n/sp ace:\ntotal 52\n52 x.md\n");
        assert_eq!(out(&["-s", "-m", "/sp ace/x.md", "/c:d/y.md"]), "4 /c:d/y.md, 52 /sp ace/x.md\n");
    }

    #[test]
    fn ls_options_answered_from_one_time_and_one_owner() {
        let json = r#"{"a.md":{"isPublic":true,"size":7,"mtime":0},"docs/b.md":{"isPublic":true,"size":5000,"mtime":1000},
            "docs/c d.md":{"isPublic":true,"size":1,"mtime":2000}}"#;
        let l = Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
        let ls = |a: &[&str]| {
            let args: Vec<String> = a.iter().map(|s| s.to_string()).collect();
            run("ls", &args, Place { listing: &l, scratch: None, cwd: "/" }, NOW).unwrap()
        };
        let out = |a: &[&str]| ls(a).stdout;
        assert_eq!(out(&["-n", "--author", "-Z", "/a.md"]), "-rw-r--r-- 1 1000 1000 1000 ? 7 Jan  1  1970 /a.md\n");
        assert_eq!(out(&["-Z", "/docs"]), "? b.md\n? c d.md\n");
        assert_eq!(out(&["-c", "/docs"]), "c d.md\nb.md\n", "-c sorts by the one time a collection records");
        assert_eq!(out(&["-l", "-s", "-f", "/docs"]), ".\n..\nb.md\nc d.md\n", "-f turns -l and -s off");
        assert_eq!(out(&["-f", "-l", "/docs"]).lines().next(), Some("total 12"), "and -l after it on");
        assert_eq!(out(&["-m", "--full-time", "/a.md"]), out(&["--full-time", "/a.md"]), "--full-time is -l");
        assert_eq!(out(&["-l", "--zero", "/docs"]).split('\0').next(), Some("total 12"));
        assert_eq!(out(&["-lc", "/docs"]), out(&["-l", "/docs"]), "-l: by name, as GNU ls");
        assert_eq!(out(&["--quoting-style=shell", "/docs"]), "b.md\n'c d.md'\n");
        assert_eq!(out(&["-b", "/docs"]), "b.md\nc\\ d.md\n");
        assert_eq!(out(&["-C", "/docs"]), "b.md  c d.md\n");
        assert_eq!(out(&["-x", "-w", "6", "/docs"]), "b.md\nc d.md\n");
        assert_eq!(
            out(&["-l", "--dired", "/a.md", "/docs"]),
            concat!(
                "  -rw-r--r-- 1 user user  7 Jan  1  1970 /a.md\n\n  /docs:\n  total 12\n",
                "  -rw-r--r-- 1 user user 5000 Jan  1  1970 b.md\n  -rw-r--r-- 1 user user    1 Jan  1  1970 c d.md\n",
                "//DIRED// 41 46 111 115 159 165\n//SUBDIRED// 50 55\n//DIRED-OPTIONS// --quoting-style=literal\n"
            )
        );
        assert_eq!(out(&["--dired", "/docs"]), "b.md\nc d.md\n", "without -l, --dired changes nothing");
        let bad = ls(&["--time=x", "/"]);
        assert_eq!((bad.stderr.lines().next(), bad.exit_code), (Some("ls: invalid argument ‘x’ for ‘--time’"), 1));
        let bad = ls(&["-w", "x", "/"]);
        assert_eq!((bad.stderr.as_str(), bad.exit_code), ("ls: invalid line width: ‘x’\n", 2));
    }

    #[test]
    fn find_follows_gnu_find() {
        assert_eq!(stdout("find /docs -name *.md"), "/docs/.hidden.md\n/docs/b.md\n/docs/sub/c.md\n");
        assert_eq!(run_in("find .. -maxdepth 1 -type d", "/docs").unwrap().stdout, "..\n../Upper\n../docs\n");
        assert_eq!(stdout("find /docs/ -maxdepth 1"), "/docs/\n/docs/.hidden.md\n/docs/b.md\n/docs/sub\n", "as typed");
        assert_eq!(stdout("find /docs -type f ! -path */sub/*"), "/docs/.hidden.md\n/docs/b.md\n");
        assert_eq!(stdout("find /docs ( -name b.md -o -name c.md ) -print"), "/docs/b.md\n/docs/sub/c.md\n");
        assert_eq!(
            stdout("find /docs -name b.md -print -o -name c.md"),
            "/docs/b.md\n",
            "-print where it is evaluated"
        );
        let missing = run_in("find /nope /a.md", "/").unwrap();
        assert_eq!(missing.stdout, "/a.md\n");
        assert_eq!(missing.stderr, "find: ‘/nope’: No such file or directory\n");
    }

    #[test]
    fn ls_long_formats_as_gnu_ls_on_a_tmpfs_copy() {
        // No sizes in this tree: the long format needs them.
        assert!(run_in("ls -l /docs", "/").is_err());
        assert_eq!(stdout("ls -t /docs"), "b.md\nsub\n", "same times: by name");
        assert_eq!(stdout("ls -m -Q /docs"), "\"b.md\", \"sub\"\n");
        assert_eq!(
            stdout("ls -I *.md -a /docs"),
            ".\n..\n.hidden.md\nsub\n",
            "a leading dot only by a dot (FNM_PERIOD)"
        );
        assert_eq!(stdout("ls --hide=*.md -A /docs"), ".hidden.md\nb.md\nsub\n", "--hide yields to -A");
        assert_eq!(stdout("ls -a -I .* /docs"), "b.md\nsub\n", ". and .. too");
        assert_eq!(stdout("ls -a -I \\.h* -I . /docs"), "..\nb.md\nsub\n");
        assert_eq!(stdout("ls -a -I ?h* /docs"), ".\n..\n.hidden.md\nb.md\nsub\n");
        assert_eq!(stdout("ls -m -f /docs"), ".\n..\n.hidden.md\nb.md\nsub\n", "-f: -a -U -1");
        assert_eq!(stdout("ls --zero /docs"), "b.md\0sub\0");
        let bad = run_in("ls -j /docs", "/").unwrap();
        assert_eq!(
            (bad.stderr.as_str(), bad.exit_code),
            ("ls: invalid option -- 'j'\nTry 'ls --help' for more information.\n", 2)
        );
        let bad = run_in("ls --nope /docs", "/").unwrap();
        assert_eq!(bad.stderr, "ls: unrecognized option '--nope'\nTry 'ls --help' for more information.\n");
    }

    #[test]
    fn ls_long_columns_are_as_wide_as_every_operand_needs() {
        let json =
            r#"{"a.md":{"isPublic":true,"size":7,"mtime":0},"docs/b.md":{"isPublic":true,"size":5000,"mtime":0}}"#;
        let l = Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
        let args: Vec<String> = ["-l", "/a.md", "/docs"].iter().map(|s| s.to_string()).collect();
        let out = run("ls", &args, Place { listing: &l, scratch: None, cwd: "/" }, NOW).unwrap();
        let args: Vec<String> = ["-l", "-1", "/a.md"].iter().map(|s| s.to_string()).collect();
        let after = run("ls", &args, Place { listing: &l, scratch: None, cwd: "/" }, NOW).unwrap();
        assert_eq!(after.stdout, "-rw-r--r-- 1 user user 7 Jan  1  1970 /a.md\n", "-1 has no effect after -l");
        assert_eq!(
            out.stdout,
            "-rw-r--r-- 1 user user  7 Jan  1  1970 /a.md\n\n/docs:\ntotal 8\n-rw-r--r-- 1 user user 5000 Jan  1  1970 b.md\n",
            "the directory operand (60 bytes on tmpfs) widens the files' size column"
        );
    }

    #[test]
    fn find_actions_and_read_only_writes() {
        assert_eq!(stdout("find /docs -name sub -prune -o -type f -print"), "/docs/.hidden.md\n/docs/b.md\n");
        assert_eq!(stdout("find /docs -depth -type d"), "/docs/sub\n/docs\n");
        assert_eq!(stdout("find /docs -type f -print -quit"), "/docs/.hidden.md\n");
        assert_eq!(stdout("find /docs/sub -printf %d:%f:%P\\n"), "0:sub:\n1:c.md:c.md\n");
        let deleted = run_in("find /docs/sub -delete", "/").unwrap();
        assert_eq!(
            (deleted.stderr.as_str(), deleted.exit_code),
            ("find: cannot delete ‘/docs/sub/c.md’: Read-only file system\nfind: cannot delete ‘/docs/sub’: Read-only file system\n", 1)
        );
        let written = run_in("find /docs -fprint /out.txt", "/").unwrap();
        assert_eq!(
            (written.stdout.as_str(), written.stderr.as_str()),
            ("", "find: ‘/out.txt’: Read-only file system\n")
        );
        assert_eq!(
            run_in("find /docs -fprint /nope/out.txt", "/").unwrap().stderr,
            "find: ‘/nope/out.txt’: No such file or directory\n"
        );
        assert_eq!(stdout("find /docs/sub -fprint /dev/null"), "", "an action: no -print");
        assert_eq!(run_in("find /docs -bogus", "/").unwrap().stderr, "find: unknown predicate `-bogus'\n");
        assert_eq!(run_in("find /docs -name", "/").unwrap().stderr, "find: missing argument to `-name'\n");
        assert!(run_in("find /docs -exec echo {} ;", "/").is_err(), "-exec is just-bash's");
        assert_eq!(stdout("find /docs -samefile /docs/b.md"), "/docs/b.md\n");
        assert_eq!(stdout("find /docs -lname * -o -type d -newermt 1969-12-31"), "/docs\n/docs/sub\n");
    }

    #[test]
    fn du_excludes_operands_trims_their_slashes_and_always_totals() {
        let json = r#"{"d/a":{"isPublic":true,"size":2,"mtime":0},"d/e/f":{"isPublic":true,"size":2,"mtime":0}}"#;
        let l = Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
        let run_line = |cmd: &str| {
            let args: Vec<String> = cmd.split(' ').skip(1).map(str::to_string).collect();
            let name = cmd.split(' ').next().unwrap();
            let p = run(name, &args, Place { listing: &l, scratch: None, cwd: "/" }, NOW).unwrap();
            (p.stdout, p.exit_code)
        };
        let du = |cmd: &str| run_line(cmd).0;
        assert_eq!(du("du /d"), "4\t/d/e\n8\t/d\n");
        assert_eq!(run_line("du --exclude=d /d"), (String::new(), 0), "the operand itself");
        assert_eq!(run_line("du --exclude=* /nope"), (String::new(), 0), "passed over before it is looked up");
        assert_eq!(du("du -a --exclude=e/f /d"), "4\t/d/a\n0\t/d/e\n4\t/d\n", "what follows a slash");
        assert_eq!(du("du -a --exclude=d/e /d"), "4\t/d/a\n4\t/d\n");
        assert_eq!(du("du -c -t 100K /d"), "8\ttotal\n", "the total whatever the threshold");
        assert_eq!(du("du /d//"), "4\t/d/e\n8\t/d/\n", "trailing slashes cut to one");
        assert_eq!(du("du -a /d///e//"), "4\t/d///e/f\n4\t/d///e/\n");
        assert_eq!(
            du("ls -R /d//"),
            "/d//:\na\ne\n\n/d/e:\nf\n",
            "ls joins names to the directory without its slashes"
        );
        let warned = |cmd: &str| {
            let args: Vec<String> = cmd.split(' ').map(str::to_string).collect();
            run("du", &args, Place { listing: &l, scratch: None, cwd: "/" }, NOW).unwrap()
        };
        for cmd in ["--inodes -b /d", "--apparent-size --inodes /d"] {
            let p = warned(cmd);
            assert_eq!(p.stdout, "2\t/d/e\n4\t/d\n", "{cmd}");
            assert_eq!(p.stderr, "du: warning: options --apparent-size and -b are ineffective with --inodes\n");
        }
    }

    #[test]
    fn tree_follows_tree() {
        assert_eq!(stdout("tree /docs"), "/docs\n├── b.md\n└── sub\n    └── c.md\n\n2 directories, 2 files\n");
        assert_eq!(stdout("tree -d -L 1 /docs"), "/docs\n└── sub\n\n2 directories\n");
        assert_eq!(stdout("tree /docs/sub"), "/docs/sub\n└── c.md\n\n1 directory, 1 file\n");
        assert_eq!(stdout("tree -i /docs"), "/docs\nb.md\nsub\nc.md\n\n2 directories, 2 files\n", "-i: no lines");
        assert_eq!(
            stdout("tree -P c* /docs"),
            "/docs\n└── sub\n    └── c.md\n\n2 directories, 1 file\n",
            "-P: files only"
        );
        assert_eq!(stdout("tree -I sub|x /docs"), "/docs\n└── b.md\n\n1 directory, 1 file\n");
        assert_eq!(
            stdout("tree -J /docs"),
            "[\n  {\"type\":\"directory\",\"name\":\"/docs\",\"contents\":[\n    {\"type\":\"file\",\"name\":\"b.md\"},\n    \
             {\"type\":\"directory\",\"name\":\"sub\",\"contents\":[\n      {\"type\":\"file\",\"name\":\"c.md\"}\n    ]}\n  ]}\n\
             ,\n  {\"type\":\"report\",\"directories\":2,\"files\":2}\n]\n"
        );
        assert_eq!(
            stdout("tree -Jd -L 1 /docs").lines().nth(2),
            Some("    {\"type\":\"directory\",\"name\":\"sub\"}"),
            "no contents"
        );
        assert_eq!(
            stdout("tree -FQr --dirsfirst /docs"),
            "\"/docs\"/\n├── \"sub\"/\n│\u{a0}\u{a0} └── \"c.md\"\n└── \"b.md\"\n\n2 directories, 2 files\n"
        );
        assert_eq!(stdout("tree --charset=ascii --noreport /docs"), "/docs\n|-- b.md\n`-- sub\n    `-- c.md\n");
        assert!(run_in("tree -s /docs", "/").is_err(), "no sizes in this tree");
        assert_eq!(stdout("tree -o /dev/null /docs"), "");
        assert_eq!(run_in("tree -L x /docs", "/").unwrap().stderr, "tree: Invalid level, must be greater than 0.\n");
        let file = run_in("tree /a.md /nope", "/").unwrap();
        assert_eq!(file.stdout, "/a.md  [error opening dir]\n/nope  [error opening dir]\n\n0 directories, 1 file\n");
        assert_eq!(file.exit_code, 2);
    }
}
