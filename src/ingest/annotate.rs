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
//! It is resumable: chunks whose fields are already right are not written again, and the
//! annotations record goes last. A chunk whose slug the tree does not name is marked
//! private to nobody.

use super::write::WRITE_BATCH;
use crate::chroma::{Client, GetRequest, UpsertRequest};
use crate::pages::collection::{self, Bound};
use crate::tree::decode::PathTree;
use crate::tree::schema::{self, Schema};
use crate::tree::shards::{self, Annotations, Record};
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
    pub requests: u64,
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

pub(crate) async fn annotate(client: &Client, collection: &str, schema: &Schema) -> Result<AnnotateSummary, String> {
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

    let list = GetRequest { include: vec!["metadatas"], ..Default::default() };
    let all = collection::read_whole(client, &info.id, list, Bound::COLLECTION, "the list of chunks")
        .await
        .map_err(|e| e.to_string())?;
    let mut summary = AnnotateSummary { collection: collection.into(), ..Default::default() };
    let mut pending: Vec<(String, Map<String, Value>)> = Vec::new();
    for i in 0..all.ids.len() {
        let Some(slug) = schema.slug_of(&all, i) else { continue };
        summary.chunks += 1;
        summary.orphans += !pages.contains_key(slug) as usize;
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
    let annotations = Annotations::new(&tree.version).counting(summary.chunks - summary.orphans, pages.len());
    let record = serde_json::to_string(&annotations).expect("annotations serialise");
    let dim = info.dimension.unwrap_or(super::DEFAULT_DIMENSION);
    let mut meta = Map::new();
    meta.insert(schema::MARKER.0.into(), json!("annotations"));
    let upsert = UpsertRequest {
        ids: vec![Annotations::id(&schema.tree_id)],
        embeddings: vec![vec![0.0; dim]],
        documents: vec![record],
        metadatas: vec![meta],
    };
    client.upsert(&info.id, &upsert).await.map_err(|e| e.to_string())?;
    summary.requests = client.stats().requests;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chroma::ClientConfig;
    use crate::testing::{block_on, chroma::URL, FakeChroma};
    use std::rc::Rc;

    fn run(chroma: &FakeChroma) -> Result<AnnotateSummary, String> {
        let client = Client::new(ClientConfig::new(URL), Rc::new(chroma.clone()));
        block_on(async move { annotate(&client, "docs", &Schema::default()).await })
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

    #[test]
    fn every_chunk_gets_its_pages_access_and_directories() {
        let chroma = other_tool();
        let s = run(&chroma).unwrap();
        assert_eq!((s.chunks, s.updated, s.orphans), (4, 4, 1));
        let id = chroma.collection("docs");
        let get = |ids: &[&str]| -> Value {
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
        };
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
        assert!(Annotations::read(&marker).is_some());
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
