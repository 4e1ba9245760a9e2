//! Text and bytes: the pattern space is text, input and output are bytes. Bytes that are
//! not UTF-8 are carried as characters of a private range and written back as they were.

use crate::base::cescape;

/// The first character standing for a byte that is not UTF-8.
const RAW: u32 = 0x10_FF00;

/// Bytes as text, each byte that is not UTF-8 as a character of [`RAW`]'s range.
pub(super) fn decode(b: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(b) {
        return s.to_string();
    }
    let mut s = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        s.push_str(chunk.valid());
        for &x in chunk.invalid() {
            s.push(char::from_u32(RAW + u32::from(x)).unwrap_or('\u{FFFD}'));
        }
    }
    s
}

/// Text back to its bytes (see [`decode`]).
pub(super) fn encode(s: &str, out: &mut Vec<u8>) {
    if !s.chars().any(|c| c as u32 >= RAW) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    for c in s.chars() {
        if c as u32 >= RAW && c as u32 <= RAW + 0xFF {
            out.push((c as u32 - RAW) as u8);
        } else {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
}

/// `l`'s form of `bytes`: escapes for what is not printable ASCII, lines wrapped to
/// `width` columns with a backslash (0: never), `$` at the end.
pub(super) fn listed(bytes: &[u8], width: usize, delim: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut col = 0;
    for &b in bytes {
        let piece = match (b, cescape::name_of(b)) {
            (b'\\', _) => "\\\\".to_string(),
            (_, Some(name)) => name.into(),
            (b' '..=b'~', None) => (b as char).to_string(),
            _ => format!("\\{b:03o}"),
        };
        if width > 0 && col + piece.len() > width - 1 {
            out.extend_from_slice(b"\\\n");
            col = 0;
        }
        col += piece.len();
        out.extend_from_slice(piece.as_bytes());
    }
    out.extend_from_slice(&[b'$', delim]);
    out
}
