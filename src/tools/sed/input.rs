//! sed's input: its files in turn, read a line at a time, opened only when reached, as
//! GNU sed opens them (a missing file is reported when sed gets to it, and a script
//! that quits early never does).

use crate::tools::Failed;

/// One input file, as the host read it.
pub(super) struct Source<'a> {
    pub name: String,
    pub data: Result<&'a [u8], &'a Failed>,
}

/// The input files and where reading is.
pub(super) struct Inputs<'a> {
    files: Vec<Source<'a>>,
    next: usize,
    cur: Option<usize>,
    pos: usize,
    delim: u8,
    separate: bool,
    in_place: bool,
    /// Messages for files that could not be read, in order.
    pub errors: Vec<String>,
    pub status: i32,
    /// A read error that ends the run (status 4).
    pub fatal: bool,
}

/// A line read: its text and whether it ended with the delimiter.
pub(super) struct Line {
    pub text: Vec<u8>,
    pub chomped: bool,
    /// The first line of a file newly opened (its number among the files).
    pub new_file: Option<usize>,
}

impl<'a> Inputs<'a> {
    pub(super) fn new(files: Vec<Source<'a>>, delim: u8, separate: bool, in_place: bool) -> Self {
        Inputs {
            files,
            next: 0,
            cur: None,
            pos: 0,
            delim,
            separate,
            in_place,
            errors: Vec::new(),
            status: 0,
            fatal: false,
        }
    }

    /// The open file's name (`-` for standard input).
    pub(super) fn name(&self) -> &str {
        self.cur.map_or("-", |i| self.files[i].name.as_str())
    }

    pub(super) fn file_name(&self, i: usize) -> &str {
        &self.files[i].name
    }

    fn remaining(&self) -> &'a [u8] {
        match self.cur.map(|i| &self.files[i].data) {
            Some(Ok(d)) => &d[self.pos.min(d.len())..],
            _ => &[],
        }
    }

    /// Opens the next file that can be read; `false` when there is none. Looking ahead
    /// (for `$`), a directory reads as empty; reading, it ends the run.
    fn open_next(&mut self, lookahead: bool) -> bool {
        while self.next < self.files.len() {
            let i = self.next;
            self.next += 1;
            let name = &self.files[i].name;
            match self.files[i].data {
                Ok(_) => {
                    self.cur = Some(i);
                    self.pos = 0;
                    return true;
                }
                Err(e) if e.is_dir() => {
                    if self.in_place {
                        self.errors.push(format!("couldn't edit {name}: not a regular file"));
                        self.status = 4;
                    } else if !lookahead {
                        self.errors.push(format!("read error on {name}: {}", e.text));
                        self.status = 4;
                        self.fatal = true;
                        return false;
                    }
                }
                Err(e) => {
                    self.errors.push(format!("can't read {name}: {}", e.text));
                    self.status = 2;
                }
            }
        }
        false
    }

    /// The next line, from this file or the next ones.
    pub(super) fn next_line(&mut self) -> Option<Line> {
        let mut new_file = None;
        while self.cur.is_none() || self.remaining().is_empty() {
            if self.fatal || !self.open_next(false) {
                return None;
            }
            new_file = self.cur;
        }
        let rest = self.remaining();
        let (text, chomped) = match memchr::memchr(self.delim, rest) {
            Some(n) => (&rest[..n], true),
            None => (rest, false),
        };
        self.pos += text.len() + usize::from(chomped);
        Some(Line { text: text.to_vec(), chomped, new_file })
    }

    /// Whether the line just read is the last (of its file, with `-s` or `-i`).
    pub(super) fn is_last(&mut self) -> bool {
        if !self.remaining().is_empty() {
            return false;
        }
        if self.separate {
            return true;
        }
        while self.open_next(true) {
            if !self.remaining().is_empty() {
                return false;
            }
        }
        true
    }

    /// Whether a next line can be read without leaving this file (`-s`, `-i`) or at all.
    pub(super) fn has_next(&mut self) -> bool {
        !self.is_last()
    }
}
