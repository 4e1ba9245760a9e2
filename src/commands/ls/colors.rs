//! `ls --color=always` and `--hyperlink=always`: the escape sequences GNU `ls` 9 prints
//! around names.
//!
//! Colours are GNU's built-in ones, which `ls` uses when `LS_COLORS` is unset and `TERM`
//! names a terminal it knows (with no `TERM` it prints none): a directory `01;34` (bold
//! blue); a regular file, whatever its extension, none — extensions have colours only in
//! the database `dircolors` puts in `LS_COLORS`. The docs' files are not executable and
//! their directories neither sticky nor writable by others, so no other colour applies.
//!
//! A coloured name is `ESC[01;34m` NAME `ESC[0m`; the first one of the output is preceded
//! by `ESC[0m`, once, and nothing is printed at the end. When a coloured name might run
//! past the end of a line (its bytes, counted from where GNU thinks it starts, cross a
//! multiple of the line width), `ESC[K` follows it. Names are padded and wrapped as they
//! would be without colours (the escapes take no room on the screen), but `-C` and `-x`
//! pad with spaces alone, never tabs.
//!
//! A hyperlink is OSC 8: `ESC]8;;file://HOST/PATH BEL` NAME `ESC]8;; BEL`, inside the
//! colour, with the absolute path of the entry, its bytes other than letters, digits, `-`,
//! `.`, `_`, `~` and `/` written `%xx`. The host is [`HOST`]. Directory headers (`dir:`)
//! are linked too, not coloured. `--dired` prints nothing under `--hyperlink`; with
//! colours its byte offsets leave the escape sequences out.

use std::fmt::Write;

/// The host name in links: the docs have none of their own; `localhost` is what the
/// shell's `hostname` and `$HOSTNAME` say.
pub(crate) const HOST: &str = "localhost";

/// Directories' colour in GNU `ls`'s built-in database.
const DIRECTORY: &str = "01;34";

/// What wraps names, and whether a colour has been printed yet.
#[derive(Debug, Default)]
pub(crate) struct Paint {
    color: bool,
    hyperlink: bool,
    /// The line width `ESC[K` is judged by (0: none).
    line: usize,
    used: bool,
    /// Bytes of escape sequences written so far, which `--dired`'s offsets do not count.
    escaped: usize,
}

impl Paint {
    pub(crate) fn new(color: bool, hyperlink: bool, line: usize) -> Paint {
        Paint { color, hyperlink, line, used: false, escaped: 0 }
    }

    /// Writes `shown` (the name as quoted) of the entry at `path`, a directory or not,
    /// starting at column `start` as GNU counts it.
    pub(crate) fn name(&mut self, out: &mut String, shown: &str, path: &str, dir: bool, start: usize) {
        let before = out.len();
        let colored = self.color && dir;
        if colored {
            if !self.used {
                out.push_str("\x1b[0m");
                self.used = true;
            }
            write!(out, "\x1b[{DIRECTORY}m").unwrap();
        }
        self.link(out, shown, path);
        if colored {
            out.push_str("\x1b[0m");
            let len = shown.len();
            if self.line > 0 && len > 0 && start / self.line != (start + len - 1) / self.line {
                out.push_str("\x1b[K");
            }
        }
        self.escaped += out.len() - before - shown.len();
    }

    /// Where `--dired` counts the end of `out` to be: escape sequences not counted.
    pub(crate) fn offset(&self, out: &str) -> usize {
        out.len() - self.escaped
    }

    /// Writes `shown`, linked to `path` under `--hyperlink`.
    pub(crate) fn link(&self, out: &mut String, shown: &str, path: &str) {
        if !self.hyperlink {
            out.push_str(shown);
            return;
        }
        write!(out, "\x1b]8;;file://{HOST}{}", if path.starts_with('/') { "" } else { "/" }).unwrap();
        for b in path.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
                out.push(b as char);
            } else {
                write!(out, "%{b:02x}").unwrap();
            }
        }
        write!(out, "\x07{shown}\x1b]8;;\x07").unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_wrapped_as_gnu_ls_wraps_them() {
        // Bytes GNU ls 9.1 printed (`ls --color=always`, `--hyperlink=always`, LS_COLORS
        // unset, TERM=xterm), its host name replaced by `localhost`.
        let mut p = Paint::new(true, false, 80);
        let mut out = String::new();
        p.name(&mut out, "a.md", "/a.md", false, 0);
        out.push('\n');
        p.name(&mut out, "api", "/api", true, 0);
        out.push('\n');
        p.name(&mut out, "guide", "/guide", true, 0);
        assert_eq!(out, "a.md\n\x1b[0m\x1b[01;34mapi\x1b[0m\n\x1b[01;34mguide\x1b[0m");
        let mut out = String::new();
        p.name(&mut out, &"e".repeat(85), "/e", true, 0);
        p.name(&mut out, &"f".repeat(80), "/f", true, 16);
        p.name(&mut out, &"h".repeat(42), "/h", true, 16);
        let k = |n: usize, c: &str| format!("\x1b[01;34m{}\x1b[0m", c.repeat(n));
        assert_eq!(out, format!("{}\x1b[K{}\x1b[K{}", k(85, "e"), k(80, "f"), k(42, "h")));

        let mut p = Paint::new(true, true, 80);
        let mut out = String::new();
        p.name(&mut out, "sub", "/guide/sub", true, 0);
        p.name(&mut out, "ü%#?.md", "/sp ace/ü%#?.md", false, 0);
        p.name(&mut out, "/", "/", true, 0);
        assert_eq!(
            out,
            "\x1b[0m\x1b[01;34m\x1b]8;;file://localhost/guide/sub\x07sub\x1b]8;;\x07\x1b[0m\
             \x1b]8;;file://localhost/sp%20ace/%c3%bc%25%23%3f.md\x07ü%#?.md\x1b]8;;\x07\
             \x1b[01;34m\x1b]8;;file://localhost/\x07/\x1b]8;;\x07\x1b[0m"
        );
    }
}
