//! The collection's layout: which metadata fields hold what, and the tree record's id.
//!
//! chromafs reads collections written by its own ingest and by other tools, so the field
//! names are options; every module that reads or writes a record asks a [`Schema`]
//! instead of spelling a field name itself. The tree record's metadata keys that chromafs
//! writes and reads are here too, so the writer and the reader cannot drift apart.

use crate::chroma::GetResponse;
use serde_json::Value;

/// Tree record metadata of trees written by other tools: `true` when every chunk holds
/// whole lines. chromafs's own ingest says so in the tree's manifest instead.
pub(crate) const LINE_ALIGNED: &str = "line_aligned";
/// Chunk metadata written beside the slug and index, so reads and searches can be scoped
/// by a session's access inside Chroma (declared by the tree's manifest).
pub(crate) const IS_PUBLIC: &str = "isPublic";
pub(crate) const GROUPS: &str = "groups";
/// Chunk metadata: the line of its page where the chunk starts (1-based), so a search hit
/// can name the lines to read without reading the page.
pub(crate) const START_LINE: &str = "start_line";
/// Chunk metadata: the page's ancestor directories, `""` (the root) first.
pub(crate) const DIRS: &str = "dirs";

/// A page's ancestor directories as written in `dirs`: `api/v2/x.md` → `["", "api",
/// "api/v2"]`.
pub(crate) fn ancestors(slug: &str) -> Vec<String> {
    let mut dirs = vec![String::new()];
    let mut at = 0;
    while let Some(i) = slug[at..].find('/') {
        dirs.push(slug[..at + i].to_string());
        at += i + 1;
    }
    dirs
}

/// A chunk's record id: readable where Chroma Cloud's 128-byte id limit allows, else a
/// fingerprint of the slug; either way derived from the slug and index alone, so a reader
/// that knows a page's chunk count can ask for its chunks by id.
pub(crate) fn chunk_id(slug: &str, index: usize) -> String {
    // Spelled by hand: a prefetch names every chunk of thousands of pages, and `format!`
    // costs more than the rest of the work.
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let number = std::str::from_utf8(&digits[at..]).expect("ASCII digits");
    if slug.len() + 1 + number.len() <= 128 {
        [slug, "#", number].concat()
    } else {
        format!("{:016x}#{number}", crate::tree::codec::fingerprint(slug.as_bytes()))
    }
}
/// Tree record metadata of trees written by other tools: the version of the docs a session
/// is told to use when it does not choose. chromafs's own ingest says so in the manifest.
pub(crate) const DEFAULT_VERSION: &str = "default_version";
/// Tree record metadata: the number of pages, for people browsing the collection.
pub(crate) const PAGES: &str = "pages";
/// Tree record metadata key and value that mark the record as chromafs's tree.
pub(crate) const MARKER: (&str, &str) = ("chromafs", "path-tree");

/// Where a collection keeps its page slugs, chunk positions and tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Schema {
    /// Chunk metadata field holding the page slug.
    pub slug_field: String,
    /// Chunk metadata field holding the chunk's position in its page.
    pub chunk_index_field: String,
    /// Id of the path tree record.
    pub tree_id: String,
}

impl Default for Schema {
    fn default() -> Self {
        Schema {
            slug_field: "page_slug".into(),
            chunk_index_field: "chunk_index".into(),
            tree_id: "__path_tree__".into(),
        }
    }
}

impl Schema {
    /// The slug of record `i` of a response, when it has one.
    pub(crate) fn slug_of<'r>(&self, resp: &'r GetResponse, i: usize) -> Option<&'r str> {
        resp.metadata(i)?.get(&self.slug_field)?.as_str()
    }

    /// The metadata of one chunk record.
    pub(crate) fn chunk_metadata(&self, slug: &str, index: usize) -> serde_json::Map<String, Value> {
        let mut m = serde_json::Map::new();
        m.insert(self.slug_field.clone(), Value::from(slug));
        m.insert(self.chunk_index_field.clone(), Value::from(index));
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_and_writes_the_configured_fields() {
        let schema = Schema { slug_field: "page".into(), chunk_index_field: "n".into(), ..Schema::default() };
        let resp = <GetResponse as crate::chroma::FromJson>::from_json(json!({
            "ids": ["a#0", "b#0"],
            "documents": ["x", null],
            "metadatas": [{"page": "a", "n": 0}, {"page_slug": "b"}],
        }))
        .unwrap();
        assert_eq!(schema.slug_of(&resp, 0), Some("a"));
        assert_eq!(schema.slug_of(&resp, 1), None, "only the configured field counts");
        assert_eq!(Value::Object(schema.chunk_metadata("a", 3)), json!({"page": "a", "n": 3}));
    }

    #[test]
    fn ancestors_and_ids() {
        assert_eq!(ancestors("x.md"), [""]);
        assert_eq!(ancestors("api/v2/x.md"), ["", "api", "api/v2"]);
        assert_eq!(chunk_id("a.md", 3), "a.md#3");
        assert_eq!(chunk_id("a.md", 0), "a.md#0");
        assert_eq!(chunk_id("a.md", usize::MAX), format!("a.md#{}", usize::MAX));
        let long = chunk_id(&"x/".repeat(100), 12);
        assert!(long.len() <= 128 && long.ends_with("#12") && !long.starts_with("x/"), "{long}");
        let edge = "y".repeat(124);
        assert_eq!(chunk_id(&edge, 123), format!("{edge}#123"), "128 bytes: still readable");
        assert_ne!(chunk_id(&edge, 1234), format!("{edge}#1234"), "129 bytes: a fingerprint");
    }

    #[test]
    fn defaults_are_chromas_conventions() {
        let s = Schema::default();
        assert_eq!(
            (s.slug_field.as_str(), s.chunk_index_field.as_str(), s.tree_id.as_str()),
            ("page_slug", "chunk_index", "__path_tree__")
        );
    }
}
