//! `tree --fromfile`: each operand names a file listing paths, one a line (`.` is standard
//! input), and tree draws them as the tree they make below the operand's name, as tree
//! 2.1 does: empty lines and empty components skipped (so a leading `/` is dropped), a
//! path that another continues is a directory, names that start with `.` are listed too,
//! and the operand counts as a directory, with nothing in it or not. Each line says again
//! whether its last name is a directory (a path through it, or a trailing `/`) or not,
//! which is all `-F` reads: a directory last named without `/` gets no `/`. The paths are a
//! [`Listing`] of their own, walked as a directory would be. A list with a `.` or `..`
//! component, or a directory named (`dir/`) with nothing below it, is left to just-bash.

use crate::commands::Unsupported;
use crate::tree::access::Groups;
use crate::tree::decode::PathTree;
use crate::tree::listing::Listing;
use std::collections::{BTreeMap, BTreeSet};

/// The listing the lines of `text` make, and the directories in it last named as files.
pub(super) fn listing_of(text: &str) -> Result<(Listing, BTreeSet<String>), Unsupported> {
    let no = |why: &str| Unsupported::new(format!("tree --fromfile with {why}"));
    let (mut paths, mut dirs, mut named_dirs) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    // Whether each path was last named as a directory.
    let mut marked: BTreeMap<String, bool> = BTreeMap::new();
    for line in text.split('\n') {
        let parts: Vec<&str> = line.split('/').filter(|p| !p.is_empty()).collect();
        if parts.is_empty() {
            continue;
        }
        if parts.iter().any(|p| *p == "." || *p == "..") {
            return Err(no("a `.` or `..` component"));
        }
        for k in 1..parts.len() {
            dirs.insert(parts[..k].join("/"));
            marked.insert(parts[..k].join("/"), true);
        }
        let path = parts.join("/");
        if line.ends_with('/') {
            named_dirs.insert(path.clone());
        }
        marked.insert(path.clone(), line.ends_with('/'));
        paths.insert(path);
    }
    // Sets and maps here are filled by insertion: collecting one sorts its items first, a
    // compiled sort of its own.
    let mut unmarked = BTreeSet::new();
    for d in dirs.iter().filter(|d| marked.get(*d) == Some(&false)) {
        unmarked.insert(format!("/{d}"));
    }
    if named_dirs.iter().any(|d| !dirs.contains(d)) {
        return Err(no("a directory holding nothing"));
    }
    let mut files = serde_json::Map::new();
    for p in paths.into_iter().filter(|p| !dirs.contains(p)) {
        files.insert(p, serde_json::json!({ "isPublic": true }));
    }
    let json = serde_json::Value::Object(files).to_string();
    let tree = PathTree::from_json(&json, None).map_err(|_| no("names a tree cannot hold"))?;
    let listing = Listing::new(&tree, &Groups::default(), None, &[]).map_err(|_| no("names a tree cannot hold"))?;
    Ok((listing, unmarked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::listing::Node;

    #[test]
    fn lines_make_a_tree() {
        let (l, unmarked) = listing_of("a/b/c.md\n\n/a/d.md\n.hid/x\na\n").unwrap();
        assert_eq!(unmarked.into_iter().collect::<Vec<_>>(), ["/a"], "a directory last named as a file");
        assert!(matches!(l.get("/a"), Some(Node::Dir(_))), "a path another continues is a directory");
        assert!(matches!(l.get("/a/b/c.md"), Some(Node::File(_))));
        assert!(matches!(l.get("/.hid/x"), Some(Node::File(_))));
        assert!(listing_of("./r\n").is_err());
        assert!(listing_of("b/\n").is_err(), "an empty directory");
        assert!(listing_of("b/\nb/c\n").is_ok());
    }
}
