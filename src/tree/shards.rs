//! How a path tree is stored: a small manifest and shards, or (from other tools) one record.
//!
//! Chroma Cloud refuses documents over 16 KiB, and a tree for 50,000 pages is hundreds of
//! KiB even compressed, so chromafs's ingest writes the tree as shard records
//! (`__path_tree__#0`, `#1`, …), each a slice of the entries under [`SHARD_BYTES`], and the
//! tree record itself holds only a manifest: the tree's version (a hash of its content),
//! the shard count, and what every chunk carries ([`ChunkFacts`]).
//!
//! The manifest lives in the record's *document*, not its metadata: Chroma's upsert
//! merges metadata, so a field another tool did not overwrite would survive a rewrite. A
//! connect checks a kept tree by fetching the manifest alone (a couple of hundred bytes);
//! a cold connect asks for the manifest and the first shards' ids in one request. Every
//! shard names the version it belongs to, so a reader never mixes two trees: a shard of
//! another version (an ingest in progress) is an error to retry, never a merged tree.
//!
//! A tree record that is not a manifest is a whole tree (plain JSON or gzip+base64), as
//! other tools and earlier versions write it; those keep working.

use crate::base::embed::Embedding;
use crate::base::json;
use crate::tree::codec;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// Largest shard document (Chroma Cloud's document cap is 16,384 bytes).
const SHARD_BYTES: usize = 16_000;
/// The `chromafs` field of a manifest.
const MANIFEST: &str = "tree-manifest";
/// How shard text starts: `chromafs-tree-shard <version> <part>\n`.
const SHARD_HEADER: &str = "chromafs-tree-shard";

/// What every chunk of a collection is known to carry, as its tree's manifest declares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub(crate) struct ChunkFacts {
    /// Every chunk holds whole lines, so a search may match chunk by chunk.
    #[serde(default)]
    pub line_aligned: bool,
    /// `isPublic` and `groups` on every chunk: queries can be scoped by access.
    #[serde(default, rename = "chunk_access")]
    pub access: bool,
    /// `dirs` (the page's ancestor directories) on every chunk: a search can be scoped to
    /// a directory with one predicate.
    #[serde(default, rename = "chunk_dirs")]
    pub dirs: bool,
    /// Chunk ids are `slug#index` and the tree has every page's chunk count: known pages
    /// are read by id.
    #[serde(default, rename = "chunk_ids")]
    pub ids: bool,
}

/// The tree record's document, when it is a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Manifest {
    pub chromafs: String,
    /// A hash of the tree's content: it changes whenever any entry does.
    pub version: String,
    pub shards: usize,
    /// `gzip+base64` or `json`.
    pub encoding: String,
    pub pages: usize,
    #[serde(flatten)]
    pub chunks: ChunkFacts,
    /// The model, dimension and method that embedded the chunks, when the writer recorded
    /// them.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "embedding_json")]
    pub embedding: Option<Embedding>,
    /// The grep index's manifest, as the ingest wrote it (read by `pages::grams`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grams: Option<Value>,
    /// The version of the docs a session is told to use when it does not choose, when the
    /// ingest was told one (see `tree::versions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_version: Option<String>,
}

fn embedding_json<S: serde::Serializer>(e: &Option<Embedding>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let e = e.as_ref().expect("skipped when absent");
    let mut m = s.serialize_map(Some(2 + usize::from(e.method.is_some())))?;
    m.serialize_entry("model", &e.model)?;
    m.serialize_entry("dimension", &e.dimension)?;
    if let Some(method) = &e.method {
        m.serialize_entry("method", method)?;
    }
    m.end()
}

/// What the tree record holds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Record<'a> {
    /// A whole tree in one document.
    Whole(&'a str),
    Manifest(Manifest),
}

/// Reads a tree record's document. A manifest is recognised by its `chromafs` field; no
/// tree can look like one, because a tree's values are all objects.
pub(crate) fn read_record(doc: &str) -> Record<'_> {
    // A whole tree is parsed once, by the tree reader.
    if !doc.contains(MANIFEST) {
        return Record::Whole(doc);
    }
    match serde_json::from_str::<Value>(doc).ok().as_ref().and_then(Manifest::from_json) {
        Some(m) if m.chromafs == MANIFEST => Record::Manifest(m),
        _ => Record::Whole(doc),
    }
}

