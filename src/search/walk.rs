//! The directory walks of grep and rg: which files a search reads, in which order,
//! spelled how.
//!
//! The walks follow the real tools over a directory listed in byte order: grep's (GNU
//! grep's fts) reads dotfiles too and spells a file below operand `/` as `/a.md`, below
//! `.` as `./a.md`, below `dir/` as `dir/a.md`, and below no operand at all as `a.md`;
//! rg skips hidden files (with no ignore files, nothing else), and keeps the operand as
//! typed (`dir//a.md`). A narrowed search then reads the same files in the same order, and a
//! command handed to just-bash gets them one by one.

use crate::base::path;
use crate::fs::scratch::Dirs;
use crate::search::args::GrepArgs;

pub(crate) mod just_bash;
use crate::tree::listing::{byte_ordered, Listing, Node};

/// What a walk goes through: the docs' listing and, beside it at the root, the session's
/// scratch directory as it is when the command starts.
#[derive(Clone, Copy)]
pub(crate) struct Scope<'a> {
    pub listing: &'a Listing,
    pub scratch: Option<&'a Dirs>,
}

/// A path a walk finds: a file, or a directory with its entries (name, is a directory) in
/// the listing's order.
pub(crate) enum Found<'a> {
    File,
    Dir(std::borrow::Cow<'a, [(String, bool)]>),
}

impl<'a> From<crate::commands::Place<'a>> for Scope<'a> {
    fn from(place: crate::commands::Place<'a>) -> Self {
        Scope { listing: place.listing, scratch: place.scratch }
    }
}

impl<'a> Scope<'a> {
    /// Whether a file anywhere would change rg's walk: `.gitignore`, `.rgignore`, `.ignore`.
    pub(crate) fn has_ignore_file(&self) -> bool {
        let ignore = |name: &str| matches!(name, ".gitignore" | ".rgignore" | ".ignore");
        self.listing.any_path(|p| ignore(path::file_name(p)))
            || self.scratch.is_some_and(|s| s.any_name(|name, is_dir| !is_dir && ignore(name)))
    }

    /// What is at a normalised path: the root also lists the scratch directory.
    pub(crate) fn get(&self, full: &str) -> Option<Found<'a>> {
        if let Some(s) = self.scratch.filter(|s| s.contains(full)) {
            return match s.children(full) {
                Some(c) => Some(Found::Dir(c.into())),
                None if s.is_file(full) => Some(Found::File),
                None => None,
            };
        }
        match self.listing.get(full)? {
            Node::File(_) => Some(Found::File),
            Node::Dir(d) => match self.scratch {
                Some(s) if full == "/" => {
                    let mut children = d.children.clone();
                    let name = path::file_name(s.root()).to_string();
                    let at = children.partition_point(|(n, _)| path::js_cmp(n, &name).is_lt());
                    children.insert(at, (name, true));
                    Some(Found::Dir(children.into()))
                }
                _ => Some(Found::Dir((&d.children[..]).into())),
            },
        }
    }
}

/// How deep a walk goes; just-bash stops at the same depth.
pub(crate) const MAX_DEPTH: usize = 256;

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

/// How GNU grep's walk spells the operand it starts from: without trailing slashes
/// (`/` stays `/`); no operand at all is the working directory, spelled as nothing.
fn grep_base(operand: &str) -> &str {
    match operand.trim_end_matches('/') {
        "" if operand.starts_with('/') => "/",
        trimmed => trimmed,
    }
}

