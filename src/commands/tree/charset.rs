//! tree's line drawing per character set (`--charset`, `-S` for IBM437): the line down,
//! the branch, the last branch and the copyright sign of the web page, as tree 2.1's table
//! spells them for each set it knows (names compared without case); any other name, such
//! as `ascii`, draws with `|`, `|--` and `` `-- ``.
//!
//! Most sets draw with bytes that are not UTF-8 (IBM437's `\xB3`, `\xC3\xC4\xC4`). While
//! the walk is written as text, such a byte stands as the private-use character
//! U+E000 + byte ([`is_byte`]); [`finish`] turns the output into bytes, one character per
//! byte, which just-bash passes on as bytes (`stdoutKind: "bytes"`). A name holding such a
//! character under such a set is left to just-bash (see [`LineDraw::bytes`]).

use crate::commands::{Kind, Printed};

/// One set's pieces, each followed by a space when drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LineDraw {
    pub vert: &'static str,
    pub tee: &'static str,
    pub corner: &'static str,
    pub copy: &'static str,
    /// Whether the pieces hold bytes that are not UTF-8.
    pub bytes: bool,
}

impl Default for LineDraw {
    fn default() -> Self {
        UTF8
    }
}

const fn draw(
    vert: &'static str,
    tee: &'static str,
    corner: &'static str,
    copy: &'static str,
    bytes: bool,
) -> LineDraw {
    LineDraw { vert, tee, corner, copy, bytes }
}

/// The locale's set: UTF-8.
pub(super) const UTF8: LineDraw = draw("│\u{a0}\u{a0}", "├──", "└──", "©", false);
const OTHER: LineDraw = draw("|  ", "|--", "`--", "(c)", false);
const IBM_PC: LineDraw = draw("\u{e0b3}  ", "\u{e0c3}\u{e0c4}\u{e0c4}", "\u{e0c0}\u{e0c4}\u{e0c4}", "(c)", true);

