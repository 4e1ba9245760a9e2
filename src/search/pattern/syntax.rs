//! The RE2 subset chromafs reasons about, parsed into a [`Node`].
//!
//! [`parse`] accepts a conservative subset of RE2 — anything else is [`Unsupported`],
//! with the reason — and a [`Node`] yields a Rust-regex translation for Chroma's `$regex`
//! ([`Node::to_rust_regex`]) whose matches, applied to a whole chunk in multi-line mode,
//! are a superset of the lines the tool would match: Perl classes become their ASCII sets
//! and every character beyond ASCII, and word boundaries (`\b`, `\b{start}`, …) are
//! dropped, which only widens. Characters are spelled for regex-lite by
//! [`super::lite`], as native grep's are. The literals a match requires are in
//! [`super::literals`].

use super::lite::{push_class_char, push_class_range, push_lit, SPACE};
use crate::base::bracket::{self, Dialect, Item};
use crate::commands::Unsupported;
use std::fmt::Write;

/// Every character beyond ASCII, as class members: what a Perl class (`\w`, `\d`, `\s`) may
/// also match for the tools whose classes know Unicode, kept in the widened regex.
const BEYOND_ASCII: &str = "\\x{80}-\\x{10FFFF}";

/// A parsed pattern (the supported RE2 subset).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Lit(char),
    /// A bracket or Perl class, already in Rust-regex syntax (`[0-9A-Za-z_]`).
    Class(String),
    Any,
    Start,
    End,
    /// Matches the empty string (also what `\b` and `\B` become).
    Empty,
    Cat(Vec<Node>),
    Alt(Vec<Node>),
    Group(Box<Node>),
    Rep(Box<Node>, u32, Option<u32>),
}

struct Parser {
    s: Vec<char>,
    i: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn alt(&mut self, depth: usize) -> Result<Node, Unsupported> {
        if depth > 64 {
            return Err(Unsupported::new("groups nested more than 64 deep"));
        }
        let mut alts = vec![self.cat(depth)?];
        while self.peek() == Some('|') {
            self.i += 1;
            alts.push(self.cat(depth)?);
        }
        Ok(if alts.len() == 1 { alts.pop().unwrap() } else { Node::Alt(alts) })
    }