/// A string field, an unsigned field and a flag that may be absent, as serde would read
/// them into the structs here (by hand: see [`crate::chroma::FromJson`]).
fn text_field(o: &Map<String, Value>, k: &str) -> Option<String> {
    o.get(k)?.as_str().map(str::to_string)
}

fn count_field(o: &Map<String, Value>, k: &str) -> Option<usize> {
    usize::try_from(o.get(k)?.as_u64()?).ok()
}

fn flag_field(o: &Map<String, Value>, k: &str) -> Option<bool> {
    match o.get(k) {
        None => Some(false),
        Some(v) => v.as_bool(),
    }
}

impl Manifest {
    fn from_json(v: &Value) -> Option<Manifest> {
        let o = v.as_object()?;
        let chunks = ChunkFacts {
            line_aligned: flag_field(o, "line_aligned")?,
            access: flag_field(o, "chunk_access")?,
            dirs: flag_field(o, "chunk_dirs")?,
            ids: flag_field(o, "chunk_ids")?,
        };
        let embedding = match o.get("embedding") {
            None | Some(Value::Null) => None,
            Some(Value::Object(e)) => {
                let method = match e.get("method") {
                    None => None,
                    Some(m) => Some(m.as_str()?.to_string()),
                };
                Some(Embedding { model: text_field(e, "model")?, dimension: count_field(e, "dimension")?, method })
            }
            Some(_) => return None,
        };
        Some(Manifest {
            embedding,
            grams: o.get("grams").filter(|g| !g.is_null()).cloned(),
            // A name no version may have is no default: the newest version is then.
            default_version: o
                .get("default_version")
                .and_then(Value::as_str)
                .filter(|v| crate::tree::versions::check(v).is_ok())
                .map(str::to_string),
            chromafs: text_field(o, "chromafs")?,
            version: text_field(o, "version")?,
            shards: count_field(o, "shards")?,
            encoding: text_field(o, "encoding")?,
            pages: count_field(o, "pages")?,
            chunks,
        })
    }
}

/// The id of shard `i` of a tree.
pub(crate) fn shard_id(tree_id: &str, i: usize) -> String {
    format!("{tree_id}#{i}")
}

/// Why shards do not make a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LayoutError {
    /// A shard is missing or belongs to another version: an ingest may be rewriting the
    /// tree, so reading again later can succeed.
    Torn(String),
    Corrupt(String),
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Torn(why) => write!(f, "the path tree is being rewritten ({why}); try again"),
            LayoutError::Corrupt(why) => write!(f, "corrupt path tree: {why}"),
        }
    }
}

fn encode(text: &str, encoding: &str) -> String {
    match encoding {
        "json" => text.to_string(),
        _ => codec::base64_encode(&codec::gzip(text.as_bytes())),
    }
}

fn decode(doc: &str, encoding: &str, limit: usize) -> Result<String, LayoutError> {
    let corrupt = |e: String| LayoutError::Corrupt(format!("shard: {e}"));
    match encoding {
        "json" => Ok(doc.to_string()),
        "gzip+base64" => {
            let gz = codec::base64_decode(doc).map_err(|e| corrupt(e.to_string()))?;
            let raw = codec::gunzip(&gz, limit).map_err(|e| corrupt(e.to_string()))?;
            String::from_utf8(raw).map_err(|_| corrupt("not UTF-8".into()))
        }
        other => Err(LayoutError::Corrupt(format!("unknown shard encoding {other:?}"))),
    }
}

/// A tree written as a manifest and its shards.
#[derive(Debug, Clone)]
pub(crate) struct Written {
    pub manifest: Manifest,
    /// The manifest as the tree record's document.
    pub document: String,
    pub shards: Vec<String>,
}

/// Splits a tree's entries into shards of at most [`SHARD_BYTES`].
pub(crate) fn write(entries: &Map<String, Value>, chunks: ChunkFacts, plain: bool) -> Written {
    let encoding = if plain { "json" } else { "gzip+base64" };
    let version = format!("{:016x}", codec::fingerprint(Value::Object(entries.clone()).to_string().as_bytes()));
    let members: Vec<String> = entries.iter().map(|(k, v)| format!("{}:{v}", Value::String(k.clone()))).collect();
    let mut shards = Vec::new();
    pack(&members, &version, encoding, &mut shards);
    let manifest = Manifest {
        chromafs: MANIFEST.into(),
        version,
        shards: shards.len(),
        encoding: encoding.into(),
        pages: entries.len(),
        chunks,
        embedding: None,
        grams: None,
        default_version: None,
    };
    let document = serde_json::to_string(&manifest).expect("a manifest serialises");
    Written { manifest, document, shards }
}

