//! `sort`'s keys: the `-k POS1[,POS2]` specs and the ordering letters that modify them
//! (`b d f g h i M n R r V`), and where a key lies in a line.

/// A field or character position that is not there: the key starts at the line's start,
/// or ends at its end.
pub(super) const NONE: usize = usize::MAX;

/// Characters a key's comparison skips.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Ignore {
    None,
    /// `-i`: all but printable ASCII.
    NonPrinting,
    /// `-d`: all but letters, digits and blanks.
    NonDictionary,
}

/// One sort key, as coreutils' `struct keyfield`.
#[derive(Clone, Debug)]
pub(super) struct Key {
    /// Zero-origin field the key starts in ([`NONE`]: the line's start).
    pub sword: usize,
    /// Characters skipped in that field.
    pub schar: usize,
    /// Zero-origin field the key ends in ([`NONE`]: the line's end).
    pub eword: usize,
    /// Characters of that field in the key (0: all of it).
    pub echar: usize,
    pub skip_start_blanks: bool,
    pub skip_end_blanks: bool,
    pub ignore: Ignore,
    /// `-f`: lower case folded to upper.
    pub fold: bool,
    pub numeric: bool,
    pub general: bool,
    pub human: bool,
    pub month: bool,
    pub random: bool,
    pub version: bool,
    pub reverse: bool,
}

/// Which ends of a key `b` applies to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Blanks {
    Start,
    End,
    Both,
}

impl Key {
    /// The whole line, compared as bytes.
    pub(super) fn new() -> Self {
        Key {
            sword: NONE,
            schar: 0,
            eword: NONE,
            echar: 0,
            skip_start_blanks: false,
            skip_end_blanks: false,
            ignore: Ignore::None,
            fold: false,
            numeric: false,
            general: false,
            human: false,
            month: false,
            random: false,
            version: false,
            reverse: false,
        }
    }

    /// Applies the ordering letters at the start of `s`; returns the rest, from the first
    /// byte that is not one.
    pub(super) fn set_ordering<'s>(&mut self, s: &'s str, blanks: Blanks) -> &'s str {
        for (i, c) in s.char_indices() {
            match c {
                'b' => {
                    self.skip_start_blanks |= blanks != Blanks::End;
                    self.skip_end_blanks |= blanks != Blanks::Start;
                }
                'd' => self.ignore = Ignore::NonDictionary,
                'f' => self.fold = true,
                'g' => self.general = true,
                'h' => self.human = true,
                'i' if self.ignore == Ignore::None => self.ignore = Ignore::NonPrinting,
                'i' => {}
                'M' => self.month = true,
                'n' => self.numeric = true,
                'R' => self.random = true,
                'r' => self.reverse = true,
                'V' => self.version = true,
                _ => return &s[i..],
            }
        }
        ""
    }

    /// Whether the key compares as plain text, unmodified (reversal aside).
    pub(super) fn is_default(&self) -> bool {
        !(self.ignore != Ignore::None
            || self.fold
            || self.skip_start_blanks
            || self.skip_end_blanks
            || self.numeric
            || self.general
            || self.human
            || self.month
            || self.version
            || self.random)
    }

    /// Takes over the global ordering options.
    pub(super) fn inherit(&mut self, g: &Key) {
        self.ignore = g.ignore;
        self.fold = g.fold;
        self.skip_start_blanks = g.skip_start_blanks;
        self.skip_end_blanks = g.skip_end_blanks;
        self.month = g.month;
        self.numeric = g.numeric;
        self.general = g.general;
        self.human = g.human;
        self.version = g.version;
        self.random = g.random;
        self.reverse = g.reverse;
    }

    /// The short options that would give this key's ordering (`-Mn`), as GNU names them.
    pub(super) fn letters(&self) -> String {
        let mut s = String::new();
        let flags = [
            (self.skip_start_blanks || self.skip_end_blanks, 'b'),
            (self.ignore == Ignore::NonDictionary, 'd'),
            (self.fold, 'f'),
            (self.general, 'g'),
            (self.human, 'h'),
            (self.ignore == Ignore::NonPrinting, 'i'),
            (self.month, 'M'),
            (self.numeric, 'n'),
            (self.random, 'R'),
            (self.reverse, 'r'),
            (self.version, 'V'),
        ];
        s.extend(flags.iter().filter(|f| f.0).map(|f| f.1));
        s
    }

    /// The letters of two orderings that cannot go together, if the key has such.
    pub(super) fn incompatible(&self) -> Option<String> {
        let n = [
            self.numeric,
            self.general,
            self.human,
            self.month,
            self.version | self.random | (self.ignore != Ignore::None),
        ]
        .iter()
        .filter(|b| **b)
        .count();
        (n > 1).then(|| {
            let mut k = self.clone();
            (k.skip_start_blanks, k.skip_end_blanks, k.reverse) = (false, false, false);
            k.letters()
        })
    }
}

