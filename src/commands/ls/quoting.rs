//! `--quoting-style` (and `-Q`, `-N`, `-b`): how GNU `ls` spells a name whose output is
//! not a terminal.
//!
//! The default is `literal`, the name as it is. The shell styles quote a name with `'…'`
//! when a shell would read one of its characters specially (`"…"` when the name holds a
//! `'` and nothing a shell expands inside double quotes); the C styles put it in `"…"` with
//! `\"` and `\\`; `escape` writes `\ ` for a space and `\\` for a backslash; the locale
//! styles use `‘…’`. A name with a control character is not modelled ([`quoted`] says so):
//! each style spells those its own way.

/// A `--quoting-style`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Quoting {
    #[default]
    Literal,
    Shell,
    ShellAlways,
    ShellEscape,
    ShellEscapeAlways,
    C,
    CMaybe,
    Escape,
    Locale,
    CLocale,
}

impl Quoting {
    /// The style a `--quoting-style` word names, as GNU `ls` spells them.
    pub(crate) fn named(word: &str) -> Option<Quoting> {
        Some(match word {
            "literal" => Quoting::Literal,
            "shell" => Quoting::Shell,
            "shell-always" => Quoting::ShellAlways,
            "shell-escape" => Quoting::ShellEscape,
            "shell-escape-always" => Quoting::ShellEscapeAlways,
            "c" => Quoting::C,
            "c-maybe" => Quoting::CMaybe,
            "escape" => Quoting::Escape,
            "locale" => Quoting::Locale,
            "clocale" => Quoting::CLocale,
            _ => return None,
        })
    }
}

/// Whether a shell would read `c` specially at `at` in a word.
fn shell_special(c: char, at: usize) -> bool {
    matches!(
        c,
        ' ' | '!'
            | '"'
            | '$'
            | '&'
            | '\''
            | '('
            | ')'
            | '*'
            | ';'
            | '<'
            | '='
            | '>'
            | '?'
            | '['
            | '\\'
            | '^'
            | '`'
            | '|'
    ) || (at == 0 && matches!(c, '#' | '~'))
}

/// `name` as `style` spells it; `None` for a name with a control character.
pub(crate) fn quoted(name: &str, style: Quoting) -> Option<String> {
    if name.chars().any(char::is_control) && style != Quoting::Literal {
        return None;
    }
    let escaped = |specials: &[char]| {
        let mut s = String::with_capacity(name.len() + 2);
        for c in name.chars() {
            if specials.contains(&c) {
                s.push('\\');
            }
            s.push(c);
        }
        s
    };
    let single = || format!("'{}'", name.replace('\'', "'\\''"));
    let shell = |always: bool| {
        let needs = name.is_empty() || name.chars().enumerate().any(|(i, c)| shell_special(c, i));
        if !needs && !always {
            name.to_string()
        } else if name.contains('\'') && !name.contains(['"', '$', '`', '\\', '!']) {
            format!("\"{name}\"")
        } else {
            single()
        }
    };
    Some(match style {
        Quoting::Literal => name.to_string(),
        Quoting::Shell | Quoting::ShellEscape => shell(false),
        Quoting::ShellAlways | Quoting::ShellEscapeAlways => shell(true),
        Quoting::C => format!("\"{}\"", escaped(&['"', '\\'])),
        Quoting::CMaybe if name.contains('"') => format!("\"{}\"", escaped(&['"', '\\'])),
        Quoting::CMaybe => name.to_string(),
        Quoting::Escape => escaped(&[' ', '\\']),
        Quoting::Locale | Quoting::CLocale => format!("‘{}’", escaped(&['\\'])),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_as_gnu_ls_quotes_them() {
        // What GNU ls 9.1 printed for these names, style by style.
        let q = |n: &str, s| quoted(n, s).unwrap();
        assert_eq!(q("a b.md", Quoting::Literal), "a b.md");
        assert_eq!(q("a b.md", Quoting::Shell), "'a b.md'");
        assert_eq!(q("page.md", Quoting::Shell), "page.md");
        assert_eq!(q("page.md", Quoting::ShellAlways), "'page.md'");
        assert_eq!(q("a'b", Quoting::Shell), "\"a'b\"");
        assert_eq!((q("a#b", Quoting::Shell), q("#x", Quoting::Shell)), ("a#b".into(), "'#x'".into()));
        assert_eq!(
            (q("a{b", Quoting::Shell), q("a~b", Quoting::Shell), q("~x", Quoting::Shell)),
            ("a{b".into(), "a~b".into(), "'~x'".into())
        );
        assert_eq!(q("a=b", Quoting::Shell), "'a=b'");
        assert_eq!(q("a\"b", Quoting::C), "\"a\\\"b\"");
        assert_eq!(q("a\\b", Quoting::C), "\"a\\\\b\"");
        assert_eq!((q("a\\b", Quoting::CMaybe), q("a\"b", Quoting::CMaybe)), ("a\\b".into(), "\"a\\\"b\"".into()));
        assert_eq!(q("a b\\c", Quoting::Escape), "a\\ b\\\\c");
        assert_eq!(q("a\\b", Quoting::Locale), "‘a\\\\b’");
        assert_eq!(quoted("a\nb", Quoting::Shell), None);
        assert_eq!(Quoting::named("clocale"), Some(Quoting::CLocale));
    }
}
