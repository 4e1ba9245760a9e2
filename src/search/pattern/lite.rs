//! RE2 text spelled as regex-lite text: the one translation between the two syntaxes.
//!
//! Both regex engines of a search read what this module writes. Native grep and rg
//! ([`super::engine`]) need an *exact* translation of the pattern as the tool reads it
//! (spelled as RE2 by [`super::rewrite`]), so [`translate`] takes the text as it is and
//! refuses what the two engines would read differently. The page check and Chroma's `$regex` ([`super::syntax`]) need a
//! *widened* one, emitted from the parsed pattern; they spell each character, class
//! member and `\s` with [`push_lit`], [`push_class_char`] and [`SPACE`] from here, so
//! the engines agree on every character: tabs, newlines, carriage returns, vertical
//! tabs and form feeds always as escapes (`\r`, never a raw CR in a class), and
//! regex-lite's metacharacters and class operators (`&`, `~`, `-`) escaped.

use crate::base::bracket::{self, Dialect, Item};
use crate::commands::Unsupported;

/// RE2's largest repetition count; a larger one is a syntax error there.
const MAX_REPEAT: u32 = 1000;

/// Characters that are operators outside a class.
const META: &str = "\\.+*?()|[]{}^$";

/// A control character RE2 and regex-lite both read as this escape.
fn control(c: char) -> Option<&'static str> {
    Some(match c {
        '\t' => "\\t",
        '\n' => "\\n",
        '\r' => "\\r",
        '\u{b}' => "\\x0B",
        '\u{c}' => "\\x0C",
        _ => return None,
    })
}

/// One literal character, outside a class.
pub(crate) fn push_lit(out: &mut String, c: char) {
    match c {
        c if control(c).is_some() => out.push_str(control(c).unwrap()),
        c if META.contains(c) => {
            out.push('\\');
            out.push(c);
        }
        c => out.push(c),
    }
}

/// A range of a class, each end as [`push_class_char`] writes it.
pub(crate) fn push_class_range(out: &mut String, lo: char, hi: char) {
    push_class_char(out, lo);
    out.push('-');
    push_class_char(out, hi);
}

/// One member of a class (regex-lite also reads `&&`, `~~` and `--` as set operations).
pub(crate) fn push_class_char(out: &mut String, c: char) {
    match c {
        '\\' | '[' | ']' | '^' | '-' | '&' | '~' => {
            out.push('\\');
            out.push(c);
        }
        c if control(c).is_some() => out.push_str(control(c).unwrap()),
        c => out.push(c),
    }
}

/// `\s` on ASCII (GNU grep's, ripgrep's and regex-lite's), as the members of a class.
pub(crate) const SPACE: &str = "\\t\\n\\x0B\\x0C\\r ";

fn escape_char(e: char) -> Option<&'static str> {
    Some(match e {
        't' => "\\t",
        'n' => "\\n",
        'r' => "\\r",
        'f' => "\\x0C",
        'v' => "\\x0B",
        _ => return None,
    })
}

/// Translates RE2 text in the shared subset into regex-lite text.
pub(crate) fn translate(s: &[char], out: &mut String) -> Result<(), Unsupported> {
    let no = |what: &str| Err(Unsupported::new(format!("{what} is left to just-bash")));
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        i += 1;
        match c {
            '\\' => {
                let Some(&e) = s.get(i) else {
                    return no("a trailing backslash");
                };
                i += 1;
                match e {
                    'd' | 'D' | 'w' | 'W' | 'B' | 'A' | 'z' | 's' | 'S' => {
                        out.push('\\');
                        out.push(e);
                    }
                    'b' => {
                        out.push_str("\\b");
                        // regex-lite's word assertions: `\b{start}`, `\b{end-half}`, …
                        for kind in ["{start}", "{end}", "{start-half}", "{end-half}"] {
                            if s[i..].iter().take(kind.len()).copied().eq(kind.chars()) {
                                out.push_str(kind);
                                i += kind.len();
                                break;
                            }
                        }
                    }
                    e if escape_char(e).is_some() => out.push_str(escape_char(e).unwrap()),
                    e if e.is_ascii_punctuation() => push_lit(out, e),
                    _ => return no(&format!("the escape \\{e}")),
                }
            }
            '[' => i = class(s, i, out)?,
            '(' => {
                if s.get(i) == Some(&'?') {
                    match group_name(s, i + 1) {
                        Some((name, end)) => {
                            out.push_str("(?P<");
                            out.extend(name);
                            out.push('>');
                            i = end;
                        }
                        None if s.get(i + 1) == Some(&':') => {
                            i += 2;
                            out.push_str("(?:");
                        }
                        None => return no("a (?…) group"),
                    }
                } else {
                    out.push('(');
                }
            }
            ')' | '|' | '.' | '^' | '$' | '*' | '+' | '?' => out.push(c),
            '{' => match interval(s, i) {
                Some((end, max)) if max <= MAX_REPEAT => {
                    out.extend(&s[i - 1..end]);
                    i = end;
                }
                Some(_) => return no("a repetition over 1000"),
                None => out.push_str("\\{"),
            },
            c => push_lit(out, c),
        }
    }
    Ok(())
}

