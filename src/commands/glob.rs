//! just-bash's `matchGlob`, for the globs its commands take (`find -name`, `grep
//! --include`): quotes around the glob stripped where the command asks for it (grep
//! does, find does not), `*` as `.*` and `?` as `.` of an RE2
//! pattern — so neither crosses a newline — and every other character literal, the
//! backslash included. Bracket expressions are copied into that pattern unchanged,
//! which this module does not model: they are [`Unsupported`].

use crate::commands::Unsupported;

/// A glob in the subset modelled here.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Glob {
    chars: Vec<char>,
    ignore_case: bool,
}

impl Glob {
    /// `ignore_case` needs an ASCII glob; names beyond ASCII then go to just-bash (see
    /// [`Glob::matches`]).
    pub(crate) fn new(glob: &str, ignore_case: bool, strip_quotes: bool) -> Result<Glob, Unsupported> {
        let g = match glob.as_bytes() {
            [b'"', .., b'"'] | [b'\'', .., b'\''] if strip_quotes && glob.len() >= 2 => &glob[1..glob.len() - 1],
            _ => glob,
        };
        if g.contains('[') {
            return Err(Unsupported::new("a bracket glob is left to just-bash"));
        }
        if ignore_case && !g.is_ascii() {
            return Err(Unsupported::new("case folding beyond ASCII"));
        }
        let chars = g.chars().map(|c| if ignore_case { c.to_ascii_lowercase() } else { c }).collect();
        Ok(Glob { chars, ignore_case })
    }

    pub(crate) fn ignore_case(&self) -> bool {
        self.ignore_case
    }

    /// Whether `name` matches; `None` when RE2's case folding could differ from ASCII's
    /// (a name beyond ASCII under `-iname`).
    pub(crate) fn matches(&self, name: &str) -> Option<bool> {
        if self.ignore_case && !name.is_ascii() {
            return None;
        }
        let n: Vec<char> = name.chars().map(|c| if self.ignore_case { c.to_ascii_lowercase() } else { c }).collect();
        Some(matches(&self.chars, &n))
    }
}

/// Iterative wildcard matching with one backtrack point: linear in practice.
fn matches(g: &[char], n: &[char]) -> bool {
    let (mut gi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match g.get(gi) {
            Some('*') => {
                star = Some((gi, ni));
                gi += 1;
                continue;
            }
            Some('?') if n[ni] != '\n' => {
                gi += 1;
                ni += 1;
                continue;
            }
            Some(&c) if c != '?' && c == n[ni] => {
                gi += 1;
                ni += 1;
                continue;
            }
            _ => {}
        }
        // Backtrack: the last `*` takes one more character, never a newline.
        match star {
            Some((sg, sn)) if n[sn] != '\n' => {
                star = Some((sg, sn + 1));
                gi = sg + 1;
                ni = sn + 1;
            }
            _ => return false,
        }
    }
    g[gi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(g: &str, n: &str) -> bool {
        Glob::new(g, false, true).unwrap().matches(n).unwrap()
    }

    #[test]
    fn stars_and_questions() {
        assert!(m("*.md", "a.md") && m("*.md", ".md") && !m("*.md", "a.mdx"));
        assert!(m("a?c", "abc") && !m("a?c", "ac") && m("*a*b*", "xxaybzz") && !m("*a*b", "ba"));
        assert!(m("'*.json'", "x.json"), "quotes are stripped");
        assert!(!m("*", "a\nb") && !m("a?b", "a\nb"), "nothing crosses a newline");
        assert!(m("a\\*", "a\\bc") && !m("a\\*", "a*"), "a backslash is a literal backslash");
        assert!(m("", "") && !m("", "a"));
    }

    #[test]
    fn case_folding() {
        let g = Glob::new("*.MD", true, false).unwrap();
        assert_eq!((g.matches("a.md"), g.matches("é.md")), (Some(true), None));
        assert!(Glob::new("[ab]", false, true).is_err());
        assert!(!Glob::new("'*.md'", false, false).unwrap().matches("a.md").unwrap(), "find keeps quotes");
    }
}
