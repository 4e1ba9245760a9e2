//! A PCRE pattern as GNU grep 3.8 compiles it (UTF, no UCP), spelled for fancy-regex.
//!
//! The two read most of Perl's syntax alike; where they differ, the PCRE meaning is written
//! out: `\w`, `\d`, `\s` and `\b` are ASCII's (grep 3.8 does not ask PCRE for Unicode
//! properties), `\h`, `\v`, `\R` and `\N` are PCRE's horizontal and vertical space, line
//! break and non-newline, `\Q…\E` quotes, `\e` is escape, `\g` references a group,
//! `(?#…)` is a comment. Then `-w` and `-x` wrap the pattern as grep does.

use crate::base::bracket::{self, Dialect, Item};
use crate::search::pattern::lite::SPACE;
use crate::search::pattern::perl::{Options, Refusal};

/// An ASCII word character, as a class's members.
const WORD: &str = "0-9A-Za-z_";
const DIGIT: &str = "0-9";
const HSPACE: &str = "\\t \\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}";
const VSPACE: &str = "\\n\\x0B\\x0C\\r\\x{85}\\x{2028}\\x{2029}";

/// The members of a class escape, and whether it is negated.
fn class_escape(c: char) -> Option<(&'static str, bool)> {
    Some(match c {
        'w' => (WORD, false),
        'W' => (WORD, true),
        'd' => (DIGIT, false),
        'D' => (DIGIT, true),
        's' => (SPACE, false),
        'S' => (SPACE, true),
        'h' => (HSPACE, false),
        'H' => (HSPACE, true),
        'v' => (VSPACE, false),
        'V' => (VSPACE, true),
        _ => return None,
    })
}

