//! GNU grep's basic and extended regular expressions, read as GNU grep 3.8 reads them,
//! and spelled in the RE2 subset the rest of the pattern code reads ([`super::syntax`],
//! [`super::lite`]).
//!
//! What GNU grep reads differently from RE2 is spelled here with its GNU meaning: BRE's
//! `\( \) \| \{m,n\} \+ \?`, a `*` that starts an expression read as a literal, `^` and
//! `$` as anchors only where POSIX makes them ones, `\<` and `\>` as the starts and ends
//! of words, `{,n}` as `{0,n}`, a `{` that starts no interval as a literal, `a**` as a
//! repeated repetition. Bracket expressions are read by [`crate::base::bracket`], as glibc
//! reads them (classes, equivalence classes and collating symbols, a backslash there a
//! member). What GNU grep reads in a way this code does not model — back-references,
//! `` \` `` and `\'`, a repetition that starts an extended expression, escapes of letters
//! it does not know, and errors — is [`Unsupported`], so the search goes to just-bash
//! instead of answering differently; an error keeps GNU's message ([`error_of`]).
//!
//! Classes that depend on the locale (`\w`, `[[:alpha:]]`, …) are spelled as their ASCII
//! members; [`Spelled`] says which were used, for the engine to treat characters beyond
//! ASCII as GNU grep does (see [`super::engine`]).

use super::lite::push_lit;
use crate::base::bracket::{self, Dialect, Item};
use crate::commands::Unsupported;

/// A GNU pattern spelled as RE2, and what of it depends on the locale.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Spelled {
    pub re2: String,
    /// A POSIX class whose members beyond ASCII glibc decides (`[:alpha:]`, `[:punct:]`,
    /// …): a line with characters beyond ASCII is not answered exactly.
    pub locale_class: bool,
    /// A bracket expression written like a class without its brackets (`[:space:]`),
    /// which GNU grep and sed reject once glibc has accepted the pattern (see
    /// [`dfa_error_of`]).
    pub class_syntax: bool,
}

/// The largest repetition count spelled (regex-lite's and RE2's limit).
const MAX_REPEAT: u32 = 1000;

fn no<T>(what: &str) -> Result<T, Unsupported> {
    Err(Unsupported::new(format!("{what} in a GNU pattern is left to just-bash")))
}

struct Reader<'a> {
    p: &'a [char],
    i: usize,
    extended: bool,
    /// Whose reading this is: grep's, sed's (groups capture, for `\1` in a replacement;
    /// `` \` `` and `\'` are the start and end of the whole text) or awk's (groups capture,
    /// a backslash inside brackets escapes the next character, `\y` is a word boundary, `` \` ``
    /// and `\'` anchor the whole text, a `*` that starts an expression is literal).
    flavor: Flavor,
    out: Spelled,
    /// GNU grep's message for a pattern it rejects, when reading stopped at one.
    error: Option<&'static str>,
}

/// One piece of a concatenation, spelled, and whether it may be repeated.
struct Piece {
    text: String,
    /// An anchor or an assertion: a repetition after it is not modelled.
    assertion: bool,
}

