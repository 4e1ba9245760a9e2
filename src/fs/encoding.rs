//! just-bash's text encodings: how `readFile` turns bytes into a string, and how
//! `writeFile` turns a string back into bytes.

/// Decodes bytes as just-bash's `readFile` does for its encodings.
pub(crate) fn decode(bytes: &[u8], encoding: Option<&str>) -> String {
    match encoding {
        Some("binary") | Some("latin1") => bytes.iter().map(|&b| b as char).collect(),
        Some("hex") => bytes.iter().map(|b| format!("{b:02x}")).collect(),
        Some("base64") => crate::tree::codec::base64_encode(bytes),
        // TextDecoder: UTF-8, a leading BOM dropped, invalid sequences replaced.
        _ => text(bytes).into_owned(),
    }
}

/// A page as just-bash's `readFile` reads it (UTF-8, BOM dropped, invalid sequences
/// replaced), borrowed when the bytes are already that text.
pub(crate) fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // Validation alone is several times faster than the lossy decoder: try it first.
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Encodes a string as just-bash's `writeFile` does: `binary` keeps the low byte of each
/// character (shell pipelines carry bytes that way), `hex` and `base64` are decoded up to
/// the first character that is not theirs, anything else is UTF-8.
pub(crate) fn encode(text: &str, encoding: Option<&str>) -> Vec<u8> {
    match encoding {
        Some("binary") | Some("latin1") => text.chars().map(|c| c as u32 as u8).collect(),
        Some("hex") => text
            .as_bytes()
            .chunks_exact(2)
            .map_while(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
            .collect(),
        Some("base64") => {
            let valid: String =
                text.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')).collect();
            crate::tree::codec::base64_decode(&valid).unwrap_or_default()
        }
        _ => text.as_bytes().to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_round_trip() {
        let bytes = [0u8, 0x7f, 0x80, 0xff, b'a'];
        for enc in ["binary", "latin1", "hex", "base64"] {
            assert_eq!(encode(&decode(&bytes, Some(enc)), Some(enc)), bytes, "{enc}");
        }
        assert_eq!(encode("héllo", None), "héllo".as_bytes());
        assert_eq!(encode("6869zz", Some("hex")), b"hi");
    }
}
