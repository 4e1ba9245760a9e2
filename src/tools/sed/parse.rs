//! A sed script read as GNU sed 4.9 reads it: addresses, commands and their arguments,
//! with GNU's messages and positions (`-e expression #1, char 3: unknown command: `k'`).
//!
//! Each `-e` piece (or `-f` file) is read on its own, as GNU does; what a piece leaves
//! open goes on into the next: a `{` block, and an `a`, `i` or `c` text whose last line
//! ends in a backslash.

use super::read::{Reader, EOF};
use super::rx::{self, Part};
use regex_lite::Regex;

/// A regex of an address or `s`: `None` is the empty regex, the last one used.
pub(super) type Rx = Option<Regex>;

/// The first address of a command.
pub(super) enum Addr {
    Line(usize),
    Last,
    Re(Rx),
    /// `first~step`.
    Step(usize, usize),
}

/// The second address of a range.
pub(super) enum End {
    Line(usize),
    Last,
    Re(Rx),
    /// `+N`.
    Plus(usize),
    /// `~N`.
    Tilde(usize),
}

/// `s`: its regex, replacement and flags.
pub(super) struct Subst {
    pub rx: Rx,
    pub parts: Vec<Part>,
    pub global: bool,
    /// Replace from this match on (1 unless a number was given).
    pub nth: usize,
    pub print: bool,
    pub write: Option<usize>,
}

/// What a command does.
pub(super) enum Op {
    /// `{`: where its `}` is.
    Open(usize),
    Close,
    Subst(Box<Subst>),
    /// `y`: each source character and what it becomes.
    Trans(Vec<(char, char)>),
    /// `a`, `i` or `c` and the text (ending in a newline unless empty).
    Text(u8, String),
    /// `b`, `t` or `T` and where it goes (`None`: the end of the script).
    Jump(u8, Option<usize>),
    /// `q` or `Q` and the exit status.
    Quit(u8, i32),
    /// `l` and its line length, if given.
    List(Option<usize>),
    /// `r` or `R` and the file.
    Read(u8, String),
    /// `w` or `W` and the output file's number.
    Write(u8, usize),
    /// Any other command, by its letter (`:` for a label).
    Simple(u8),
}

/// One command with its addresses.
pub(super) struct Cmd {
    pub a1: Option<Addr>,
    pub a2: Option<End>,
    pub negate: bool,
    pub op: Op,
}

/// A script read: its commands, the files it writes and reads, and whether it starts
/// with `#n`.
#[derive(Default)]
pub(super) struct Program {
    pub cmds: Vec<Cmd>,
    pub wfiles: Vec<String>,
    pub rfiles: Vec<String>,
    pub hash_n: bool,
}

/// Where a piece of the script comes from, for messages.
pub(super) enum From {
    Expr(usize),
    File(String),
}

/// Reads the pieces of a script in turn.
pub(super) struct Parser {
    pub prog: Program,
    pub extended: bool,
    pub sandbox: bool,
    /// Open `{`s: the command and where it is, for messages.
    blocks: Vec<(usize, String)>,
    labels: Vec<(String, usize)>,
    jumps: Vec<(usize, String)>,
    /// An `a`, `i` or `c` whose text goes on into the next piece, and its text so far.
    pending: Option<(usize, Vec<u8>)>,
    first: bool,
    /// `#n` may start this piece (not a script read from standard input).
    hash_n_ok: bool,
    /// Where the piece being read comes from, for a `{` left open.
    at: String,
    /// A message that stopped sed outright (see [`rx::Refused::Panic`]): printed alone,
    /// with status 4.
    pub panic: Option<&'static str>,
}

impl Parser {
    pub(super) fn new(extended: bool, sandbox: bool) -> Self {
        Parser {
            prog: Program::default(),
            extended,
            sandbox,
            blocks: Vec::new(),
            labels: Vec::new(),
            jumps: Vec::new(),
            pending: None,
            first: true,
            hash_n_ok: true,
            at: String::new(),
            panic: None,
        }
    }

    /// Reads one piece; an error is GNU's whole message (after `sed: `).
    pub(super) fn piece(&mut self, text: &[u8], from: From) -> Result<(), String> {
        let mut r = Reader { s: text, i: 0 };
        self.hash_n_ok = !matches!(&from, From::File(f) if f == "-");
        self.at = match &from {
            From::Expr(n) => format!("-e expression #{n}, char 0"),
            From::File(f) => format!("file {f} line {{}}"),
        };
        let result = self.commands(&mut r);
        self.first = false;
        let at = match &from {
            From::Expr(n) => format!("-e expression #{n}, char {}", r.i),
            From::File(f) => {
                format!("file {f} line {}", 1 + text[..r.i].iter().filter(|&&b| b == b'\n').count())
            }
        };
        result.map_err(|m| format!("{at}: {m}"))
    }

