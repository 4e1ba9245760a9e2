//! How a segment of the grep index is laid out in records of the collection.
//!
//! A segment maps pieces of text ([`Gram`]) to posting lists. Its pieces are spread over
//! `shards` buckets by a hash, so that a search reads exactly the buckets of its pattern's
//! pieces, by id; a bucket too large for one record ([`PART_BYTES`]) is cut into `parts`.
//! A record holds the bucket's entries, sorted by piece — the piece, the length of its
//! list, the list — in base64, cut into metadata values of at most 4,000 bytes (Chroma
//! Cloud takes values of at most 4,096) under `grams0`, `grams1`, ….
//! The record has no document: single-node Chroma puts every document into one full-text
//! table for the whole database, where base64 costs an ingest several times what the rest
//! of the index does, and lengthens every text filter's scan. One piece may have several
//! entries (a list longer than a record is cut by pages); a reader joins them. Every record
//! starts with the layout's version, and every bucket has its first part even when no
//! piece falls in it, so a record that is missing means the index is not the one the
//! manifest describes (a reader then searches without it). A segment
//! that takes pages over from earlier ones lists them first in bucket 0's first part, under
//! [`COVERS`], three bytes no UTF-8 text holds: a one-page edit is then one record.

use super::fold::Gram;
use super::postings::{encode, get_varint, put_varint};
use crate::tree::codec::{base64_decode, base64_encode};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Bytes of a part before base64 (16,000 after it: four values of [`VALUE_CHARS`]).
pub(crate) const PART_BYTES: usize = 12_000;
/// The longest metadata value a record's base64 is cut into.
const VALUE_CHARS: usize = 4_000;
/// What the metadata keys holding a record's base64 start with; a digit follows.
const FIELD: &str = "grams";
/// The metadata that marks a record as the index's, for tools that read the collection.
pub(crate) const MARKER: (&str, &str) = ("chromafs", "grep-index");
/// What a bucket holds on average, which sets the number of buckets.
const BUCKET_BYTES: usize = 6_000;
/// The first byte of every record: the version of its layout.
const RECORD_VERSION: u8 = 3;
/// The prefix of every record of the index: no chunk's id starts with it.
pub(crate) const PREFIX: &str = "__grams__";

/// The bucket of `gram` among `shards` (FNV-1a).
pub(crate) fn shard_of(gram: &Gram, shards: u32) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in gram {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h % shards.max(1)
}

/// The id of part `part` of bucket `shard` of segment `segment`.
pub(crate) fn record_id(segment: &str, shard: u32, part: u32) -> String {
    format!("{}{shard}:{part}", segment_prefix(segment))
}

/// What the ids of segment `segment`'s records start with.
pub(crate) fn segment_prefix(segment: &str) -> String {
    format!("{PREFIX}:{segment}:")
}

/// The entry listing the pages a segment takes over from earlier ones (`0xFF` starts no
/// character's UTF-8).
pub(crate) const COVERS: Gram = [0xff; 4];

/// A segment laid out: its buckets, parts a bucket may have, and each record's id and text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    pub shards: u32,
    pub parts: u32,
    pub records: Vec<(String, String)>,
}

/// `pages`' posting list as encoded entries that each fit a part: the list cut by pages
/// until every piece of it does.
fn encoded_entries(gram: &Gram, pages: &[u32], out: &mut Vec<Vec<u8>>) {
    let list = encode(pages);
    if list.len() + 8 > PART_BYTES && pages.len() > 1 {
        let (a, b) = pages.split_at(pages.len() / 2);
        encoded_entries(gram, a, out);
        encoded_entries(gram, b, out);
        return;
    }
    let mut entry = gram.to_vec();
    put_varint(&mut entry, list.len() as u64);
    entry.extend_from_slice(&list);
    out.push(entry);
}

