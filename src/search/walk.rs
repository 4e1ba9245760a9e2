//! The files a search reads, in which order, spelled how: grep's and rg's walks (the one
//! walk of `commands::walk`, each tool's by its [`Policy`]) from the operands of a line.
//!
//! A narrowed search reads the same files in the same order as the real tool, and a
//! command handed to just-bash gets them one by one. A narrowed command just-bash runs (a
//! form chromafs does not answer, or `nativeCommands: false`) gets an explicit list of
//! files, which must be what its own walk would have visited (`Policy::JUST_BASH_GREP`,
//! `Policy::JUST_BASH_RG`). Every such file is also in the real tools' walk of the same
//! operand, which the narrowing was computed over.

use crate::base::path;
use crate::commands::walk::{visit, Entry, Flow, Found, Policy, Scope, Visitor};
use crate::search::args::GrepArgs;
use crate::tree::listing::{Listing, Node};

/// One file of a narrowed search, or an operand left for grep to report.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Target {
    /// A visible file: `shown` is how grep spells it, `path` where it is.
    File { shown: String, path: String },
    /// An operand that is not a visible file or directory: grep reports it itself.
    Keep(String),
    /// An operand that names a file as a directory (`a.md/`): ENOTDIR, as the real tools say.
    NotDir(String),
}

/// The files a walk with `policy` visits from `operand` (`""`: no operand, the working
/// directory, which just-bash reads as `.`), spelled as that tool spells them; `false`
/// when a file's spelling would read as an option if it were named (rg's concern).
pub(crate) fn walk(scope: Scope, cwd: &str, operand: &str, policy: Policy, out: &mut Vec<Target>) -> bool {
    #[cfg(test)]
    if !policy.just_bash() {
        crate::search::tally::bump(|t| t.walks += 1);
    }
    let operand = if operand.is_empty() && policy.just_bash() { "." } else { operand };
    let full = path::resolve(cwd, operand);
    match scope.get(&full) {
        None => out.push(Target::Keep(operand.to_string())),
        // A file named as a directory: ENOTDIR as the real tools say it; just-bash's own
        // command reports it itself.
        Some(Found::File) if path::names_dir(operand) && policy.just_bash() => {
            out.push(Target::Keep(operand.to_string()))
        }
        Some(Found::File) if path::names_dir(operand) => out.push(Target::NotDir(operand.to_string())),
        Some(Found::File) => out.push(Target::File { shown: operand.to_string(), path: full }),
        Some(Found::Dir(_)) => {
            let mut files = Files { out, below_dot: operand == ".", clean: true };
            let start = Entry { full: &full, shown: operand, name: path::file_name(&full), depth: 0, dir: true };
            let Ok(_) = visit(scope, policy, &start, &mut files);
            return files.clean;
        }
    }
    true
}

/// A search's visitor: the files below an operand, in the walk's order.
struct Files<'o> {
    out: &'o mut Vec<Target>,
    /// The operand is `.`.
    below_dot: bool,
    /// No file is spelled like an option.
    clean: bool,
}

impl Visitor for Files<'_> {
    type Stop = std::convert::Infallible;

    fn enter(&mut self, e: &Entry) -> Result<Flow, Self::Stop> {
        if !e.dir {
            // A file spelled like an option would be read as one if named (just-bash's
            // rg spells the files below `.` without it).
            self.clean &= !(e.shown.starts_with('-') || self.below_dot && e.depth == 1 && e.name.starts_with('-'));
            self.out.push(Target::File { shown: e.shown.to_string(), path: e.full.to_string() });
        }
        Ok(Flow::Go)
    }
}

