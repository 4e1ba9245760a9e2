//! Page assembly: turning a page's chunk records back into the page.
//!
//! A page is its chunks' documents concatenated in `chunk_index` order with nothing in
//! between — the ingest splits pages without adding or dropping a byte. Chroma returns
//! records in storage order, so they are sorted here. A gap, a duplicate index, a chunk
//! without an index or a length that disagrees with the tree's `size` means the stored
//! data is inconsistent (a half-finished ingest, a stray record); that is an error, never
//! a page stitched together from whatever happened to be there.

use crate::chroma::GetResponse;
use crate::tree::schema::Schema;
use std::fmt;

/// Why a page's chunks do not form a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AssemblyError {
    MissingIndex { id: String },
    BadIndex { id: String, value: String },
    Duplicate { index: u64 },
    Gap { missing: u64 },
    NoChunks,
    MissingDocument { id: String },
    SizeMismatch { expected: u64, actual: u64 },
}

impl fmt::Display for AssemblyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssemblyError::MissingIndex { id } => write!(f, "chunk {id:?} has no chunk index"),
            AssemblyError::BadIndex { id, value } => write!(f, "chunk {id:?} has an invalid chunk index {value}"),
            AssemblyError::Duplicate { index } => write!(f, "chunk index {index} appears more than once"),
            AssemblyError::Gap { missing } => write!(f, "chunk {missing} is missing"),
            AssemblyError::NoChunks => write!(f, "the page has no chunks"),
            AssemblyError::MissingDocument { id } => write!(f, "chunk {id:?} has no document"),
            AssemblyError::SizeMismatch { expected, actual } => {
                write!(f, "the chunks hold {actual} bytes but the path tree says {expected}")
            }
        }
    }
}

/// One chunk record as fetched: its id, its `chunk_index` metadata (raw JSON) and document.
#[derive(Debug, Clone)]
pub(crate) struct Chunk {
    pub id: String,
    pub index: Option<serde_json::Value>,
    pub document: Option<String>,
}

impl Chunk {
    /// Record `i` of a response as a page chunk, read by the collection's field names (its
    /// index still raw: assembly checks it).
    pub(crate) fn from_record(schema: &Schema, resp: &mut GetResponse, i: usize) -> Chunk {
        Chunk {
            id: resp.ids[i].clone(),
            index: resp.metadata(i).and_then(|m| m.get(&schema.chunk_index_field)).cloned(),
            document: resp.take_document(i),
        }
    }
}

fn index_of(chunk: &Chunk) -> Result<u64, AssemblyError> {
    let value = chunk.index.as_ref().ok_or_else(|| AssemblyError::MissingIndex { id: chunk.id.clone() })?;
    let bad = || AssemblyError::BadIndex { id: chunk.id.clone(), value: value.to_string() };
    match value {
        serde_json::Value::Number(n) => match (n.as_u64(), n.as_f64()) {
            (Some(u), _) => Ok(u),
            (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 9.0e15 => Ok(f as u64),
            _ => Err(bad()),
        },
        // Some producers store the index as a string; accept plain decimal digits only.
        serde_json::Value::String(s) if !s.is_empty() && s.len() < 16 && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().map_err(|_| bad())
        }
        serde_json::Value::Null => Err(AssemblyError::MissingIndex { id: chunk.id.clone() }),
        _ => Err(bad()),
    }
}

