//! The sed machine: a cycle per input line over the pattern and hold spaces, as GNU sed
//! 4.9 runs a script (its addresses and ranges, the append queue, output that remembers a
//! last line without its newline).
//!
//! The pattern space is text: bytes that are not UTF-8 are carried as characters of a
//! private range ([`super::bytes`]) and written back as the bytes they were.

use super::bytes::{decode, encode, listed};
use super::input::Inputs;
use super::parse::{Addr, Cmd, End, Op, Program, Rx, Subst};
use super::rx::{Caser, Part};
use regex_lite::Regex;

/// An output stream and whether its last line lacked its newline.
#[derive(Default)]
pub(super) struct Out {
    pub buf: Vec<u8>,
    missing: bool,
}

/// Where a command writes.
#[derive(Clone, Copy)]
enum To {
    /// The output (standard output, or the file edited in place).
    Main,
    /// `w`'s file, by number.
    File(usize),
}

/// How a pass over the script ended.
enum Flow {
    /// The end of the cycle, printing the pattern space unless `-n`.
    End(bool),
    /// `D`: again, on what is left.
    Again,
    /// `q` (printing) or `Q`, with the exit status.
    Quit(bool, i32),
}

/// What waits to be printed at the end of the cycle.
enum Append {
    Text(String),
    File(String),
}

/// Options the machine runs with.
pub(super) struct Opts {
    pub quiet: bool,
    pub separate: bool,
    pub delim: u8,
    pub line_len: usize,
    pub in_place: bool,
}

