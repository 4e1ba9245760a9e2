//! A writable scratch directory beside the read-only docs.
//!
//! Agents write intermediate results (`grep … > /tmp/hits; wc -l /tmp/hits`). With the
//! `scratch` option a session gets one top-level directory (`/tmp`) held in its own
//! memory, bounded by `scratchBytes`; everything else stays read-only and the docs keep
//! their paths. Writes fail as a real filesystem's do: a missing parent directory is
//! `ENOENT`, a parent that is a file `ENOTDIR` (bash says so for `echo x > /tmp/no/f`);
//! `mkdir` and `rm` fail as just-bash's `InMemoryFs` does, and `readdir` sorts in
//! JavaScript string order. Past the byte budget a write is `ENOSPC` and changes nothing.
//! The directory itself cannot be removed: it is where the session may write. Its whole
//! content can be saved and restored (`state.rs`), so that a server keeps an agent's
//! `/tmp` from one call to the next.

use crate::base::error::{Errno, FsError};
use crate::base::path;
use crate::fs::stat_info::StatInfo;
use std::collections::HashMap;
use std::rc::Rc;

enum Entry {
    Dir { mode: u32, mtime: f64, ino: u64 },
    File { bytes: Rc<[u8]>, mode: u32, mtime: f64, ino: u64 },
}

/// Inode numbers of scratch entries start here, far above the docs' (and below 2^53, so
/// JavaScript holds them exactly): `ls -R` and `find` tell directories apart by them.
const FIRST_INO: u64 = 1 << 50;

/// The scratch directory's structure at one moment, for a search that walks it beside the
/// docs' listing: each directory's entries (name, is a directory) in byte order.
pub(crate) struct Dirs {
    root: String,
    dirs: HashMap<String, Vec<(String, bool)>>,
}

impl Dirs {
    /// The directory's own path (`/tmp`).
    pub(crate) fn root(&self) -> &str {
        &self.root
    }

    /// Whether a normalised path is the directory or below it.
    pub(crate) fn contains(&self, p: &str) -> bool {
        p == self.root || p.strip_prefix(&self.root).is_some_and(|rest| rest.starts_with('/'))
    }

    /// A directory's entries, or `None` when `p` is not a directory in it.
    pub(crate) fn children(&self, p: &str) -> Option<&[(String, bool)]> {
        self.dirs.get(p).map(Vec::as_slice)
    }

    /// Whether any entry's name and kind satisfy `f`.
    pub(crate) fn any_name(&self, f: impl Fn(&str, bool) -> bool) -> bool {
        self.dirs.values().flatten().any(|(n, d)| f(n, *d))
    }

    /// Whether `p` is a file in it.
    pub(crate) fn is_file(&self, p: &str) -> bool {
        self.contains(p)
            && p != self.root
            && self.children(path::parent(p)).is_some_and(|c| c.iter().any(|(n, d)| !d && n == path::file_name(p)))
    }
}

pub(crate) struct Scratch {
    root: String,
    entries: HashMap<String, Entry>,
    used: u64,
    limit: u64,
    next_ino: u64,
}

impl Scratch {
    /// A scratch directory at `root` (a normalised, top-level path) holding at most
    /// `limit` bytes of file content.
    pub(crate) fn new(root: &str, limit: u64, now: f64) -> Self {
        let mut entries = HashMap::new();
        entries.insert(root.to_string(), Entry::Dir { mode: 0o755, mtime: now, ino: FIRST_INO });
        Scratch { root: root.to_string(), entries, used: 0, limit, next_ino: FIRST_INO + 1 }
    }

    fn ino(&mut self) -> u64 {
        self.next_ino += 1;
        self.next_ino - 1
    }

    /// The root's name, as its parent lists it.
    pub(crate) fn name(&self) -> &str {
        path::file_name(&self.root)
    }

