//! grep patterns, as just-bash reads them, turned into Chroma filters.
//!
//! just-bash compiles every pattern with RE2 (re2js) after rewriting BRE and POSIX
//! bracket classes into RE2 syntax. [`to_re2`] repeats that rewriting, so the text
//! parsed here is exactly what just-bash matches with. [`parse`] accepts a
//! conservative subset of RE2 — anything else is [`Unsupported`] and gets no coarse
//! filter at all — and the resulting [`Node`] yields two things:
//!
//! - a Rust-regex translation for Chroma's `$regex` ([`Node::to_rust_regex`]) whose
//!   matches, applied to a whole chunk in multi-line mode, are a superset of the lines
//!   RE2 would match (Perl classes become their ASCII sets; `\b` is dropped, which only
//!   widens);
//! - the literals any matching line must contain ([`Node::required`]), for patterns too
//!   long for a filter and for collections whose chunks are not cut on line boundaries.
//!
//! Both must only ever widen: a page the coarse filter drops must be a page grep would
//! print nothing for.

use std::fmt::Write;

/// The pattern language chosen by grep's flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Basic,
    Extended,
    Perl,
    Fixed,
}

/// A pattern outside the subset this module can reason about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported;

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

/// just-bash's rewriting of POSIX classes inside brackets (`[[:alpha:]]` → `[a-zA-Z]`).
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
            out.push('[');
            i += 1;
            if i < p.len() && (p[i] == '^' || p[i] == '!') {
                out.push('^');
                i += 1;
            }
            if i < p.len() && p[i] == ']' {
                out.extend(['\\', ']']);
                i += 1;
            }
            while i < p.len() && p[i] != ']' {
                if p[i] == '[' && i + 1 < p.len() && p[i + 1] == ':' {
                    let close = (i + 2..p.len().saturating_sub(1)).find(|&j| p[j] == ':' && p[j + 1] == ']');
                    if let Some(c) = close {
                        let name: String = p[i + 2..c].iter().collect();
                        if let Some((_, rep)) = POSIX.iter().find(|(n, _)| *n == name) {
                            out.extend(rep.chars());
                            i = c + 2;
                            continue;
                        }
                    }
                }
                if p[i] == '\\' && i + 1 < p.len() {
                    out.extend([p[i], p[i + 1]]);
                    i += 2;
                    continue;
                }
                out.push(p[i]);
                i += 1;
            }
            if i < p.len() {
                out.push(']');
                i += 1;
            }
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

