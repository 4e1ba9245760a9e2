//! A pattern as the RE2-subset text the rest of the search pipeline reasons about.
//!
//! GNU grep's BRE and ERE are spelled by [`super::gnu`]; Perl-syntax patterns (rg's, and
//! grep -P's) keep their syntax, with POSIX bracket classes rewritten into their ASCII
//! members (both ripgrep's and PCRE's are ASCII) and the forms the subset does not hold
//! refused.

use super::lite::{push_class_char, push_class_range};
use crate::base::bracket::{self, Dialect as BracketDialect, Item};
use crate::commands::Unsupported;

/// The pattern language chosen by grep's flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Basic,
    Extended,
    Perl,
    Fixed,
}

/// The classes of a Perl pattern (ripgrep's and PCRE's: ASCII), as class members.
const POSIX: &[(&str, &str)] = &[
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

/// A Perl pattern with its bracket expressions read by the one reader of them and spelled
/// again: POSIX classes as their ASCII members (`[[:alpha:]]` → `[a-zA-Z]`), and the
/// `[[:<:]]` and `[[:>:]]` word boundaries as `\b`.
fn posix_classes(p: &[char]) -> Result<String, Unsupported> {
    let mut out = String::with_capacity(p.len());
    let mut i = 0;
    let starts = |i: usize, s: &str| p[i..].iter().take(s.chars().count()).copied().eq(s.chars());
    while i < p.len() {
        if starts(i, "[[:<:]]") || starts(i, "[[:>:]]") {
            out.push_str("\\b");
            i += 7;
            continue;
        }
        if p[i] == '[' {
            let b = bracket::read(p, i + 1, BracketDialect::Re2)
                .map_err(|e| Unsupported::new(format!("a bracket expression: {e}")))?;
            out.push_str(if b.negated { "[^" } else { "[" });
            for item in b.items {
                match item {
                    Item::Char(c) => push_class_char(&mut out, c),
                    Item::Range(lo, hi) => push_class_range(&mut out, lo, hi),
                    Item::Class(name) => out.push_str(POSIX.iter().find(|(n, _)| *n == name).map_or("", |(_, r)| r)),
                    Item::Perl(l) => {
                        out.push('\\');
                        out.push(l);
                    }
                    Item::Equivalence(_) | Item::Collating(_) => {
                        return Err(Unsupported::new("an equivalence class or collating symbol"))
                    }
                }
            }
            out.push(']');
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
    Ok(out)
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
            Ok(Some(posix_classes(&chars)?.replace("(?P<", "(?<")))
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

    #[test]
    fn perl_brackets_are_read_as_ripgrep_and_pcre_read_them() {
        assert_eq!(re2("[!a]", Dialect::Perl), "[!a]", "`!` does not negate");
        assert_eq!(re2("[^[:space:]\\d-]", Dialect::Perl), "[^ \\t\\n\\r\\f\\v\\d\\-]");
        assert_eq!(re2("[[:<:]]x[\\]]", Dialect::Perl), "\\bx[\\]]");
        for p in ["[a&&b]", "[a[b]]", "[[:foo:]]", "[abc"] {
            assert!(to_re2(p, Dialect::Perl).is_err(), "{p}");
        }
    }
}
