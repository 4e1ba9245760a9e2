//! A session's listing: the part of the path tree its groups may see, indexed by path.
//!
//! Everything the shell asks about structure — `stat`, `readdir`, `exists`, `realpath`,
//! the walks of `find` and `grep -r` — is answered from this index with no network at
//! all. It holds only visible pages and the directories above them, so a hidden page is
//! not a special case anywhere downstream: it is simply absent, and a directory whose
//! pages are all hidden does not exist. Children are sorted as just-bash sorts them
//! (JavaScript string order) and every node has a unique `ino`.

use crate::base::hash::PathMap;
use crate::base::path;
use crate::tree::access::Groups;
use crate::tree::decode::{PathTree, TreeError};
use crate::tree::versions;

/// A file in a session's view.
#[derive(Debug, Clone)]
pub(crate) struct FileNode {
    /// Index into [`PathTree::entries`]; `None` for a host-supplied lazy file.
    pub entry: Option<usize>,
    pub size: Option<u64>,
    pub mtime: f64,
    pub ino: u64,
}

/// A directory in a session's view. It exists because a visible file lies below it.
#[derive(Debug, Clone, Default)]
pub(crate) struct DirNode {
    /// Sorted as just-bash sorts (JavaScript string order).
    pub children: Vec<(String, bool)>,
    /// The newest mtime below it.
    pub mtime: f64,
    pub ino: u64,
}

#[derive(Debug, Clone)]
pub(crate) enum Node {
    File(FileNode),
    Dir(DirNode),
}

impl Node {
    pub(crate) fn ino(&self) -> u64 {
        match self {
            Node::File(f) => f.ino,
            Node::Dir(d) => d.ino,
        }
    }
    #[cfg(test)]
    pub(crate) fn mtime(&self) -> f64 {
        match self {
            Node::File(f) => f.mtime,
            Node::Dir(d) => d.mtime,
        }
    }
}

/// One session's directory index over its visible pages.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listing {
    nodes: PathMap<String, Node>,
    files: usize,
    /// Pages of the tree this session may not see.
    hidden: usize,
    /// Pages it may see that belong to another version than the one it is scoped to.
    other_versions: usize,
}

impl Listing {
    /// The pages of `tree` that `groups` may see, of `version` and of none when one is given
    /// (see [`versions`]), indexed for the filesystem. `extra_files` are paths the host adds
    /// for this session (lazy files); they may not turn a directory into a file.
    pub(crate) fn new(
        tree: &PathTree,
        groups: &Groups,
        version: Option<&str>,
        extra_files: &[String],
    ) -> Result<Listing, TreeError> {
        let mut listing = Listing::default();
        listing.nodes.insert("/".to_string(), Node::Dir(DirNode::default()));
        listing.nodes.reserve(tree.entries.len() * 2);
        for (i, e) in tree.entries.iter().enumerate() {
            if !groups.can_see(&e.access) {
                listing.hidden += 1;
            } else if !versions::shows(e.version.as_deref(), version) {
                listing.other_versions += 1;
            } else {
                listing.add_file(
                    &e.path,
                    FileNode { entry: Some(i), size: e.size, mtime: e.mtime.unwrap_or(0.0), ino: 0 },
                )?;
            }
        }
        // Entries no listing holds are hidden from every session: their chunks may still be
        // in Chroma, and what a search costs must not depend on them.
        listing.hidden += tree.set_aside.len();
        for p in extra_files {
            let p = path::normalize(p);
            match listing.nodes.get_mut(&p) {
                // The host's file replaces the page: its size is whatever the host serves.
                Some(Node::File(f)) => *f = FileNode { entry: None, size: None, ..*f },
                Some(Node::Dir(_)) => return Err(TreeError::entry(&p, "a lazy file cannot replace a directory")),
                None => listing.add_file(&p, FileNode { entry: None, size: None, mtime: 0.0, ino: 0 })?,
            }
        }
        listing.finish();
        Ok(listing)
    }