/// Whether grep would expand the operand as a glob itself.
pub(crate) fn has_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Every file the command may read, for a bulk prefetch.
pub(crate) fn grep_read_set(listing: &Listing, cwd: &str, operands: &[&str], g: &GrepArgs) -> Vec<String> {
    let mut out = Vec::new();
    for &op in operands {
        if op == "-" {
            continue;
        }
        if has_glob(op) {
            // grep expands it itself: load everything below its fixed directory.
            let fixed = op[..op.find(['*', '?', '[']).unwrap()].rsplit_once('/').map_or(".", |(d, _)| {
                if d.is_empty() {
                    "/"
                } else {
                    d
                }
            });
            out.extend(listing.files_under(&path::resolve(cwd, fixed)));
            continue;
        }
        let full = path::resolve(cwd, op);
        match listing.get(&full) {
            Some(Node::File(_)) => out.push(full),
            Some(Node::Dir(_)) if g.recursive => out.extend(listing.files_under(&full)),
            _ => {}
        }
    }
    out
}

/// Every file rg may read from its operands, for a bulk prefetch.
pub(crate) fn rg_read_set(listing: &Listing, cwd: &str, operands: &[&str]) -> Vec<String> {
    let mut files: Vec<String> = operands.iter().flat_map(|o| listing.files_under(&path::resolve(cwd, o))).collect();
    crate::base::sort::sort(&mut files);
    files.dedup();
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::walk::RgWalk;
    use crate::tree::access::Groups;
    use crate::tree::decode::PathTree;

    fn listing() -> Listing {
        let json = r#"{"a.md":{"isPublic":true},"docs/b.md":{"isPublic":true},"docs/.hidden.md":{"isPublic":true},
            "docs/sub/c.md":{"isPublic":true},"docs/node_modules/x.md":{"isPublic":true},"secret.md":{"isPublic":false}}"#;
        Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap()
    }

    fn shown(targets: &[Target]) -> Vec<String> {
        targets
            .iter()
            .map(|t| match t {
                Target::File { shown, .. } => shown.clone(),
                Target::Keep(k) => format!("keep:{k}"),
                Target::NotDir(k) => format!("notdir:{k}"),
            })
            .collect()
    }

    fn grep(cwd: &str, op: &str) -> Vec<String> {
        let mut out = Vec::new();
        walk(Scope { listing: &listing(), scratch: None }, cwd, op, Policy::GREP, &mut out);
        shown(&out)
    }

    fn rg(cwd: &str, op: &str) -> Vec<String> {
        let mut out = Vec::new();
        assert!(walk(Scope { listing: &listing(), scratch: None }, cwd, op, Policy::rg(RgWalk::default()), &mut out));
        shown(&out)
    }

    #[test]
    fn grep_walks_and_spells_like_gnu_grep() {
        assert_eq!(
            grep("/", "/"),
            ["/a.md", "/docs/.hidden.md", "/docs/b.md", "/docs/node_modules/x.md", "/docs/sub/c.md"]
        );
        assert_eq!(grep("/docs", "."), ["./.hidden.md", "./b.md", "./node_modules/x.md", "./sub/c.md"]);
        assert_eq!(grep("/docs", ""), [".hidden.md", "b.md", "node_modules/x.md", "sub/c.md"], "no operand");
        assert_eq!(grep("/", "docs//"), ["docs/.hidden.md", "docs/b.md", "docs/node_modules/x.md", "docs/sub/c.md"]);
        assert_eq!(grep("/docs/sub", "../sub"), ["../sub/c.md"]);
        assert_eq!(
            grep("/", "secret.md"),
            ["keep:secret.md"],
            "a hidden file is left for grep to report, as a missing one"
        );
        assert_eq!(grep("/", "docs/.hidden.md"), ["docs/.hidden.md"], "a named dotfile is read");
        assert_eq!(grep("/", "a.md/"), ["notdir:a.md/"], "a file named as a directory");
        assert_eq!(rg("/docs", "b.md/."), ["notdir:b.md/."]);
    }

    #[test]
    fn rg_walks_and_spells_like_ripgrep() {
        assert_eq!(rg("/", "/"), ["/a.md", "/docs/b.md", "/docs/node_modules/x.md", "/docs/sub/c.md"]);
        assert_eq!(rg("/docs", "."), ["./b.md", "./node_modules/x.md", "./sub/c.md"]);
        assert_eq!(rg("/docs", ""), ["b.md", "node_modules/x.md", "sub/c.md"], "no operand");
        assert_eq!(rg("/docs", "./"), ["./b.md", "./node_modules/x.md", "./sub/c.md"]);
        assert_eq!(rg("/", "docs/"), ["docs/b.md", "docs/node_modules/x.md", "docs/sub/c.md"]);
        assert_eq!(rg("/", "docs//"), ["docs//b.md", "docs//node_modules/x.md", "docs//sub/c.md"]);
        assert_eq!(rg("/", "nope"), ["keep:nope"]);
    }

    #[test]
    fn just_bash_walks_and_spells_its_own_way() {
        let mut out = Vec::new();
        let l = listing();
        let scope = Scope { listing: &l, scratch: None };
        walk(scope, "/", "/", Policy::JUST_BASH_GREP, &mut out);
        assert_eq!(shown(&out), ["//a.md", "//docs/b.md", "//docs/node_modules/x.md", "//docs/sub/c.md"]);
        out.clear();
        walk(scope, "/docs", "", Policy::JUST_BASH_GREP, &mut out);
        assert_eq!(shown(&out), ["b.md", "node_modules/x.md", "sub/c.md"], "no operand is `.`");
        out.clear();
        walk(scope, "/", "docs/", Policy::JUST_BASH_RG, &mut out);
        assert_eq!(shown(&out), ["docs/b.md", "docs/sub/c.md"], "no hidden files, no node_modules");
    }

    #[test]
    fn a_scratch_directory_is_walked_in_its_place() {
        let mut scratch = crate::fs::scratch::Scratch::new("/tmp", 100, 1.0);
        scratch.mkdir("/tmp/d", "/tmp/d", false, 1.0).unwrap();
        for f in ["/tmp/hits", "/tmp/d/x", "/tmp/.h", "/tmp/B"] {
            scratch.write(f, f, b"x", false, 1.0).unwrap();
        }
        let (l, dirs) = (listing(), scratch.dirs());
        let scope = Scope { listing: &l, scratch: Some(&dirs) };
        let mut out = Vec::new();
        walk(scope, "/", "/", Policy::GREP, &mut out);
        assert_eq!(
            shown(&out),
            [
                "/a.md",
                "/docs/.hidden.md",
                "/docs/b.md",
                "/docs/node_modules/x.md",
                "/docs/sub/c.md",
                "/tmp/.h",
                "/tmp/B",
                "/tmp/d/x",
                "/tmp/hits"
            ]
        );
        out.clear();
        assert!(walk(scope, "/tmp", "", Policy::rg(RgWalk::default()), &mut out));
        assert_eq!(shown(&out), ["B", "d/x", "hits"]);
        out.clear();
        walk(scope, "/", "/tmp/hits", Policy::GREP, &mut out);
        walk(scope, "/", "/tmp/nope", Policy::GREP, &mut out);
        assert_eq!(shown(&out), ["/tmp/hits", "keep:/tmp/nope"], "a file in it is read as any other");
        out.clear();
        walk(scope, "/", "/tmp", Policy::JUST_BASH_GREP, &mut out);
        assert_eq!(shown(&out), ["/tmp/B", "/tmp/d/x", "/tmp/hits"], "just-bash's walk skips dotfiles");
        let file = |p: &str| matches!(scope.get(p), Some(Found::File));
        assert!(file("/tmp/d/x") && !file("/tmp/d") && file("/a.md") && scope.get("/tmp/nope").is_none());
    }

    #[test]
    fn read_sets_cover_every_file_read() {
        assert_eq!(
            rg_read_set(&listing(), "/", &["docs/sub", "/docs"]),
            ["/docs/.hidden.md", "/docs/b.md", "/docs/node_modules/x.md", "/docs/sub/c.md"]
        );
        let args: Vec<String> = ["-r", "x", "docs/*.md", "a.md", "nope"].iter().map(|s| s.to_string()).collect();
        let g = crate::search::args::parse_grep(&args, 0);
        assert_eq!(
            grep_read_set(&listing(), "/", &["docs/*.md", "a.md", "nope"], &g),
            ["/docs/.hidden.md", "/docs/b.md", "/docs/node_modules/x.md", "/docs/sub/c.md", "/a.md"]
        );
    }
}
