//! Reading the grep index for one search: the pages whose pieces satisfy its formula.
//!
//! The search names the classes it may see (by the manifest and the session's groups); the
//! records it needs are the buckets of its formula's pieces in each of their segments, and
//! each small segment's list of pages it takes over — all asked for by id in one round of
//! requests (300 ids a request, issued together). A page counts in a segment unless a later
//! segment of its class takes it over. Records are immutable (a segment's id is never used
//! again), so a session keeps those it read ([`Kept`], bounded), and so does the process
//! while its process tier is on (see [`crate::pages::store::process`]): a search asks
//! only for the rest. A record that is not there is remembered too: the further parts a
//! segment may have are asked for once, not by every search.

use super::fold::Gram;
use super::manifest::Segment;
use super::postings;
use super::query::{union, GramQuery};
use super::shard::{read, record_bytes, record_id, segment_prefix, shard_of, COVERS};
use crate::chroma::ChromaError;
use crate::pages::collection::Collection;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;

/// Why the index cannot answer: a record that does not read as one of its records.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LookupError {
    Chroma(ChromaError),
    /// A record of the index that is torn or another tool's.
    Torn(String),
    /// A record the manifest promises is not in the collection: the index is not the one
    /// the session's tree describes (a newer ingest replaced it).
    Missing(String),
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LookupError::Chroma(e) => write!(f, "{e}"),
            LookupError::Torn(id) => write!(f, "the grep index's record {id} cannot be read"),
            LookupError::Missing(id) => write!(f, "the grep index's record {id} is missing"),
        }
    }
}

/// Bytes of index records a process keeps, and a session.
const PROCESS_BYTES: usize = 16 << 20;
const SESSION_BYTES: usize = 4 << 20;

/// What a record not in the collection counts for in a [`Kept`]'s bound.
const ABSENT_BYTES: usize = 64;

/// Index records read: (collection, record id) → its bytes (`None`: not in the
/// collection), least recently read first, within a bound in bytes.
pub(crate) struct Kept {
    records: HashMap<(String, String), Option<Rc<Vec<u8>>>>,
    order: VecDeque<(String, String)>,
    bytes: usize,
    bound: usize,
}

impl Default for Kept {
    /// A session's.
    fn default() -> Self {
        Kept::within(SESSION_BYTES)
    }
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::within(PROCESS_BYTES));
}

impl Kept {
    fn within(bound: usize) -> Kept {
        Kept { records: HashMap::new(), order: VecDeque::new(), bytes: 0, bound }
    }

    /// `Some(None)`: the record is known not to be there.
    fn get(&self, key: &(String, String)) -> Option<Option<Rc<Vec<u8>>>> {
        self.records.get(key).cloned()
    }

    fn keep(&mut self, key: (String, String), record: Option<Rc<Vec<u8>>>) {
        let size = record.as_ref().map_or(ABSENT_BYTES, |b| b.len());
        if size > self.bound / 4 || self.records.contains_key(&key) {
            return;
        }
        self.bytes += size;
        self.order.push_back(key.clone());
        self.records.insert(key, record);
        while self.bytes > self.bound {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(r) = self.records.remove(&old) {
                self.bytes -= r.as_ref().map_or(ABSENT_BYTES, |b| b.len());
            }
        }
    }
}

/// The ids a search of `grams` reads in `segments` (one class's, oldest first): those that
/// must exist (each bucket's first part, the list of pages a segment takes over), then
/// those that may (further parts: a segment has as many as its largest bucket).
fn ids_of(segments: &[Segment], grams: &[Gram]) -> (Vec<String>, Vec<String>) {
    let (mut must, mut may) = (Vec::new(), Vec::new());
    for (k, s) in segments.iter().enumerate() {
        let mut shards: Vec<u32> = grams.iter().map(|g| shard_of(g, s.shards)).collect();
        crate::base::sort::sort(&mut shards);
        shards.dedup();
        for &shard in &shards {
            must.push(record_id(&s.id, shard, 0));
            may.extend((1..s.parts).map(|part| record_id(&s.id, shard, part)));
        }
        // The pages a segment takes over are first in its first record.
        if k > 0 && s.covers && shards.first() != Some(&0) {
            must.push(record_id(&s.id, 0, 0));
        }
    }
    (must, may)
}