    fn add_file(&mut self, file: &str, node: FileNode) -> Result<(), TreeError> {
        let mtime = node.mtime;
        if self.nodes.contains_key(file) {
            return Err(TreeError::entry(file, "listed twice"));
        }
        // Until `finish`, `ino` holds the order nodes were added in.
        let added = self.nodes.len() as u64;
        self.nodes.insert(file.to_string(), Node::File(FileNode { ino: added, ..node }));
        self.files += 1;
        // Walk up to `/` (every ancestor is a prefix of `file`), creating directories and
        // registering each new node in its parent.
        let (mut child, mut is_new, mut is_dir) = (file, true, false);
        while child != "/" {
            let dir = path::parent(child);
            let name = || path::file_name(child).to_string();
            let created = match self.nodes.get_mut(dir) {
                Some(Node::Dir(d)) => {
                    if !is_new && d.mtime >= mtime {
                        // A directory's mtime is the newest below it: those above are
                        // as new already, and they list this one.
                        break;
                    }
                    d.mtime = d.mtime.max(mtime);
                    if is_new {
                        d.children.push((name(), is_dir));
                    }
                    false
                }
                Some(Node::File(_)) => return Err(TreeError::entry(file, format!("lies below the file {dir}"))),
                None => {
                    let d = DirNode { children: vec![(name(), is_dir)], mtime, ino: self.nodes.len() as u64 };
                    self.nodes.insert(dir.to_string(), Node::Dir(d));
                    true
                }
            };
            (child, is_new, is_dir) = (dir, created, true);
        }
        Ok(())
    }

    /// Sorts children and numbers every node, so `ino` is unique per path. Numbers follow
    /// the order nodes were added (the tree's sorted order), so a tree always numbers
    /// the same way.
    fn finish(&mut self) {
        let mut order: Vec<(u64, &mut Node)> = Vec::with_capacity(self.nodes.len());
        for node in self.nodes.values_mut() {
            if let Node::Dir(d) = node {
                crate::base::sort::sort_by(&mut d.children, |a, b| path::js_cmp(&a.0, &b.0));
            }
            order.push((node.ino(), node));
        }
        crate::base::sort::sort_by_key(&mut order, |(added, _)| *added);
        for (i, (_, node)) in order.into_iter().enumerate() {
            match node {
                Node::File(f) => f.ino = i as u64 + 1,
                Node::Dir(d) => d.ino = i as u64 + 1,
            }
        }
    }

    /// This listing with `extra` nodes beside its own (paths not in it, each after its
    /// parent directory; a directory's children are filled in here): what a command that
    /// lists the session's scratch directory beside the docs walks.
    pub(crate) fn with_extra(&self, extra: Vec<(String, Node)>) -> Listing {
        let mut listing = Listing { nodes: self.nodes.clone(), files: self.files, ..*self };
        let mut touched = Vec::new();
        for (p, node) in extra {
            let is_dir = matches!(node, Node::Dir(_));
            if listing.nodes.contains_key(&p) {
                continue;
            }
            if let Some(Node::Dir(d)) = listing.nodes.get_mut(path::parent(&p)) {
                d.children.push((path::file_name(&p).to_string(), is_dir));
                touched.push(path::parent(&p).to_string());
            } else {
                continue;
            }
            listing.files += usize::from(!is_dir);
            listing.nodes.insert(p, node);
        }
        for dir in touched {
            if let Some(Node::Dir(d)) = listing.nodes.get_mut(&dir) {
                crate::base::sort::sort_by(&mut d.children, |a, b| path::js_cmp(&a.0, &b.0));
                d.children.dedup();
            }
        }
        listing
    }

    /// The node at a normalised path.
    pub(crate) fn get(&self, path: &str) -> Option<&Node> {
        self.nodes.get(path)
    }

    /// Every visible path, directories included, sorted.
    pub(crate) fn all_paths(&self) -> Vec<String> {
        let mut v: Vec<String> = self.nodes.keys().cloned().collect();
        crate::base::sort::sort_by(&mut v, |a, b| path::js_cmp(a, b));
        v
    }

    /// Whether any visible path satisfies `f` (no allocation, no sorting).
    pub(crate) fn any_path(&self, f: impl Fn(&str) -> bool) -> bool {
        self.nodes.keys().any(|p| f(p))
    }

    /// Every visible file with its path, in no order.
    pub(crate) fn files(&self) -> impl Iterator<Item = (&str, &FileNode)> {
        self.nodes.iter().filter_map(|(p, n)| match n {
            Node::File(f) => Some((p.as_str(), f)),
            Node::Dir(_) => None,
        })
    }

    /// The number of visible files.
    pub(crate) fn file_count(&self) -> usize {
        self.files
    }

    /// Whether the tree holds pages this session may not see. Never shown: it decides only
    /// how a search may ask Chroma (see `search::runner`).
    /// Pages of another version are not hidden: their text is no secret.
    pub(crate) fn has_hidden_pages(&self) -> bool {
        self.hidden > 0
    }

