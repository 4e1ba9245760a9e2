//! The one directory walk: which entries a command visits below a directory, in which
//! order, spelled how.
//!
//! The walks follow the real tools over a directory listed in byte order: grep's (GNU
//! grep's fts) reads dotfiles too and spells a file below operand `/` as `/a.md`, below
//! `.` as `./a.md`, below `dir/` as `dir/a.md`, and below no operand at all as `a.md`;
//! rg skips hidden files (with no ignore files, nothing else), and keeps the operand as
//! typed (`dir//a.md`); find visits every entry, directories too, and keeps its starting
//! point as typed. just-bash's own walks differ: JavaScript's string order, no dotfiles
//! (its rg skips `node_modules` and friends too), `//a.md` below `/` for its grep. Each
//! tool's walk is one [`Policy`]; what it does at each entry is a [`Visitor`]: grep and
//! rg collect files (`search::walk`), find evaluates its expression before or after a
//! directory's entries and may prune the walk or end it (`commands::find`), du adds up
//! sizes as it leaves a directory (`commands::du`).

use crate::base::path;
use crate::fs::scratch::Dirs;
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

/// An entry a walk meets: where it is, how the tool spells it, its name and how many
/// levels below the walk's start it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<'e> {
    pub full: &'e str,
    pub shown: &'e str,
    pub name: &'e str,
    pub depth: usize,
    pub dir: bool,
}

/// What a visitor tells the walk after an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on, below this entry too when it is a directory.
    Go,
    /// Go on, but not below this entry.
    Prune,
    /// Stop the whole walk.
    Quit,
}

/// What a tool does at each entry of its walk.
pub(crate) trait Visitor {
    /// Why the walk stops early (an entry the tool cannot answer for).
    type Stop;
    /// An entry, before a directory's entries.
    fn enter(&mut self, entry: &Entry) -> Result<Flow, Self::Stop>;
    /// An entry once its entries are walked (right after [`Visitor::enter`] for a file, or a
    /// directory at the policy's `max_depth`); not called after `enter` said [`Flow::Prune`]
    /// or [`Flow::Quit`].
    fn leave(&mut self, _entry: &Entry) -> Result<Flow, Self::Stop> {
        Ok(Flow::Go)
    }
}

/// Walks from `entry` with `policy`: the entry itself, then (a directory less than
/// `max_depth` levels down) its entries in the policy's order, spelled as it spells them.
/// [`Flow::Quit`] when the visitor ended the walk.
pub(crate) fn visit<V: Visitor>(scope: Scope, policy: Policy, entry: &Entry, v: &mut V) -> Result<Flow, V::Stop> {
    match v.enter(entry)? {
        Flow::Quit => return Ok(Flow::Quit),
        Flow::Prune => return Ok(Flow::Go),
        Flow::Go => {}
    }
    if entry.dir && entry.depth < policy.max_depth {
        if let Some(Found::Dir(children)) = scope.get(entry.full) {
            let ordered = match policy.order {
                Order::Bytes => byte_ordered(&children),
                Order::JavaScript => js_ordered(&children).into(),
            };
            for (name, dir) in ordered.iter() {
                if policy.skips(name) {
                    continue;
                }
                let full = if entry.full == "/" { format!("/{name}") } else { format!("{}/{name}", entry.full) };
                let shown = policy.child(entry.shown, entry.depth, name);
                let child = Entry { full: &full, shown: &shown, name, depth: entry.depth + 1, dir: *dir };
                if visit(scope, policy, &child, v)? == Flow::Quit {
                    return Ok(Flow::Quit);
                }
            }
        }
    }
    Ok(match v.leave(entry)? {
        Flow::Quit => Flow::Quit,
        _ => Flow::Go,
    })
}

/// How GNU grep's walk spells the operand it starts from: without trailing slashes
/// (`/` stays `/`); no operand at all is the working directory, spelled as nothing.
fn grep_base(operand: &str) -> &str {
    match operand.trim_end_matches('/') {
        "" if operand.starts_with('/') => "/",
        trimmed => trimmed,
    }
}

