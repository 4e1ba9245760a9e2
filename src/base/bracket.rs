//! Bracket expressions: `[a-z]`, `[^…]`, `[!…]` in a glob, `[[:alpha:]]`, `[[=a=]]`,
//! `[[.-.]]`. The one reader of them, for every regular expression and glob chromafs reads.
//!
//! [`read`] takes the text after a `[` and gives a [`Bracket`]: whether it is negated, its
//! [`Item`]s (characters, ranges, named classes, equivalence classes, collating symbols,
//! Perl's class escapes) and where it ends. Each caller spells that as it needs: a class
//! for regex-lite, the ranges a glob matches, the members of a Rust regex. What differs
//! between the tools is the [`Dialect`]; what a dialect rejects is an [`Error`], whose
//! [`message`](Error::message) is glibc's where glibc rejects it too.
//!
//! In every dialect a `]` right after the `[` (and the negation) is a member, and `a-z` is
//! every character from `a` to `z` by code point, as in the `C.UTF-8` locale.

use super::ctype::CLASS_NAMES;

/// How a tool writes bracket expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// POSIX regular expressions as glibc's `regcomp` reads them (GNU grep, sed, find's
    /// `-regextype`s): `^` negates; a backslash is a member; `[:name:]`, `[=c=]` and
    /// `[.c.]` name a class, a character and a collating symbol; a range out of order, a
    /// range from or to a class, and a `-` that starts a member anywhere but first or
    /// last (`[a-c-e]`) are errors.
    Posix,
    /// [`Dialect::Posix`], where a backslash makes the next character a member (gawk's
    /// `RE_BACKSLASH_ESCAPE_IN_LISTS`, find's awk syntaxes): `[\]]` is `]`.
    Awk,
    /// A glob, as `fnmatch` reads one: `!` negates as `^` does, a backslash makes the next
    /// character a member, a range out of order matches nothing and a `-` after a range is
    /// a member. An expression without its `]` is an error here; the glob reads its `[` as
    /// itself.
    Glob,
    /// The RE2 text the pattern code reads, as Rust's regex crate (ripgrep) and PCRE
    /// (`grep -P`) both read it: `^` negates; a backslash starts Perl's escapes (`\d`,
    /// `\w`, `\s` and their complements, `\t`, `\n`, `\r`, `\f`, `\v`, `\xHH`, any
    /// punctuation as itself); `[:name:]` names a class (also `ascii` and `word`); a range
    /// out of order is an error. What the two engines read differently is an
    /// [`Error::Unsupported`]: a `[` that opens no class (a nested class to Rust), `&&`,
    /// `~~` and `--` (set operations to Rust), a range from a Perl class.
    Re2,
}

impl Dialect {
    /// A backslash makes the next character a member.
    fn quotes(self) -> bool {
        matches!(self, Dialect::Awk | Dialect::Glob)
    }

    /// glibc's `regcomp` rules for ranges and for a `-` where no range can start.
    fn regcomp(self) -> bool {
        matches!(self, Dialect::Posix | Dialect::Awk)
    }

    fn names(self) -> &'static [&'static str] {
        const RE2_NAMES: [&str; 14] = [
            "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper",
            "xdigit", "ascii", "word",
        ];
        match self {
            Dialect::Re2 => &RE2_NAMES,
            _ => &CLASS_NAMES,
        }
    }
}

/// A bracket expression as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bracket {
    /// `[^…]` (or `[!…]` in a glob): the characters not listed.
    pub negated: bool,
    pub items: Vec<Item>,
    /// Where reading goes on: just after the closing `]`.
    pub end: usize,
}

/// One member of a bracket expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item {
    Char(char),
    /// Every character from the first to the second, both included (none when the first
    /// sorts after the second, in a glob).
    Range(char, char),
    /// `[:name:]`, one of the dialect's class names.
    Class(&'static str),
    /// `[=c=]`: the characters that sort as `c` (in `C.UTF-8`, `c` alone).
    Equivalence(char),
    /// `[.c.]`: the collating symbol `c`, one character.
    Collating(char),
    /// Perl's `\d`, `\w`, `\s`, `\D`, `\W` or `\S` ([`Dialect::Re2`]), by its letter.
    Perl(char),
}

