//! `join`: lines of two files sorted on a join field, paired where those fields are
//! equal, as coreutils 9.1 — with `-a`/`-v` for unpaired lines, `-o` formats (and
//! `auto`), `-e`, `-i`, `--header` and its checks of the files' order.
//!
//! Left out: the obsolete forms where an operand after `-o LIST` or `-j1` turns out to
//! belong to that option (`join -o 1.1 2.1 f g`); such extra operands are refused.

use super::ctx::{Ctx, Status};
use super::lines;
use super::order::Check;
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};
use crate::base::quote::{quoteaf, quotef};
use std::cmp::Ordering;

const OPTS: &[getopt::Opt] = &[
    opt('i', "ignore-case", Arg::No),
    long("check-order", Arg::No),
    long("nocheck-order", Arg::No),
    opt('z', "zero-terminated", Arg::No),
    long("header", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
    short("a", Arg::Required),
    short("e", Arg::Required),
    short("1", Arg::Required),
    short("2", Arg::Required),
    short("j", Arg::Required),
    short("o", Arg::Required),
    short("t", Arg::Required),
    short("v", Arg::Required),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// How lines split into fields.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    /// Runs of blanks; output fields are separated by a space.
    Blanks,
    /// `-t ''`: the whole line is one field.
    Whole,
    Byte(u8),
}

/// A field of the output format: file 0 (the join field), 1 or 2, and a field index.
type Spec = (u8, usize);

/// A run's settings.
struct Settings {
    tab: Tab,
    end: u8,
    ignore_case: bool,
    check: Check,
    fields: [usize; 2],
    unpaired: [bool; 2],
    paired: bool,
    filler: Option<String>,
    format: Vec<Spec>,
    auto: bool,
    header: bool,
}

/// An input: its name, its lines split into fields, and how far it has been read.
struct Input<'d> {
    name: String,
    lines: Vec<Vec<&'d [u8]>>,
    texts: Vec<&'d [u8]>,
    next: usize,
    previous: Option<usize>,
}

/// The first line found out of order under `--check-order`: the run stops.
struct Stop;

