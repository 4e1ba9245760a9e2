//! grep `-P` patterns beyond the engine's subset: lookaround, backreferences, `\K`, atomic
//! groups, possessive quantifiers, conditionals — what people reach for `-P` for.
//!
//! They are matched by a backtracking engine this module only names ([`Compiler`],
//! [`Backtracker`]): the package's `perl` module (fancy-regex, loaded the first time a
//! pattern may need it) is installed through the JavaScript boundary ([`install`]); the
//! native tests use the same crate directly. The core module never carries it.
//!
//! Everything that only needs a superset of the matching lines — Chroma's coarse filter,
//! the fine check of a page, the literals a matching line holds — reads the pattern
//! [`widen`]ed into the subset: assertions dropped, a backreference any text.

use crate::base::bracket::{self, Dialect};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// How grep's flags ask a pattern to be matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// `-i`: caseless, with Unicode's case folding (PCRE's in UTF mode).
    pub ignore_case: bool,
    /// `-w`: not preceded and not followed by a word character.
    pub word: bool,
    /// `-x`: the whole line.
    pub line: bool,
}

/// Why a pattern is not matched by the backtracking engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The pattern is wrong, in PCRE's words (`missing closing parenthesis`): grep prints
    /// them and exits with 2.
    Invalid(String),
    /// The pattern is one PCRE takes and the engine does not: the command is not answered.
    Unsupported(String),
}

/// A matching that gave up: PCRE's backtracking limit, which GNU grep reports for the file
/// and exits with 2 on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Exceeded;

/// A compiled pattern.
pub(crate) trait Backtracker {
    /// The first match in `line` at or after byte `start` (a character boundary), as a
    /// byte range of `line`; assertions see the whole line, so a lookbehind reads what is
    /// before `start`.
    fn find_at(&self, line: &str, start: usize) -> Result<Option<Range<usize>>, Exceeded>;
}

/// What compiles patterns into [`Backtracker`]s.
pub(crate) trait Compiler {
    fn compile(&self, pattern: &str, o: Options) -> Result<Rc<dyn Backtracker>, Refusal>;
}

thread_local! {
    static INSTALLED: RefCell<Option<Rc<dyn Compiler>>> = const { RefCell::new(None) };
}

/// Makes `compiler` the one searches use from now on.
pub(crate) fn install(compiler: Rc<dyn Compiler>) {
    INSTALLED.with(|i| *i.borrow_mut() = Some(compiler));
}

/// The installed compiler (in the native tests, the crate's own when none is).
pub(crate) fn installed() -> Option<Rc<dyn Compiler>> {
    let installed = INSTALLED.with(|i| i.borrow().clone());
    #[cfg(test)]
    let installed = installed.or_else(tests::native);
    installed
}