    fn cat(&mut self, depth: usize) -> Result<Node, Unsupported> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom(depth)?;
            let atom = self.quantified(atom)?;
            items.push(atom);
        }
        Ok(Node::Cat(items))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i == start {
            return None;
        }
        self.s[start..self.i].iter().collect::<String>().parse().ok().filter(|&n| n <= 1000)
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor (which is on `{`), else `None` and no move.
    fn interval(&mut self) -> Option<(u32, Option<u32>)> {
        let save = self.i;
        self.i += 1;
        let r = (|| {
            let min = self.number()?;
            let max = if self.peek() == Some(',') {
                self.i += 1;
                if self.peek() == Some('}') {
                    None
                } else {
                    Some(self.number()?)
                }
            } else {
                Some(min)
            };
            (self.peek() == Some('}')).then(|| {
                self.i += 1;
                (min, max)
            })
        })();
        if r.is_none() {
            self.i = save;
        }
        r
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, Unsupported> {
        let (min, max) = match self.peek() {
            Some('*') => {
                self.i += 1;
                (0, None)
            }
            Some('+') => {
                self.i += 1;
                (1, None)
            }
            Some('?') => {
                self.i += 1;
                (0, Some(1))
            }
            Some('{') => match self.interval() {
                Some(m) => m,
                None => return Ok(atom),
            },
            _ => return Ok(atom),
        };
        if matches!(max, Some(m) if m < min) {
            return Err(Unsupported::new(format!("the repetition {{{min},{}}} is empty", max.unwrap_or(0))));
        }
        if matches!(atom, Node::Start | Node::End | Node::Empty) {
            return Err(Unsupported::new("a repeated anchor"));
        }
        if self.peek() == Some('?') {
            self.i += 1; // lazy: the same lines match
        }
        if matches!(self.peek(), Some('*' | '+' | '?')) || (self.peek() == Some('{') && self.interval().is_some()) {
            return Err(Unsupported::new("a repetition of a repetition (RE2 rejects it)"));
        }
        Ok(Node::Rep(Box::new(atom), min, max))
    }

    fn atom(&mut self, depth: usize) -> Result<Node, Unsupported> {
        let c = self.peek().ok_or_else(|| Unsupported::new("the pattern ends early"))?;
        self.i += 1;
        Ok(match c {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '*' | '+' | '?' => return Err(Unsupported::new(format!("'{c}' repeats nothing"))),
            '(' => {
                if self.peek() == Some('?') {
                    let rest: String = self.s[self.i..].iter().take(3).collect();
                    if rest.starts_with("?:") {
                        self.i += 2;
                    } else if rest.starts_with("?<") && !rest.starts_with("?<=") && !rest.starts_with("?<!") {
                        // A named group: skip the name.
                        let bad_name = || Unsupported::new("a malformed group name");
                        let close = self.s[self.i..].iter().position(|&c| c == '>').ok_or_else(bad_name)?;
                        let name = &self.s[self.i + 2..self.i + close];
                        if name.is_empty() || !name.iter().all(|c| c.is_ascii_alphanumeric() || *c == '_') {
                            return Err(bad_name());
                        }
                        self.i += close + 1;
                    } else if rest.starts_with("?=") || rest.starts_with("?!") || rest.starts_with("?<") {
                        return Err(Unsupported::new("look-around (RE2 rejects it)"));
                    } else {
                        return Err(Unsupported::new("inline flags or other (?…) groups"));
                    }
                }
                let inner = self.alt(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(Unsupported::new("an unclosed group"));
                }
                self.i += 1;
                Node::Group(Box::new(inner))
            }
            '[' => self.bracket()?,
            '\\' => {
                let e = self.peek().ok_or_else(|| Unsupported::new("a trailing backslash"))?;
                self.i += 1;
                match e {
                    'd' => Node::Class(format!("[0-9{BEYOND_ASCII}]")),
                    'D' => Node::Class("[^0-9]".into()),
                    'w' => Node::Class(format!("[0-9A-Za-z_{BEYOND_ASCII}]")),
                    'W' => Node::Class("[^0-9A-Za-z_]".into()),
                    's' => Node::Class(format!("[{SPACE}{BEYOND_ASCII}]")),
                    'S' => Node::Class(format!("[^{SPACE}]")),
                    'b' => {
                        // `\b{start}`, `\b{end}`, `\b{start-half}`, `\b{end-half}`.
                        for kind in ["{start}", "{end}", "{start-half}", "{end-half}"] {
                            if self.s[self.i..].iter().take(kind.len()).copied().eq(kind.chars()) {
                                self.i += kind.len();
                                break;
                            }
                        }
                        Node::Empty
                    }
                    'B' => Node::Empty,
                    'A' => Node::Start,
                    'z' => Node::End,
                    't' => Node::Lit('\t'),
                    'n' => Node::Lit('\n'),
                    'r' => Node::Lit('\r'),
                    'f' => Node::Lit('\u{c}'),
                    'v' => Node::Lit('\u{b}'),
                    c if c.is_ascii_punctuation() => Node::Lit(c),
                    c => return Err(Unsupported::new(format!("the escape \\{c}"))),
                }
            }
            '{' => Node::Lit('{'), // not an interval: RE2 reads it literally
            c => Node::Lit(c),
        })
    }

    /// A bracket expression, read by the one reader of them, as a Rust class. A Perl class
    /// in it holds every character beyond ASCII too (only the ASCII ones in a negated
    /// expression), which only widens.
    fn bracket(&mut self) -> Result<Node, Unsupported> {
        let b = bracket::read(&self.s, self.i, Dialect::Re2)
            .map_err(|e| Unsupported::new(format!("a bracket expression: {e}")))?;
        self.i = b.end;
        let beyond = if b.negated { "" } else { BEYOND_ASCII };
        let mut out = String::from(if b.negated { "[^" } else { "[" });
        for item in b.items {
            match item {
                Item::Char(c) => push_class_char(&mut out, c),
                Item::Range(lo, hi) => push_class_range(&mut out, lo, hi),
                Item::Perl('d') => write!(out, "0-9{beyond}").unwrap(),
                Item::Perl('w') => write!(out, "0-9A-Za-z_{beyond}").unwrap(),
                Item::Perl('s') => write!(out, "{SPACE}{beyond}").unwrap(),
                Item::Class(name) if name != "word" => write!(out, "[:{name}:]").unwrap(),
                _ => return Err(Unsupported::new("a class in a bracket expression")),
            }
        }
        out.push(']');
        Ok(Node::Class(out))
    }
}

