//! tr's SET operands: backslash escapes, then ranges, classes, `[=c=]` and `[c*n]`
//! constructs, read as coreutils 9.1's `unquote` and `build_spec_list` read them, over
//! bytes; and a cursor that walks a set's bytes in order, as its `get_next`.

use crate::base::{cescape, ctype};

/// One construct of a set.
#[derive(Clone, Copy)]
pub(super) enum Elem {
    Char(u8),
    Range(u8, u8),
    /// `[:name:]`, with its name.
    Class(fn(u8) -> bool, &'static str),
    /// `[=c=]`: the byte alone, as in GNU's tr.
    Equiv(u8),
    /// `[c*n]`; `n` 0 stands for `[c*]`, as long as needed.
    Repeat(u8, u64),
}

/// The largest repeat count (`BEGIN_STATE` in coreutils).
pub(super) const MAX_COUNT: u64 = u64::MAX - 1;

impl Elem {
    /// How many bytes it stands for (an indefinite repeat, none).
    pub(super) fn len(&self) -> u64 {
        match *self {
            Elem::Char(_) | Elem::Equiv(_) => 1,
            Elem::Range(a, b) => u64::from(b - a) + 1,
            Elem::Class(f, _) => (0..=255u8).filter(|&b| f(b)).count() as u64,
            Elem::Repeat(_, n) => n,
        }
    }
}

/// Which case class a byte came from (`[:upper:]`, `[:lower:]`), for case conversion.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Case {
    None,
    Upper,
    Lower,
}

/// A place in a set's bytes: the construct, and the last byte given from it (`None`
/// before its first).
#[derive(Clone, Copy, Default)]
pub(super) struct Cursor {
    pub at: usize,
    pub state: Option<u64>,
}

impl Cursor {
    /// The next byte of `set` and the case class it came from, or `None` at the end.
    pub(super) fn next(&mut self, set: &[Elem]) -> Option<(u8, Case)> {
        loop {
            let elem = *set.get(self.at)?;
            let step = |c: &mut Cursor, done: bool, k: u64| {
                if done {
                    (c.at, c.state) = (c.at + 1, None);
                } else {
                    c.state = Some(k);
                }
            };
            return Some(match elem {
                Elem::Char(c) | Elem::Equiv(c) => {
                    step(self, true, 0);
                    (c, Case::None)
                }
                Elem::Range(a, b) => {
                    let k = self.state.map_or(u64::from(a), |s| s + 1);
                    step(self, k == u64::from(b), k);
                    (k as u8, Case::None)
                }
                Elem::Class(f, name) => {
                    let from = self.state.unwrap_or(0) as usize;
                    let mut members = (from..256).filter(|&b| f(b as u8));
                    let k = members.next().unwrap_or(255);
                    match members.next() {
                        Some(n) => self.state = Some(n as u64),
                        None => step(self, true, 0),
                    }
                    let case = match name {
                        "upper" => Case::Upper,
                        "lower" => Case::Lower,
                        _ => Case::None,
                    };
                    (k as u8, case)
                }
                Elem::Repeat(_, 0) => {
                    step(self, true, 0);
                    continue;
                }
                Elem::Repeat(c, n) => {
                    let k = self.state.unwrap_or(0) + 1;
                    step(self, k == n, k);
                    (c, Case::None)
                }
            });
        }
    }

    /// Past the construct it is in (`skip_construct`).
    pub(super) fn skip(&mut self) {
        (self.at, self.state) = (self.at + 1, None);
    }
}

/// An operand with its escapes read: the bytes, and which of them were escaped; and
/// the warnings GNU gives while reading them.
fn unquote(s: &[u8], warnings: &mut Vec<String>) -> (Vec<u8>, Vec<bool>) {
    let (mut out, mut escaped) = (Vec::new(), Vec::new());
    let mut i = 0;
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    while i < s.len() {
        if s[i] != b'\\' {
            out.push(s[i]);
            escaped.push(false);
            i += 1;
            continue;
        }
        let (mut esc, mut step) = (true, 2);
        let c = match at(i + 1) {
            d @ b'0'..=b'7' => {
                let mut c = u32::from(d - b'0');
                if let d2 @ b'0'..=b'7' = at(i + 2) {
                    c = 8 * c + u32::from(d2 - b'0');
                    i += 1;
                    if let d3 @ b'0'..=b'7' = at(i + 2) {
                        if 8 * c + u32::from(d3 - b'0') < 256 {
                            c = 8 * c + u32::from(d3 - b'0');
                            i += 1;
                        } else {
                            let (a, b) = (at(i) as char, at(i + 1) as char);
                            let d3 = d3 as char;
                            warnings.push(format!(
                                "warning: the ambiguous octal escape \\{a}{b}{d3} is being\n\tinterpreted as the 2-byte sequence \\0{a}{b}, {d3}"
                            ));
                        }
                    }
                }
                c as u8
            }
            0 => {
                warnings.push("warning: an unescaped backslash at end of string is not portable".into());
                (esc, step) = (false, 1);
                b'\\'
            }
            c => cescape::byte_of(c).unwrap_or(c),
        };
        i += step;
        out.push(c);
        escaped.push(esc);
    }
    (out, escaped)
}

