//! The coarse query: which pages of a search's scope have a chunk the filter keeps.
//!
//! Its size never grows with the corpus. For collections whose chunks carry their
//! directories (chromafs's ingest) the scope is one predicate, `dirs` contains the
//! directory searched; for others it is a slug list only when it fits Chroma Cloud's
//! predicate quota, and otherwise the whole collection, with hits outside the scope
//! dropped here. The session's access goes into every query (see [`Collection`]), and
//! only metadata comes back, never text.
//!
//! It adapts to how much matches: a first page of hits that comes back short is the
//! answer. After a full one, a single hit asked for further on tells whether listing
//! every hit and then reading the pages they name would cost more requests than reading
//! the scope itself: then the caller is told to load it all ([`Found::MostOfScope`]).
//! Where that point lies follows from the first page: `M` hits on pages holding `h` hits
//! each name `M / h` pages of `c` chunks each, so listing them and reading those pages
//! costs `M + M·c/h` records against the scope's `S`, and the probe goes at
//! `S / (1 + c/h)` (never past half the scope). A common word on a collection cut into
//! small chunks, a few hits on every page, is read whole at once instead of listed
//! window after window. Otherwise the next pages of hits follow, ten at once, round after
//! round, until one comes back short. When the tree does not count the scope's chunks,
//! one round is all it tries. An empty scope sends nothing at all.

use crate::base::hash::PathSet;
use crate::chroma::{ChromaError, GetRequest, GetResponse, MAX_PAGE};
use crate::pages::collection::{answers, any_of, Collection, Pages, Scoped, WINDOWS};
use crate::tree::schema;
use serde_json::{json, Value};
use std::collections::HashSet;

/// What a search reads, as the coarse query needs it.
#[derive(Debug)]
pub(crate) struct SearchScope<'a> {
    /// The visible slugs the command would read; hits elsewhere are ignored.
    pub slugs: &'a PathSet<&'a str>,
    /// The directory holding them all (`""` for the root), when chunks carry `dirs`.
    pub dir: Option<String>,
    /// Chunk records of those pages, when the tree counts them all.
    pub chunks: Option<u64>,
}

/// What the coarse query found.
#[derive(Debug, PartialEq)]
pub(crate) enum Found {
    /// Slugs with at least one matching chunk, and how many chunks of the scope matched
    /// (hits elsewhere are not counted: they may be pages the session cannot see).
    Pages { slugs: PathSet<String>, matches: usize },
    /// The filter keeps so much that the scope is cheaper to read whole.
    MostOfScope { matches: usize },
}

fn and(parts: Vec<Value>) -> Option<Value> {
    match parts.len() {
        0 => None,
        1 => parts.into_iter().next(),
        _ => Some(json!({ "$and": parts })),
    }
}

/// The scope as a `where`: a directory, a slug list that fits, or nothing.
fn scope_where(collection: &Collection, scope: &SearchScope) -> Option<Value> {
    match &scope.dir {
        Some(dir) if dir.is_empty() => None,
        Some(dir) => Some(json!({ schema::DIRS: { "$contains": dir } })),
        None if scope.slugs.len() <= collection.slugs_per_query() => {
            let mut slugs: Vec<String> = scope.slugs.iter().map(|s| s.to_string()).collect();
            crate::base::sort::sort(&mut slugs);
            Some(any_of(&collection.schema().slug_field, &slugs))
        }
        None => None,
    }
}

