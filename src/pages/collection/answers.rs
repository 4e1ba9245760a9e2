//! Answers a session has had from Chroma to the queries a search asks again.
//!
//! A search asks Chroma which chunks of its scope match; the same command run again in
//! the same session asks the same question, and for a case-insensitive or regex filter a
//! local Chroma scans every record to answer it (seconds at 10,000 pages). A session reads
//! one tree for its whole life, so the answer cannot change underneath it in a way the
//! search relies on: hits only propose pages, which are read and checked as always. The
//! answers are kept by the exact text of the request, a few dozen and a bounded number of
//! records in all, the oldest dropped first.

use crate::chroma::{GetRequest, GetResponse};
use std::cell::RefCell;

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

impl Answers {
    /// The answer kept for `key`.
    pub(crate) fn get(&self, key: &str) -> Option<Option<GetResponse>> {
        self.kept.borrow().iter().find(|(k, _)| k == key).map(|(_, a)| a.clone())
    }

    /// Keeps an answer, dropping the oldest beyond the bounds; an answer larger than all of
    /// them together is not kept.
    pub(crate) fn keep(&self, key: String, answer: Option<GetResponse>) {
        if records(&answer) > MAX_RECORDS {
            return;
        }
        let mut kept = self.kept.borrow_mut();
        kept.retain(|(k, _)| *k != key);
        kept.push((key, answer));
        while kept.len() > MAX_ANSWERS || kept.iter().map(|(_, a)| records(a)).sum::<usize>() > MAX_RECORDS {
            kept.remove(0);
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