/// just-bash's BRE → RE2 rewriting (`\(` groups, `\|` alternation, `\{n,m\}`, and `+ ? | ( ) { }` literal).
fn basic_to_re2(s: &[char]) -> String {
    let mut r = String::new();
    let mut i = 0;
    let mut at_start = true;
    while i < s.len() {
        let c = s[i];
        if c == '[' {
            r.push(c);
            i += 1;
            if i < s.len() && (s[i] == '^' || s[i] == '!') {
                r.push(s[i]);
                i += 1;
            }
            if i < s.len() && s[i] == ']' {
                r.push(s[i]);
                i += 1;
            }
            while i < s.len() && s[i] != ']' {
                if s[i] == '\\' && i + 1 < s.len() {
                    r.push(s[i]);
                    r.push(s[i + 1]);
                    i += 2;
                } else {
                    r.push(s[i]);
                    i += 1;
                }
            }
            if i < s.len() {
                r.push(']');
                i += 1;
            }
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
pub fn to_re2(pattern: &str, dialect: Dialect) -> Result<Option<String>, Unsupported> {
    let chars: Vec<char> = pattern.chars().collect();
    match dialect {
        Dialect::Fixed => Ok(None),
        Dialect::Basic => Ok(Some(basic_to_re2(&posix_classes(&chars)))),
        Dialect::Extended | Dialect::Perl => {
            if dialect == Dialect::Perl && (pattern.contains("\\Q") || pattern.contains("\\x") || pattern.contains("\\K")) {
                return Err(Unsupported);
            }
            let s: String = posix_classes(&chars).into_iter().collect();
            Ok(Some(s.replace("(?P<", "(?<")))
        }
    }
}

/// A parsed pattern (the supported RE2 subset).
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
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

const META: &str = "\\.+*?()|[]{}^$";

fn push_lit(out: &mut String, c: char) {
    if META.contains(c) {
        out.push('\\');
    }
    out.push(c);
}

fn push_class_char(out: &mut String, c: char) {
    match c {
        '\\' | '[' | ']' | '^' | '-' | '&' | '~' => {
            out.push('\\');
            out.push(c);
        }
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        _ => out.push(c),
    }
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
            return Err(Unsupported);
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
        if matches!(max, Some(m) if m < min) || matches!(atom, Node::Start | Node::End | Node::Empty) {
            return Err(Unsupported);
        }
        if self.peek() == Some('?') {
            self.i += 1; // lazy: the same lines match
        }
        if matches!(self.peek(), Some('*' | '+' | '?')) || (self.peek() == Some('{') && self.interval().is_some()) {
            return Err(Unsupported); // RE2 rejects a repeated repetition
        }
        Ok(Node::Rep(Box::new(atom), min, max))
    }

    fn atom(&mut self, depth: usize) -> Result<Node, Unsupported> {
        let c = self.peek().ok_or(Unsupported)?;
        self.i += 1;
        Ok(match c {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '*' | '+' | '?' => return Err(Unsupported),
            '(' => {
                if self.peek() == Some('?') {
                    let rest: String = self.s[self.i..].iter().take(3).collect();
                    if rest.starts_with("?:") {
                        self.i += 2;
                    } else if rest.starts_with("?<") && !rest.starts_with("?<=") && !rest.starts_with("?<!") {
                        // A named group: skip the name.
                        let close = self.s[self.i..].iter().position(|&c| c == '>').ok_or(Unsupported)?;
                        let name = &self.s[self.i + 2..self.i + close];
                        if name.is_empty() || !name.iter().all(|c| c.is_ascii_alphanumeric() || *c == '_') {
                            return Err(Unsupported);
                        }
                        self.i += close + 1;
                    } else {
                        return Err(Unsupported);
                    }
                }
                let inner = self.alt(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(Unsupported);
                }
                self.i += 1;
                Node::Group(Box::new(inner))
            }
            '[' => self.bracket()?,
            '\\' => {
                let e = self.peek().ok_or(Unsupported)?;
                self.i += 1;
                match e {
                    'd' => Node::Class("[0-9]".into()),
                    'D' => Node::Class("[^0-9]".into()),
                    'w' => Node::Class("[0-9A-Za-z_]".into()),
                    'W' => Node::Class("[^0-9A-Za-z_]".into()),
                    's' => Node::Class("[\\t\\n\\f\\r ]".into()),
                    'S' => Node::Class("[^\\t\\n\\f\\r ]".into()),
                    'b' | 'B' => Node::Empty,
                    'A' => Node::Start,
                    'z' => Node::End,
                    't' => Node::Lit('\t'),
                    'n' => Node::Lit('\n'),
                    'r' => Node::Lit('\r'),
                    'f' => Node::Lit('\u{c}'),
                    'v' => Node::Lit('\u{b}'),
                    c if c.is_ascii_punctuation() => Node::Lit(c),
                    _ => return Err(Unsupported),
                }
            }
            '{' => Node::Lit('{'), // not an interval: RE2 reads it literally
            c => Node::Lit(c),
        })
    }

    /// A bracket expression, rewritten as a Rust class.
    fn bracket(&mut self) -> Result<Node, Unsupported> {
        let mut out = String::from("[");
        if self.peek() == Some('^') {
            out.push('^');
            self.i += 1;
        }
        let mut first = true;
        loop {
            let c = self.peek().ok_or(Unsupported)?;
            self.i += 1;
            match c {
                ']' if !first => break,
                '[' if self.peek() == Some(':') => {
                    let close = (self.i + 1..self.s.len().saturating_sub(1)).find(|&j| self.s[j] == ':' && self.s[j + 1] == ']').ok_or(Unsupported)?;
                    let name: String = self.s[self.i + 1..close].iter().collect();
                    if !POSIX.iter().any(|(n, _)| *n == name) || name == "word" {
                        return Err(Unsupported);
                    }
                    write!(out, "[:{name}:]").unwrap();
                    self.i = close + 2;
                }
                '\\' => {
                    let e = self.peek().ok_or(Unsupported)?;
                    self.i += 1;
                    match e {
                        'd' => out.push_str("0-9"),
                        'w' => out.push_str("0-9A-Za-z_"),
                        's' => out.push_str("\\t\\n\\f\\r "),
                        't' => out.push_str("\\t"),
                        'n' => out.push_str("\\n"),
                        'r' => out.push_str("\\r"),
                        'f' => out.push_str("\\x0C"),
                        'v' => out.push_str("\\x0B"),
                        'x' => {
                            let hex: String = self.s.get(self.i..self.i + 2).ok_or(Unsupported)?.iter().collect();
                            if !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                                return Err(Unsupported);
                            }
                            self.i += 2;
                            write!(out, "\\x{hex}").unwrap();
                        }
                        c if c.is_ascii_punctuation() => push_class_char(&mut out, c),
                        _ => return Err(Unsupported),
                    }
                }
                '-' => {
                    // A range dash between two members, or a literal dash at either end.
                    let at_end = self.peek() == Some(']');
                    if first || at_end {
                        out.push_str("\\-");
                    } else {
                        out.push('-');
                    }
                }
                c => push_class_char(&mut out, c),
            }
            first = false;
        }
        out.push(']');
        Ok(Node::Class(out))
    }
}

/// Parses RE2 text in the supported subset.
pub fn parse(re2: &str) -> Result<Node, Unsupported> {
    let mut p = Parser { s: re2.chars().collect(), i: 0 };
    let node = p.alt(0)?;
    if p.i != p.s.len() {
        return Err(Unsupported); // an unbalanced `)`
    }
    Ok(node)
}

/// What a matching line must contain: a formula over literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Req {
    /// No constraint: anything may match.
    Any,
    Lit(String),
    All(Vec<Req>),
    OneOf(Vec<Req>),
}