/// A directory's entries in just-bash's order (JavaScript's string order).
fn js_ordered(children: &[(String, bool)]) -> Vec<(String, bool)> {
    let mut out = children.to_vec();
    crate::base::sort::sort_by(&mut out, |a, b| path::js_cmp(&a.0, &b.0));
    out
}

/// Names just-bash's rg always skips.
const RG_COMMON_IGNORED: &[&str] = &[
    "node_modules",
    ".git",
    ".svn",
    ".hg",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    "venv",
    ".venv",
    ".next",
    ".nuxt",
    ".cargo",
];

/// The order a walk lists a directory's entries in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Byte order, as the real tools read a directory listed in byte order.
    Bytes,
    /// JavaScript's string order, as just-bash reads one.
    JavaScript,
}

/// Which entries a walk passes over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    Nothing,
    /// Names starting with `.`.
    Hidden,
    /// Hidden names, and the folders just-bash's rg always skips (`node_modules`…).
    HiddenAndCommon,
}

/// How a walk spells what it finds below the operand it started from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// GNU grep: the operand without its trailing slashes, then `/NAME` (`/` gives `/a.md`,
    /// no operand gives `a.md`).
    Grep,
    /// ripgrep: the operand as typed, then `NAME` after a slash it ends with, else `/NAME`
    /// (`dir//a.md`).
    Rg,
    /// just-bash's grep: `.` (and no operand) gives `NAME`, anything else `OPERAND/NAME`
    /// (`//a.md` below `/`).
    JustBashGrep,
    /// just-bash's rg: ripgrep's, but `NAME` below `.`.
    JustBashRg,
}

/// What one tool's walk does: its order, what it skips, how it spells a path and how deep
/// it goes. A walk with a policy visits exactly what that tool visits, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Policy {
    pub order: Order,
    pub skip: Skip,
    pub spelling: Spelling,
    /// Directory levels below the operand it reads (rg's `--max-depth`).
    pub max_depth: usize,
}

impl Policy {
    /// GNU grep's recursive walk: every entry, dotfiles too.
    pub(crate) const GREP: Policy =
        Policy { order: Order::Bytes, skip: Skip::Nothing, spelling: Spelling::Grep, max_depth: MAX_DEPTH };
    /// just-bash's grep: no dotfiles.
    pub(crate) const JUST_BASH_GREP: Policy =
        Policy { order: Order::JavaScript, skip: Skip::Hidden, spelling: Spelling::JustBashGrep, max_depth: MAX_DEPTH };
    /// just-bash's rg with its default walk.
    pub(crate) const JUST_BASH_RG: Policy = Policy {
        order: Order::JavaScript,
        skip: Skip::HiddenAndCommon,
        spelling: Spelling::JustBashRg,
        max_depth: MAX_DEPTH,
    };

    /// The walk of find and du (fts, in a directory listed in byte order): every entry, the
    /// starting point as typed then `/NAME` after it (`dir/` gives `dir/a.md`), `max_depth`
    /// levels down (find's `-maxdepth`).
    pub(crate) fn fts(max_depth: usize) -> Policy {
        Policy { order: Order::Bytes, skip: Skip::Nothing, spelling: Spelling::Rg, max_depth }
    }

    /// ripgrep's walk with `--hidden` and `--max-depth`. Without ignore files (a tree with
    /// one is left to just-bash), ripgrep skips hidden names only; with globs or types, a
    /// hidden entry is visited too, for them to decide (see `native::rg`).
    pub(crate) fn rg(how: RgWalk) -> Policy {
        let skip = if how.hidden || how.filtered { Skip::Nothing } else { Skip::Hidden };
        Policy { order: Order::Bytes, skip, spelling: Spelling::Rg, max_depth: how.max_depth }
    }

    pub(crate) fn just_bash(&self) -> bool {
        self.order == Order::JavaScript
    }

    fn skips(&self, name: &str) -> bool {
        match self.skip {
            Skip::Nothing => false,
            Skip::Hidden => name.starts_with('.'),
            Skip::HiddenAndCommon => name.starts_with('.') || RG_COMMON_IGNORED.contains(&name),
        }
    }

