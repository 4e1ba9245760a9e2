//! grep patterns as just-bash reads them, rewritten into the RE2 text it compiles.
//!
//! just-bash compiles every pattern with RE2 (re2js) after rewriting BRE and POSIX
//! bracket classes into RE2 syntax. [`to_re2`] repeats that rewriting, so the text the
//! rest of the search pipeline reasons about is exactly what just-bash matches with.

use crate::commands::Unsupported;
use std::fmt::Write;

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

/// BRE → RE2 rewriting (`\(` groups, `\|` alternation, `\{n,m\}`, GNU's `\+` and `\?`, and
/// `+ ? | ( ) { }` literal).
fn basic_to_re2(s: &[char]) -> String {
    let mut r = String::new();
    let mut i = 0;
    let mut at_start = true;
    while i < s.len() {
        let c = s[i];
        if c == '[' {
            // A bracket expression is copied as it is.
            let b = bracket(s, i, false);
            r.push('[');
            r.extend(b.negation);
            if b.leading_close {
                r.push(']');
            }
            let mut members = Vec::new();
            b.members(&mut members);
            r.extend(members);
            if b.closed {
                r.push(']');
            }
            i = b.end;
            at_start = false;
            continue;
        }
        if c == '\\' && i + 1 < s.len() {
            let n = s[i + 1];
            match n {
                '|' => {
                    r.push('|');
                    i += 2;
                    at_start = true;
                }
                '(' => {
                    r.push('(');
                    i += 2;
                    at_start = true;
                }
                ')' => {
                    r.push(')');
                    i += 2;
                    at_start = false;
                }
                '{' => {
                    // \{n\}, \{n,\}, \{n,m\}
                    let mut j = i + 2;
                    let d0 = j;
                    while j < s.len() && s[j].is_ascii_digit() {
                        j += 1;
                    }
                    let mut ok = j > d0;
                    let min: String = s[d0..j].iter().collect();
                    let mut max = None;
                    if ok && j < s.len() && s[j] == ',' {
                        let m0 = j + 1;
                        j += 1;
                        while j < s.len() && s[j].is_ascii_digit() {
                            j += 1;
                        }
                        max = Some(s[m0..j].iter().collect::<String>());
                    }
                    ok = ok && j + 1 < s.len() && s[j] == '\\' && s[j + 1] == '}';
                    if ok {
                        match max {
                            Some(m) => write!(r, "{{{min},{m}}}").unwrap(),
                            None => write!(r, "{{{min}}}").unwrap(),
                        }
                        i = j + 2;
                    } else {
                        r.push_str("\\{");
                        i += 2;
                    }
                    at_start = false;
                }
                '}' => {
                    r.push_str("\\}");
                    i += 2;
                    at_start = false;
                }
                // GNU's extensions: one or more, and optional.
                '+' | '?' if !at_start => {
                    r.push(n);
                    i += 2;
                }
                _ => {
                    r.push(c);
                    r.push(n);
                    i += 2;
                    at_start = false;
                }
            }
            continue;
        }
        if c == '*' && at_start {
            r.push_str("\\*");
            i += 1;
            continue;
        }
        if c == '^' {
            r.push_str(if at_start { "^" } else { "\\^" });
            i += 1;
            continue;
        }
        if c == '$' {
            let at_end = i == s.len() - 1;
            let before_group_end = i + 2 < s.len() && s[i + 1] == '\\' && s[i + 2] == ')';
            r.push_str(if at_end || before_group_end { "$" } else { "\\$" });
            i += 1;
            at_start = false;
            continue;
        }
        if matches!(c, '+' | '?' | '|' | '(' | ')' | '{' | '}') {
            r.push('\\');
        }
        r.push(c);
        i += 1;
        at_start = false;
    }
    r
}

/// The RE2 pattern just-bash compiles for one grep pattern, or `None` for fixed strings.
pub(crate) fn to_re2(pattern: &str, dialect: Dialect) -> Result<Option<String>, Unsupported> {
    let chars: Vec<char> = pattern.chars().collect();
    match dialect {
        Dialect::Fixed => Ok(None),
        Dialect::Basic => Ok(Some(basic_to_re2(&posix_classes(&chars)))),
        Dialect::Extended | Dialect::Perl => {
            if dialect == Dialect::Perl
                && (pattern.contains("\\Q") || pattern.contains("\\x") || pattern.contains("\\K"))
            {
                return Err(Unsupported::new("the Perl escapes \\Q, \\x or \\K"));
            }
            // Perl mode deletes flag groups and rewrites `(?i:…)` before RE2 sees the
            // pattern, escaped parentheses or not.
            if dialect == Dialect::Perl
                && pattern.match_indices("(?").any(|(at, _)| !pattern[at + 2..].starts_with(':'))
            {
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
    fn basic_regexes_are_rewritten_like_just_bash() {
        assert_eq!(re2("a+b?(c)|{d}", Dialect::Basic), "a\\+b\\?\\(c\\)\\|\\{d\\}");
        assert_eq!(re2("colou\\?rs\\+", Dialect::Basic), "colou?rs+", "GNU's \\? and \\+");
        assert_eq!(re2("\\(ab\\)\\|cd", Dialect::Basic), "(ab)|cd");
        assert_eq!(re2("a\\{2,3\\}", Dialect::Basic), "a{2,3}");
        assert_eq!(re2("a\\{,3\\}", Dialect::Basic), "a\\{,3\\}");
        assert_eq!(re2("*a*", Dialect::Basic), "\\*a*");
        assert_eq!(re2("^a^b$c$", Dialect::Basic), "^a\\^b\\$c$");
        assert_eq!(re2("[[:digit:]]x", Dialect::Basic), "[0-9]x");
        assert_eq!(re2("[]a]", Dialect::Basic), "[\\]a]");
        assert_eq!(re2("(?P<n>x)", Dialect::Extended), "(?<n>x)");
    }
}
