//! GNU's quoting of names in output and messages: gnulib's `quotearg`, as coreutils, ls
//! and diffutils call it in the `C.UTF-8` locale. The one place chromafs writes it.
//!
//! A [`Style`] is one of `ls --quoting-style`'s; [`quoted`] spells a name in it. The shell
//! styles put a name in `'…'` (`"…"` when it holds a `'` and nothing a shell reads
//! specially inside double quotes), write a `'` as `'\''` and, in the escape styles, a
//! control character as `$'\n'`; the plain ones (`shell`, `shell-escape`) quote only a name
//! a shell would not read as one word. The C styles use `"…"` and C's escapes, `escape`
//! the escapes alone, the locale styles `‘…’`. coreutils' messages call three of them:
//! [`quoteaf`], [`quotef`] and [`quote`].

/// A quoting style, as `ls --quoting-style` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Style {
    /// The name as it is.
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

impl Style {
    /// The style a `--quoting-style` word names.
    pub(crate) fn named(word: &str) -> Option<Style> {
        Some(match word {
            "literal" => Style::Literal,
            "shell" => Style::Shell,
            "shell-always" => Style::ShellAlways,
            "shell-escape" => Style::ShellEscape,
            "shell-escape-always" => Style::ShellEscapeAlways,
            "c" => Style::C,
            "c-maybe" => Style::CMaybe,
            "escape" => Style::Escape,
            "locale" => Style::Locale,
            "clocale" => Style::CLocale,
            _ => return None,
        })
    }
}

/// A file name in a message, always quoted: coreutils' `quoteaf` (`'a b'`, `"it's"`,
/// `'a'$'\n''b'`), which most of its messages use.
pub(crate) fn quoteaf(name: &str) -> String {
    quoted(name, Style::ShellEscapeAlways, &[])
}

/// A file name before a `:` in a message, quoted only when a shell would need it or it
/// holds a `:`: coreutils' `quotef` (`wc: x: No such file or directory`).
pub(crate) fn quotef(name: &str) -> String {
    quoted(name, Style::ShellEscape, &[':'])
}

/// A word in a message, in the locale's quotation marks: gnulib's `quote` (`‘word’`).
pub(crate) fn quote(word: &str) -> String {
    quoted(word, Style::Locale, &[])
}

/// `name` as `style` spells it, the characters of `also` quoted too (with a backslash in
/// the C and escape styles; by quoting the whole name in the plain shell styles).
pub(crate) fn quoted(name: &str, style: Style, also: &[char]) -> String {
    match style {
        Style::Literal => name.to_string(),
        Style::Shell | Style::ShellEscape if !shell_needs_quotes(name, style == Style::ShellEscape, also) => {
            name.to_string()
        }
        Style::Shell | Style::ShellAlways => shell(name, false),
        Style::ShellEscape | Style::ShellEscapeAlways => shell(name, true),
        Style::C => escaped(name, Some(('"', '"')), also),
        Style::CMaybe if name.chars().any(|c| c == '"' || !printable(c) || also.contains(&c)) => {
            escaped(name, Some(('"', '"')), also)
        }
        // A backslash needs no escape when nothing is quoted.
        Style::CMaybe => name.to_string(),
        Style::Escape => escaped(name, None, also),
        Style::Locale | Style::CLocale => escaped(name, Some(('‘', '’')), also),
    }
}

/// Characters a shell reads specially anywhere in a word.
const SHELL_SPECIAL: &str = " !\"$&'()*;<=>?[\\^`|";

/// Whether a shell would read `name` as something other than one plain word: what the
/// plain shell styles quote. `escapes`: control characters are written as escapes (inside
/// quotes), and so quote the name.
fn shell_needs_quotes(name: &str, escapes: bool, also: &[char]) -> bool {
    name.is_empty()
        || name.chars().enumerate().any(|(i, c)| {
            SHELL_SPECIAL.contains(c)
                || matches!(c, '\n' | '\r' | '\t')
                || (escapes && !printable(c))
                || (i == 0 && matches!(c, '#' | '~'))
                || (name.len() == 1 && matches!(c, '{' | '}'))
                || also.contains(&c)
        })
}

/// `name` in single quotes (`'\''` for a `'`; with `escapes`, `$'…'` around control
/// characters), or in double quotes when it holds a `'` and every character reads alike
/// in C's double quotes and a shell's.
fn shell(name: &str, escapes: bool) -> String {
    let alike = |(i, c): (usize, char)| match c {
        ' ' | '\'' => true,
        '#' | '~' => i == 0,
        '{' | '}' => name.len() == 1,
        c => printable(c) && !SHELL_SPECIAL.contains(c),
    };
    if name.contains('\'') && name.chars().enumerate().all(alike) {
        return format!("\"{name}\"");
    }
    let mut out = String::with_capacity(name.len() + 2);
    out.push('\'');
    // Inside a `$'…'` opened for an escape.
    let mut in_escape = false;
    for c in name.chars() {
        if escapes && !printable(c) {
            if !in_escape {
                out.push_str("'$'");
                in_escape = true;
            }
            push_escape(&mut out, c, None);
            continue;
        }
        if c == '\'' {
            out.push_str("'\\'");
            in_escape = false;
        } else if in_escape {
            out.push_str("''");
            in_escape = false;
        }
        out.push(c);
    }
    out.push('\'');
    out
}

