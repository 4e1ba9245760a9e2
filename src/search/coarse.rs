//! The coarse query: which pages of a scope have a chunk the filter keeps.
//!
//! One paginated `get` that returns metadata only (no documents), scoped to the visible
//! slugs in the search's scope; records of any other slug are ignored. An empty scope
//! sends nothing at all.

use crate::chroma::{ChromaError, GetRequest};
use crate::collection::{any_of, Bound, Collection};
use serde_json::Value;
use std::collections::HashSet;

/// What the coarse query found.
#[derive(Debug, Default)]
pub struct Candidates {
    /// Slugs with at least one matching chunk.
    pub slugs: HashSet<String>,
    /// Chunk records matched.
    pub matches: usize,
}

/// The slugs among `slugs` whose chunks match `filter`.
pub async fn candidates(collection: &Collection, slugs: &[String], filter: &Value) -> Result<Candidates, ChromaError> {
    if slugs.is_empty() {
        return Ok(Candidates::default());
    }
    let schema = &collection.schema;
    let req = GetRequest {
        where_: Some(any_of(&schema.slug_field, slugs)),
        where_document: Some(filter.clone()),
        include: vec!["metadatas"],
        ..Default::default()
    };
    let resp = collection.get_all(req, Bound::COLLECTION, "a search").await?;
    let wanted: HashSet<&str> = slugs.iter().map(String::as_str).collect();
    let found = (0..resp.ids.len()).filter_map(|i| schema.slug_of(&resp, i)).filter(|s| wanted.contains(s)).map(str::to_string).collect();
    Ok(Candidates { slugs: found, matches: resp.ids.len() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chroma::{Client, ClientConfig};
    use serde_json::json;
    use crate::schema::Schema;
    use crate::testing::{block_on, chroma::URL, FakeChroma};
    use std::rc::Rc;

    fn collection(chroma: &FakeChroma) -> Collection {
        let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(chroma.clone())));
        Collection { client, id: chroma.collection("docs"), schema: Schema::default(), scope: None }
    }

    #[test]
    fn finds_the_pages_with_a_matching_chunk_within_the_scope() {
        let chroma = FakeChroma::new();
        let pages: Vec<(String, Vec<&str>)> = vec![
            ("a.md".into(), vec!["no\n", "token here\n"]),
            ("b.md".into(), vec!["nothing\n"]),
            ("c.md".into(), vec!["token\n"]),
        ];
        for (slug, chunks) in &pages {
            for (i, doc) in chunks.iter().enumerate() {
                chroma.put("docs", &format!("{slug}#{i}"), Some(doc), json!({"page_slug": slug, "chunk_index": i}));
            }
        }
        let c = collection(&chroma);
        let scope = vec!["a.md".to_string(), "b.md".to_string()];
        let found = block_on(async move { candidates(&c, &scope, &json!({"$contains": "token"})).await }).unwrap();
        assert_eq!(found.slugs, HashSet::from(["a.md".to_string()]), "c.md matches but is out of scope");
        assert_eq!(found.matches, 1);
        let get = &chroma.gets()[0];
        assert_eq!(get["include"], json!(["metadatas"]), "no documents");
        assert_eq!(get["where"], json!({"page_slug": {"$in": ["a.md", "b.md"]}}));
    }

    #[test]
    fn an_empty_scope_sends_nothing() {
        let chroma = FakeChroma::new();
        let c = collection(&chroma);
        let found = block_on(async move { candidates(&c, &[], &json!({"$contains": "x"})).await }).unwrap();
        assert!(found.slugs.is_empty());
        assert!(chroma.requests().is_empty());
    }
}