/// Parses RE2 text in the supported subset.
pub(crate) fn parse(re2: &str) -> Result<Node, Unsupported> {
    let mut p = Parser { s: re2.chars().collect(), i: 0 };
    let node = p.alt(0)?;
    if p.i != p.s.len() {
        return Err(Unsupported::new("an unbalanced ')'"));
    }
    Ok(node)
}

impl Node {
    /// A Rust regex matching (at least) what this pattern matches within one line.
    pub(crate) fn to_rust_regex(&self, out: &mut String) {
        match self {
            Node::Lit(c) => push_lit(out, *c),
            Node::Class(c) => out.push_str(c),
            Node::Any => out.push('.'),
            // GNU grep ends a line at a NUL too, in a binary file.
            Node::Start => out.push_str("(?:^|\\x00)"),
            Node::End => out.push_str("(?:$|\\x00)"),
            Node::Empty => {}
            Node::Cat(items) => items.iter().for_each(|n| n.to_rust_regex(out)),
            Node::Group(n) => {
                out.push_str("(?:");
                n.to_rust_regex(out);
                out.push(')');
            }
            Node::Alt(v) => {
                out.push_str("(?:");
                for (i, n) in v.iter().enumerate() {
                    if i > 0 {
                        out.push('|');
                    }
                    n.to_rust_regex(out);
                }
                out.push(')');
            }
            Node::Rep(n, min, max) => {
                out.push_str("(?:");
                n.to_rust_regex(out);
                out.push(')');
                match (min, max) {
                    (0, None) => out.push('*'),
                    (1, None) => out.push('+'),
                    (0, Some(1)) => out.push('?'),
                    (m, None) => write!(out, "{{{m},}}").unwrap(),
                    (m, Some(x)) if m == x => write!(out, "{{{m}}}").unwrap(),
                    (m, Some(x)) => write!(out, "{{{m},{x}}}").unwrap(),
                }
            }
        }
    }
}

/// Escapes a literal for a Rust regex.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        Node::Lit(c).to_rust_regex(&mut out);
    }
    out
}