/// A run over two inputs.
struct Join<'d> {
    s: Settings,
    inputs: [Input<'d>; 2],
    autocount: [usize; 2],
    seen_unpairable: bool,
    warned: [bool; 2],
    out: Vec<u8>,
    errors: Vec<String>,
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let mut s = Settings {
        tab: Tab::Blanks,
        end: b'\n',
        ignore_case: false,
        check: Check::Default,
        fields: [usize::MAX; 2],
        unpaired: [false; 2],
        paired: true,
        filler: None,
        format: Vec::new(),
        auto: false,
        header: false,
    };
    for given in &line.opts {
        let value = given.value.as_deref().unwrap_or_default();
        let done = match given.key {
            "v" | "a" => {
                if given.key == "v" {
                    s.paired = false;
                }
                match value.parse::<u8>() {
                    Ok(n @ (1 | 2)) if value.bytes().all(|b| b.is_ascii_digit()) => {
                        s.unpaired[usize::from(n - 1)] = true;
                        Ok(())
                    }
                    _ => Err(format!("invalid field number: ‘{value}’")),
                }
            }
            "e" if s.filler.as_deref().is_some_and(|f| f != value) => {
                Err("conflicting empty-field replacement strings".to_string())
            }
            "e" => {
                s.filler = Some(value.to_string());
                Ok(())
            }
            "ignore-case" => {
                s.ignore_case = true;
                Ok(())
            }
            "1" | "2" => field_number(value).and_then(|n| set_field(&mut s.fields[usize::from(given.key == "2")], n)),
            "j" => field_number(value).and_then(|n| {
                set_field(&mut s.fields[0], n)?;
                set_field(&mut s.fields[1], n)
            }),
            "o" if value == "auto" => {
                s.auto = true;
                Ok(())
            }
            "o" => value.split([',', ' ', '\t']).try_for_each(|spec| field_spec(spec).map(|f| s.format.push(f))),
            "t" => {
                let tab = match value.as_bytes() {
                    [] => Ok(Tab::Whole),
                    [b] => Ok(Tab::Byte(*b)),
                    b"\\0" => Ok(Tab::Byte(0)),
                    _ => Err(format!("multi-character tab ‘{value}’")),
                };
                tab.and_then(|t| match s.tab {
                    Tab::Blanks => {
                        s.tab = t;
                        Ok(())
                    }
                    old if old == t => Ok(()),
                    _ => Err("incompatible tabs".to_string()),
                })
            }
            "zero-terminated" => {
                s.end = 0;
                Ok(())
            }
            "check-order" => {
                s.check = Check::Enabled;
                Ok(())
            }
            "nocheck-order" => {
                s.check = Check::Disabled;
                Ok(())
            }
            "header" => {
                s.header = true;
                Ok(())
            }
            _ => return Ok(ctx.about(given.key)),
        };
        if let Err(message) = done {
            ctx.error(message);
            return Ok(1);
        }
    }
    let files = &line.operands;
    if files.len() > 2 {
        ctx.error(format!("extra operand {}", quoteaf(&files[2])));
        return Ok(ctx.usage("", 1));
    }
    if files.len() < 2 {
        match files.last() {
            None => ctx.error("missing operand"),
            Some(f) => ctx.error(format!("missing operand after ‘{f}’")),
        }
        return Ok(ctx.usage("", 1));
    }
    for f in &mut s.fields {
        if *f == usize::MAX {
            *f = 0;
        }
    }
    ctx.want(files.iter().map(String::as_str))?;
    let mut datas = Vec::new();
    for f in files {
        match ctx.read(f)? {
            Ok(d) => datas.push(Ok(d)),
            Err(e) if e.is_dir() => datas.push(Err(e.text.clone())),
            Err(e) => {
                ctx.error(format!("{}: {}", quotef(f), e.text));
                return Ok(1);
            }
        }
    }
    if files[0] == "-" && files[1] == "-" {
        ctx.error("both files cannot be standard input: No such file or directory");
        return Ok(1);
    }
    let mut inputs = Vec::new();
    for (f, d) in files.iter().zip(datas) {
        let d = match d {
            Ok(d) => d,
            Err(text) => {
                ctx.error(format!("read error: {text}"));
                return Ok(1);
            }
        };
        let texts: Vec<&[u8]> = lines::split(d, s.end).map(|l| lines::body(l, s.end)).collect();
        let lines = texts.iter().map(|t| split_fields(t, s.tab)).collect();
        inputs.push(Input { name: f.clone(), lines, texts, next: 0, previous: None });
    }
    let second = inputs.pop().expect("two inputs");
    let first = inputs.pop().expect("two inputs");
    let mut j = Join {
        s,
        inputs: [first, second],
        autocount: [0; 2],
        seen_unpairable: false,
        warned: [false; 2],
        out: Vec::new(),
        errors: Vec::new(),
    };
    let stopped = j.join().is_err();
    for e in std::mem::take(&mut j.errors) {
        ctx.error(e);
    }
    ctx.print(std::mem::take(&mut j.out));
    if stopped {
        return Ok(1);
    }
    if j.warned[0] || j.warned[1] {
        ctx.error("input is not in sorted order");
        return Ok(1);
    }
    Ok(0)
}

/// A 1-based field number made 0-based (too large: the largest), or GNU's complaint.
fn field_number(text: &str) -> Result<usize, String> {
    let t = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.bytes().all(|b| b == b'0') {
        return Err(format!("invalid field number: ‘{text}’"));
    }
    Ok(t.parse::<usize>().unwrap_or(usize::MAX) - 1)
}

/// Sets a join field, refusing a second, different one.
fn set_field(field: &mut usize, n: usize) -> Result<(), String> {
    if *field != usize::MAX && *field != n {
        return Err(format!("incompatible join fields {}, {}", *field + 1, n + 1));
    }
    *field = n;
    Ok(())
}

/// One item of an `-o` list: `0`, `1.N` or `2.N`.
fn field_spec(spec: &str) -> Result<Spec, String> {
    match spec.as_bytes() {
        [b'0'] => Ok((0, 0)),
        [b'0', ..] => Err(format!("invalid field specifier: ‘{spec}’")),
        [f @ (b'1' | b'2'), b'.', ..] => Ok((f - b'0', field_number(&spec[2..])?)),
        [b'1' | b'2', ..] => Err(format!("invalid field specifier: ‘{spec}’")),
        _ => Err(format!("invalid file number in field spec: ‘{spec}’")),
    }
}

