//! Globs: the one matcher behind every glob chromafs reads.
//!
//! Three readers spell globs three ways, and each must match exactly as its own program
//! does: just-bash's `matchGlob` for `find -name` and `grep --include` (`*` and `?` cross
//! `/`, quotes around the glob stripped where grep strips them), just-bash's rg for `-g`
//! (`**` crosses `/`, `*` and `?` stay within a segment, simple bracket classes), and the
//! ingest's access rules (`docs/**` is everything below `docs`). Each is a constructor that
//! reads its spelling into one list of tokens; matching is one pass over the name that
//! keeps the set of places the tokens so far can have reached, so a glob of many stars
//! costs no more than its length times the name's. Nothing but a literal newline matches a
//! newline, as in just-bash, whose globs are regular expressions without the `s` flag.

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
}

/// A glob, read in one of the spellings above.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Glob {
    tokens: Vec<Token>,
    ignore_case: bool,
}

impl Glob {
    /// just-bash's `matchGlob`: `*` is `.*` and `?` is `.` of a regular expression (both
    /// cross `/`, neither a newline), every other character literal (the backslash too).
    /// `strip_quotes` takes off quotes around the whole glob, as grep does. Bracket
    /// expressions are copied into that regular expression unchanged, which is not
    /// modelled here. `ignore_case` folds ASCII and needs an ASCII glob.
    pub(crate) fn just_bash(glob: &str, ignore_case: bool, strip_quotes: bool) -> Result<Glob, GlobError> {
        let g = match glob.as_bytes() {
            [b'"', .., b'"'] | [b'\'', .., b'\''] if strip_quotes && glob.len() >= 2 => &glob[1..glob.len() - 1],
            _ => glob,
        };
        if g.contains('[') {
            return Err(GlobError("a bracket glob is left to just-bash"));
        }
        Self::folded(g, ignore_case)?;
        let tokens = g
            .chars()
            .map(|c| match c {
                '*' => Token::Star { cross: true },
                '?' => Token::One { cross: true },
                c => Token::Lit(c),
            })
            .collect();
        Ok(Glob { tokens, ignore_case }.fold())
    }

    /// just-bash's rg glob (`-g`, `--iglob`, without its `!`): `**` crosses `/`, `*` and
    /// `?` stay within a segment, a class of letters, digits, `_`, `.` and inner `-`
    /// ranges is a class (others read differently in the two engines: not modelled).
    pub(crate) fn rg(glob: &str, ignore_case: bool) -> Result<Glob, GlobError> {
        Self::folded(glob, ignore_case)?;
        let mut tokens = Vec::new();
        let mut rest = glob;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            tokens.push(match c {
                '*' if rest.starts_with('*') => {
                    rest = &rest[1..];
                    Token::Star { cross: true }
                }
                '*' => Token::Star { cross: false },
                '?' => Token::One { cross: false },
                '[' => {
                    let (class, after) = class(rest)?;
                    rest = after;
                    class
                }
                c => Token::Lit(c),
            });
        }
        Ok(Glob { tokens, ignore_case }.fold())
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
        if self.ignore_case {
            for t in &mut self.tokens {
                if let Token::Lit(c) = t {
                    *c = c.to_ascii_lowercase();
                }
            }
        }
        self
    }

    pub(crate) fn ignore_case(&self) -> bool {
        self.ignore_case
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

    /// One pass over the name per token: `at[i]` says the tokens so far can end at `i`.
    fn matches_chars(&self, name: &[char]) -> bool {
        let n = name.len();
        let mut at = vec![false; n + 1];
        at[0] = true;
        for token in &self.tokens {
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
            }
            at = next;
        }
        at[n]
    }
}

/// A bracket class of an rg glob, after its `[`: the class and what follows it.
fn class(rest: &str) -> Result<(Token, &str), GlobError> {
    let Some(end) = rest.find(']') else { return Err(GlobError("an unclosed class in a glob")) };
    let (body, negated) = match rest.strip_prefix(['!', '^']) {
        Some(_) => (&rest[1..end], true),
        None => (&rest[..end], false),
    };
    let plain = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
    let simple = !body.is_empty()
        && !body.starts_with('-')
        && !body.ends_with('-')
        && body.bytes().all(|b| plain(b) || b == b'-');
    if !simple {
        return Err(GlobError("a glob class left to just-bash"));
    }
    let chars: Vec<char> = body.chars().collect();
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' {
            ranges.push((chars[i], chars[i + 2]));
            i += 3;
        } else {
            ranges.push((chars[i], chars[i]));
            i += 1;
        }
    }
    Ok((Token::Class { negated, ranges }, &rest[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jb(g: &str, n: &str) -> bool {
        Glob::just_bash(g, false, true).unwrap().matches(n).unwrap()
    }

    fn rg(g: &str, n: &str) -> bool {
        Glob::rg(g, false).unwrap().matches(n).unwrap()
    }

    fn path(g: &str, n: &str) -> bool {
        Glob::path(g).matches(n).unwrap()
    }

    #[test]
    fn just_bash_stars_and_questions() {
        assert!(jb("*.md", "a.md") && jb("*.md", ".md") && !jb("*.md", "a.mdx"));
        assert!(jb("a?c", "abc") && !jb("a?c", "ac") && jb("*a*b*", "xxaybzz") && !jb("*a*b", "ba"));
        assert!(jb("'*.json'", "x.json"), "quotes are stripped");
        assert!(!jb("*", "a\nb") && !jb("a?b", "a\nb"), "nothing crosses a newline");
        assert!(jb("a\\*", "a\\bc") && !jb("a\\*", "a*"), "a backslash is a literal backslash");
        assert!(jb("", "") && !jb("", "a"));
        assert!(jb("*", "a/b") && jb("a?b", "a/b"), "both cross a slash");
        let g = Glob::just_bash("*.MD", true, false).unwrap();
        assert_eq!((g.matches("a.md"), g.matches("é.md")), (Some(true), None));
        assert!(Glob::just_bash("[ab]", false, true).is_err());
        assert!(!Glob::just_bash("'*.md'", false, false).unwrap().matches("a.md").unwrap(), "find keeps quotes");
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
    fn many_stars_cost_no_more_than_their_length() {
        let g = Glob::just_bash(&"*a".repeat(200), false, false).unwrap();
        assert!(!g.matches(&"a".repeat(199)).unwrap());
        assert!(g.matches(&"ba".repeat(300)).unwrap());
    }
}