/// regex-lite text with `\D`, `\W` and `\S` outside a class matching ASCII characters
/// only, as GNU grep 3.8's `-P` reads them (in a class, as `[\D]`, they match a character
/// beyond ASCII too, as there).
pub(crate) fn ascii_negations(lite: &str) -> String {
    let (mut out, mut chars, mut in_class) = (String::with_capacity(lite.len()), lite.chars(), false);
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next().unwrap_or('\\');
                match (e, in_class) {
                    ('D', false) => out.push_str("[\\x00-\\x2F\\x3A-\\x7F]"),
                    ('W', false) => out.push_str("[\\x00-\\x2F\\x3A-\\x40\\x5B-\\x5E\\x60\\x7B-\\x7F]"),
                    ('S', false) => out.push_str("[\\x00-\\x08\\x0E-\\x1F\\x21-\\x7F]"),
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// An interval `{n}`, `{n,}` or `{n,m}` starting after the `{` at `i - 1`: where it ends
/// and its largest count.
pub(super) fn interval(s: &[char], mut i: usize) -> Option<(usize, u32)> {
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < s.len() && s[*i].is_ascii_digit() {
            *i += 1;
        }
        (*i > start).then(|| s[start..*i].iter().collect::<String>().parse::<u32>().unwrap_or(u32::MAX))
    };
    let min = digits(&mut i)?;
    let mut max = min;
    if s.get(i) == Some(&',') {
        i += 1;
        max = digits(&mut i).unwrap_or(min);
    }
    (s.get(i) == Some(&'}')).then_some((i + 1, max.max(min)))
}

/// A bracket expression starting after the `[` at `i - 1`, read by the one reader of
/// them; returns where it ends.
fn class(s: &[char], i: usize, out: &mut String) -> Result<usize, Unsupported> {
    let no = |what: &str| Err(Unsupported::new(format!("{what} in a bracket expression is left to just-bash")));
    let b = match bracket::read(s, i, Dialect::Re2) {
        Ok(b) => b,
        Err(e) => return no(&e.to_string()),
    };
    out.push_str(if b.negated { "[^" } else { "[" });
    for item in b.items {
        match item {
            Item::Char(c) => push_class_char(out, c),
            Item::Range(lo, hi) => {
                push_class_char(out, lo);
                out.push('-');
                push_class_char(out, hi);
            }
            Item::Perl(l @ ('d' | 'w' | 's')) => {
                out.push('\\');
                out.push(l);
            }
            _ => return no("a class regex-lite reads differently"),
        }
    }
    out.push(']');
    Ok(b.end)
}

/// The name of a named group (`<name>` or `P<name>`, starting at `at`: letters, digits
/// and `_`, not starting with a digit), and where the group's `>` ends.
pub(crate) fn group_name(s: &[char], at: usize) -> Option<(&[char], usize)> {
    let start = at + usize::from(s.get(at) == Some(&'P')) + 1;
    if s.get(start - 1) != Some(&'<') {
        return None;
    }
    let len = s[start..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == '_').count();
    let first_ok = s.get(start).is_some_and(|c| !c.is_ascii_digit());
    (len > 0 && first_ok && s.get(start + len) == Some(&'>')).then_some((&s[start..start + len], start + len + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::syntax::parse;

    fn exact(re2: &str) -> String {
        let mut out = String::new();
        translate(&re2.chars().collect::<Vec<_>>(), &mut out).unwrap();
        out
    }

    fn widened(re2: &str) -> String {
        let mut out = String::new();
        parse(re2).unwrap().to_rust_regex(&mut out);
        out
    }

    #[test]
    fn both_translations_spell_characters_alike() {
        assert_eq!(exact("[a\r\t]x\r"), "[a\\r\\t]x\\r");
        assert_eq!(widened("[a\r\t]x\r"), "[a\\r\\t]x\\r");
        // The exact one keeps `\s` (ASCII white space to regex-lite), the widened one adds
        // every character beyond ASCII: on ASCII, the two agree.
        let (e, w) = (exact("[\\s&]\\s"), widened("[\\s&]\\s"));
        let (e, w) = (regex_lite::Regex::new(&e).unwrap(), regex_lite::Regex::new(&w).unwrap());
        for b in 0u8..128 {
            let two = format!("{}{}", b as char, b as char);
            assert_eq!(e.is_match(&two), w.is_match(&two), "{b}");
        }
        let re = regex_lite::Regex::new(&exact("[\r]")).unwrap();
        assert!(re.is_match("line\r") && !re.is_match("r"), "a carriage return, not the letter");
    }

    #[test]
    fn brackets_are_spelled_for_regex_lite_or_refused() {
        assert_eq!(exact("[^\\-a-c\\-]"), "[^\\-a-c\\-]");
        assert_eq!(exact("[a-z-0\\x0B]"), "[a-z\\-0\\x0B]", "a `-` after a range is itself to ripgrep and PCRE");
        assert_eq!(exact("[&~]"), "[\\&\\~]");
        let gnu = |p: &str| exact(&crate::search::pattern::gnu::spell(p, true).unwrap().re2);
        let punct = regex_lite::Regex::new(&gnu("^[[:punct:]]+$")).unwrap();
        assert!(punct.is_match("!-&&~[]\\") && !punct.is_match("a"));
        // What Rust's regex and PCRE read differently.
        for re2 in ["[a&&b]", "[a--b]", "[a[b]]", "[[:alpha:]]", "[\\d-z]", "[z-a]", "[\\D]"] {
            let mut out = String::new();
            assert!(translate(&re2.chars().collect::<Vec<_>>(), &mut out).is_err(), "{re2}");
        }
    }
}