/// The files a recursive grep walk visits from `operand` (`""`: no operand, the working
/// directory), spelled as GNU grep spells them.
pub(crate) fn walk(scope: Scope, cwd: &str, operand: &str, out: &mut Vec<Target>) {
    #[cfg(test)]
    crate::search::tally::bump(|t| t.walks += 1);
    fn go(scope: Scope, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) {
        if depth >= MAX_DEPTH {
            return;
        }
        match scope.get(full) {
            Some(Found::File) => out.push(Target::File { shown: shown.to_string(), path: full.to_string() }),
            Some(Found::Dir(children)) => {
                let base = if depth == 0 { grep_base(shown) } else { shown };
                for (name, _) in byte_ordered(&children).iter() {
                    let child_shown = match base {
                        "" => name.clone(),
                        "/" => format!("/{name}"),
                        b => format!("{b}/{name}"),
                    };
                    let child_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
                    go(scope, &child_full, &child_shown, out, depth + 1);
                }
            }
            None => {}
        }
    }
    let full = path::resolve(cwd, operand);
    match scope.get(&full) {
        None => out.push(Target::Keep(operand.to_string())),
        Some(Found::File) if path::names_dir(operand) => out.push(Target::NotDir(operand.to_string())),
        Some(_) => go(scope, &full, operand, out, 0),
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

/// What rg's walk skips and how deep it goes (`--hidden`, `--max-depth`). Without ignore
/// files (a tree with one is left to just-bash), ripgrep skips hidden names only.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RgWalk {
    pub hidden: bool,
    /// The command has globs or file types, which may select hidden entries.
    pub filtered: bool,
    pub max_depth: usize,
}

impl Default for RgWalk {
    fn default() -> Self {
        RgWalk { hidden: false, filtered: false, max_depth: MAX_DEPTH }
    }
}

/// The files rg's walk visits from `operand`, spelled as ripgrep spells them;
/// `false` when a file's spelling would read as an option if it were named.
pub(crate) fn rg_walk(scope: Scope, cwd: &str, operand: &str, how: RgWalk, out: &mut Vec<Target>) -> bool {
    #[cfg(test)]
    crate::search::tally::bump(|t| t.walks += 1);
    let full = path::resolve(cwd, operand);
    match scope.get(&full) {
        None => {
            out.push(Target::Keep(operand.to_string()));
            true
        }
        Some(Found::File) if path::names_dir(operand) => {
            out.push(Target::NotDir(operand.to_string()));
            true
        }
        Some(Found::File) => {
            out.push(Target::File { shown: operand.to_string(), path: full });
            true
        }
        Some(Found::Dir(_)) => rg_dir(scope, how, &full, operand, out, 0),
    }
}

fn rg_dir(scope: Scope, how: RgWalk, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) -> bool {
    if depth >= how.max_depth {
        return true;
    }
    let Some(Found::Dir(children)) = scope.get(full) else { return true };
    let mut clean = true;
    for (name, is_dir) in byte_ordered(&children).iter() {
        let name = name.as_str();
        // Without --hidden, a hidden entry is visited only when the command's globs or
        // types may still select it (they decide, see `native::rg`).
        if !how.hidden && !how.filtered && name.starts_with('.') {
            continue;
        }
        let child_shown = match shown {
            "" => name.to_string(),
            s if s.ends_with('/') => format!("{s}{name}"),
            s => format!("{s}/{name}"),
        };
        let child_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
        if *is_dir {
            clean &= rg_dir(scope, how, &child_full, &child_shown, out, depth + 1);
        } else {
            // A file spelled like an option would be read as one if named (just-bash's
            // rg spells the files below `.` without it).
            clean &= !(child_shown.starts_with('-') || shown == "." && name.starts_with('-'));
            out.push(Target::File { shown: child_shown, path: child_full });
        }
    }
    clean
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
        walk(Scope { listing: &listing(), scratch: None }, cwd, op, &mut out);
        shown(&out)
    }

    fn rg(cwd: &str, op: &str) -> Vec<String> {
        let mut out = Vec::new();
        assert!(rg_walk(Scope { listing: &listing(), scratch: None }, cwd, op, RgWalk::default(), &mut out));
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
        just_bash::grep_visits(scope, "/", "/", &mut out);
        assert_eq!(shown(&out), ["//a.md", "//docs/b.md", "//docs/node_modules/x.md", "//docs/sub/c.md"]);
        out.clear();
        just_bash::grep_visits(scope, "/docs", "", &mut out);
        assert_eq!(shown(&out), ["b.md", "node_modules/x.md", "sub/c.md"], "no operand is `.`");
        out.clear();
        just_bash::rg_visits(scope, "/", "docs/", &mut out);
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
        walk(scope, "/", "/", &mut out);
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
        assert!(rg_walk(scope, "/tmp", "", RgWalk::default(), &mut out));
        assert_eq!(shown(&out), ["B", "d/x", "hits"]);
        out.clear();
        walk(scope, "/", "/tmp/hits", &mut out);
        walk(scope, "/", "/tmp/nope", &mut out);
        assert_eq!(shown(&out), ["/tmp/hits", "keep:/tmp/nope"], "a file in it is read as any other");
        out.clear();
        just_bash::grep_visits(scope, "/", "/tmp", &mut out);
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
