//! The formats diff prints a script of changes in: normal, context (`-c`), unified
//! (`-u`), ed (`-e`), forward ed (`-f`) and RCS (`-n`), with GNU's hunks, line ranges and
//! markers.

use super::analyze::{is_space, Change, Text, TRAILING};
use regex_lite::Regex;

/// How changes are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Normal,
    Context,
    Unified,
    Ed,
    ForwardEd,
    Rcs,
    Side,
}

/// The options that shape the output.
pub(crate) struct Style {
    pub format: Format,
    pub context: usize,
    pub initial_tab: bool,
    pub expand_tabs: bool,
    pub tabsize: usize,
    pub suppress_blank_empty: bool,
    pub ignore_blank: bool,
    pub ignore_re: Option<Regex>,
    pub function_re: Option<Regex>,
    pub white: u8,
    pub width: usize,
    pub left_column: bool,
    pub suppress_common: bool,
}

const OLD: u8 = 1;
const NEW: u8 = 2;
const CHANGED: u8 = 3;

/// One comparison being printed: the two texts, and the header printed before the first
/// hunk (if any hunk prints).
pub(crate) struct Printer<'a> {
    pub out: &'a mut Vec<u8>,
    pub a: &'a Text,
    pub b: &'a Text,
    pub st: &'a Style,
    pub header: Vec<u8>,
    /// Where `-p`/`-F` last searched back to, and what it found.
    last_search: isize,
    last_match: Option<usize>,
}

