//! Loading the path tree, and keeping decoded trees for the life of the process.
//!
//! A tree for thousands of pages takes longer to decode than to fetch, and every session
//! on a collection shares it, so decoded trees are kept per process (per isolate in a
//! Worker), keyed by where the collection is, how it is read and the credentials that
//! read it: a connect is never answered from a tree that other credentials loaded.
//!
//! A kept tree is not trusted blindly. By default every `connect` revalidates it with one
//! request for the tree record — a manifest of a few hundred bytes for trees chromafs's
//! ingest wrote (see [`crate::tree::shards`]), the whole tree for trees written by other tools
//! — and reloads it when it changed or the collection was re-created, so a page made
//! private by a re-ingest is gone for every session that connects afterwards. `treeMaxAgeMs` lets a host skip that request for a
//! while, knowingly: a revoked page can stay visible to new sessions that long.
//!
//! The collection itself is read when its name is first resolved and again when its tree
//! changed: what it says about itself (the embedding function Chroma's clients recorded,
//! its vectors' length) is as current as the tree it came with.
//!
//! Each tree also keeps the listings built from it, per group set, so a warm connect is
//! the one request and no rebuilding.
//!
//! Pages kept for more than one session (the process tier, a host's shared cache) are as
//! current as the tree they were loaded under. A [`TreeCheck`] says whether a session's
//! tree is still the collection's as of the start of the command that wants such a page:
//! any check made since then, by any session of the process, answers; otherwise it asks
//! with the same one request a connect sends. A tree found changed is marked superseded,
//! and no session on it is served from a shared cache again.

use crate::base::embed::{Embedding, Space};
use crate::base::error::FsError;
use crate::base::hash::PathMap;
use crate::base::sync::Semaphore;
use crate::chroma::budget::Budget;
use crate::chroma::recorded::RecordedFunction;
use crate::chroma::ClientConfig;
use crate::chroma::{BodyLimit, ChromaError, Client, CollectionInfo, GetRequest, GetResponse, MAX_PAGE};
use crate::tree::access::Groups;
use crate::tree::annotations::{Annotations, PublicText};
use crate::tree::codec;
use crate::tree::decode::{PathTree, TreeError, MAX_TREE_BYTES};
use crate::tree::fields::Fields;
use crate::tree::listing::Listing;
use crate::tree::schema;
use crate::tree::schema::Schema;
use crate::tree::shards::{self, ChunkFacts, LayoutError, Manifest, Record};
use serde_json::{Map, Value};
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Trees kept per process; the least recently validated goes first.
const MAX_TREES: usize = 16;
/// Listings kept per tree (one per group set seen).
const MAX_LISTINGS: usize = 64;

/// A decoded tree and the collection it belongs to.
#[derive(Debug)]
pub(crate) struct LoadedTree {
    pub collection_id: String,
    pub tree: PathTree,
    /// The tree record's metadata, for `fs.info()`.
    pub metadata: Map<String, Value>,
    /// What every chunk carries.
    pub chunks: ChunkFacts,
    /// A fingerprint of the tree record (its document and metadata): what a revalidation
    /// compares.
    record: u64,
    validated_at: Cell<f64>,
    /// A check found that the collection holds another tree (or none) now.
    superseded: Cell<bool>,
    /// One check at a time: concurrent commands wait for it instead of asking again.
    checking: Semaphore,
    listings: RefCell<HashMap<String, Rc<Listing>>>,
    /// Entries by slug, built on first use (a ranked search names pages by slug).
    by_slug: OnceCell<PathMap<String, usize>>,
    /// The model that embedded the chunks, when the manifest records it.
    pub embedding: Option<Embedding>,
    /// The grep index's manifest, when the ingest wrote one (read by `pages::grams`).
    pub grams: Option<Value>,
    /// How the collection's vector index measures distance, when Chroma says.
    pub space: Option<Space>,
    /// The embedding function Chroma's clients recorded in the collection, if any.
    pub function: Option<RecordedFunction>,
    /// The length of the collection's vectors, as Chroma said when the tree was loaded.
    pub dimension: Option<usize>,
    /// What the public pages' text holds, where the tree gives no page's size but an
    /// annotation measured it.
    pub public_text: Option<PublicText>,
    /// The top-level directory every page is shown under (`mountAt`), if any.
    pub mount: Option<String>,
}

