//! Bulk loads by id, each page released as soon as its chunks are in.
//!
//! A bulk load asks for its pages' chunk ids 300 a request, ten requests in flight. Were
//! the pages kept only once every request is answered, a command reading them would
//! wait for the slowest request before it could read the first page, and then do all
//! its matching and printing after the last answer. Here each answer is taken apart as
//! it arrives: a page whose chunks are all in (one request holds most pages; a page at
//! a request's edge waits for the next one too) is joined, kept and handed to the
//! readers waiting on it, so a command run beside the load reads the first pages while
//! Chroma is still answering for the last. The requests are the ones a load of all the
//! ids at once would send: the same ids, in the same order and batches.

use super::prefetch::Led;
use super::PageStore;
use crate::base::sync::{try_join_all, LocalFuture};
use crate::chroma::{ChromaError, GetResponse, MAX_PAGE};
use crate::pages::store::{PageRef, Source};
use crate::tree::schema;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// Where a page's chunks are among a load's requests.
struct Span {
    /// The requests holding its chunks (first to last).
    requests: Range<usize>,
}

/// What a load by id keeps while its answers come in.
struct Answers<'s> {
    /// Each request's answer, once it is in.
    answers: Vec<Option<GetResponse>>,
    /// Each page's flight, until the page is released.
    leaders: Vec<Option<Led<'s>>>,
    /// Pages kept so far, for the shared cache.
    loaded: Vec<(&'s PageRef, Rc<[u8]>)>,
}

impl PageStore {
    /// The chunks of `pages` (each with its chunk count, read by id), kept page by page as
    /// the answers holding them arrive (see the module's doc).
    pub(super) async fn load_by_id<'s>(&'s self, pages: Vec<Led<'s>>, what: &str) -> Result<(), ChromaError> {
        if pages.is_empty() {
            return Ok(());
        }
        let (ids, spans, touching) = lay_out(&pages);
        let state = RefCell::new(Answers {
            answers: ids.chunks(MAX_PAGE).map(|_| None).collect(),
            leaders: pages.into_iter().map(Some).collect(),
            loaded: Vec::new(),
        });
        let requests = ids
            .chunks(MAX_PAGE)
            .enumerate()
            .map(|(r, batch)| {
                let (state, spans, touching) = (&state, &spans, &touching);
                let request: LocalFuture<'_, Result<(), ChromaError>> = Box::pin(async move {
                    let answer = self.collection.get_ids_once(batch, what).await?;
                    let mut state = state.borrow_mut();
                    state.answers[r] = Some(answer);
                    for p in touching[r].clone() {
                        self.release_if_in(&mut state, p, &spans[p]);
                    }
                    Ok(())
                });
                request
            })
            .collect();
        let result = try_join_all(requests).await;
        let loaded = std::mem::take(&mut state.borrow_mut().loaded);
        self.share_loaded(loaded).await;
        result
    }

    /// Keeps page `p` and releases its readers once every request holding its chunks is
    /// answered. A page whose chunks do not assemble is released unloaded: its readers
    /// read it themselves and report what is wrong with it.
    fn release_if_in(&self, state: &mut Answers<'_>, p: usize, span: &Span) {
        if span.requests.is_empty() || span.requests.clone().any(|r| state.answers[r].is_none()) {
            return;
        }
        let Some((page, leader)) = state.leaders[p].take() else { return };
        let Source::Chunks { slug, .. } = &page.source else { return };
        let schema = self.collection.schema();
        // The page's records, answer by answer. Defence in depth: a record that names
        // another slug never reaches the page.
        let mut mine = GetResponse::default();
        for r in span.requests.clone() {
            let answer = state.answers[r].as_mut().expect("answered");
            let records: Vec<usize> =
                (0..answer.ids.len()).filter(|&i| schema.slug_of(answer, i) == Some(slug)).collect();
            mine.extend(answer.take_records(&records));
        }
        let all: Vec<usize> = (0..mine.ids.len()).collect();
        let (chunks, access) = self.chunks_of(&mut mine, &all);
        if let Some(bytes) = self.keep_loaded(page, chunks, access) {
            leader.finish(Ok(bytes.clone()));
            state.loaded.push((page, bytes));
        }
    }
}

