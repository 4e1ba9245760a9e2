//! `chromafs annotate`: a collection written by another tool, made as fast and as safe as
//! one chromafs ingested, without rewriting its pages.
//!
//! The other tool's chunks carry a slug and an index; the tree says who may see each page.
//! Annotating writes, on every chunk, its page's access (`isPublic`, `groups`) and its
//! ancestor directories (`dirs`) — Chroma's `update` merges them into what is there — then
//! a small record beside the tree naming the tree version it annotated. Readers scope
//! searches by those fields only while the tree is still that version: a later write by
//! the other tool changes the tree, and chromafs falls back to what it assumes of any
//! collection until `annotate` runs again.
//!
//! Asked to (`grep_index`), it also writes the grep index of the pages (see
//! [`crate::pages::grams`]) from the chunks it reads anyway, and names it in the annotations
//! record: greps then choose their pages from it while the tree is the version annotated.
//! Nothing Chroma answers cheaply tells that the other tool rewrote a chunk in place since
//! (the tree, the record count and the collection's own version all stay as they were), and
//! a grep through an index that missed the rewrite would miss its lines; so the index is for
//! collections whose writer changes the tree with every write, or is followed by `annotate`
//! each time. Without it, an index an earlier run wrote is deleted.
//!
//! It is resumable: chunks whose fields are already right are not written again, nor index
//! records already there (a record's id names its content), and the annotations record goes
//! last. A chunk whose slug the tree does not name is marked private to nobody.

use super::index;
use super::write::WRITE_BATCH;
use super::IndexSummary;
use crate::chroma::{Client, GetRequest, UpsertRequest};
use crate::pages::grams::is_index_record;
use crate::tree::annotations::{Annotations, PublicText};
use crate::tree::decode::PathTree;
use crate::tree::schema::{self, chunk_id, Schema};
use crate::tree::shards::{self, Record};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// What an annotation wrote.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AnnotateSummary {
    pub collection: String,
    pub chunks: usize,
    /// Chunks whose fields were written (the others were already right).
    pub updated: usize,
    /// Chunks of slugs the tree does not name, made private to nobody.
    pub orphans: usize,
    /// Every chunk's id is the one chromafs's ingest gives it, so the annotation counts
    /// every page's chunks and readers ask for pages by id.
    pub read_by_id: bool,
    /// The grep index: its records, those written and those of an older index deleted.
    pub grep_index: IndexSummary,
    pub requests: u64,
}

/// Each page's chunk indexes, seen as they come, and whether every chunk's id so far is
/// chromafs's own for its slug and index.
struct IdCheck<'a> {
    indexes: HashMap<&'a str, Vec<u64>>,
    ids_ours: bool,
}

impl<'a> IdCheck<'a> {
    fn new() -> Self {
        IdCheck { indexes: HashMap::new(), ids_ours: true }
    }

    fn see(&mut self, slug: &'a str, id: &str, index: Option<u64>) {
        match index {
            Some(i) if self.ids_ours && usize::try_from(i).is_ok_and(|i| chunk_id(slug, i) == id) => {
                self.indexes.entry(slug).or_default().push(i)
            }
            _ => self.ids_ours = false,
        }
    }

    /// Every page's chunk count, when every id was ours and every page's indexes run
    /// 0..n-1 (pages with no chunk count none).
    fn counts(mut self, pages: &HashMap<&'a str, (bool, &[String])>) -> Option<Vec<(&'a str, u64)>> {
        if !self.ids_ours {
            return None;
        }
        let mut counts = Vec::with_capacity(pages.len());
        for &slug in pages.keys() {
            let mut seen = self.indexes.remove(slug).unwrap_or_default();
            seen.sort_unstable();
            if seen.iter().enumerate().any(|(i, &n)| n != i as u64) {
                return None;
            }
            counts.push((slug, seen.len() as u64));
        }
        Some(counts)
    }
}

