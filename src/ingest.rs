//! Ingest: a folder of docs becomes a collection chromafs can serve.
//!
//! Pages are split into chunks on line boundaries, each at most `chunk_bytes` (4 KiB by
//! default, far under Chroma Cloud's 16 KiB document cap); only a single line longer than
//! that is cut, at a character boundary, and the tree records whether that happened, so
//! a search can rely on whole lines within a chunk. Chunks are upserted under ids derived
//! from the slug, records left over from an earlier run are deleted, and the path tree is
//! written last, so a reader never sees a tree that names chunks not yet written.
//!
//! Access rules map path globs to `isPublic`/`groups`; the last matching rule wins and a
//! page no rule matches is public. The plan ([`plan`]) is pure and tested natively;
//! [`write`] sends it through the Chroma client.

use crate::chroma::{Client, GetRequest, LocalFuture, UpsertRequest};
use crate::codec;
use serde_json::{json, Map, Value};
use std::collections::HashSet;

pub const DEFAULT_CHUNK_BYTES: usize = 4096;
/// Chroma Cloud's per-document limit.
pub const MAX_CHUNK_BYTES: usize = 16384;
/// Records per write request (Chroma Cloud's cap).
pub const WRITE_BATCH: usize = 300;
/// Dimension of the built-in embedding.
pub const DEFAULT_DIMENSION: usize = 32;

/// One file to ingest; `path` is relative to the docs folder, with `/` separators.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: String,
    pub content: Vec<u8>,
    pub mtime: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AccessRule {
    pub glob: String,
    pub is_public: bool,
    pub groups: Vec<String>,
}

/// Parses `{"internal/**": {"isPublic": false, "groups": ["admin"]}, …}`, keeping order.
pub fn parse_access_rules(json: &str) -> Result<Vec<AccessRule>, String> {
    let entries: Vec<(String, Value)> = {
        let mut de = serde_json::Deserializer::from_str(json);
        let raw = <OrderedObject as serde::Deserialize>::deserialize(&mut de).map_err(|e| format!("access rules: {e}"))?;
        de.end().map_err(|e| format!("access rules: {e}"))?;
        raw.0
    };
    entries
        .into_iter()
        .map(|(glob, v)| {
            let obj = v.as_object().ok_or_else(|| format!("access rule {glob:?}: expected an object"))?;
            let is_public = match obj.get("isPublic") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(format!("access rule {glob:?}: isPublic must be true or false")),
            };
            let groups = match obj.get("groups") {
                None => Vec::new(),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|g| g.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("access rule {glob:?}: groups must be an array of strings"))?,
                Some(_) => return Err(format!("access rule {glob:?}: groups must be an array of strings")),
            };
            Ok(AccessRule { glob, is_public, groups })
        })
        .collect()
}

struct OrderedObject(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for OrderedObject {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OrderedObject;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object mapping globs to access rules")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<OrderedObject, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    out.push((k, m.next_value()?));
                }
                Ok(OrderedObject(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// Glob match on `/`-separated paths: `*` and `?` stay within a segment, `**` spans any
/// number of segments (`docs/**` matches everything below `docs`).
pub fn glob_match(glob: &str, path: &str) -> bool {
    fn go(g: &[u8], p: &[u8]) -> bool {
        match g.first() {
            None => p.is_empty(),
            Some(b'*') if g.get(1) == Some(&b'*') => {
                let rest = &g[2..];
                let rest = rest.strip_prefix(b"/").unwrap_or(rest);
                // `**` matches nothing, or any prefix ending at a segment boundary.
                if go(rest, p) {
                    return true;
                }
                (0..p.len()).any(|i| p[i] == b'/' && go(rest, &p[i + 1..])) || rest.is_empty()
            }
            Some(b'*') => (0..=p.len()).take_while(|&i| i == 0 || p[i - 1] != b'/').any(|i| go(&g[1..], &p[i..])),
            Some(b'?') => !p.is_empty() && p[0] != b'/' && go(&g[1..], &p[utf8_len(p[0])..]),
            Some(&c) => p.first() == Some(&c) && go(&g[1..], &p[1..]),
        }
    }
    fn utf8_len(b: u8) -> usize {
        match b {
            0xF0..=0xFF => 4,
            0xE0..=0xEF => 3,
            0xC0..=0xDF => 2,
            _ => 1,
        }
    }
    go(glob.as_bytes(), path.as_bytes())
}

/// Splits text into chunks of at most `max` bytes on line boundaries. Returns the chunks
/// and whether any line had to be cut.
pub fn chunk_lines(text: &str, max: usize) -> (Vec<&str>, bool) {
    let max = max.max(4);
    let mut chunks = Vec::new();
    let mut cut = false;
    let mut start = 0;
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        if end - start + line.len() <= max {
            end += line.len();
            continue;
        }
        if end > start {
            chunks.push(&text[start..end]);
            start = end;
        }
        if line.len() <= max {
            end += line.len();
            continue;
        }
        cut = true;
        let mut rest = line;
        while rest.len() > max {
            let mut at = max;
            while !rest.is_char_boundary(at) {
                at -= 1;
            }
            chunks.push(&rest[..at]);
            rest = &rest[at..];
        }
        start = end + line.len() - rest.len();
        end += line.len();
    }
    if end > start {
        chunks.push(&text[start..end]);
    }
    (chunks, cut)
}

/// A deterministic bag-of-words embedding: lets a collection work as a filesystem with
/// no model at all (semantic quality is not its purpose).
pub fn default_embedding(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; DEFAULT_DIMENSION];
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        let h = codec::fingerprint(word.to_lowercase().as_bytes());
        v[(h % DEFAULT_DIMENSION as u64) as usize] += if h & (1 << 40) != 0 { 1.0 } else { -1.0 };
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    } else {
        v[0] = 1.0;
    }
    v
}

