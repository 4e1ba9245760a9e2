//! The chunks nearest to a question's embedding among those a session sees: the dense
//! ranking, decided here from the vectors rather than taken from the order of an answer.
//!
//! Chroma answers `query` from an HNSW graph built over every record of the collection,
//! hidden ones included, by several threads at once. A scoped query walks that graph and
//! keeps the nearest visible records it reaches; when the scope holds more records than
//! the walk keeps (`ef_search`, 100 by default, or the number asked for when larger), which
//! visible records it reaches depends on the hidden ones beside them and on the order the
//! threads built the graph in. Two collections with the same visible pages then rank them
//! differently, and one collection may answer differently after it is written again. Equal
//! distances (chunks of one text) come back in the graph's order. So:
//!
//! - A scope small enough to read in one answer ([`EXACT_NUMBERS`] numbers of vectors: 300
//!   chunks of 384 dimensions, Chroma Cloud's page), as the path tree counts its chunks, is
//!   read whole, vectors included, in one request in place of the query, and ranked by the
//!   distance computed here in the collection's space: the exact nearest, a function of the
//!   visible chunks and the question alone, whatever else the collection holds and however
//!   its index was built. (Asking the index for as many as the scope holds would reach them
//!   all only if the graph links each to the rest, which the hidden records also decide.)
//! - A larger scope cannot be ranked exactly at a cost that does not grow with it, and is
//!   asked of Chroma's index for [`OVERFETCH`] times the neighbours kept (at most 300): the
//!   nearest of those by distance are kept, which are the exact nearest whenever the walk
//!   found them (the extra ones widen the walk: `ef` is the number asked for). What is
//!   kept can still depend on hidden records, when the walk misses one of the nearest.
//! - Either way, chunks at the same distance are ordered by id, never by arrival.

use super::chunks::{Chunk, Reach};
use crate::base::embed::Space;
use crate::chroma::{ChromaError, GetRequest, GetResponse, QueryRequest, MAX_PAGE};
use std::collections::HashSet;

/// The most numbers of vectors (chunks × dimension) a scope read whole may hold: one
/// answer of 300 chunks of 384 dimensions.
pub(super) const EXACT_NUMBERS: usize = MAX_PAGE * 384;

/// Neighbours asked of Chroma's index per neighbour kept, for a scope too large to read.
const OVERFETCH: usize = 3;

/// How the nearest chunks were found (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    /// The scope read whole and ranked here.
    Exact(Space),
    /// Chroma's approximate index, asked for more than is kept.
    Index,
}

/// How the nearest chunks of a scope of `chunks` chunks (`None`: a count the tree does not
/// give), for a question of `dimension` numbers, are found: read whole when Chroma leaves
/// hidden chunks out (the count is then of what it answers), the collection's space is
/// known, and the vectors fit in one answer.
pub(super) fn method(scoped: bool, space: Option<Space>, chunks: Option<u64>, dimension: usize) -> Method {
    let fits = |n: u64| n < MAX_PAGE as u64 && (n as usize).saturating_mul(dimension) <= EXACT_NUMBERS;
    match (space, chunks) {
        (Some(space), Some(n)) if scoped && fits(n) => Method::Exact(space),
        _ => Method::Index,
    }
}

/// The `n` chunks nearest to `embedding` that the session may see, nearest first, and
/// their distances (in the collection's space), in the same order.
pub(super) async fn nearest(
    reach: &Reach<'_>,
    embedding: Vec<f32>,
    n: usize,
) -> Result<(Vec<Chunk>, Vec<f64>), ChromaError> {
    if let Method::Exact(space) = method(reach.scoped(), reach.view.space(), reach.scope_chunks(), embedding.len()) {
        // `None`: more came back than the tree counts, or a vector Chroma's query would
        // refuse (then its answer says why).
        if let Some(found) = read_whole(reach, &embedding, space).await? {
            return Ok(best(found, n));
        }
    }
    let found = from_index(reach, embedding, (OVERFETCH * n).min(MAX_PAGE)).await?;
    Ok(best(found, n))
}

