//! `/dev/fd`: where just-bash puts what a process substitution (`<(cmd)`, `>(cmd)`) gives
//! or takes, as a file the command reads. The session holds those files in its memory,
//! bounded as its scratch directory is (`scratchBytes`), so that a line with one goes on
//! running on this filesystem: otherwise just-bash mounts a filesystem of its own around
//! this one for the rest of the line, and the commands after it are no longer answered here.

use crate::base::error::{Errno, FsError};
use std::collections::HashMap;
use std::rc::Rc;

pub(crate) struct DevFd {
    files: HashMap<String, Rc<[u8]>>,
    used: u64,
    limit: u64,
}

impl DevFd {
    pub(crate) fn new(limit: u64) -> Self {
        DevFd { files: HashMap::new(), used: 0, limit }
    }

    /// Whether a normalised path is a descriptor's file (`/dev/fd/63`).
    pub(crate) fn holds(p: &str) -> bool {
        p.strip_prefix("/dev/fd/").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    }

    pub(crate) fn get(&self, p: &str) -> Option<Rc<[u8]>> {
        self.files.get(p).cloned()
    }

    pub(crate) fn write(&mut self, p: &str, data: &[u8], append: bool) -> Result<(), FsError> {
        let old = self.files.get(p).cloned();
        let old_len = old.as_ref().map_or(0, |b| b.len() as u64);
        let new_len = if append { old_len + data.len() as u64 } else { data.len() as u64 };
        if self.used - old_len + new_len > self.limit {
            let why = format!("/dev/fd holds at most {} bytes (scratchBytes)", self.limit);
            return Err(FsError { cause: Some(why), ..FsError::new(Errno::Enospc, "write", p) });
        }
        let bytes: Rc<[u8]> = match (append, old) {
            (true, Some(old)) => [&old[..], data].concat().into(),
            _ => Rc::from(data),
        };
        self.used = self.used - old_len + new_len;
        self.files.insert(p.to_string(), bytes);
        Ok(())
    }

    /// Drops every file (a server's session moves on to another caller).
    pub(crate) fn clear(&mut self) {
        self.files.clear();
        self.used = 0;
    }

    pub(crate) fn remove(&mut self, p: &str) -> bool {
        match self.files.remove(p) {
            Some(b) => {
                self.used -= b.len() as u64;
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_hold_bytes_within_the_budget() {
        let mut d = DevFd::new(8);
        assert!(
            DevFd::holds("/dev/fd/63")
                && !DevFd::holds("/dev/fd/")
                && !DevFd::holds("/dev/fd/x")
                && !DevFd::holds("/dev/null")
        );
        d.write("/dev/fd/63", b"abc", false).unwrap();
        d.write("/dev/fd/63", b"de", true).unwrap();
        assert_eq!(&*d.get("/dev/fd/63").unwrap(), b"abcde");
        let e = d.write("/dev/fd/62", b"xyzw", false).unwrap_err().to_string();
        assert_eq!(
            e,
            "ENOSPC: no space left on device, write '/dev/fd/62': /dev/fd holds at most 8 bytes (scratchBytes)"
        );
        assert!(d.remove("/dev/fd/63") && !d.remove("/dev/fd/63"));
        d.write("/dev/fd/62", b"12345678", false).unwrap();
    }
}