/// `pattern` with what the subset cannot read taken out, so that every line the pattern
/// matches the result matches too: lookaround and `\K` dropped, backreferences and
/// conditionals any text, atomic and named groups plain ones, possessive quantifiers
/// greedy. `None` when nothing was taken out (the subset reads it as it is, or refuses it
/// for another reason) or the pattern is not well formed.
pub(crate) fn widen(pattern: &str) -> Option<String> {
    let p: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut changed = false;
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            '\\' => {
                let next = *p.get(i + 1)?;
                match next {
                    'K' => changed = true,
                    '1'..='9' | 'g' | 'k' => {
                        i = backreference_end(&p, i + 1)?;
                        out.push_str(".*");
                        changed = true;
                        continue;
                    }
                    _ => {
                        out.push('\\');
                        out.push(next);
                    }
                }
                i += 2;
            }
            '[' => {
                let end = class_end(&p, i)?;
                out.extend(&p[i..end]);
                i = end;
            }
            '(' if p.get(i + 1) == Some(&'?') => {
                let rest: String = p[i + 2..p.len().min(i + 5)].iter().collect();
                if ["=", "!", "<=", "<!"].iter().any(|a| rest.starts_with(a)) {
                    i = group_end(&p, i)?;
                    changed = true;
                } else if rest.starts_with('(') || rest.starts_with("P=") {
                    // A conditional, or a named backreference.
                    i = group_end(&p, i)?;
                    out.push_str(".*");
                    changed = true;
                } else if rest.starts_with('>') {
                    out.push_str("(?:");
                    i += 3;
                    changed = true;
                } else if let Some(after) = group_name_end(&p, i + 2) {
                    out.push_str("(?:");
                    i = after;
                    changed = true;
                } else {
                    out.push_str("(?");
                    i += 2;
                }
            }
            '+' if i > 0 && matches!(p[i - 1], '+' | '*' | '?' | '}') && !escaped(&p, i - 1) => {
                changed = true;
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    changed.then_some(out)
}

/// Whether `p[at]` is escaped by a backslash (an odd run of them before it).
fn escaped(p: &[char], at: usize) -> bool {
    p[..at].iter().rev().take_while(|&&c| c == '\\').count() % 2 == 1
}

/// Where a backreference whose letter or first digit is at `at` ends: `\1`, `\12`, `\g1`,
/// `\g{-1}`, `\g{name}`, `\k<name>`, `\k{name}`, `\k'name'`.
fn backreference_end(p: &[char], at: usize) -> Option<usize> {
    match p[at] {
        'g' | 'k' => {
            let close = match p.get(at + 1)? {
                '{' => '}',
                '<' => '>',
                '\'' => '\'',
                c if c.is_ascii_digit() || *c == '-' => {
                    let digits = p[at + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
                    return Some(at + 2 + digits);
                }
                _ => return None,
            };
            let len = p[at + 2..].iter().position(|&c| c == close)?;
            Some(at + 3 + len)
        }
        _ => Some(at + p[at..].iter().take_while(|c| c.is_ascii_digit()).count()),
    }
}

/// Where the bracket expression starting at `p[at] == '['` ends (after its `]`), as the
/// one reader of bracket expressions reads PCRE's (`None`: it does not end).
fn class_end(p: &[char], at: usize) -> Option<usize> {
    bracket::end(p, at + 1, Dialect::Re2)
}

/// Where the group opening at `p[at] == '('` ends (after its `)`).
fn group_end(p: &[char], at: usize) -> Option<usize> {
    let mut depth = 0;
    let mut i = at;
    while i < p.len() {
        match p[i] {
            '\\' => i += 1,
            '[' => {
                i = class_end(p, i)?;
                continue;
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// After a named group's opening (`<name>`, `P<name>`, `'name'`) that starts at `p[at]`.
fn group_name_end(p: &[char], at: usize) -> Option<usize> {
    let (start, close) = match (p.get(at)?, p.get(at + 1)) {
        ('<', Some(c)) if *c != '=' && *c != '!' => (at + 1, '>'),
        ('P', Some('<')) => (at + 2, '>'),
        ('\'', _) => (at + 1, '\''),
        _ => return None,
    };
    let len = p[start..].iter().position(|&c| c == close)?;
    let name = &p[start..start + len];
    let word = |c: &char| c.is_ascii_alphanumeric() || *c == '_';
    (!name.is_empty() && name.iter().all(word)).then_some(start + len + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `perl` module's compiler, as the native tests' engine.
    struct Fancy;

    impl Compiler for Fancy {
        fn compile(&self, pattern: &str, o: Options) -> Result<Rc<dyn Backtracker>, Refusal> {
            Ok(Rc::new(crate::perl::compile(pattern, o)?))
        }
    }

    pub(super) fn native() -> Option<Rc<dyn Compiler>> {
        Some(Rc::new(Fancy))
    }

    #[test]
    fn widening_drops_assertions_and_keeps_the_rest() {
        let w = |p: &str| widen(p);
        assert_eq!(w("quokka(?=flux)").as_deref(), Some("quokka"));
        assert_eq!(w("(?<!x)bar(?!baz)").as_deref(), Some("bar"));
        assert_eq!(w("(?<=a(b)c)d").as_deref(), Some("d"));
        assert_eq!(w("foo=\\K\\w+").as_deref(), Some("foo=\\w+"));
        assert_eq!(w("(ab)\\1").as_deref(), Some("(ab).*"));
        assert_eq!(w("(?<n>ab)\\k<n>x").as_deref(), Some("(?:ab).*x"));
        assert_eq!(w("(?P<n>ab)(?P=n)").as_deref(), Some("(?:ab).*"));
        assert_eq!(w("(?>a+)b").as_deref(), Some("(?:a+)b"));
        assert_eq!(w("a++b*+c?+d{2}+").as_deref(), Some("a+b*c?d{2}"));
        assert_eq!(w("(a)(?(1)b|c)").as_deref(), Some("(a).*"));
        assert_eq!(w("[(?=]x\\(?=y"), None, "in a class or escaped, not a group");
        assert_eq!(w("a\\+\\+"), None, "escaped pluses are literals");
        assert_eq!(w("plain|words"), None);
        assert_eq!(w("bad(?=x"), None, "not well formed");
    }
}