/// `name` with C's backslash escapes (a backslash, control characters, the closing quote,
/// the characters of `also`), between `quotes` when given.
fn escaped(name: &str, quotes: Option<(char, char)>, also: &[char]) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.extend(quotes.map(|q| q.0));
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if !printable(c) {
            push_escape(&mut out, c, chars.peek().copied());
        } else if c == '\\' || quotes.is_some_and(|q| q.1 == c) || also.contains(&c) {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out.extend(quotes.map(|q| q.1));
    out
}

/// A character gnulib writes as an escape: `\n`, `\t`…, or its bytes in octal (`\0` for a
/// NUL, `\000` before a digit). `next` is the character after it.
fn push_escape(out: &mut String, c: char, next: Option<char>) {
    let letter = match c {
        '\u{7}' => 'a',
        '\u{8}' => 'b',
        '\u{c}' => 'f',
        '\n' => 'n',
        '\r' => 'r',
        '\t' => 't',
        '\u{b}' => 'v',
        '\0' => {
            out.push_str(if next.is_some_and(|n| n.is_ascii_digit()) { "\\000" } else { "\\0" });
            return;
        }
        c => {
            let mut bytes = [0u8; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("\\{b:03o}"));
            }
            return;
        }
    };
    out.push('\\');
    out.push(letter);
}

/// Whether gnulib prints `c` as it is in `C.UTF-8`: anything but a control character.
fn printable(c: char) -> bool {
    !c.is_control()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(name: &str, style: Style) -> String {
        quoted(name, style, &[])
    }

    #[test]
    fn names_are_quoted_as_gnu_ls_quotes_them() {
        // What GNU ls 9.1 printed for these names, style by style.
        assert_eq!(q("a b.md", Style::Literal), "a b.md");
        assert_eq!(q("a b.md", Style::Shell), "'a b.md'");
        assert_eq!(q("page.md", Style::Shell), "page.md");
        assert_eq!(q("page.md", Style::ShellAlways), "'page.md'");
        assert_eq!(q("a'b", Style::Shell), "\"a'b\"");
        assert_eq!((q("a#b", Style::Shell), q("#x", Style::Shell)), ("a#b".into(), "'#x'".into()));
        assert_eq!(
            (q("a{b", Style::Shell), q("a~b", Style::Shell), q("~x", Style::Shell), q("{", Style::Shell)),
            ("a{b".into(), "a~b".into(), "'~x'".into(), "'{'".into())
        );
        assert_eq!(q("a=b", Style::Shell), "'a=b'");
        assert_eq!(q("a\"b", Style::C), "\"a\\\"b\"");
        assert_eq!(q("a\\b", Style::C), "\"a\\\\b\"");
        assert_eq!((q("a\\b", Style::CMaybe), q("a\"b", Style::CMaybe)), ("a\\b".into(), "\"a\\\"b\"".into()));
        assert_eq!(quoted("a b\\c", Style::Escape, &[' ']), "a\\ b\\\\c");
        assert_eq!(q("a\\b", Style::Locale), "‘a\\\\b’");
        assert_eq!(q("a’b", Style::Locale), "‘a\\’b’");
        assert_eq!(Style::named("clocale"), Some(Style::CLocale));
    }

    #[test]
    fn a_quote_is_double_quoted_only_when_every_character_allows_it() {
        // What GNU ls 9.1 printed with --quoting-style=shell.
        for (name, shown) in [
            ("it's]", "\"it's]\""),
            ("it's%", "\"it's%\""),
            ("it's x", "\"it's x\""),
            ("it's!", "'it'\\''s!'"),
            ("it's&", "'it'\\''s&'"),
            ("it's{", "'it'\\''s{'"),
            ("it's#", "'it'\\''s#'"),
            ("it's~", "'it'\\''s~'"),
            ("it's\\", "'it'\\''s\\'"),
        ] {
            assert_eq!(q(name, Style::Shell), shown, "{name}");
        }
    }

    #[test]
    fn messages_quote_as_coreutils_does() {
        // What coreutils 9.1 printed in its messages.
        assert_eq!(quoteaf("a b"), "'a b'");
        assert_eq!(quoteaf("it's"), "\"it's\"");
        assert_eq!(quoteaf("no it's!"), "'no it'\\''s!'");
        assert_eq!(quoteaf("a\n"), "'a'$'\\n'");
        assert_eq!(quoteaf("a\nb"), "'a'$'\\n''b'");
        assert_eq!(quoteaf("\u{7}\u{1}'"), "''$'\\a\\001'\\'''");
        assert_eq!(quoteaf("\u{7f}\u{85}"), "''$'\\177\\302\\205'");
        assert_eq!(quotef("x\ny:"), "'x'$'\\n''y:'");
        assert_eq!(quoteaf(""), "''");
        assert_eq!((quotef("x!y"), quotef("a/b.md"), quotef("a:b")), ("'x!y'".into(), "a/b.md".into(), "'a:b'".into()));
        assert_eq!(
            (quotef("a{b"), quotef("]"), quotef("~a"), quotef("a~")),
            ("a{b".into(), "]".into(), "'~a'".into(), "a~".into())
        );
        assert_eq!(quote("x y"), "‘x y’");
    }
}
