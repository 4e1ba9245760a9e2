//! What a tool sees of the world: its standard input, the files its host has read for it,
//! and the buffers it writes to.
//!
//! Tools run over bytes in memory. A tool asks for the files it needs ([`Ctx::read`],
//! [`Ctx::stat`], [`Ctx::list`]); what the host has not given yet stops the run with
//! [`Pending`], the host fetches everything asked for, and the tool runs again from the
//! start with it. Tools ask for all their operands first ([`Ctx::want`]), so that a run
//! takes one round of reads, and print nothing that depends on a file they have not read.

use std::collections::BTreeMap;

/// Why a path cannot be read: its errno's name and strerror's words for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failed {
    pub code: String,
    pub text: String,
}

impl Failed {
    pub(crate) fn new(code: &str, text: &str) -> Self {
        Failed { code: code.into(), text: text.into() }
    }

    pub(crate) fn is_dir(&self) -> bool {
        self.code == "EISDIR"
    }
}

/// What the host found at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stat {
    /// The path made absolute and normal (no `.`, `..` or doubled slashes).
    pub absolute: String,
    pub dir: bool,
    pub size: u64,
}

/// A question a tool asks the host about a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Ask {
    /// The file's bytes.
    Read,
    /// Whether it exists, and what it is.
    Stat,
    /// A directory's entry names.
    List,
    /// Make an empty file there, which must not exist (`mktemp`).
    Create,
    /// Make a directory there, which must not exist (`mktemp -d`).
    MakeDir,
}

impl Ask {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Ask::Read => "read",
            Ask::Stat => "stat",
            Ask::List => "list",
            Ask::Create => "create",
            Ask::MakeDir => "mkdir",
        }
    }
}

/// The answers the host has given so far.
#[derive(Debug, Default)]
pub(crate) struct Answers {
    pub reads: BTreeMap<String, Result<Vec<u8>, Failed>>,
    pub stats: BTreeMap<String, Result<Stat, Failed>>,
    pub lists: BTreeMap<String, Result<Vec<String>, Failed>>,
    /// Files and directories made ([`Ask::Create`], [`Ask::MakeDir`]).
    pub made: BTreeMap<String, Result<(), Failed>>,
    /// The variables of the command's environment the host passes (`TMPDIR`).
    pub vars: BTreeMap<String, String>,
    /// Random bytes from the host, the same for every run of one command line.
    pub random: Vec<u8>,
}

/// A run stopped for answers the host has not given yet (they are in [`Ctx::asked`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pending;

/// A tool's exit status, or [`Pending`].
pub(crate) type Status = Result<i32, Pending>;

/// A file a tool writes (`sort -o`, `sed w`, `awk > file`): the host writes it after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Write {
    pub path: String,
    pub bytes: Vec<u8>,
    /// Added to the end of what is there (`>>`), rather than replacing it.
    pub append: bool,
}

