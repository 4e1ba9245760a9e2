//! Embedding functions: text in, vectors out.
//!
//! Ingest embeds chunks with one, a ranked search embeds its query with one; both take the
//! host's function (`embed` in JavaScript) or, for ingest, the built-in one. A function
//! that fails says why in words; the caller decides what that means for its command.

use crate::base::sync::LocalFuture;

/// Computes embeddings for a batch of texts, one vector per text, in order.
pub(crate) trait Embedder {
    /// Passages: the chunks ingest writes.
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>>;

    /// Questions, which some models embed apart from passages (multilingual-e5-small reads
    /// "query: " before a question and "passage: " before a passage); the passages' way
    /// when the function has no other.
    fn embed_query(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        self.embed(texts)
    }

    /// The model's name, when the function says (recorded by ingest, checked by search).
    fn model(&self) -> Option<&str> {
        None
    }

    /// How the function turns a passage into a vector, when it says: recorded by ingest,
    /// which embeds every chunk again when it changes. A question is embedded the same
    /// way by every method of one model, so search does not check it.
    fn method(&self) -> Option<&str> {
        None
    }

    /// How many calls of `embed` may be in flight at once: an ingest embeds that many
    /// batches ahead of the one it writes (a service answers several requests at once).
    fn concurrency(&self) -> usize {
        1
    }

    /// How Chroma's own clients name this function in a collection's configuration
    /// (`{"name": "openai", "config": {…}}`), when they know it: ingest records it there, so
    /// Chroma's clients embed questions as chromafs does.
    fn chroma_function(&self) -> Option<&serde_json::Value> {
        None
    }
}

/// Which model embedded a collection, as its tree's manifest records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Embedding {
    pub model: String,
    pub dimension: usize,
    pub method: Option<String>,
}

/// How far from the origin, along its first axis, [`aside`] puts a record.
const ASIDE: f32 = 1000.0;

/// The vector of a record chromafs keeps beside the chunks (the path tree and its shards,
/// the trigram index, annotations), which Chroma requires of every record: a point far from
/// every chunk's (embeddings lie within a few units of the origin). Zero vectors, as these
/// records had, lie at the same distance from every unit vector, one squared unit, nearer
/// than many chunks are to each other; hundreds of them (the trigram index of a thousand
/// pages) crowd Chroma's HNSW graph and strand chunks that no query then finds (on the
/// 1,142-page corpus, about 170 of 2,651: support/settled.mjs counts them). Far away, they
/// are no chunk's neighbour and every chunk stays reachable.
pub(crate) fn aside(dimension: usize) -> Vec<f32> {
    let mut v = vec![0.0; dimension];
    if let Some(first) = v.first_mut() {
        *first = ASIDE;
    }
    v
}

/// How a collection measures the distance between two vectors (its HNSW `space`), so a
/// distance computed here orders chunks as Chroma's own would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Space {
    /// Squared Euclidean distance (Chroma's default).
    L2,
    /// One minus the cosine of the angle.
    Cosine,
    /// One minus the inner product.
    Ip,
}

impl Space {
    /// A space by the name Chroma gives it; `None` for one it does not define.
    pub(crate) fn named(name: &str) -> Option<Space> {
        match name {
            "l2" => Some(Space::L2),
            "cosine" => Some(Space::Cosine),
            "ip" => Some(Space::Ip),
            _ => None,
        }
    }

    /// The distance from `a` to `b` (vectors of one length), in double precision: a
    /// function of the two vectors alone.
    pub(crate) fn distance(self, a: &[f32], b: &[f32]) -> f64 {
        let pairs = || a.iter().zip(b).map(|(x, y)| (f64::from(*x), f64::from(*y)));
        match self {
            Space::L2 => pairs().map(|(x, y)| (x - y) * (x - y)).sum(),
            Space::Ip => 1.0 - pairs().map(|(x, y)| x * y).sum::<f64>(),
            Space::Cosine => {
                let (dot, aa, bb) =
                    pairs().fold((0.0, 0.0, 0.0), |(d, p, q), (x, y)| (d + x * y, p + x * x, q + y * y));
                let norms = (aa * bb).sqrt();
                if norms > 0.0 {
                    1.0 - dot / norms
                } else {
                    1.0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_aside_lie_far_from_every_unit_vector() {
        assert_eq!(aside(3), [ASIDE, 0.0, 0.0]);
        assert!(aside(0).is_empty());
        let unit = [0.6f32, 0.8, 0.0];
        let d = Space::L2.distance(&unit, &aside(3));
        assert!(d > 1e5, "far beyond the 4 squared units between any two unit vectors: {d}");
    }

    #[test]
    fn distances_as_chroma_defines_them() {
        let (a, b) = ([1.0, 0.0], [0.0, 2.0]);
        assert_eq!(Space::L2.distance(&a, &b), 5.0);
        assert_eq!(Space::Ip.distance(&a, &b), 1.0);
        assert_eq!(Space::Cosine.distance(&a, &b), 1.0);
        assert!(Space::Cosine.distance(&[3.0, 4.0], &[6.0, 8.0]).abs() < 1e-12, "cosine ignores length");
        assert_eq!(Space::Cosine.distance(&[0.0, 0.0], &[1.0, 0.0]), 1.0, "a zero vector is no nearer than orthogonal");
        assert_eq!(Space::named("cosine"), Some(Space::Cosine));
        assert_eq!(Space::named("hamming"), None);
    }
}