impl LoadedTree {
    /// A fingerprint of the tree record and the annotations it relies on: what changes
    /// whenever the tree, or what its chunks are known to carry, does.
    pub(crate) fn fingerprint(&self) -> u64 {
        self.record
    }

    /// A path as the collection's chunks know it: without the mount directory
    /// (`/docs/guides/a.md` → `/guides/a.md` under `mountAt: "/docs"`).
    pub(crate) fn unmounted<'p>(&self, path: &'p str) -> &'p str {
        let Some(dir) = &self.mount else { return path };
        match path.strip_prefix('/').and_then(|p| p.strip_prefix(dir.as_str())) {
            Some("") => "/",
            Some(rest) if rest.starts_with('/') => rest,
            _ => path,
        }
    }

    /// Whether every chunk holds whole lines (a search may then match chunk by chunk).
    pub(crate) fn line_aligned(&self) -> bool {
        self.chunks.line_aligned
    }

    /// The index of the tree entry whose chunks carry `slug`.
    pub(crate) fn entry_of(&self, slug: &str) -> Option<usize> {
        let index = self
            .by_slug
            .get_or_init(|| self.tree.entries.iter().enumerate().map(|(i, e)| (e.slug.clone(), i)).collect());
        index.get(slug).copied()
    }

    /// Whether every chunk carries its page's access, so queries can be scoped by it.
    pub(crate) fn chunk_access(&self) -> bool {
        self.chunks.access
    }

    /// The listing for a group set and version (see [`Listing::new`]), built once per tree.
    pub(crate) fn listing(&self, groups: &Groups, version: Option<&str>) -> Result<Rc<Listing>, TreeError> {
        let key = match version {
            Some(v) => crate::base::key::of([groups.key().as_str(), v]),
            None => groups.key(),
        };
        if let Some(l) = self.listings.borrow().get(&key) {
            return Ok(l.clone());
        }
        let listing = Rc::new(Listing::new(&self.tree, groups, version, &[])?);
        let mut listings = self.listings.borrow_mut();
        if listings.len() >= MAX_LISTINGS {
            listings.clear();
        }
        listings.insert(key, listing.clone());
        Ok(listing)
    }
}

thread_local! {
    static TREES: RefCell<HashMap<String, Rc<LoadedTree>>> = RefCell::new(HashMap::new());
}

/// Forgets every process-cached tree (the next `connect` reloads).
pub(crate) fn forget() {
    TREES.with(|t| t.borrow_mut().clear());
}

fn remember(key: String, tree: Rc<LoadedTree>) {
    TREES.with(|t| {
        let mut trees = t.borrow_mut();
        if trees.len() >= MAX_TREES && !trees.contains_key(&key) {
            let oldest = trees
                .iter()
                .min_by(|a, b| a.1.validated_at.get().total_cmp(&b.1.validated_at.get()))
                .map(|(k, _)| k.clone());
            oldest.map(|k| trees.remove(&k));
        }
        trees.insert(key, tree);
    });
}

/// A read of the tree's records: `records` records beside one whole tree document.
pub(crate) fn tree_limit(records: usize) -> BodyLimit {
    BodyLimit::with_document(records, MAX_TREE_BYTES, "a path tree")
}

/// Where a collection's tree is, and how long a decoded copy may be kept: the part of
/// the connect options the tree side reads.
pub(crate) struct TreeLocation<'a> {
    pub client: &'a ClientConfig,
    pub collection: &'a str,
    pub schema: &'a Schema,
    pub extension: Option<&'a str>,
    /// The top-level directory every page is shown under (`mountAt`, without its slash).
    pub mount: Option<&'a str>,
    /// Reload a process-cached tree older than this; `None` keeps it for the process's life.
    pub tree_max_age_ms: Option<f64>,
}

