//! The grep index an ingest writes beside the chunks (see [`crate::pages::grams`]).
//!
//! What the index was comes from the tree as stored: its manifest, and each page's number
//! and access. What changed since comes from the chunks this run writes: a page with a chunk
//! to write, or a different count of chunks, has new text. The index's records are written
//! after the chunks and before the tree, so a reader never sees a manifest naming records
//! not yet written; those of segments the new manifest no longer names are stale.

use super::{Plan, Record};
use crate::base::sync::join_all;
use crate::chroma::MAX_PAGE as WRITE_BATCH;
use crate::chroma::{Client, GetRequest, GetResponse, UpsertRequest};
use crate::pages::collection::{self, Bound};
use crate::pages::grams::build::{build, Built, Page, Previous};
use crate::pages::grams::manifest::Manifest;
use crate::pages::grams::shard::{metadata_of, MARKER};
use crate::tree::access::Access;
use crate::tree::decode::{PathTree, TreeEntry};
use crate::tree::load::{self, TreeLocation};
use crate::tree::schema::Schema;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

/// What the index was, from the tree as stored, when this ingest can build on it: the
/// tree names the index, and the chunks this run compares against are trusted.
pub(crate) async fn previous(
    client: &Client,
    collection: &str,
    schema: &Schema,
    plan: &Plan,
    changed: &[(&Record, &String)],
) -> Option<Previous> {
    let location = TreeLocation {
        client: client.config(),
        collection,
        schema,
        extension: None,
        mount: None,
        tree_max_age_ms: None,
    };
    let opened = load::open(client, &location, client.now_ms()).await.ok()?;
    let tree = opened.tree;
    let manifest = Manifest::from_value(tree.grams.as_ref()?)?;
    let mut pages = HashMap::new();
    let mut was_chunks = HashMap::new();
    for e in &tree.tree.entries {
        pages.insert(e.slug.clone(), (e.number?, e.access.clone()));
        was_chunks.insert(e.slug.as_str(), e.chunks);
    }
    let mut now_chunks: HashMap<&str, u64> = HashMap::new();
    for r in &plan.records {
        *now_chunks.entry(r.slug.as_str()).or_default() += 1;
    }
    let mut changed: HashSet<String> = changed.iter().map(|(r, _)| r.slug.clone()).collect();
    // A page with another count of chunks (none, for an empty page) has other text.
    let count = |slug: &str| now_chunks.get(slug).copied().unwrap_or(0);
    changed.extend(
        plan.tree.keys().filter(|s| was_chunks.get(s.as_str()).map(|c| c.unwrap_or(0)) != Some(count(s))).cloned(),
    );
    Some(Previous { manifest, pages, changed })
}

/// The index after this ingest: every page the tree names (one without chunks has no
/// text), its text its chunks joined in order.
pub(crate) fn plan(plan: &Plan, previous: Option<&Previous>) -> Built {
    let mut texts: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in &plan.records {
        texts.entry(r.slug.as_str()).or_default().push(r);
    }
    let private = Access { is_public: false, groups: Vec::new() };
    let joined: Vec<(&str, String, Access)> = plan
        .tree
        .iter()
        .map(|(slug, entry)| {
            let mut chunks = texts.remove(slug.as_str()).unwrap_or_default();
            crate::base::sort::sort_by_key(&mut chunks, |r| r.index);
            let text: String = chunks.iter().map(|r| r.document.as_str()).collect();
            // The tree's own access; an entry it cannot read is no one's.
            let access = entry.as_object().and_then(|o| Access::from_fields(o).ok()).unwrap_or_else(|| private.clone());
            (slug.as_str(), text, access)
        })
        .collect();
    let pages: Vec<Page> = joined.iter().map(|(slug, text, access)| Page { slug, access, text }).collect();
    build(&pages, previous)
}

