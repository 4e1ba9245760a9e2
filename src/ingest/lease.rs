//! One writer of a collection at a time, and a trace of a writer that did not finish.
//!
//! Before its first write an ingest puts a lease record in the collection (an id of its
//! own beside the tree's, an expiry), then lists the leases there: another live one and it
//! withdraws, so of two ingests started together at least one sees the other and stops
//! before it writes anything. It renews its lease while it writes (checking, each time,
//! that no other ingest took the collection over after its lease lapsed) and deletes it
//! once the tree is written, with the stale records. A run that fails marks its lease
//! expired on the way out; one that is killed leaves it to expire. Either way the next
//! run finds a lease that is not live: the last run did not finish, so what it wrote is
//! not proven (chunk hashes may be written whose index postings and tree are not), and the
//! next run makes the grep index anew instead of building on it.

use crate::chroma::{Client, GetRequest, UpsertRequest};
use crate::pages::collection::{self, Bound};
use crate::tree::schema;
use serde_json::{json, Map, Value};
use std::cell::Cell;

/// How long a lease lasts unless renewed, by default.
pub(crate) const LEASE_MS: f64 = 60_000.0;
/// The marker value of a lease record (under the tree's marker key).
const KIND: &str = "ingest-lease";
const OWNER: &str = "owner";
const UNTIL: &str = "until";

/// How a run holds its lease: for how long unless renewed, and what tells its owner id from
/// that of another run started in the same millisecond (the host's randomness; none natively).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Terms {
    pub ms: f64,
    pub entropy: u64,
}

impl Default for Terms {
    fn default() -> Self {
        Terms { ms: LEASE_MS, entropy: 0 }
    }
}

/// The id of the lease of `owner` in a collection whose tree is `tree_id`.
pub(crate) fn lease_id(tree_id: &str, owner: &str) -> String {
    format!("{tree_id}@ingest#{owner}")
}

/// Whether `id` is a lease record's, by its id (the listing of a collection names them).
pub(crate) fn is_lease(tree_id: &str, id: &str) -> bool {
    id.strip_prefix(tree_id).is_some_and(|rest| rest.starts_with("@ingest#"))
}

/// The leases a collection holds: who, and until when.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Leases(pub Vec<(String, f64)>);

impl Leases {
    /// The leases among listed records (`ids` with their metadata).
    pub(crate) fn of<'a>(records: impl Iterator<Item = (&'a str, Option<&'a Map<String, Value>>)>) -> Leases {
        let mut out = Vec::new();
        for (id, meta) in records {
            let Some(m) = meta.filter(|m| m.get(schema::MARKER.0).and_then(Value::as_str) == Some(KIND)) else {
                continue;
            };
            let owner = m.get(OWNER).and_then(Value::as_str).unwrap_or(id).to_string();
            // A lease that does not say until when is not live.
            out.push((owner, m.get(UNTIL).and_then(Value::as_f64).unwrap_or(0.0)));
        }
        Leases(out)
    }

    /// The latest expiry of a live lease, leaving out `own`'s (a run's own lease).
    pub(crate) fn live(&self, now: f64, own: Option<&str>) -> Option<f64> {
        self.0.iter().filter(|(o, until)| Some(o.as_str()) != own && *until > now).map(|(_, u)| *u).reduce(f64::max)
    }

    /// Whether a run left a lease it did not release: it did not finish.
    pub(crate) fn unfinished(&self, now: f64) -> bool {
        self.0.iter().any(|(_, until)| *until <= now)
    }
}

/// Why an ingest does not start: another holds the collection.
pub(crate) fn busy(collection: &str, until: f64, now: f64) -> String {
    let seconds = ((until - now) / 1000.0).ceil().max(1.0);
    format!(
        "another ingest is writing collection {collection:?}: its lease runs {seconds} s more, and is renewed while it \
         writes; run this one when it has finished (if it was stopped, its lease ends by itself)"
    )
}

/// An ingest's lease, taken before its first write ([`Lease::hold`]).
pub(crate) struct Lease<'a> {
    client: &'a Client,
    cid: &'a str,
    collection: &'a str,
    tree_id: &'a str,
    owner: String,
    ms: f64,
    dimension: Cell<usize>,
    /// When it was last written; none: not taken.
    renewed: Cell<Option<f64>>,
}

impl<'a> Lease<'a> {
    /// A lease not yet taken, its owner id made of the clock and `terms.entropy`.
    pub(crate) fn new(client: &'a Client, cid: &'a str, collection: &'a str, tree_id: &'a str, terms: Terms) -> Self {
        let seed = format!("{}:{}:{}", client.now_ms(), cid, terms.entropy);
        let owner = format!("{:016x}", crate::tree::codec::fingerprint(seed.as_bytes()));
        let (dimension, renewed) = (Cell::new(1), Cell::new(None));
        Lease { client, cid, collection, tree_id, owner, ms: terms.ms, dimension, renewed }
    }

    /// The length of the lease record's vector (the collection's dimension, once known).
    pub(crate) fn set_dimension(&self, dimension: usize) {
        self.dimension.set(dimension.max(1));
    }

