//! Globs: the one matcher behind every glob chromafs reads.
//!
//! Three readers spell globs three ways, and each must match exactly as its own program
//! does: POSIX `fnmatch` for `find -name` and `grep --include` (`*` and `?` cross `/`,
//! bracket sets, backslash escapes), ripgrep's for `-g` (`**` crosses `/`, `*` and `?`
//! stay within a segment, simple bracket classes), and the ingest's access rules
//! (`docs/**` is everything below `docs`). Each is a constructor that
//! reads its spelling into one list of tokens; matching is one pass over the name that
//! keeps the set of places the tokens so far can have reached, so a glob of many stars
//! costs no more than its length times the name's. Nothing but a literal newline matches a
//! newline, as in just-bash, whose globs are regular expressions without the `s` flag.

use super::bracket::{self, Dialect, Item};
use std::fmt;

/// A glob this matcher does not model, and why (the caller leaves the command to
/// just-bash, or refuses the rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GlobError(pub &'static str);

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Lit(char),
    /// `?`: one character; `/` too when `cross`.
    One {
        cross: bool,
    },
    /// `*`: any characters; `/` too when `cross`.
    Star {
        cross: bool,
    },
    /// Nothing, or any run of characters ending in `/` (`**/` of a path rule).
    Dirs,
    /// `[...]`: one character in (or, `negated`, out of) the ranges.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    /// `{a,b}` of an rg glob: any one of the alternatives.
    Alt(Vec<Vec<Token>>),
}

/// A glob, read in one of the spellings above.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Glob {
    tokens: Vec<Token>,
    ignore_case: bool,
}

impl Glob {
    /// POSIX `fnmatch` without flags, as GNU find's `-name`/`-path` and GNU grep's
    /// `--include` read a glob: `*` and `?` match any character (`/` and a leading `.`
    /// too), `[...]` one of a set (`!` or `^` negates it, `a-z` is a range, a `]` first is a
    /// member), a backslash makes the next character literal. Character classes inside a
    /// set (`[[:alpha:]]`) are not modelled. `ignore_case` folds ASCII.
    pub(crate) fn fnmatch(glob: &str, ignore_case: bool) -> Result<Glob, GlobError> {
        Self::folded(glob, ignore_case)?;
        if ignore_case && glob.contains('[') {
            return Err(GlobError("a set in a glob that ignores case"));
        }
        let mut tokens = Vec::new();
        let chars: Vec<char> = glob.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            i += 1;
            tokens.push(match c {
                '*' => Token::Star { cross: true },
                '?' => Token::One { cross: true },
                '\\' if i < chars.len() => {
                    i += 1;
                    Token::Lit(chars[i - 1])
                }
                '[' => match set(&chars, i)? {
                    Some((token, end)) => {
                        i = end;
                        token
                    }
                    None => Token::Lit('['),
                },
                c => Token::Lit(c),
            });
        }
        Ok(Glob { tokens, ignore_case }.fold())
    }

    /// ripgrep's glob (`-g`, `--iglob`, without its `!`): `**` crosses `/`, `*` and `?`
    /// stay within a segment, `{a,b}` matches either (alternatives nest), a backslash
    /// makes the next character literal, and a class of letters, digits, `_`, `.` and
    /// inner `-` ranges is a class (others read differently in ripgrep and just-bash: not
    /// modelled). A brace left open or closed without its opening is ripgrep's error,
    /// not modelled either.
    pub(crate) fn rg(glob: &str, ignore_case: bool) -> Result<Glob, GlobError> {
        Self::folded(glob, ignore_case)?;
        let chars: Vec<char> = glob.chars().collect();
        let mut i = 0;
        let tokens = rg_tokens(&chars, &mut i, false)?;
        match i < chars.len() {
            true => Err(GlobError("a '}' that opens no alternatives")),
            false => Ok(Glob { tokens, ignore_case }.fold()),
        }
    }

    /// An access rule's glob over `/`-separated paths: `*` and `?` stay within a
    /// segment, `**` spans any number of segments (`docs/**` is everything below `docs`,
    /// `**/x.md` an `x.md` at any depth).
    pub(crate) fn path(glob: &str) -> Glob {
        let mut tokens = Vec::new();
        let mut rest = glob;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            tokens.push(match c {
                '*' if rest.starts_with('*') => {
                    rest = rest[1..].strip_prefix('/').unwrap_or(&rest[1..]);
                    if rest.is_empty() {
                        Token::Star { cross: true }
                    } else {
                        Token::Dirs
                    }
                }
                '*' => Token::Star { cross: false },
                '?' => Token::One { cross: false },
                c => Token::Lit(c),
            });
        }
        Glob { tokens, ignore_case: false }
    }

    fn folded(glob: &str, ignore_case: bool) -> Result<(), GlobError> {
        match ignore_case && !glob.is_ascii() {
            true => Err(GlobError("case folding beyond ASCII")),
            false => Ok(()),
        }
    }

    /// The glob with its letters folded, when it ignores case.
    fn fold(mut self) -> Glob {
        fn lower(tokens: &mut [Token]) {
            for t in tokens {
                match t {
                    Token::Lit(c) => *c = c.to_ascii_lowercase(),
                    Token::Alt(alts) => alts.iter_mut().for_each(|a| lower(a)),
                    _ => {}
                }
            }
        }
        if self.ignore_case {
            lower(&mut self.tokens);
        }
        self
    }

    /// Whether `name` matches; `None` when ASCII folding may not be the case folding the
    /// program uses (a name beyond ASCII, when the glob ignores case).
    pub(crate) fn matches(&self, name: &str) -> Option<bool> {
        if self.ignore_case && !name.is_ascii() {
            return None;
        }
        let chars: Vec<char> =
            name.chars().map(|c| if self.ignore_case { c.to_ascii_lowercase() } else { c }).collect();
        Some(self.matches_chars(&chars))
    }

    /// Whether the glob matches the whole of `path` or what follows any of its `/` not
    /// followed by another (gnulib's unanchored `exclude_fnmatch`, as du's `--exclude` and
    /// GNU grep's filters on command-line operands read it); `None` as for [`Glob::matches`].
    pub(crate) fn matches_unanchored(&self, path: &str) -> Option<bool> {
        let tails = std::iter::once(path)
            .chain(path.match_indices('/').map(|(i, _)| &path[i + 1..]).filter(|t| !t.starts_with('/')));
        let mut unknown = false;
        for tail in tails {
            match self.matches(tail) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => unknown = true,
            }
        }
        (!unknown).then_some(false)
    }

    fn matches_chars(&self, name: &[char]) -> bool {
        let mut at = vec![false; name.len() + 1];
        at[0] = true;
        reach(&self.tokens, name, at)[name.len()]
    }
}

