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