    /// Whether a normalised path is the scratch directory or below it.
    pub(crate) fn contains(&self, p: &str) -> bool {
        p == self.root || p.strip_prefix(&self.root).is_some_and(|rest| rest.starts_with('/'))
    }

    pub(crate) fn exists(&self, p: &str) -> bool {
        self.entries.contains_key(p)
    }

    pub(crate) fn stat(&self, p: &str, shown: &str, syscall: &'static str) -> Result<StatInfo, FsError> {
        match self.entries.get(p) {
            Some(Entry::Dir { mode, mtime, ino }) => {
                Ok(StatInfo { is_file: false, is_dir: true, mode: *mode, size: 0, mtime_ms: *mtime, ino: *ino })
            }
            Some(Entry::File { bytes, mode, mtime, ino }) => Ok(StatInfo {
                is_file: true,
                is_dir: false,
                mode: *mode,
                size: bytes.len() as u64,
                mtime_ms: *mtime,
                ino: *ino,
            }),
            None => Err(FsError::new(Errno::Enoent, syscall, shown)),
        }
    }

    pub(crate) fn read(&self, p: &str, shown: &str) -> Result<Rc<[u8]>, FsError> {
        match self.entries.get(p) {
            Some(Entry::File { bytes, .. }) => Ok(bytes.clone()),
            Some(Entry::Dir { .. }) => Err(FsError::new(Errno::Eisdir, "read", shown)),
            None => Err(FsError::new(Errno::Enoent, "open", shown)),
        }
    }

    /// The names in a directory, with whether each is a directory, in JavaScript order.
    pub(crate) fn readdir(&self, p: &str, shown: &str) -> Result<Vec<(String, bool)>, FsError> {
        match self.entries.get(p) {
            Some(Entry::Dir { .. }) => {}
            Some(Entry::File { .. }) => return Err(FsError::new(Errno::Enotdir, "scandir", shown)),
            None => return Err(FsError::new(Errno::Enoent, "scandir", shown)),
        }
        let prefix = format!("{p}/");
        let mut names: Vec<(String, bool)> = self
            .entries
            .iter()
            .filter(|(k, _)| k.starts_with(&prefix) && !k[prefix.len()..].contains('/'))
            .map(|(k, e)| (k[prefix.len()..].to_string(), matches!(e, Entry::Dir { .. })))
            .collect();
        crate::base::sort::sort_by(&mut names, |a, b| path::js_cmp(&a.0, &b.0));
        Ok(names)
    }

    /// Why opening `p` to write would fail, as `open(2)` says it: `EISDIR` for a
    /// directory, and for a new file a parent that is missing (`ENOENT`) or is a file
    /// (`ENOTDIR`).
    pub(crate) fn write_error(&self, p: &str, shown: &str, syscall: &'static str) -> Result<(), FsError> {
        match self.entries.get(p) {
            Some(Entry::Dir { .. }) => Err(FsError::new(Errno::Eisdir, syscall, shown)),
            Some(Entry::File { .. }) => Ok(()),
            None => self.parent_error(p, shown, "open"),
        }
    }

    /// `ENOENT` when `p`'s parent directory is missing, `ENOTDIR` when a file stands on
    /// the way to it.
    fn parent_error(&self, p: &str, shown: &str, syscall: &'static str) -> Result<(), FsError> {
        let kind = |up: &str| self.entries.get(up).map(|e| matches!(e, Entry::Dir { .. }));
        match path::parent_error(p, kind) {
            None => Ok(()),
            Some(errno) => Err(FsError::new(errno, syscall, shown)),
        }
    }

