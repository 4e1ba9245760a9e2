//! What a session has cost since `connect`: `fs.stats()`.
//!
//! Hosts use it to watch cost, tests to assert request counts, benchmarks to report them.
//! It is assembled from the counters of the parts that do the work — the client's
//! requests, the page store's cache — plus what the search runner records per command.

use crate::chroma::RequestStats;
use crate::pages::store::StoreStats;
use serde::Serialize;

/// Counters since `connect`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stats {
    #[serde(flatten)]
    pub requests: RequestStats,
    #[serde(flatten)]
    pub store: StoreStats,
    /// Whether `connect` found the tree already decoded in this process.
    pub tree_from_cache: bool,
    pub files: u64,
    /// The most recent search commands (newest last), with what each cost.
    pub commands: Vec<CommandStats>,
}

/// How a search command ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PlanKind {
    /// Not planned: the command reads no files of ours, or could not be parsed.
    #[default]
    Delegate,
    /// Every file it reads was loaded in bulk; the command ran as typed.
    Prefetch,
    /// Chroma narrowed the files it reads.
    Narrow,
    /// Every file it reads was in memory: answered without asking Chroma.
    Memory,
}

/// What one `grep`/`rg` cost: how it was planned and the Chroma requests it made.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CommandStats {
    pub command: String,
    pub plan: PlanKind,
    /// Files the command would read without narrowing.
    pub scope: u64,
    /// Files left after the coarse query (`narrow` only).
    pub candidates: u64,
    /// Files handed to the command after the fine check, or all the candidates when a
    /// command answered here reads them as they load (`narrow` only).
    pub searched: u64,
    /// Chunk records the coarse query matched.
    pub coarse_matches: u64,
    pub coarse_requests: u64,
    pub prefetch_requests: u64,
    /// The grep index chose the candidates (`narrow` only): Chroma filtered no text.
    pub index: bool,
    /// Answered in Rust rather than by just-bash's command.
    pub native: bool,
    /// Why just-bash's command answered it, when the search could not be answered here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegated: Option<String>,
    /// Why the search was not narrowed, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl CommandStats {
    /// The stats of a command about to run, named by its words joined by spaces.
    pub(crate) fn new(name: &str, args: &[String]) -> Self {
        let command = std::iter::once(name).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
        CommandStats { command, ..Default::default() }
    }
}

/// The last few commands, oldest first.
#[derive(Debug, Default)]
pub(crate) struct History(Vec<CommandStats>);

impl History {
    /// Commands remembered.
    const LEN: usize = 32;

    pub(crate) fn push(&mut self, c: CommandStats) {
        if self.0.len() >= Self::LEN {
            self.0.remove(0);
        }
        self.0.push(c);
    }

    pub(crate) fn to_vec(&self) -> Vec<CommandStats> {
        self.0.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_flat_in_camel_case() {
        let s = Stats {
            requests: RequestStats { requests: 3, ..Default::default() },
            store: StoreStats { cache_hits: 2, ..Default::default() },
            commands: vec![CommandStats {
                command: "grep -r x /".into(),
                plan: PlanKind::Narrow,
                ..Default::default()
            }],
            ..Default::default()
        };
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["requests"], 3);
        assert_eq!(v["cacheHits"], 2);
        assert_eq!(v["treeFromCache"], false);
        assert_eq!(v["commands"][0]["plan"], "narrow");
        assert!(v["commands"][0].get("note").is_none());
    }

    #[test]
    fn history_keeps_the_newest() {
        let mut h = History::default();
        for i in 0..40 {
            h.push(CommandStats { command: i.to_string(), ..Default::default() });
        }
        let v = h.to_vec();
        assert_eq!(v.len(), History::LEN);
        assert_eq!((v[0].command.as_str(), v[31].command.as_str()), ("8", "39"));
    }
}
