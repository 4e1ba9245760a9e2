//! Writing an ingest plan: chunks, then the grep index, then the tree, then stale records
//! removed.
//!
//! The order is what keeps readers safe during a re-ingest: a reader never sees a tree
//! that names chunks or index records not yet written, nor one naming records already
//! deleted. Every write goes in batches of at most 300 records (Chroma Cloud's cap) with
//! embeddings from the caller's function or the built-in one, under the run's lease on
//! the collection ([`super::lease`]).

use super::index;
use super::lease::{self, Lease, Leases};
use super::{IndexSummary, Plan, Record, RuleSummary, Summary, VersionSummary, DEFAULT_DIMENSION};
pub(crate) use crate::base::embed::{Embedder, Embedding};
use crate::base::sync::LocalFuture;
use crate::chroma::{Client, GetRequest, UpsertRequest};
use crate::pages::grams::is_index_record;
use crate::tree::codec;
use crate::tree::schema::{self, Schema};
use crate::tree::shards::{self, ChunkFacts};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};

/// Records per write request (Chroma Cloud's cap).
pub(crate) const WRITE_BATCH: usize = crate::chroma::MAX_PAGE;

/// A deterministic bag-of-words embedding: lets a collection work as a filesystem with
/// no model at all (semantic quality is not its purpose).
fn default_embedding(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; DEFAULT_DIMENSION];
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        // ASCII folding: Unicode's case tables would cost the module more than they add here.
        let h = codec::fingerprint(word.to_ascii_lowercase().as_bytes());
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

/// The built-in [`default_embedding`].
pub(crate) struct DefaultEmbedder;

/// The name a manifest records for [`DefaultEmbedder`]: not a model of meaning, so a
/// ranked search uses the words alone on such a collection.
pub(crate) const DEFAULT_MODEL: &str = "chromafs-hash";
/// The name recorded for a caller's function that does not say which model it runs.
const CUSTOM_MODEL: &str = "custom";

impl Embedder for DefaultEmbedder {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(async move { Ok(texts.iter().map(|t| default_embedding(t)).collect()) })
    }

    fn model(&self) -> Option<&str> {
        Some(DEFAULT_MODEL)
    }
}

pub(crate) struct WriteOptions<'a> {
    pub collection: &'a str,
    pub schema: &'a Schema,
    /// Store the tree as plain JSON instead of gzip+base64.
    pub plain_tree: bool,
    /// How the run holds its lease on the collection.
    pub lease: lease::Terms,
}

/// A chunk's metadata: its place in its page, its page's access and its page's ancestor
/// directories, so a query can be scoped by a session's groups and a search by a
/// directory, each with a predicate or two, inside Chroma. The arrays are always written
/// (`groups` is `[""]` when a page has none, a group no session has): Chroma 1.5.9 can
/// attach a deleted record's array to a new record that does not set its own.
fn chunk_metadata(schema: &Schema, r: &Record) -> Map<String, Value> {
    let mut m = schema.chunk_metadata(&r.slug, r.index);
    m.insert(schema::IS_PUBLIC.into(), json!(r.access.is_public));
    let groups = if r.access.groups.is_empty() { vec![String::new()] } else { r.access.groups.clone() };
    m.insert(schema::GROUPS.into(), json!(groups));
    m.insert(schema::DIRS.into(), json!(schema::ancestors(&r.slug)));
    m.insert(schema::START_LINE.into(), json!(r.start_line));
    m
}

/// Chunk metadata: a hash of everything a chunk record holds (text, place, access) and of
/// the model that embedded it, so a re-run writes and embeds only what changed.
pub(crate) const CONTENT_HASH: &str = "content_hash";

/// The content hash of a record embedded by `model`.
fn content_hash(r: &Record, model: &str) -> String {
    let start = r.start_line.to_string();
    let index = r.index.to_string();
    let public = if r.access.is_public { "1" } else { "0" };
    let mut parts = vec![r.slug.as_str(), &index, &start, public, model, &r.document];
    parts.extend(r.access.groups.iter().map(String::as_str));
    format!("{:016x}", codec::fingerprint(crate::base::key::of(parts).as_bytes()))
}