/// The sets tree 2.1 names, with their pieces.
const TABLE: &[(&[&str], LineDraw)] = &[
    (
        &[
            "ISO-8859-1",
            "ISO-8859-1:1987",
            "ISO_8859-1",
            "latin1",
            "l1",
            "IBM819",
            "CP819",
            "csISOLatin1",
            "ISO-8859-3",
            "ISO_8859-3:1988",
            "ISO_8859-3",
            "latin3",
            "ls",
            "csISOLatin3",
        ],
        draw("|  ", "|--", "&middot;--", "&copy;", false),
    ),
    (
        &[
            "ISO-8859-7",
            "ISO_8859-7:1987",
            "ISO_8859-7",
            "ELOT_928",
            "ECMA-118",
            "greek",
            "greek8",
            "csISOLatinGreek",
            "ISO-8859-8",
            "ISO_8859-8:1988",
            "iso-ir-138",
            "ISO_8859-8",
            "hebrew",
            "csISOLatinHebrew",
            "ISO-8859-9",
            "ISO_8859-9:1989",
            "iso-ir-148",
            "ISO_8859-9",
            "latin5",
            "l5",
            "csISOLatin5",
        ],
        draw("|  ", "|--", "&middot;--", "(c)", false),
    ),
    (
        &["Shift_JIS", "MS_Kanji", "csShiftJIS"],
        draw("\u{e084}\u{e0a0} ", "\u{e084}\u{e0a5}", "\u{e084}\u{e0a4}", "(c)", true),
    ),
    (
        &["EUC-JP", "Extended_UNIX_Code_Packed_Format_for_Japanese", "csEUCPkdFmtJapanese"],
        draw("\u{e0a8}\u{e0a2} ", "\u{e0a8}\u{e0a7}", "\u{e0a8}\u{e0a6}", "(c)", true),
    ),
    (&["EUC-KR", "csEUCKR"], draw("\u{e0a6}\u{e0a2} ", "\u{e0a6}\u{e0a7}", "\u{e0a6}\u{e0a6}", "(c)", true)),
    (
        &["ISO-2022-JP", "csISO2022JP", "ISO-2022-JP-2", "csISO2022JP2"],
        draw("\x1b$B(\"\x1b(B ", "\x1b$B('\x1b(B", "\x1b$B(&\x1b(B", "(c)", false),
    ),
    (
        &[
            "IBM437",
            "cp437",
            "437",
            "csPC8CodePage437",
            "IBM852",
            "cp852",
            "852",
            "csPCp852",
            "IBM863",
            "cp863",
            "863",
            "csIBM863",
            "IBM855",
            "cp855",
            "855",
            "csIBM855",
            "IBM865",
            "cp865",
            "865",
            "csIBM865",
            "IBM866",
            "cp866",
            "866",
            "csIBM866",
        ],
        IBM_PC,
    ),
    (
        &[
            "IBM850",
            "cp850",
            "850",
            "csPC850Multilingual",
            "IBM00858",
            "CCSID00858",
            "CP00858",
            "PC-Multilingual-850+euro",
        ],
        LineDraw { copy: "\u{e097}", ..IBM_PC },
    ),
    (&["IBM869", "cp869", "869", "cp-gr", "csIBM869"], LineDraw { copy: "\u{e0b8}", ..IBM_PC }),
    (&["GB2312", "csGB2312"], draw("\u{e0a9}\u{e0a6} ", "\u{e0a9}\u{e0c0}", "\u{e0a9}\u{e0b8}", "(c)", true)),
    (&["UTF-8", "utf8"], UTF8),
    (&["Big5", "csBig5"], draw("\u{e0a2}x ", "\u{e0a2}u", "\u{e0a2}|", "(c)", true)),
    (&["VISCII", "csVISCII"], draw("|  ", "|--", "`--", "\u{e0f9}", true)),
    (
        &["KOI8-R", "csKOI8R", "KOI8-U"],
        draw("\u{e081}  ", "\u{e086}\u{e080}\u{e080}", "\u{e084}\u{e080}\u{e080}", "\u{e0bf}", true),
    ),
    (
        &[
            "ISO-8859-1-Windows-3.1-Latin-1",
            "csWindows31Latin1",
            "ISO-8859-2-Windows-Latin-2",
            "csWindows31Latin2",
            "windows-1250",
            "windows-1251",
            "windows-1253",
            "windows-1254",
            "windows-1255",
            "windows-1256",
            "windows-1257",
        ],
        draw("|  ", "|--", "`--", "\u{e0a9}", true),
    ),
];

/// The pieces of the set `name` (the locale's without one).
pub(super) fn line_draw(name: Option<&str>) -> LineDraw {
    let Some(name) = name else { return UTF8 };
    TABLE.iter().find(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(name))).map_or(OTHER, |(_, d)| *d)
}

/// Whether `c` stands for a byte of a line drawing.
pub(super) fn is_byte(c: char) -> bool {
    ('\u{e000}'..='\u{e0ff}').contains(&c)
}

/// The output as bytes when the drawing holds bytes that are not UTF-8.
pub(super) fn finish(mut out: Printed, d: LineDraw) -> Printed {
    if !d.bytes {
        return out;
    }
    let mut bytes = Vec::with_capacity(out.stdout.len());
    for c in out.stdout.chars() {
        match is_byte(c) {
            true => bytes.push((c as u32 - 0xe000) as u8),
            false => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out.stdout = bytes.into_iter().map(char::from).collect();
    out.stdout_kind = Kind::Bytes;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_page_437_lines_are_bytes() {
        assert_eq!(line_draw(Some("cp437")), IBM_PC);
        assert_eq!(line_draw(Some("ascii")), OTHER, "a set tree does not name draws with ASCII");
        assert_eq!(line_draw(None), UTF8);
        let out = Printed { stdout: format!("a\n{} é\n", IBM_PC.corner), ..Printed::default() };
        let out = finish(out, IBM_PC);
        assert_eq!(out.stdout, "a\n\u{c0}\u{c4}\u{c4} \u{c3}\u{a9}\n", "one character a byte, the name's UTF-8 kept");
        assert_eq!(out.stdout_kind, Kind::Bytes);
    }
}
