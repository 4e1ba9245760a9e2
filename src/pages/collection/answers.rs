//! Answers a session has had from Chroma to the queries a search asks again.
//!
//! A search asks Chroma which chunks of its scope match; the same command run again in
//! the same session asks the same question, and for a case-insensitive or regex filter a
//! local Chroma scans every record to answer it (seconds at 10,000 pages). A session reads
//! one tree for its whole life, so the answer cannot change underneath it in a way the
//! search relies on: hits only propose pages, which are read and checked as always. The
//! answers are kept by the exact text of the request, a few dozen and a bounded number of
//! records in all, the oldest dropped first.

//!
//! Answers are also kept for the whole process ([`Shared`]), by the tree they were asked
//! under: another conversation about the same docs asks the same questions. The key holds
//! the tree (server, collection, credentials, tree version, and for another tool's tree the
//! annotation it relies on) and the request's exact text, which holds the session's access;
//! so an answer is never given under another access or another tree, and it is served only
//! once [`Freshness`] confirms the session's tree is still the collection's.
use crate::chroma::{GetRequest, GetResponse};
use crate::pages::freshness::Freshness;
use std::cell::RefCell;
use std::rc::Rc;

/// Answers kept at most.
const MAX_ANSWERS: usize = 32;
/// Records kept at most, across all answers.
const MAX_RECORDS: usize = 60_000;

/// One session's answers to repeated queries, by the request's exact text.
#[derive(Debug, Default)]
pub(crate) struct Answers {
    kept: RefCell<Vec<(String, Option<GetResponse>)>>,
}

/// The key of a request and what else the answer depended on.
pub(crate) fn key(req: &GetRequest, also: &str) -> String {
    let body = serde_json::to_string(req).expect("a request serialises");
    format!("{}:{body}{also}", body.len())
}

fn records(answer: &Option<GetResponse>) -> usize {
    answer.as_ref().map_or(0, |r| r.ids.len())
}

/// Answers kept for the process at most, and their records across all of them (a record
/// is an id and its metadata, a few hundred bytes: some tens of MiB at the most).
const MAX_SHARED_ANSWERS: usize = 256;
const MAX_SHARED_RECORDS: usize = 100_000;

thread_local! {
    static PROCESS: Answers = Answers::default();
}

/// Drops every answer kept for the process (the process tier turned off).
pub(crate) fn forget_shared() {
    PROCESS.with(|p| p.kept.borrow_mut().clear());
}

/// One session's door to the answers kept for the process.
#[derive(Clone, Debug)]
pub(crate) struct Shared {
    /// The tree's process-wide key, injective.
    tree: String,
    fresh: Rc<dyn Freshness>,
}

impl Shared {
    /// `tree` names the tree the session reads (see the module's documentation).
    pub(crate) fn new(tree: String, fresh: Rc<dyn Freshness>) -> Self {
        Shared { tree, fresh }
    }

    fn key(&self, key: &str) -> String {
        crate::base::key::of([self.tree.as_str(), key])
    }

    /// The answer another session had to `key`, once the session's tree is confirmed.
    pub(crate) async fn get(&self, key: &str) -> Option<Option<GetResponse>> {
        let answer = PROCESS.with(|p| p.get(&self.key(key)))?;
        self.fresh.confirmed().await.then_some(answer)
    }

    pub(crate) fn keep(&self, key: &str, answer: Option<GetResponse>) {
        PROCESS.with(|p| p.keep_within(self.key(key), answer, MAX_SHARED_ANSWERS, MAX_SHARED_RECORDS));
    }
}

impl Answers {
    /// The answer kept for `key`, which becomes the most recently used.
    pub(crate) fn get(&self, key: &str) -> Option<Option<GetResponse>> {
        let mut kept = self.kept.borrow_mut();
        let at = kept.iter().position(|(k, _)| k == key)?;
        let entry = kept.remove(at);
        let answer = entry.1.clone();
        kept.push(entry);
        Some(answer)
    }

    /// Keeps an answer, dropping the oldest beyond the bounds; an answer larger than all of
    /// them together is not kept.
    pub(crate) fn keep(&self, key: String, answer: Option<GetResponse>) {
        self.keep_within(key, answer, MAX_ANSWERS, MAX_RECORDS);
    }

    fn keep_within(&self, key: String, answer: Option<GetResponse>, most: usize, most_records: usize) {
        if records(&answer) > most_records {
            return;
        }
        let mut kept = self.kept.borrow_mut();
        kept.retain(|(k, _)| *k != key);
        kept.push((key, answer));
        let mut total: usize = kept.iter().map(|(_, a)| records(a)).sum();
        while kept.len() > most || total > most_records {
            total -= records(&kept.remove(0).1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(n: usize) -> Option<GetResponse> {
        Some(GetResponse { ids: (0..n).map(|i| format!("p{i}#0")).collect(), ..GetResponse::default() })
    }

    #[test]
    fn keeps_answers_by_the_exact_request_within_bounds() {
        let a = Answers::default();
        let req = GetRequest { limit: Some(300), ..GetRequest::default() };
        let other = GetRequest { limit: Some(301), ..GetRequest::default() };
        a.keep(key(&req, "|10"), answer(3));
        assert_eq!(a.get(&key(&req, "|10")).unwrap().unwrap().ids.len(), 3);
        assert!(a.get(&key(&req, "|11")).is_none(), "what else the answer depended on is part of the key");
        assert!(a.get(&key(&other, "|10")).is_none());
        a.keep(key(&other, ""), None);
        assert!(matches!(a.get(&key(&other, "")), Some(None)), "\"too many to list\" is an answer too");
        for i in 0..MAX_ANSWERS {
            a.keep(format!("k{i}"), answer(1));
        }
        assert!(a.get(&key(&req, "|10")).is_none(), "the oldest go first");
        a.keep("big".into(), answer(MAX_RECORDS - 10));
        assert!(a.get("k0").is_none() && a.get("big").is_some(), "records are bounded across answers");
        a.keep("huge".into(), answer(MAX_RECORDS + 1));
        assert!(a.get("huge").is_none());
    }
}