/// One run of a tool.
pub(crate) struct Ctx<'a> {
    /// The command's name, as GNU's tools print it before their messages.
    pub name: &'a str,
    stdin: &'a [u8],
    stdin_read: bool,
    answers: &'a Answers,
    asked: Vec<(Ask, String)>,
    pub out: Vec<u8>,
    pub err: String,
    /// Where each error came between the output's bytes, as `(stdout, stderr)` lengths
    /// once it was written ([`Ctx::mark`]).
    pub err_at: Vec<(usize, usize)>,
    /// Whether the tool writes its output out before each error, as GNU's `error()` does
    /// (sed writes its errors at once and its output a block at a time, tac its output
    /// from a buffer of its own that `error()` does not flush).
    flushes: bool,
    pub writes: Vec<Write>,
    /// Command lines the host is to run after this one (`xargs`), each an argv.
    pub runs: Vec<Vec<String>>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(name: &'a str, stdin: &'a [u8], answers: &'a Answers) -> Self {
        Ctx {
            name,
            stdin,
            stdin_read: false,
            answers,
            asked: Vec::new(),
            out: Vec::new(),
            err: String::new(),
            err_at: Vec::new(),
            // xargs's errors mix with those of the commands it runs, which the host runs.
            flushes: !matches!(name, "sed" | "tac" | "xargs"),
            writes: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// What the run asked for and was not given.
    pub(crate) fn asked(&self) -> &[(Ask, String)] {
        &self.asked
    }

    fn ask(&mut self, ask: Ask, path: &str) {
        if !self.asked.iter().any(|(a, p)| *a == ask && p == path) {
            self.asked.push((ask, path.to_string()));
        }
    }

    /// Asks for every file of `paths` (`-` is standard input) at once: [`Pending`] unless
    /// all of them have been read.
    pub(crate) fn want<'p>(&mut self, paths: impl IntoIterator<Item = &'p str>) -> Result<(), Pending> {
        for p in paths {
            if p != "-" && !self.answers.reads.contains_key(p) {
                self.ask(Ask::Read, p);
            }
        }
        if self.asked.is_empty() {
            Ok(())
        } else {
            Err(Pending)
        }
    }

    /// A file's bytes, or why it cannot be read. `-` is standard input, which a second
    /// read finds at its end, as GNU's tools do.
    pub(crate) fn read(&mut self, path: &str) -> Result<Result<&'a [u8], &'a Failed>, Pending> {
        if path == "-" {
            let bytes: &'a [u8] = if self.stdin_read { &[] } else { self.stdin };
            self.stdin_read = true;
            return Ok(Ok(bytes));
        }
        match self.answers.reads.get(path) {
            Some(r) => Ok(r.as_ref().map(Vec::as_slice)),
            None => {
                self.ask(Ask::Read, path);
                Err(Pending)
            }
        }
    }

    /// A file's bytes, or `None` once `name: file: why` is on standard error (the file as
    /// GNU's tools quote it) when it cannot be read.
    pub(crate) fn read_or_report(&mut self, path: &str) -> Result<Option<&'a [u8]>, Pending> {
        Ok(match self.read(path)? {
            Ok(data) => Some(data),
            Err(e) => {
                self.error(format!("{}: {}", crate::base::quote::quotef(path), e.text));
                None
            }
        })
    }

    /// What is at `path`.
    pub(crate) fn stat(&mut self, path: &str) -> Result<Result<&'a Stat, &'a Failed>, Pending> {
        match self.answers.stats.get(path) {
            Some(r) => Ok(r.as_ref()),
            None => {
                self.ask(Ask::Stat, path);
                Err(Pending)
            }
        }
    }

    /// A directory's entry names, sorted by bytes.
    pub(crate) fn list(&mut self, path: &str) -> Result<Result<&'a [String], &'a Failed>, Pending> {
        match self.answers.lists.get(path) {
            Some(r) => Ok(r.as_ref().map(Vec::as_slice)),
            None => {
                self.ask(Ask::List, path);
                Err(Pending)
            }
        }
    }

    /// Makes an empty file (or, with `dir`, a directory) at `path`, which must not exist:
    /// done, or why not. The host makes it when asked; every later run is told the answer.
    pub(crate) fn make(&mut self, path: &str, dir: bool) -> Result<Result<(), &'a Failed>, Pending> {
        match self.answers.made.get(path) {
            Some(r) => Ok(r.as_ref().map(|_| ())),
            None => {
                self.ask(if dir { Ask::MakeDir } else { Ask::Create }, path);
                Err(Pending)
            }
        }
    }

    /// A variable of the command's environment, as the host passed it.
    pub(crate) fn var(&self, name: &str) -> Option<&'a str> {
        self.answers.vars.get(name).map(String::as_str)
    }

    /// The host's random bytes for this command line.
    pub(crate) fn random(&self) -> &'a [u8] {
        &self.answers.random
    }

    /// Standard input, whole (once; later reads find it at its end).
    pub(crate) fn stdin(&mut self) -> &'a [u8] {
        let bytes: &'a [u8] = if self.stdin_read { &[] } else { self.stdin };
        self.stdin_read = true;
        bytes
    }

    /// `name: message` on standard error, after the output so far ([`Ctx::mark`]).
    pub(crate) fn error(&mut self, message: impl AsRef<str>) {
        self.err.push_str(self.name);
        self.err.push_str(": ");
        self.err.push_str(message.as_ref());
        self.err.push('\n');
        self.mark();
    }

    /// Notes that what standard error holds now was written after the output so far, when
    /// the tool flushes its output before an error: with both streams sent to one file
    /// (`2>&1`), the host writes them in that order.
    pub(crate) fn mark(&mut self) {
        if self.flushes {
            self.err_at.push((self.out.len(), self.err.len()));
        }
    }

    /// A command line GNU refuses: getopt's message (or `message`), then where to get help.
    pub(crate) fn usage(&mut self, message: &str, status: i32) -> i32 {
        self.err.push_str(message);
        self.err.push_str(&format!("Try '{} --help' for more information.\n", self.name));
        status
    }

    /// `--help` or `--version` (`key`): GNU's text, status 0.
    pub(crate) fn about(&mut self, key: &str) -> i32 {
        let text = if key == "help" { super::texts::help(self.name) } else { super::texts::version(self.name) };
        self.print(text);
        0
    }

    /// Writes `text` to standard output.
    /// head's and tail's `==> name <==` before a file's part when `headers`, after a blank
    /// line unless it is the `first`.
    pub(crate) fn file_header(&mut self, headers: bool, first: &mut bool, shown: &str) {
        if headers {
            let gap = if *first { "" } else { "\n" };
            self.print(format!("{gap}==> {shown} <==\n"));
            *first = false;
        }
    }

    pub(crate) fn print(&mut self, text: impl AsRef<[u8]>) {
        self.out.extend_from_slice(text.as_ref());
    }
}