/// Why a dialect rejects a bracket expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Error {
    /// Nothing follows the `[` (or its negation).
    Empty,
    /// No `]` closes it, or a `[:`, `[=` or `[.` has no end (or a name of 32 bytes or more).
    Unmatched,
    /// `[:name:]` with a name the dialect does not know.
    UnknownClass,
    /// `[=…=]` or `[.….]` that is not one single-byte character.
    Collation,
    /// A range out of order, from or to a class, or a `-` where no member may start.
    Range,
    /// A form [`Dialect::Re2`] leaves out, and why.
    Unsupported(&'static str),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Unsupported(what) => f.write_str(what),
            e => f.write_str(e.message().unwrap_or_default()),
        }
    }
}

impl Error {
    /// glibc's message for it (GNU grep's, sed's and gawk's), if glibc rejects it too.
    pub(crate) fn message(self) -> Option<&'static str> {
        Some(match self {
            Error::Empty => "Invalid regular expression",
            Error::Unmatched => "Unmatched [, [^, [:, [., or [=",
            Error::UnknownClass => "Invalid character class name",
            Error::Collation => "Invalid collation character",
            Error::Range => "Invalid range end",
            Error::Unsupported(_) => return None,
        })
    }
}

/// Reads the bracket expression whose `[` is just before `p[at]`.
pub(crate) fn read(p: &[char], at: usize, dialect: Dialect) -> Result<Bracket, Error> {
    Reader { p, i: at, dialect, lenient: false }.bracket()
}

/// Where the bracket expression whose `[` is just before `p[at]` ends (after its `]`),
/// whatever its members mean: `None` when no `]` closes it. sed finds the end of an
/// address or `s` regex so, the delimiter being a member inside brackets.
pub(crate) fn end(p: &[char], at: usize, dialect: Dialect) -> Option<usize> {
    Reader { p, i: at, dialect, lenient: true }.bracket().ok().map(|b| b.end)
}

impl Bracket {
    /// Whether it is written like a class without the brackets around it (`[:space:]`
    /// for `[[:space:]]`): a `:` first and last, another character between, and nothing
    /// but characters. GNU grep and sed reject it (gnulib's dfa).
    pub(crate) fn looks_like_a_class(&self) -> bool {
        let colon = |i: Option<&Item>| i == Some(&Item::Char(':'));
        colon(self.items.first())
            && colon(self.items.last())
            && self.items.iter().all(|i| matches!(i, Item::Char(_)))
            && self.items.iter().any(|i| *i != Item::Char(':'))
    }
}