/// `pattern` in fancy-regex's syntax with PCRE's meaning, wrapped for `-x` or `-w`.
pub(super) fn spell(pattern: &str, o: Options) -> Result<String, Refusal> {
    let p: Vec<char> = pattern.chars().collect();
    if p.starts_with(&['(', '*']) {
        return Err(Refusal::Unsupported("a PCRE start-of-pattern option (*…)".into()));
    }
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            '\\' => i = escape(&p, i, &mut out)?,
            '[' => i = class(&p, i, &mut out)?,
            '(' if p[i..].starts_with(&['(', '?', '#']) => {
                i += p[i..].iter().position(|&c| c == ')').map_or(p.len() - i, |n| n + 1);
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(if o.line {
        format!("^(?:{out})$")
    } else if o.word {
        format!("(?<![{WORD}])(?:{out})(?![{WORD}])")
    } else {
        out
    })
}

/// Spells the escape at `p[at] == '\\'`, outside a bracket expression. Returns
/// where reading goes on.
fn escape(p: &[char], at: usize, out: &mut String) -> Result<usize, Refusal> {
    let Some(&c) = p.get(at + 1) else {
        return Err(Refusal::Invalid("\\ at end of pattern".into()));
    };
    if let Some((members, negated)) = class_escape(c) {
        out.push_str(&format!("[{}{members}]", if negated { "^" } else { "" }));
        return Ok(at + 2);
    }
    match c {
        'b' | 'B' => {
            let w = format!("[{WORD}]");
            out.push_str(&if c == 'b' {
                format!("(?:(?<={w})(?!{w})|(?<!{w})(?={w}))")
            } else {
                format!("(?:(?<={w})(?={w})|(?<!{w})(?!{w}))")
            });
        }
        'R' => out.push_str(&format!("(?:\\r\\n|[{VSPACE}])")),
        'N' if p.get(at + 2) != Some(&'{') => out.push_str("[^\\n]"),
        'e' => out.push_str("\\x1B"),
        'E' => {}
        'Q' => {
            let rest = &p[at + 2..];
            let len = rest.windows(2).position(|w| w == ['\\', 'E']).unwrap_or(rest.len());
            rest[..len].iter().for_each(|&q| literal(q, out));
            return Ok((at + 2 + len + 2).min(p.len()));
        }
        'g' => return group_reference(p, at, out),
        c if !c.is_ascii_alphanumeric() => literal(c, out),
        _ => {
            out.push('\\');
            out.push(c);
        }
    }
    Ok(at + 2)
}

/// `c` as itself: escaped when fancy-regex gives it a meaning, and not otherwise (`\<` is
/// a word boundary there, a `<` in PCRE).
fn literal(c: char, out: &mut String) {
    if "\\.+*?()|[]{}^$#&-~".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// `\g1`, `\g{1}`, `\g{name}` as `\1` or `\k<name>`; relative references are refused.
fn group_reference(p: &[char], at: usize, out: &mut String) -> Result<usize, Refusal> {
    let start = at + 2;
    let (name, end) = match p.get(start) {
        Some('{') => {
            let len = p[start + 1..].iter().position(|&c| c == '}').ok_or_else(|| {
                Refusal::Invalid(
                    "\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number"
                        .into(),
                )
            })?;
            (p[start + 1..start + 1 + len].iter().collect::<String>(), start + len + 2)
        }
        _ => {
            let len = p[start..].iter().take_while(|c| c.is_ascii_digit()).count();
            (p[start..start + len].iter().collect(), start + len)
        }
    };
    if name.is_empty() || name.starts_with(['-', '+']) {
        return Err(Refusal::Unsupported("a relative group reference".into()));
    }
    if name.chars().all(|c| c.is_ascii_digit()) {
        out.push_str(&format!("\\{name}"));
    } else {
        out.push_str(&format!("\\k<{name}>"));
    }
    Ok(end)
}

/// Spells the bracket expression at `p[at] == '['`, read by the one reader of bracket
/// expressions (`base::bracket`, the dialect PCRE and Rust's regex read alike): members
/// escaped, Perl's class escapes as their ASCII members (a negated one as a nested class).
/// Returns where reading goes on.
fn class(p: &[char], at: usize, out: &mut String) -> Result<usize, Refusal> {
    let read = bracket::read(p, at + 1, Dialect::Re2).map_err(|e| match e {
        bracket::Error::Unmatched => Refusal::Invalid("missing terminating ] for character class".into()),
        bracket::Error::Range => Refusal::Invalid("range out of order in character class".into()),
        other => Refusal::Unsupported(format!("a bracket expression: {other}")),
    })?;
    out.push('[');
    if read.negated {
        out.push('^');
    }
    for item in &read.items {
        match *item {
            Item::Char(c) | Item::Equivalence(c) | Item::Collating(c) => literal(c, out),
            Item::Range(a, b) => {
                literal(a, out);
                out.push('-');
                literal(b, out);
            }
            Item::Class(name) => out.push_str(&format!("[:{name}:]")),
            Item::Perl(c) => match class_escape(c) {
                Some((members, false)) => out.push_str(members),
                Some((members, true)) => out.push_str(&format!("[^{members}]")),
                None => return Err(Refusal::Unsupported(format!("\\{c} in a bracket expression"))),
            },
        }
    }
    out.push(']');
    Ok(read.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(p: &str) -> String {
        spell(p, Options { ignore_case: false, word: false, line: false }).unwrap()
    }

    #[test]
    fn classes_are_ascii_and_pcre_escapes_are_written_out() {
        assert_eq!(s("\\w+"), "[0-9A-Za-z_]+");
        assert_eq!(s("[\\d.]"), "[0-9\\.]");
        assert_eq!(s("[^\\S]"), "[^[^\\t\\n\\x0B\\x0C\\r ]]");
        assert_eq!(s("\\Qa.b\\E+"), "a\\.b+");
        assert_eq!(s("x(?#note)y"), "xy");
        assert_eq!(s("(a)\\g1\\g{1}"), "(a)\\1\\1");
        assert_eq!(s("\\N"), "[^\\n]");
        assert_eq!(s("[]a]"), "[\\]a]");
        assert_eq!(s("\\<a\\>\\/"), "<a>/", "escaped punctuation is itself");
        assert!(matches!(
            spell("(*UCP)\\w", Options { ignore_case: false, word: false, line: false }),
            Err(Refusal::Unsupported(_))
        ));
    }

    #[test]
    fn word_and_line_wrap_the_pattern_as_grep_does() {
        let w = spell("a|b", Options { ignore_case: false, word: true, line: false }).unwrap();
        assert_eq!(w, "(?<![0-9A-Za-z_])(?:a|b)(?![0-9A-Za-z_])");
        let x = spell("a|b", Options { ignore_case: false, word: true, line: true }).unwrap();
        assert_eq!(x, "^(?:a|b)$");
    }
}
