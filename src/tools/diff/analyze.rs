//! Which lines differ, chosen as GNU diff 3.8 chooses them: the identical prefix and
//! suffix set aside (keeping `horizon` lines of each), lines put in classes of lines that
//! compare equal, lines that match nothing in the other file (and runs of lines that
//! match too much) discarded, Myers' O(ND) search for a shortest edit script over the
//! rest (with GNU's give-up point for huge inputs), and each run of changes slid to the
//! position GNU prefers.

use super::myers::Myers;
use std::collections::HashMap;

/// Horizontal white space as `-E`, `-Z`, `-b`, `-w` ignore it (GNU's levels, in order).
pub(crate) const TAB: u8 = 1;
pub(crate) const TRAILING: u8 = 2;
pub(crate) const CHANGE: u8 = 4;
pub(crate) const ALL: u8 = 5;

/// How lines are compared.
#[derive(Clone, Debug, Default)]
pub(crate) struct Compare {
    pub ignore_case: bool,
    /// 0 or one of [`TAB`], [`TRAILING`], `TAB | TRAILING`, [`CHANGE`], [`ALL`].
    pub white: u8,
    pub tabsize: usize,
    /// Whether an incomplete last line stays distinct (every format but `-e` and `-f`).
    pub robust: bool,
    /// Lines of the common prefix and suffix kept in the comparison.
    pub horizon: usize,
    /// `-d`: never give up on the shortest script.
    pub minimal: bool,
}

/// A file's text as diff reads it: a newline added when the last line lacks one, and
/// `\r\n` made `\n` with `--strip-trailing-cr`.
pub(crate) struct Text {
    pub buf: Vec<u8>,
    pub missing_newline: bool,
    /// Where each line starts, then the end of the text.
    pub starts: Vec<usize>,
    pub robust: bool,
}

impl Text {
    pub(crate) fn new(data: &[u8], strip_cr: bool, robust: bool) -> Text {
        let mut buf = data.to_vec();
        let missing_newline = buf.last().is_some_and(|&b| b != b'\n');
        if missing_newline {
            buf.push(b'\n');
        }
        if strip_cr {
            let mut out = Vec::with_capacity(buf.len());
            for (k, &b) in buf.iter().enumerate() {
                if !(b == b'\r' && buf.get(k + 1) == Some(&b'\n')) {
                    out.push(b);
                }
            }
            buf = out;
        }
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', &buf).map(|i| i + 1));
        Text { buf, missing_newline, starts, robust }
    }

    pub(crate) fn lines(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `k` as printed: with its newline, except an incomplete last line in a robust
    /// format.
    pub(crate) fn line(&self, k: usize) -> &[u8] {
        let mut end = self.starts[k + 1];
        if self.robust && self.missing_newline && k + 1 == self.lines() {
            end -= 1;
        }
        &self.buf[self.starts[k]..end]
    }

    /// Line `k` without its newline.
    pub(crate) fn body(&self, k: usize) -> &[u8] {
        &self.buf[self.starts[k]..self.starts[k + 1] - 1]
    }
}

/// One change: `deleted` lines of the first file from `line0`, `inserted` lines of the
/// second from `line1` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    pub line0: usize,
    pub line1: usize,
    pub deleted: usize,
    pub inserted: usize,
}