/// What the collection holds before a write: each record's content hash, and the tree's
/// manifest as stored.
struct Stored {
    hashes: HashMap<String, Option<String>>,
    /// Leases of runs writing the collection, or that did not finish.
    leases: Leases,
    manifest: Option<(String, shards::Manifest)>,
    tree: StoredTree,
}

/// What the tree record is before a write.
enum StoredTree {
    /// A manifest this ingest wrote.
    Manifest,
    /// None: a new collection, or a first run that stopped before writing it.
    None,
    /// A tree another tool wrote, or a record that cannot be read as one.
    Other,
}

async fn stored(client: &Client, cid: &str, tree_id: &str) -> Result<Stored, String> {
    let existing = index::list_records(client, cid, vec!["metadatas"], "the list of records").await?;
    let hashes: HashMap<String, Option<String>> = (0..existing.ids.len())
        .map(|i| {
            let hash = existing.metadata(i).and_then(|m| m.get(CONTENT_HASH)).and_then(Value::as_str);
            (existing.ids[i].clone(), hash.map(str::to_string))
        })
        .collect();
    let leases = Leases::of((0..existing.ids.len()).map(|i| (existing.ids[i].as_str(), existing.metadata(i))));
    // The stored tree may be anything another writer left (a whole tree of any size, a
    // record that is not a tree): read within a tree's limit, and when it is not a manifest
    // this ingest can trust, trust none of the stored hashes.
    let tree = GetRequest { ids: Some(vec![tree_id.to_string()]), include: vec!["documents"], ..Default::default() };
    let answer = client.get_within(cid, &tree, "the path tree", &crate::tree::load::tree_limit(1)).await;
    let absent = answer.as_ref().is_ok_and(|a| a.ids.is_empty()) && !hashes.contains_key(tree_id);
    let manifest = answer.ok().and_then(|a| {
        let doc = a.document(0)?.to_string();
        match shards::read_record(&doc) {
            shards::Record::Manifest(m) => Some((doc.clone(), m)),
            shards::Record::Whole(_) => None,
        }
    });
    let tree = match (&manifest, absent) {
        (Some(_), _) => StoredTree::Manifest,
        (None, true) => StoredTree::None,
        (None, false) => StoredTree::Other,
    };
    Ok(Stored { hashes, leases, manifest, tree })
}

/// Writes a plan: the chunks that changed, the grep index, the tree when it changed, then
/// removal of stale records; refused while another ingest holds the collection.
pub(crate) async fn write(
    client: &Client,
    plan: &Plan,
    opts: &WriteOptions<'_>,
    embedder: &dyn Embedder,
) -> Result<Summary, String> {
    let info =
        client.create_collection(opts.collection, embedder.chroma_function()).await.map_err(|e| e.to_string())?;
    let before = stored(client, &info.id, &opts.schema.tree_id).await?;
    let now = client.now_ms();
    if let Some(until) = before.leases.live(now, None) {
        return Err(lease::busy(opts.collection, until, now));
    }
    let lease = Lease::new(client, &info.id, opts.collection, &opts.schema.tree_id, opts.lease);
    if let Some(d) = info.dimension {
        lease.set_dimension(d);
    }
    match write_held(client, plan, opts, embedder, &info, before, &lease).await {
        Ok(summary) => Ok(summary),
        Err(e) => {
            lease.fail().await;
            Err(e)
        }
    }
}