pub(crate) async fn candidates(
    collection: &Collection,
    scope: &SearchScope<'_>,
    filter: &Value,
) -> Result<Found, ChromaError> {
    if scope.slugs.is_empty() {
        return Ok(Found::Pages { slugs: PathSet::default(), matches: 0 });
    }
    let base = GetRequest {
        where_: and(scope_where(collection, scope).into_iter().collect()),
        where_document: Some(filter.clone()),
        include: vec!["metadatas"],
        ..Default::default()
    };
    let mut hits = GetResponse::default();
    let size = scope.chunks.map(|chunks| Size { chunks, pages: scope.slugs.len() });
    for req in collection.scoped(base) {
        match enumerate(collection, req, size).await? {
            Some(part) => hits.extend(part),
            None => return Ok(Found::MostOfScope { matches: hits.ids.len() }),
        }
    }
    let in_scope: Vec<&str> = (0..hits.ids.len())
        .filter_map(|i| collection.schema().slug_of(&hits, i))
        .filter(|s| scope.slugs.contains(*s))
        .collect();
    Ok(Found::Pages { matches: in_scope.len(), slugs: in_scope.into_iter().map(str::to_string).collect() })
}

/// Every hit of one query, or `None` when there are too many to be worth listing; asked
/// again in the same session, the answer it had.
async fn enumerate(
    collection: &Collection,
    req: Scoped<GetRequest>,
    size: Option<Size>,
) -> Result<Option<GetResponse>, ChromaError> {
    let key = answers::key(req.request(), &format!("|{:?}", size.map(|s| (s.chunks, s.pages))));
    if let Some(answer) = collection.answers().get(&key) {
        return Ok(answer);
    }
    let shared = collection.shared_answers();
    let answer = match shared {
        Some(shared) => shared.get(&key).await,
        None => None,
    };
    let answer = match answer {
        Some(answer) => answer,
        None => {
            let answer = ask(collection, &req, size).await?;
            if let Some(shared) = shared {
                shared.keep(&key, answer.clone());
            }
            answer
        }
    };
    collection.answers().keep(key, answer.clone());
    Ok(answer)
}

/// How big a scope is, when the tree counts its chunks.
#[derive(Debug, Clone, Copy)]
struct Size {
    chunks: u64,
    pages: usize,
}

impl Size {
    /// Hits past which listing them and reading their pages costs more than reading the
    /// scope, judged from a first page of hits (see the module's documentation).
    fn worth_listing(self, first: &GetResponse, schema: &schema::Schema) -> usize {
        let half = self.chunks as usize / 2;
        let pages: HashSet<&str> = (0..first.ids.len()).filter_map(|i| schema.slug_of(first, i)).collect();
        if pages.is_empty() || self.pages == 0 {
            return half;
        }
        let hits_per_page = first.ids.len() as f64 / pages.len() as f64;
        let chunks_per_page = self.chunks as f64 / self.pages as f64;
        ((self.chunks as f64 / (1.0 + chunks_per_page / hits_per_page)) as usize).min(half)
    }
}

