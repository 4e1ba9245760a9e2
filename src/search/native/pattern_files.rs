//! grep's `-f FILE`: patterns read from files, as GNU grep reads them.
//!
//! Each file gives one pattern a line (a last newline ends the last one; an empty file
//! gives none, and a grep with no pattern at all selects no line — it then reads nothing
//! and prints nothing, not even counts, unless it lists files without a match — or under
//! `-v` every line). `-f -` reads standard input, which is then used up: a second `-f -`, or the
//! operand `-`, reads nothing more. A file that cannot be read stops grep before it reads
//! anything else, with its message and status 2 (`-s` does not hide it). The files are
//! read when the command runs, through the session's filesystem, so a page named by `-f`
//! is read from the cache the plan filled when it read the same file to narrow the search.

use crate::base::error::Errno;
use crate::base::path;
use crate::fs::{decode, DEV_NULL};
use crate::search::view::SessionView;
use crate::tree::listing::Node;

/// What reading the `-f` files gave.
pub(crate) enum Read {
    /// The patterns, in order, and whether standard input was read for them.
    Patterns(Vec<String>, bool),
    /// What grep prints when a file cannot be read (it then exits with 2).
    Error(String),
}

/// A pattern file's lines, as grep splits it.
pub(crate) fn split(content: &str) -> Vec<String> {
    if content.is_empty() {
        return Vec::new();
    }
    let body = content.strip_suffix('\n').unwrap_or(content);
    body.split('\n').map(String::from).collect()
}

/// Reads every file of `files` (as typed) from `cwd`; `stdin` is standard input's text.
/// `None`: a read failed for a reason grep would not report (the database or network),
/// which the command's just-bash run reports instead.
pub(crate) async fn read(view: SessionView<'_>, cwd: &str, files: &[String], stdin: &str) -> Option<Read> {
    let (mut patterns, mut stdin_used) = (Vec::new(), false);
    for f in files {
        if f == "-" {
            if !stdin_used {
                patterns.extend(split(stdin));
            }
            stdin_used = true;
            continue;
        }
        let full = path::resolve(cwd, f);
        if full == DEV_NULL {
            continue;
        }
        if matches!(view.place(cwd).listing.get(&full), Some(Node::Dir(_))) {
            return Some(Read::Error(format!("grep: {f}: Is a directory\n")));
        }
        match view.read(&full).await {
            Ok(bytes) => patterns.extend(split(&decode(&bytes, None))),
            Err(e) if matches!(e.errno, Errno::Enoent | Errno::Enotdir) => {
                return Some(Read::Error(format!("grep: {f}: No such file or directory\n")))
            }
            Err(_) => return None,
        }
    }
    Some(Read::Patterns(patterns, stdin_used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_file_is_one_pattern_a_line() {
        assert_eq!(split("a\nb\n"), ["a", "b"]);
        assert_eq!(split("a\nb"), ["a", "b"], "the last line needs no newline");
        assert!(split("").is_empty(), "an empty file gives no pattern");
        assert_eq!(split("\n"), [""], "an empty line is a pattern that matches every line");
        assert_eq!(split("a\n\n"), ["a", ""]);
    }
}
