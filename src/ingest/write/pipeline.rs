//! The changed chunks into Chroma, batch by batch, embedding ahead of the write.
//!
//! A model on the machine's cores and a service across the network cost different things,
//! but either way a batch waits on its vectors and then on Chroma. Done one after the
//! other, an ingest takes the sum of both; here the next batches are embedded while one is
//! written, as many at once as the embedder takes (`Embedder::concurrency`: a service
//! answers several requests at once, a model's threads share one call), so an ingest takes
//! about the longer of the two. Writes go one at a time, in the order the batches are
//! embedded, and each batch is written as soon as its vectors are in: when a run stops (a
//! service that gave up, Chroma out of reach), what it wrote carries its content hash, and
//! the next run embeds only what is left. Vectors are held for at most one batch more than
//! are embedding, so memory does not grow with the corpus.

use super::{chunk_metadata, Record, CONTENT_HASH, WRITE_BATCH};
use crate::base::embed::Embedder;
use crate::base::sync::{join_all, Semaphore};
use crate::chroma::{Client, UpsertRequest};
use crate::ingest::lease::Lease;
use crate::tree::schema::Schema;
use serde_json::json;
use std::cell::{Cell, RefCell};

/// Writes `changed` (each record with its content hash) through `embedder`; the length of
/// the vectors, or none when nothing was written.
pub(super) async fn write_chunks(
    client: &Client,
    cid: &str,
    schema: &Schema,
    embedder: &dyn Embedder,
    changed: &[(&Record, &String)],
    lease: &Lease<'_>,
) -> Result<Option<usize>, String> {
    let ahead = embedder.concurrency().max(1);
    let embedding = Semaphore::new(ahead);
    let writing = Semaphore::new(1);
    // Taken first, in batch order, and held until the batch is written.
    let holding = Semaphore::new(ahead + 1);
    let failed: RefCell<Option<String>> = RefCell::new(None);
    // A batch embedded before another failed is still written (its vectors are paid for,
    // and the next run then embeds only the rest); after a write failed, none is.
    let write_failed = Cell::new(false);
    let dimension: Cell<Option<usize>> = Cell::new(None);
    let batches = changed.chunks(WRITE_BATCH).map(|batch| async {
        let _held = holding.acquire().await;
        if failed.borrow().is_some() {
            return;
        }
        let docs: Vec<String> = batch.iter().map(|(r, _)| r.document.clone()).collect();
        let vectors = {
            let _turn = embedding.acquire().await;
            if failed.borrow().is_some() {
                return;
            }
            embedder.embed(docs.clone()).await
        };
        let checked =
            vectors.map_err(|e| format!("embedding failed: {e}")).and_then(|v| checked(v, docs.len(), &dimension));
        let embeddings = match checked {
            Ok(v) => v,
            Err(e) => {
                failed.borrow_mut().get_or_insert(e);
                return;
            }
        };
        let _write = writing.acquire().await;
        if write_failed.get() {
            return;
        }
        lease.set_dimension(embeddings.first().map_or(1, Vec::len));
        if let Err(e) = lease.hold().await {
            write_failed.set(true);
            failed.borrow_mut().get_or_insert(e);
            return;
        }
        let ids = batch.iter().map(|(r, _)| r.id.clone()).collect();
        let metadatas = batch
            .iter()
            .map(|(r, h)| {
                let mut m = chunk_metadata(schema, r);
                m.insert(CONTENT_HASH.into(), json!(h));
                m
            })
            .collect();
        let request = UpsertRequest { ids, embeddings, documents: docs, metadatas };
        if let Err(e) = client.upsert(cid, &request).await {
            write_failed.set(true);
            failed.borrow_mut().get_or_insert(e.to_string());
        }
    });
    join_all(batches.collect()).await;
    match failed.into_inner() {
        Some(e) => Err(e),
        None => Ok(dimension.get()),
    }
}

/// One batch's vectors, checked: one for each text, of finite numbers, all as long as
/// every other batch's (`dimension`, set by the first).
fn checked(vectors: Vec<Vec<f32>>, texts: usize, dimension: &Cell<Option<usize>>) -> Result<Vec<Vec<f32>>, String> {
    if vectors.len() != texts {
        return Err(format!("the embedding function returned {} vectors for {texts} documents", vectors.len()));
    }
    let first = dimension.get().or(vectors.first().map(Vec::len)).unwrap_or(0);
    if let Some(other) = vectors.iter().find(|v| v.len() != first || v.is_empty()) {
        return Err(format!("the embedding function returned vectors of {first} and {} dimensions", other.len()));
    }
    if vectors.iter().any(|v| v.iter().any(|x| !x.is_finite())) {
        return Err("the embedding function returned a vector with a number that is not finite".into());
    }
    dimension.set(Some(first));
    Ok(vectors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_are_checked_before_they_are_written() {
        let dim = Cell::new(None);
        assert!(checked(vec![vec![1.0, 0.0]], 2, &dim).unwrap_err().contains("1 vectors for 2"));
        assert!(checked(vec![vec![1.0, 0.0], vec![1.0]], 2, &dim).unwrap_err().contains("of 2 and 1"));
        assert!(checked(vec![vec![f32::NAN, 0.0]], 1, &dim).unwrap_err().contains("not finite"));
        assert!(checked(vec![vec![]], 1, &dim).is_err());
        assert_eq!(dim.get(), None);
        checked(vec![vec![1.0, 0.0]], 1, &dim).unwrap();
        assert_eq!(dim.get(), Some(2));
        assert!(checked(vec![vec![1.0, 0.0, 0.0]], 1, &dim).unwrap_err().contains("of 2 and 3"), "batches agree");
    }
}
