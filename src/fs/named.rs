//! A file named on a command line and read before the command runs — grep's and rg's
//! `-f`, grep's `--exclude-from`, tree's `--fromfile`, du's `--exclude-from` and
//! `--files0-from` — read as any command reads a file (pages, scratch files,
//! `/dev/null`), or the reason the tool gives when it cannot.

use super::Filesystem;
use crate::base::error::Errno;
use crate::base::path;
use crate::fs::decode;
use crate::tree::listing::Node;

/// Why a file named on the command line cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unreadable {
    Directory,
    Missing,
    /// The database or the network failed.
    Failed,
}

impl Unreadable {
    /// The reason in the words of `strerror`.
    pub(crate) fn words(&self) -> &'static str {
        match self {
            Unreadable::Directory => "Is a directory",
            Unreadable::Missing => "No such file or directory",
            Unreadable::Failed => "Input/output error",
        }
    }
}

/// The text of `file` (as typed, from `cwd`), or why it cannot be read.
pub(crate) async fn read_named(fs: &Filesystem, cwd: &str, file: &str) -> Result<String, Unreadable> {
    let full = path::resolve(cwd, file);
    if matches!(fs.listing().get(&full), Some(Node::Dir(_))) {
        return Err(Unreadable::Directory);
    }
    match fs.read(&full).await {
        Ok(bytes) => Ok(decode(&bytes, None)),
        Err(e) if matches!(e.errno, Errno::Enoent | Errno::Enotdir) => Err(Unreadable::Missing),
        Err(_) => Err(Unreadable::Failed),
    }
}

/// The patterns of an exclude file (grep's and du's `--exclude-from`), as GNU's exclude
/// module reads them: one a line, the white space at its end taken off, and lines left
/// empty skipped.
pub(crate) fn exclude_lines(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split('\n')
        .map(|l| l.trim_end_matches([' ', '\t', '\r', '\x0b', '\x0c']))
        .filter(|l| !l.is_empty())
        .map(String::from)
}
