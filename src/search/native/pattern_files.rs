//! grep's and rg's `-f FILE`: patterns read from files, as GNU grep and ripgrep read them.
//!
//! Each file gives one pattern a line (ripgrep also takes a `\r` off a line's end) (a last newline ends the last one; an empty file
//! gives none, and a grep with no pattern at all selects no line — it then reads nothing
//! and prints nothing, not even counts, unless it lists files without a match — or under
//! `-v` every line). `-f -` reads standard input, which is then used up: a second `-f -`, or the
//! operand `-`, reads nothing more. A file that cannot be read stops grep before it reads
//! anything else, with its message and status 2 (`-s` does not hide it). The files are
//! read when the command runs, through the session's filesystem, so a page named by `-f`
//! is read from the cache the plan filled when it read the same file to narrow the search.

use crate::commands::Printed;
use crate::fs::named::{exclude_lines, Unreadable};
use crate::search::args::NameFilter;
use crate::search::job::{Job, Parsed};
use crate::search::pattern::engine::Tool;
use crate::search::view::SessionView;

/// What reading the `-f` files gave.
pub(crate) enum Read {
    /// The patterns, in order, and whether standard input was read for them.
    Patterns(Vec<String>, bool),
    /// What grep prints when a file cannot be read (it then exits with 2).
    Error(String),
}

/// A pattern file's lines, as `tool` splits it.
pub(crate) fn split(content: &str, tool: Tool) -> Vec<String> {
    if content.is_empty() {
        return Vec::new();
    }
    let body = content.strip_suffix('\n').unwrap_or(content);
    let line = |l: &str| match tool {
        Tool::Gnu => l.to_string(),
        Tool::Rg => l.strip_suffix('\r').unwrap_or(l).to_string(),
    };
    body.split('\n').map(line).collect()
}

/// What `tool` prints when it cannot read the pattern file `f`.
fn cannot_read(tool: Tool, f: &str, directory: bool) -> String {
    match (tool, directory) {
        (Tool::Gnu, true) => format!("grep: {f}: Is a directory\n"),
        (Tool::Gnu, false) => format!("grep: {f}: No such file or directory\n"),
        (Tool::Rg, true) => format!("rg: {f}:Is a directory (os error 21)\n"),
        (Tool::Rg, false) => format!("rg: {f}: No such file or directory (os error 2)\n"),
    }
}

/// Reads every file of `files` (as typed) from `cwd`, as `tool` does; `stdin` is standard
/// input's text. `None`: a read failed for a reason the tool would not report (the
/// database or network), which the command's just-bash run reports instead.
pub(crate) async fn read(view: SessionView<'_>, cwd: &str, files: &[String], stdin: &str, tool: Tool) -> Option<Read> {
    let (mut patterns, mut stdin_used) = (Vec::new(), false);
    for f in files {
        if f == "-" {
            match (stdin_used, tool) {
                (false, _) => patterns.extend(split(stdin, tool)),
                (true, Tool::Gnu) => {}
                (true, Tool::Rg) => {
                    let consumed = "rg: error reading -f/--file from stdin: stdin has already been consumed\n";
                    return Some(Read::Error(consumed.into()));
                }
            }
            stdin_used = true;
            continue;
        }
        match view.read_named(cwd, f).await {
            Ok(text) => patterns.extend(split(&text, tool)),
            Err(Unreadable::Directory) => return Some(Read::Error(cannot_read(tool, f, true))),
            Err(Unreadable::Missing) => return Some(Read::Error(cannot_read(tool, f, false))),
            Err(Unreadable::Failed) => return None,
        }
    }
    Some(Read::Patterns(patterns, stdin_used))
}

/// What a command reads before anything else, read before it is planned: rg's `-f` files
/// (ripgrep reads them before it searches) and grep's `--exclude-from` files (GNU grep
/// reads them as it reads its options). `Err`: what the command prints instead of
/// searching (a file it cannot read; rg with no pattern at all, which searches nothing).
/// A file that cannot be read here for another reason (standard input not passed, a
/// failure of the database) stays unread: the command is then not narrowed, and runs in
/// just-bash (rg) or reports the failure (grep).
pub(crate) async fn read_first(view: SessionView<'_>, job: &mut Job) -> Result<(), Printed> {
    let (stdin, cwd) = (job.stdin.as_deref(), job.cwd.as_str());
    match &mut job.parsed {
        Parsed::Rg(r) if !r.pattern_files.is_empty() => {
            if r.pattern_files.iter().any(|f| f == "-") && stdin.is_none() {
                return Ok(());
            }
            let patterns = match read(view, cwd, &r.pattern_files, stdin.unwrap_or_default(), Tool::Rg).await {
                None => return Ok(()),
                Some(Read::Error(stderr)) => return Err(failed(stderr)),
                Some(Read::Patterns(patterns, _)) => patterns,
            };
            r.patterns.extend(patterns);
            r.patterns_read = true;
            if r.patterns.is_empty() && !r.output.invert {
                return Err(Printed {
                    stdout: String::new(),
                    stderr: String::new(),
                    exit_code: 1,
                    ..Default::default()
                });
            }
            job.patterns = r.patterns.clone();
        }
        Parsed::Grep(g) => {
            let mut names = Vec::with_capacity(g.output.names.len());
            for filter in std::mem::take(&mut g.output.names) {
                let NameFilter::ExcludeFrom(file) = filter else {
                    names.push(filter);
                    continue;
                };
                let text = match (file == "-", stdin) {
                    (true, Some(text)) => text.to_string(),
                    (true, None) => {
                        names.push(NameFilter::ExcludeFrom(file));
                        continue;
                    }
                    (false, _) => match view.read_named(cwd, &file).await {
                        Ok(text) => text,
                        Err(why) => return Err(failed(format!("{}grep: {file}: {}\n", g.warnings, why.words()))),
                    },
                };
                names.extend(exclude_lines(&text).map(NameFilter::Exclude));
            }
            g.output.names = names;
        }
        Parsed::Rg(_) => {}
    }
    Ok(())
}

/// What a command prints when it cannot start: `stderr`, status 2.
fn failed(stderr: String) -> Printed {
    Printed { stdout: String::new(), stderr, exit_code: 2, ..Default::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_file_is_one_pattern_a_line() {
        let gnu = |s| split(s, Tool::Gnu);
        assert_eq!(gnu("a\nb\n"), ["a", "b"]);
        assert_eq!(gnu("a\nb"), ["a", "b"], "the last line needs no newline");
        assert!(gnu("").is_empty(), "an empty file gives no pattern");
        assert_eq!(gnu("\n"), [""], "an empty line is a pattern that matches every line");
        assert_eq!(gnu("a\n\n"), ["a", ""]);
        assert_eq!(gnu("a\r\n"), ["a\r"], "grep keeps a carriage return");
        assert_eq!(split("a\r\nb\rc\n", Tool::Rg), ["a", "b\rc"], "ripgrep takes one off a line's end");
    }

    #[test]
    fn an_exclude_file_is_one_glob_a_line_without_trailing_space() {
        let globs: Vec<String> = exclude_lines("*.md  \n\n  \n a b\t\n*.txt").collect();
        assert_eq!(globs, ["*.md", " a b", "*.txt"]);
    }
}