/// One pass over the name per token, from the places `at` (`at[i]`: the name's first `i`
/// characters are matched): where the tokens can end.
fn reach(tokens: &[Token], name: &[char], mut at: Vec<bool>) -> Vec<bool> {
    let n = name.len();
    {
        for token in tokens {
            let mut next = vec![false; n + 1];
            let one = |c: char, cross: bool| c != '\n' && (cross || c != '/');
            match token {
                Token::Lit(l) => (0..n).filter(|&i| at[i] && name[i] == *l).for_each(|i| next[i + 1] = true),
                Token::One { cross } => {
                    (0..n).filter(|&i| at[i] && one(name[i], *cross)).for_each(|i| next[i + 1] = true)
                }
                Token::Class { negated, ranges } => (0..n)
                    .filter(|&i| {
                        at[i] && name[i] != '\n' && ranges.iter().any(|(a, b)| (*a..=*b).contains(&name[i])) != *negated
                    })
                    .for_each(|i| next[i + 1] = true),
                Token::Star { cross } => {
                    let mut reached = false;
                    for i in 0..=n {
                        reached = at[i] || (reached && i > 0 && one(name[i - 1], *cross));
                        next[i] = reached;
                    }
                }
                Token::Dirs => {
                    // From each start, any run without a newline that ends in `/`.
                    let mut open = false;
                    for i in 0..=n {
                        if i > 0 && name[i - 1] == '\n' {
                            open = false;
                        }
                        next[i] = at[i] || (open && name[i - 1] == '/');
                        open |= at[i];
                    }
                }
                Token::Alt(alts) => {
                    for alt in alts {
                        let ends = reach(alt, name, at.clone());
                        next.iter_mut().zip(ends).for_each(|(n, e)| *n |= e);
                    }
                }
            }
            at = next;
        }
    }
    at
}