impl Written {
    /// The same tree, its manifest naming the default version of the docs.
    pub(crate) fn with_default_version(mut self, version: Option<String>) -> Written {
        self.manifest.default_version = version;
        self.document = serde_json::to_string(&self.manifest).expect("a manifest serialises");
        self
    }

    /// The same tree, its manifest recording which model embedded the chunks.
    pub(crate) fn with_embedding(mut self, embedding: Option<Embedding>) -> Written {
        self.manifest.embedding = embedding;
        self.document = serde_json::to_string(&self.manifest).expect("a manifest serialises");
        self
    }

    /// The same tree, its manifest carrying the grep index's.
    pub(crate) fn with_grams(mut self, grams: Option<Value>) -> Written {
        self.manifest.grams = grams;
        self.document = serde_json::to_string(&self.manifest).expect("a manifest serialises");
        self
    }
}

fn shard_text(members: &[String], version: &str, part: usize) -> String {
    format!("{SHARD_HEADER} {version} {part}\n{{{}}}", members.join(","))
}

/// Greedy packing, halving any run whose encoding comes out too large.
fn pack(members: &[String], version: &str, encoding: &str, out: &mut Vec<String>) {
    // Compressed entries take about a fifth of their JSON; aim a little under the cap.
    let raw_target = if encoding == "json" { SHARD_BYTES - 64 } else { SHARD_BYTES * 3 };
    let mut start = 0;
    while start < members.len() {
        let mut end = start;
        let mut bytes = 0;
        while end < members.len() && (end == start || bytes + members[end].len() < raw_target) {
            bytes += members[end].len() + 1;
            end += 1;
        }
        fit(&members[start..end], version, encoding, out);
        start = end;
    }
    if members.is_empty() {
        out.push(encode(&shard_text(&[], version, 0), encoding));
    }
}

fn fit(run: &[String], version: &str, encoding: &str, out: &mut Vec<String>) {
    let doc = encode(&shard_text(run, version, out.len()), encoding);
    if doc.len() <= SHARD_BYTES || run.len() == 1 {
        out.push(doc);
        return;
    }
    let (a, b) = run.split_at(run.len() / 2);
    fit(a, version, encoding, out);
    fit(b, version, encoding, out);
}

