//! sed's regular expressions, replacements and text arguments, as GNU sed 4.9 reads them
//! after a command has cut them out of the script.
//!
//! A regex is GNU's BRE (or ERE with `-E`) spelled as RE2 by
//! [`crate::search::pattern::gnu::spell_sed`] and run by regex-lite; sed's own escapes
//! (`\n`, `\t`, `\x41`, …) are turned into the characters they name first. Without the
//! `M` flag `.` matches a newline in the pattern space and `^`/`$` are its ends; with it
//! they are the ends of its lines.

use crate::base::cescape;
use crate::search::pattern::gnu;
use regex_lite::Regex;

/// The character `\X` names in sed (`\t`, `\d065`, `\o101`, `\x41`, `\cA`), and how many
/// bytes after the backslash it took.
pub(super) fn escape(s: &[u8], i: usize) -> Option<(char, usize)> {
    let c = *s.get(i)?;
    // `\b` is a word boundary in a regular expression.
    let simple = if c == b'b' { None } else { cescape::byte_of(c).map(char::from) };
    if let Some(ch) = simple {
        return Some((ch, 1));
    }
    let number = |radix: u32, max: usize| {
        let digits: Vec<u8> =
            s[i + 1..].iter().take(max).take_while(|b| (**b as char).is_digit(radix)).copied().collect();
        let text = std::str::from_utf8(&digits).ok()?;
        let n = u32::from_str_radix(text, radix).ok()?;
        Some((char::from_u32(n & 0xFF)?, 1 + digits.len()))
    };
    match c {
        b'd' => number(10, 3),
        b'o' => number(8, 3),
        b'x' => number(16, 2),
        b'c' => {
            let x = s.get(i + 1)?.to_ascii_uppercase();
            Some(((x ^ 0x40) as char, 2))
        }
        _ => None,
    }
}

/// A regex's text with sed's escapes turned into the characters they name (kept escaped
/// when that character is special to a regex).
fn unescape_regex(p: &[u8]) -> String {
    let mut out = Vec::with_capacity(p.len());
    let mut i = 0;
    while i < p.len() {
        if p[i] == b'\\' && i + 1 < p.len() {
            if let Some((c, n)) = escape(p, i + 1) {
                if "^$.*[]\\+?(){}|/".contains(c) {
                    out.push(b'\\');
                }
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i += 1 + n;
                continue;
            }
            out.extend_from_slice(&p[i..i + 2]);
            i += 2;
            continue;
        }
        out.push(p[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Why sed refuses a regex.
#[derive(Debug)]
pub(super) enum Refused {
    /// glibc's message (or this reader's), given with where the script was read.
    Message(String),
    /// gnulib's dfa, which sed compiles each regex with too, stops sed at once: the message
    /// alone, status 4.
    Panic(&'static str),
}

/// Compiles a sed regex (non-empty), or why sed refuses it.
pub(super) fn compile(p: &[u8], extended: bool, icase: bool, multiline: bool) -> Result<Regex, Refused> {
    let text = unescape_regex(p);
    let spelled = match gnu::spell_sed(&text, extended) {
        Ok(s) if s.class_syntax => return Err(Refused::Panic("character class syntax is [[:space:]], not [:space:]")),
        Ok(s) => s,
        Err((_, Some(message))) => return Err(Refused::Message(message.to_string())),
        Err((e, None)) => {
            let backref = text.as_bytes().windows(2).any(|w| w[0] == b'\\' && w[1].is_ascii_digit());
            return Err(Refused::Message(if backref {
                "back-references in regular expressions are not supported".to_string()
            } else {
                format!("unsupported regular expression ({})", e.0)
            }));
        }
    };
    let flags = match (icase, multiline) {
        (false, false) => "(?s)",
        (true, false) => "(?si)",
        (false, true) => "(?m)",
        (true, true) => "(?mi)",
    };
    Regex::new(&format!("{flags}{}", spelled.re2))
        .map_err(|e| Refused::Message(format!("unsupported regular expression ({e})")))
}

/// One part of a replacement.
#[derive(Debug, Clone)]
pub(super) enum Part {
    Text(String),
    /// `&` (0) or `\1`…`\9`.
    Group(usize),
    /// `\L`, `\U`, `\l`, `\u` or `\E`.
    Case(u8),
}

/// A replacement's parts, and the highest group it names.
pub(super) fn replacement(r: &[u8]) -> (Vec<Part>, usize) {
    let mut parts = Vec::new();
    let mut text = Vec::new();
    let mut max = 0;
    let flush = |text: &mut Vec<u8>, parts: &mut Vec<Part>| {
        if !text.is_empty() {
            parts.push(Part::Text(String::from_utf8_lossy(text).into_owned()));
            text.clear();
        }
    };
    let mut i = 0;
    while i < r.len() {
        match r[i] {
            b'&' => {
                flush(&mut text, &mut parts);
                parts.push(Part::Group(0));
            }
            b'\\' if i + 1 < r.len() => {
                i += 1;
                match r[i] {
                    d @ b'0'..=b'9' => {
                        flush(&mut text, &mut parts);
                        let n = usize::from(d - b'0');
                        max = max.max(n);
                        parts.push(Part::Group(n));
                    }
                    c @ (b'L' | b'U' | b'l' | b'u' | b'E') => {
                        flush(&mut text, &mut parts);
                        parts.push(Part::Case(c));
                    }
                    _ => match escape(r, i) {
                        Some((c, n)) => {
                            let mut buf = [0; 4];
                            text.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            i += n - 1;
                        }
                        None => text.push(r[i]),
                    },
                }
            }
            b => text.push(b),
        }
        i += 1;
    }
    flush(&mut text, &mut parts);
    (parts, max)
}

/// The text of `a`, `i` and `c`: escapes turned into characters, other backslashes
/// dropped.
pub(super) fn text(t: &[u8]) -> String {
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        if t[i] == b'\\' && i + 1 < t.len() {
            match escape(t, i + 1) {
                Some((c, n)) => {
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    i += 1 + n;
                }
                None => {
                    out.push(t[i + 1]);
                    i += 2;
                }
            }
            continue;
        }
        out.push(t[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Case conversion while a replacement is built (`\U…\E`, `\u`).
#[derive(Default)]
pub(super) struct Caser {
    /// `\U` or `\L` in force.
    mode: Option<u8>,
    /// `\u` or `\l` for the next character.
    once: Option<u8>,
}

impl Caser {
    pub(super) fn set(&mut self, c: u8) {
        match c {
            b'U' | b'L' => (self.mode, self.once) = (Some(c), None),
            b'u' | b'l' => self.once = Some(c),
            _ => (self.mode, self.once) = (None, None),
        }
    }

    pub(super) fn push(&mut self, out: &mut String, s: &str) {
        if self.mode.is_none() && self.once.is_none() {
            out.push_str(s);
            return;
        }
        for c in s.chars() {
            let how = self.once.take().or(self.mode);
            match how {
                Some(b'U' | b'u') => out.push(single(c.to_uppercase()).unwrap_or(c)),
                Some(b'L' | b'l') => out.push(single(c.to_lowercase()).unwrap_or(c)),
                _ => out.push(c),
            }
        }
    }
}

/// The one character a case mapping gives, when it gives one (as `towupper`).
fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
    let c = it.next()?;
    it.next().is_none().then_some(c)
}