impl Reader<'_> {
    /// A pattern GNU grep rejects, with its message: not answered here either, and the
    /// message kept for [`error_of`].
    fn fail<T>(&mut self, message: &'static str) -> Result<T, Unsupported> {
        self.error = Some(message);
        Err(Unsupported::new(format!("a pattern GNU grep rejects ({message})")))
    }

    fn peek(&self) -> Option<char> {
        self.p.get(self.i).copied()
    }

    fn at(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(k, c)| self.p.get(self.i + k) == Some(&c))
    }

    /// Where the current branch ends: `|`/`)` in ERE, `\|`/`\)` in BRE, or the end.
    fn branch_ends(&self) -> bool {
        match self.peek() {
            None => true,
            Some('|' | ')') if self.extended => true,
            Some('\\') if !self.extended => matches!(self.p.get(self.i + 1), Some('|' | ')')),
            _ => false,
        }
    }

    fn alternation(&mut self, depth: usize) -> Result<String, Unsupported> {
        if depth > 64 {
            return no("groups nested more than 64 deep");
        }
        let mut out = self.branch(depth)?;
        loop {
            if self.extended && self.peek() == Some('|') {
                self.i += 1;
            } else if !self.extended && self.at("\\|") {
                self.i += 2;
            } else {
                return Ok(out);
            }
            out.push('|');
            out.push_str(&self.branch(depth)?);
        }
    }

    fn branch(&mut self, depth: usize) -> Result<String, Unsupported> {
        let mut pieces: Vec<Piece> = Vec::new();
        let start = self.i;
        while !self.branch_ends() {
            // `^` is an anchor at the start of a branch (ERE: anywhere).
            if self.peek() == Some('^') && (self.extended || self.i == start) {
                self.i += 1;
                pieces.push(Piece { text: "^".into(), assertion: true });
                continue;
            }
            if self.peek() == Some('$') {
                self.i += 1;
                // BRE: an anchor only at the end of a branch.
                let anchor = self.extended || self.branch_ends();
                pieces.push(Piece { text: if anchor { "$" } else { "\\$" }.into(), assertion: anchor });
                continue;
            }
            // A repetition with nothing before it to repeat.
            let first = pieces.iter().all(|p| p.assertion);
            if let Some(rep) = self.repetition()? {
                match pieces.last_mut() {
                    Some(last) if !first => {
                        if last.assertion {
                            return no("a repeated anchor");
                        }
                        // A repetition of a repetition: grouped, as GNU reads `a**`.
                        if last.text.ends_with(['*', '+', '?', '}']) && !last.text.ends_with("\\}") {
                            last.text = format!("(?:{})", last.text);
                        }
                        last.text.push_str(&rep);
                    }
                    _ if (!self.extended || self.flavor == Flavor::Awk) && rep == "*" => {
                        pieces.push(Piece { text: "\\*".into(), assertion: false });
                    }
                    _ => return no("a repetition at the start of an expression"),
                }
                continue;
            }
            let piece = self.atom(depth)?;
            pieces.push(piece);
        }
        Ok(pieces.into_iter().map(|p| p.text).collect())
    }

    /// A repetition operator at the cursor, spelled (`*`, `+`, `?`, `{m,n}`), or `None`.
    fn repetition(&mut self) -> Result<Option<String>, Unsupported> {
        let (c, escaped) = match (self.peek(), self.p.get(self.i + 1)) {
            (Some('*'), _) => ('*', false),
            (Some(c @ ('+' | '?' | '{')), _) if self.extended => (c, false),
            (Some('\\'), Some(&c @ ('+' | '?' | '{'))) if !self.extended => (c, true),
            _ => return Ok(None),
        };
        let skip = 1 + usize::from(escaped);
        if c != '{' {
            self.i += skip;
            return Ok(Some(c.to_string()));
        }
        let save = self.i;
        self.i += skip;
        match self.interval(escaped)? {
            Some(text) => Ok(Some(text)),
            // ERE: a `{` that starts no interval is a literal.
            None if self.extended => {
                self.i = save;
                Ok(None)
            }
            None => self.fail("Unmatched \\{"),
        }
    }

    /// An interval's counts after its `{`, up to its `}` (`\}` in BRE).
    fn interval(&mut self, escaped: bool) -> Result<Option<String>, Unsupported> {
        let number = |r: &mut Self| {
            let start = r.i;
            while r.peek().is_some_and(|c| c.is_ascii_digit()) {
                r.i += 1;
            }
            (r.i > start).then(|| r.p[start..r.i].iter().collect::<String>().parse::<u32>().unwrap_or(u32::MAX))
        };
        let min = number(self);
        let max = if self.peek() == Some(',') {
            self.i += 1;
            number(self)
        } else {
            if min.is_none() {
                return Ok(None);
            }
            min
        };
        let close = if escaped { "\\}" } else { "}" };
        if !self.at(close) {
            return Ok(None);
        }
        self.i += close.len();
        let min = min.unwrap_or(0);
        if max.is_some_and(|m| m < min) {
            return self.fail("Invalid content of \\{\\}");
        }
        if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT) {
            return no("a repetition over 1000");
        }
        Ok(Some(match max {
            Some(m) if m == min => format!("{{{min}}}"),
            Some(m) => format!("{{{min},{m}}}"),
            None => format!("{{{min},}}"),
        }))
    }

    fn atom(&mut self, depth: usize) -> Result<Piece, Unsupported> {
        let c = self.peek().expect("not at the end of a branch");
        self.i += 1;
        let text = |t: &str| Ok(Piece { text: t.to_string(), assertion: false });
        match c {
            '.' => text("."),
            '[' => {
                let class = self.bracket()?;
                text(&class)
            }
            '(' if self.extended => self.group(depth),
            ')' if self.extended => no("an unmatched )"),
            '\\' => {
                let Some(e) = self.peek() else { return self.fail("Trailing backslash") };
                self.i += 1;
                match e {
                    '(' if !self.extended => self.group(depth),
                    ')' if !self.extended => self.fail("Unmatched ) or \\)"),
                    '{' if !self.extended => no("an interval that repeats nothing"),
                    'w' | 'W' | 's' | 'S' => text(&format!("\\{e}")),
                    'y' if self.flavor == Flavor::Awk => Ok(Piece { text: "\\b".into(), assertion: true }),
                    '`' if self.flavor != Flavor::Grep => Ok(Piece { text: "\\A".into(), assertion: true }),
                    '\'' if self.flavor != Flavor::Grep => Ok(Piece { text: "\\z".into(), assertion: true }),
                    'b' | 'B' => Ok(Piece { text: format!("\\{e}"), assertion: true }),
                    '<' => Ok(Piece { text: "\\b{start}".into(), assertion: true }),
                    '>' => Ok(Piece { text: "\\b{end}".into(), assertion: true }),
                    e if e.is_ascii_punctuation() && e != '`' && e != '\'' => {
                        let mut t = String::new();
                        push_lit(&mut t, e);
                        text(&t)
                    }
                    e => no(&format!("the escape \\{e}")),
                }
            }
            c => {
                let mut t = String::new();
                push_lit(&mut t, c);
                text(&t)
            }
        }
    }

    /// A group, after its opening `(` (`\(` in BRE).
    fn group(&mut self, depth: usize) -> Result<Piece, Unsupported> {
        let inner = self.alternation(depth + 1)?;
        if self.extended && self.peek() == Some(')') {
            self.i += 1;
        } else if !self.extended && self.at("\\)") {
            self.i += 2;
        } else {
            return self.fail("Unmatched ( or \\(");
        }
        // sed's and awk's groups capture, for `\1` in a replacement, `match`'s array and
        // `gensub`'s `\\1`.
        let open = if self.flavor == Flavor::Grep { "(?:" } else { "(" };
        Ok(Piece { text: format!("{open}{inner})"), assertion: false })
    }

    /// A bracket expression after its `[`, read by the one reader of them (glibc's rules;
    /// awk's backslash quotes the next character), spelled as an RE2 class.
    fn bracket(&mut self) -> Result<String, Unsupported> {
        let dialect = if self.flavor == Flavor::Awk { Dialect::Awk } else { Dialect::Posix };
        let b = match bracket::read(self.p, self.i, dialect) {
            Ok(b) => b,
            Err(e) => return e.message().map_or_else(|| no("this bracket expression"), |m| self.fail(m)),
        };
        self.i = b.end;
        self.out.class_syntax |= b.looks_like_a_class();
        let mut out = String::from(if b.negated { "[^" } else { "[" });
        for item in &b.items {
            match *item {
                Item::Char(c) | Item::Equivalence(c) | Item::Collating(c) => push_member(&mut out, c),
                Item::Range(lo, hi) => {
                    push_member(&mut out, lo);
                    out.push('-');
                    push_member(&mut out, hi);
                }
                Item::Class(name) => self.posix_class(name, b.negated, &mut out),
                Item::Perl(_) => return no("a Perl class"),
            }
        }
        out.push(']');
        Ok(out)
    }

    /// A POSIX class's members (ASCII ones, as `C.UTF-8` has them).
    fn posix_class(&mut self, name: &str, negated: bool, out: &mut String) {
        let test = crate::base::ctype::class(name).unwrap_or(|_| false);
        for b in 0u8..128 {
            if test(b) {
                push_member(out, b as char);
            }
        }
        // glibc puts characters beyond ASCII in all but these: a class holding them holds
        // every character beyond ASCII here, so that a filter built from it only widens
        // (the engine does not answer for a line beyond ASCII with such a class).
        if !matches!(name, "digit" | "xdigit" | "cntrl") {
            self.out.locale_class = true;
            if !negated {
                out.push_str("\u{80}-\u{10FFFF}");
            }
        }
    }
}