impl<'a> Printer<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>, a: &'a Text, b: &'a Text, st: &'a Style, header: Vec<u8>) -> Self {
        Printer { out, a, b, st, header, last_search: 0, last_match: None }
    }

    /// Whether a line is one `-B` or `-I` lets change unseen.
    fn ignorable(&self, body: &[u8]) -> bool {
        let st = self.st;
        if st.ignore_blank {
            let skip_white = st.white >= TRAILING;
            if body.is_empty() || (skip_white && body.iter().all(|&c| is_space(c))) {
                return true;
            }
        }
        st.ignore_re.as_ref().is_some_and(|re| re.is_match(&String::from_utf8_lossy(body)))
    }

    /// What a hunk changes (0 when only ignorable lines), and its first and last lines
    /// in each file (last before first when none).
    pub(crate) fn analyze(&self, hunk: &[Change]) -> (u8, isize, isize, isize, isize) {
        let mut trivial = self.st.ignore_blank || self.st.ignore_re.is_some();
        let (mut shown0, mut shown1) = (0, 0);
        for c in hunk {
            shown0 += c.deleted;
            shown1 += c.inserted;
            if trivial {
                trivial = (c.line0..c.line0 + c.deleted).all(|i| self.ignorable(self.a.body(i)))
                    && (c.line1..c.line1 + c.inserted).all(|i| self.ignorable(self.b.body(i)));
            }
        }
        let (first, last) = (hunk[0], hunk[hunk.len() - 1]);
        let last0 = (last.line0 + last.deleted) as isize - 1;
        let last1 = (last.line1 + last.inserted) as isize - 1;
        let kind = if trivial { 0 } else { (u8::from(shown0 > 0) * OLD) | (u8::from(shown1 > 0) * NEW) };
        (kind, first.line0 as isize, last0, first.line1 as isize, last1)
    }

    pub(crate) fn begin(&mut self) {
        let header = std::mem::take(&mut self.header);
        self.out.extend_from_slice(&header);
    }

    /// `a,b` (1-based) or `b` alone when the range has one line or none.
    fn range(&mut self, sep: u8, a: isize, b: isize) {
        let (ta, tb) = (a + 1, b + 1);
        if tb > ta {
            self.out.extend_from_slice(format!("{ta}{}{tb}", sep as char).as_bytes());
        } else {
            self.out.extend_from_slice(tb.to_string().as_bytes());
        }
    }

    /// A line with its flag (`<`, `!`, …; `None` for none at all), and GNU's note when it
    /// has no newline.
    fn line(&mut self, flag: Option<&str>, line: &[u8]) {
        let st = self.st;
        let sep = if st.initial_tab { "\t" } else { " " };
        let mut flag_format = None;
        if let Some(f) = flag.filter(|f| !f.is_empty()) {
            flag_format = Some(format!("{f}{sep}"));
            if st.suppress_blank_empty && line.first() == Some(&b'\n') {
                self.out.extend_from_slice(f.strip_prefix(' ').unwrap_or(f).as_bytes());
            } else {
                self.out.extend_from_slice(f.as_bytes());
                self.out.extend_from_slice(sep.as_bytes());
            }
        }
        self.text(line, flag_format.as_deref());
        if flag.is_none_or(|f| !f.is_empty()) && line.last() != Some(&b'\n') {
            self.out.extend_from_slice(b"\n\\ No newline at end of file\n");
        }
    }

    /// A line's bytes, tabs expanded with `-t`.
    fn text(&mut self, line: &[u8], flag_format: Option<&str>) {
        if !self.st.expand_tabs {
            self.out.extend_from_slice(line);
            return;
        }
        let mut column = 0;
        for (k, &c) in line.iter().enumerate() {
            match c {
                b'\t' => {
                    let spaces = self.st.tabsize - column % self.st.tabsize;
                    column += spaces;
                    self.out.extend(std::iter::repeat_n(b' ', spaces));
                }
                b'\r' => {
                    self.out.push(c);
                    if let Some(f) = flag_format.filter(|_| k + 1 < line.len() && line[k + 1] != b'\n') {
                        self.out.extend_from_slice(f.as_bytes());
                    }
                    column = 0;
                }
                8 => {
                    if column > 0 {
                        column -= 1;
                        self.out.push(c);
                    }
                }
                _ => {
                    column += usize::from((0x20..0x7f).contains(&c));
                    self.out.push(c);
                }
            }
        }
    }

    /// Whether the script changes anything `-B` and `-I` do not let pass.
    pub(crate) fn differ(&self, changes: &[Change]) -> bool {
        if self.st.ignore_blank || self.st.ignore_re.is_some() {
            changes.iter().any(|c| self.analyze(std::slice::from_ref(c)).0 != 0)
        } else {
            !changes.is_empty()
        }
    }

    /// Prints the script in the chosen format.
    pub(crate) fn script(&mut self, changes: &[Change]) {
        match self.st.format {
            Format::Normal => changes.chunks(1).for_each(|h| self.normal(h)),
            Format::Ed => changes.chunks(1).rev().for_each(|h| self.ed(h)),
            Format::ForwardEd => changes.chunks(1).for_each(|h| self.forward_ed(h)),
            Format::Rcs => changes.chunks(1).for_each(|h| self.rcs(h)),
            Format::Context | Format::Unified => {
                let ignore: Vec<bool> = changes.iter().map(|c| self.analyze(std::slice::from_ref(c)).0 == 0).collect();
                let mut start = 0;
                while start < changes.len() {
                    let end = self.find_hunk(changes, &ignore, start);
                    if self.st.format == Format::Context {
                        self.context_hunk(&changes[start..end]);
                    } else {
                        self.unified_hunk(&changes[start..end]);
                    }
                    start = end;
                }
            }
            // Side by side has a printer of its own (`side::script`), which the run calls.
            Format::Side => {}
        }
    }

    fn normal(&mut self, hunk: &[Change]) {
        let (kind, f0, l0, f1, l1) = self.analyze(hunk);
        if kind == 0 {
            return;
        }
        self.begin();
        self.range(b',', f0, l0);
        self.out.push(b" dac"[kind as usize]);
        self.range(b',', f1, l1);
        self.out.push(b'\n');
        if kind & OLD != 0 {
            for i in f0..=l0 {
                self.line(Some("<"), self.a.line(i as usize));
            }
        }
        if kind == CHANGED {
            self.out.extend_from_slice(b"---\n");
        }
        if kind & NEW != 0 {
            for i in f1..=l1 {
                self.line(Some(">"), self.b.line(i as usize));
            }
        }
    }

    fn ed(&mut self, hunk: &[Change]) {
        let (kind, f0, l0, f1, l1) = self.analyze(hunk);
        if kind == 0 {
            return;
        }
        self.begin();
        self.range(b',', f0, l0);
        self.out.push(b" dac"[kind as usize]);
        self.out.push(b'\n');
        if kind != OLD {
            let mut insert_mode = true;
            for i in f1..=l1 {
                if !insert_mode {
                    self.out.extend_from_slice(b"a\n");
                    insert_mode = true;
                }
                let line = self.b.line(i as usize);
                if line == b".\n" {
                    self.out.extend_from_slice(b"..\n.\ns/.//\n");
                    insert_mode = false;
                } else {
                    self.line(Some(""), line);
                }
            }
            if insert_mode {
                self.out.extend_from_slice(b".\n");
            }
        }
    }

    fn forward_ed(&mut self, hunk: &[Change]) {
        let (kind, f0, l0, f1, l1) = self.analyze(hunk);
        if kind == 0 {
            return;
        }
        self.begin();
        self.out.push(b" dac"[kind as usize]);
        self.range(b' ', f0, l0);
        self.out.push(b'\n');
        if kind == OLD {
            return;
        }
        for i in f1..=l1 {
            self.line(Some(""), self.b.line(i as usize));
        }
        self.out.extend_from_slice(b".\n");
    }

    fn rcs(&mut self, hunk: &[Change]) {
        let (kind, f0, l0, f1, l1) = self.analyze(hunk);
        if kind == 0 {
            return;
        }
        self.begin();
        let (tf0, tl0) = (f0 + 1, l0 + 1);
        if kind & OLD != 0 {
            let n = if tf0 <= tl0 { tl0 - tf0 + 1 } else { 1 };
            self.out.extend_from_slice(format!("d{tf0} {n}\n").as_bytes());
        }
        if kind & NEW != 0 {
            let n = if f1 <= l1 { l1 - f1 + 1 } else { 1 };
            self.out.extend_from_slice(format!("a{tl0} {n}\n").as_bytes());
            for i in f1..=l1 {
                self.line(Some(""), self.b.line(i as usize));
            }
        }
    }

    /// The end of the hunk starting at `start`: changes join while fewer than
    /// `2 * context + 1` unchanged lines (`context` before an ignorable one) separate them.
    fn find_hunk(&self, changes: &[Change], ignore: &[bool], start: usize) -> usize {
        let context = self.st.context;
        let mut k = start;
        loop {
            let top0 = changes[k].line0 + changes[k].deleted;
            k += 1;
            if k == changes.len() {
                return k;
            }
            let thresh = if ignore[k] { context } else { 2 * context + 1 };
            if changes[k].line0 - top0 >= thresh {
                return k;
            }
        }
    }

    /// The hunk's lines widened by the context, within the files.
    fn widen(&self, f0: isize, l0: isize, f1: isize, l1: isize) -> (isize, isize, isize, isize) {
        let c = self.st.context as isize;
        let (n0, n1) = (self.a.lines() as isize, self.b.lines() as isize);
        ((f0 - c).max(0), (l0 + c).min(n0 - 1), (f1 - c).max(0), (l1 + c).min(n1 - 1))
    }

    /// ` name` of the line `-p`/`-F` finds before line `first0`, as the hunk header ends.
    fn function(&mut self, first0: isize) {
        let Some(re) = self.st.function_re.as_ref() else { return };
        let last = self.last_search;
        self.last_search = first0;
        let mut i = first0;
        let mut found = None;
        while last < i {
            i -= 1;
            if re.is_match(&String::from_utf8_lossy(self.a.body(i as usize))) {
                self.last_match = Some(i as usize);
                found = Some(i as usize);
                break;
            }
        }
        let Some(k) = found.or(self.last_match) else { return };
        let body = self.a.body(k);
        let from = body.iter().position(|&c| !is_space(c)).unwrap_or(body.len());
        let mut to = (from + 40).min(body.len());
        while to > from && is_space(body[to - 1]) {
            to -= 1;
        }
        self.out.push(b' ');
        self.out.extend_from_slice(&body[from..to]);
    }

    fn context_hunk(&mut self, hunk: &[Change]) {
        let (kind, f0, l0, f1, l1) = self.analyze(hunk);
        if kind == 0 {
            return;
        }
        let (f0, l0, f1, l1) = self.widen(f0, l0, f1, l1);
        self.begin();
        self.out.extend_from_slice(b"***************");
        self.function(f0);
        self.out.extend_from_slice(b"\n*** ");
        self.context_range(f0, l0);
        self.out.extend_from_slice(b" ****\n");
        if kind & OLD != 0 {
            self.context_side(hunk, false, f0, l0);
        }
        self.out.extend_from_slice(b"--- ");
        self.context_range(f1, l1);
        self.out.extend_from_slice(b" ----\n");
        if kind & NEW != 0 {
            self.context_side(hunk, true, f1, l1);
        }
    }

    /// One side of a context hunk, lines `from..=to` of the old file (or the new one): each
    /// marked `!` where the other side changed too, `-` (`+`) where only this one did.
    fn context_side(&mut self, hunk: &[Change], new: bool, from: isize, to: isize) {
        // Where a change starts on this side, how many lines it spans here and on the other.
        let span = |c: &Change| if new { (c.line1, c.inserted, c.deleted) } else { (c.line0, c.deleted, c.inserted) };
        let own = if new { "+" } else { "-" };
        let mut next = 0;
        for i in from..=to {
            let i = i as usize;
            while next < hunk.len() && span(&hunk[next]).0 + span(&hunk[next]).1 <= i {
                next += 1;
            }
            let prefix = match hunk.get(next).map(span) {
                Some((start, _, other)) if start <= i => {
                    if other > 0 {
                        "!"
                    } else {
                        own
                    }
                }
                _ => " ",
            };
            let text = if new { self.b.line(i) } else { self.a.line(i) };
            self.line(Some(prefix), text);
        }
    }

    fn context_range(&mut self, a: isize, b: isize) {
        let (ta, tb) = (a + 1, b + 1);
        let s = if tb <= ta { tb.to_string() } else { format!("{ta},{tb}") };
        self.out.extend_from_slice(s.as_bytes());
    }

    fn unified_range(&mut self, a: isize, b: isize) {
        let (ta, tb) = (a + 1, b + 1);
        let s = if tb < ta {
            format!("{tb},0")
        } else if tb == ta {
            tb.to_string()
        } else {
            format!("{ta},{}", tb - ta + 1)
        };
        self.out.extend_from_slice(s.as_bytes());
    }

    fn unified_hunk(&mut self, hunk: &[Change]) {
        let (kind, f0, l0, f1, l1) = self.analyze(hunk);
        if kind == 0 {
            return;
        }
        let (f0, l0, f1, l1) = self.widen(f0, l0, f1, l1);
        self.begin();
        self.out.extend_from_slice(b"@@ -");
        self.unified_range(f0, l0);
        self.out.extend_from_slice(b" +");
        self.unified_range(f1, l1);
        self.out.extend_from_slice(b" @@");
        self.function(f0);
        self.out.push(b'\n');
        let (tab, sbe) = (self.st.initial_tab, self.st.suppress_blank_empty);
        let (mut i, mut j, mut next) = (f0, f1, 0);
        while i <= l0 || j <= l1 {
            match hunk.get(next) {
                Some(c) if i as usize >= c.line0 => {
                    for k in 0..c.deleted {
                        let line = self.a.line(i as usize + k);
                        self.out.push(b'-');
                        if tab && !(sbe && line.first() == Some(&b'\n')) {
                            self.out.push(b'\t');
                        }
                        self.line(None, line);
                    }
                    for k in 0..c.inserted {
                        let line = self.b.line(j as usize + k);
                        self.out.push(b'+');
                        if tab && !(sbe && line.first() == Some(&b'\n')) {
                            self.out.push(b'\t');
                        }
                        self.line(None, line);
                    }
                    i += c.deleted as isize;
                    j += c.inserted as isize;
                    next += 1;
                }
                _ => {
                    let line = self.a.line(i as usize);
                    if !(sbe && line.first() == Some(&b'\n')) {
                        self.out.push(if tab { b'\t' } else { b' ' });
                    }
                    self.line(None, line);
                    i += 1;
                    j += 1;
                }
            }
        }
    }
}