pub(crate) fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// What a line is compared as: two lines are equal when their keys are.
fn key(line: &[u8], o: &Compare) -> Vec<u8> {
    let low = |c: u8| if o.ignore_case { c.to_ascii_lowercase() } else { c };
    let mut out = Vec::with_capacity(line.len());
    match o.white {
        ALL => out.extend(line.iter().filter(|&&c| !is_space(c)).map(|&c| low(c))),
        CHANGE => {
            let mut k = 0;
            while k < line.len() {
                if is_space(line[k]) {
                    while k < line.len() && is_space(line[k]) {
                        k += 1;
                    }
                    if k == line.len() {
                        break;
                    }
                    out.push(b' ');
                }
                out.push(low(line[k]));
                k += 1;
            }
        }
        0 => out.extend(line.iter().map(|&c| low(c))),
        _ => {
            let mut column = 0usize;
            for (k, &c) in line.iter().enumerate() {
                if o.white & TRAILING != 0 && is_space(c) && line[k..].iter().all(|&c| is_space(c)) {
                    break;
                }
                let (mut c, mut reps) = (c, 1);
                if o.white & TAB != 0 {
                    match c {
                        8 => column -= usize::from(column > 0),
                        b'\t' => {
                            c = b' ';
                            reps = o.tabsize - column % o.tabsize;
                            column += reps;
                        }
                        b'\r' => column = 0,
                        _ => column += 1,
                    }
                }
                out.extend(std::iter::repeat_n(low(c), reps));
            }
        }
    }
    out
}

/// The byte offsets where the compared middles start (the same in both) and end.
fn identical_ends(a: &Text, b: &Text, o: &Compare) -> (usize, usize, usize) {
    let (b0, b1) = (&a.buf, &b.buf);
    let (n0, n1) = (b0.len(), b1.len());
    let mut p = b0.iter().zip(b1.iter()).take_while(|(x, y)| x == y).count();
    if o.robust && (n0 - usize::from(a.missing_newline) < p) != (n1 - usize::from(b.missing_newline) < p) {
        p -= 1;
    }
    let mut keep = o.horizon as isize;
    while p != 0
        && (b0[p - 1] != b'\n' || {
            keep -= 1;
            keep >= 0
        })
    {
        p -= 1;
    }
    let prefix_end = p;
    let (mut p0, mut p1) = (n0, n1);
    if !o.robust || a.missing_newline == b.missing_newline {
        let mut beg0 = prefix_end + n0.saturating_sub(n1);
        while p0 != beg0 {
            p0 -= 1;
            p1 -= 1;
            if b0[p0] != b1[p1] {
                p0 += 1;
                p1 += 1;
                beg0 = p0;
                break;
            }
        }
        let at_starts = (p0 == 0 || b0[p0 - 1] == b'\n') && (p1 == 0 || b1[p1 - 1] == b'\n');
        let mut skip = o.horizon + usize::from(!at_starts);
        while skip > 0 && p0 != n0 {
            skip -= 1;
            while b0[p0] != b'\n' {
                p0 += 1;
            }
            p0 += 1;
        }
        p1 += p0 - beg0;
    }
    (prefix_end, p0, p1)
}

/// The changes that turn `a` into `b`, in order.
pub(crate) fn diff(a: &Text, b: &Text, o: &Compare) -> Vec<Change> {
    let (prefix_end, s0, s1) = identical_ends(a, b, o);
    let prefix = a.starts.partition_point(|&s| s < prefix_end);
    let end0 = a.starts[..a.lines()].partition_point(|&s| s < s0);
    let end1 = b.starts[..b.lines()].partition_point(|&s| s < s1);
    // Classes of equal lines, numbered from 1.
    let mut classes: HashMap<(bool, Vec<u8>), usize> = HashMap::new();
    let mut class_of = |t: &Text, k: usize| {
        let incomplete = t.robust && t.missing_newline && k + 1 == t.lines() && o.white < TRAILING;
        let n = classes.len() + 1;
        *classes.entry((incomplete, key(t.body(k), o))).or_insert(n)
    };
    let eq0: Vec<usize> = (prefix..end0).map(|k| class_of(a, k)).collect();
    let eq1: Vec<usize> = (prefix..end1).map(|k| class_of(b, k)).collect();
    let classes = classes.len() + 1;
    let equivs = [eq0, eq1];
    // Flags with a zero before and after: `changed[f][i + 1]` is line `i`'s.
    let mut changed = [vec![0u8; equivs[0].len() + 2], vec![0u8; equivs[1].len() + 2]];
    let (undiscarded, real) = discard(&equivs, classes, o.minimal, &mut changed);
    let diags = undiscarded[0].len() + undiscarded[1].len() + 3;
    let mut too_expensive = 1isize;
    let mut d = diags;
    while d != 0 {
        too_expensive <<= 1;
        d >>= 2;
    }
    let mut m = Myers {
        xv: &undiscarded[0],
        yv: &undiscarded[1],
        fd: vec![0; diags],
        bd: vec![0; diags],
        off: undiscarded[1].len() as isize + 1,
        too_expensive: too_expensive.max(4096),
        changed: &mut changed,
        real: &real,
    };
    m.compareseq(0, undiscarded[0].len() as isize, 0, undiscarded[1].len() as isize, o.minimal);
    shift_boundaries(&equivs, &mut changed);
    let mut script = Vec::new();
    let (len0, len1) = (equivs[0].len(), equivs[1].len());
    let (mut i0, mut i1) = (0, 0);
    while i0 < len0 || i1 < len1 {
        if changed[0][i0 + 1] | changed[1][i1 + 1] != 0 {
            let (l0, l1) = (i0, i1);
            while changed[0][i0 + 1] != 0 {
                i0 += 1;
            }
            while changed[1][i1 + 1] != 0 {
                i1 += 1;
            }
            script.push(Change { line0: l0 + prefix, line1: l1 + prefix, deleted: i0 - l0, inserted: i1 - l1 });
        }
        i0 += 1;
        i1 += 1;
    }
    script
}