/// The ids of `pages` in order; each page's span of requests; and for each request, the
/// pages whose chunks it holds.
fn lay_out(pages: &[Led<'_>]) -> (Vec<String>, Vec<Span>, Vec<Range<usize>>) {
    let mut ids = Vec::new();
    let mut spans = Vec::with_capacity(pages.len());
    for (page, _) in pages {
        let Source::Chunks { slug, count: Some(n), .. } = &page.source else { unreachable!("only pages read by id") };
        let first = ids.len();
        ids.extend((0..*n as usize).map(|i| schema::chunk_id(slug, i)));
        // A page without chunks spans no request: it is never released here, and its
        // readers read it themselves.
        let requests = match ids.len() - first {
            0 => 0..0,
            _ => first / MAX_PAGE..(ids.len() - 1) / MAX_PAGE + 1,
        };
        spans.push(Span { requests });
    }
    let requests = ids.len().div_ceil(MAX_PAGE);
    let mut touching: Vec<Range<usize>> = vec![0..0; requests];
    for (p, span) in spans.iter().enumerate() {
        for r in span.requests.clone() {
            let t = &mut touching[r];
            *t = if t.start == t.end { p..p + 1 } else { t.start..p + 1 };
        }
    }
    (ids, spans, touching)
}

#[cfg(test)]
mod tests {
    use super::super::{Collection, PageKey, PageStore, StoreOptions};
    use super::*;
    use crate::chroma::{Client, ClientConfig};
    use crate::testing::{chroma::URL, Executor, FakeChroma, Latch};
    use crate::tree::schema::Schema;
    use serde_json::json;
    use std::cell::Cell;

    /// 400 one-chunk pages read by id, so their ids take two requests (300 and 100).
    fn site() -> (FakeChroma, Rc<PageStore>, Rc<Vec<PageRef>>) {
        let chroma = FakeChroma::new();
        let mut pages = Vec::new();
        for i in 0..400 {
            let slug = format!("p{i:03}.md");
            chroma.put(
                "docs",
                &format!("{slug}#0"),
                Some(&format!("page {i:03}\n")),
                json!({"page_slug": slug, "chunk_index": 0}),
            );
            pages.push(PageRef {
                key: PageKey { collection_id: "c".into(), tree_version: "v".into(), slug: slug.as_str().into() },
                size: Some(9),
                source: Source::Chunks { slug: slug.as_str().into(), count: Some(1), by_id: true, number: None },
                shareable: true,
            });
        }
        let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(chroma.clone())));
        let collection = Collection::new(client, chroma.collection("docs"), Schema::default(), None);
        let store = PageStore::new(
            collection,
            Rc::new(chroma.clone()),
            StoreOptions { cache_bytes: 1 << 20, ..Default::default() },
        );
        (chroma, Rc::new(store), Rc::new(pages))
    }

    /// Whether a request asks for the chunk of page `i`.
    fn asks_for(i: usize) -> impl Fn(&crate::chroma::transport::HttpRequest) -> bool {
        move |req| req.body.as_deref().is_some_and(|b| b.contains(&format!("\"p{i:03}.md#0\"")))
    }

    #[test]
    fn a_page_is_read_as_soon_as_the_request_holding_it_is_answered() {
        let (chroma, store, pages) = site();
        let latch = Latch::new();
        chroma.hold_where(&latch, asks_for(350));
        let (first, last, done) = (Rc::new(Cell::new(None)), Rc::new(Cell::new(None)), Rc::new(Cell::new(false)));
        let mut ex = Executor::new();
        {
            let (store, pages, done) = (store.clone(), pages.clone(), done.clone());
            ex.spawn(async move {
                store.begin_prefetch(&pages, None).finish().await.unwrap();
                done.set(true);
            });
        }
        ex.run_until_stalled();
        for (i, out) in [(0, first.clone()), (350, last.clone())] {
            let (store, pages) = (store.clone(), pages.clone());
            ex.spawn(async move { out.set(Some(store.read(&pages[i]).await.unwrap().to_vec())) });
        }
        ex.run_until_stalled();
        assert_eq!(first.take().as_deref(), Some(&b"page 000\n"[..]), "the first request's pages are in");
        assert_eq!((last.take(), done.get()), (None, false), "the second request is held");
        assert_eq!(chroma.gets().len(), 2, "the readers asked for nothing of their own");
        latch.open();
        ex.run_until_stalled();
        assert_eq!(last.take().as_deref(), Some(&b"page 350\n"[..]));
        assert!(done.get());
        assert_eq!(store.stats().prefetched_pages, 400);
        assert_eq!(chroma.gets().len(), 2);
    }

    #[test]
    fn a_failed_request_fails_the_load_at_once_and_its_pages_are_read_on_their_own() {
        let (chroma, store, pages) = site();
        let latch = Latch::new();
        chroma.hold_where(&latch, asks_for(0));
        let fails = asks_for(350);
        chroma.set_fault(move |req| {
            fails(req).then(|| Ok(crate::chroma::transport::HttpResponse::new(500, "{\"error\":\"boom\"}")))
        });
        let result = Rc::new(RefCell::new(None));
        let mut ex = Executor::new();
        {
            let (store, pages, result) = (store.clone(), pages.clone(), result.clone());
            ex.spawn(async move { *result.borrow_mut() = Some(store.begin_prefetch(&pages, None).finish().await) });
        }
        ex.run_until_stalled();
        let failed = result.borrow_mut().take().expect("not held up by the request still waiting");
        assert!(failed.unwrap_err().to_string().starts_with("cannot load 400 pages: "));
        chroma.clear_fault();
        latch.open();
        let (store2, pages2) = (store.clone(), pages.clone());
        let page = crate::testing::block_on(async move { store2.read(&pages2[350]).await.unwrap().to_vec() });
        assert_eq!(page, b"page 350\n", "nobody is left waiting on a load that stopped");
    }
}