/// The pages (ascending numbers below `pages`) of the classes whose `segments` are given
/// that satisfy `query`; `query` must name pieces (it is not `Any`). `kept`: the records
/// the session read before.
pub(crate) async fn lookup(
    collection: &Collection,
    kept: &RefCell<Kept>,
    classes: &[&[Segment]],
    query: &GramQuery,
    pages: u32,
) -> Result<Vec<u32>, LookupError> {
    let grams: Vec<Gram> = query.grams().into_iter().collect();
    let (mut must, mut ids) = (Vec::new(), Vec::new());
    for segments in classes {
        let (m, may) = ids_of(segments, &grams);
        must.extend(m);
        ids.extend(may);
    }
    ids.extend(must.iter().cloned());
    crate::base::sort::sort(&mut ids);
    ids.dedup();
    let records = read_records(collection, kept, &ids).await?;
    if let Some(gone) = must.into_iter().find(|id| !records.contains_key(id)) {
        return Err(LookupError::Missing(gone));
    }
    let mut found = Vec::new();
    for segments in classes {
        let lists = class_lists(segments, &grams, &records, pages)?;
        let none = Vec::new();
        let pages_of = |g: &Gram| lists.get(g).cloned().unwrap_or_else(|| none.clone());
        found = union(&found, &query.eval(&pages_of, &[]));
    }
    Ok(found)
}

/// Each piece's pages in one class: its segments' lists, less what later segments take over.
fn class_lists(
    segments: &[Segment],
    grams: &[Gram],
    records: &HashMap<String, Rc<Vec<u8>>>,
    pages: u32,
) -> Result<BTreeMap<Gram, Vec<u32>>, LookupError> {
    let wanted: std::collections::HashSet<&Gram> = grams.iter().collect();
    let mut lists: BTreeMap<Gram, Vec<u32>> = BTreeMap::new();
    // Newest first: pages a later segment takes over are left out of the earlier ones.
    let mut taken: Vec<u32> = Vec::new();
    for s in segments.iter().rev() {
        let mut here: BTreeMap<Gram, Vec<u32>> = BTreeMap::new();
        let mut covers: Vec<u32> = Vec::new();
        let prefix = segment_prefix(&s.id);
        for (id, bytes) in records.iter().filter(|(id, _)| id.starts_with(&prefix)) {
            let entries = read(bytes).ok_or_else(|| LookupError::Torn(id.clone()))?;
            for (gram, range) in entries {
                if gram != COVERS && !wanted.contains(&gram) {
                    continue;
                }
                let list = postings::decode(&bytes[range], pages).ok_or_else(|| LookupError::Torn(id.clone()))?;
                let into = if gram == COVERS { &mut covers } else { here.entry(gram).or_default() };
                *into = union(into, &list);
            }
        }
        if s.covers && covers.is_empty() {
            return Err(LookupError::Torn(record_id(&s.id, 0, 0)));
        }
        for (gram, list) in here {
            let kept: Vec<u32> = list.into_iter().filter(|p| taken.binary_search(p).is_err()).collect();
            let entry = lists.entry(gram).or_default();
            *entry = union(entry, &kept);
        }
        taken = union(&taken, &covers);
    }
    Ok(lists)
}

/// The records `ids` name (those that exist), from what the session or the process kept,
/// else from Chroma.
async fn read_records(
    collection: &Collection,
    session: &RefCell<Kept>,
    ids: &[String],
) -> Result<HashMap<String, Rc<Vec<u8>>>, LookupError> {
    let cid = collection.id().to_string();
    let mut out = HashMap::new();
    let mut missing = Vec::new();
    // The process's, only while its process tier is on.
    let process = crate::pages::store::process::is_on();
    let known = |key: &(String, String)| {
        session.borrow().get(key).or_else(|| KEPT.with(|k| k.borrow().get(key)).filter(|_| process))
    };
    for id in ids {
        match known(&(cid.clone(), id.clone())) {
            Some(Some(bytes)) => {
                out.insert(id.clone(), bytes);
            }
            Some(None) => {}
            None => missing.push(id.clone()),
        }
    }
    if missing.is_empty() {
        return Ok(out);
    }
    let answer = collection.index_records(&missing, "the grep index").await.map_err(LookupError::Chroma)?;
    let keep = |id: &str, record: Option<Rc<Vec<u8>>>| {
        let key = (cid.clone(), id.to_string());
        session.borrow_mut().keep(key.clone(), record.clone());
        if process {
            KEPT.with(|k| k.borrow_mut().keep(key, record));
        }
    };
    for i in 0..answer.ids.len() {
        let id = &answer.ids[i];
        let bytes = Rc::new(record_bytes(answer.metadata(i)).ok_or_else(|| LookupError::Torn(id.clone()))?);
        keep(id, Some(bytes.clone()));
        out.insert(id.clone(), bytes);
    }
    // Ids name one content for good: one that is not there now never will be.
    for id in missing.iter().filter(|id| !out.contains_key(*id)) {
        keep(id, None);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