/// Sets aside lines that match nothing in the other file (marking them changed) and runs
/// of lines that match too many: the classes left for the search, and where each was.
fn discard(
    equivs: &[Vec<usize>; 2],
    classes: usize,
    minimal: bool,
    changed: &mut [Vec<u8>; 2],
) -> ([Vec<usize>; 2], [Vec<usize>; 2]) {
    let mut counts = [vec![0usize; classes], vec![0usize; classes]];
    for f in 0..2 {
        for &e in &equivs[f] {
            counts[f][e] += 1;
        }
    }
    let mut discards = [vec![0u8; equivs[0].len()], vec![0u8; equivs[1].len()]];
    for f in 0..2 {
        let end = equivs[f].len();
        let mut many = 5usize;
        let mut tem = end / 64;
        loop {
            tem >>= 2;
            if tem == 0 {
                break;
            }
            many *= 2;
        }
        for i in 0..end {
            let nmatch = counts[1 - f][equivs[f][i]];
            if nmatch == 0 {
                discards[f][i] = 1;
            } else if nmatch > many {
                discards[f][i] = 2;
            }
        }
    }
    for d in discards.iter_mut() {
        provisional_runs(d);
    }
    let mut undiscarded = [Vec::new(), Vec::new()];
    let mut real = [Vec::new(), Vec::new()];
    for f in 0..2 {
        for (i, &e) in equivs[f].iter().enumerate() {
            if minimal || discards[f][i] == 0 {
                undiscarded[f].push(e);
                real[f].push(i);
            } else {
                changed[f][i + 1] = 1;
            }
        }
    }
    (undiscarded, real)
}

/// Keeps a provisional discard (2) only inside a run of discards that starts and ends
/// with real ones, as GNU decides.
fn provisional_runs(discards: &mut [u8]) {
    let end = discards.len();
    let mut i = 0;
    while i < end {
        if discards[i] == 2 {
            discards[i] = 0;
        } else if discards[i] != 0 {
            let mut j = i;
            let mut provisional = 0;
            while j < end && discards[j] != 0 {
                provisional += usize::from(discards[j] == 2);
                j += 1;
            }
            while j > i && discards[j - 1] == 2 {
                j -= 1;
                discards[j] = 0;
                provisional -= 1;
            }
            let length = j - i;
            if provisional * 4 > length {
                while j > i {
                    j -= 1;
                    if discards[j] == 2 {
                        discards[j] = 0;
                    }
                }
            } else {
                let mut minimum = 1usize;
                let mut tem = length >> 2;
                loop {
                    tem >>= 2;
                    if tem == 0 {
                        break;
                    }
                    minimum <<= 1;
                }
                minimum += 1;
                let mut consec = 0usize;
                let mut j = 0isize;
                while (j as usize) < length {
                    let at = i + j as usize;
                    if discards[at] != 2 {
                        consec = 0;
                    } else {
                        consec += 1;
                        if minimum == consec {
                            j -= consec as isize;
                        } else if minimum < consec {
                            discards[at] = 0;
                        }
                    }
                    j += 1;
                }
                ends_of_run(discards, i, length, 1);
                i += length - 1;
                ends_of_run(discards, i, length, -1);
            }
        }
        i += 1;
    }
}

