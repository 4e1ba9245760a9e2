//! grep's `--color=always`: the escape sequences GNU grep 3.8 wraps around the parts of
//! what it prints, with its default colours (`GREP_COLORS` and `GREP_COLOR` unset).
//!
//! Each coloured part is preceded by an SGR start, `ESC [ <colour> m ESC [ K`, and
//! followed by an SGR end, `ESC [ m ESC [ K` (the `ESC [ K` erases to the end of the
//! terminal's line, so that a background colour does not run on). The parts and their
//! colours, as `GREP_COLORS` names them:
//!
//! - `fn=35`: a file name, before a line, a count, or alone under `-l`/`-L`; the NUL of
//!   `-Z` after it is not coloured;
//! - `ln=32` and `bn=32`: a line number and a byte offset, padded under `-T` inside the
//!   colour;
//! - `se=36`: each `:` or `-` after a name, number or offset, and the `--` between
//!   context groups;
//! - `ms=01;31`: each match in a selected line, and each match printed by `-o`;
//! - `mc=01;31`: each match in a context line — under `-v` only, where context lines are
//!   the ones that match. A line's matches are coloured only when the line matches, as
//!   GNU grep sees it: selected lines without `-v`, context lines with it. A matching
//!   line printed as context past `-m`'s limit is not coloured.
//!
//! The rest — the text between matches, the line's end, a count, `binary file matches`
//! — is printed as it is (`sl` and `cx` are empty by default).

use std::fmt::Write;

/// `fn`: a file name.
pub(crate) const FILE_NAME: &str = "35";
/// `ln`: a line number.
pub(crate) const LINE_NUMBER: &str = "32";
/// `bn`: a byte offset.
pub(crate) const BYTE_OFFSET: &str = "32";
/// `se`: a separator.
pub(crate) const SEPARATOR: &str = "36";
/// `ms` and `mc`: a match, in a selected line or a context one.
pub(crate) const MATCH: &str = "01;31";

/// Appends `text` to `out`, in `colour` when `on`.
pub(crate) fn paint(out: &mut String, on: bool, colour: &str, text: &str) {
    start(out, on, colour);
    out.push_str(text);
    end(out, on);
}

/// Appends what `args` format to `out`, in `colour` when `on`.
pub(crate) fn paint_args(out: &mut String, on: bool, colour: &str, args: std::fmt::Arguments) {
    start(out, on, colour);
    out.write_fmt(args).unwrap();
    end(out, on);
}

/// The SGR start of `colour`.
fn start(out: &mut String, on: bool, colour: &str) {
    if on {
        out.push_str("\x1b[");
        out.push_str(colour);
        out.push_str("m\x1b[K");
    }
}

/// The SGR end.
fn end(out: &mut String, on: bool) {
    if on {
        out.push_str("\x1b[m\x1b[K");
    }
}

/// Appends `line` to `out` with each of `matches` (slices of `line`, left to right, none
/// empty) coloured as a match.
pub(crate) fn line_with_matches<'a>(out: &mut String, line: &'a str, matches: impl Iterator<Item = &'a str>) {
    let base = line.as_ptr() as usize;
    let mut done = 0;
    for m in matches {
        let at = m.as_ptr() as usize - base;
        out.push_str(&line[done..at]);
        paint(out, true, MATCH, m);
        done = at + m.len();
    }
    out.push_str(&line[done..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_wrapped_in_sgr_start_and_end() {
        let mut out = String::new();
        paint(&mut out, true, FILE_NAME, "x");
        paint(&mut out, false, SEPARATOR, ":");
        assert_eq!(out, "\x1b[35m\x1b[Kx\x1b[m\x1b[K:");
        let line = "a mint mint!";
        let mut out = String::new();
        line_with_matches(&mut out, line, [&line[2..6], &line[7..11]].into_iter());
        assert_eq!(out, "a \x1b[01;31m\x1b[Kmint\x1b[m\x1b[K \x1b[01;31m\x1b[Kmint\x1b[m\x1b[K!");
    }
}