    /// Ends the script: open blocks and jumps to missing labels are errors.
    pub(super) fn finish(mut self) -> Result<Program, String> {
        if let Some((idx, raw)) = self.pending.take() {
            if let Op::Text(_, t) = &mut self.prog.cmds[idx].op {
                *t = String::from_utf8_lossy(&raw).into_owned();
            }
        }
        if let Some((_, at)) = self.blocks.last() {
            return Err(format!("{at}: unmatched `{{'"));
        }
        for (idx, name) in &self.jumps {
            let target = self.labels.iter().find(|(l, _)| l == name).map(|(_, at)| *at);
            if target.is_none() {
                return Err(format!("can't find label for jump to `{name}'"));
            }
            if let Op::Jump(_, t) = &mut self.prog.cmds[*idx].op {
                *t = target;
            }
        }
        Ok(self.prog)
    }

    fn commands(&mut self, r: &mut Reader) -> Result<(), String> {
        if let Some((idx, raw)) = self.pending.take() {
            self.text(r, idx, raw, None);
        }
        loop {
            let mut ch = r.inchar();
            while ch == i32::from(b';') || (ch != EOF && (ch as u8).is_ascii_whitespace()) {
                ch = r.inchar();
            }
            if ch == EOF {
                return Ok(());
            }
            let mut cmd = Cmd { a1: None, a2: None, negate: false, op: Op::Simple(b'#') };
            let mut zero = false;
            if let Some(a) = self.address(r, ch)? {
                let a1 = match a {
                    End::Line(n) => {
                        zero = n == 0;
                        Addr::Line(n)
                    }
                    End::Last => Addr::Last,
                    End::Re(re) => Addr::Re(re),
                    End::Plus(_) | End::Tilde(_) => return Err("invalid usage of +N or ~N as first address".into()),
                };
                let a1 = match (a1, r.s.get(r.i)) {
                    (Addr::Line(n), Some(b'~')) => {
                        r.i += 1;
                        let c = r.inchar();
                        let step = if c != EOF && (c as u8).is_ascii_digit() {
                            r.integer(c)
                        } else {
                            r.savchar(c);
                            0
                        };
                        zero = false;
                        Addr::Step(n, step)
                    }
                    (a1, _) => a1,
                };
                cmd.a1 = Some(a1);
                ch = r.nonblank();
                if ch == i32::from(b',') {
                    ch = r.nonblank();
                    match self.address(r, ch)? {
                        Some(a2) => cmd.a2 = Some(a2),
                        None => return Err("unexpected `,'".into()),
                    }
                    ch = r.nonblank();
                }
                if zero && !matches!(cmd.a2, Some(End::Re(_))) {
                    return Err("invalid usage of line address 0".into());
                }
            }
            if ch == i32::from(b'!') {
                cmd.negate = true;
                ch = r.nonblank();
                if ch == i32::from(b'!') {
                    return Err("multiple `!'s".into());
                }
            }
            self.command(r, ch, cmd)?;
        }
    }

    /// An address starting with `ch`, or `None` when `ch` starts none.
    fn address(&mut self, r: &mut Reader, mut ch: i32) -> Result<Option<End>, String> {
        if ch == i32::from(b'/') || ch == i32::from(b'\\') {
            if ch == i32::from(b'\\') {
                ch = r.inchar();
            }
            let Some(p) = r.slash(ch, true) else { return Err("unterminated address regex".into()) };
            let (mut icase, mut multi) = (false, false);
            loop {
                let f = r.nonblank();
                if f == i32::from(b'I') {
                    icase = true;
                } else if f == i32::from(b'M') {
                    multi = true;
                } else {
                    r.savchar(f);
                    break;
                }
            }
            return Ok(Some(End::Re(self.regex(&p, icase, multi)?)));
        }
        if ch != EOF && (ch as u8).is_ascii_digit() {
            return Ok(Some(End::Line(r.integer(ch))));
        }
        if ch == i32::from(b'+') || ch == i32::from(b'~') {
            let c = r.inchar();
            let n = if c != EOF && (c as u8).is_ascii_digit() {
                r.integer(c)
            } else {
                r.savchar(c);
                0
            };
            return Ok(Some(if ch == i32::from(b'+') { End::Plus(n) } else { End::Tilde(n) }));
        }
        if ch == i32::from(b'$') {
            return Ok(Some(End::Last));
        }
        Ok(None)
    }

    fn regex(&mut self, p: &[u8], icase: bool, multi: bool) -> Result<Rx, String> {
        if p.is_empty() {
            return Ok(None);
        }
        match rx::compile(p, self.extended, icase, multi) {
            Ok(re) => Ok(Some(re)),
            Err(rx::Refused::Message(m)) => Err(m),
            Err(rx::Refused::Panic(m)) => {
                self.panic = Some(m);
                Err(m.to_string())
            }
        }
    }

