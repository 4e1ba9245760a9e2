//! What a copy of the docs on tmpfs reports about an entry: the metadata `ls -l`, `find
//! -printf`, `tree -s` and `du` print.
//!
//! A collection has no filesystem, so there is no disk usage, link count or directory
//! size to report; the commands answered here print what the real tools print over a
//! copy of the visible files laid out on tmpfs (what the reference tests compare with):
//! a file takes its size rounded up to 4 KiB blocks, a directory has no blocks, a size
//! of 40 bytes plus 20 an entry, and two links plus one per subdirectory. Files are
//! `rw-r--r--` and directories `rwxr-xr-x`, as `stat` reports them.

use crate::commands::Unsupported;
use crate::tree::listing::Node;

/// The owner and group of every entry: a collection records no owners, and the shell's
/// user is just-bash's `user` (what `ls -l` and `find -ls` print, and what `find -user`
/// and `-group` select).
pub(crate) const OWNER: &str = "user";

/// The user and group id of [`OWNER`] (`ls -n`, `find -uid`, `-gid`, `-printf %U`/`%G`):
/// the first id a Linux system gives to an ordinary user.
pub(crate) const OWNER_ID: u64 = 1000;

/// An entry's metadata, as a tmpfs copy has it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta {
    pub dir: bool,
    /// Bytes (for a directory, tmpfs's 40 + 20 an entry).
    pub size: u64,
    /// KiB allocated: 4 KiB blocks for a file, none for a directory.
    pub kib: u64,
    pub links: u64,
    /// Milliseconds since the epoch.
    pub mtime_ms: f64,
}

impl Meta {
    /// `None` for a file whose size the tree does not record.
    pub(crate) fn of(node: &Node) -> Option<Meta> {
        Some(match node {
            Node::File(f) => {
                let size = f.size?;
                Meta { dir: false, size, kib: size.div_ceil(4096) * 4, links: 1, mtime_ms: f.mtime }
            }
            Node::Dir(d) => {
                let subdirs = d.children.iter().filter(|(_, dir)| *dir).count() as u64;
                let size = 40 + 20 * d.children.len() as u64;
                Meta { dir: true, size, kib: 0, links: 2 + subdirs, mtime_ms: d.mtime }
            }
        })
    }

    /// [`Meta::of`], or why it cannot be answered.
    pub(crate) fn need(node: &Node) -> Result<Meta, Unsupported> {
        Meta::of(node).ok_or_else(|| Unsupported::new("a page whose size the tree does not record"))
    }

    /// `ls -l`'s mode column.
    pub(crate) fn mode(&self) -> &'static str {
        if self.dir {
            "drwxr-xr-x"
        } else {
            "-rw-r--r--"
        }
    }

    /// The octal permissions (`find -printf %m`).
    pub(crate) fn perm(&self) -> u32 {
        if self.dir {
            0o755
        } else {
            0o644
        }
    }

    /// Whole seconds since the epoch and the nanoseconds past them.
    pub(crate) fn mtime_parts(&self) -> (i64, u32) {
        let secs = (self.mtime_ms / 1000.0).floor();
        let nanos = ((self.mtime_ms - secs * 1000.0) * 1_000_000.0).round() as u32;
        (secs as i64, nanos.min(999_999_999))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::listing::{DirNode, FileNode};

    #[test]
    fn entries_look_as_on_tmpfs() {
        let file = Node::File(FileNode { entry: None, size: Some(5000), mtime: 1500.0, ino: 1 });
        let m = Meta::of(&file).unwrap();
        assert_eq!((m.size, m.kib, m.links, m.mode(), m.mtime_parts()), (5000, 8, 1, "-rw-r--r--", (1, 500_000_000)));
        let children = vec![("a.md".to_string(), false), ("sub".to_string(), true)];
        let dir = Node::Dir(DirNode { children, mtime: 0.0, ino: 2 });
        let m = Meta::of(&dir).unwrap();
        assert_eq!((m.size, m.kib, m.links, m.mode()), (80, 0, 3, "drwxr-xr-x"));
        assert!(Meta::of(&Node::File(FileNode { entry: None, size: None, mtime: 0.0, ino: 3 })).is_none());
    }
}
