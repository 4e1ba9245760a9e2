//! Writes. The session's scratch directory takes them; `/dev/null` swallows them; the
//! docs are read-only (`EROFS`), whatever the command. A copy may read from the docs
//! into the scratch directory; a move may not take a page out of them.

use super::dev_fd::DevFd;
use super::{check_path, Filesystem, DEV_NULL};
use crate::base::error::{Errno, FsError};
use crate::base::path;
use crate::tree::listing::Node;

fn read_only(syscall: &'static str, p: &str) -> FsError {
    FsError::new(Errno::Erofs, syscall, p)
}

impl Filesystem {
    /// `writeFile` (or `appendFile` with `append`).
    pub(crate) fn write(&self, p: &str, data: &[u8], append: bool) -> Result<(), FsError> {
        let syscall = if append { "append" } else { "write" };
        let norm = check_path(p, syscall).map_err(|_| read_only(syscall, p))?;
        if norm == DEV_NULL {
            return Ok(());
        }
        if DevFd::holds(&norm) {
            return self.dev_fd.borrow_mut().write(&norm, data, append);
        }
        match self.scratch_for(&norm) {
            Some(s) => s.borrow_mut().write(&norm, p, data, append, self.now_ms()),
            None => Err(self.docs_write_error(&norm, p, syscall)),
        }
    }

    /// Why opening `p` to write would fail, as `open(2)` would say it (`Ok` when it would
    /// open): what a shell checks before it runs a command whose output is redirected.
    pub(crate) fn write_error(&self, p: &str) -> Result<(), FsError> {
        let norm = check_path(p, "open")?;
        if norm == DEV_NULL || DevFd::holds(&norm) {
            return Ok(());
        }
        match self.scratch_for(&norm) {
            Some(s) => s.borrow().write_error(&norm, p, "open"),
            None => Err(self.docs_write_error(&norm, p, "open")),
        }
    }

    /// A write into the docs: `EROFS`, once the path's parent is a directory of the docs
    /// (a missing parent is `ENOENT` and a file on the way `ENOTDIR`, as path lookup
    /// fails before the filesystem is asked to write); a directory is `EISDIR`.
    fn docs_write_error(&self, norm: &str, p: &str, syscall: &'static str) -> FsError {
        if let Some(Node::Dir(_)) = self.listing.get(norm) {
            return FsError::new(Errno::Eisdir, syscall, p);
        }
        if self.listing.get(norm).is_some() {
            return read_only(syscall, p);
        }
        let kind = |up: &str| self.listing.get(up).map(|n| matches!(n, Node::Dir(_)));
        match path::parent_error(norm, kind) {
            None => read_only(syscall, p),
            Some(errno) => FsError::new(errno, syscall, p),
        }
    }

    pub(crate) fn mkdir(&self, p: &str, recursive: bool) -> Result<(), FsError> {
        let norm = check_path(p, "mkdir").map_err(|_| read_only("mkdir", p))?;
        let s = self.scratch_for(&norm).ok_or_else(|| read_only("mkdir", p))?;
        s.borrow_mut().mkdir(&norm, p, recursive, self.now_ms())
    }

    pub(crate) fn rm(&self, p: &str, recursive: bool, force: bool) -> Result<(), FsError> {
        let norm = check_path(p, "rm").map_err(|_| read_only("rm", p))?;
        if DevFd::holds(&norm) && (self.dev_fd.borrow_mut().remove(&norm) || force) {
            return Ok(());
        }
        let s = self.scratch_for(&norm).ok_or_else(|| read_only("rm", p))?;
        s.borrow_mut().rm(&norm, p, recursive, force)
    }

    pub(crate) fn mv(&self, src: &str, dest: &str) -> Result<(), FsError> {
        let (from, to) = (path::normalize(src), path::normalize(dest));
        match (self.scratch_for(&from), self.scratch_for(&to)) {
            (Some(s), Some(_)) => s.borrow_mut().rename(&from, &to, (src, dest)),
            (_, None) => Err(read_only("mv", dest)),
            (None, Some(_)) => Err(read_only("mv", src)),
        }
    }

    pub(crate) fn chmod(&self, p: &str, mode: u32) -> Result<(), FsError> {
        let norm = path::normalize(p);
        let s = self.scratch_for(&norm).ok_or_else(|| read_only("chmod", p))?;
        s.borrow_mut().chmod(&norm, p, mode)
    }

    pub(crate) fn utimes(&self, p: &str, mtime_ms: f64) -> Result<(), FsError> {
        let norm = path::normalize(p);
        let s = self.scratch_for(&norm).ok_or_else(|| read_only("utimes", p))?;
        s.borrow_mut().utimes(&norm, p, mtime_ms)
    }

    /// `cp`: from anywhere this session can read into the scratch directory. Pages are
    /// read as `cat` reads them (and a failed read is the copy's error).
    pub(crate) async fn cp(&self, src: &str, dest: &str, recursive: bool) -> Result<(), FsError> {
        let to = path::normalize(dest);
        if self.scratch_for(&to).is_none() {
            return Err(read_only("cp", dest));
        }
        let from = check_path(src, "cp")?;
        if to == from || to.starts_with(&format!("{from}/")) && self.is_dir(&from) {
            let why = format!("cannot copy '{src}' into itself, '{dest}'");
            return Err(FsError { cause: Some(why), ..FsError::new(Errno::Einval, "cp", src) });
        }
        let mut todo = vec![(from, to)];
        while let Some((from, to)) = todo.pop() {
            if !self.is_dir(&from) {
                let bytes = self.read(&from).await.map_err(|e| {
                    if e.errno == Errno::Enoent {
                        FsError::new(Errno::Enoent, "cp", src)
                    } else {
                        e
                    }
                })?;
                self.write(&to, &bytes, false)?;
                continue;
            }
            if !recursive {
                let why = "is a directory".to_string();
                return Err(FsError { cause: Some(why), ..FsError::new(Errno::Eisdir, "cp", src) });
            }
            self.mkdir(&to, true)?;
            for (name, _) in self.readdir(&from)?.iter().rev() {
                todo.push((path::resolve(&from, name), path::resolve(&to, name)));
            }
        }
        Ok(())
    }

    fn is_dir(&self, norm: &str) -> bool {
        match self.scratch_for(norm) {
            Some(s) => s.borrow().stat(norm, norm, "stat").is_ok_and(|st| st.is_dir),
            None => matches!(self.listing.get(norm), Some(Node::Dir(_))),
        }
    }
}