/// Lays out a segment: each piece's pages (ascending), in records of at most a part each,
/// and the pages it `covers` first (when there are any); `None` when those do not fit a part.
pub(crate) fn lay_out(segment: &str, lists: &BTreeMap<Gram, Vec<u32>>, covers: &[u32]) -> Option<Layout> {
    let mut entries: Vec<(u32, Vec<u8>)> = Vec::new();
    if !covers.is_empty() {
        let mut out = Vec::new();
        encoded_entries(&COVERS, covers, &mut out);
        if out.len() > 1 {
            return None;
        }
        entries.extend(out.into_iter().map(|e| (0, e)));
    }
    let mut all = Vec::new();
    for (gram, pages) in lists {
        let mut out = Vec::new();
        encoded_entries(gram, pages, &mut out);
        all.push((*gram, out));
    }
    let total: usize = all.iter().flat_map(|(_, e)| e.iter().map(Vec::len)).sum();
    let shards = (total / BUCKET_BYTES + 1) as u32;
    for (gram, out) in all {
        let shard = shard_of(&gram, shards);
        entries.extend(out.into_iter().map(|e| (shard, e)));
    }
    // Sorted by bucket, then by piece (the entries were made in piece order, the covers first).
    crate::base::sort::sort_by_key(&mut entries, |(shard, _)| *shard);
    let mut parts_of: BTreeMap<u32, Vec<Vec<u8>>> = (0..shards).map(|s| (s, vec![vec![RECORD_VERSION]])).collect();
    for (shard, entry) in entries {
        let parts = parts_of.entry(shard).or_default();
        match parts.last_mut() {
            Some(last) if last.len() + entry.len() <= PART_BYTES => last.extend_from_slice(&entry),
            _ => parts.push([&[RECORD_VERSION][..], &entry].concat()),
        }
    }
    let parts = parts_of.values().map(|p| p.len() as u32).max().unwrap_or(1);
    let records = parts_of
        .into_iter()
        .flat_map(|(shard, parts)| {
            parts
                .into_iter()
                .enumerate()
                .map(move |(i, bytes)| (record_id(segment, shard, i as u32), base64_encode(&bytes)))
        })
        .collect();
    Some(Layout { shards, parts, records })
}

/// The entries of one record's bytes: (piece, encoded list), or `None` when they do not
/// read as entries.
pub(crate) fn read(bytes: &[u8]) -> Option<Vec<(Gram, std::ops::Range<usize>)>> {
    if bytes.first() != Some(&RECORD_VERSION) {
        return None;
    }
    let mut at = 1;
    let mut out = Vec::new();
    while at < bytes.len() {
        let gram: Gram = bytes.get(at..at + 4)?.try_into().ok()?;
        at += 4;
        let len = get_varint(bytes, &mut at)? as usize;
        let end = at.checked_add(len)?;
        if end > bytes.len() || len == 0 {
            return None;
        }
        out.push((gram, at..end));
        at = end;
    }
    Some(out)
}

/// A record's text (base64) as bytes, or `None` when it is not base64.
fn text_bytes(text: &str) -> Option<Vec<u8>> {
    base64_decode(text).ok()
}

/// The metadata of a record holding `text`: the marker, and the text cut into values.
pub(crate) fn metadata_of(text: &str) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert(MARKER.0.into(), MARKER.1.into());
    // Base64 is ASCII: any byte is a character boundary.
    for (i, piece) in text.as_bytes().chunks(VALUE_CHARS).enumerate() {
        out.insert(format!("{FIELD}{i}"), String::from_utf8_lossy(piece).into());
    }
    out
}

/// A record's bytes from its metadata ([`metadata_of`]), or `None` when it holds none or
/// they are not base64.
pub(crate) fn record_bytes(metadata: Option<&Map<String, Value>>) -> Option<Vec<u8>> {
    let metadata = metadata?;
    let mut text = String::new();
    for i in 0.. {
        match metadata.get(&format!("{FIELD}{i}")) {
            Some(Value::String(piece)) => text.push_str(piece),
            Some(_) => return None,
            None if i == 0 => return None,
            None => break,
        }
    }
    text_bytes(&text)
}

#[cfg(test)]
mod tests {
    use super::super::postings::decode;
    use super::*;

    #[test]
    fn a_segment_is_read_back_from_its_records() {
        let mut lists = BTreeMap::new();
        for i in 0..3000u32 {
            let gram = [(i % 251) as u8, (i / 251) as u8, b'x', (i % 4) as u8];
            let pages: Vec<u32> = (0..(i % 40) + 1).map(|p| p * 7 + i % 5).collect();
            lists.insert(gram, pages);
        }
        let layout = lay_out("s1", &lists, &[]).unwrap();
        assert!(layout.shards > 1);
        for shard in 0..layout.shards {
            let first = record_id("s1", shard, 0);
            assert!(layout.records.iter().any(|(id, _)| *id == first), "every bucket has its first part");
        }
        for (id, text) in &layout.records {
            fits_cloud(id, text);
        }
        assert_eq!(read_back(&layout), lists);
    }