/// One chunk record to write.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id: String,
    pub slug: String,
    pub index: usize,
    pub document: String,
}

/// Everything an ingest will write.
#[derive(Debug, Clone)]
pub struct Plan {
    pub records: Vec<Record>,
    pub tree: Map<String, Value>,
    pub pages: usize,
    pub public_pages: usize,
    pub bytes: u64,
    /// No line was cut: every chunk holds whole lines.
    pub line_aligned: bool,
}

/// Record ids: readable where Chroma Cloud's 128-byte id limit allows.
pub fn chunk_id(slug: &str, index: usize) -> String {
    let id = format!("{slug}#{index}");
    if id.len() <= 128 {
        id
    } else {
        format!("{:016x}#{index}", codec::fingerprint(slug.as_bytes()))
    }
}

pub fn plan(files: &[SourceFile], rules: &[AccessRule], chunk_bytes: usize, tree_id: &str) -> Result<Plan, String> {
    let chunk_bytes = chunk_bytes.clamp(64, MAX_CHUNK_BYTES);
    let mut records = Vec::new();
    let mut tree = Map::new();
    let mut seen = HashSet::new();
    let (mut public_pages, mut bytes, mut line_aligned) = (0, 0u64, true);
    let mut sorted: Vec<&SourceFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    for f in sorted {
        let slug = f.path.trim_start_matches('/');
        if slug.is_empty() || slug.split('/').any(|s| s.is_empty() || s == "." || s == "..") {
            return Err(format!("{}: not a usable page path", f.path));
        }
        if slug == tree_id || !seen.insert(slug.to_string()) {
            return Err(format!("{}: the path is used twice or collides with the tree record", f.path));
        }
        let text = std::str::from_utf8(&f.content)
            .map_err(|e| format!("{}: not UTF-8 text (invalid byte at offset {}); only text pages can be ingested", f.path, e.valid_up_to()))?;
        let (chunks, cut) = chunk_lines(text, chunk_bytes);
        line_aligned &= !cut;
        for (i, c) in chunks.iter().enumerate() {
            records.push(Record { id: chunk_id(slug, i), slug: slug.to_string(), index: i, document: c.to_string() });
        }
        let rule = rules.iter().rev().find(|r| glob_match(&r.glob, slug));
        let (is_public, groups) = match rule {
            Some(r) => (r.is_public, r.groups.clone()),
            None => (true, Vec::new()),
        };
        public_pages += is_public as usize;
        bytes += f.content.len() as u64;
        let mut entry = json!({ "isPublic": is_public, "groups": groups, "size": f.content.len(), "chunks": chunks.len() });
        if let Some(m) = f.mtime {
            entry["mtime"] = json!(m.floor());
        }
        tree.insert(slug.to_string(), entry);
    }
    Ok(Plan { records, tree, pages: seen.len(), public_pages, bytes, line_aligned })
}

/// Computes embeddings for a batch of documents.
pub trait Embedder {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>>;
}

/// The built-in [`default_embedding`].
pub struct DefaultEmbedder;

impl Embedder for DefaultEmbedder {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(async move { Ok(texts.iter().map(|t| default_embedding(t)).collect()) })
    }
}

/// What an ingest wrote.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub collection: String,
    pub collection_id: String,
    pub pages: usize,
    pub public_pages: usize,
    pub restricted_pages: usize,
    pub chunks: usize,
    pub bytes: u64,
    pub removed_records: usize,
    pub tree_bytes: usize,
    pub line_aligned: bool,
    pub requests: u64,
}