/// [`write()`] once no other ingest holds the collection: each write under `lease`.
async fn write_held(
    client: &Client,
    plan: &Plan,
    opts: &WriteOptions<'_>,
    embedder: &dyn Embedder,
    info: &crate::chroma::CollectionInfo,
    before: Stored,
    lease: &Lease<'_>,
) -> Result<Summary, String> {
    let cid = info.id.clone();
    let model = embedder.model().unwrap_or(CUSTOM_MODEL).to_string();
    // A run that did not finish may have written chunks (and their hashes) whose index
    // postings and tree it never wrote: the index is made anew rather than built on.
    let unfinished = before.leases.unfinished(client.now_ms());
    let method = embedder.method().map(str::to_string);
    let hashes: Vec<String> = plan.records.iter().map(|r| content_hash(r, &model)).collect();
    // Stored hashes are trusted under a tree this ingest wrote, or under none at all (a
    // first run that stopped half way: what it wrote is not embedded again). Once another
    // tool has rewritten the tree, it may have rewritten chunks too, and everything is
    // written again. So is everything when the model now embeds passages another way (a
    // newer release of the same model's embedder): the stored vectors would mix two
    // methods. (Another model's chunks differ by their hashes, which name the model.)
    let stored_embedding = before.manifest.as_ref().and_then(|(_, m)| m.embedding.as_ref());
    let trusted = match &before.tree {
        StoredTree::Manifest => stored_embedding.is_none_or(|e| e.model != model || e.method == method),
        StoredTree::None => true,
        StoredTree::Other => false,
    };
    let changed: Vec<(&Record, &String)> = plan
        .records
        .iter()
        .zip(&hashes)
        .filter(|(r, h)| !trusted || before.hashes.get(&r.id).and_then(Option::as_ref) != Some(*h))
        .collect();
    let dimension = pipeline::write_chunks(client, &cid, opts.schema, embedder, &changed, lease).await?;
    // The grep index, built on the stored one where the stored chunks are trusted and the
    // last run finished.
    let started = client.now_ms();
    let previous = match trusted && !unfinished {
        true => index::previous(client, opts.collection, opts.schema, plan, &changed).await,
        false => None,
    };
    let grams = index::plan(plan, previous.as_ref());
    let mut index_ms = client.now_ms() - started;
    // Nothing embedded this run: the stored manifest says the dimension of this model.
    let dimension =
        dimension.or(stored_embedding.filter(|e| e.model == model && e.method == method).map(|e| e.dimension));
    let zeros = record_dimension(embedder, dimension).await?;
    lease.set_dimension(zeros);
    // Chroma's clients build the collection's embedding function from its configuration:
    // it names the one that embedded the chunks, once they are written.
    if let Some(function) = embedder.chroma_function().filter(|f| !info.function.as_ref().is_some_and(|r| r.same(f))) {
        lease.hold().await?;
        client.configure(&cid, function).await.map_err(|e| e.to_string())?;
    }
    let started = client.now_ms();
    if !grams.records.is_empty() {
        lease.hold().await?;
    }
    index::write(client, &cid, &grams, zeros).await?;
    index_ms += client.now_ms() - started;
    // The tree goes last: a reader never sees a tree that names chunks not yet written.
    let facts = ChunkFacts { line_aligned: plan.line_aligned, access: true, dirs: true, ids: true };
    let embedding = dimension.map(|dimension| Embedding { model: model.clone(), dimension, method: method.clone() });
    let tree = shards::write(&index::numbered(&plan.tree, &grams), facts, opts.plain_tree)
        .with_embedding(embedding)
        .with_default_version(plan.default_version.clone())
        .with_grams(Some(grams.manifest.to_value()));
    let shard_ids: Vec<String> = (0..tree.shards.len()).map(|i| shards::shard_id(&opts.schema.tree_id, i)).collect();
    // Records from an earlier run that this one does not write would corrupt pages.
    let keep: HashSet<&str> = plan
        .records
        .iter()
        .map(|r| r.id.as_str())
        .chain(shard_ids.iter().map(String::as_str))
        .chain([opts.schema.tree_id.as_str()])
        .collect();
    // Leases of runs that did not finish go with the stale records, once the tree is written.
    let stale: Vec<String> =
        before.hashes.keys().filter(|id| !keep.contains(id.as_str()) && !grams.keeps(id)).cloned().collect();
    let kept_index = before.hashes.keys().filter(|id| grams.keeps(id) && !grams.written(id)).count();
    let removed_index = stale.iter().filter(|id| is_index_record(id)).count();
    let removed_leases = stale.iter().filter(|id| lease::is_lease(&opts.schema.tree_id, id)).count();
    let tree_bytes = tree.document.len() + tree.shards.iter().map(String::len).sum::<usize>();
    let unchanged_tree = before.manifest.as_ref().is_some_and(|(doc, _)| *doc == tree.document)
        && shard_ids.iter().all(|id| before.hashes.contains_key(id));
    if !unchanged_tree {
        lease.hold().await?;
        write_tree(client, &cid, plan, opts, zeros, &shard_ids, tree).await?;
    }
    // Deleted after the tree: until the new tree is written, readers of the old one may
    // still ask for them.
    for batch in stale.chunks(WRITE_BATCH) {
        lease.hold().await?;
        client.delete(&cid, batch).await.map_err(|e| e.to_string())?;
    }
    lease.release().await?;
    Ok(Summary {
        collection: opts.collection.to_string(),
        collection_id: cid,
        pages: plan.pages,
        public_pages: plan.public_pages,
        restricted_pages: plan.pages - plan.public_pages,
        chunks: plan.records.len(),
        chunks_written: changed.len(),
        bytes: plan.bytes,
        removed_records: stale.len() - removed_index - removed_leases,
        grep_index: IndexSummary {
            records: kept_index + grams.records.len(),
            written: grams.records.len(),
            removed: removed_index,
            bytes: grams.records.iter().map(|(_, d)| d.len() as u64).sum(),
            ms: index_ms.max(0.0).round() as u64,
        },
        tree_bytes,
        tree_shards: shard_ids.len(),
        tree_written: !unchanged_tree,
        line_aligned: plan.line_aligned,
        rules: plan.rule_pages.iter().map(|(glob, pages)| RuleSummary { glob: glob.clone(), pages: *pages }).collect(),
        versions: plan
            .version_pages
            .iter()
            .map(|(version, pages)| VersionSummary { version: version.clone(), pages: *pages })
            .collect(),
        default_version: plan.default_version.clone(),
        requests: client.stats().requests,
    })
}