/// Everything that decides which tree a connect gets, credentials included: they are kept
/// verbatim (in memory only), so two credentials can never share an entry. The parts are
/// length-prefixed ([`crate::base::key`]): a name holding a separator cannot pose as two.
pub(crate) fn cache_key(opts: &TreeLocation<'_>) -> String {
    let c = &opts.client;
    let mut headers: Vec<(String, &str)> =
        c.headers.iter().map(|(k, v)| (k.to_ascii_lowercase(), v.as_str())).collect();
    crate::base::sort::sort(&mut headers);
    let parts = [
        c.url.as_str(),
        &c.tenant,
        &c.database,
        opts.collection,
        &opts.schema.tree_id,
        opts.extension.unwrap_or(""),
        opts.mount.unwrap_or(""),
    ];
    let mut key = crate::base::key::Key::new().list(parts.into_iter());
    key = key.part(&headers.len().to_string());
    for (name, value) in &headers {
        key = key.part(name).part(value);
    }
    key.into_string()
}

/// How a connect got its tree.
pub(crate) struct Opened {
    pub tree: Rc<LoadedTree>,
    /// Found decoded in this process.
    pub from_cache: bool,
    /// Checked against Chroma before being used.
    #[cfg_attr(not(test), expect(dead_code, reason = "the tests read how a tree was opened"))]
    pub revalidated: bool,
}

/// The collection's tree, current unless the host accepts staleness (`treeMaxAgeMs`).
pub(crate) async fn open(client: &Client, opts: &TreeLocation<'_>, now_ms: f64) -> Result<Opened, FsError> {
    let key = cache_key(opts);
    let cached = TREES.with(|t| t.borrow().get(&key).cloned());
    if let Some(kept) = cached {
        let fresh = opts.tree_max_age_ms.is_some_and(|max| now_ms - kept.validated_at.get() <= max);
        if fresh && !kept.superseded.get() {
            return Ok(Opened { tree: kept, from_cache: true, revalidated: false });
        }
        let current = revalidate(client, opts, &kept, now_ms).await?;
        if !current.as_ref().is_some_and(|c| Rc::ptr_eq(c, &kept)) {
            kept.superseded.set(true);
        }
        if let Some(current) = current {
            let same = Rc::ptr_eq(&current, &kept);
            remember(key, current.clone());
            return Ok(Opened { tree: current, from_cache: same, revalidated: true });
        }
    }
    let tree = Rc::new(load(client, opts, now_ms).await?);
    remember(key, tree.clone());
    Ok(Opened { tree, from_cache: false, revalidated: false })
}

fn connect_error(opts: &TreeLocation<'_>, cause: impl std::fmt::Display) -> FsError {
    FsError::io("connect", opts.collection, cause)
}

/// Records a cold connect asks for beside the tree record, so a tree of up to this many
/// shards (a few hundred thousand pages) loads in one round trip.
const FIRST_SHARDS: usize = MAX_PAGE - 1;
/// Parts of an annotation's counts asked for in that request (50,000 pages take about two).
const FIRST_COUNT_PARTS: usize = 4;
/// How often a torn tree (an ingest writing it right now) is read again.
const TORN_RETRIES: u32 = 3;

/// The tree record from a response, or the error that says it is missing.
fn record<'r>(resp: &'r GetResponse, opts: &TreeLocation<'_>) -> Result<(&'r str, Map<String, Value>), FsError> {
    let tree_id = &opts.schema.tree_id;
    let i = resp.ids.iter().position(|id| id == tree_id).ok_or_else(|| {
        connect_error(opts, format!("collection {:?} has no path tree record {tree_id:?}", opts.collection))
    })?;
    let doc = resp
        .document(i)
        .ok_or_else(|| connect_error(opts, format!("the path tree record {tree_id:?} has no document")))?;
    Ok((doc, resp.metadata(i).cloned().unwrap_or_default()))
}

fn fingerprint(doc: &str, metadata: &Map<String, Value>, annotations: Option<&Annotations>) -> u64 {
    let annotated = annotations.map_or(0, |a| codec::fingerprint(a.stamp().as_bytes()).rotate_left(2));
    codec::fingerprint(doc.as_bytes())
        ^ codec::fingerprint(Value::Object(metadata.clone()).to_string().as_bytes()).rotate_left(1)
        ^ annotated
}

fn by_ids(ids: Vec<String>) -> GetRequest {
    GetRequest { ids: Some(ids), include: vec!["documents", "metadatas"], ..Default::default() }
}

