//! `find -regex`, `-iregex` and `-regextype`: GNU's regular expression syntaxes, read
//! into `regex_lite`'s.
//!
//! The expression matches the whole path as printed (GNU's `re_match` must span it), so
//! it is anchored at both ends; which of several ways it matches makes no difference then.
//! The syntaxes GNU find offers differ in which characters are special and whether they
//! are written with a backslash:
//!
//! - `findutils-default` (the default) and `emacs`: `\(`, `\)` group, `\|` separates
//!   alternatives, `*`, `+` and `?` repeat; `(`, `)`, `|`, `{` and `}` are themselves, and
//!   there are no character classes (`[[:alpha:]]` means something else).
//! - `posix-basic`, `grep`, `ed` and `sed`: `\(`, `\)`, `\|`, `\{m,n\}`, and `\+`, `\?`;
//!   `posix-minimal-basic` without `\|`, `\+` and `\?`.
//! - `posix-extended`, `posix-egrep`, `egrep`, `posix-awk`, `gnu-awk`: `(`, `)`, `|`,
//!   `{m,n}`, `+`, `?`, and `^`/`$` are anchors wherever they stand; `awk` without
//!   intervals.
//!
//! Bracket expressions are read by [`crate::base::bracket`], as glibc reads them.
//!
//! What is not read exactly is refused (left to just-bash): back-references, a repetition
//! with nothing before it or after another, GNU's `\s`, the awk syntaxes' backslash
//! escapes outside brackets, equivalence classes and collating symbols, unbalanced groups
//! or braces, what glibc rejects. Character classes, `\w`,
//! `\b` and the other word operators, and `-iregex`, are ASCII here: a path beyond ASCII
//! is then left to just-bash, as is any path with a newline in it.

use crate::base::bracket::{self, Dialect, Item};
use crate::commands::Unsupported;
use std::fmt::Write;

/// A syntax, as `-regextype` names it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Syntax {
    /// Groups and alternatives written `\(`, `\)`, `\|` (else `(`, `)`, `|`).
    bk_groups: bool,
    /// Whether there are alternatives at all.
    alternatives: bool,
    /// `+` and `?`: not special (`None`), written as they are, or written `\+`, `\?`.
    plus_qm: Option<bool>,
    /// Intervals: none, `{m,n}`, or `\{m,n\}`.
    intervals: Option<bool>,
    /// `[[:alpha:]]` and the other classes.
    classes: bool,
    /// `^` and `$` are anchors anywhere (else only at the ends of a group or alternative).
    anywhere_anchors: bool,
    /// The awk syntaxes: a backslash quotes within brackets, and `\` before a letter
    /// means something of awk's.
    awk: bool,
}

const EMACS: Syntax = Syntax {
    bk_groups: true,
    alternatives: true,
    plus_qm: Some(false),
    intervals: None,
    classes: false,
    anywhere_anchors: false,
    awk: false,
};
const BASIC: Syntax = Syntax { plus_qm: Some(true), intervals: Some(true), classes: true, ..EMACS };
const EXTENDED: Syntax = Syntax {
    bk_groups: false,
    alternatives: true,
    plus_qm: Some(false),
    intervals: Some(false),
    classes: true,
    anywhere_anchors: true,
    awk: false,
};

impl Default for Syntax {
    fn default() -> Syntax {
        EMACS
    }
}

/// The names `-regextype` takes, in the order GNU find lists them.
const NAMES: &[&str] = &[
    "findutils-default",
    "ed",
    "emacs",
    "gnu-awk",
    "grep",
    "posix-awk",
    "awk",
    "posix-basic",
    "posix-egrep",
    "egrep",
    "posix-extended",
    "posix-minimal-basic",
    "sed",
];

/// `-regextype NAME`: the syntax, or GNU find's message for a name it does not know.
pub(super) fn syntax(name: &str) -> Result<Syntax, String> {
    Ok(match name {
        "findutils-default" | "emacs" => EMACS,
        "posix-basic" | "grep" | "ed" | "sed" => BASIC,
        "posix-minimal-basic" => Syntax { alternatives: false, plus_qm: None, ..BASIC },
        "posix-extended" | "posix-egrep" | "egrep" => EXTENDED,
        "gnu-awk" | "posix-awk" => Syntax { awk: true, ..EXTENDED },
        "awk" => Syntax { awk: true, intervals: None, ..EXTENDED },
        _ => {
            let valid: Vec<String> = NAMES.iter().map(|n| format!("‘{n}’")).collect();
            return Err(format!("Unknown regular expression type ‘{name}’; valid types are {}.", valid.join(", ")));
        }
    })
}

