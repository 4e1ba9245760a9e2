//! A posting list: the pages (by number, ascending) that hold one piece of text.
//!
//! Two encodings, whichever is shorter: the gaps between numbers as variable-length
//! integers (a rare piece: a byte or two a page), or a bitmap from the first page on (a
//! common one, in most pages: an eighth of a byte a page). A piece found in every one of
//! 50,000 pages then costs 6 KiB, so one always fits a record of the collection.

/// Appends `n` as a variable-length integer: seven bits a byte, the high bit set on all
/// but the last.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A variable-length integer at `bytes[*at..]`, moving `at` past it; `None` when the bytes
/// end first or it is longer than a `u64`.
pub(crate) fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        n |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(n);
        }
    }
    None
}

const GAPS: u8 = 0;
const BITMAP: u8 = 1;

/// `pages` (ascending, distinct) encoded.
pub(crate) fn encode(pages: &[u32]) -> Vec<u8> {
    let mut gaps = vec![GAPS];
    let mut last = 0u32;
    for (i, &p) in pages.iter().enumerate() {
        put_varint(&mut gaps, u64::from(if i == 0 { p } else { p - last }));
        last = p;
    }
    let (Some(&first), Some(&end)) = (pages.first(), pages.last()) else { return gaps };
    let span = (end - first) as usize / 8 + 1;
    if span + 12 >= gaps.len() {
        return gaps;
    }
    let mut bitmap = vec![BITMAP];
    put_varint(&mut bitmap, u64::from(first));
    put_varint(&mut bitmap, span as u64);
    let at = bitmap.len();
    bitmap.resize(at + span, 0);
    for &p in pages {
        let bit = (p - first) as usize;
        bitmap[at + bit / 8] |= 1 << (bit % 8);
    }
    bitmap
}

/// Decodes a posting list, or `None` when it is not one (a torn or foreign record): the
/// numbers must be ascending and at most `max`.
pub(crate) fn decode(bytes: &[u8], max: u32) -> Option<Vec<u32>> {
    let mut at = 1;
    let mut out = Vec::new();
    match *bytes.first()? {
        GAPS => {
            let mut last: Option<u64> = None;
            while at < bytes.len() {
                let gap = get_varint(bytes, &mut at)?;
                let p = match last {
                    None => gap,
                    Some(l) if gap > 0 => l.checked_add(gap)?,
                    Some(_) => return None,
                };
                if p > u64::from(max) {
                    return None;
                }
                out.push(p as u32);
                last = Some(p);
            }
        }
        BITMAP => {
            let first = get_varint(bytes, &mut at)?;
            let span = get_varint(bytes, &mut at)? as usize;
            let bits = bytes.get(at..at.checked_add(span)?)?;
            if at + span != bytes.len() {
                return None;
            }
            for (i, byte) in bits.iter().enumerate() {
                for bit in 0..8 {
                    if byte & (1 << bit) != 0 {
                        let p = first + (i * 8 + bit) as u64;
                        if p > u64::from(max) {
                            return None;
                        }
                        out.push(p as u32);
                    }
                }
            }
        }
        _ => return None,
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_comes_back_as_it_went_in() {
        let cases: Vec<Vec<u32>> = vec![
            vec![],
            vec![0],
            vec![7],
            vec![1, 2, 3, 1000, 1_000_000],
            (0..50_000).collect(),
            (0..50_000).step_by(3).collect(),
            (100..200).collect(),
        ];
        for pages in cases {
            let bytes = encode(&pages);
            assert_eq!(decode(&bytes, u32::MAX).as_deref(), Some(&pages[..]), "{} pages", pages.len());
        }
    }

    #[test]
    fn the_shorter_encoding_is_chosen() {
        let every: Vec<u32> = (0..50_000).collect();
        assert!(encode(&every).len() < 6_300, "{} bytes for every page", encode(&every).len());
        let rare = vec![5, 40_000];
        assert_eq!(encode(&rare)[0], GAPS);
        assert!(encode(&rare).len() <= 5);
    }

    #[test]
    fn a_torn_or_foreign_list_is_refused() {
        assert_eq!(decode(&[], 10), None);
        assert_eq!(decode(&[9, 1], 10), None, "an unknown kind");
        assert_eq!(decode(&[GAPS, 0x80], 10), None, "a varint cut off");
        assert_eq!(decode(&[GAPS, 3, 0], 10), None, "not ascending");
        assert_eq!(decode(&[GAPS, 11], 10), None, "past the last page");
        assert_eq!(decode(&[BITMAP, 0, 4, 1], 10), None, "a bitmap shorter than it says");
    }
}