/// One member of an RE2 class (`&` and `~` escaped too: doubled, Rust's regex and
/// regex-lite read them as set operations).
fn push_member(out: &mut String, c: char) {
    match c {
        '\\' | '[' | ']' | '^' | '-' | '&' | '~' => {
            out.push('\\');
            out.push(c);
        }
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\u{b}' => out.push_str("\\x0B"),
        '\u{c}' => out.push_str("\\x0C"),
        c if c.is_ascii_control() => out.push_str(&format!("\\x{:02X}", c as u32)),
        c => out.push(c),
    }
}

/// One GNU pattern (`extended`: `-E`; otherwise a basic one), spelled as RE2.
pub(crate) fn spell(pattern: &str, extended: bool) -> Result<Spelled, Unsupported> {
    read(pattern, extended, Flavor::Grep).0
}

/// An awk (gawk) regular expression, its string escapes already read, spelled as RE2.
pub(crate) fn spell_awk(pattern: &str) -> Result<Spelled, Unsupported> {
    read(pattern, true, Flavor::Awk).0
}

/// One GNU sed pattern spelled as RE2: as [`spell`], but its groups capture, and `` \` ``
/// and `\'` anchor at the start and end of the pattern space. Errors are GNU's message
/// when GNU rejects the pattern too.
pub(crate) fn spell_sed(pattern: &str, extended: bool) -> Result<Spelled, (Unsupported, Option<&'static str>)> {
    let (spelled, error) = read(pattern, extended, Flavor::Sed);
    spelled.map_err(|e| (e, error))
}

