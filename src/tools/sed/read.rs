//! The characters of a sed script's piece, read as GNU sed's compiler reads them: one at
//! a time with one pushed back, blanks skipped, text up to a delimiter, a label or a
//! file name.

use crate::base::bracket::{self, Dialect};

/// A script's piece being read.
pub(super) struct Reader<'a> {
    pub s: &'a [u8],
    pub i: usize,
}

/// What [`Reader::inchar`] gives at the end of the piece.
pub(super) const EOF: i32 = -1;

impl Reader<'_> {
    pub(super) fn inchar(&mut self) -> i32 {
        match self.s.get(self.i) {
            Some(&b) => {
                self.i += 1;
                i32::from(b)
            }
            None => EOF,
        }
    }

    pub(super) fn savchar(&mut self, ch: i32) {
        if ch != EOF {
            self.i -= 1;
        }
    }

    pub(super) fn nonblank(&mut self) -> i32 {
        loop {
            let ch = self.inchar();
            if ch != i32::from(b' ') && ch != i32::from(b'\t') {
                return ch;
            }
        }
    }

    pub(super) fn integer(&mut self, first: i32) -> usize {
        let mut n = (first - i32::from(b'0')) as usize;
        while let Some(&b) = self.s.get(self.i).filter(|b| b.is_ascii_digit()) {
            n = n.saturating_mul(10).saturating_add(usize::from(b - b'0'));
            self.i += 1;
        }
        n
    }

    /// GNU's `match_slash`: the text up to the unescaped `slash`, or `None` at the end
    /// of the line or piece.
    pub(super) fn slash(&mut self, slash: i32, regex: bool) -> Option<Vec<u8>> {
        let mut b = Vec::new();
        loop {
            let mut ch = self.inchar();
            if ch == EOF || ch == i32::from(b'\n') {
                self.savchar(ch);
                return None;
            }
            if ch == slash {
                return Some(b);
            }
            if regex && ch == i32::from(b'[') {
                b.push(b'[');
                self.bracket(&mut b)?;
                continue;
            }
            if ch == i32::from(b'\\') {
                ch = self.inchar();
                if ch == EOF {
                    return None;
                } else if ch == i32::from(b'n') && regex {
                    ch = i32::from(b'\n');
                } else if ch != i32::from(b'\n') && (ch != slash || (!regex && ch == i32::from(b'&'))) {
                    b.push(b'\\');
                }
            }
            b.push(ch as u8);
        }
    }

    /// A bracket expression's members after its `[`, up to its `]`, as they are: the
    /// delimiter is a member there. Where it ends is the one bracket reader's answer, on
    /// the line's bytes (each read as one character: only ASCII ones are special).
    pub(super) fn bracket(&mut self, b: &mut Vec<u8>) -> Option<()> {
        let line_end = self.s[self.i..].iter().position(|&c| c == b'\n').map_or(self.s.len(), |n| self.i + n);
        let line: Vec<char> = self.s[self.i..line_end].iter().map(|&c| char::from(c)).collect();
        let Some(end) = bracket::end(&line, 0, Dialect::Posix) else {
            self.i = line_end;
            return None;
        };
        b.extend_from_slice(&self.s[self.i..self.i + end]);
        self.i += end;
        Some(())
    }

    /// A label or file name's text: to the end of the line (`file`) or of the word.
    pub(super) fn word(&mut self, file: bool) -> String {
        let mut b = Vec::new();
        let mut ch = self.nonblank();
        while ch != EOF && ch != i32::from(b'\n') {
            if !file && (ch == i32::from(b';') || (ch as u8).is_ascii_whitespace()) {
                break;
            }
            if !file && ch == i32::from(b'}') {
                self.savchar(ch);
                break;
            }
            b.push(ch as u8);
            ch = self.inchar();
        }
        String::from_utf8_lossy(&b).into_owned()
    }

    pub(super) fn end_of_cmd(&mut self) -> Result<(), String> {
        let ch = self.nonblank();
        if ch == i32::from(b'}') || ch == i32::from(b'#') {
            self.savchar(ch);
        } else if ch != EOF && ch != i32::from(b'\n') && ch != i32::from(b';') {
            return Err("extra characters after command".into());
        }
        Ok(())
    }
}
