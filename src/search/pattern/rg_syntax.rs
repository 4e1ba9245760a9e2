//! The one error of ripgrep's regex parser answered here: a `{` after something it could
//! repeat that does not start a count (`x{,3}`, GNU's spelling of `x{0,3}`, or `a{}`).
//! ripgrep refuses the pattern with exit status 2; read as a literal `{` it would match
//! nothing, and an agent would take the error for "no match". Every other invalid pattern
//! still goes to just-bash, with its own message.

use super::lite::interval;

/// ripgrep's message for the first `{` in `patterns` (read as regexes) that follows
/// something it could repeat and is not followed by a digit: the patterns as ripgrep
/// joins them, with a caret under the character where it expected a number. `None` when
/// there is none, or when something before it is read differently (an unclosed class, a
/// `{` or a `*` with nothing before it, verbose mode).
pub(crate) fn decimal_error(patterns: &[String]) -> Option<String> {
    let shown = patterns.iter().map(|p| format!("(?:{p})")).collect::<Vec<_>>().join("|");
    let c: Vec<char> = shown.chars().collect();
    let (mut i, mut after_atom) = (0, false);
    while i < c.len() {
        match c[i] {
            '\\' => {
                i += match (c.get(i + 1), c.get(i + 2)) {
                    (Some('p' | 'P' | 'x' | 'u' | 'U'), Some('{')) => c[i..].iter().position(|&x| x == '}')? + 1,
                    _ => 2,
                };
                after_atom = true;
            }
            '[' => {
                i = class_end(&c, i)?;
                after_atom = true;
            }
            '(' => {
                i += 1;
                if c.get(i) == Some(&'?') {
                    let end = i + c[i..].iter().position(|&x| matches!(x, ':' | ')' | '>'))?;
                    if c[i..end].contains(&'x') {
                        return None;
                    }
                    i = end + 1;
                }
                after_atom = false;
            }
            '|' => {
                i += 1;
                after_atom = false;
            }
            '*' | '+' | '?' if !after_atom => return None,
            '{' if !after_atom => return None,
            '{' => match c.get(i + 1) {
                // `n`, `n,` or `n,m`; anything else is another of ripgrep's errors.
                Some(d) if d.is_ascii_digit() => i = interval(&c, i + 1)?.0,
                _ => {
                    let caret = format!("{}^", " ".repeat(i + 1));
                    let error = "error: repetition quantifier expects a valid decimal";
                    return Some(format!("rg: regex parse error:\n    {shown}\n    {caret}\n{error}\n"));
                }
            },
            _ => {
                i += 1;
                after_atom = true;
            }
        }
    }
    None
}

/// Where the class opened at `c[at]` ends (just past its `]`): classes nest, a `]` first
/// (after `^`) is a member, a backslash escapes; `None` when it is left open.
fn class_end(c: &[char], at: usize) -> Option<usize> {
    let mut i = at + 1;
    if c.get(i) == Some(&'^') {
        i += 1;
    }
    if c.get(i) == Some(&']') {
        i += 1;
    }
    while i < c.len() {
        match c[i] {
            '\\' => i += 2,
            '[' => i = class_end(c, i)?,
            ']' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::decimal_error;

    fn error(patterns: &[&str]) -> Option<String> {
        decimal_error(&patterns.iter().map(|p| p.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn a_brace_without_a_count_is_ripgreps_error() {
        let e = "error: repetition quantifier expects a valid decimal\n";
        assert_eq!(error(&["m{,2}"]).unwrap(), format!("rg: regex parse error:\n    (?:m{{,2}})\n         ^\n{e}"));
        assert_eq!(
            error(&["x", "m{,2}"]).unwrap(),
            format!("rg: regex parse error:\n    (?:x)|(?:m{{,2}})\n               ^\n{e}")
        );
        assert_eq!(error(&["é{x}"]).unwrap(), format!("rg: regex parse error:\n    (?:é{{x}})\n         ^\n{e}"));
        assert!(error(&["a{}"]).is_some() && error(&["x{,2}{3}"]).is_some() && error(&["(a){,}"]).is_some());
        assert!(error(&["[]{]{,"]).is_some(), "a ] first is in the class");
    }

    #[test]
    fn counts_escapes_and_classes_are_no_error() {
        for ok in
            ["a{2}", "a{2,}", "a{2,3}b", "a\\{,2}", "[{,2}]", "[]{]x", "\\p{L}+", "\\x{41}", "(?i)a{1}", "[[:alpha:]{]"]
        {
            assert_eq!(error(&[ok]), None, "{ok}");
        }
        for other in ["{2}", "a{1,2", "(?x)a {,2}", "[a{,2}", "*{,2}", "a|{,1}"] {
            assert_eq!(error(&[other]), None, "another error, or read otherwise: {other}");
        }
    }
}
