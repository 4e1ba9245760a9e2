//! The path tree's transport encoding: gzip, then base64.
//!
//! A tree for thousands of pages is hundreds of KiB of JSON; gzip shrinks it about
//! sevenfold. Browsers have `DecompressionStream` but Vercel's edge runtime does not, and
//! Node's `zlib` exists nowhere else, so the codec lives here, in Rust, on `miniz_oxide`.
//! Decoding is bounded by the caller: a hostile tree cannot inflate past its limit.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodecError(pub String);

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(msg: impl Into<String>) -> CodecError {
    CodecError(msg.into())
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub(crate) fn base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Each byte's value as a base64 digit (standard and URL-safe alphabets), or [`NOT_DIGIT`].
const DIGITS: [u8; 256] = {
    let mut t = [NOT_DIGIT; 256];
    let mut i = 0;
    while i < 64 {
        t[B64[i] as usize] = i as u8;
        i += 1;
    }
    t[b'-' as usize] = 62;
    t[b'_' as usize] = 63;
    t
};
const NOT_DIGIT: u8 = 0xff;

/// Standard or URL-safe base64; whitespace is ignored and padding is optional.
pub(crate) fn base64_decode(text: &str) -> Result<Vec<u8>, CodecError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    // Whole groups of four digits, the bulk of any document, three bytes at a time; the
    // rest (whitespace, padding, errors) goes through the careful loop below.
    let mut start = 0;
    for group in bytes.chunks_exact(4) {
        let d = [
            DIGITS[group[0] as usize],
            DIGITS[group[1] as usize],
            DIGITS[group[2] as usize],
            DIGITS[group[3] as usize],
        ];
        if d.contains(&NOT_DIGIT) {
            break;
        }
        let n = (d[0] as u32) << 18 | (d[1] as u32) << 12 | (d[2] as u32) << 6 | d[3] as u32;
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
        start += 4;
    }
    let (mut acc, mut bits, mut padding) = (0u32, 0u32, 0usize);
    for (pos, &c) in bytes.iter().enumerate().skip(start) {
        let v = match c {
            b'=' => {
                padding += 1;
                continue;
            }
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ if DIGITS[c as usize] != NOT_DIGIT => DIGITS[c as usize],
            _ => return Err(err(format!("invalid base64 character at offset {pos}"))),
        };
        if padding > 0 {
            return Err(err("base64 data after padding"));
        }
        acc = acc << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 || padding > 2 {
        return Err(err("truncated base64 data"));
    }
    Ok(out)
}

/// CRC-32 tables for eight bytes at a time: `tables[k][b]` is byte `b`'s remainder
/// followed by `k` zero bytes. Built on first use rather than stored in the module (8 KiB).
fn crc_tables() -> &'static [[u32; 256]; 8] {
    static TABLES: std::sync::OnceLock<Box<[[u32; 256]; 8]>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Box::new([[0u32; 256]; 8]);
        for i in 0..256 {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
            t[0][i] = c;
        }
        for k in 1..8 {
            for i in 0..256 {
                let prev = t[k - 1][i];
                t[k][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            }
        }
        t
    })
}

