//! `diff -y`: the two files side by side in columns, `|` `<` `>` between changed lines,
//! as GNU's sdiff format lays them out (`-W`, `-t`, `--left-column`,
//! `--suppress-common-lines`).

use super::analyze::Change;
use super::output::Printer;
use crate::base::width::char_columns;

const OLD: u8 = 1;
const NEW: u8 = 2;
const CHANGED: u8 = 3;

/// The columns: where the right half starts and how wide each half is.
struct Layout {
    half: usize,
    column2: usize,
    tabsize: usize,
    expand: bool,
}

impl Layout {
    /// Tabs (or spaces with `-t`) from column `from` to `to`.
    fn tab(&self, out: &mut Vec<u8>, mut from: usize, to: usize) -> usize {
        if !self.expand {
            let mut tab = from + self.tabsize - from % self.tabsize;
            while tab <= to {
                out.push(b'\t');
                from = tab;
                tab += self.tabsize;
            }
        }
        while from < to {
            out.push(b' ');
            from += 1;
        }
        to
    }

    /// Half a line, cut to `bound` columns, without its newline: the last column written.
    fn half_line(&self, out: &mut Vec<u8>, line: &[u8], indent: usize, bound: usize) -> usize {
        let (mut inp, mut outp) = (0usize, 0usize);
        let mut k = 0;
        while k < line.len() {
            let c = line[k];
            k += 1;
            match c {
                b'\t' => {
                    let spaces = self.tabsize - inp % self.tabsize;
                    if inp == outp {
                        let mut stop = outp + spaces;
                        if self.expand {
                            stop = stop.min(bound);
                            while outp < stop {
                                out.push(b' ');
                                outp += 1;
                            }
                        } else if stop < bound {
                            outp = stop;
                            out.push(c);
                        }
                    }
                    inp += spaces;
                }
                b'\r' => {
                    out.push(c);
                    self.tab(out, 0, indent);
                    inp = 0;
                    outp = 0;
                }
                8 => {
                    if inp != 0 {
                        inp -= 1;
                        if inp < bound {
                            if outp <= inp {
                                while outp < inp {
                                    out.push(b' ');
                                    outp += 1;
                                }
                            } else {
                                outp = inp;
                                out.push(c);
                            }
                        }
                    }
                }
                b'\n' => return outp,
                0x20..=0x7e => {
                    inp += 1;
                    if inp <= bound {
                        outp = inp;
                        out.push(c);
                    }
                }
                0x0c | 0x0b | 0 => {
                    if inp < bound {
                        out.push(c);
                    }
                }
                _ => {
                    let len = match c {
                        0xc2..=0xdf => 2,
                        0xe0..=0xef => 3,
                        0xf0..=0xf4 => 4,
                        _ => 1,
                    };
                    let end = (k - 1 + len).min(line.len());
                    match std::str::from_utf8(&line[k - 1..end]).ok().and_then(|s| s.chars().next()) {
                        Some(ch) => {
                            inp += char_columns(ch);
                            if inp <= bound {
                                outp = inp;
                                out.extend_from_slice(&line[k - 1..end]);
                            }
                            k = end;
                        }
                        None => {
                            if inp < bound {
                                out.push(c);
                            }
                        }
                    }
                }
            }
        }
        outp
    }

    /// One output line: the left half, the separator, the right half.
    fn row(&self, out: &mut Vec<u8>, left: Option<&[u8]>, sep: u8, right: Option<&[u8]>) {
        let mut col = 0;
        let mut newline = false;
        if let Some(l) = left {
            newline |= l.last() == Some(&b'\n');
            col = self.half_line(out, l, 0, self.half);
        }
        let mut sep = sep;
        if sep != b' ' {
            col = self.tab(out, col, (self.half + self.column2 - 1) / 2) + 1;
            if sep == b'|' && newline != right.is_some_and(|r| r.last() == Some(&b'\n')) {
                sep = if newline { b'/' } else { b'\\' };
            }
            out.push(sep);
        }
        if let Some(r) = right {
            newline |= r.last() == Some(&b'\n');
            if r.first() != Some(&b'\n') {
                col = self.tab(out, col, self.column2);
                self.half_line(out, r, col, self.half);
            }
        }
        if newline {
            out.push(b'\n');
        }
    }
}

/// Prints the whole of both files side by side.
pub(crate) fn script(p: &mut Printer, changes: &[Change]) {
    let st = p.st;
    let t = if st.expand_tabs { 1 } else { st.tabsize };
    let w = st.width;
    let tg = t + 3;
    let unaligned = (w >> 1) + (tg >> 1) + (w & tg & 1);
    let off = unaligned - unaligned % t;
    let half = if off <= 3 || w <= off { 0 } else { (off - 3).min(w - off) };
    let lay = Layout { half, column2: if half != 0 { off } else { w }, tabsize: st.tabsize, expand: st.expand_tabs };
    p.begin();
    let (a, b) = (p.a, p.b);
    let (mut next0, mut next1) = (0usize, 0usize);
    let common = |out: &mut Vec<u8>, next0: &mut usize, next1: &mut usize, lim0: usize, lim1: usize| {
        let (mut i0, mut i1) = (*next0, *next1);
        if !st.suppress_common && (i0 != lim0 || i1 != lim1) {
            if !st.left_column {
                while i0 != lim0 && i1 != lim1 {
                    lay.row(out, Some(a.line(i0)), b' ', Some(b.line(i1)));
                    i0 += 1;
                    i1 += 1;
                }
                while i1 != lim1 {
                    lay.row(out, None, b')', Some(b.line(i1)));
                    i1 += 1;
                }
            }
            while i0 != lim0 {
                lay.row(out, Some(a.line(i0)), b'(', None);
                i0 += 1;
            }
        }
        *next0 = lim0;
        *next1 = lim1;
    };
    for c in changes {
        let (mut kind, f0, l0, f1, l1) = p.analyze(std::slice::from_ref(c));
        if kind == 0 {
            continue;
        }
        let (mut f0, mut f1) = (f0 as usize, f1 as usize);
        let (l0, l1) = ((l0 + 1) as usize, (l1 + 1) as usize);
        common(p.out, &mut next0, &mut next1, f0, f1);
        if kind == CHANGED {
            while f0 < l0 && f1 < l1 {
                lay.row(p.out, Some(a.line(f0)), b'|', Some(b.line(f1)));
                f0 += 1;
                f1 += 1;
            }
            kind = if f0 < l0 { OLD } else { 0 } + if f1 < l1 { NEW } else { 0 };
            next0 = f0;
            next1 = f1;
        }
        if kind & NEW != 0 {
            for j in f1..l1 {
                lay.row(p.out, None, b'>', Some(b.line(j)));
            }
            next1 = l1;
        }
        if kind & OLD != 0 {
            for i in f0..l0 {
                lay.row(p.out, Some(a.line(i)), b'<', None);
            }
            next0 = l0;
        }
    }
    common(p.out, &mut next0, &mut next1, a.lines(), b.lines());
}