/// The fields of a line (as join's `xfields`).
fn split_fields(line: &[u8], tab: Tab) -> Vec<&[u8]> {
    if line.is_empty() {
        return Vec::new();
    }
    match tab {
        Tab::Whole => vec![line],
        Tab::Byte(t) => line.split(|&b| b == t).collect(),
        Tab::Blanks => {
            let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n');
            let mut fields = Vec::new();
            let mut p = line.iter().take_while(|&&b| blank(b)).count();
            if p == line.len() {
                return fields;
            }
            loop {
                let start = p;
                p += 1;
                while p < line.len() && !blank(line[p]) {
                    p += 1;
                }
                fields.push(&line[start..p]);
                if p == line.len() {
                    return fields;
                }
                p += 1;
                while p < line.len() && blank(line[p]) {
                    p += 1;
                }
                if p == line.len() {
                    fields.push(&line[p..]);
                    return fields;
                }
            }
        }
    }
}

/// A line of an input, or the blank line (no fields) an unpaired line pairs with.
type At = Option<usize>;

impl<'d> Join<'d> {
    fn fields(&self, which: usize, at: At) -> &[&'d [u8]] {
        at.map_or(&[][..], |i| &self.inputs[which].lines[i])
    }

    /// How the join fields of two lines compare (`jf` the field of each).
    fn keycmp(&self, a: (usize, usize), b: (usize, usize), jf: [usize; 2]) -> Ordering {
        let x = self.inputs[a.0].lines[a.1].get(jf[0]).copied().unwrap_or_default();
        let y = self.inputs[b.0].lines[b.1].get(jf[1]).copied().unwrap_or_default();
        if x.is_empty() || y.is_empty() {
            return (!x.is_empty()).cmp(&!y.is_empty());
        }
        if self.s.ignore_case {
            let n = x.len().min(y.len());
            let d = x[..n].iter().map(u8::to_ascii_uppercase).cmp(y[..n].iter().map(u8::to_ascii_uppercase));
            d.then(x.len().cmp(&y.len()))
        } else {
            x.cmp(y)
        }
    }

    /// Reads the next line of input `which`, checking its order.
    fn get_line(&mut self, which: usize) -> Result<At, Stop> {
        let input = &self.inputs[which];
        if input.next >= input.lines.len() {
            return Ok(None);
        }
        let i = input.next;
        self.inputs[which].next += 1;
        if let Some(p) = self.inputs[which].previous {
            let checking = self.s.check.checking(self.seen_unpairable);
            let jf = self.s.fields[which];
            if checking && !self.warned[which] && self.keycmp((which, p), (which, i), [jf, jf]) == Ordering::Greater {
                let input = &self.inputs[which];
                let text = String::from_utf8_lossy(input.texts[i]);
                self.errors.push(format!("{}:{}: is not sorted: {text}", input.name, i + 1));
                if self.s.check == Check::Enabled {
                    return Err(Stop);
                }
                self.warned[which] = true;
            }
        }
        self.inputs[which].previous = Some(i);
        Ok(Some(i))
    }

    /// Reads a line onto `seq`, emptied first when `first`; whether there was one.
    fn advance(&mut self, which: usize, seq: &mut Vec<usize>, first: bool) -> Result<bool, Stop> {
        if first {
            seq.clear();
        }
        Ok(match self.get_line(which)? {
            Some(i) => {
                seq.push(i);
                true
            }
            None => false,
        })
    }