    /// How an entry `name` of the directory spelled `shown`, `depth` levels below the
    /// operand, is spelled.
    fn child(&self, shown: &str, depth: usize, name: &str) -> String {
        match self.spelling {
            Spelling::Grep => match if depth == 0 { grep_base(shown) } else { shown } {
                "" => name.to_string(),
                "/" => format!("/{name}"),
                base => format!("{base}/{name}"),
            },
            Spelling::JustBashGrep if shown == "." => name.to_string(),
            Spelling::JustBashGrep => format!("{shown}/{name}"),
            Spelling::JustBashRg if shown == "." => name.to_string(),
            Spelling::Rg | Spelling::JustBashRg => match shown {
                "" => name.to_string(),
                s if s.ends_with('/') => format!("{s}{name}"),
                s => format!("{s}/{name}"),
            },
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::access::Groups;
    use crate::tree::decode::PathTree;

    fn listing() -> Listing {
        let json = r#"{"a.md":{"isPublic":true},"d/b.md":{"isPublic":true},"d/.h.md":{"isPublic":true},
            "d/e/c.md":{"isPublic":true},"z.md":{"isPublic":true}}"#;
        Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap()
    }

    /// Records "+shown" on entering and "-shown" on leaving; prunes and quits where told.
    struct Log {
        seen: Vec<String>,
        prune: &'static str,
        quit: &'static str,
    }

    impl Visitor for Log {
        type Stop = ();
        fn enter(&mut self, e: &Entry) -> Result<Flow, ()> {
            self.seen.push(format!("+{}", e.shown));
            Ok(if e.name == self.quit && !e.name.is_empty() {
                Flow::Quit
            } else if e.name == self.prune && !e.name.is_empty() {
                Flow::Prune
            } else {
                Flow::Go
            })
        }
        fn leave(&mut self, e: &Entry) -> Result<Flow, ()> {
            self.seen.push(format!("-{}", e.shown));
            Ok(Flow::Go)
        }
    }

    fn walked(policy: Policy, start: &str, prune: &'static str, quit: &'static str) -> Vec<String> {
        let l = listing();
        let full = path::resolve("/", start);
        let root = Entry { full: &full, shown: start, name: path::file_name(&full), depth: 0, dir: true };
        let mut log = Log { seen: Vec::new(), prune, quit };
        visit(Scope { listing: &l, scratch: None }, policy, &root, &mut log).unwrap();
        log.seen
    }

    #[test]
    fn a_visitor_sees_each_entry_before_and_after_what_is_below_it() {
        assert_eq!(
            walked(Policy::fts(usize::MAX), "d/", "", ""),
            ["+d/", "+d/.h.md", "-d/.h.md", "+d/b.md", "-d/b.md", "+d/e", "+d/e/c.md", "-d/e/c.md", "-d/e", "-d/"]
        );
        assert_eq!(
            walked(Policy::fts(1), "/d", "", ""),
            ["+/d", "+/d/.h.md", "-/d/.h.md", "+/d/b.md", "-/d/b.md", "+/d/e", "-/d/e", "-/d"],
            "max depth 1"
        );
        assert_eq!(
            walked(Policy::JUST_BASH_GREP, "/d", "", ""),
            ["+/d", "+/d/b.md", "-/d/b.md", "+/d/e", "+/d/e/c.md", "-/d/e/c.md", "-/d/e", "-/d"],
            "no dotfiles"
        );
    }

    #[test]
    fn a_visitor_prunes_a_directory_or_ends_the_walk() {
        let pruned = walked(Policy::fts(usize::MAX), "/", "d", "");
        assert_eq!(pruned, ["+/", "+/a.md", "-/a.md", "+/d", "+/z.md", "-/z.md", "-/"], "nothing below d, d not left");
        let quit = walked(Policy::fts(usize::MAX), "/", "", "b.md");
        assert_eq!(quit, ["+/", "+/a.md", "-/a.md", "+/d", "+/d/.h.md", "-/d/.h.md", "+/d/b.md"], "nothing after b.md");
    }
}