async fn ask(
    collection: &Collection,
    req: &Scoped<GetRequest>,
    size: Option<Size>,
) -> Result<Option<GetResponse>, ChromaError> {
    let what = "a search";
    let mut pages = Pages::default();
    if !collection.windows(req, 0, 1, &mut pages, what).await? {
        return Ok(Some(pages.into_answer()));
    }
    // Past this many hits, reading the scope is cheaper than listing the rest; one hit
    // asked for at that offset says at once whether it comes to that.
    let worth = size.map_or(MAX_PAGE * WINDOWS, |s| s.worth_listing(pages.answer(), collection.schema()));
    if worth > MAX_PAGE && !collection.get(&req.window(1, worth - 1), what).await?.ids.is_empty() {
        return Ok(None);
    }
    let mut next = 1;
    while pages.len() < worth {
        // As many pages as may still be worth listing, ten at most.
        let count = WINDOWS.min((worth - pages.len()).div_ceil(MAX_PAGE));
        let last_full = collection.windows(req, next, count, &mut pages, what).await?;
        next += count;
        if pages.len() >= worth {
            break;
        }
        if !last_full {
            return Ok(Some(pages.into_answer()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chroma::{Client, ClientConfig};
    use crate::testing::{block_on, chroma::URL, FakeChroma};
    use crate::tree::access::{Groups, SessionAccess as Access};
    use crate::tree::schema::Schema;
    use std::rc::Rc;

    /// `n` one-chunk pages under `docs/`, every `every`th holding "token"; chunks carry
    /// access and dirs as chromafs's ingest writes them.
    fn corpus(n: usize, every: usize) -> FakeChroma {
        let chroma = FakeChroma::new();
        for i in 0..n {
            let slug = format!("docs/p{i:04}.md");
            let doc = if i % every == 0 { "a token\n" } else { "nothing\n" };
            chroma.put(
                "docs",
                &format!("{slug}#0"),
                Some(doc),
                json!({"page_slug": slug, "chunk_index": 0, "isPublic": true, "groups": [""], "dirs": ["", "docs"]}),
            );
        }
        chroma.put("docs", "other/x.md#0", Some("token\n"), json!({"page_slug": "other/x.md", "chunk_index": 0, "isPublic": true, "groups": [""], "dirs": ["", "other"]}));
        chroma
    }

    fn collection(chroma: &FakeChroma) -> Collection {
        let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(chroma.clone())));
        Collection::new(client, chroma.collection("docs"), Schema::default(), Some(Access::new(&Groups::default())))
    }

    fn slugs(n: usize) -> PathSet<String> {
        (0..n).map(|i| format!("docs/p{i:04}.md")).collect()
    }

    fn run(chroma: &FakeChroma, scope: SearchScope<'static>) -> Found {
        let c = collection(chroma);
        block_on(async move { candidates(&c, &scope, &json!({"$contains": "token"})).await }).unwrap()
    }

    fn leak<T>(t: T) -> &'static T {
        Box::leak(Box::new(t))
    }

    /// The scope of `n` pages, as a search borrows it.
    fn scope(n: usize) -> &'static PathSet<&'static str> {
        leak(slugs(n).into_iter().map(|s| leak(s).as_str()).collect())
    }

    #[test]
    fn a_rare_match_is_one_query_of_constant_size() {
        let chroma = corpus(2000, 500);
        let found = run(&chroma, SearchScope { slugs: scope(2000), dir: Some("docs".into()), chunks: Some(2000) });
        let expected: PathSet<String> = ["docs/p0000.md", "docs/p0500.md", "docs/p1000.md", "docs/p1500.md"]
            .map(String::from)
            .into_iter()
            .collect();
        assert_eq!(found, Found::Pages { slugs: expected, matches: 4 });
        let gets = chroma.gets();
        assert_eq!(gets.len(), 1);
        assert_eq!(
            gets[0]["where"],
            json!({"$and": [{"dirs": {"$contains": "docs"}}, {"isPublic": true}]}),
            "no slug list"
        );
        assert!(gets[0].to_string().len() < 300);
    }

    #[test]
    fn hits_outside_the_scope_are_ignored() {
        let chroma = corpus(10, 1);
        let found = run(&chroma, SearchScope { slugs: scope(3), dir: Some(String::new()), chunks: Some(3) });
        assert_eq!(
            found,
            Found::Pages { slugs: slugs(3), matches: 3 },
            "other/x.md and docs/p0003… matched but are not read, nor counted"
        );
        assert_eq!(chroma.gets()[0]["where"], json!({"isPublic": true}), "the root needs no directory predicate");
    }

    #[test]
    fn many_hits_are_enumerated_in_parallel_pages() {
        let chroma = corpus(8000, 10);
        let found = run(&chroma, SearchScope { slugs: scope(8000), dir: Some("docs".into()), chunks: Some(8000) });
        assert!(matches!(&found, Found::Pages { slugs, .. } if slugs.len() == 800));
        let offsets: Vec<u64> = chroma.gets().iter().map(|g| g["offset"].as_u64().unwrap_or(0)).collect();
        let expected: Vec<u64> = [0, 3999].into_iter().chain((1..11).map(|i| i * 300)).collect();
        assert_eq!(offsets, expected, "the first page, the probe at half the scope, then ten at once");
    }

    #[test]
    fn a_filter_that_keeps_most_of_the_scope_stops_listing() {
        let chroma = corpus(4000, 1);
        let found = run(&chroma, SearchScope { slugs: scope(4000), dir: Some("docs".into()), chunks: Some(4000) });
        assert_eq!(found, Found::MostOfScope { matches: 0 });
        assert_eq!(chroma.gets().len(), 2, "a full page, then one hit asked for at half the scope");
        assert_eq!((chroma.gets()[1]["offset"].as_u64(), chroma.gets()[1]["limit"].as_u64()), (Some(1999), Some(1)));
        let small = corpus(500, 1);
        assert_eq!(
            run(&small, SearchScope { slugs: scope(500), dir: Some("docs".into()), chunks: Some(500) }),
            Found::MostOfScope { matches: 0 }
        );
        assert_eq!(small.gets().len(), 1, "a scope of 500 chunks is read whole after one full page");
    }

    #[test]
    fn a_few_hits_on_every_page_of_many_chunks_read_the_scope_whole() {
        // 1,000 pages of five chunks, two of them holding the word: listing 2,000 hits and
        // then reading the 1,000 pages they name costs more than reading the 5,000 chunks.
        let chroma = FakeChroma::new();
        for i in 0..1000 {
            let slug = format!("docs/p{i:04}.md");
            for c in 0..5 {
                let doc = if c < 2 { "a token\n" } else { "nothing\n" };
                let meta = json!({"page_slug": slug, "chunk_index": c, "isPublic": true, "groups": [""], "dirs": ["", "docs"]});
                chroma.put("docs", &format!("{slug}#{c}"), Some(doc), meta);
            }
        }
        let found = run(&chroma, SearchScope { slugs: scope(1000), dir: Some("docs".into()), chunks: Some(5000) });
        assert_eq!(found, Found::MostOfScope { matches: 0 });
        let probe = &chroma.gets()[1];
        assert_eq!((probe["offset"].as_u64(), probe["limit"].as_u64()), (Some(1427), Some(1)), "5,000 / (1 + 5/2)");
    }

    #[test]
    fn half_a_scope_is_listed_in_rounds_not_read_whole() {
        let chroma = corpus(10_200, 3);
        let found = run(&chroma, SearchScope { slugs: scope(10_200), dir: Some("docs".into()), chunks: Some(10_200) });
        assert!(matches!(&found, Found::Pages { slugs, .. } if slugs.len() == 3_400));
        assert_eq!(
            chroma.gets().len(),
            1 + 1 + 10 + 6,
            "the first page, the probe at half the scope, then rounds of at most ten until a page comes back short"
        );
    }

    #[test]
    fn without_dirs_a_slug_list_only_when_it_fits_the_quota() {
        let chroma = corpus(40, 1);
        run(&chroma, SearchScope { slugs: scope(5), dir: None, chunks: None });
        let where_ = &chroma.gets()[0]["where"];
        assert_eq!(where_["$and"][0]["page_slug"]["$in"].as_array().unwrap().len(), 5);
        chroma.clear_log();
        let found = run(&chroma, SearchScope { slugs: scope(20), dir: None, chunks: None });
        assert_eq!(
            chroma.gets()[0]["where"],
            json!({"isPublic": true}),
            "20 slugs do not fit: the whole collection, filtered here"
        );
        assert_eq!(found, Found::Pages { slugs: slugs(20), matches: 20 });
    }

    #[test]
    fn an_empty_scope_sends_nothing() {
        let chroma = FakeChroma::new();
        assert_eq!(
            run(&chroma, SearchScope { slugs: scope(0), dir: None, chunks: None }),
            Found::Pages { slugs: PathSet::default(), matches: 0 }
        );
        assert!(chroma.requests().is_empty());
    }
}