/// The tokens of an rg glob from `glob[*i]`, up to the end or, `inside` braces, up to the
/// `,` or `}` that ends the alternative (left at `*i`).
fn rg_tokens(glob: &[char], i: &mut usize, inside: bool) -> Result<Vec<Token>, GlobError> {
    let mut tokens = Vec::new();
    while let Some(&c) = glob.get(*i) {
        if c == '}' || inside && c == ',' {
            break;
        }
        *i += 1;
        tokens.push(match c {
            '*' if glob.get(*i) == Some(&'*') => {
                *i += 1;
                Token::Star { cross: true }
            }
            '*' => Token::Star { cross: false },
            '?' => Token::One { cross: false },
            '\\' => {
                let Some(&next) = glob.get(*i) else { return Err(GlobError("a glob ending in a backslash")) };
                *i += 1;
                Token::Lit(next)
            }
            '[' => {
                let (class, end) = class(glob, *i)?;
                *i = end;
                class
            }
            '{' => {
                let mut alts = vec![rg_tokens(glob, i, true)?];
                loop {
                    match glob.get(*i) {
                        Some(',') => {
                            *i += 1;
                            alts.push(rg_tokens(glob, i, true)?);
                        }
                        Some('}') => break,
                        _ => return Err(GlobError("a '{' that no '}' closes")),
                    }
                }
                *i += 1;
                Token::Alt(alts)
            }
            c => Token::Lit(c),
        });
    }
    Ok(tokens)
}

/// The bracket set whose `[` is just before `glob[at]`, read by the one reader of them as
/// `fnmatch` reads it: the set and where it ends, or `None` when no `]` closes it (the `[`
/// is then a literal). Classes, equivalence classes and collating symbols are not modelled.
fn set(glob: &[char], at: usize) -> Result<Option<(Token, usize)>, GlobError> {
    let b = match bracket::read(glob, at, Dialect::Glob) {
        Ok(b) => b,
        Err(bracket::Error::Empty | bracket::Error::Unmatched) => return Ok(None),
        Err(_) => return Err(GlobError("a character class in a glob")),
    };
    let mut ranges = Vec::new();
    for item in b.items {
        ranges.push(match item {
            Item::Char(c) => (c, c),
            Item::Range(lo, hi) => (lo, hi),
            _ => return Err(GlobError("a character class in a glob")),
        });
    }
    Ok(Some((Token::Class { negated: b.negated, ranges }, b.end)))
}

