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
pub(crate) mod ls;
pub(crate) mod tree;

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

/// A command's result, as just-bash's command returns it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Printed {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

impl Printed {
    /// An error line; the command's exit code becomes `code`.
    pub(crate) fn fail(&mut self, code: i32, line: String) {
        self.stderr.push_str(&line);
        self.exit_code = code;
    }
}

/// Where a command runs: the session's listing and scratch directory, and its cwd.
#[derive(Clone, Copy)]
pub(crate) struct Place<'a> {
    pub listing: &'a Listing,
    pub scratch: Option<&'a str>,
    /// Normalised.
    pub cwd: &'a str,
}

impl Place<'_> {
    /// Paths the listing does not answer for: the scratch directory and `/dev`.
    pub(crate) fn check(&self, full: &str) -> Result<(), Unsupported> {
        let under = |root: &str| full == root || full.starts_with(&format!("{root}/"));
        if self.scratch.is_some_and(under) || under("/dev") || full == DEV_NULL {
            return Err(Unsupported::new("the scratch directory and /dev are listed by just-bash"));
        }
        Ok(())
    }

    /// A directory whose entries the listing alone holds: not the root when the session
    /// has a scratch directory beside the docs.
    fn check_dir(&self, full: &str) -> Result<(), Unsupported> {
        if full == "/" && self.scratch.is_some() {
            return Err(Unsupported::new("the scratch directory is listed by just-bash"));
        }
        Ok(())
    }
}

/// Answers a listing command for a session when it can, and records which way it went.
/// `own_fs`: the command reads this filesystem itself, not a host's around it.
pub(crate) fn answer(fs: &Filesystem, name: &str, args: &[String], cwd: &str, own_fs: bool) -> Option<Printed> {
    let cwd = crate::base::path::normalize(cwd);
    let mut cs = CommandStats::new(name, args);
    let place = Place { listing: fs.listing(), scratch: fs.scratch_root(), cwd: &cwd };
    let answered = match (own_fs, fs.native_commands()) {
        (false, _) => Err(Unsupported::new("the command reads another filesystem")),
        (_, false) => Err(Unsupported::new("native commands are off")),
        _ => run(name, args, place),
    };
    let printed = answered.map_err(|why| cs.delegated = Some(why.0)).ok();
    cs.native = printed.is_some();
    fs.record(cs);
    printed
}

/// Runs `name` here when its output is modelled; the reason otherwise.
pub(crate) fn run(name: &str, args: &[String], place: Place) -> Result<Printed, Unsupported> {
    if args.iter().any(|a| a == "--help") {
        return Err(Unsupported::new("help is just-bash's"));
    }
    match name {
        "ls" => ls::ls(args, place),
        "find" => find::find(args, place),
        "tree" => tree::tree(args, place),
        "du" => du::du(args, place),
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
        Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), &[]).unwrap()
    }

    fn run_in(cmd: &str, cwd: &str) -> Result<Printed, Unsupported> {
        let words: Vec<&str> = cmd.split(' ').collect();
        let args: Vec<String> = words[1..].iter().map(|s| s.to_string()).collect();
        let l = listing();
        run(words[0], &args, Place { listing: &l, scratch: None, cwd })
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
        let missing = run_in("ls /secret.md", "/").unwrap();
        assert_eq!(
            (missing.stderr.as_str(), missing.exit_code),
            ("ls: cannot access '/secret.md': No such file or directory\n", 2)
        );
        assert_eq!(stdout("ls /"), "Upper\na.md\ndocs\n", "byte order");
        assert!(run_in("ls -l /docs", "/").is_err());
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
        assert!(run_in("find / -delete", "/").is_err());
    }

    #[test]
    fn tree_follows_tree() {
        assert_eq!(stdout("tree /docs"), "/docs\n├── b.md\n└── sub\n    └── c.md\n\n2 directories, 2 files\n");
        assert_eq!(stdout("tree -d -L 1 /docs"), "/docs\n└── sub\n\n2 directories\n");
        assert_eq!(stdout("tree /docs/sub"), "/docs/sub\n└── c.md\n\n1 directory, 1 file\n");
        let file = run_in("tree /a.md /nope", "/").unwrap();
        assert_eq!(file.stdout, "/a.md  [error opening dir]\n/nope  [error opening dir]\n\n0 directories, 1 file\n");
        assert_eq!(file.exit_code, 2);
    }
}