/// Numbers every entry by its slug's place in byte order: the grep index `chromafs annotate`
/// writes numbers another tool's pages so.
fn number_in_slug_order(tree: &mut PathTree) {
    let mut order: Vec<usize> = (0..tree.entries.len()).collect();
    crate::base::sort::sort_by(&mut order, |&a, &b| {
        tree.entries[a].slug.as_bytes().cmp(tree.entries[b].slug.as_bytes())
    });
    for (n, i) in order.into_iter().enumerate() {
        tree.entries[i].number = u32::try_from(n).ok();
    }
}

/// The tree record and the annotations record beside it: what a check compares.
fn records(opts: &TreeLocation<'_>) -> Vec<String> {
    vec![opts.schema.tree_id.clone(), Annotations::id(&opts.schema.tree_id)]
}

/// The tree's records, the first shards in case it is a manifest, and the first parts of
/// an annotation's counts in case it is a tree another tool wrote.
fn first_request(opts: &TreeLocation<'_>) -> GetRequest {
    let tree_id = &opts.schema.tree_id;
    let parts = (0..FIRST_COUNT_PARTS).map(|i| Annotations::part_id(tree_id, i));
    let shards = (0..FIRST_SHARDS - 1 - FIRST_COUNT_PARTS).map(|i| shards::shard_id(tree_id, i));
    by_ids(records(opts).into_iter().chain(parts).chain(shards).collect())
}

/// The annotations record of a response, if there is one.
fn annotations(resp: &GetResponse, opts: &TreeLocation<'_>) -> Option<Annotations> {
    let id = Annotations::id(&opts.schema.tree_id);
    let i = resp.ids.iter().position(|r| *r == id)?;
    Annotations::read(resp.document(i)?)
}

/// Whether a session's tree is still the collection's: see the module's documentation.
pub(crate) struct TreeCheck {
    tree: Rc<LoadedTree>,
    client: Rc<Client>,
    budget: Rc<Budget>,
    tree_id: String,
    /// `treeMaxAgeMs`: a check this recent answers even before the command began.
    max_age_ms: Option<f64>,
}

impl TreeCheck {
    pub(crate) fn new(tree: Rc<LoadedTree>, client: Rc<Client>, budget: Rc<Budget>, opts: &TreeLocation<'_>) -> Self {
        TreeCheck { tree, client, budget, tree_id: opts.schema.tree_id.clone(), max_age_ms: opts.tree_max_age_ms }
    }

    /// Whether the tree is current as of the running command's start. A failed check
    /// answers no: the page is then read from Chroma, which says what is wrong.
    pub(crate) async fn confirmed(&self) -> bool {
        self.check().await.unwrap_or(false)
    }

    /// [`TreeCheck::confirmed`], with the error when the check could not be made. The
    /// moment it must be current as of is taken when it is asked: a check that waits for
    /// another's answer still asks about the command that wanted it, even once that
    /// command has ended (a server checks beside the command, which may end first).
    pub(crate) async fn check(&self) -> Result<bool, ChromaError> {
        let since = {
            let now = self.client.now_ms();
            let start = self.budget.started(now);
            self.max_age_ms.map_or(start, |max| start.min(now - max))
        };
        let settled = || match self.tree.superseded.get() {
            true => Some(false),
            false => (self.tree.validated_at.get() >= since).then_some(true),
        };
        if let Some(answer) = settled() {
            return Ok(answer);
        }
        let _turn = self.tree.checking.acquire().await;
        if let Some(answer) = settled() {
            return Ok(answer);
        }
        self.ask().await
    }

    /// One request for the tree's records, compared with the kept tree.
    async fn ask(&self) -> Result<bool, ChromaError> {
        let ids = vec![self.tree_id.clone(), Annotations::id(&self.tree_id)];
        let req = by_ids(ids);
        let now = self.client.now_ms();
        let resp = self.client.get_within(&self.tree.collection_id, &req, "the path tree", &tree_limit(2)).await?;
        let Some(i) = resp.ids.iter().position(|id| *id == self.tree_id) else {
            self.tree.superseded.set(true);
            return Ok(false);
        };
        let (doc, metadata) = (resp.document(i).unwrap_or(""), resp.metadata(i).cloned().unwrap_or_default());
        let annotations = resp
            .ids
            .iter()
            .position(|id| *id == Annotations::id(&self.tree_id))
            .and_then(|j| Annotations::read(resp.document(j)?));
        if fingerprint(doc, &metadata, annotations.as_ref()) != self.tree.record {
            self.tree.superseded.set(true);
            return Ok(false);
        }
        self.tree.validated_at.set(self.tree.validated_at.get().max(now));
        Ok(true)
    }
}