pub struct WriteOptions<'a> {
    pub collection: &'a str,
    pub tree_id: &'a str,
    pub slug_field: &'a str,
    pub chunk_index_field: &'a str,
    /// Store the tree as plain JSON instead of gzip+base64.
    pub plain_tree: bool,
}

async fn upsert_batch(client: &Client, cid: &str, embedder: &dyn Embedder, ids: Vec<String>, docs: Vec<String>, metas: Vec<Map<String, Value>>) -> Result<usize, String> {
    let embeddings = embedder.embed(docs.clone()).await.map_err(|e| format!("embedding failed: {e}"))?;
    if embeddings.len() != docs.len() {
        return Err(format!("the embedding function returned {} vectors for {} documents", embeddings.len(), docs.len()));
    }
    let n = ids.len();
    client
        .upsert(cid, &UpsertRequest { ids, embeddings, documents: docs, metadatas: metas })
        .await
        .map_err(|e| e.to_string())?;
    Ok(n)
}

/// Writes a plan: chunks, then removal of stale records, then the tree.
pub async fn write(client: &Client, plan: &Plan, opts: &WriteOptions<'_>, embedder: &dyn Embedder) -> Result<Summary, String> {
    let info = client.create_collection(opts.collection, None).await.map_err(|e| e.to_string())?;
    let cid = info.id.clone();
    for batch in plan.records.chunks(WRITE_BATCH) {
        let ids = batch.iter().map(|r| r.id.clone()).collect();
        let docs = batch.iter().map(|r| r.document.clone()).collect();
        let metas = batch
            .iter()
            .map(|r| {
                let mut m = Map::new();
                m.insert(opts.slug_field.to_string(), json!(r.slug));
                m.insert(opts.chunk_index_field.to_string(), json!(r.index));
                m
            })
            .collect();
        upsert_batch(client, &cid, embedder, ids, docs, metas).await?;
    }
    // Records from an earlier run that this one did not write would corrupt pages.
    let keep: HashSet<&str> = plan.records.iter().map(|r| r.id.as_str()).chain([opts.tree_id]).collect();
    let existing = client
        .get_all(&cid, GetRequest { include: vec![], ..Default::default() }, "the list of record ids")
        .await
        .map_err(|e| e.to_string())?;
    let stale: Vec<String> = existing.ids.into_iter().filter(|id| !keep.contains(id.as_str())).collect();
    for batch in stale.chunks(WRITE_BATCH) {
        client.delete(&cid, batch).await.map_err(|e| e.to_string())?;
    }
    let json = Value::Object(plan.tree.clone()).to_string();
    let document = if opts.plain_tree { json } else { codec::base64_encode(&codec::gzip(json.as_bytes())) };
    let mut meta = Map::new();
    meta.insert("chromafs".into(), json!("path-tree"));
    meta.insert("line_aligned".into(), json!(plan.line_aligned));
    meta.insert("pages".into(), json!(plan.pages));
    let dim = embedder.embed(vec![String::new()]).await.map_err(|e| format!("embedding failed: {e}"))?.first().map_or(DEFAULT_DIMENSION, Vec::len);
    let tree_bytes = document.len();
    client
        .upsert(&cid, &UpsertRequest { ids: vec![opts.tree_id.to_string()], embeddings: vec![vec![0.0; dim]], documents: vec![document], metadatas: vec![meta] })
        .await
        .map_err(|e| e.to_string())?;
    Ok(Summary {
        collection: opts.collection.to_string(),
        collection_id: cid,
        pages: plan.pages,
        public_pages: plan.public_pages,
        restricted_pages: plan.pages - plan.public_pages,
        chunks: plan.records.len(),
        bytes: plan.bytes,
        removed_records: stale.len(),
        tree_bytes,
        line_aligned: plan.line_aligned,
        requests: client.stats().requests,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_keep_every_byte_and_whole_lines() {
        let text = "alpha\nbeta\ngamma delta\n\nepsilon";
        for max in [4, 6, 8, 12, 100] {
            let (chunks, _) = chunk_lines(text, max);
            assert_eq!(chunks.concat(), text, "max {max}");
            assert!(chunks.iter().all(|c| c.len() <= max), "max {max}: {chunks:?}");
        }
        let (chunks, cut) = chunk_lines(text, 12);
        assert!(!cut);
        assert_eq!(chunks, vec!["alpha\nbeta\n", "gamma delta\n", "\nepsilon"]);
    }

    #[test]
    fn long_lines_are_cut_at_char_boundaries() {
        let text = "short\n".to_string() + &"é".repeat(10) + "\nend\n";
        let (chunks, cut) = chunk_lines(&text, 7);
        assert!(cut);
        assert_eq!(chunks.concat(), text);
        assert!(chunks.iter().all(|c| c.len() <= 7));
        assert_eq!(chunks[0], "short\n");
    }

    #[test]
    fn empty_text_has_no_chunks() {
        assert_eq!(chunk_lines("", 10).0, Vec::<&str>::new());
    }

    #[test]
    fn globs() {
        assert!(glob_match("internal/**", "internal/a.md"));
        assert!(glob_match("internal/**", "internal/x/y/a.md"));
        assert!(!glob_match("internal/**", "internals/a.md"));
        assert!(glob_match("**/secret.md", "secret.md"));
        assert!(glob_match("**/secret.md", "a/b/secret.md"));
        assert!(glob_match("*.json", "openapi.json"));
        assert!(!glob_match("*.json", "api/openapi.json"));
        assert!(glob_match("api/*/v?.json", "api/specs/v2.json"));
        assert!(glob_match("**", "anything/at/all"));
        assert!(glob_match("docs/**/*.mdx", "docs/a.mdx"));
        assert!(glob_match("docs/**/*.mdx", "docs/x/y/a.mdx"));
        assert!(glob_match("ré?umé.md", "résumé.md"));
    }

    #[test]
    fn access_rules_last_match_wins() {
        let rules = parse_access_rules(r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}, "internal/billing/**": {"groups": ["billing", "admin"]}}"#).unwrap();
        let files: Vec<SourceFile> = ["index.md", "internal/keys.md", "internal/billing/plans.md"]
            .iter()
            .map(|p| SourceFile { path: p.to_string(), content: b"x\n".to_vec(), mtime: Some(1.5) })
            .collect();
        let p = plan(&files, &rules, 4096, "__path_tree__").unwrap();
        assert_eq!(p.tree["index.md"], json!({"isPublic": true, "groups": [], "size": 2, "chunks": 1, "mtime": 1.0}));
        assert_eq!(p.tree["internal/keys.md"]["groups"], json!(["admin"]));
        assert_eq!(p.tree["internal/billing/plans.md"]["groups"], json!(["billing", "admin"]));
        assert_eq!(p.tree["internal/billing/plans.md"]["isPublic"], json!(false));
        assert_eq!(p.public_pages, 1);
    }

    #[test]
    fn bad_access_rules_are_named() {
        assert!(parse_access_rules(r#"{"a/**": {"isPublic": "no"}}"#).unwrap_err().contains("\"a/**\""));
        assert!(parse_access_rules("[]").is_err());
        assert!(parse_access_rules("{} trailing").is_err());
    }

    #[test]
    fn plan_rejects_binary_and_bad_paths() {
        let bin = SourceFile { path: "img.png".into(), content: vec![0x89, 0x50, 0xff, 0x00], mtime: None };
        assert!(plan(&[bin], &[], 4096, "t").unwrap_err().starts_with("img.png: not UTF-8"));
        let bad = SourceFile { path: "a/../b.md".into(), content: vec![], mtime: None };
        assert!(plan(&[bad], &[], 4096, "t").is_err());
    }

    #[test]
    fn plan_records_round_trip_through_assembly() {
        let text = "# Title\n".to_string() + &"a line of text\n".repeat(500);
        let f = SourceFile { path: "guide.md".into(), content: text.clone().into_bytes(), mtime: None };
        let p = plan(&[f], &[], 1024, "__path_tree__").unwrap();
        assert!(p.records.len() > 5);
        assert!(p.line_aligned);
        let chunks = p
            .records
            .iter()
            .rev()
            .map(|r| crate::pages::Chunk { id: r.id.clone(), index: Some(json!(r.index)), document: Some(r.document.clone()) })
            .collect();
        assert_eq!(crate::pages::assemble(chunks, Some(text.len() as u64)).unwrap(), text);
        let tree = crate::tree::PathTree::from_json(&Value::Object(p.tree).to_string(), None).unwrap();
        assert_eq!(tree.entries[0].size, Some(text.len() as u64));
    }

    #[test]
    fn ids_fit_chroma_cloud() {
        assert_eq!(chunk_id("a.md", 3), "a.md#3");
        assert!(chunk_id(&"x/".repeat(100), 12).len() <= 128);
    }

    #[test]
    fn default_embedding_is_deterministic_and_unit_length() {
        let a = default_embedding("Install the CLI");
        assert_eq!(a, default_embedding("install the cli"));
        assert!((a.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(default_embedding("").len(), DEFAULT_DIMENSION);
    }
}