/// A byte as tr shows it in a message: itself when printable, else `\ooo`.
pub(super) fn printable_char(c: u8) -> String {
    if c.is_ascii_graphic() || c == b' ' {
        (c as char).to_string()
    } else {
        format!("\\{c:03o}")
    }
}

/// Bytes as tr shows them in a message (`make_printable_str`).
fn printable(s: &[u8]) -> String {
    s.iter()
        .map(|&c| match (c, cescape::name_of(c)) {
            (b'\\', _) => "\\".to_string(),
            (_, Some(name)) => name.into(),
            (c, None) => printable_char(c),
        })
        .collect()
}

/// The constructs of an operand, or GNU's message refusing it; `warnings` gets what GNU
/// warns about on the way.
pub(super) fn parse(arg: &[u8], warnings: &mut Vec<String>) -> Result<Vec<Elem>, String> {
    let (s, escaped) = unquote(arg, warnings);
    let is = |i: usize, c: u8| s.get(i) == Some(&c) && !escaped[i];
    let mut set = Vec::new();
    let mut i = 0;
    while i + 2 < s.len() {
        if is(i, b'[') {
            if is(i + 1, b':') || is(i + 1, b'=') {
                let d = s[i + 1];
                let close = (i + 2..s.len() - 1).find(|&j| is(j, d) && is(j + 1, b']'));
                if let Some(close) = close {
                    let name = &s[i + 2..close];
                    if name.is_empty() {
                        return Err(if d == b':' {
                            "missing character class name '[::]'".into()
                        } else {
                            "missing equivalence class character '[==]'".into()
                        });
                    }
                    let found = if d == b':' {
                        let name = std::str::from_utf8(name).unwrap_or_default();
                        let f = ctype::CLASS_NAMES.iter().find(|n| **n == name).zip(ctype::class(name));
                        f.map(|(n, f)| Elem::Class(f, n))
                    } else {
                        (name.len() == 1).then(|| Elem::Equiv(name[0]))
                    };
                    match found {
                        Some(e) => {
                            set.push(e);
                            i = close + 2;
                            continue;
                        }
                        None if star_digits_bracket(&s, &escaped, i + 2) => {}
                        None if d == b':' => return Err(format!("invalid character class ‘{}’", printable(name))),
                        None => {
                            return Err(format!(
                                "{}: equivalence class operand must be a single character",
                                printable(name)
                            ))
                        }
                    }
                }
            }
            // `[c*n]`, also where `[:` or `[=` began none of those.
            if is(i + 2, b'*') {
                let close = (i + 3..s.len()).take_while(|&j| !escaped[j]).find(|&j| s[j] == b']');
                if let Some(close) = close {
                    let digits = &s[i + 3..close];
                    let n = if digits.is_empty() {
                        Some(0)
                    } else {
                        let radix = if digits[0] == b'0' { 8 } else { 10 };
                        std::str::from_utf8(digits)
                            .ok()
                            .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
                            .and_then(|d| u64::from_str_radix(d, radix).ok())
                            .filter(|&n| n <= MAX_COUNT)
                    };
                    let Some(n) = n else {
                        return Err(format!("invalid repeat count ‘{}’ in [c*n] construct", printable(digits)));
                    };
                    set.push(Elem::Repeat(s[i + 1], n));
                    i = close + 1;
                    continue;
                }
            }
        }
        if is(i + 1, b'-') {
            if s[i + 2] < s[i] {
                return Err(format!(
                    "range-endpoints of '{}-{}' are in reverse collating sequence order",
                    printable_char(s[i]),
                    printable_char(s[i + 2])
                ));
            }
            set.push(Elem::Range(s[i], s[i + 2]));
            i += 3;
        } else {
            set.push(Elem::Char(s[i]));
            i += 1;
        }
    }
    set.extend(s[i..].iter().map(|&c| Elem::Char(c)));
    Ok(set)
}

/// Whether `*` digits `]` (none escaped) start at `i`.
fn star_digits_bracket(s: &[u8], escaped: &[bool], i: usize) -> bool {
    if s.get(i) != Some(&b'*') || escaped[i] {
        return false;
    }
    (i + 1..s.len()).find(|&j| !s[j].is_ascii_digit() || escaped[j]).is_some_and(|j| s[j] == b']' && !escaped[j])
}