/// One request: `kept` when it is still current, a fresh tree when the record changed,
/// `None` when the collection is gone (the caller loads it again by name).
async fn revalidate(
    client: &Client,
    opts: &TreeLocation<'_>,
    kept: &Rc<LoadedTree>,
    now_ms: f64,
) -> Result<Option<Rc<LoadedTree>>, FsError> {
    let resp =
        match client.get_within(&kept.collection_id, &by_ids(records(opts)), "the path tree", &tree_limit(2)).await {
            Ok(r) => r,
            Err(e) if e.status() == Some(404) => return Ok(None),
            Err(e) => return Err(connect_error(opts, e)),
        };
    let (doc, metadata) = record(&resp, opts)?;
    if fingerprint(doc, &metadata, annotations(&resp, opts).as_ref()) == kept.record {
        kept.validated_at.set(now_ms);
        return Ok(Some(kept.clone()));
    }
    // A new tree may come with a new embedding function (an ingest records it before it
    // writes the tree): the collection is read again, by the id it had.
    let info = match client.collection(opts.collection).await {
        Ok(info) if info.id == kept.collection_id => info,
        Ok(_) => return Ok(None),
        Err(e) if e.status() == Some(404) => return Ok(None),
        Err(e) => return Err(connect_error(opts, e)),
    };
    Ok(Some(Rc::new(decode(client, opts, info, resp, now_ms).await?)))
}

/// A tree from a response holding its record (and maybe shards), fetching what is
/// missing; a torn tree is read again a few times before it is an error.
async fn decode(
    client: &Client,
    opts: &TreeLocation<'_>,
    info: CollectionInfo,
    mut resp: GetResponse,
    now_ms: f64,
) -> Result<LoadedTree, FsError> {
    let CollectionInfo { id: collection_id, dimension, space, function } = info;
    let mut attempt = 0;
    loop {
        let (doc, metadata) = record(&resp, opts)?;
        let annotations = annotations(&resp, opts);
        let record_print = fingerprint(doc, &metadata, annotations.as_ref());
        let (mut tree, chunks, embedding, grams) = match shards::read_record(doc) {
            Record::Whole(doc) => {
                let mut tree = PathTree::from_document(doc, opts.extension).map_err(|e| connect_error(opts, e))?;
                // Other tools may declare line-aligned chunks; access and directories on
                // chunks are relied on only where `chromafs annotate` wrote them for this tree.
                let line_aligned = metadata.get(schema::LINE_ALIGNED) == Some(&Value::Bool(true));
                let chunks = match &annotations {
                    Some(a) => {
                        let facts = a.facts(&tree.revision, line_aligned);
                        let ids = facts.access && counted(client, opts, &collection_id, a, &resp, &mut tree).await?;
                        ChunkFacts { ids, ..facts }
                    }
                    None => ChunkFacts { line_aligned, ..ChunkFacts::default() },
                };
                let grams = annotations.as_ref().and_then(|a| a.grams_for(&tree.revision));
                if grams.is_some() {
                    number_in_slug_order(&mut tree);
                }
                // Other tools may name the default version in the record's metadata.
                tree.default_version = metadata
                    .get(schema::DEFAULT_VERSION)
                    .and_then(Value::as_str)
                    .filter(|v| crate::tree::versions::check(v).is_ok())
                    .map(str::to_string);
                (tree, chunks, None, grams)
            }
            Record::Manifest(m) => match shards(client, opts, &collection_id, &m, &resp).await? {
                Ok(members) => {
                    let mut tree = PathTree::from_members(members, opts.extension, m.version.clone())
                        .map_err(|e| connect_error(opts, e))?;
                    tree.default_version = m.default_version.clone();
                    (tree, m.chunks, m.embedding, m.grams)
                }
                Err(LayoutError::Torn(_)) if attempt < TORN_RETRIES => {
                    attempt += 1;
                    client.pause(200 << attempt).await;
                    resp = client
                        .get_within(
                            &collection_id,
                            &first_request(opts),
                            "the path tree",
                            &tree_limit(FIRST_SHARDS + 1),
                        )
                        .await
                        .map_err(|e| connect_error(opts, e))?;
                    continue;
                }
                Err(e) => return Err(connect_error(opts, e)),
            },
        };
        if let Some(dir) = opts.mount {
            tree.mount(dir);
        }
        let validated_at = Cell::new(now_ms);
        let public_text = annotations.as_ref().and_then(|a| a.public_text(&tree.revision));
        return Ok(LoadedTree {
            collection_id,
            tree,
            metadata,
            chunks,
            record: record_print,
            validated_at,
            superseded: Cell::new(false),
            checking: Semaphore::new(1),
            listings: RefCell::default(),
            by_slug: OnceCell::new(),
            embedding,
            grams,
            space,
            function,
            dimension,
            public_text,
            mount: opts.mount.map(str::to_string),
        });
    }
}