/// The message GNU grep rejects a pattern with (`grep: MESSAGE`, status 2), if it does.
pub(crate) fn error_of(pattern: &str, extended: bool) -> Option<&'static str> {
    read(pattern, extended, Flavor::Grep).1
}

/// The message GNU grep (and sed) rejects a pattern with once glibc's regex has accepted
/// it: gnulib's dfa refuses a bracket expression written like a class without its
/// brackets (`[:space:]`).
pub(crate) fn dfa_error_of(pattern: &str, extended: bool) -> Option<&'static str> {
    let spelled = read(pattern, extended, Flavor::Grep).0.ok()?;
    spelled.class_syntax.then_some("character class syntax is [[:space:]], not [:space:]")
}

/// Whose regular expressions a pattern is: the one reader's dialect parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavor {
    Grep,
    Sed,
    Awk,
}

fn read(pattern: &str, extended: bool, flavor: Flavor) -> (Result<Spelled, Unsupported>, Option<&'static str>) {
    let p: Vec<char> = pattern.chars().collect();
    let mut r = Reader { p: &p, i: 0, extended, flavor, out: Spelled::default(), error: None };
    let spelled = r.alternation(0).and_then(|re2| {
        if r.i != p.len() {
            // What is left is a closing parenthesis without its opening one.
            return if extended { no("an unmatched )") } else { r.fail("Unmatched ) or \\)") };
        }
        r.out.re2 = re2;
        Ok(r.out.clone())
    });
    (spelled, r.error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bre(p: &str) -> String {
        spell(p, false).unwrap().re2
    }

    fn ere(p: &str) -> String {
        spell(p, true).unwrap().re2
    }

    #[test]
    fn basic_expressions_read_as_gnu_grep() {
        assert_eq!(bre("a+b?(c)|{d}"), "a\\+b\\?\\(c\\)\\|\\{d\\}");
        assert_eq!(bre("colou\\?rs\\+"), "colou?rs+");
        assert_eq!(bre("\\(ab\\)\\|cd"), "(?:ab)|cd");
        assert_eq!(bre("a\\{2,3\\}b\\{,2\\}c\\{1,\\}"), "a{2,3}b{0,2}c{1,}");
        assert_eq!(bre("*a*"), "\\*a*", "a leading star is a literal");
        assert_eq!(bre("^*a"), "^\\*a");
        assert_eq!(bre("^a^b$c$"), "^a\\^b\\$c$");
        assert_eq!(bre("\\(^a$\\)"), "(?:^a$)");
        assert_eq!(bre("a**"), "(?:a*)*");
        assert_eq!(bre("\\<mint\\>"), "\\b{start}mint\\b{end}");
        assert_eq!(bre("\\bdev\\b\\w\\s"), "\\bdev\\b\\w\\s");
        assert_eq!(bre("\\.\\*\\[\\]\\-\\/"), "\\.\\*\\[\\]-/");
        assert_eq!(bre(""), "");
    }

    #[test]
    fn extended_expressions_read_as_gnu_grep() {
        assert_eq!(ere("tok(en)?s?"), "tok(?:en)?s?");
        assert_eq!(ere("a{,3}"), "a{0,3}");
        assert_eq!(ere("x{y"), "x\\{y", "a brace that starts no interval is a literal");
        assert_eq!(ere("{{"), "\\{\\{");
        assert_eq!(ere("a|"), "a|");
        assert_eq!(ere("()"), "(?:)");
        assert_eq!(ere("a+*"), "(?:a+)*");
        assert_eq!(ere("x{1}{2}"), "(?:x{1}){2}");
        assert_eq!(ere("\\(a\\)\\|\\{"), "\\(a\\)\\|\\{");
        assert_eq!(ere("^a|b$"), "^a|b$");
    }

    #[test]
    fn brackets_read_as_gnu_grep() {
        assert_eq!(ere("[]a]"), "[\\]a]");
        assert_eq!(ere("[^-a-c-]"), "[^\\-a-c\\-]");
        assert_eq!(ere("[\\w]"), "[\\\\w]", "a backslash is a member");
        assert_eq!(ere("[[:digit:]x]"), "[0123456789x]");
        let s = spell("[[:alpha:]]", true).unwrap();
        assert!(s.locale_class && s.re2.starts_with("[ABC") && s.re2.ends_with("z\u{80}-\u{10FFFF}]"));
        assert!(
            !spell("[^[:alpha:]]", true).unwrap().re2.contains('\u{80}'),
            "a negation keeps every character beyond ASCII"
        );
        assert!(!spell("[[:digit:]]", true).unwrap().locale_class);
        assert_eq!(ere("[[=a=][.-.]]"), "[a\\-]", "an equivalence class and a collating symbol are their character");
        assert_eq!(ere("[[.a.]-c]"), "[a-c]");
        assert_eq!(spell_awk("[\\]\\.-z]").unwrap().re2, "[\\].-z]", "awk's backslash quotes");
    }

    #[test]
    fn what_gnu_rejects_has_its_message() {
        assert_eq!(error_of("tok(", true), Some("Unmatched ( or \\("));
        assert_eq!(error_of("a\\)", false), Some("Unmatched ) or \\)"));
        assert_eq!(error_of("[a", true), Some("Unmatched [, [^, [:, [., or [="));
        assert_eq!(error_of("x[", false), Some("Invalid regular expression"));
        assert_eq!(error_of("[^", true), Some("Invalid regular expression"));
        assert_eq!(error_of("[]", true), Some("Unmatched [, [^, [:, [., or [="));
        assert_eq!(error_of("a\\{1", false), Some("Unmatched \\{"));
        assert_eq!(error_of("a{2,1}", true), Some("Invalid content of \\{\\}"));
        assert_eq!(error_of("[z-a]", true), Some("Invalid range end"));
        assert_eq!(error_of("[[:foo:]]", true), Some("Invalid character class name"));
        assert_eq!(error_of("a\\", false), Some("Trailing backslash"));
        assert_eq!(error_of("[a-z-0]", true), Some("Invalid range end"));
        assert_eq!(error_of("[[:alpha:]-z]", false), Some("Invalid range end"));
        assert_eq!(error_of("[[.ab.]]", false), Some("Invalid collation character"));
        assert_eq!(error_of("[[:alpha:]", false), Some("Unmatched [, [^, [:, [., or [="));
        assert_eq!(error_of("[:space:]", false), None, "glibc's regex accepts it…");
        assert_eq!(dfa_error_of("[:space:]x", false), Some("character class syntax is [[:space:]], not [:space:]"));
        assert_eq!(dfa_error_of("[[:space:]]", false), None);
        assert_eq!(error_of("a)", true), None, "a literal to GNU grep -E");
        assert_eq!(error_of("\\(a\\)\\1", false), None, "valid, and not modelled");
    }

    #[test]
    fn what_gnu_reads_otherwise_is_refused() {
        for (p, extended) in [
            ("\\(a\\)\\1", false),
            ("a\\'", false),
            ("\\d", true),
            ("*a", true),
            ("+a", true),
            ("(a", true),
            ("a)", true),
            ("\\(a", false),
            ("a\\{1", false),
            ("[a", true),
            ("[z-a]", true),
            ("[[:foo:]]", true),
            ("[[=ab=]]", true),
            ("a{2,1}", true),
            ("a{1001}", true),
            ("^*", true),
            ("a\\", true),
        ] {
            assert!(spell(p, extended).is_err(), "{p}");
        }
    }
}
