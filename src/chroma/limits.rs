//! How long an answer from Chroma may be: a limit derived from what was asked.
//!
//! A response body is read into memory before it is parsed, so a server (or anything
//! between it and chromafs) that answers one small request with a gigabyte would take a
//! gigabyte of memory. Every request therefore carries a [`BodyLimit`], and the transport
//! stops reading past it. The limit is the most a faithful server can send for the
//! request, never a guess at what is typical:
//!
//! - a record is at most [`MAX_DOCUMENT_BYTES`] of document (Chroma Cloud's limit;
//!   chromafs's ingest writes chunks of at most 4 KiB) and [`MAX_RECORD_EXTRA_BYTES`] of
//!   id, metadata and JSON punctuation, and JSON may spell each of those bytes in up to
//!   [`JSON_ESCAPE`] bytes (`\u0001`); so an answer of n records is at most
//!   n × [`RECORD_BYTES`] (36,864,000 bytes for the 300 of a full page);
//! - a read of the path tree may also hold one unsharded tree document, of at most the
//!   bytes the tree side accepts, which as valid JSON is spelled in at most 3 bytes a
//!   byte (`\u00e9` for the two bytes of `é`): [`BodyLimit::with_document`];
//! - a read that asks for the records' vectors adds, for each, its numbers at
//!   [`NUMBER_BYTES`] each: [`BodyLimit::with_vectors`];
//! - other calls (a collection's id, a count, a write's acknowledgement) answer a small
//!   object: [`SMALL_BYTES`].

use super::MAX_PAGE;

/// The largest document a record may hold (Chroma Cloud's quota).
pub(crate) const MAX_DOCUMENT_BYTES: u64 = 16 << 10;
/// What a record may add to its document: id, metadata, the JSON around them.
const MAX_RECORD_EXTRA_BYTES: u64 = 4 << 10;
/// The most bytes JSON spends on one byte of a string (`\u00XX`).
const JSON_ESCAPE: u64 = 6;
/// The most bytes one record takes in an answer.
pub(crate) const RECORD_BYTES: u64 = JSON_ESCAPE * (MAX_DOCUMENT_BYTES + MAX_RECORD_EXTRA_BYTES);
/// The answer to a call that returns no records.
const SMALL_BYTES: u64 = 1 << 20;
/// The most bytes JSON spends on one number of a vector (`-1.2345678e-10, ` is 16).
const NUMBER_BYTES: u64 = 32;

/// The most bytes an answer may take, and why, for the error that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BodyLimit {
    pub bytes: u64,
    pub why: String,
}

impl BodyLimit {
    /// An answer of at most `records` records.
    pub(crate) fn records(records: usize) -> BodyLimit {
        let bytes = records.max(1) as u64 * RECORD_BYTES;
        BodyLimit { bytes, why: format!("the most an answer of {records} records may take") }
    }

    /// `records` records beside one valid JSON document (`what`) of at most `doc_bytes`,
    /// which may be larger than a record's: the path tree written by another tool.
    pub(crate) fn with_document(records: usize, doc_bytes: usize, what: &str) -> BodyLimit {
        let bytes = 3 * doc_bytes as u64 + records as u64 * RECORD_BYTES;
        BodyLimit { bytes, why: format!("the most {what} of {doc_bytes} bytes may take") }
    }

    /// An answer of at most `records` records, each with a vector of `dimension` numbers.
    pub(crate) fn with_vectors(records: usize, dimension: usize) -> BodyLimit {
        let bytes = records.max(1) as u64 * (RECORD_BYTES + dimension as u64 * NUMBER_BYTES);
        let why = format!("the most an answer of {records} records with vectors of {dimension} numbers may take");
        BodyLimit { bytes, why }
    }

    /// A call that answers a small object.
    pub(crate) fn small() -> BodyLimit {
        BodyLimit { bytes: SMALL_BYTES, why: "the most such an answer may take".into() }
    }

    /// For a `get`: the records it asks for (its `limit`, or its ids), else a full page.
    pub(crate) fn for_get(limit: Option<usize>, ids: Option<usize>) -> BodyLimit {
        let asked = match (limit, ids) {
            (Some(l), Some(i)) => l.min(i),
            (Some(n), None) | (None, Some(n)) => n,
            (None, None) => MAX_PAGE,
        };
        BodyLimit::records(asked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_of_records_is_bounded_with_room_for_escaping() {
        assert_eq!(RECORD_BYTES, 122_880);
        assert_eq!(BodyLimit::for_get(Some(300), None).bytes, 36_864_000);
        assert_eq!(BodyLimit::for_get(Some(300), Some(2)).bytes, 2 * RECORD_BYTES);
        assert_eq!(BodyLimit::for_get(None, None), BodyLimit::records(MAX_PAGE));
        assert_eq!(BodyLimit::records(300).why, "the most an answer of 300 records may take");
        // The worst document a faithful server may send fits: 16 KiB of control bytes.
        let doc = "\u{1}".repeat(MAX_DOCUMENT_BYTES as usize);
        let record = serde_json::json!({"ids": ["x".repeat(128)], "documents": [doc], "metadatas": [{"page_slug": "a/b.md", "chunk_index": 3}]});
        assert!((record.to_string().len() as u64) < RECORD_BYTES);
    }

    #[test]
    fn vectors_add_their_numbers() {
        let limit = BodyLimit::with_vectors(300, 384);
        assert_eq!(limit.bytes, 300 * (RECORD_BYTES + 384 * NUMBER_BYTES));
        let worst = serde_json::json!([vec![-1.234_567_8e-30_f32; 384]]).to_string();
        assert!((worst.len() as u64) < 384 * NUMBER_BYTES, "{} bytes", worst.len());
    }

    #[test]
    fn a_read_with_a_document_holds_the_document_spelled_in_escapes() {
        let limit = BodyLimit::with_document(300, 1 << 20, "a path tree");
        assert_eq!(limit.bytes, 3 * (1 << 20) + 300 * RECORD_BYTES);
        assert_eq!(limit.why, "the most a path tree of 1048576 bytes may take");
    }
}