impl Req {
    fn all(parts: Vec<Req>) -> Req {
        let mut flat = Vec::new();
        for p in parts {
            match p {
                Req::Any => {}
                Req::All(v) => flat.extend(v),
                p => flat.push(p),
            }
        }
        match flat.len() {
            0 => Req::Any,
            1 => flat.pop().unwrap(),
            _ => Req::All(flat),
        }
    }

    fn one_of(parts: Vec<Req>) -> Req {
        if parts.contains(&Req::Any) || parts.is_empty() {
            return Req::Any;
        }
        let mut flat = Vec::new();
        for p in parts {
            match p {
                Req::OneOf(v) => flat.extend(v),
                p => flat.push(p),
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap()
        } else {
            Req::OneOf(flat)
        }
    }

    /// The same requirement with at most one literal per conjunction (the longest):
    /// sound when the parts of a line may sit in different chunks.
    pub fn single_literals(&self) -> Req {
        match self {
            Req::All(parts) => {
                let simplified: Vec<Req> = parts.iter().map(Req::single_literals).collect();
                simplified.into_iter().max_by_key(Req::weight).unwrap_or(Req::Any)
            }
            Req::OneOf(parts) => Req::one_of(parts.iter().map(Req::single_literals).collect()),
            r => r.clone(),
        }
    }

    /// How selective a requirement is, roughly: the length of its shortest literal.
    fn weight(&self) -> usize {
        match self {
            Req::Any => 0,
            Req::Lit(s) => s.chars().count(),
            Req::All(v) => v.iter().map(Req::weight).max().unwrap_or(0),
            Req::OneOf(v) => v.iter().map(Req::weight).min().unwrap_or(0),
        }
    }

    /// Whether `line` satisfies the requirement (case-sensitive).
    pub fn holds(&self, line: &str) -> bool {
        match self {
            Req::Any => true,
            Req::Lit(s) => line.contains(s.as_str()),
            Req::All(v) => v.iter().all(|r| r.holds(line)),
            Req::OneOf(v) => v.iter().any(|r| r.holds(line)),
        }
    }
}

impl Node {
    /// The literals a match must contain.
    pub fn required(&self) -> Req {
        match self {
            Node::Lit(c) => Req::Lit(c.to_string()),
            Node::Class(_) | Node::Any | Node::Start | Node::End | Node::Empty => Req::Any,
            Node::Group(n) => n.required(),
            Node::Alt(v) => Req::one_of(v.iter().map(Node::required).collect()),
            Node::Rep(n, min, _) => {
                if *min == 0 {
                    Req::Any
                } else {
                    n.required()
                }
            }
            Node::Cat(items) => {
                let mut parts = Vec::new();
                let mut run = String::new();
                for item in items {
                    match item {
                        Node::Lit(c) => run.push(*c),
                        // Zero-width items do not break a literal run.
                        Node::Start | Node::End | Node::Empty => {}
                        other => {
                            if !run.is_empty() {
                                parts.push(Req::Lit(std::mem::take(&mut run)));
                            }
                            parts.push(other.required());
                        }
                    }
                }
                if !run.is_empty() {
                    parts.push(Req::Lit(run));
                }
                Req::all(parts)
            }
        }
    }

