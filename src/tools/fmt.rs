//! `fmt`: paragraphs refilled to a width, as coreutils 9.1 does it: each paragraph's line
//! breaks are chosen together, the cheapest by a cost that favours lines near the goal
//! width, of even lengths, and breaks after sentences and punctuation (`-s` only splits,
//! `-u` evens the spaces, `-c` and `-t` keep the first lines' indents, `-p` reformats only
//! the lines after a prefix).

use super::ctx::{Ctx, Status};
use super::decimal;
use crate::base::getopt::{self, long, opt, Arg, Digits, Grammar};
use crate::base::quote::quoteaf;

const OPTS: &[getopt::Opt] = &[
    opt('c', "crown-margin", Arg::No),
    opt('p', "prefix", Arg::Required),
    opt('s', "split-only", Arg::No),
    opt('t', "tagged-paragraph", Arg::No),
    opt('u', "uniform-spacing", Arg::No),
    opt('w', "width", Arg::Required),
    opt('g', "goal", Arg::Required),
    long("help", Arg::No),
    long("version", Arg::No),
];

/// The most bytes and words of a paragraph held at once; a longer one is written out in
/// parts.
const MAXCHARS: usize = 5000;
const MAXWORDS: usize = 1000;
const TABWIDTH: i32 = 8;
/// The indent of a one-line tagged paragraph's other lines.
const DEF_INDENT: i32 = 3;
const EOF: i32 = -1;

/// A cost, as the square of a distance in tenths of a column.
type Cost = i64;
const MAXCOST: Cost = Cost::MAX;

const fn equiv(n: Cost) -> Cost {
    n * n
}
const fn short_cost(n: Cost) -> Cost {
    equiv(n * 10)
}
const fn ragged_cost(n: Cost) -> Cost {
    short_cost(n) / 2
}
const LINE_COST: Cost = equiv(70);
const SENTENCE_BONUS: Cost = equiv(50);
const NOBREAK_COST: Cost = equiv(600);
const PAREN_BONUS: Cost = equiv(40);
const PUNCT_BONUS: Cost = equiv(40);
const LINE_CREDIT: Cost = equiv(3);

/// A word of the paragraph, and the best lines from it on.
#[derive(Clone, Copy, Default)]
struct Word {
    /// Where its bytes start in the paragraph's buffer, and how many.
    start: usize,
    length: i32,
    /// The columns of blank after it.
    space: i32,
    paren: bool,
    period: bool,
    punct: bool,
    /// It ends a sentence.
    last: bool,
    line_length: i32,
    best_cost: Cost,
    next_break: usize,
}

/// What the options ask for.
struct Settings {
    crown: bool,
    tagged: bool,
    split: bool,
    uniform: bool,
    /// The prefix without its leading and trailing blanks; its leading blanks; its length
    /// with its trailing blanks.
    prefix: Vec<u8>,
    prefix_lead_space: i32,
    prefix_full_length: i32,
    max_width: i32,
    goal_width: i32,
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    // `-WIDTH` as the first word only.
    let (mut width, rest) = match args.first() {
        Some(a) if a.len() > 1 && a.starts_with('-') && a.as_bytes()[1].is_ascii_digit() => {
            (Some(a[1..].to_string()), &args[1..])
        }
        _ => (None, args),
    };
    let (line, misuse) =
        getopt::read(&Grammar { opts: OPTS, permute: true, digits: Digits::Each, ..getopt::GETOPT_LONG }, rest);
    let mut s = Settings {
        crown: false,
        tagged: false,
        split: false,
        uniform: false,
        prefix: Vec::new(),
        prefix_lead_space: 0,
        prefix_full_length: 0,
        max_width: 75,
        goal_width: 0,
    };
    let mut goal = None;
    for given in &line.opts {
        let value = given.value.clone().unwrap_or_default();
        match given.key {
            "crown-margin" => s.crown = true,
            "split-only" => s.split = true,
            "tagged-paragraph" => s.tagged = true,
            "uniform-spacing" => s.uniform = true,
            "width" => width = Some(value),
            "goal" => goal = Some(value),
            "prefix" => {
                let p = value.trim_start_matches(' ');
                s.prefix_lead_space = (value.len() - p.len()) as i32;
                s.prefix_full_length = p.len() as i32;
                s.prefix = p.trim_end_matches(' ').as_bytes().to_vec();
            }
            "help" | "version" => return Ok(ctx.about(given.key)),
            digit => {
                ctx.error(format!(
                    "invalid option -- {digit}; -WIDTH is recognized only when it is the first\noption; use -w N instead"
                ));
                return Ok(ctx.usage("", 1));
            }
        }
    }
    if let Some(m) = misuse {
        return Ok(ctx.usage(&m.message(ctx.name), 1));
    }
    let width_of = |text: &str, max: i32| decimal::read(text, 0, i128::from(max), false, "invalid width");
    if let Some(w) = &width {
        match width_of(w, MAXCHARS as i32 / 2) {
            Ok(w) => s.max_width = w as i32,
            Err(message) => {
                ctx.error(message);
                return Ok(1);
            }
        }
    }
    s.goal_width = match &goal {
        Some(g) => match width_of(g, s.max_width) {
            Ok(g) => {
                if width.is_none() {
                    s.max_width = g as i32 + 10;
                }
                g as i32
            }
            Err(message) => {
                ctx.error(message);
                return Ok(1);
            }
        },
        None => s.max_width * (2 * (100 - 7) + 1) / 200,
    };
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    let mut status = 0;
    for file in &files {
        match ctx.read(file)? {
            Ok(data) => {
                let mut f = Fmt::new(&s, data);
                f.file();
                ctx.print(f.out);
            }
            Err(e) if e.is_dir() => {
                ctx.error("read error");
                status = 1;
            }
            Err(e) => {
                ctx.error(format!("cannot open {} for reading: {}", quoteaf(file), e.text));
                status = 1;
            }
        }
    }
    Ok(status)
}