    /// Whether pages the session may see are left out for belonging to another version: a
    /// search that asks Chroma for chunks then finds some it drops.
    pub(crate) fn leaves_out_versions(&self) -> bool {
        self.other_versions > 0
    }

    /// Visible files at or below `dir`, sorted.
    pub(crate) fn files_under(&self, dir: &str) -> Vec<String> {
        let prefix = if dir == "/" { "/".to_string() } else { format!("{dir}/") };
        let mut v: Vec<String> = self
            .nodes
            .iter()
            .filter(|(p, n)| matches!(n, Node::File(_)) && (p.starts_with(&prefix) || p.as_str() == dir))
            .map(|(p, _)| p.clone())
            .collect();
        crate::base::sort::sort_by(&mut v, |a, b| path::js_cmp(a, b));
        v
    }
}

/// A directory's children in byte order (the listing keeps JavaScript's order, which
/// differs only where characters above U+FFFF meet U+E000..=U+FFFF).
pub(crate) fn byte_ordered(children: &[(String, bool)]) -> std::borrow::Cow<'_, [(String, bool)]> {
    if children.iter().all(|(n, _)| !n.bytes().any(|b| b >= 0xF0)) {
        return std::borrow::Cow::Borrowed(children);
    }
    let mut sorted = children.to_vec();
    crate::base::sort::sort_by(&mut sorted, |a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    std::borrow::Cow::Owned(sorted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    use crate::tree::decode::tests::SAMPLE;

    fn view(groups: &[&str], extra: &[&str]) -> Result<Listing, TreeError> {
        let tree = PathTree::from_json(SAMPLE, None).unwrap();
        let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        Listing::new(&tree, &Groups::new(groups.iter().copied()), None, &extra)
    }

    fn names(l: &Listing, dir: &str) -> Vec<String> {
        match l.get(dir) {
            Some(Node::Dir(d)) => {
                d.children.iter().map(|(n, is_dir)| format!("{n}{}", if *is_dir { "/" } else { "" })).collect()
            }
            _ => panic!("{dir} is not a directory"),
        }
    }

    #[test]
    fn public_view_hides_private_pages_and_their_directories() {
        let l = view(&[], &[]).unwrap();
        assert_eq!(names(&l, "/"), vec!["api-specs/", "auth/", "index.mdx"]);
        assert!(l.get("/internal").is_none());
        assert!(l.get("/internal/billing.mdx").is_none());
        assert!(l.get("/draft.mdx").is_none(), "missing isPublic must mean private");
        assert_eq!(l.file_count(), 3);
    }

    #[test]
    fn group_views() {
        let billing = view(&["billing"], &[]).unwrap();
        assert_eq!(names(&billing, "/internal"), vec!["billing.mdx"]);
        let admin = view(&["admin"], &[]).unwrap();
        assert_eq!(names(&admin, "/internal"), vec!["admin/", "billing.mdx"]);
        assert_eq!(names(&admin, "/internal/admin"), vec!["keys.mdx"]);
        assert_eq!(admin.get("/internal").unwrap().mtime(), 1700000000000.0);
        assert_eq!(admin.get("/").unwrap().mtime(), 1700000000000.0);
    }

    #[test]
    fn inodes_are_unique() {
        let l = view(&["admin"], &[]).unwrap();
        let paths = l.all_paths();
        let inos: HashSet<u64> = paths.iter().map(|p| l.get(p).unwrap().ino()).collect();
        assert_eq!(inos.len(), paths.len());
        assert!(!inos.contains(&0));
    }

    #[test]
    fn files_under_a_directory() {
        let l = view(&["admin"], &[]).unwrap();
        assert_eq!(l.files_under("/internal"), vec!["/internal/admin/keys.mdx", "/internal/billing.mdx"]);
        assert_eq!(l.files_under("/index.mdx"), vec!["/index.mdx"]);
        assert_eq!(l.files_under("/").len(), 5);
    }

    #[test]
    fn lazy_extra_files() {
        let l = view(&[], &["/specs/openapi.json", "/index.mdx"]).unwrap();
        assert!(matches!(l.get("/specs/openapi.json"), Some(Node::File(f)) if f.entry.is_none()));
        assert_eq!(l.file_count(), 4);
        assert!(view(&[], &["/auth"]).is_err());
        assert!(view(&[], &["/index.mdx/x"]).is_err());
    }
}