/// A compiled `-regex`: whether it needs the path to be ASCII to be exact.
#[derive(Debug)]
pub(crate) struct Regex {
    re: regex_lite::Regex,
    ascii_only: bool,
}

impl Regex {
    /// Whether it matches the whole of `path`; `None` when that cannot be told exactly.
    pub(super) fn matches(&self, path: &str) -> Option<bool> {
        if path.contains('\n') || (self.ascii_only && !path.is_ascii()) {
            return None;
        }
        Some(self.re.is_match(path))
    }
}

fn no(what: &str) -> Unsupported {
    Unsupported::new(format!("find -regex {what}: left to just-bash"))
}

/// A character as `regex_lite` reads it literally, in brackets or out.
fn literal(out: &mut String, c: char) {
    if c.is_ascii() && !c.is_ascii_alphanumeric() {
        write!(out, "\\x{{{:X}}}", c as u32).unwrap();
    } else {
        out.push(c);
    }
}

/// Reads `pattern` in `syntax` (case-insensitively for `-iregex`).
pub(super) fn compile(pattern: &str, syntax: Syntax, icase: bool) -> Result<Regex, Unsupported> {
    let mut r = Reader { chars: pattern.chars().collect(), at: 0, syntax, out: String::new(), ascii_only: icase };
    r.out.push_str(if icase { "(?si)^(?:" } else { "(?s)^(?:" });
    r.body()?;
    r.out.push_str(")$");
    let re = regex_lite::Regex::new(&r.out).map_err(|_| no("this expression"))?;
    Ok(Regex { re, ascii_only: r.ascii_only })
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    syntax: Syntax,
    out: String,
    ascii_only: bool,
}

/// A token of the pattern, after the syntax has said what its characters mean.
#[derive(PartialEq)]
enum Tok {
    Open,
    Close,
    Or,
    Repeat(char),
    Interval,
    Caret,
    Dollar,
    Bracket,
    Other,
}