/// A bracket class of an rg glob whose `[` is just before `glob[at]`: the class and where
/// it ends. Only letters, digits, `_`, `.` and inner `-` ranges are modelled.
fn class(glob: &[char], at: usize) -> Result<(Token, usize), GlobError> {
    let Ok(b) = bracket::read(glob, at, Dialect::Glob) else {
        return Err(GlobError("an unclosed class in a glob"));
    };
    let body = &glob[at + usize::from(b.negated)..b.end - 1];
    let plain = |c: &char| c.is_ascii_alphanumeric() || *c == '_' || *c == '.';
    let simple =
        body.first().is_some_and(plain) && body.last().is_some_and(plain) && body.iter().all(|c| plain(c) || *c == '-');
    if !simple {
        return Err(GlobError("a glob class left to just-bash"));
    }
    let ranges = (b.items.iter())
        .filter_map(|item| match *item {
            Item::Range(lo, hi) => Some((lo, hi)),
            Item::Char(c) => Some((c, c)),
            _ => None,
        })
        .collect();
    Ok((Token::Class { negated: b.negated, ranges }, b.end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rg(g: &str, n: &str) -> bool {
        Glob::rg(g, false).unwrap().matches(n).unwrap()
    }

    fn path(g: &str, n: &str) -> bool {
        Glob::path(g).matches(n).unwrap()
    }

    #[test]
    fn fnmatch_reads_posix_globs() {
        let f = |g: &str, n: &str| Glob::fnmatch(g, false).unwrap().matches(n).unwrap();
        assert!(f("*.md", "a.md") && f("*.md", ".md") && f("*", "a/b") && f("*/deep/*", "./x/deep/y"));
        assert!(f("[ab]*", "b.md") && !f("[ab]*", "c.md") && f("[!ab]*", "c") && f("[]a]", "]"));
        assert!(f("a\\*", "a*") && !f("a\\*", "ab") && f("[a", "[a"), "escapes, and a [ without its ]");
        assert!(f("[a-c-e]", "-") && f("[A-\\]]", "]") && !f("[z-a]", "z"), "as fnmatch reads ranges");
        assert!(f("[[:alpha:]", "[:") && f("[a[:b", "[a[:b"), "a [ left open is itself");
        assert!(Glob::fnmatch("*.MD", true).unwrap().matches("a.md").unwrap());
        assert!(Glob::fnmatch("[[:alpha:]]", false).is_err());
    }

    #[test]
    fn rg_globs_keep_stars_within_a_segment() {
        assert!(rg("*.md", "a.md") && !rg("*.md", "d/a.md") && rg("**/*.md", "d/e/a.md") && rg("d/**", "d/e/f"));
        assert!(rg("a?.md", "ab.md") && !rg("a?.md", "a/.md"));
        assert!(rg("[a-c]x", "bx") && !rg("[a-c]x", "dx") && rg("[!a-c]x", "dx") && !rg("[!a-c]x", "\nx"));
        assert!(
            Glob::rg("[a", false).is_err() && Glob::rg("[\\]]", false).is_err() && Glob::rg("[-a]", false).is_err()
        );
        assert!(Glob::rg("*.MD", true).unwrap().matches("x.md").unwrap());
    }

    #[test]
    fn rg_globs_read_braces_and_escapes_as_ripgrep() {
        assert!(rg("*.{md,txt}", "a.md") && rg("*.{md,txt}", "a.txt") && !rg("*.{md,txt}", "a.mdx"));
        assert!(rg("*.{md,{txt,mdx}}", "a.mdx") && rg("*.{md,}", "a.") && rg("{,b}.md", "b.md"));
        assert!(rg("{*.md,*.txt}", "x.txt") && !rg("{*.md,*.txt}", "d/x.txt") && rg("**/{b,c}.*", "d/c.txt"));
        assert!(rg("{a,[bc]}.*", "c.x") && !rg("{}", "x") && rg("a,b", "a,b"));
        assert!(rg("\\{x\\}.md", "{x}.md") && !rg("\\{x\\}.md", "x.md"));
        assert!(Glob::rg("*.{MD,txt}", true).unwrap().matches("a.md").unwrap());
        for bad in ["*.{md", "*.md}", "a\\", "{a,{b}"] {
            assert!(Glob::rg(bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn path_rules_span_segments_with_two_stars() {
        assert!(path("internal/**", "internal/a.md") && path("internal/**", "internal/x/y.md"));
        assert!(!path("internal/**", "internal") && !path("internal/**", "internals/a.md"));
        assert!(
            path("**/secret.md", "secret.md")
                && path("**/secret.md", "a/b/secret.md")
                && !path("**/secret.md", "a/xsecret.md")
        );
        assert!(path("*.md", "a.md") && !path("*.md", "d/a.md") && path("d/*.md", "d/a.md"));
        assert!(path("a/**/b.md", "a/b.md") && path("a/**/b.md", "a/x/y/b.md") && !path("a/**/b.md", "ab.md"));
        assert!(path("d/?.md", "d/é.md") && path("**", "anything/at/all"));
    }

    #[test]
    fn unanchored_globs_match_any_tail_after_a_slash() {
        let u = |g: &str, p: &str| Glob::fnmatch(g, false).unwrap().matches_unanchored(p).unwrap();
        assert!(u("e/f", "d/e/f") && u("d*", "/d/") && u("sub", "dir/sub") && u("di*", "dir/sub"));
        assert!(!u("d", "/d/") && !u("e", "d/e/f") && u("f", "d//f") && !u("/f", "d//f"));
    }

    #[test]
    fn many_stars_cost_no_more_than_their_length() {
        let g = Glob::fnmatch(&"*a".repeat(200), false).unwrap();
        assert!(!g.matches(&"a".repeat(199)).unwrap());
        assert!(g.matches(&"ba".repeat(300)).unwrap());
    }
}