    /// Writes a file (or appends to it); its parent directory must exist.
    pub(crate) fn write(&mut self, p: &str, shown: &str, data: &[u8], append: bool, now: f64) -> Result<(), FsError> {
        let (old, mode, ino) = match self.entries.get(p) {
            Some(Entry::Dir { .. }) => return Err(FsError::new(Errno::Eisdir, "write", shown)),
            Some(Entry::File { bytes, mode, ino, .. }) => (Some(bytes.clone()), *mode, *ino),
            None => (None, 0o644, 0),
        };
        let old_len = old.as_ref().map_or(0, |b| b.len() as u64);
        let new_len = if append { old_len + data.len() as u64 } else { data.len() as u64 };
        if old.is_none() {
            self.parent_error(p, shown, "open")?;
        }
        self.reserve(old_len, new_len, "write", shown)?;
        let bytes: Rc<[u8]> = match (append, old) {
            (true, Some(old)) => [&old[..], data].concat().into(),
            _ => Rc::from(data),
        };
        self.used = self.used - old_len + new_len;
        let ino = if ino == 0 { self.ino() } else { ino };
        self.entries.insert(p.to_string(), Entry::File { bytes, mode, mtime: now, ino });
        Ok(())
    }

    fn reserve(&self, old_len: u64, new_len: u64, syscall: &'static str, shown: &str) -> Result<(), FsError> {
        if self.used - old_len + new_len > self.limit {
            let why = format!("{} holds at most {} bytes (scratchBytes)", self.root, self.limit);
            return Err(FsError { cause: Some(why), ..FsError::new(Errno::Enospc, syscall, shown) });
        }
        Ok(())
    }

    pub(crate) fn mkdir(&mut self, p: &str, shown: &str, recursive: bool, now: f64) -> Result<(), FsError> {
        match self.entries.get(p) {
            Some(Entry::File { .. }) => return Err(FsError::new(Errno::Eexist, "mkdir", shown)),
            Some(Entry::Dir { .. }) if recursive => return Ok(()),
            Some(Entry::Dir { .. }) => return Err(FsError::new(Errno::Eexist, "mkdir", shown)),
            None => {}
        }
        let parent = path::parent(p);
        if !self.entries.contains_key(parent) {
            if !recursive || !self.contains(parent) {
                return Err(FsError::new(Errno::Enoent, "mkdir", shown));
            }
            self.mkdir(parent, shown, true, now)?;
        }
        if let Some(Entry::File { .. }) = self.entries.get(parent) {
            return Err(FsError::new(Errno::Enotdir, "mkdir", shown));
        }
        let ino = self.ino();
        self.entries.insert(p.to_string(), Entry::Dir { mode: 0o755, mtime: now, ino });
        Ok(())
    }

    pub(crate) fn rm(&mut self, p: &str, shown: &str, recursive: bool, force: bool) -> Result<(), FsError> {
        let Some(entry) = self.entries.get(p) else {
            return if force { Ok(()) } else { Err(FsError::new(Errno::Enoent, "rm", shown)) };
        };
        if matches!(entry, Entry::Dir { .. }) && !self.readdir(p, shown)?.is_empty() && !recursive {
            return Err(FsError::new(Errno::Enotempty, "rm", shown));
        }
        let prefix = format!("{p}/");
        let below: Vec<String> = self.entries.keys().filter(|k| k.starts_with(&prefix)).cloned().collect();
        for k in below {
            self.remove(&k);
        }
        if p == self.root {
            return Err(FsError::new(Errno::Ebusy, "rm", shown));
        }
        self.remove(p);
        Ok(())
    }

    fn remove(&mut self, p: &str) {
        if let Some(Entry::File { bytes, .. }) = self.entries.remove(p) {
            self.used -= bytes.len() as u64;
        }
    }