    /// A Rust regex matching (at least) what this pattern matches within one line.
    pub fn to_rust_regex(&self, out: &mut String) {
        match self {
            Node::Lit(c) => match c {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\u{b}' => out.push_str("\\x0B"),
                '\u{c}' => out.push_str("\\x0C"),
                c => push_lit(out, *c),
            },
            Node::Class(c) => out.push_str(c),
            Node::Any => out.push('.'),
            Node::Start => out.push('^'),
            Node::End => out.push('$'),
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
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        Node::Lit(c).to_rust_regex(&mut out);
    }
    out
}

/// A regex matching text that ends with a non-empty proper prefix of `lit`: where a
/// literal cut by a chunk boundary begins (`abc` → `a(?:b)?\z`).
pub fn cut_prefix_regex(lit: &str) -> Option<String> {
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

    fn re2(p: &str, d: Dialect) -> String {
        to_re2(p, d).unwrap().unwrap()
    }

    fn rust(p: &str, d: Dialect) -> String {
        let mut out = String::new();
        parse(&re2(p, d)).unwrap().to_rust_regex(&mut out);
        out
    }

    fn req(p: &str, d: Dialect) -> Req {
        parse(&re2(p, d)).unwrap().required()
    }

    fn lit(s: &str) -> Req {
        Req::Lit(s.into())
    }

    #[test]
    fn basic_regexes_are_rewritten_like_just_bash() {
        assert_eq!(re2("a+b?(c)|{d}", Dialect::Basic), "a\\+b\\?\\(c\\)\\|\\{d\\}");
        assert_eq!(re2("\\(ab\\)\\|cd", Dialect::Basic), "(ab)|cd");
        assert_eq!(re2("a\\{2,3\\}", Dialect::Basic), "a{2,3}");
        assert_eq!(re2("a\\{,3\\}", Dialect::Basic), "a\\{,3\\}");
        assert_eq!(re2("*a*", Dialect::Basic), "\\*a*");
        assert_eq!(re2("^a^b$c$", Dialect::Basic), "^a\\^b\\$c$");
        assert_eq!(re2("[[:digit:]]x", Dialect::Basic), "[0-9]x");
        assert_eq!(re2("[]a]", Dialect::Basic), "[\\]a]");
        assert_eq!(re2("(?P<n>x)", Dialect::Extended), "(?<n>x)");
    }

    #[test]
    fn translations() {
        assert_eq!(rust("foo", Dialect::Basic), "foo");
        assert_eq!(rust("a.b", Dialect::Basic), "a.b");
        assert_eq!(rust("a\\.b", Dialect::Basic), "a\\.b");
        assert_eq!(rust("v[0-9]+\\.[0-9]+", Dialect::Extended), "v(?:[0-9])+\\.(?:[0-9])+");
        assert_eq!(rust("colou?r|gr(a|e)y", Dialect::Extended), "(?:colo(?:u)?r|gr(?:(?:a|e))y)");
        assert_eq!(rust("\\bword\\b", Dialect::Perl), "word");
        assert_eq!(rust("\\w+\\s\\d", Dialect::Perl), "(?:[0-9A-Za-z_])+[\\t\\n\\f\\r ][0-9]");
        assert_eq!(rust("[^a-z-]", Dialect::Extended), "[^a-z\\-]");
        assert_eq!(rust("[[:alpha:]_]", Dialect::Extended), "[a-zA-Z_]");
        assert_eq!(rust("a{2}b{1,}c{0,3}", Dialect::Extended), "(?:a){2}(?:b)+(?:c){0,3}");
        assert_eq!(rust("x{y", Dialect::Extended), "x\\{y");
        assert_eq!(rust("^$", Dialect::Basic), "^$");
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
    fn required_literals() {
        assert_eq!(req("access_token", Dialect::Basic), lit("access_token"));
        assert_eq!(req("foo.*bar", Dialect::Basic), Req::All(vec![lit("foo"), lit("bar")]));
        assert_eq!(req("foo|bar", Dialect::Extended), Req::OneOf(vec![lit("foo"), lit("bar")]));
        assert_eq!(req("colou?r", Dialect::Extended), Req::All(vec![lit("colo"), lit("r")]));
        assert_eq!(req("ab+c", Dialect::Extended), Req::All(vec![lit("a"), lit("b"), lit("c")]));
        assert_eq!(req("x*", Dialect::Extended), Req::Any);
        assert_eq!(req("(foo|)bar", Dialect::Extended), lit("bar"));
        assert_eq!(req("^# Title$", Dialect::Basic), lit("# Title"));
        assert_eq!(req("\\bapi\\b", Dialect::Perl), lit("api"));
        let r = req("foo.*barbaz|qu+x", Dialect::Extended);
        assert_eq!(r.single_literals(), Req::OneOf(vec![lit("barbaz"), lit("x")]));
    }

    #[test]
    fn requirements_hold_on_lines() {
        let r = req("foo.*bar", Dialect::Basic);
        assert!(r.holds("a foo and a bar"));
        assert!(!r.holds("a foo"));
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
        for p in ["v[0-9]+\\.[0-9]+", "colou?r|gr(a|e)y", "[^a-z-]", "[[:alpha:]_]x", "a{2}b{1,}", "\\w+\\s\\d", "[\\]\\\\]", "a&b~c-d#"] {
            let mut out = String::from("(?m)");
            parse(&re2(p, Dialect::Perl)).unwrap().to_rust_regex(&mut out);
            assert!(regex_lite::Regex::new(&out).is_ok(), "{p} → {out}");
        }
    }
}