    fn join(&mut self) -> Result<(), Stop> {
        let (mut seq1, mut seq2) = (Vec::new(), Vec::new());
        self.advance(0, &mut seq1, false)?;
        self.advance(1, &mut seq2, false)?;
        if self.s.auto {
            self.autocount = [
                seq1.first().map_or(0, |&i| self.inputs[0].lines[i].len()),
                seq2.first().map_or(0, |&i| self.inputs[1].lines[i].len()),
            ];
        }
        if self.s.header && (!seq1.is_empty() || !seq2.is_empty()) {
            self.prjoin(seq1.first().copied(), seq2.first().copied());
            self.inputs[0].previous = None;
            self.inputs[1].previous = None;
            if !seq1.is_empty() {
                self.advance(0, &mut seq1, true)?;
            }
            if !seq2.is_empty() {
                self.advance(1, &mut seq2, true)?;
            }
        }
        let jf = self.s.fields;
        while !seq1.is_empty() && !seq2.is_empty() {
            match self.keycmp((0, seq1[0]), (1, seq2[0]), jf) {
                Ordering::Less => {
                    if self.s.unpaired[0] {
                        self.prjoin(Some(seq1[0]), None);
                    }
                    self.advance(0, &mut seq1, true)?;
                    self.seen_unpairable = true;
                    continue;
                }
                Ordering::Greater => {
                    if self.s.unpaired[1] {
                        self.prjoin(None, Some(seq2[0]));
                    }
                    self.advance(1, &mut seq2, true)?;
                    self.seen_unpairable = true;
                    continue;
                }
                Ordering::Equal => {}
            }
            let eof1 = loop {
                if !self.advance(0, &mut seq1, false)? {
                    break true;
                }
                if self.keycmp((0, *seq1.last().unwrap_or(&0)), (1, seq2[0]), jf) != Ordering::Equal {
                    break false;
                }
            };
            let eof2 = loop {
                if !self.advance(1, &mut seq2, false)? {
                    break true;
                }
                if self.keycmp((0, seq1[0]), (1, *seq2.last().unwrap_or(&0)), jf) != Ordering::Equal {
                    break false;
                }
            };
            let n1 = if eof1 { seq1.len() } else { seq1.len() - 1 };
            let n2 = if eof2 { seq2.len() } else { seq2.len() - 1 };
            if self.s.paired {
                for &a in &seq1[..n1] {
                    for &b in &seq2[..n2] {
                        self.prjoin(Some(a), Some(b));
                    }
                }
            }
            seq1 = if eof1 { Vec::new() } else { vec![seq1[n1]] };
            seq2 = if eof2 { Vec::new() } else { vec![seq2[n2]] };
        }
        let checktail = self.s.check != Check::Disabled && !(self.warned[0] && self.warned[1]);
        for which in 0..2 {
            let (seq, other) = if which == 0 { (&seq1, &seq2) } else { (&seq2, &seq1) };
            let print = self.s.unpaired[which];
            if !(print || checktail) || seq.is_empty() {
                continue;
            }
            let pair = |i| if which == 0 { (Some(i), None) } else { (None, Some(i)) };
            if print {
                let (a, b) = pair(seq[0]);
                self.prjoin(a, b);
            }
            if !other.is_empty() {
                self.seen_unpairable = true;
            }
            while let Some(i) = self.get_line(which)? {
                if print {
                    let (a, b) = pair(i);
                    self.prjoin(a, b);
                }
                if self.warned[which] && !print {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Field `n` of a line, or the filler where it is missing or empty.
    fn prfield(&mut self, which: usize, at: At, n: usize) {
        let f = self.fields(which, at).get(n).copied().unwrap_or_default();
        if !f.is_empty() {
            self.out.extend_from_slice(f);
        } else if let Some(filler) = &self.s.filler {
            self.out.extend_from_slice(filler.as_bytes());
        }
    }

    fn separator(&self) -> u8 {
        match self.s.tab {
            Tab::Blanks => b' ',
            Tab::Whole => b'\n',
            Tab::Byte(t) => t,
        }
    }

    /// Every field of a line but its join field, each after a separator.
    fn prfields(&mut self, which: usize, at: At) {
        let n = if self.s.auto { self.autocount[which] } else { self.fields(which, at).len() };
        let jf = self.s.fields[which];
        for i in (0..n).filter(|&i| i != jf) {
            self.out.push(self.separator());
            self.prfield(which, at, i);
        }
    }

    /// One output line for a pair of lines (either may be the blank line).
    fn prjoin(&mut self, a: At, b: At) {
        let (jl, jf) = if a.is_none() { ((1, b), self.s.fields[1]) } else { ((0, a), self.s.fields[0]) };
        if self.s.format.is_empty() {
            self.prfield(jl.0, jl.1, jf);
            self.prfields(0, a);
            self.prfields(1, b);
        } else {
            for k in 0..self.s.format.len() {
                if k > 0 {
                    self.out.push(self.separator());
                }
                match self.s.format[k] {
                    (0, _) => self.prfield(jl.0, jl.1, jf),
                    (1, n) => self.prfield(0, a, n),
                    (_, n) => self.prfield(1, b, n),
                }
            }
        }
        self.out.push(self.s.end);
    }
}