    /// Moves a file or a directory within the scratch directory.
    pub(crate) fn rename(&mut self, from: &str, to: &str, shown: (&str, &str)) -> Result<(), FsError> {
        if from == to {
            return Ok(());
        }
        if !self.entries.contains_key(from) {
            return Err(FsError::new(Errno::Enoent, "mv", shown.0));
        }
        if from == self.root || to.starts_with(&format!("{from}/")) {
            let why = format!("cannot move '{}' into itself, '{}'", shown.0, shown.1);
            return Err(FsError { cause: Some(why), ..FsError::new(Errno::Einval, "mv", shown.0) });
        }
        if matches!(self.entries.get(to), Some(Entry::Dir { .. })) && !self.readdir(to, shown.1)?.is_empty() {
            return Err(FsError::new(Errno::Enotempty, "mv", shown.1));
        }
        if !self.entries.contains_key(to) {
            self.parent_error(to, shown.1, "mv")?;
        }
        let prefix = format!("{from}/");
        let moved: Vec<String> = std::iter::once(from.to_string())
            .chain(self.entries.keys().filter(|k| k.starts_with(&prefix)).cloned().collect::<Vec<_>>())
            .collect();
        for k in moved {
            let entry = self.entries.remove(&k).expect("listed above");
            let target = format!("{to}{}", &k[from.len()..]);
            if let Some(Entry::File { bytes, .. }) = self.entries.insert(target, entry) {
                self.used -= bytes.len() as u64;
            }
        }
        Ok(())
    }

    pub(crate) fn chmod(&mut self, p: &str, shown: &str, new_mode: u32) -> Result<(), FsError> {
        match self.entries.get_mut(p) {
            Some(Entry::Dir { mode, .. } | Entry::File { mode, .. }) => {
                *mode = new_mode;
                Ok(())
            }
            None => Err(FsError::new(Errno::Enoent, "chmod", shown)),
        }
    }

    pub(crate) fn utimes(&mut self, p: &str, shown: &str, new_mtime: f64) -> Result<(), FsError> {
        match self.entries.get_mut(p) {
            Some(Entry::Dir { mtime, .. } | Entry::File { mtime, .. }) => {
                *mtime = new_mtime;
                Ok(())
            }
            None => Err(FsError::new(Errno::Enoent, "utimes", shown)),
        }
    }

    /// What a search's walk sees of the directory now (see [`Dirs`]).
    pub(crate) fn dirs(&self) -> Dirs {
        let mut dirs: HashMap<String, Vec<(String, bool)>> = HashMap::new();
        for (p, e) in &self.entries {
            if matches!(e, Entry::Dir { .. }) {
                dirs.entry(p.clone()).or_default();
            }
        }
        for (p, e) in &self.entries {
            if p != &self.root {
                let entry = (path::file_name(p).to_string(), matches!(e, Entry::Dir { .. }));
                dirs.entry(path::parent(p).to_string()).or_default().push(entry);
            }
        }
        for children in dirs.values_mut() {
            crate::base::sort::sort_by(children, |a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        }
        Dirs { root: self.root.clone(), dirs }
    }

    /// Every entry as a listing's node, each after its parent (see `Listing::with_extra`).
    pub(crate) fn nodes(&self) -> Vec<(String, crate::tree::listing::Node)> {
        use crate::tree::listing::{DirNode, FileNode, Node};
        self.paths()
            .into_iter()
            .map(|p| {
                let node = match &self.entries[p] {
                    Entry::Dir { mtime, ino, .. } => {
                        Node::Dir(DirNode { children: Vec::new(), mtime: *mtime, ino: *ino })
                    }
                    Entry::File { bytes, mtime, ino, .. } => {
                        Node::File(FileNode { entry: None, size: Some(bytes.len() as u64), mtime: *mtime, ino: *ino })
                    }
                };
                (p.clone(), node)
            })
            .collect()
    }

    /// Every path in the scratch directory, sorted (the root first).
    pub(crate) fn paths(&self) -> Vec<&String> {
        let mut paths: Vec<&String> = self.entries.keys().collect();
        crate::base::sort::sort(&mut paths);
        paths
    }

    #[cfg(test)]
    /// Bytes of file content held.
    pub(crate) fn used(&self) -> u64 {
        self.used
    }
}

mod state;

#[cfg(test)]
mod tests;