/// The length of the vectors of records that are not chunks (the tree, the grep index):
/// the chunks' own, else what the embedder gives.
async fn record_dimension(embedder: &dyn Embedder, dimension: Option<usize>) -> Result<usize, String> {
    if let Some(d) = dimension {
        return Ok(d);
    }
    let probe = embedder.embed(vec![String::new()]).await.map_err(|e| format!("embedding failed: {e}"))?;
    Ok(probe.first().map_or(DEFAULT_DIMENSION, Vec::len))
}

/// Writes the tree's shards, then its manifest (the record readers look up first).
async fn write_tree(
    client: &Client,
    cid: &str,
    plan: &Plan,
    opts: &WriteOptions<'_>,
    dim: usize,
    shard_ids: &[String],
    tree: shards::Written,
) -> Result<(), String> {
    let mut meta = Map::new();
    meta.insert(schema::MARKER.0.into(), json!(schema::MARKER.1));
    meta.insert(schema::PAGES.into(), json!(plan.pages));
    let metas = vec![meta; shard_ids.len()];
    for (ids, (docs, metas)) in
        shard_ids.chunks(WRITE_BATCH).zip(tree.shards.chunks(WRITE_BATCH).zip(metas.chunks(WRITE_BATCH)))
    {
        let embeddings = vec![crate::base::embed::aside(dim); ids.len()];
        client
            .upsert(
                cid,
                &UpsertRequest { ids: ids.to_vec(), embeddings, documents: docs.to_vec(), metadatas: metas.to_vec() },
            )
            .await
            .map_err(|e| e.to_string())?;
    }
    let manifest = UpsertRequest {
        ids: vec![opts.schema.tree_id.clone()],
        embeddings: vec![crate::base::embed::aside(dim)],
        documents: vec![tree.document],
        metadatas: vec![metas.first().cloned().unwrap_or_default()],
    };
    client.upsert(cid, &manifest).await.map_err(|e| e.to_string())
}

mod pipeline;
#[cfg(test)]
mod tests;
