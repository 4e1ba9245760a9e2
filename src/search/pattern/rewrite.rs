//! A pattern as the RE2-subset text the rest of the search pipeline reasons about.
//!
//! GNU grep's BRE and ERE are spelled by [`super::gnu`]; Perl-syntax patterns (rg's, and
//! grep -P's) keep their syntax, with POSIX bracket classes rewritten into their ASCII
//! members (both ripgrep's and PCRE's are ASCII) and the forms the subset does not hold
//! refused.

use crate::commands::Unsupported;

/// The pattern language chosen by grep's flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Basic,
    Extended,
    Perl,
    Fixed,
}

pub(super) const POSIX: &[(&str, &str)] = &[
    ("alpha", "a-zA-Z"),
    ("digit", "0-9"),
    ("alnum", "a-zA-Z0-9"),
    ("lower", "a-z"),
    ("upper", "A-Z"),
    ("xdigit", "0-9A-Fa-f"),
    ("space", " \\t\\n\\r\\f\\v"),
    ("blank", " \\t"),
    ("punct", "!-/:-@\\[-`{-~"),
    ("graph", "!-~"),
    ("print", " -~"),
    ("cntrl", "\\x00-\\x1F\\x7F"),
    ("ascii", "\\x00-\\x7F"),
    ("word", "a-zA-Z0-9_"),
];

/// One element of a bracket expression.
enum Item {
    Char(char),
    /// A backslash and the character after it, kept together.
    Escaped(char),
    /// A POSIX class (`[:alpha:]`), as the ranges that replace it.
    Class(&'static str),
}

/// A bracket expression as just-bash's rewriting reads it, from its `[`.
struct Bracket {
    /// `^` or `!` right after the `[`.
    negation: Option<char>,
    /// A `]` right after the `[` (and the negation), which is a member.
    leading_close: bool,
    items: Vec<Item>,
    /// The expression has its closing `]`.
    closed: bool,
    /// Where reading goes on after it.
    end: usize,
}

/// Reads the bracket expression at `p[start] == '['`. With `classes`, a known POSIX class
/// (`[:digit:]`) is one item, as just-bash's first pass reads it.
fn bracket(p: &[char], start: usize, classes: bool) -> Bracket {
    let mut i = start + 1;
    let negation = p.get(i).copied().filter(|c| *c == '^' || *c == '!');
    i += usize::from(negation.is_some());
    let leading_close = p.get(i) == Some(&']');
    i += usize::from(leading_close);
    let mut items = Vec::new();
    while i < p.len() && p[i] != ']' {
        if classes && p[i] == '[' && p.get(i + 1) == Some(&':') {
            let close = (i + 2..p.len().saturating_sub(1)).find(|&j| p[j] == ':' && p[j + 1] == ']');
            let name: Option<String> = close.map(|c| p[i + 2..c].iter().collect());
            if let Some((_, rep)) = name.and_then(|n| POSIX.iter().find(|(known, _)| *known == n)) {
                items.push(Item::Class(rep));
                i = close.expect("a class has its end") + 2;
                continue;
            }
        }
        if p[i] == '\\' && i + 1 < p.len() {
            items.push(Item::Escaped(p[i + 1]));
            i += 2;
            continue;
        }
        items.push(Item::Char(p[i]));
        i += 1;
    }
    let closed = i < p.len();
    Bracket { negation, leading_close, items, closed, end: i + usize::from(closed) }
}

impl Bracket {
    /// The members as written (escapes kept, POSIX classes replaced).
    fn members(&self, out: &mut Vec<char>) {
        for item in &self.items {
            match item {
                Item::Char(c) => out.push(*c),
                Item::Escaped(c) => out.extend(['\\', *c]),
                Item::Class(rep) => out.extend(rep.chars()),
            }
        }
    }
}

/// just-bash's rewriting of POSIX classes inside brackets (`[[:alpha:]]` → `[a-zA-Z]`):
/// a negation is spelled `^`, and a leading `]` escaped.
fn posix_classes(p: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(p.len());
    let mut i = 0;
    let starts = |i: usize, s: &str| p[i..].iter().take(s.chars().count()).copied().eq(s.chars());
    while i < p.len() {
        if starts(i, "[[:<:]]") || starts(i, "[[:>:]]") {
            out.extend(['\\', 'b']);
            i += 7;
            continue;
        }
        if p[i] == '[' {
            let b = bracket(p, i, true);
            out.push('[');
            if b.negation.is_some() {
                out.push('^');
            }
            if b.leading_close {
                out.extend(['\\', ']']);
            }
            b.members(&mut out);
            if b.closed {
                out.push(']');
            }
            i = b.end;
            continue;
        }
        if p[i] == '\\' && i + 1 < p.len() {
            out.extend([p[i], p[i + 1]]);
            i += 2;
            continue;
        }
        out.push(p[i]);
        i += 1;
    }
    out
}

/// One pattern spelled as RE2 with the tool's meaning (GNU grep's for BRE and ERE, see
/// [`super::gnu`]), or `None` for fixed strings.
pub(crate) fn to_re2(pattern: &str, dialect: Dialect) -> Result<Option<String>, Unsupported> {
    let chars: Vec<char> = pattern.chars().collect();
    match dialect {
        Dialect::Fixed => Ok(None),
        Dialect::Basic | Dialect::Extended => Ok(Some(super::gnu::spell(pattern, dialect == Dialect::Extended)?.re2)),
        Dialect::Perl => {
            if pattern.contains("\\Q") || pattern.contains("\\x") || pattern.contains("\\K") {
                return Err(Unsupported::new("the Perl escapes \\Q, \\x or \\K"));
            }
            // Perl mode deletes flag groups and rewrites `(?i:…)` before RE2 sees the
            // pattern, escaped parentheses or not; named groups are groups.
            let other_group = |at: usize| {
                chars[at..].starts_with(&['(', '?'])
                    && chars.get(at + 2) != Some(&':')
                    && super::lite::group_name(&chars, at + 2).is_none()
            };
            if (0..chars.len()).any(other_group) {
                return Err(Unsupported::new("a Perl (?…) group"));
            }
            let s: String = posix_classes(&chars).into_iter().collect();
            Ok(Some(s.replace("(?P<", "(?<")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re2(p: &str, d: Dialect) -> String {
        to_re2(p, d).unwrap().unwrap()
    }

    #[test]
    fn patterns_are_spelled_with_the_tools_meaning() {
        assert_eq!(re2("colou\\?rs\\+", Dialect::Basic), "colou?rs+", "GNU's \\? and \\+");
        assert_eq!(re2("a{,3}", Dialect::Extended), "a{0,3}", "GNU's {{,n}}");
        assert_eq!(re2("[[:digit:]]x", Dialect::Perl), "[0-9]x");
        assert_eq!(to_re2("a.b", Dialect::Fixed).unwrap(), None);
        assert!(to_re2("(?i)x", Dialect::Perl).is_err());
    }
}