    /// Chroma Cloud takes the record: at most 32 metadata keys, values of at most 4,096 bytes.
    fn fits_cloud(id: &str, text: &str) {
        let metadata = metadata_of(text);
        assert!(metadata.len() <= 32, "{id}: {} keys", metadata.len());
        for (key, value) in &metadata {
            assert!(key.len() <= 36 && value.as_str().unwrap().len() <= 4_096, "{id}: {key}");
        }
    }

    fn read_back(layout: &Layout) -> BTreeMap<Gram, Vec<u32>> {
        let mut back: BTreeMap<Gram, Vec<u32>> = BTreeMap::new();
        for (id, text) in &layout.records {
            let bytes = record_bytes(Some(&metadata_of(text))).unwrap();
            for (gram, range) in read(&bytes).unwrap() {
                let shard = if gram == COVERS { 0 } else { shard_of(&gram, layout.shards) };
                assert!(id.starts_with(&format!("{PREFIX}:s1:{shard}:")), "{id} holds a piece of bucket {shard}");
                back.entry(gram).or_default().extend(decode(&bytes[range], u32::MAX).unwrap());
            }
        }
        back
    }

    #[test]
    fn the_pages_a_segment_takes_over_come_first_in_its_first_record() {
        let lists = BTreeMap::from([(*b"abc\x01", vec![1, 2]), (*b"xyz\x00", vec![9])]);
        let layout = lay_out("s1", &lists, &[4, 7]).unwrap();
        assert_eq!(layout.records.len(), 1, "a small segment is one record");
        let bytes = text_bytes(&layout.records[0].1).unwrap();
        assert_eq!(read(&bytes).unwrap()[0].0, COVERS);
        let mut back = read_back(&layout);
        assert_eq!(back.remove(&COVERS), Some(vec![4, 7]));
        assert_eq!(back, lists);
        let many: Vec<u32> = (0..400_000).step_by(2).collect();
        assert_eq!(lay_out("s1", &lists, &many), None, "pages taken over that do not fit a part");
    }

    #[test]
    fn a_list_longer_than_a_record_is_cut_by_pages() {
        // A piece in every other page of 400,000: a bitmap of 25 KB before it is cut.
        let lists =
            BTreeMap::from([(*b"the\x02", (0..400_000u32).step_by(2).collect::<Vec<_>>()), (*b"abc\x00", vec![3])]);
        let layout = lay_out("s1", &lists, &[]).unwrap();
        assert!(layout.parts > 1);
        for (id, text) in &layout.records {
            fits_cloud(id, text);
        }
        assert_eq!(read_back(&layout), lists);
    }

    #[test]
    fn a_torn_record_does_not_read() {
        const V: u8 = RECORD_VERSION;
        assert_eq!(read(&[V, b'a', b'b', b'c']), None);
        assert_eq!(read(&[V, b'a', b'b', b'c', 0, 5, 1]), None, "a list longer than the record");
        assert_eq!(read(&[V, b'a', b'b', b'c', 0, 0]), None, "an empty list");
        assert_eq!(read(&[2, b'a', b'b', b'c', 1, 1]), None, "another layout's record");
        assert_eq!(read(&[]), None, "no version");
        assert_eq!(read(&[V]), Some(vec![]), "an empty bucket");
        assert!(text_bytes("not base64!").is_none());
        let torn = |pairs: &[(&str, Value)]| {
            let metadata: Map<String, Value> = pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
            record_bytes(Some(&metadata))
        };
        assert_eq!(torn(&[("chromafs", "grep-index".into())]), None, "no text: not a record of the index");
        assert_eq!(torn(&[("grams0", "not base64!".into())]), None);
        assert_eq!(torn(&[("grams0", 7.into())]), None, "a value that is not text");
        assert_eq!(torn(&[("grams1", "AwA=".into())]), None, "no first value");
        assert_eq!(record_bytes(None), None);
    }

    #[test]
    fn a_records_text_is_cut_into_values_and_joined_in_order() {
        let text = base64_encode(&(0..=255u8).cycle().take(PART_BYTES).collect::<Vec<u8>>());
        let metadata = metadata_of(&text);
        assert_eq!(metadata.len(), 5, "the marker and four values: {:?}", metadata.keys());
        assert_eq!(metadata["grams3"].as_str().unwrap().len(), text.len() - 3 * VALUE_CHARS);
        assert_eq!(record_bytes(Some(&metadata)), text_bytes(&text));
    }
}