pub(crate) fn crc32(data: &[u8]) -> u32 {
    let crc = crc_tables();
    let mut c = !0u32;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let lo = c ^ u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        c = crc[7][(lo & 0xff) as usize]
            ^ crc[6][(lo >> 8 & 0xff) as usize]
            ^ crc[5][(lo >> 16 & 0xff) as usize]
            ^ crc[4][(lo >> 24) as usize]
            ^ crc[3][w[4] as usize]
            ^ crc[2][w[5] as usize]
            ^ crc[1][w[6] as usize]
            ^ crc[0][w[7] as usize];
    }
    for &b in words.remainder() {
        c = crc[0][((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// Wraps `data` in a single gzip member (RFC 1952).
pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    out.extend(miniz_oxide::deflate::compress_to_vec(data, 9));
    out.extend(crc32(data).to_le_bytes());
    out.extend((data.len() as u32).to_le_bytes());
    out
}

/// Inflates one gzip member to at most `limit` bytes, checking its CRC and length.
pub(crate) fn gunzip(data: &[u8], limit: usize) -> Result<Vec<u8>, CodecError> {
    if data.len() < 18 || data[0] != 0x1f || data[1] != 0x8b {
        return Err(err("not gzip data"));
    }
    if data[2] != 8 {
        return Err(err("unsupported gzip compression method"));
    }
    let flags = data[3];
    let mut pos = 10;
    let need = |pos: usize, n: usize| if pos + n > data.len() { Err(err("truncated gzip header")) } else { Ok(()) };
    if flags & 4 != 0 {
        need(pos, 2)?;
        let xlen = u16::from_le_bytes([data[pos], data[pos + 1]]) as usize;
        pos += 2;
        need(pos, xlen)?;
        pos += xlen;
    }
    for flag in [8u8, 16] {
        if flags & flag != 0 {
            let end = data[pos..].iter().position(|&b| b == 0).ok_or_else(|| err("truncated gzip header"))?;
            pos += end + 1;
        }
    }
    if flags & 2 != 0 {
        pos += 2;
    }
    if pos + 8 > data.len() {
        return Err(err("truncated gzip data"));
    }
    let body = &data[pos..data.len() - 8];
    let out = miniz_oxide::inflate::decompress_to_vec_with_limit(body, limit).map_err(|e| match e.status {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => err(format!("gzip data inflates past {limit} bytes")),
        _ => err("corrupt gzip data"),
    })?;
    let trailer = &data[data.len() - 8..];
    let crc = u32::from_le_bytes(trailer[0..4].try_into().unwrap());
    let len = u32::from_le_bytes(trailer[4..8].try_into().unwrap());
    if crc != crc32(&out) || len != out.len() as u32 {
        return Err(err("gzip checksum mismatch"));
    }
    Ok(out)
}

/// FNV-1a, 64 bits: a cheap, stable fingerprint (not a security boundary).
pub(crate) fn fingerprint(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for n in 0..20 {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(base64_decode(&base64_encode(&data)).unwrap(), data);
        }
        assert_eq!(base64_encode(b"hello"), "aGVsbG8=");
        assert_eq!(base64_decode("aGVs\nbG8").unwrap(), b"hello");
        assert!(base64_decode("aGV$").is_err());
        assert!(base64_decode("a").is_err());
        assert!(base64_decode("aG==xx").is_err());
        assert_eq!(base64_decode("aGVsbG8gd29y").unwrap(), b"hello wor", "whole groups");
        assert_eq!(base64_decode("aGVs bG8=").unwrap(), b"hello", "a blank after whole groups");
        assert_eq!(base64_decode("_-__").unwrap(), [0xff, 0xef, 0xff], "URL-safe digits");
        assert_eq!(base64_decode("aGVsbG8$").unwrap_err().to_string(), "invalid base64 character at offset 7");
        assert!(base64_decode("aGVsbG8=aGVs").is_err(), "data after padding");
    }

    #[test]
    fn gzip_round_trips_and_checks() {
        let data = b"{\"a.md\":{\"isPublic\":true}}".repeat(50);
        let gz = gzip(&data);
        assert_eq!(gunzip(&gz, 1 << 20).unwrap(), data);
        let mut bad = gz.clone();
        let n = bad.len();
        bad[n - 5] ^= 1;
        assert_eq!(gunzip(&bad, 1 << 20).unwrap_err().to_string(), "gzip checksum mismatch");
        assert!(gunzip(&gz[..gz.len() / 2], 1 << 20).is_err());
        assert_eq!(gunzip(b"plain text, not gzip", 1 << 20).unwrap_err().to_string(), "not gzip data");
        assert_eq!(gunzip(&gz, 10).unwrap_err().to_string(), "gzip data inflates past 10 bytes");
    }

    #[test]
    fn crc_matches_reference() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        // Every length around the eight-byte steps, against the bit-at-a-time definition.
        let slow = |data: &[u8]| {
            let mut c = !0u32;
            for &b in data {
                c ^= b as u32;
                for _ in 0..8 {
                    c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                }
            }
            !c
        };
        let data: Vec<u8> = (0..100u32).map(|i| (i * 151 + 7) as u8).collect();
        for n in 0..data.len() {
            assert_eq!(crc32(&data[..n]), slow(&data[..n]), "{n} bytes");
        }
    }
}