    fn command(&mut self, r: &mut Reader, ch: i32, mut cmd: Cmd) -> Result<(), String> {
        let idx = self.prog.cmds.len();
        if ch == EOF || ch == i32::from(b'\n') {
            return Err("missing command".into());
        }
        let c = ch as u8;
        let one_address =
            |cmd: &Cmd| if cmd.a2.is_some() { Err("command only uses one address".to_string()) } else { Ok(()) };
        cmd.op = match c {
            b'#' => {
                if cmd.a1.is_some() {
                    return Err("comments don't accept any addresses".into());
                }
                let hash_n = self.first && self.hash_n_ok && r.i == 1 && r.s.get(1) == Some(&b'n');
                if hash_n {
                    self.prog.hash_n = true;
                }
                while !matches!(r.inchar(), EOF | 10) {}
                return Ok(());
            }
            b'{' => {
                let line = 1 + r.s[..r.i].iter().filter(|&&b| b == b'\n').count();
                self.blocks.push((idx, self.at.replace("{}", &line.to_string())));
                Op::Open(0)
            }
            b'}' => {
                let Some((open, _)) = self.blocks.pop() else { return Err("unexpected `}'".into()) };
                if cmd.a1.is_some() {
                    return Err("`}' doesn't want any addresses".into());
                }
                self.prog.cmds[open].op = Op::Open(idx);
                r.end_of_cmd()?;
                Op::Close
            }
            b':' => {
                if cmd.a1.is_some() {
                    return Err(": doesn't want any addresses".into());
                }
                let label = r.word(false);
                if label.is_empty() {
                    return Err("\":\" lacks a label".into());
                }
                self.labels.push((label, idx));
                Op::Simple(b':')
            }
            b'b' | b't' | b'T' => {
                let label = r.word(false);
                if !label.is_empty() {
                    self.jumps.push((idx, label));
                }
                Op::Jump(c, None)
            }
            b'v' => {
                r.word(false);
                Op::Simple(b':')
            }
            b'a' | b'i' | b'c' => {
                let mut ch = r.nonblank();
                if ch == EOF {
                    return Err("expected \\ after `a', `c' or `i'".into());
                }
                if ch == i32::from(b'\\') {
                    ch = r.inchar();
                } else {
                    r.savchar(ch);
                    ch = i32::from(b'\n');
                }
                self.prog.cmds.push(Cmd { op: Op::Text(c, String::new()), ..cmd });
                if ch == EOF {
                    self.pending = Some((idx, Vec::new()));
                } else {
                    self.text(r, idx, Vec::new(), Some(ch as u8));
                }
                return Ok(());
            }
            b'q' | b'Q' => {
                one_address(&cmd)?;
                let ch = r.nonblank();
                let n = if ch != EOF && (ch as u8).is_ascii_digit() {
                    r.integer(ch)
                } else {
                    r.savchar(ch);
                    0
                };
                r.end_of_cmd()?;
                Op::Quit(c, n as i32)
            }
            b'l' | b'L' => {
                let ch = r.nonblank();
                let n = if ch != EOF && (ch as u8).is_ascii_digit() {
                    Some(r.integer(ch))
                } else {
                    r.savchar(ch);
                    None
                };
                r.end_of_cmd()?;
                Op::List(n)
            }
            b'=' | b'd' | b'D' | b'F' | b'g' | b'G' | b'h' | b'H' | b'n' | b'N' | b'p' | b'P' | b'z' | b'x' => {
                r.end_of_cmd()?;
                Op::Simple(c)
            }
            b'r' | b'R' | b'w' | b'W' => {
                if self.sandbox {
                    return Err("e/r/w commands disabled in sandbox mode".into());
                }
                let name = r.word(true);
                if name.is_empty() {
                    return Err("missing filename in r/R/w/W commands".into());
                }
                if c == b'r' || c == b'R' {
                    self.prog.rfiles.push(name.clone());
                    Op::Read(c, name)
                } else {
                    Op::Write(c, self.wfile(name))
                }
            }
            b'e' => {
                if self.sandbox {
                    return Err("e/r/w commands disabled in sandbox mode".into());
                }
                return Err("the `e' command is not supported here".into());
            }
            b's' => Op::Subst(Box::new(self.subst(r)?)),
            b'y' => self.trans(r)?,
            _ => return Err(format!("unknown command: `{}'", c as char)),
        };
        self.prog.cmds.push(cmd);
        Ok(())
    }