    /// Called before every write: takes the lease the first time, and renews it when a
    /// quarter of it has passed; either way, fails when another ingest holds a live lease.
    pub(crate) async fn hold(&self) -> Result<(), String> {
        let now = self.client.now_ms();
        match self.renewed.get() {
            Some(at) if now - at < self.ms / 4.0 => return Ok(()),
            Some(_) => {
                // Renewing: nobody may have taken over while this run was slow.
                self.check(now).await?;
                self.write(now + self.ms).await?;
            }
            None => {
                self.write(now + self.ms).await?;
                if let Err(e) = self.check(self.client.now_ms()).await {
                    let _ = self.client.delete(self.cid, &[self.id()]).await;
                    return Err(e);
                }
            }
        }
        self.renewed.set(Some(now));
        Ok(())
    }

    /// Fails when another ingest holds a live lease, or this run's is gone.
    async fn check(&self, now: f64) -> Result<(), String> {
        let (key, _) = schema::MARKER;
        let req = GetRequest { where_: Some(json!({ key: KIND })), include: vec!["metadatas"], ..Default::default() };
        let all = collection::read_whole(self.client, self.cid, req, Bound::COLLECTION, "the ingest leases")
            .await
            .map_err(|e| e.to_string())?;
        let leases = Leases::of((0..all.ids.len()).map(|i| (all.ids[i].as_str(), all.metadata(i))));
        if let Some(until) = leases.live(now, Some(&self.owner)) {
            return Err(busy(self.collection, until, now));
        }
        if self.renewed.get().is_some() && !leases.0.iter().any(|(o, _)| *o == self.owner) {
            return Err(format!(
                "another ingest took collection {:?} over while this one was stopped past its lease; run it again",
                self.collection
            ));
        }
        Ok(())
    }

    async fn write(&self, until: f64) -> Result<(), String> {
        let mut meta = Map::new();
        meta.insert(schema::MARKER.0.into(), json!(KIND));
        meta.insert(OWNER.into(), json!(self.owner));
        meta.insert(UNTIL.into(), json!(until));
        let req = UpsertRequest {
            ids: vec![self.id()],
            embeddings: vec![crate::base::embed::aside(self.dimension.get())],
            documents: Vec::new(),
            metadatas: vec![meta],
        };
        self.client.upsert(self.cid, &req).await.map_err(|e| e.to_string())
    }

    fn id(&self) -> String {
        lease_id(self.tree_id, &self.owner)
    }

    /// The run finished: its lease goes (when it took one).
    pub(crate) async fn release(&self) -> Result<(), String> {
        if self.renewed.get().is_none() {
            return Ok(());
        }
        self.client.delete(self.cid, &[self.id()]).await.map_err(|e| e.to_string())
    }

    /// The run failed after taking its lease: the lease is marked expired, so that the
    /// next run starts at once and knows this one did not finish. Best effort: a lease that
    /// cannot be written expires by itself.
    pub(crate) async fn fail(&self) {
        if self.renewed.get().is_some() {
            let _ = self.write(0.0).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(owner: &str, until: f64) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert(schema::MARKER.0.into(), json!(KIND));
        m.insert(OWNER.into(), json!(owner));
        m.insert(UNTIL.into(), json!(until));
        m
    }

    #[test]
    fn leases_are_read_from_their_records_alone() {
        let (a, b, tree) = (meta("a", 5000.0), meta("b", 100.0), Map::new());
        let leases = Leases::of(
            [("t@ingest#a", Some(&a)), ("t@ingest#b", Some(&b)), ("t", Some(&tree)), ("x", None)].into_iter(),
        );
        assert_eq!(leases, Leases(vec![("a".into(), 5000.0), ("b".into(), 100.0)]));
        assert_eq!(leases.live(1000.0, Some("b")), Some(5000.0), "a's lease is live");
        assert_eq!(leases.live(1000.0, Some("a")), None, "a's own does not count");
        assert!(leases.unfinished(1000.0), "b's lapsed: b did not finish");
        assert!(!Leases(vec![("a".into(), 5000.0)]).unfinished(1000.0));
        assert!(is_lease("t", "t@ingest#a") && !is_lease("t", "t#0") && !is_lease("t", "u@ingest#a"));
    }

    #[test]
    fn two_runs_started_in_the_same_millisecond_own_different_leases() {
        let chroma = crate::testing::FakeChroma::new();
        let client =
            Client::new(crate::chroma::ClientConfig::new(crate::testing::chroma::URL), std::rc::Rc::new(chroma));
        let lease = |entropy| Lease::new(&client, "c", "docs", "t", Terms { ms: LEASE_MS, entropy });
        assert_ne!(lease(1).id(), lease(2).id(), "the same clock, other entropy");
        assert_eq!(lease(1).id(), lease(1).id());
    }

    #[test]
    fn a_busy_collection_is_said_with_the_time_left() {
        let e = busy("docs", 31_500.0, 1_000.0);
        assert!(e.starts_with("another ingest is writing collection \"docs\": its lease runs 31 s more"), "{e}");
    }
}