/// A run of a script over its inputs.
pub(super) struct Machine<'a, 'p> {
    prog: &'p Program,
    /// Each command's range: whether it is open, and the line it ends on if a number.
    ranges: Vec<(bool, usize)>,
    pub inputs: Inputs<'a>,
    opts: Opts,
    /// The files `r` and `R` read, by name (`None`: unreadable).
    rdata: Vec<(String, Option<&'a [u8]>, usize)>,
    ps: String,
    chomped: bool,
    hold: String,
    /// Whether the hold space's text ends with a newline when printed (as `chomped`).
    hold_chomped: bool,
    line: usize,
    append: Vec<Append>,
    replaced: bool,
    last_re: Option<Regex>,
    pub out: Out,
    /// Standard output when the main output is a file edited in place.
    pub stdout: Out,
    pub stderr: Vec<u8>,
    pub wfiles: Vec<Out>,
    /// Files edited in place, by input number, and what was written for each.
    pub edited: Vec<(usize, Vec<u8>)>,
    editing: Option<usize>,
    /// A message that ends the run (status 4 unless set).
    pub fatal: Option<String>,
}

impl<'a, 'p> Machine<'a, 'p> {
    pub(super) fn new(
        prog: &'p Program,
        inputs: Inputs<'a>,
        opts: Opts,
        rdata: Vec<(String, Option<&'a [u8]>)>,
    ) -> Self {
        let wfiles = prog.wfiles.iter().map(|_| Out::default()).collect();
        Machine {
            prog,
            ranges: prog.cmds.iter().map(|c| (matches!(c.a1, Some(Addr::Line(0))), 0)).collect(),
            inputs,
            opts,
            rdata: rdata.into_iter().map(|(n, d)| (n, d, 0)).collect(),
            ps: String::new(),
            chomped: true,
            hold: String::new(),
            hold_chomped: true,
            line: 0,
            append: Vec::new(),
            replaced: false,
            last_re: None,
            out: Out::default(),
            stdout: Out::default(),
            stderr: Vec::new(),
            wfiles,
            edited: Vec::new(),
            editing: None,
            fatal: None,
        }
    }

    /// Runs the script to the end of the input or a quit; the exit status `q` gave.
    pub(super) fn run(&mut self) -> i32 {
        while self.read(false) {
            loop {
                match self.pass() {
                    Flow::End(print) => {
                        self.end_cycle(print);
                        break;
                    }
                    Flow::Again => {
                        self.dump_append();
                        continue;
                    }
                    Flow::Quit(print, code) => {
                        if print {
                            self.end_cycle(true);
                        }
                        self.finish_file();
                        return code;
                    }
                }
            }
            if self.fatal.is_some() {
                break;
            }
        }
        self.finish_file();
        0
    }

    fn end_cycle(&mut self, print: bool) {
        if print && !self.opts.quiet {
            self.put_ps(To::Main, false);
        }
        self.dump_append();
    }

    /// Reads the next line into the pattern space (`add`: after a newline, as `N`).
    fn read(&mut self, add: bool) -> bool {
        let Some(line) = self.inputs.next_line() else { return false };
        if let Some(n) = line.new_file {
            if self.opts.separate {
                self.line = 0;
                for (c, r) in self.prog.cmds.iter().zip(&mut self.ranges) {
                    *r = (matches!(c.a1, Some(Addr::Line(0))), 0);
                }
            }
            if self.opts.in_place {
                self.finish_file();
                self.editing = Some(n);
            }
        }
        self.line += 1;
        let text = decode(&line.text);
        if add {
            self.ps.push('\n');
            self.ps.push_str(&text);
        } else {
            self.ps = text;
            self.replaced = false;
        }
        self.chomped = line.chomped;
        true
    }

    /// The file edited in place is done: what was written goes to it.
    fn finish_file(&mut self) {
        if let Some(n) = self.editing.take() {
            let out = std::mem::take(&mut self.out);
            self.edited.push((n, out.buf));
        }
    }

    fn stream(&mut self, to: To) -> &mut Out {
        match to {
            To::Main => &mut self.out,
            To::File(n) => match self.prog.wfiles[n].as_str() {
                "/dev/stdout" if self.opts.in_place => &mut self.stdout,
                "/dev/stdout" => &mut self.out,
                _ => &mut self.wfiles[n],
            },
        }
    }

    /// Writes `bytes` to `to`, after the newline its last line lacked.
    fn put(&mut self, to: To, bytes: &[u8]) {
        if let To::File(n) = to {
            if self.prog.wfiles[n] == "/dev/stderr" {
                self.stderr.extend_from_slice(bytes);
                return;
            }
        }
        let delim = self.opts.delim;
        let o = self.stream(to);
        if o.missing {
            o.buf.push(delim);
            o.missing = false;
        }
        o.buf.extend_from_slice(bytes);
    }

    /// Writes the pattern space (`first`: its first line), and its newline unless its
    /// line had none.
    fn put_ps(&mut self, to: To, first: bool) {
        let text = if first { self.ps.split('\n').next().unwrap_or("") } else { self.ps.as_str() };
        let mut bytes = Vec::with_capacity(text.len() + 1);
        encode(text, &mut bytes);
        let whole = !first || !self.ps.contains('\n');
        let newline = self.chomped || !whole;
        if newline {
            bytes.push(self.opts.delim);
        }
        self.put(to, &bytes);
        if !newline {
            if let To::File(n) = to {
                if self.prog.wfiles[n] == "/dev/stderr" {
                    return;
                }
            }
            self.stream(to).missing = true;
        }
    }

    fn put_text(&mut self, text: &str) {
        let mut bytes = Vec::new();
        encode(text, &mut bytes);
        self.put(To::Main, &bytes);
    }

    fn dump_append(&mut self) {
        for a in std::mem::take(&mut self.append) {
            match a {
                Append::Text(t) => self.put_text(&t),
                Append::File(name) => {
                    if let Some(data) = self.rdata.iter().find(|r| r.0 == name).and_then(|r| r.1) {
                        if !data.is_empty() {
                            self.put(To::Main, data);
                        }
                    }
                }
            }
        }
    }

    /// The regex to match with: its own, or the last one used.
    fn regex(&mut self, rx: &Rx) -> Option<Regex> {
        match rx {
            Some(re) => {
                self.last_re = Some(re.clone());
                Some(re.clone())
            }
            None => {
                if self.last_re.is_none() {
                    self.fatal.get_or_insert_with(|| "-e expression #1, char 0: no previous regular expression".into());
                }
                self.last_re.clone()
            }
        }
    }

    fn addr(&mut self, a: &Addr) -> bool {
        match a {
            Addr::Line(n) => self.line == *n,
            Addr::Last => self.inputs.is_last(),
            Addr::Re(rx) => self.regex(rx).is_some_and(|re| re.is_match(&self.ps)),
            Addr::Step(first, step) => {
                if *step == 0 {
                    self.line == *first
                } else {
                    self.line >= *first && (self.line - first) % step == 0
                }
            }
        }
    }

    /// Whether command `i` applies to this line, moving its range on.
    fn selects(&mut self, i: usize) -> bool {
        let prog = self.prog;
        let cmd: &Cmd = &prog.cmds[i];
        let Some(a1) = &cmd.a1 else { return true };
        let hit = match &cmd.a2 {
            None => self.addr(a1),
            Some(a2) => self.range(i, a1, a2),
        };
        let negate = cmd.negate;
        hit != negate
    }

    fn range(&mut self, i: usize, a1: &Addr, a2: &End) -> bool {
        let line = self.line;
        if self.ranges[i].0 {
            let end = self.ranges[i].1;
            let close = match a2 {
                End::Line(_) | End::Plus(_) | End::Tilde(_) => {
                    if line > end {
                        self.ranges[i].0 = false;
                        return self.range(i, a1, a2);
                    }
                    line == end
                }
                End::Last => self.inputs.is_last(),
                End::Re(rx) => self.regex(rx).is_some_and(|re| re.is_match(&self.ps)),
            };
            if close {
                self.ranges[i].0 = false;
            }
            return true;
        }
        if !self.addr(a1) {
            return false;
        }
        let end = match a2 {
            End::Line(n) if *n > line => Some(*n),
            End::Plus(n) if *n > 0 => Some(line + n),
            End::Tilde(n) if *n > 0 => Some((line / n + 1) * n),
            End::Last if !self.inputs.is_last() => Some(0),
            End::Re(_) => Some(0),
            _ => None,
        };
        if let Some(end) = end {
            self.ranges[i] = (true, end);
        }
        true
    }

    /// One pass of the script over the pattern space.
    fn pass(&mut self) -> Flow {
        let mut pc = 0;
        while pc < self.prog.cmds.len() {
            if self.fatal.is_some() {
                return Flow::Quit(false, 4);
            }
            let i = pc;
            pc += 1;
            if !self.selects(i) {
                if let Op::Open(close) = self.prog.cmds[i].op {
                    pc = close + 1;
                }
                continue;
            }
            let prog = self.prog;
            match &prog.cmds[i].op {
                Op::Open(_) | Op::Close | Op::Simple(b':') => {}
                Op::Subst(s) => self.subst(s),
                Op::Trans(map) => {
                    self.ps = self.ps.chars().map(|c| map.iter().find(|m| m.0 == c).map_or(c, |m| m.1)).collect();
                }
                Op::Text(b'a', t) => self.append.push(Append::Text(t.clone())),
                Op::Text(b'i', t) => self.put_text(t),
                Op::Text(_, t) => {
                    if !self.ranges[i].0 || prog.cmds[i].a2.is_none() {
                        self.put_text(t);
                    }
                    return Flow::End(false);
                }
                Op::Jump(kind, target) => {
                    let go = match kind {
                        b't' => std::mem::take(&mut self.replaced),
                        b'T' => !std::mem::take(&mut self.replaced),
                        _ => true,
                    };
                    if go {
                        match target {
                            Some(t) => pc = *t,
                            None => return Flow::End(true),
                        }
                    }
                }
                Op::Quit(kind, code) => return Flow::Quit(*kind == b'q', *code),
                Op::List(n) => self.list(n.unwrap_or(self.opts.line_len)),
                Op::Read(b'r', name) => {
                    let name = if name == "/dev/stdin" { "-".to_string() } else { name.clone() };
                    self.append.push(Append::File(name));
                }
                Op::Read(_, name) => self.read_line_of(name),
                Op::Write(kind, n) => self.put_ps(To::File(*n), *kind == b'W'),
                Op::Simple(c) => {
                    if let Some(flow) = self.simple(*c) {
                        return flow;
                    }
                }
            }
        }
        Flow::End(true)
    }

    fn simple(&mut self, c: u8) -> Option<Flow> {
        match c {
            b'=' => {
                let mut n = self.line.to_string().into_bytes();
                n.push(self.opts.delim);
                self.put(To::Main, &n);
            }
            b'd' => return Some(Flow::End(false)),
            b'D' => match self.ps.find('\n') {
                None => return Some(Flow::End(false)),
                Some(n) => {
                    self.ps.drain(..=n);
                    return Some(Flow::Again);
                }
            },
            b'F' => {
                let mut n = self.inputs.name().as_bytes().to_vec();
                n.push(self.opts.delim);
                self.put(To::Main, &n);
            }
            b'g' => {
                self.ps = self.hold.clone();
                self.chomped = self.hold_chomped;
            }
            b'G' => {
                self.ps.push('\n');
                self.ps.push_str(&self.hold);
                self.chomped = self.hold_chomped;
            }
            b'h' => {
                self.hold = self.ps.clone();
                self.hold_chomped = self.chomped;
            }
            b'H' => {
                self.hold.push('\n');
                self.hold.push_str(&self.ps);
                self.hold_chomped = self.chomped;
            }
            b'x' => {
                std::mem::swap(&mut self.ps, &mut self.hold);
                std::mem::swap(&mut self.chomped, &mut self.hold_chomped);
            }
            b'z' => self.ps.clear(),
            b'p' => self.put_ps(To::Main, false),
            b'P' => self.put_ps(To::Main, true),
            b'n' | b'N' => {
                if !self.inputs.has_next() {
                    return Some(Flow::End(true));
                }
                if c == b'n' && !self.opts.quiet {
                    self.put_ps(To::Main, false);
                }
                self.dump_append();
                if !self.read(c == b'N') {
                    return Some(Flow::End(c == b'N'));
                }
            }
            _ => {}
        }
        None
    }

    /// `R`: the next line of a file, to print at the end of the cycle.
    fn read_line_of(&mut self, name: &str) {
        let name = if name == "/dev/stdin" { "-" } else { name };
        let Some(r) = self.rdata.iter_mut().find(|r| r.0 == name) else { return };
        let Some(data) = r.1 else { return };
        if r.2 >= data.len() {
            return;
        }
        let rest = &data[r.2..];
        let n = memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n + 1);
        r.2 += n;
        let mut text = decode(&rest[..n]);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        self.append.push(Append::Text(text));
    }