/// Every chunk of the scope with its distance to `embedding`, in as many requests as the
/// session has access clauses; `None` when an answer is full (the tree counted fewer
/// chunks than there are) or a vector is missing or of another length.
async fn read_whole(
    reach: &Reach<'_>,
    embedding: &[f32],
    space: Space,
) -> Result<Option<Vec<(f64, Chunk)>>, ChromaError> {
    let collection = reach.collection();
    let req = GetRequest {
        where_: reach.dir_where(),
        include: vec!["documents", "metadatas", "embeddings"],
        limit: Some(MAX_PAGE),
        ..Default::default()
    };
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for req in collection.scoped(req) {
        let resp = collection.get_with_vectors(&req, embedding.len(), "a ranked search").await?;
        if resp.ids.len() >= MAX_PAGE {
            return Ok(None);
        }
        for i in 0..resp.ids.len() {
            if !seen.insert(resp.ids[i].clone()) {
                continue;
            }
            let Some(c) = reach.chunk(&resp, i) else { continue };
            match resp.embedding(i) {
                Some(v) if v.len() == embedding.len() => found.push((space.distance(embedding, v), c)),
                _ => return Ok(None),
            }
        }
    }
    Ok(Some(found))
}

/// The chunks Chroma's index finds nearest to `embedding` (`asked` per access clause),
/// with the distances it gives.
async fn from_index(reach: &Reach<'_>, embedding: Vec<f32>, asked: usize) -> Result<Vec<(f64, Chunk)>, ChromaError> {
    let collection = reach.collection();
    let req = QueryRequest {
        query_embeddings: vec![embedding],
        n_results: asked,
        where_: reach.dir_where(),
        include: vec!["documents", "metadatas", "distances"],
    };
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for req in collection.scoped_query(req) {
        let resp = collection.query(&req, "a ranked search").await?;
        found.extend(kept(reach, &resp.records, &resp.distances, &mut seen));
    }
    Ok(found)
}

/// The records of an answer that are chunks the session sees, with their distances.
fn kept(reach: &Reach<'_>, resp: &GetResponse, distances: &[f64], seen: &mut HashSet<String>) -> Vec<(f64, Chunk)> {
    (0..resp.ids.len())
        .filter(|&i| seen.insert(resp.ids[i].clone()))
        .filter_map(|i| Some((distances.get(i).copied().unwrap_or(f64::MAX), reach.chunk(resp, i)?)))
        .collect()
}

/// The `n` nearest, nearest first (at one distance, by id), and their distances.
fn best(mut found: Vec<(f64, Chunk)>, n: usize) -> (Vec<Chunk>, Vec<f64>) {
    crate::base::sort::sort_by(&mut found, |a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
    found.truncate(n);
    found.into_iter().map(|(d, c)| (c, d)).unzip()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(id: &str) -> Chunk {
        Chunk { id: id.into(), path: format!("/{id}.md"), lang: "en", text: String::new(), start_line: None }
    }

    #[test]
    fn the_nearest_in_a_total_order_whatever_the_answer_s_order() {
        let found = |order: &[usize]| {
            let all = [(0.5, "c"), (0.25, "b"), (0.5, "a"), (0.75, "d"), (0.5, "e")];
            order.iter().map(|&i| (all[i].0, chunk(all[i].1))).collect::<Vec<_>>()
        };
        let ids = |v: (Vec<Chunk>, Vec<f64>)| v.0.into_iter().map(|c| c.id).collect::<Vec<_>>();
        for order in [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [2, 4, 0, 3, 1]] {
            assert_eq!(ids(best(found(&order), 3)), ["b", "a", "c"], "{order:?}");
            assert_eq!(ids(best(found(&order), 9)), ["b", "a", "c", "e", "d"], "{order:?}");
            assert_eq!(best(found(&order), 3).1, [0.25, 0.5, 0.5], "the distances, nearest first");
        }
    }

    #[test]
    fn a_scope_is_read_whole_when_its_vectors_fit_one_answer() {
        let l2 = Some(Space::L2);
        assert_eq!(method(true, l2, Some(299), 384), Method::Exact(Space::L2));
        assert_eq!(method(true, l2, Some(300), 384), Method::Index, "a full answer could not tell that it is all");
        assert_eq!(method(true, l2, Some(75), 1536), Method::Exact(Space::L2));
        assert_eq!(method(true, l2, Some(76), 1536), Method::Index, "larger vectors, fewer chunks");
        assert_eq!(method(false, l2, Some(10), 384), Method::Index, "an unscoped answer would count hidden chunks");
        assert_eq!(method(true, None, Some(10), 384), Method::Index, "distances in an unknown space");
        assert_eq!(method(true, l2, None, 384), Method::Index, "pages whose chunks the tree does not count");
    }
}