/// Joins a page's chunks. `expected_size` is the tree's `size`, when it has one.
pub(crate) fn assemble(chunks: Vec<Chunk>, expected_size: Option<u64>) -> Result<String, AssemblyError> {
    if chunks.is_empty() {
        return match expected_size {
            Some(0) => Ok(String::new()),
            _ => Err(AssemblyError::NoChunks),
        };
    }
    let mut indexed = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let index = index_of(&chunk)?;
        let doc = chunk.document.ok_or(AssemblyError::MissingDocument { id: chunk.id })?;
        indexed.push((index, doc));
    }
    crate::base::sort::sort_by_key(&mut indexed, |(i, _)| *i);
    let mut page = String::with_capacity(indexed.iter().map(|(_, d)| d.len()).sum());
    for (expected, (index, doc)) in indexed.into_iter().enumerate() {
        let expected = expected as u64;
        if index < expected {
            return Err(AssemblyError::Duplicate { index });
        }
        if index > expected {
            return Err(AssemblyError::Gap { missing: expected });
        }
        page.push_str(&doc);
    }
    if let Some(size) = expected_size {
        if size != page.len() as u64 {
            return Err(AssemblyError::SizeMismatch { expected: size, actual: page.len() as u64 });
        }
    }
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_is_read_by_the_configured_fields() {
        let schema = Schema { chunk_index_field: "n".into(), ..Schema::default() };
        let mut resp = <GetResponse as crate::chroma::FromJson>::from_json(json!({
            "ids": ["a#0", "b#0"],
            "documents": ["x", null],
            "metadatas": [{"page": "a", "n": 0}, {"chunk_index": 1}],
        }))
        .unwrap();
        let c = Chunk::from_record(&schema, &mut resp, 0);
        assert_eq!((c.id.as_str(), c.index, c.document.as_deref()), ("a#0", Some(json!(0)), Some("x")));
        let c = Chunk::from_record(&schema, &mut resp, 1);
        assert_eq!((c.index, c.document), (None, None), "only the configured field counts");
    }

    fn chunk(i: serde_json::Value, doc: &str) -> Chunk {
        Chunk { id: format!("p#{i}"), index: Some(i), document: Some(doc.to_string()) }
    }

    #[test]
    fn joins_in_index_order_with_nothing_between() {
        let page = assemble(vec![chunk(json!(2), "c\n"), chunk(json!(0), "a"), chunk(json!(1), "b-")], None).unwrap();
        assert_eq!(page, "ab-c\n");
    }

    #[test]
    fn accepts_float_and_string_indexes() {
        let page = assemble(vec![chunk(json!(1.0), "y"), chunk(json!("0"), "x")], Some(2)).unwrap();
        assert_eq!(page, "xy");
    }

    #[test]
    fn rejects_gaps_and_duplicates() {
        assert_eq!(
            assemble(vec![chunk(json!(0), "a"), chunk(json!(2), "c")], None),
            Err(AssemblyError::Gap { missing: 1 })
        );
        assert_eq!(assemble(vec![chunk(json!(1), "b")], None), Err(AssemblyError::Gap { missing: 0 }));
        assert_eq!(
            assemble(vec![chunk(json!(0), "a"), chunk(json!(0), "a"), chunk(json!(1), "b")], None),
            Err(AssemblyError::Duplicate { index: 0 })
        );
    }

    #[test]
    fn rejects_bad_records() {
        let missing = Chunk { id: "p#0".into(), index: None, document: Some("a".into()) };
        assert_eq!(assemble(vec![missing], None), Err(AssemblyError::MissingIndex { id: "p#0".into() }));
        assert!(matches!(assemble(vec![chunk(json!(-1), "a")], None), Err(AssemblyError::BadIndex { .. })));
        assert!(matches!(assemble(vec![chunk(json!("1e3"), "a")], None), Err(AssemblyError::BadIndex { .. })));
        let nodoc = Chunk { id: "p#0".into(), index: Some(json!(0)), document: None };
        assert!(matches!(assemble(vec![nodoc], None), Err(AssemblyError::MissingDocument { .. })));
    }

    #[test]
    fn checks_the_tree_size() {
        assert_eq!(
            assemble(vec![chunk(json!(0), "abc")], Some(4)),
            Err(AssemblyError::SizeMismatch { expected: 4, actual: 3 })
        );
        assert_eq!(assemble(vec![chunk(json!(0), "é")], Some(2)).unwrap(), "é");
    }

    #[test]
    fn empty_pages() {
        assert_eq!(assemble(vec![], Some(0)).unwrap(), "");
        assert_eq!(assemble(vec![], None), Err(AssemblyError::NoChunks));
        assert_eq!(assemble(vec![], Some(10)), Err(AssemblyError::NoChunks));
    }
}