/// A member before it is known to start a range. A `[=…=]` or `[.….]` that is not one
/// single-byte character is `None`: glibc rejects it only once it knows what it is part of.
enum Element {
    Char(char),
    Class(&'static str),
    Equivalence(Option<char>),
    Collating(Option<char>),
    Perl(char),
}

struct Reader<'a> {
    p: &'a [char],
    i: usize,
    dialect: Dialect,
    /// Errors of meaning are let pass: only the end is wanted.
    lenient: bool,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.p.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.p.get(self.i + k).copied()
    }

    /// An error of meaning: reading stops at it, unless only the end is wanted.
    fn wrong(&self, e: Error) -> Result<(), Error> {
        if self.lenient {
            Ok(())
        } else {
            Err(e)
        }
    }

    fn bracket(&mut self) -> Result<Bracket, Error> {
        let negated = match self.peek() {
            Some('^') => true,
            Some('!') => self.dialect == Dialect::Glob,
            _ => false,
        };
        self.i += usize::from(negated);
        if self.peek().is_none() {
            return Err(Error::Empty);
        }
        let mut items = Vec::new();
        let mut first = true;
        loop {
            match self.peek() {
                None => return Err(Error::Unmatched),
                Some(']') if !first => {
                    self.i += 1;
                    return Ok(Bracket { negated, items, end: self.i });
                }
                _ => {}
            }
            let start = self.element(first)?;
            first = false;
            let item = match self.range_end(&start)? {
                Some(end) => self.range(start, end)?,
                None => self.single(start)?,
            };
            items.extend(item);
        }
    }

    /// One member at the cursor: a character (escaped or not), or a `[:`, `[=`, `[.` form.
    fn element(&mut self, first: bool) -> Result<Element, Error> {
        let c = self.p[self.i];
        self.i += 1;
        let re2 = self.dialect == Dialect::Re2;
        match c {
            '[' if self.peek() == Some(':') || (!re2 && matches!(self.peek(), Some('=' | '.'))) => self.symbol(),
            '[' if re2 => Err(Error::Unsupported("a nested class")),
            '\\' if re2 => self.escape(),
            '\\' if self.dialect.quotes() && self.peek().is_some() => {
                self.i += 1;
                Ok(Element::Char(self.p[self.i - 1]))
            }
            '-' | '&' | '~' if re2 && self.peek() == Some(c) => Err(Error::Unsupported("a set operation")),
            '-' if self.dialect.regcomp() && !first && self.peek() != Some(']') => {
                self.wrong(Error::Range)?;
                Ok(Element::Char('-'))
            }
            c => Ok(Element::Char(c)),
        }
    }

    /// `[:name:]`, `[=c=]` or `[.c.]`, after its `[`: the name runs to the first `:]`
    /// (`=]`, `.]`).
    fn symbol(&mut self) -> Result<Element, Error> {
        let kind = self.p[self.i];
        let from = self.i + 1;
        let Some(len) = self.p[from..].windows(2).position(|w| w[0] == kind && w[1] == ']') else {
            return Err(Error::Unmatched);
        };
        self.i = from + len + 2;
        let name: String = self.p[from..from + len].iter().collect();
        // glibc reads names into 32 bytes.
        if name.len() >= 32 && self.dialect.regcomp() {
            self.wrong(Error::Unmatched)?;
        }
        Ok(match kind {
            ':' => match self.dialect.names().iter().find(|n| **n == name) {
                Some(n) => Element::Class(n),
                None => {
                    self.wrong(Error::UnknownClass)?;
                    Element::Char(':')
                }
            },
            _ => {
                let mut chars = name.chars();
                let c = match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii() => Some(c),
                    _ => None,
                };
                if kind == '=' {
                    Element::Equivalence(c)
                } else {
                    Element::Collating(c)
                }
            }
        })
    }

    /// A Perl escape, after its backslash ([`Dialect::Re2`]).
    fn escape(&mut self) -> Result<Element, Error> {
        let Some(e) = self.peek() else { return Err(Error::Unmatched) };
        self.i += 1;
        Ok(Element::Char(match e {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => return Ok(Element::Perl(e)),
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            'f' => '\u{c}',
            'v' => '\u{b}',
            'x' => {
                let hex: Option<String> = self.p.get(self.i..self.i + 2).map(|h| h.iter().collect());
                let code = hex.and_then(|h| u8::from_str_radix(&h, 16).ok().filter(|_| h.is_ascii()));
                let Some(code) = code else { return Err(Error::Unsupported("a \\x escape without two hex digits")) };
                self.i += 2;
                char::from(code)
            }
            e if e.is_ascii_punctuation() => e,
            _ => return Err(Error::Unsupported("an escape Rust's regex and PCRE read differently")),
        }))
    }

    /// After a member: the end of the range it starts, or `None`.
    fn range_end(&mut self, start: &Element) -> Result<Option<Element>, Error> {
        let re2 = self.dialect == Dialect::Re2;
        let class = matches!(start, Element::Class(_) | Element::Equivalence(_) | Element::Perl(_));
        // glibc: a class starts no range, its `-` is the next member's.
        if class && !re2 {
            return Ok(None);
        }
        let after = match (self.peek(), self.peek_at(1)) {
            (None, _) | (Some('-'), None) => return Err(Error::Unmatched),
            (Some('-'), Some(after)) => after,
            _ => return Ok(None),
        };
        if after == ']' || (re2 && after == '-') {
            return Ok(None);
        }
        // A `-` between a class and a member: Rust's regex reads a range (an error after
        // `\d`) or a `-` (after `[:alpha:]`), PCRE an error.
        if class {
            return Err(Error::Unsupported("a '-' after a class"));
        }
        self.i += 1;
        self.element(true).map(Some)
    }

    /// The range from `start` to `end`, checked as glibc's `build_range_exp` checks it.
    fn range(&mut self, start: Element, end: Element) -> Result<Option<Item>, Error> {
        if matches!(end, Element::Perl(_)) {
            return Err(Error::Unsupported("a range to a Perl class"));
        }
        let class = |e: &Element| matches!(e, Element::Class(_) | Element::Equivalence(_));
        if class(&start) || class(&end) {
            self.wrong(Error::Range)?;
            return Ok(None);
        }
        let bound = |e: &Element| match *e {
            Element::Char(c) => Some(c),
            Element::Collating(c) => c,
            _ => None,
        };
        let (Some(lo), Some(hi)) = (bound(&start), bound(&end)) else {
            self.wrong(Error::Collation)?;
            return Ok(None);
        };
        if lo > hi && self.dialect != Dialect::Glob {
            self.wrong(Error::Range)?;
        }
        Ok(Some(Item::Range(lo, hi)))
    }

    /// A member that starts no range.
    fn single(&mut self, e: Element) -> Result<Option<Item>, Error> {
        Ok(Some(match e {
            Element::Char(c) => Item::Char(c),
            Element::Class(n) => Item::Class(n),
            Element::Equivalence(Some(c)) => Item::Equivalence(c),
            Element::Collating(Some(c)) => Item::Collating(c),
            Element::Equivalence(None) | Element::Collating(None) => {
                self.wrong(Error::Collation)?;
                return Ok(None);
            }
            Element::Perl(l) => Item::Perl(l),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Item::{Char, Class, Range};

    /// The pattern after its first `[`, read in `dialect`.
    fn r(pattern: &str, dialect: Dialect) -> Result<Bracket, Error> {
        let p: Vec<char> = pattern.chars().collect();
        read(&p, 1, dialect)
    }

    fn items(pattern: &str, dialect: Dialect) -> Vec<Item> {
        r(pattern, dialect).unwrap().items
    }

    fn message(pattern: &str, dialect: Dialect) -> Option<&'static str> {
        r(pattern, dialect).err().and_then(Error::message)
    }

    #[test]
    fn posix_brackets_read_as_glibc_reads_them() {
        let b = r("[^]a-c-]x", Dialect::Posix).unwrap();
        assert_eq!((b.negated, b.end), (true, 8), "ends after its `]`");
        assert_eq!(b.items, [Char(']'), Range('a', 'c'), Char('-')]);
        assert_eq!(items("[\\w]", Dialect::Posix), [Char('\\'), Char('w')], "a backslash is a member");
        assert_eq!(items("[!a]", Dialect::Posix), [Char('!'), Char('a')]);
        assert_eq!(items("[--/]", Dialect::Posix), [Range('-', '/')]);
        assert_eq!(items("[[:digit:]x-]", Dialect::Posix), [Class("digit"), Char('x'), Char('-')]);
        assert_eq!(items("[[:alpha:]-]", Dialect::Posix), [Class("alpha"), Char('-')]);
        assert_eq!(
            items("[[=a=][.-.][.a.]-z]", Dialect::Posix),
            [Item::Equivalence('a'), Item::Collating('-'), Range('a', 'z')]
        );
        assert_eq!(items("[[.].]]", Dialect::Posix), [Item::Collating(']')]);
        assert_eq!(items("[a[b]", Dialect::Posix), [Char('a'), Char('['), Char('b')]);
    }

    #[test]
    fn posix_errors_are_glibcs() {
        // What GNU grep 3.8 says for each.
        for (pattern, said) in [
            ("[", "Invalid regular expression"),
            ("[^", "Invalid regular expression"),
            ("[]", "Unmatched [, [^, [:, [., or [="),
            ("[a", "Unmatched [, [^, [:, [., or [="),
            ("[ab-", "Unmatched [, [^, [:, [., or [="),
            ("[[:alpha", "Unmatched [, [^, [:, [., or [="),
            ("[[:alpha:]", "Unmatched [, [^, [:, [., or [="),
            ("[[.ab.]", "Unmatched [, [^, [:, [., or [="),
            ("[z-a", "Invalid range end"),
            ("[z-a]", "Invalid range end"),
            ("[a-z-0]", "Invalid range end"),
            ("[a--]", "Invalid range end"),
            ("[[:alpha:]-z]", "Invalid range end"),
            ("[a-[:alpha:]]", "Invalid range end"),
            ("[[=a=]-z]", "Invalid range end"),
            ("[[:foo:]", "Invalid character class name"),
            ("[[:ALPHA:]]", "Invalid character class name"),
            ("[[=ab=]", "Invalid collation character"),
            ("[[.ab.]-z]", "Invalid collation character"),
            ("[[==]]", "Invalid collation character"),
            ("[[.é.]]", "Invalid collation character"),
        ] {
            assert_eq!(message(pattern, Dialect::Posix), Some(said), "{pattern}");
        }
        let name = |n: usize| format!("[[:{}:]]", "a".repeat(n));
        assert_eq!(message(&name(31), Dialect::Posix), Some("Invalid character class name"));
        assert_eq!(message(&name(32), Dialect::Posix), Some("Unmatched [, [^, [:, [., or [="), "32 bytes or more");
    }

    #[test]
    fn awk_quotes_with_a_backslash() {
        assert_eq!(items("[\\]a]", Dialect::Awk), [Char(']'), Char('a')]);
        assert_eq!(items("[\\.-z]", Dialect::Awk), [Range('.', 'z')], "an escaped character starts a range");
        assert_eq!(items("[a\\-]", Dialect::Awk), [Char('a'), Char('-')]);
        assert_eq!(message("[a-z-0]", Dialect::Awk), Some("Invalid range end"));
    }

    #[test]
    fn globs_read_as_fnmatch_reads_them() {
        assert!(r("[!a]", Dialect::Glob).unwrap().negated && r("[^a]", Dialect::Glob).unwrap().negated);
        assert_eq!(items("[z-a]", Dialect::Glob), [Range('z', 'a')], "out of order: matches nothing");
        assert_eq!(items("[a-c-e]", Dialect::Glob), [Range('a', 'c'), Char('-'), Char('e')]);
        assert_eq!(items("[a-\\]]", Dialect::Glob), [Range('a', ']')], "a range's end may be escaped");
        assert_eq!(items("[\\!]", Dialect::Glob), [Char('!')]);
        assert_eq!(r("[a", Dialect::Glob), Err(Error::Unmatched));
        assert_eq!(r("[!", Dialect::Glob), Err(Error::Empty));
        assert_eq!(r("[[:alpha:]", Dialect::Glob), Err(Error::Unmatched), "the glob reads its `[` as itself");
    }

    #[test]
    fn re2_reads_what_rust_and_pcre_read_alike() {
        assert_eq!(items("[\\d\\W_]", Dialect::Re2), [Item::Perl('d'), Item::Perl('W'), Char('_')]);
        assert_eq!(items("[\\t\\x41\\]\\-]", Dialect::Re2), [Char('\t'), Char('A'), Char(']'), Char('-')]);
        assert_eq!(items("[\\.-z]", Dialect::Re2), [Range('.', 'z')]);
        assert_eq!(items("[a-z-0]", Dialect::Re2), [Range('a', 'z'), Char('-'), Char('0')]);
        assert_eq!(items("[[:word:]-]", Dialect::Re2), [Class("word"), Char('-')]);
        assert_eq!(items("[\\w-]", Dialect::Re2), [Item::Perl('w'), Char('-')]);
        assert_eq!(items("[!a]", Dialect::Re2), [Char('!'), Char('a')], "`!` does not negate");
        assert_eq!(items("[]a]", Dialect::Re2), [Char(']'), Char('a')]);
        for p in
            ["[a&&b]", "[a~~b]", "[a--b]", "[--a]", "[a[b]]", "[\\d-z]", "[a-\\d]", "[[:alpha:]-z]", "[\\q]", "[\\x4]"]
        {
            assert!(matches!(r(p, Dialect::Re2), Err(Error::Unsupported(_))), "{p}");
        }
        assert_eq!(r("[z-a]", Dialect::Re2), Err(Error::Range));
        assert_eq!(r("[[:foo:]]", Dialect::Re2), Err(Error::UnknownClass));
        assert_eq!(r("[abc", Dialect::Re2), Err(Error::Unmatched));
    }

    #[test]
    fn the_end_is_found_whatever_the_members_mean() {
        let at = |p: &str| end(&p.chars().collect::<Vec<_>>(), 1, Dialect::Posix);
        assert_eq!(at("[[:foo:]/]/x/"), Some(10));
        assert_eq!(at("[z-a/]"), Some(6));
        assert_eq!(at("[[:a/]:]]/x"), Some(9), "a `]` inside `[:…:]` does not end it");
        assert_eq!(at("[[:/]/x/"), None);
        assert_eq!(at("[a"), None);
    }

    #[test]
    fn a_class_written_without_its_brackets_is_told() {
        let like = |p: &str| r(p, Dialect::Posix).unwrap().looks_like_a_class();
        assert!(like("[:space:]") && like("[^:a:]") && like("[:a:]]"));
        assert!(!like("[::]") && !like("[:]") && !like("[:a-b:]") && !like("[]:a:]") && !like("[[:alpha:]x]"));
    }
}