    /// The number of the output file `name`, opened once however often it is named.
    fn wfile(&mut self, name: String) -> usize {
        match self.prog.wfiles.iter().position(|f| *f == name) {
            Some(n) => n,
            None => {
                self.prog.wfiles.push(name);
                self.prog.wfiles.len() - 1
            }
        }
    }

    /// The text of `a`, `i` or `c` (`raw`: what earlier pieces gave), after `leadin`.
    fn text(&mut self, r: &mut Reader, idx: usize, mut raw: Vec<u8>, leadin: Option<u8>) {
        if let Some(b) = leadin.filter(|&b| b != b'\n') {
            raw.push(b);
        }
        let mut ch = r.inchar();
        while ch != EOF && ch != i32::from(b'\n') {
            if ch == i32::from(b'\\') {
                ch = r.inchar();
                if ch != EOF {
                    raw.push(b'\\');
                }
            }
            if ch == EOF {
                raw.push(b'\n');
                self.pending = Some((idx, raw));
                return;
            }
            raw.push(ch as u8);
            ch = r.inchar();
        }
        raw.push(b'\n');
        if let Op::Text(_, t) = &mut self.prog.cmds[idx].op {
            *t = rx::text(&raw);
        }
    }

    fn delimiter(r: &mut Reader) -> Result<i32, String> {
        let slash = r.inchar();
        if slash >= 0x80 {
            return Err("delimiter character is not a single-byte character".into());
        }
        Ok(slash)
    }

    fn subst(&mut self, r: &mut Reader) -> Result<Subst, String> {
        let slash = Self::delimiter(r)?;
        let unterminated = || "unterminated `s' command".to_string();
        let pattern = r.slash(slash, true).ok_or_else(unterminated)?;
        let repl = r.slash(slash, false).ok_or_else(unterminated)?;
        let mut s = Subst { rx: None, parts: Vec::new(), global: false, nth: 0, print: false, write: None };
        let (mut icase, mut multi) = (false, false);
        loop {
            let ch = r.inchar();
            match u8::try_from(ch).unwrap_or(0) {
                _ if ch == EOF => break,
                b'i' | b'I' => icase = true,
                b'm' | b'M' => multi = true,
                b'e' => return Err("the `e' flag of `s' is not supported here".into()),
                b'p' if s.print => return Err("multiple `p' options to `s' command".into()),
                b'p' => s.print = true,
                b'g' if s.global => return Err("multiple `g' options to `s' command".into()),
                b'g' => s.global = true,
                b'w' => {
                    if self.sandbox {
                        return Err("e/r/w commands disabled in sandbox mode".into());
                    }
                    let name = r.word(true);
                    if name.is_empty() {
                        return Err("missing filename in r/R/w/W commands".into());
                    }
                    s.write = Some(self.wfile(name));
                    break;
                }
                d @ b'0'..=b'9' => {
                    if s.nth != 0 {
                        return Err("multiple number options to `s' command".into());
                    }
                    s.nth = r.integer(i32::from(d));
                    if s.nth == 0 {
                        return Err("number option to `s' command may not be zero".into());
                    }
                }
                b'}' | b'#' => {
                    r.savchar(ch);
                    break;
                }
                b'\n' | b';' => break,
                b' ' | b'\t' => {}
                _ => return Err("unknown option to `s'".into()),
            }
        }
        s.nth = s.nth.max(1);
        s.rx = self.regex(&pattern, icase, multi)?;
        let (parts, max) = rx::replacement(&repl);
        if let Some(re) = &s.rx {
            if max >= re.captures_len() {
                return Err(format!("invalid reference \\{max} on `s' command's RHS"));
            }
        }
        s.parts = parts;
        Ok(s)
    }

    fn trans(&mut self, r: &mut Reader) -> Result<Op, String> {
        let slash = Self::delimiter(r)?;
        let unterminated = || "unterminated `y' command".to_string();
        let from = r.slash(slash, false).ok_or_else(unterminated)?;
        let to = r.slash(slash, false).ok_or_else(unterminated)?;
        let chars = |b: &[u8]| -> Vec<char> {
            let mut out = Vec::new();
            let s = String::from_utf8_lossy(b);
            let mut it = s.chars().peekable();
            while let Some(c) = it.next() {
                if c == '\\' {
                    match it.peek() {
                        Some('\\') => {
                            it.next();
                            out.push('\\');
                            continue;
                        }
                        Some('n') => {
                            it.next();
                            out.push('\n');
                            continue;
                        }
                        _ => {}
                    }
                }
                out.push(c);
            }
            out
        };
        let (from, to) = (chars(&from), chars(&to));
        if from.len() != to.len() {
            return Err("strings for `y' command are different lengths".into());
        }
        r.end_of_cmd()?;
        Ok(Op::Trans(from.into_iter().zip(to).collect()))
    }
}