/// One file being formatted: its bytes as fmt.c reads them, a character at a time, and
/// the paragraph being read.
struct Fmt<'a> {
    s: &'a Settings,
    input: &'a [u8],
    at: usize,
    out: Vec<u8>,
    /// The input had a tab: indents are written with tabs.
    tabs: bool,
    prefix_indent: i32,
    first_indent: i32,
    other_indent: i32,
    next_prefix_indent: i32,
    last_line_length: i32,
    in_column: i32,
    out_column: i32,
    buf: Vec<u8>,
    words: Vec<Word>,
    /// The index of the word being read (the end of those read).
    limit: usize,
    next_char: i32,
}

impl<'a> Fmt<'a> {
    fn new(s: &'a Settings, input: &'a [u8]) -> Self {
        Fmt {
            s,
            input,
            at: 0,
            out: Vec::new(),
            tabs: false,
            prefix_indent: 0,
            first_indent: 0,
            other_indent: 0,
            next_prefix_indent: 0,
            last_line_length: 0,
            in_column: 0,
            out_column: 0,
            buf: Vec::with_capacity(MAXCHARS),
            words: vec![Word::default(); MAXWORDS],
            limit: 0,
            next_char: EOF,
        }
    }

    fn getc(&mut self) -> i32 {
        match self.input.get(self.at) {
            Some(&b) => {
                self.at += 1;
                i32::from(b)
            }
            None => EOF,
        }
    }

    fn putc(&mut self, c: i32) {
        self.out.push(c as u8);
    }

    /// Every paragraph of the file.
    fn file(&mut self) {
        self.next_char = self.get_prefix();
        while self.get_paragraph() {
            self.fmt_paragraph();
            self.put_paragraph(self.limit);
        }
    }