/// A manifest's shards, from the response where they came along, else fetched by id.
async fn shards(
    client: &Client,
    opts: &TreeLocation<'_>,
    collection_id: &str,
    m: &Manifest,
    resp: &GetResponse,
) -> Result<Result<Vec<(String, Fields)>, LayoutError>, FsError> {
    let ids: Vec<String> = (0..m.shards).map(|i| shards::shard_id(&opts.schema.tree_id, i)).collect();
    let found = documents(client, opts, collection_id, &ids, resp, "the path tree's shards").await?;
    let docs: Vec<Option<&str>> = found.iter().map(Option::as_deref).collect();
    Ok(shards::join(m, &docs, MAX_TREE_BYTES))
}

/// Gives a tree another tool wrote its pages' chunk counts from the annotation, when it
/// has them for this tree; whether it did.
async fn counted(
    client: &Client,
    opts: &TreeLocation<'_>,
    collection_id: &str,
    annotations: &Annotations,
    resp: &GetResponse,
    tree: &mut PathTree,
) -> Result<bool, FsError> {
    let Some(counts) = &annotations.counts else { return Ok(false) };
    let ids: Vec<String> = (0..counts.parts).map(|i| Annotations::part_id(&opts.schema.tree_id, i)).collect();
    let found = documents(client, opts, collection_id, &ids, resp, "the annotation's chunk counts").await?;
    let docs: Vec<Option<&str>> = found.iter().map(Option::as_deref).collect();
    Ok(annotations.apply_counts(tree, &docs))
}

/// The documents of records `ids`, from `resp` where they came along, else fetched.
async fn documents(
    client: &Client,
    opts: &TreeLocation<'_>,
    collection_id: &str,
    ids: &[String],
    resp: &GetResponse,
    what: &str,
) -> Result<Vec<Option<String>>, FsError> {
    // Only the records asked for: a whole tree another tool wrote may be in `resp` too.
    let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let mut found: HashMap<&str, String> = (0..resp.ids.len())
        .filter(|&i| wanted.contains(resp.ids[i].as_str()))
        .filter_map(|i| Some((resp.ids[i].as_str(), resp.document(i)?.to_string())))
        .collect();
    let missing: Vec<String> = ids.iter().filter(|id| !found.contains_key(id.as_str())).cloned().collect();
    let mut fetched = GetResponse::default();
    for batch in missing.chunks(MAX_PAGE) {
        let part =
            client.get_once(collection_id, &by_ids(batch.to_vec()), what).await.map_err(|e| connect_error(opts, e))?;
        fetched.extend(part);
    }
    found.extend(
        (0..fetched.ids.len()).filter_map(|i| Some((fetched.ids[i].as_str(), fetched.document(i)?.to_string()))),
    );
    Ok(ids.iter().map(|id| found.get(id.as_str()).cloned()).collect())
}

async fn load(client: &Client, opts: &TreeLocation<'_>, now_ms: f64) -> Result<LoadedTree, FsError> {
    let info = client.collection(opts.collection).await.map_err(|e| match e.status() {
        Some(404) => connect_error(opts, format!("collection {:?} does not exist", opts.collection)),
        _ => connect_error(opts, e),
    })?;
    let resp = client
        .get_within(&info.id, &first_request(opts), "the path tree", &tree_limit(FIRST_SHARDS + 1))
        .await
        .map_err(|e| connect_error(opts, e))?;
    decode(client, opts, info, resp, now_ms).await
}

#[cfg(test)]
mod tests;