    /// `l`: the pattern space unambiguously, wrapped at `width` columns.
    fn list(&mut self, width: usize) {
        let mut bytes = Vec::new();
        encode(&self.ps, &mut bytes);
        let out = listed(&bytes, width, self.opts.delim);
        self.put(To::Main, &out);
    }

    fn subst(&mut self, s: &Subst) {
        let Some(re) = self.regex(&s.rx) else { return };
        let text = self.ps.as_str();
        let mut out = String::new();
        let (mut pos, mut copied, mut count) = (0, 0, 0);
        let mut prev_end = None;
        let mut done = false;
        while pos <= text.len() {
            let Some(caps) = re.captures_at(text, pos) else { break };
            let m = caps.get(0).expect("a match");
            let step = |at: usize| text[at..].chars().next().map(char::len_utf8);
            if m.is_empty() && prev_end == Some(m.start()) {
                match step(m.start()) {
                    Some(n) => pos = m.start() + n,
                    None => break,
                }
                continue;
            }
            count += 1;
            if count >= s.nth {
                out.push_str(&text[copied..m.start()]);
                let mut caser = Caser::default();
                for part in &s.parts {
                    match part {
                        Part::Text(t) => caser.push(&mut out, t),
                        Part::Group(g) => caser.push(&mut out, caps.get(*g).map_or("", |m| m.as_str())),
                        Part::Case(c) => caser.set(*c),
                    }
                }
                copied = m.end();
                done = true;
                if !s.global {
                    break;
                }
            }
            prev_end = Some(m.end());
            pos = m.end();
            if m.is_empty() {
                match step(pos) {
                    Some(n) => pos += n,
                    None => break,
                }
            }
        }
        if !done {
            return;
        }
        out.push_str(&text[copied..]);
        self.ps = out;
        self.replaced = true;
        if s.print {
            self.put_ps(To::Main, false);
        }
        if let Some(n) = s.write {
            self.put_ps(To::File(n), false);
        }
    }
}