impl Reader {
    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.at + k).copied()
    }

    /// What the token at `at` is, and how many characters it takes.
    fn token(&self) -> (Tok, usize) {
        let s = self.syntax;
        let c = self.chars[self.at];
        if c == '\\' {
            return match self.peek_at(1) {
                Some('(') if s.bk_groups => (Tok::Open, 2),
                Some(')') if s.bk_groups => (Tok::Close, 2),
                Some('|') if s.bk_groups && s.alternatives => (Tok::Or, 2),
                Some(q @ ('+' | '?')) if s.plus_qm == Some(true) => (Tok::Repeat(q), 2),
                Some('{') if s.intervals == Some(true) => (Tok::Interval, 2),
                _ => (Tok::Other, 2),
            };
        }
        match c {
            '(' if !s.bk_groups => (Tok::Open, 1),
            ')' if !s.bk_groups => (Tok::Close, 1),
            '|' if !s.bk_groups && s.alternatives => (Tok::Or, 1),
            '*' => (Tok::Repeat('*'), 1),
            '+' | '?' if s.plus_qm == Some(false) => (Tok::Repeat(c), 1),
            '{' if s.intervals == Some(false) => (Tok::Interval, 1),
            '^' => (Tok::Caret, 1),
            '$' => (Tok::Dollar, 1),
            '[' => (Tok::Bracket, 1),
            _ => (Tok::Other, 1),
        }
    }

    /// The whole pattern: groups balanced, each repetition after something to repeat.
    fn body(&mut self) -> Result<(), Unsupported> {
        let mut depth = 0usize;
        // At the start of the pattern, a group or an alternative (or after `^` there).
        let mut start = true;
        let mut after_repeat = false;
        while self.at < self.chars.len() {
            let (tok, len) = self.token();
            let was_start = std::mem::replace(&mut start, false);
            let was_repeat = std::mem::replace(&mut after_repeat, false);
            match tok {
                Tok::Open => {
                    depth += 1;
                    self.out.push_str("(?:");
                    start = true;
                }
                Tok::Close => {
                    depth = depth.checked_sub(1).ok_or_else(|| no("with an unmatched parenthesis"))?;
                    self.out.push(')');
                }
                Tok::Or => {
                    self.out.push('|');
                    start = true;
                }
                Tok::Repeat(_) | Tok::Interval if was_start || was_repeat => {
                    return Err(no("with a repetition of nothing or of a repetition"))
                }
                Tok::Repeat(op) => {
                    self.out.push(op);
                    after_repeat = true;
                }
                Tok::Interval => {
                    self.at += len;
                    self.interval()?;
                    after_repeat = true;
                    continue;
                }
                Tok::Caret if was_start || self.syntax.anywhere_anchors => {
                    self.out.push('^');
                    start = true;
                }
                Tok::Dollar if self.syntax.anywhere_anchors || self.ends_branch(len) => self.out.push('$'),
                Tok::Bracket => {
                    self.at += len;
                    self.bracket()?;
                    continue;
                }
                Tok::Caret | Tok::Dollar | Tok::Other => self.atom(len)?,
            }
            self.at += len;
        }
        if depth > 0 {
            return Err(no("with an unmatched parenthesis"));
        }
        Ok(())
    }

    /// Whether the pattern, a group or an alternative ends after `len` characters (where
    /// `$` is an anchor in the syntaxes whose anchors depend on where they stand).
    fn ends_branch(&self, len: usize) -> bool {
        if self.at + len >= self.chars.len() {
            return true;
        }
        let chars = self.chars[self.at + len..].to_vec();
        let ahead = Reader { chars, at: 0, syntax: self.syntax, out: String::new(), ascii_only: false };
        matches!(ahead.token().0, Tok::Close | Tok::Or)
    }

    /// A character, or a backslash and the character it escapes.
    fn atom(&mut self, len: usize) -> Result<(), Unsupported> {
        let c = self.chars[self.at];
        if len == 1 {
            match c {
                '.' => self.out.push('.'),
                _ => literal(&mut self.out, c),
            }
            return Ok(());
        }
        let Some(e) = self.peek_at(1) else { return Err(no("with a trailing backslash")) };
        if e.is_ascii_alphanumeric() {
            if self.syntax.awk {
                return Err(no("with an awk escape"));
            }
            let word = match e {
                'w' => "\\w",
                'W' => "\\W",
                'b' => "\\b",
                'B' => "\\B",
                _ => return Err(no("with a back-reference or a GNU operator")),
            };
            self.ascii_only = true;
            self.out.push_str(word);
            return Ok(());
        }
        match e {
            // Literal in awk and posix-awk, GNU's operators in gnu-awk.
            '<' | '>' | '`' | '\'' if self.syntax.awk => return Err(no("with an awk escape")),
            '<' | '>' => {
                self.ascii_only = true;
                self.out.push_str(if e == '<' { "\\b{start}" } else { "\\b{end}" });
            }
            '`' => self.out.push_str("\\A"),
            '\'' => self.out.push_str("\\z"),
            _ => literal(&mut self.out, e),
        }
        Ok(())
    }

    /// `{m}`, `{m,}`, `{,n}` or `{m,n}` (closed by `}` or `\}`), after the opening brace.
    fn interval(&mut self) -> Result<(), Unsupported> {
        let bad = || no("with an interval it cannot read");
        let mut text = String::new();
        loop {
            match self.peek_at(0) {
                Some(c @ ('0'..='9' | ',')) => text.push(c),
                Some('\\') if self.syntax.intervals == Some(true) && self.peek_at(1) == Some('}') => {
                    self.at += 2;
                    break;
                }
                Some('}') if self.syntax.intervals == Some(false) => {
                    self.at += 1;
                    break;
                }
                _ => return Err(bad()),
            }
            self.at += 1;
        }
        let num = |s: &str| if s.is_empty() { Ok(None) } else { s.parse::<u32>().map(Some).map_err(|_| bad()) };
        let (min, max) = match text.split_once(',') {
            Some((a, b)) => (num(a)?.unwrap_or(0), num(b)?),
            None => (num(&text)?.ok_or_else(bad)?, num(&text)?),
        };
        if max.is_some_and(|m| m < min) || min.max(max.unwrap_or(0)) > 255 {
            return Err(bad());
        }
        match (text.contains(','), max) {
            (false, _) => write!(self.out, "{{{min}}}"),
            (true, None) => write!(self.out, "{{{min},}}"),
            (true, Some(m)) => write!(self.out, "{{{min},{m}}}"),
        }
        .unwrap();
        Ok(())
    }

    /// A bracket expression, after its `[`, read by the one reader of them (glibc's rules,
    /// a backslash quoting in the awk syntaxes); classes only in the syntaxes that have
    /// them, and no equivalence classes or collating symbols.
    fn bracket(&mut self) -> Result<(), Unsupported> {
        let dialect = if self.syntax.awk { Dialect::Awk } else { Dialect::Posix };
        let b =
            bracket::read(&self.chars, self.at, dialect).map_err(|_| no("with a bracket expression it cannot read"))?;
        self.at = b.end;
        self.out.push_str(if b.negated { "[^" } else { "[" });
        for item in b.items {
            match item {
                Item::Char(c) => literal(&mut self.out, c),
                // A range to `[` is left out, as a `[` might start a class there.
                Item::Range(_, '[') => return Err(no("with a range it cannot read")),
                Item::Range(lo, hi) => {
                    literal(&mut self.out, lo);
                    self.out.push('-');
                    literal(&mut self.out, hi);
                }
                Item::Class(name) if self.syntax.classes => {
                    self.ascii_only = true;
                    write!(self.out, "[:{name}:]").unwrap();
                }
                _ => return Err(no("with a class or collating element")),
            }
        }
        self.out.push(']');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, kind: &str, path: &str) -> Option<bool> {
        compile(pattern, syntax(kind).unwrap(), false).unwrap().matches(path)
    }

    #[test]
    fn the_default_syntax_is_emacs() {
        assert_eq!(m(".*\\.md", "emacs", "./a.md"), Some(true));
        assert_eq!(m("a.md", "emacs", "./a.md"), Some(false), "the whole path");
        assert_eq!(m("\\./\\(a\\|b\\)+", "emacs", "./abba"), Some(true));
        assert_eq!(m("./a|b", "emacs", "./a|b"), Some(true), "| is itself");
        assert_eq!(m("./(a)", "emacs", "./(a)"), Some(true));
        assert_eq!(m("./a{2}", "emacs", "./a{2}"), Some(true));
        assert_eq!(m("./a^b$c$", "emacs", "./a^b$c"), Some(true), "anchors only at the ends");
        assert_eq!(m("\\(^\\./x\\)", "emacs", "./x"), Some(true));
        assert_eq!(m("./[]a]*", "emacs", "./a]a"), Some(true));
        assert_eq!(m("./[^a]", "emacs", "./é"), Some(true));
        assert!(compile("[[:alpha:]]", EMACS, false).is_err(), "no classes in emacs syntax");
        assert!(compile("\\(a\\)\\1", EMACS, false).is_err(), "back-references");
        assert!(compile("a**", EMACS, false).is_err());
    }

    #[test]
    fn posix_syntaxes() {
        assert_eq!(m("./a\\{2\\}", "posix-basic", "./aa"), Some(true));
        assert_eq!(m("./a+", "posix-basic", "./a+"), Some(true));
        assert_eq!(m("./a\\+", "sed", "./aaa"), Some(true));
        assert_eq!(m("./a\\|b", "posix-minimal-basic", "./a|b"), Some(true));
        assert_eq!(m(".*(json|md)", "posix-extended", "./x.md"), Some(true));
        assert_eq!(m("./a{2,}", "egrep", "./aaa"), Some(true));
        assert_eq!(m("./a{2}", "awk", "./a{2}"), Some(true));
        assert_eq!(m("./a^b", "posix-extended", "./a^b"), Some(false), "an anchor anywhere");
        assert_eq!(m("./[[:digit:]]+", "posix-extended", "./42"), Some(true));
        assert_eq!(m("./[[:alpha:]]", "posix-extended", "./é"), None, "classes are ASCII here");
        assert_eq!(m("./[\\]a]", "posix-awk", "./]"), Some(true), "awk's backslash quotes in brackets");
        assert!(compile("./[a-z-0]", EXTENDED, false).is_err(), "glibc's Invalid range end");
        assert!(compile("./ab{", EXTENDED, false).is_err());
        assert!(syntax("perl")
            .unwrap_err()
            .starts_with("Unknown regular expression type ‘perl’; valid types are ‘findutils-default’, ‘ed’,"));
    }

    #[test]
    fn iregex_folds_ascii() {
        let re = compile(".*GUIDES.*", EMACS, true).unwrap();
        assert_eq!(re.matches("./guides/a.md"), Some(true));
        assert_eq!(re.matches("./guides/é.md"), None);
    }
}