/// The index of another tool's pages (`chromafs annotate`), made anew: every page the
/// tree names, numbered in its slugs' byte order (as readers number them), its text its
/// chunks' documents (`texts`: index and document) joined in index order.
pub(crate) fn of_tree(tree: &PathTree, texts: &mut HashMap<&str, Vec<(u64, &str)>>) -> Built {
    let mut entries: Vec<&TreeEntry> = tree.entries.iter().collect();
    crate::base::sort::sort_by(&mut entries, |a, b| a.slug.as_bytes().cmp(b.slug.as_bytes()));
    let joined: Vec<String> = entries
        .iter()
        .map(|e| {
            let chunks = texts.get_mut(e.slug.as_str()).map(std::mem::take).unwrap_or_default();
            let mut chunks = chunks;
            crate::base::sort::sort_by_key(&mut chunks, |(i, _)| *i);
            chunks.into_iter().map(|(_, d)| d).collect()
        })
        .collect();
    let pages: Vec<Page> =
        entries.iter().zip(&joined).map(|(e, text)| Page { slug: &e.slug, access: &e.access, text }).collect();
    build(&pages, None)
}

/// The tree's entries with each page's number.
pub(crate) fn numbered(tree: &Map<String, Value>, built: &Built) -> Map<String, Value> {
    let mut out = tree.clone();
    for (slug, entry) in out.iter_mut() {
        if let (Some(n), Some(o)) = (built.numbers.get(slug), entry.as_object_mut()) {
            o.insert("n".into(), json!(n));
        }
    }
    out
}

/// Writes the index's new records, with vectors set aside ([`crate::base::embed::aside`]) and no document (see
/// [`crate::pages::grams::shard`]).
pub(crate) async fn write(client: &Client, cid: &str, built: &Built, dimension: usize) -> Result<(), String> {
    for batch in built.records.chunks(WRITE_BATCH) {
        let req = UpsertRequest {
            ids: batch.iter().map(|(id, _)| id.clone()).collect(),
            embeddings: vec![crate::base::embed::aside(dimension); batch.len()],
            documents: Vec::new(),
            metadatas: batch.iter().map(|(_, text)| metadata_of(text)).collect(),
        };
        client.upsert(cid, &req).await.map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Every record of the collection with the fields `include` names, but the grep index's
/// records as ids alone: those carry their text in their metadata (see
/// [`crate::pages::grams::shard`]), a third of the pages' text that a list of the
/// collection's records has no use for. They are told apart by their marker — `$ne`
/// matches the records that have no such field, the chunks — and listed by it.
pub(crate) async fn list_records(
    client: &Client,
    cid: &str,
    include: Vec<&'static str>,
    what: &str,
) -> Result<GetResponse, String> {
    let (key, marker) = MARKER;
    let others = GetRequest { where_: Some(json!({ key: { "$ne": marker } })), include, ..Default::default() };
    let index = GetRequest { where_: Some(json!({ key: marker })), include: Vec::new(), ..Default::default() };
    let read = |req: GetRequest| collection::read_whole(client, cid, req, Bound::COLLECTION, what);
    let mut answers = join_all(vec![read(others), read(index)]).await.into_iter();
    let (Some(others), Some(index)) = (answers.next(), answers.next()) else { unreachable!("two reads") };
    let (mut all, index) = (others.map_err(|e| e.to_string())?, index.map_err(|e| e.to_string())?);
    let listed: HashSet<&str> = all.ids.iter().map(String::as_str).collect();
    let ids: Vec<String> = index.ids.into_iter().filter(|id| !listed.contains(id.as_str())).collect();
    // Each list as long as the ids, as the other answer's are.
    let n = ids.len();
    let index = GetResponse {
        documents: all.documents.as_ref().map(|_| vec![None; n]),
        metadatas: all.metadatas.as_ref().map(|_| vec![None; n]),
        embeddings: all.embeddings.as_ref().map(|_| vec![None; n]),
        ids,
    };
    all.extend(index);
    Ok(all)
}