/// A `-k` spec read into a [`Key`], or GNU's message refusing it.
pub(super) fn parse_spec(spec: &str) -> Result<Key, String> {
    let bad = |why: &str| format!("{why}: invalid field specification ‘{spec}’");
    let mut key = Key::new();
    let (n, mut s) = count(spec, "invalid number at field start")?;
    if n == 0 {
        return Err(bad("field number is zero"));
    }
    key.sword = n - 1;
    if let Some(rest) = s.strip_prefix('.') {
        let (n, r) = count(rest, "invalid number after '.'")?;
        if n == 0 {
            return Err(bad("character offset is zero"));
        }
        key.schar = n - 1;
        s = r;
    }
    if key.sword == 0 && key.schar == 0 {
        key.sword = NONE;
    }
    s = key.set_ordering(s, Blanks::Start);
    if let Some(rest) = s.strip_prefix(',') {
        let (n, r) = count(rest, "invalid number after ','")?;
        if n == 0 {
            return Err(bad("field number is zero"));
        }
        key.eword = n - 1;
        s = r;
        if let Some(rest) = s.strip_prefix('.') {
            let (n, r) = count(rest, "invalid number after '.'")?;
            key.echar = n;
            s = r;
        }
        s = key.set_ordering(s, Blanks::End);
    }
    if !s.is_empty() {
        return Err(bad("stray character in field spec"));
    }
    Ok(key)
}

/// The count at the start of `s` (too large: the largest) and what follows it, as
/// `xstrtoumax` reads it; `what` names it in the message when there is none.
fn count<'s>(s: &'s str, what: &str) -> Result<(usize, &'s str), String> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let t = t.strip_prefix('+').unwrap_or(t);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(format!("{what}: invalid count at start of ‘{s}’"));
    }
    let n = t[..digits].parse::<usize>().unwrap_or(usize::MAX);
    Ok((n, &t[digits..]))
}

/// Blanks, as sort's table has them: space, tab and newline.
pub(super) fn blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n')
}

/// How fields are separated.
#[derive(Clone, Copy)]
pub(super) enum Sep {
    /// The empty string before each run of blanks (the blanks start the next field).
    Blanks,
    Byte(u8),
}

/// Where `key` starts in `line` (as `begfield`).
pub(super) fn begin(line: &[u8], key: &Key, sep: Sep) -> usize {
    let lim = line.len();
    let mut p = 0;
    let mut sword = key.sword;
    match sep {
        Sep::Byte(t) => {
            while p < lim && sword > 0 {
                sword -= 1;
                while p < lim && line[p] != t {
                    p += 1;
                }
                if p < lim {
                    p += 1;
                }
            }
        }
        Sep::Blanks => {
            while p < lim && sword > 0 {
                sword -= 1;
                while p < lim && blank(line[p]) {
                    p += 1;
                }
                while p < lim && !blank(line[p]) {
                    p += 1;
                }
            }
        }
    }
    if key.skip_start_blanks {
        while p < lim && blank(line[p]) {
            p += 1;
        }
    }
    lim.min(p.saturating_add(key.schar))
}

/// Where `key` ends in `line` (as `limfield`).
pub(super) fn limit(line: &[u8], key: &Key, sep: Sep) -> usize {
    let lim = line.len();
    let mut p = 0;
    let mut eword = key.eword;
    if key.echar == 0 {
        eword = eword.saturating_add(1);
    }
    match sep {
        Sep::Byte(t) => {
            while p < lim && eword > 0 {
                eword -= 1;
                while p < lim && line[p] != t {
                    p += 1;
                }
                if p < lim && (eword > 0 || key.echar > 0) {
                    p += 1;
                }
            }
        }
        Sep::Blanks => {
            while p < lim && eword > 0 {
                eword -= 1;
                while p < lim && blank(line[p]) {
                    p += 1;
                }
                while p < lim && !blank(line[p]) {
                    p += 1;
                }
            }
        }
    }
    if key.echar != 0 {
        if key.skip_end_blanks {
            while p < lim && blank(line[p]) {
                p += 1;
            }
        }
        p = lim.min(p.saturating_add(key.echar));
    }
    p
}

/// The bytes of `line` that `key` covers.
pub(super) fn field<'l>(line: &'l [u8], key: &Key, sep: Sep) -> &'l [u8] {
    let end = if key.eword == NONE { line.len() } else { limit(line, key, sep) };
    let start = if key.sword != NONE {
        begin(line, key, sep)
    } else {
        let mut p = 0;
        if key.skip_start_blanks {
            while p < end && blank(line[p]) {
                p += 1;
            }
        }
        p
    };
    &line[start..end.max(start)]
}
