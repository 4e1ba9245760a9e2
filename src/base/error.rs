//! Errors, shaped like Node's `fs` errors.
//!
//! just-bash never reads `error.code`, but several commands substring-match the message
//! (`ENOENT`, `no such file`, `EROFS`…) and some print it verbatim, so the message text
//! follows Node's convention exactly: `CODE: description, syscall 'path'`. Database and
//! network failures are `EIO` and carry their cause, so an agent (or a person reading a
//! log) can tell a missing page from a server that is down.

use std::fmt;

/// The error numbers this filesystem can produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Errno {
    /// The path does not exist, or is invisible to this session (the two are indistinguishable).
    Enoent,
    /// A read was attempted on a directory.
    Eisdir,
    /// A directory operation was attempted on a file.
    Enotdir,
    /// Every write: the filesystem is read-only.
    Erofs,
    /// `readlink` on something that is not a symlink (there are none).
    Einval,
    /// The database, a lazy file's server or the stored data failed.
    Eio,
    /// The scratch directory: the path exists already.
    Eexist,
    /// The scratch directory: a directory that is not empty.
    Enotempty,
    /// The scratch directory is full (`scratchBytes`).
    Enospc,
    /// The scratch directory itself cannot be removed.
    Ebusy,
}

impl Errno {
    pub(crate) fn code(self) -> &'static str {
        match self {
            Errno::Enoent => "ENOENT",
            Errno::Eisdir => "EISDIR",
            Errno::Enotdir => "ENOTDIR",
            Errno::Erofs => "EROFS",
            Errno::Einval => "EINVAL",
            Errno::Eio => "EIO",
            Errno::Eexist => "EEXIST",
            Errno::Enotempty => "ENOTEMPTY",
            Errno::Enospc => "ENOSPC",
            Errno::Ebusy => "EBUSY",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Errno::Enoent => "no such file or directory",
            Errno::Eisdir => "illegal operation on a directory",
            Errno::Enotdir => "not a directory",
            Errno::Erofs => "read-only file system",
            Errno::Einval => "invalid argument",
            Errno::Eio => "i/o error",
            Errno::Eexist => "file already exists",
            Errno::Enotempty => "directory not empty",
            Errno::Enospc => "no space left on device",
            Errno::Ebusy => "resource busy or locked",
        }
    }
}

/// A failed filesystem call: what went wrong, in which call, on which path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FsError {
    pub errno: Errno,
    pub syscall: &'static str,
    pub path: String,
    /// The underlying cause, for `EIO`.
    pub cause: Option<String>,
}

impl FsError {
    pub(crate) fn new(errno: Errno, syscall: &'static str, path: &str) -> Self {
        FsError { errno, syscall, path: path.to_string(), cause: None }
    }

    pub(crate) fn io(syscall: &'static str, path: &str, cause: impl fmt::Display) -> Self {
        FsError { errno: Errno::Eio, syscall, path: path.to_string(), cause: Some(cause.to_string()) }
    }

    pub(crate) fn code(&self) -> &'static str {
        self.errno.code()
    }
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}, {} '{}'", self.errno.code(), self.errno.description(), self.syscall, self.path)?;
        if let Some(cause) = &self.cause {
            write!(f, ": {cause}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_follow_node() {
        assert_eq!(
            FsError::new(Errno::Enoent, "open", "/x").to_string(),
            "ENOENT: no such file or directory, open '/x'"
        );
        assert_eq!(
            FsError::new(Errno::Eisdir, "read", "/d").to_string(),
            "EISDIR: illegal operation on a directory, read '/d'"
        );
        assert_eq!(FsError::new(Errno::Erofs, "write", "/a").to_string(), "EROFS: read-only file system, write '/a'");
        assert_eq!(
            FsError::io("open", "/a.md", "Chroma answered 500: boom").to_string(),
            "EIO: i/o error, open '/a.md': Chroma answered 500: boom"
        );
    }
}