/// The fields a chunk of `slug` should carry.
fn fields(slug: &str, tree: &HashMap<&str, (bool, &[String])>) -> Map<String, Value> {
    let (is_public, groups) = tree.get(slug).copied().unwrap_or((false, &[]));
    let groups: Vec<&str> = if groups.is_empty() { vec![""] } else { groups.iter().map(String::as_str).collect() };
    let mut m = Map::new();
    m.insert(schema::IS_PUBLIC.into(), json!(is_public));
    m.insert(schema::GROUPS.into(), json!(groups));
    m.insert(schema::DIRS.into(), json!(schema::ancestors(slug)));
    m
}

pub(crate) async fn annotate(
    client: &Client,
    collection: &str,
    schema: &Schema,
    grep_index: bool,
) -> Result<AnnotateSummary, String> {
    let info = client.collection(collection).await.map_err(|e| e.to_string())?;
    let tree_req =
        GetRequest { ids: Some(vec![schema.tree_id.clone()]), include: vec!["documents"], ..Default::default() };
    let resp = client
        .get_within(&info.id, &tree_req, "the path tree", &crate::tree::load::tree_limit(1))
        .await
        .map_err(|e| e.to_string())?;
    let doc = resp
        .document(0)
        .ok_or_else(|| format!("collection {collection:?} has no path tree record {:?}", schema.tree_id))?;
    let Record::Whole(doc) = shards::read_record(doc) else {
        return Err(format!(
            "collection {collection:?} was written by chromafs ingest: its chunks already carry access and directories"
        ));
    };
    let tree = PathTree::from_document(doc, None).map_err(|e| e.to_string())?;
    let pages: HashMap<&str, (bool, &[String])> =
        tree.entries.iter().map(|e| (e.slug.as_str(), (e.access.is_public, e.access.groups.as_slice()))).collect();

    let all = index::list_records(client, &info.id, vec!["metadatas", "documents"], "the list of chunks").await?;
    let mut summary = AnnotateSummary { collection: collection.into(), ..Default::default() };
    let mut pending: Vec<(String, Map<String, Value>)> = Vec::new();
    let mut ids = IdCheck::new();
    let mut texts: HashMap<&str, Vec<(u64, &str)>> = HashMap::new();
    for i in 0..all.ids.len() {
        let Some(slug) = schema.slug_of(&all, i) else { continue };
        summary.chunks += 1;
        let named = pages.contains_key(slug);
        summary.orphans += !named as usize;
        if named {
            let index = all.metadata(i).and_then(|m| m.get(&schema.chunk_index_field)).and_then(Value::as_u64);
            ids.see(slug, &all.ids[i], index);
            texts.entry(slug).or_default().push((index.unwrap_or(0), all.document(i).unwrap_or("")));
        }
        let want = fields(slug, &pages);
        let have = all.metadata(i);
        if want.iter().any(|(k, v)| have.and_then(|m| m.get(k)) != Some(v)) {
            pending.push((all.ids[i].clone(), want));
        }
    }
    for batch in pending.chunks(WRITE_BATCH) {
        let (ids, metas): (Vec<String>, Vec<Map<String, Value>>) = batch.iter().cloned().unzip();
        client.update_metadata(&info.id, &ids, &metas).await.map_err(|e| e.to_string())?;
    }
    summary.updated = pending.len();
    let mut public = PublicText::default();
    for chunks in texts.iter().filter(|(slug, _)| pages.get(*slug).is_some_and(|p| p.0)).map(|(_, c)| c) {
        public.pages += 1;
        public.chunks += chunks.len() as u64;
        public.bytes += chunks.iter().map(|(_, text)| text.len() as u64).sum::<u64>();
    }
    let mut annotations =
        Annotations::new(&tree.revision).counting(summary.chunks - summary.orphans, pages.len(), public);
    let mut parts = Vec::new();
    if let Some(counts) = ids.counts(&pages) {
        (annotations, parts) = annotations.with_counts(&counts);
        summary.read_by_id = true;
    }
    // The parts first, the record naming them last: a reader never finds a record whose
    // parts are not there yet.
    let dim = info.dimension.unwrap_or(super::DEFAULT_DIMENSION);
    let part_ids = (0..parts.len()).map(|i| Annotations::part_id(&schema.tree_id, i));
    let records: Vec<(String, String)> = part_ids.zip(parts).collect();
    for batch in records.chunks(WRITE_BATCH) {
        write_records(client, &info.id, batch, dim).await?;
    }
    let started = client.now_ms();
    let grams = match grep_index {
        true => index::of_tree(&tree, &mut texts),
        false => Default::default(),
    };
    let there: std::collections::HashSet<&str> = all.ids.iter().map(String::as_str).collect();
    let new = grams.without(&there);
    index::write(client, &info.id, &new, dim).await?;
    let index_ms = client.now_ms() - started;
    annotations.grams = grep_index.then(|| grams.manifest.to_value());
    let record = serde_json::to_string(&annotations).expect("annotations serialise");
    write_records(client, &info.id, &[(Annotations::id(&schema.tree_id), record)], dim).await?;
    // The record names the new index: the old one's records go.
    let stale: Vec<String> = all.ids.iter().filter(|id| is_index_record(id) && !grams.keeps(id)).cloned().collect();
    for batch in stale.chunks(WRITE_BATCH) {
        client.delete(&info.id, batch).await.map_err(|e| e.to_string())?;
    }
    summary.grep_index = IndexSummary {
        records: grams.records.len(),
        written: new.records.len(),
        removed: stale.len(),
        bytes: new.records.iter().map(|(_, d)| d.len() as u64).sum(),
        ms: index_ms.max(0.0).round() as u64,
    };
    summary.requests = client.stats().requests;
    Ok(summary)
}