/// A regex matching text that ends with a non-empty proper prefix of `lit`: where a
/// literal cut by a chunk boundary begins (`abc` → `a(?:b)?\z`).
pub(crate) fn cut_prefix_regex(lit: &str) -> Option<String> {
    let chars: Vec<char> = lit.chars().collect();
    if chars.len() < 2 {
        return None;
    }
    let mut out = escape(&chars[0].to_string());
    let mut closing = String::new();
    for c in &chars[1..chars.len() - 1] {
        out.push_str("(?:");
        out.push_str(&escape(&c.to_string()));
        closing.push_str(")?");
    }
    // Close innermost first: `a(?:b(?:c)?)?`.
    out.push_str(&closing);
    out.push_str("\\z");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::rewrite::{to_re2, Dialect};

    fn re2(p: &str, d: Dialect) -> String {
        to_re2(p, d).unwrap().unwrap()
    }

    fn rust(p: &str, d: Dialect) -> String {
        let mut out = String::new();
        parse(&re2(p, d)).unwrap().to_rust_regex(&mut out);
        out
    }

    #[test]
    fn translations() {
        assert_eq!(rust("foo", Dialect::Basic), "foo");
        assert_eq!(rust("a.b", Dialect::Basic), "a.b");
        assert_eq!(rust("a\\.b", Dialect::Basic), "a\\.b");
        assert_eq!(rust("v[0-9]+\\.[0-9]+", Dialect::Extended), "v(?:[0-9])+\\.(?:[0-9])+");
        assert_eq!(rust("colou?r|gr(a|e)y", Dialect::Extended), "(?:colo(?:u)?r|gr(?:(?:a|e))y)");
        assert_eq!(rust("\\bword\\b", Dialect::Perl), "word");
        assert_eq!(
            rust("\\w+\\s\\d", Dialect::Perl),
            "(?:[0-9A-Za-z_\\x{80}-\\x{10FFFF}])+[\\t\\n\\x0B\\x0C\\r \\x{80}-\\x{10FFFF}][0-9\\x{80}-\\x{10FFFF}]",
            "Perl classes widened beyond ASCII"
        );
        assert_eq!(rust("[^a-z-]", Dialect::Extended), "[^a-z\\-]");
        assert_eq!(rust("[\\d]x[^\\d]", Dialect::Perl), "[0-9\\x{80}-\\x{10FFFF}]x[^0-9]", "a negation only widens");
        assert_eq!(rust("[[:alpha:]_]", Dialect::Perl), "[a-zA-Z_]");
        assert_eq!(rust("a{2}b{1,}c{0,3}", Dialect::Extended), "(?:a){2}(?:b)+(?:c){0,3}");
        assert_eq!(rust("x{y", Dialect::Extended), "x\\{y");
        assert_eq!(rust("^$", Dialect::Basic), "(?:^|\\x00)(?:$|\\x00)", "a NUL ends a line of a binary file");
        assert_eq!(rust("a|b+c", Dialect::Basic), "a\\|b\\+c");
    }

    #[test]
    fn unsupported_constructs_are_refused() {
        for p in ["(?=x)", "(?i)x", "\\1", "\\pL", "a**", "(", "a)", "[abc", "*", "\\Qx\\E", "a{3,2}", "[[:nope:]"] {
            let r = to_re2(p, Dialect::Perl).and_then(|r| parse(&r.unwrap()));
            assert!(r.is_err(), "{p} should be unsupported");
        }
    }

    #[test]
    fn cut_prefixes() {
        assert_eq!(cut_prefix_regex("abc").unwrap(), "a(?:b)?\\z");
        assert_eq!(cut_prefix_regex("a.cd").unwrap(), "a(?:\\.(?:c)?)?\\z");
        assert_eq!(cut_prefix_regex("x"), None);
        let re = regex_lite::Regex::new(&cut_prefix_regex("abcd").unwrap()).unwrap();
        for (text, hit) in [("..a", true), ("..ab", true), ("..abc", true), ("..abcd", false), ("..b", false)] {
            assert_eq!(re.is_match(text), hit, "{text}");
        }
    }

    #[test]
    fn translations_compile_with_regex_lite() {
        for p in [
            "v[0-9]+\\.[0-9]+",
            "colou?r|gr(a|e)y",
            "[^a-z-]",
            "[[:alpha:]_]x",
            "a{2}b{1,}",
            "\\w+\\s\\d",
            "[\\]\\\\]",
            "a&b~c-d#",
        ] {
            let mut out = String::from("(?m)");
            parse(&re2(p, Dialect::Perl)).unwrap().to_rust_regex(&mut out);
            assert!(regex_lite::Regex::new(&out).is_ok(), "{p} → {out}");
        }
    }
}
