//! A scratch directory's whole content as bytes, and back: what a server keeps of an
//! agent's `/tmp` between its calls, while the session that ran the call serves others.
//!
//! The bytes name paths relative to the directory's root, so they read back under any
//! root. They are checked entry by entry when read back: a state that is not one this
//! module wrote, or that holds more than the directory may (`scratchBytes`), is refused
//! whole and changes nothing.
//!
//! Layout (little-endian): `CFS1`, then per entry: kind (0 directory, 1 file), mode
//! (u32), mtime (f64), the relative path's length (u32) and UTF-8 bytes, and for a file
//! its length (u32) and bytes. The root comes first, with an empty path; every other
//! entry comes after its parent.

use super::{Entry, Scratch, FIRST_INO};
use crate::base::error::{Errno, FsError};
use std::collections::HashMap;
use std::rc::Rc;

const MAGIC: &[u8; 4] = b"CFS1";

impl Scratch {
    /// The directory's content, as `restore` reads it.
    pub(crate) fn save(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.used as usize + 64 * self.entries.len() + 4);
        out.extend_from_slice(MAGIC);
        for p in self.paths() {
            let rel = p.strip_prefix(&self.root).unwrap_or("").trim_start_matches('/');
            let (kind, mode, mtime, bytes) = match &self.entries[p] {
                Entry::Dir { mode, mtime, .. } => (0u8, *mode, *mtime, None),
                Entry::File { bytes, mode, mtime, .. } => (1u8, *mode, *mtime, Some(bytes)),
            };
            out.push(kind);
            out.extend_from_slice(&mode.to_le_bytes());
            out.extend_from_slice(&mtime.to_le_bytes());
            out.extend_from_slice(&(rel.len() as u32).to_le_bytes());
            out.extend_from_slice(rel.as_bytes());
            if let Some(b) = bytes {
                out.extend_from_slice(&(b.len() as u32).to_le_bytes());
                out.extend_from_slice(b);
            }
        }
        out
    }

    /// Replaces the directory's content with a saved one (`None`: empty, as a new session's).
    pub(crate) fn restore(&mut self, saved: Option<&[u8]>, now: f64) -> Result<(), FsError> {
        let Some(saved) = saved else {
            *self = Scratch::new(&self.root, self.limit, now);
            return Ok(());
        };
        let (entries, used) = read(saved, &self.root, self.limit)?;
        let next_ino = FIRST_INO + entries.len() as u64;
        self.entries = entries;
        self.used = used;
        self.next_ino = next_ino;
        Ok(())
    }
}

fn invalid(why: &str) -> FsError {
    FsError { cause: Some(format!("saved scratch state: {why}")), ..FsError::new(Errno::Einval, "restore", "scratch") }
}

/// Reads a saved state for a directory at `root` holding at most `limit` bytes.
fn read(saved: &[u8], root: &str, limit: u64) -> Result<(HashMap<String, Entry>, u64), FsError> {
    let mut r = Reader { bytes: saved, at: 0 };
    if r.take(4)? != MAGIC {
        return Err(invalid("not a state this version wrote"));
    }
    let mut entries = HashMap::new();
    let mut used = 0u64;
    let mut ino = FIRST_INO;
    while r.at < saved.len() {
        let kind = r.take(1)?[0];
        let mode = u32::from_le_bytes(r.take(4)?.try_into().expect("4 bytes")) & 0o7777;
        let mtime = f64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        let len = r.len()?;
        let rel = std::str::from_utf8(r.take(len)?).map_err(|_| invalid("a path is not UTF-8"))?;
        let p = if rel.is_empty() { root.to_string() } else { format!("{root}/{rel}") };
        let good = rel.split('/').all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\0'));
        if !(rel.is_empty() && entries.is_empty() || !rel.is_empty() && good && !entries.is_empty()) {
            return Err(invalid("a path is not one of the directory's"));
        }
        if entries.contains_key(&p) {
            return Err(invalid("a path comes twice"));
        }
        if !rel.is_empty() && !matches!(entries.get(crate::base::path::parent(&p)), Some(Entry::Dir { .. })) {
            return Err(invalid("an entry comes before its directory"));
        }
        let mtime = if mtime.is_finite() { mtime } else { 0.0 };
        let entry = match kind {
            0 => Entry::Dir { mode, mtime, ino },
            1 if !rel.is_empty() => {
                let n = r.len()?;
                used += n as u64;
                if used > limit {
                    return Err(invalid("it holds more than scratchBytes"));
                }
                Entry::File { bytes: Rc::from(r.take(n)?), mode, mtime, ino }
            }
            _ => return Err(invalid("an entry of no known kind")),
        };
        entries.insert(p, entry);
        ino += 1;
    }
    if entries.is_empty() {
        return Err(invalid("the directory itself is missing"));
    }
    Ok((entries, used))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FsError> {
        let end =
            self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| invalid("it is cut short"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn len(&mut self) -> Result<usize, FsError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")) as usize)
    }
}