/// The entries of a manifest's shards (`shards[i]` is shard `i`'s document, if found),
/// in order, after checking that every shard belongs to the manifest's version.
pub(crate) fn join<T: serde::de::DeserializeOwned>(
    manifest: &Manifest,
    shards: &[Option<&str>],
    limit: usize,
) -> Result<Vec<(String, T)>, LayoutError> {
    let mut members = Vec::new();
    let mut budget = limit;
    for (part, doc) in shards.iter().enumerate() {
        let doc = doc.ok_or_else(|| LayoutError::Torn(format!("shard {part} of {} is missing", manifest.shards)))?;
        let text = decode(doc, &manifest.encoding, budget)?;
        budget = budget.saturating_sub(text.len());
        let (header, body) =
            text.split_once('\n').ok_or_else(|| LayoutError::Corrupt(format!("shard {part} has no header")))?;
        let expected = format!("{SHARD_HEADER} {} {part}", manifest.version);
        if header != expected {
            return Err(LayoutError::Torn(format!(
                "shard {part} is {header:?}, the manifest is version {}",
                manifest.version
            )));
        }
        members.extend(json::all_members(body).map_err(|e| LayoutError::Corrupt(format!("shard {part}: {e}")))?);
    }
    Ok(members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entries(n: usize) -> Map<String, Value> {
        (0..n).map(|i| (format!("v{:03}/section-{}/page-{i}.mdx", i % 97, i % 13), json!({"isPublic": i % 20 != 0, "groups": [], "size": 1000 + i * 7, "chunks": 1 + i % 4, "mtime": 1_700_000_000_000u64 + i as u64 * 86_400_123}))).collect()
    }

    fn round_trip(w: &Written) -> Vec<(String, Value)> {
        let docs: Vec<Option<&str>> = w.shards.iter().map(|s| Some(s.as_str())).collect();
        join(&w.manifest, &docs, 1 << 30).unwrap()
    }

    const ALL: ChunkFacts = ChunkFacts { line_aligned: true, access: true, dirs: true, ids: true };

    #[test]
    fn large_trees_become_shards_under_the_cap() {
        let e = entries(20_000);
        let w = write(&e, ALL, false);
        assert!(w.shards.len() > 5, "{} shards", w.shards.len());
        assert!(w.shards.iter().all(|s| s.len() <= SHARD_BYTES));
        assert!(w.document.len() < 300, "the manifest is small: {}", w.document);
        let back = round_trip(&w);
        assert_eq!(back.len(), 20_000);
        assert_eq!(Value::Object(back.into_iter().collect()), Value::Object(e));
        let plain = write(&entries(300), ChunkFacts::default(), true);
        assert!(plain.shards.iter().all(|s| s.len() <= SHARD_BYTES && s.starts_with(SHARD_HEADER)));
        assert_eq!(round_trip(&plain).len(), 300);
    }

    #[test]
    fn the_version_follows_the_content() {
        let mut e = entries(10);
        let a = write(&e, ALL, false);
        assert_eq!(
            a.manifest.version,
            write(&e, ChunkFacts::default(), true).manifest.version,
            "encoding and flags aside"
        );
        e.insert("v000/section-0/page-0.mdx".into(), json!({"isPublic": false, "groups": ["x"]}));
        assert_ne!(a.manifest.version, write(&e, ALL, false).manifest.version);
        assert_eq!(write(&Map::new(), ALL, false).shards.len(), 1, "an empty tree still has its shard");
    }

    #[test]
    fn records_are_read_as_manifests_or_whole_trees() {
        let w = write(&entries(3), ALL, false);
        assert_eq!(read_record(&w.document), Record::Manifest(w.manifest.clone()));
        assert!(
            w.document.contains(r#""line_aligned":true,"chunk_access":true,"chunk_dirs":true,"chunk_ids":true"#),
            "{}",
            w.document
        );
        let older =
            r#"{"chromafs":"tree-manifest","version":"v","shards":1,"encoding":"json","pages":1,"line_aligned":true}"#;
        assert!(
            matches!(read_record(older), Record::Manifest(m) if m.chunks == ChunkFacts { line_aligned: true, ..ChunkFacts::default() })
        );
        assert_eq!(read_record(r#"{"a.md": {"isPublic": true}}"#), Record::Whole(r#"{"a.md": {"isPublic": true}}"#));
        assert_eq!(
            read_record(r#"{"chromafs": {"isPublic": true}}"#),
            Record::Whole(r#"{"chromafs": {"isPublic": true}}"#)
        );
        assert_eq!(read_record("H4sI…"), Record::Whole("H4sI…"));
        assert_eq!(shard_id("__path_tree__", 3), "__path_tree__#3");
    }

    #[test]
    fn torn_and_corrupt_shards_are_refused() {
        let old = write(&entries(4000), ALL, false);
        let mut e = entries(4000);
        e.insert("new.md".into(), json!({"isPublic": true}));
        let new = write(&e, ALL, false);
        assert!(new.shards.len() >= 2);
        let mut mixed: Vec<Option<&str>> = new.shards.iter().map(|s| Some(s.as_str())).collect();
        mixed[1] = Some(&old.shards[1]);
        let e = join::<Value>(&new.manifest, &mixed, 1 << 30).unwrap_err();
        assert!(matches!(&e, LayoutError::Torn(_)), "{e}");
        assert!(e.to_string().starts_with("the path tree is being rewritten (shard 1 is"), "{e}");
        mixed[1] = None;
        assert_eq!(
            join::<Value>(&new.manifest, &mixed, 1 << 30).unwrap_err().to_string(),
            format!("the path tree is being rewritten (shard 1 of {} is missing); try again", new.shards.len())
        );
        mixed[1] = Some("not base64!");
        assert!(matches!(join::<Value>(&new.manifest, &mixed, 1 << 30), Err(LayoutError::Corrupt(_))));
        let e = join::<Value>(&new.manifest, &new.shards.iter().map(|s| Some(s.as_str())).collect::<Vec<_>>(), 1000)
            .unwrap_err();
        assert!(e.to_string().contains("inflates past"), "{e}");
    }
}