/// From one end of a run (`from`, stepping `step`): cancels provisional discards until
/// three real ones in a row, or a real one at least 8 lines in.
fn ends_of_run(discards: &mut [u8], from: usize, length: usize, step: isize) {
    let mut consec = 0;
    for j in 0..length {
        let at = (from as isize + step * j as isize) as usize;
        if j >= 8 && discards[at] == 1 {
            break;
        }
        if discards[at] == 2 {
            consec = 0;
            discards[at] = 0;
        } else if discards[at] == 0 {
            consec = 0;
        } else {
            consec += 1;
        }
        if consec == 3 {
            break;
        }
    }
}

/// Slides each run of changes as GNU does: back while the line before it equals its
/// last, merging with runs before; then forward while its first equals the line after;
/// then back to where it lines up with a run of changes in the other file.
fn shift_boundaries(equivs: &[Vec<usize>; 2], changed: &mut [Vec<u8>; 2]) {
    for (f, equivs) in equivs.iter().enumerate() {
        let [c0, c1] = changed;
        let (ch, oth): (&mut Vec<u8>, &Vec<u8>) = if f == 0 { (c0, c1) } else { (c1, c0) };
        // Indexes are line numbers; flags sit one place on.
        let at = |v: &Vec<u8>, k: isize| v[(k + 1) as usize];
        let eq = |k: isize| equivs[k as usize];
        let i_end = equivs.len() as isize;
        let (mut i, mut j) = (0isize, 0isize);
        loop {
            while i < i_end && at(ch, i) == 0 {
                loop {
                    j += 1;
                    if at(oth, j - 1) == 0 {
                        break;
                    }
                }
                i += 1;
            }
            if i == i_end {
                break;
            }
            let mut start = i;
            loop {
                i += 1;
                if at(ch, i) == 0 {
                    break;
                }
            }
            while at(oth, j) != 0 {
                j += 1;
            }
            let mut corresponding;
            loop {
                let runlength = i - start;
                while start != 0 && eq(start - 1) == eq(i - 1) {
                    start -= 1;
                    ch[(start + 1) as usize] = 1;
                    i -= 1;
                    ch[(i + 1) as usize] = 0;
                    while at(ch, start - 1) != 0 {
                        start -= 1;
                    }
                    loop {
                        j -= 1;
                        if at(oth, j) == 0 {
                            break;
                        }
                    }
                }
                corresponding = if at(oth, j - 1) != 0 { i } else { i_end };
                while i != i_end && eq(start) == eq(i) {
                    ch[(start + 1) as usize] = 0;
                    start += 1;
                    ch[(i + 1) as usize] = 1;
                    i += 1;
                    while at(ch, i) != 0 {
                        i += 1;
                    }
                    loop {
                        j += 1;
                        if at(oth, j) == 0 {
                            break;
                        }
                        corresponding = i;
                    }
                }
                if runlength == i - start {
                    break;
                }
            }
            while corresponding < i {
                start -= 1;
                ch[(start + 1) as usize] = 1;
                i -= 1;
                ch[(i + 1) as usize] = 0;
                loop {
                    j -= 1;
                    if at(oth, j) == 0 {
                        break;
                    }
                }
            }
        }
    }
}