/// Writes records chromafs keeps beside the tree (no page's chunks: marked as such).
async fn write_records(
    client: &Client,
    collection_id: &str,
    records: &[(String, String)],
    dim: usize,
) -> Result<(), String> {
    let mut meta = Map::new();
    meta.insert(schema::MARKER.0.into(), json!("annotations"));
    let upsert = UpsertRequest {
        ids: records.iter().map(|r| r.0.clone()).collect(),
        embeddings: vec![crate::base::embed::aside(dim); records.len()],
        documents: records.iter().map(|r| r.1.clone()).collect(),
        metadatas: vec![meta; records.len()],
    };
    client.upsert(collection_id, &upsert).await.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chroma::ClientConfig;
    use crate::testing::{block_on, chroma::URL, FakeChroma};
    use std::rc::Rc;

    fn run(chroma: &FakeChroma) -> Result<AnnotateSummary, String> {
        run_with(chroma, true)
    }

    fn run_with(chroma: &FakeChroma, grep_index: bool) -> Result<AnnotateSummary, String> {
        let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
        block_on(async move { annotate(&client, "docs", &Schema::default(), grep_index).await })
    }

    #[test]
    fn the_grep_index_is_written_only_when_asked_and_an_earlier_one_goes_without() {
        let chroma = other_tool();
        let with = run_with(&chroma, true).unwrap();
        assert!(with.grep_index.records > 0);
        let index_ids = || chroma.ids("docs").into_iter().filter(|id| is_index_record(id)).count();
        assert_eq!(index_ids(), with.grep_index.records);
        let without = run_with(&chroma, false).unwrap();
        assert_eq!((without.grep_index.records, without.grep_index.removed), (0, with.grep_index.records));
        assert_eq!(index_ids(), 0);
        let (doc, _) = chroma.record("docs", &Annotations::id("__path_tree__")).unwrap();
        assert!(!doc.unwrap().contains("\"grams\""), "the annotations name no index");
    }

    fn other_tool() -> FakeChroma {
        let chroma = FakeChroma::new();
        chroma.pages(
            "docs",
            &[
                ("api/v2/a.md", &["a\n", "b\n"], json!({"isPublic": true})),
                ("internal/x.md", &["x\n"], json!({"isPublic": false, "groups": ["admin"]})),
            ],
            json!({"chromafs": "path-tree"}),
        );
        chroma.put("docs", "stray#0", Some("s\n"), json!({"page_slug": "gone.md", "chunk_index": 0}));
        chroma
    }

    /// What the store answers for records `ids`.
    fn get(chroma: &FakeChroma, ids: &[&str]) -> Value {
        let id = chroma.collection("docs");
        let body = json!({"ids": ids, "include": ["metadatas", "documents"]}).to_string();
        let req = crate::chroma::transport::HttpRequest {
            method: "POST",
            url: format!("{URL}/api/v2/tenants/default_tenant/databases/default_database/collections/{id}/get"),
            headers: vec![],
            body: Some(body),
            timeout_ms: 1,
            body_limit: u64::MAX,
        };
        serde_json::from_slice(&chroma.store_answer(&req).body).unwrap()
    }

    fn get_ids(chroma: &FakeChroma, ids: &[&str]) -> Value {
        get(chroma, ids)["ids"].clone()
    }

    #[test]
    fn every_chunk_gets_its_pages_access_and_directories() {
        let chroma = other_tool();
        let s = run(&chroma).unwrap();
        assert_eq!((s.chunks, s.updated, s.orphans), (4, 4, 1));
        let get = |ids: &[&str]| get(&chroma, ids);
        let m = get(&["api/v2/a.md#1", "internal/x.md#0", "stray#0"])["metadatas"].clone();
        assert_eq!(
            m[0],
            json!({"page_slug": "api/v2/a.md", "chunk_index": 1, "isPublic": true, "groups": [""], "dirs": ["", "api", "api/v2"]})
        );
        assert_eq!(
            (m[1]["isPublic"].clone(), m[1]["groups"].clone(), m[1]["dirs"].clone()),
            (json!(false), json!(["admin"]), json!(["", "internal"]))
        );
        assert_eq!(
            (m[2]["isPublic"].clone(), m[2]["groups"].clone()),
            (json!(false), json!([""])),
            "a chunk no page names is private to nobody"
        );
        let marker = get(&["__path_tree__@annotations"])["documents"][0].as_str().unwrap().to_string();
        let annotations = Annotations::read(&marker).unwrap();
        assert!(s.read_by_id, "ids are chromafs's own: every page's chunks are counted");
        assert_eq!(annotations.counts.map(|c| c.parts), Some(1));
        assert_eq!(get_ids(&chroma, &["__path_tree__@annotations#0"]), json!(["__path_tree__@annotations#0"]));
    }

    #[test]
    fn pages_are_counted_only_when_every_id_and_index_is_as_ingest_writes_them() {
        let renamed = other_tool();
        renamed.put("docs", "chunk-7", Some("y\n"), json!({"page_slug": "internal/x.md", "chunk_index": 1}));
        let gap = other_tool();
        gap.put("docs", "internal/x.md#2", Some("y\n"), json!({"page_slug": "internal/x.md", "chunk_index": 2}));
        for chroma in [renamed, gap] {
            let s = run(&chroma).unwrap();
            assert!(!s.read_by_id);
            assert_eq!(get_ids(&chroma, &["__path_tree__@annotations#0"]), json!([]));
        }
    }

    #[test]
    fn a_second_run_writes_only_what_changed() {
        let chroma = other_tool();
        run(&chroma).unwrap();
        let again = run(&chroma).unwrap();
        assert_eq!(again.updated, 0, "resumable: nothing left to write");
    }

    #[test]
    fn collections_chromafs_wrote_need_no_annotation() {
        let chroma = FakeChroma::new();
        let entries: Map<String, Value> = serde_json::from_str(r#"{"a.md": {"isPublic": true}}"#).unwrap();
        let w = shards::write(&entries, shards::ChunkFacts::default(), false);
        chroma.put("docs", "__path_tree__", Some(&w.document), json!({}));
        assert!(run(&chroma).unwrap_err().contains("was written by chromafs ingest"));
    }
}