    /// Reads the next paragraph, copying the lines before it that are blank or lack the
    /// prefix; false at the end of the input.
    fn get_paragraph(&mut self) -> bool {
        self.last_line_length = 0;
        let mut c = self.next_char;
        while c == i32::from(b'\n')
            || c == EOF
            || self.next_prefix_indent < self.s.prefix_lead_space
            || self.in_column < self.next_prefix_indent + self.s.prefix_full_length
        {
            c = self.copy_rest(c);
            if c == EOF {
                self.next_char = EOF;
                return false;
            }
            self.putc(i32::from(b'\n'));
            c = self.get_prefix();
        }
        self.prefix_indent = self.next_prefix_indent;
        self.first_indent = self.in_column;
        self.buf.clear();
        self.limit = 0;
        c = self.get_line(c);
        let same = self.same_paragraph(c);
        self.set_other_indent(same);
        // `-s`: each line a paragraph of its own.
        if self.s.split {
        } else if self.s.crown || self.s.tagged {
            if self.same_paragraph(c) && (self.s.crown || self.in_column != self.first_indent) {
                loop {
                    c = self.get_line(c);
                    if !(self.same_paragraph(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else {
            while self.same_paragraph(c) && self.in_column == self.other_indent {
                c = self.get_line(c);
            }
        }
        let last = &mut self.words[self.limit - 1];
        (last.period, last.last) = (true, true);
        self.next_char = c;
        true
    }

    /// Copies a line that is not part of a paragraph, from `c`; the `\n` or EOF after it.
    fn copy_rest(&mut self, mut c: i32) -> i32 {
        let ends = c == i32::from(b'\n') || c == EOF;
        self.out_column = 0;
        if self.in_column > self.next_prefix_indent || !ends {
            self.put_space(self.next_prefix_indent);
            let mut p = 0;
            while self.out_column != self.in_column && p < self.s.prefix.len() {
                self.out.push(self.s.prefix[p]);
                p += 1;
                self.out_column += 1;
            }
            if !ends {
                self.put_space(self.in_column - self.out_column);
            }
            if c == EOF && self.in_column >= self.next_prefix_indent + self.s.prefix.len() as i32 {
                self.putc(i32::from(b'\n'));
            }
        }
        while c != i32::from(b'\n') && c != EOF {
            self.putc(c);
            c = self.getc();
        }
        c
    }

    /// Whether the line whose first character is `c` goes on the paragraph.
    fn same_paragraph(&self, c: i32) -> bool {
        self.next_prefix_indent == self.prefix_indent
            && self.in_column >= self.next_prefix_indent + self.s.prefix_full_length
            && c != i32::from(b'\n')
            && c != EOF
    }

    fn set_other_indent(&mut self, same: bool) {
        if self.s.split {
            self.other_indent = self.first_indent;
        } else if self.s.crown {
            self.other_indent = if same { self.in_column } else { self.first_indent };
        } else if self.s.tagged {
            if same && self.in_column != self.first_indent {
                self.other_indent = self.in_column;
            } else if self.other_indent == self.first_indent {
                self.other_indent = if self.first_indent == 0 { DEF_INDENT } else { 0 };
            }
        } else {
            self.other_indent = self.first_indent;
        }
    }

    /// Reads a line's words, from `c`; the first character after the next line's prefix.
    fn get_line(&mut self, mut c: i32) -> i32 {
        loop {
            self.words[self.limit].start = self.buf.len();
            loop {
                if self.buf.len() == MAXCHARS {
                    self.set_other_indent(true);
                    self.flush_paragraph();
                }
                self.buf.push(c as u8);
                c = self.getc();
                if c == EOF || matches!(c as u8, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
                    break;
                }
            }
            let w = self.limit;
            let length = (self.buf.len() - self.words[w].start) as i32;
            self.words[w].length = length;
            self.in_column += length;
            self.check_punctuation(w);
            let start = self.in_column;
            c = self.get_space(c);
            let word = &mut self.words[w];
            word.space = self.in_column - start;
            word.last = c == EOF || (word.period && (c == i32::from(b'\n') || word.space > 1));
            if c == i32::from(b'\n') || c == EOF || self.s.uniform {
                word.space = if word.last { 2 } else { 1 };
            }
            if w == MAXWORDS - 2 {
                self.set_other_indent(true);
                self.flush_paragraph();
            }
            self.limit += 1;
            if c == i32::from(b'\n') || c == EOF {
                break;
            }
        }
        self.get_prefix()
    }

    /// Reads the next line's indent and prefix; its first character after them.
    fn get_prefix(&mut self) -> i32 {
        self.in_column = 0;
        let first = self.getc();
        let mut c = self.get_space(first);
        if self.s.prefix.is_empty() {
            self.next_prefix_indent = self.s.prefix_lead_space.min(self.in_column);
        } else {
            self.next_prefix_indent = self.in_column;
            for i in 0..self.s.prefix.len() {
                if c != i32::from(self.s.prefix[i]) {
                    return c;
                }
                self.in_column += 1;
                c = self.getc();
            }
            c = self.get_space(c);
        }
        c
    }

    /// Reads blanks from `c`, counting columns; the first character after them.
    fn get_space(&mut self, mut c: i32) -> i32 {
        loop {
            if c == i32::from(b' ') {
                self.in_column += 1;
            } else if c == i32::from(b'\t') {
                self.tabs = true;
                self.in_column = (self.in_column / TABWIDTH + 1) * TABWIDTH;
            } else {
                return c;
            }
            c = self.getc();
        }
    }

    fn check_punctuation(&mut self, w: usize) {
        let word = self.words[w];
        let text = &self.buf[word.start..word.start + word.length as usize];
        // As `strchr`, which finds a NUL byte in any set.
        let is = |set: &[u8], c: u8| c == 0 || set.contains(&c);
        let mut finish = text.len() - 1;
        let paren = is(b"(['`\"", text[0]);
        let punct = text[finish].is_ascii_punctuation();
        while finish > 0 && is(b")]'\"", text[finish]) {
            finish -= 1;
        }
        let period = is(b".?!", text[finish]);
        let word = &mut self.words[w];
        (word.paren, word.punct, word.period) = (paren, punct, period);
    }

    /// Writes out part of a paragraph too long to hold, ending at a cheap break, and keeps
    /// the rest.
    fn flush_paragraph(&mut self) {
        if self.limit == 0 {
            let buf = std::mem::take(&mut self.buf);
            self.out.extend_from_slice(&buf);
            self.buf = buf;
            self.buf.clear();
            return;
        }
        self.fmt_paragraph();
        let mut split = self.limit;
        let mut best = MAXCOST;
        let mut w = self.words[0].next_break;
        while w != self.limit {
            let cost = self.words[w].best_cost - self.words[self.words[w].next_break].best_cost;
            if cost < best {
                split = w;
                best = cost;
            }
            if best <= MAXCOST - LINE_CREDIT {
                best += LINE_CREDIT;
            }
            w = self.words[w].next_break;
        }
        self.put_paragraph(split);
        let shift = self.words[split].start;
        self.buf.drain(..shift);
        for w in split..=self.limit {
            self.words[w].start -= shift;
        }
        self.words.copy_within(split..=self.limit, 0);
        self.limit -= split;
    }

    /// Chooses the paragraph's line breaks: for each word from the last, the cheapest
    /// lines from it on.
    fn fmt_paragraph(&mut self) {
        let limit = self.limit;
        self.words[limit].best_cost = 0;
        let saved = self.words[limit].length;
        self.words[limit].length = self.s.max_width;
        for start in (0..limit).rev() {
            let mut best = MAXCOST;
            let mut len = if start == 0 { self.first_indent } else { self.other_indent };
            let mut w = start;
            len += self.words[w].length;
            loop {
                w += 1;
                let mut cost = self.line_cost(w, len) + self.words[w].best_cost;
                if start == 0 && self.last_line_length > 0 {
                    cost += ragged_cost(Cost::from(len - self.last_line_length));
                }
                if cost < best {
                    best = cost;
                    self.words[start].next_break = w;
                    self.words[start].line_length = len;
                }
                if w == limit {
                    break;
                }
                len += self.words[w - 1].space + self.words[w].length;
                if len >= self.s.max_width {
                    break;
                }
            }
            self.words[start].best_cost = best + self.base_cost(start);
        }
        self.words[limit].length = saved;
    }

    /// The cost of a line starting at `this`, for where it starts.
    fn base_cost(&self, this: usize) -> Cost {
        let mut cost = LINE_COST;
        let w = &self.words;
        if this > 0 {
            let prev = &w[this - 1];
            if prev.period {
                cost += if prev.last { -SENTENCE_BONUS } else { NOBREAK_COST };
            } else if prev.punct {
                cost -= PUNCT_BONUS;
            } else if this > 1 && w[this - 2].last {
                cost += equiv(200) / Cost::from(prev.length + 2);
            }
        }
        if w[this].paren {
            cost -= PAREN_BONUS;
        } else if w[this].last {
            cost += equiv(150) / Cost::from(w[this].length + 2);
        }
        cost
    }

    /// The cost of a line `len` columns long that ends before `next`.
    fn line_cost(&self, next: usize, len: i32) -> Cost {
        if next == self.limit {
            return 0;
        }
        let mut cost = short_cost(Cost::from(self.s.goal_width - len));
        let n = &self.words[next];
        if n.next_break != self.limit {
            cost += ragged_cost(Cost::from(len - n.line_length));
        }
        cost
    }

    /// Writes the paragraph's lines up to the word `finish`.
    fn put_paragraph(&mut self, finish: usize) {
        self.put_line(0, self.first_indent);
        let mut w = self.words[0].next_break;
        while w != finish {
            self.put_line(w, self.other_indent);
            w = self.words[w].next_break;
        }
    }

    fn put_line(&mut self, mut w: usize, indent: i32) {
        self.out_column = 0;
        self.put_space(self.prefix_indent);
        self.out.extend_from_slice(&self.s.prefix);
        self.out_column += self.s.prefix.len() as i32;
        self.put_space(indent - self.out_column);
        let end = self.words[w].next_break - 1;
        while w != end {
            self.put_word(w);
            self.put_space(self.words[w].space);
            w += 1;
        }
        self.put_word(w);
        self.last_line_length = self.out_column;
        self.putc(i32::from(b'\n'));
    }

    fn put_word(&mut self, w: usize) {
        let word = self.words[w];
        self.out.extend_from_slice(&self.buf[word.start..word.start + word.length as usize]);
        self.out_column += word.length;
    }

    /// Writes `space` columns of blank (tabs where they fit, when the input had tabs).
    fn put_space(&mut self, space: i32) {
        let target = self.out_column + space;
        if self.tabs {
            let tab_target = target / TABWIDTH * TABWIDTH;
            if self.out_column + 1 < tab_target {
                while self.out_column < tab_target {
                    self.putc(i32::from(b'\t'));
                    self.out_column = (self.out_column / TABWIDTH + 1) * TABWIDTH;
                }
            }
        }
        while self.out_column < target {
            self.putc(i32::from(b' '));
            self.out_column += 1;
        }
    }
}
