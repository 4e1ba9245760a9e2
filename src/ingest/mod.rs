//! Ingest: a folder of docs becomes a collection chromafs can serve.
//!
//! Pages are split into chunks on line boundaries, each at most `chunk_bytes` (4 KiB by
//! default, far under Chroma Cloud's 16 KiB document cap); only a single line longer than
//! that is cut, at a character boundary, and the tree records whether that happened, so
//! a search can rely on whole lines within a chunk. Chunks are upserted under ids derived
//! from the slug, records left over from an earlier run are deleted, and the path tree is
//! written last, so a reader never sees a tree that names chunks not yet written.
//!
//! Access rules ([`rules`]) map path globs to `isPublic`/`groups`. The plan ([`plan`]) is
//! pure and tested natively; [`write()`] sends it through the Chroma client.

pub(crate) mod annotate;
pub(crate) mod chunk;
mod index;
pub(crate) mod lease;
pub(crate) mod rules;
pub(crate) mod write;

pub(crate) use chunk::chunk_lines;
pub(crate) use rules::{parse_access_rules, parse_version_rules, Rules, VersionRules};
pub(crate) use write::{write, DefaultEmbedder, Embedder, WriteOptions};

use crate::chroma::ClientConfig;
use crate::options::{self, Fields, OptionError};
use crate::tree::access::Access;
use crate::tree::schema::{chunk_id, Schema};
use serde_json::{json, Map, Value};
use std::collections::HashSet;

pub(crate) const DEFAULT_CHUNK_BYTES: usize = 4096;
/// Chroma Cloud's per-document limit.
const MAX_CHUNK_BYTES: usize = 16384;
/// Dimension of the built-in embedding.
const DEFAULT_DIMENSION: usize = 32;

/// How an ingest is configured: everything but the files and the embedding function,
/// which the host hands over apart.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub client: ClientConfig,
    pub collection: String,
    pub schema: Schema,
    pub rules: Rules,
    pub chunk_bytes: usize,
    /// Store the tree as plain JSON instead of gzip+base64.
    pub plain_tree: bool,
    /// How long the run's lease on the collection lasts unless renewed (see [`lease`]).
    pub lease_ms: f64,
}

impl Settings {
    /// Reads `ingest`'s options; `access` is the rules' JSON text.
    pub(crate) fn from_json(value: &Value) -> Result<Settings, OptionError> {
        let f = Fields::of(value, "ingest")?;
        let collection = f.required("collection")?;
        let list = match f.string("access")? {
            Some(text) => parse_access_rules(&text).map_err(OptionError)?,
            None => Vec::new(),
        };
        let default_private = match f.string("defaultAccess")?.as_deref() {
            None | Some("public") => false,
            Some("private") => true,
            Some(other) => {
                return Err(OptionError(format!(
                    "option defaultAccess must be \"public\" or \"private\", got {other:?}"
                )))
            }
        };
        let versions = VersionRules {
            list: match f.string("versions")? {
                Some(text) => parse_version_rules(&text).map_err(OptionError)?,
                None => Vec::new(),
            },
            folders: f.flag("versionFolders"),
        };
        let rules = Rules::new(list, default_private).with_versions(versions);
        Ok(Settings {
            client: options::client_config(&f)?,
            collection,
            schema: options::schema(&f)?,
            rules,
            chunk_bytes: f.number("chunkBytes")?.map_or(DEFAULT_CHUNK_BYTES, |n| n as usize),
            plain_tree: f.flag("plainTree"),
            lease_ms: match f.number("leaseMs")? {
                Some(ms) if !(1000.0..=86_400_000.0).contains(&ms) => {
                    return Err(OptionError("option leaseMs must be from 1000 to 86400000 (a day)".into()))
                }
                Some(ms) => ms,
                None => lease::LEASE_MS,
            },
        })
    }
}

/// One file to ingest; `path` is relative to the docs folder, with `/` separators.
#[derive(Debug, Clone)]
pub(crate) struct SourceFile {
    pub path: String,
    pub content: Vec<u8>,
    pub mtime: Option<f64>,
}

/// One chunk record to write.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record {
    pub id: String,
    pub slug: String,
    pub index: usize,
    pub document: String,
    /// The line of the page where the chunk starts (1-based): the line holding its first
    /// byte, so `PATH:START-END` points at its text with no read of the page.
    pub start_line: u64,
    /// The page's access, written on every chunk.
    pub access: Access,
}

/// Everything an ingest will write.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub records: Vec<Record>,
    pub tree: Map<String, Value>,
    pub pages: usize,
    pub public_pages: usize,
    pub bytes: u64,
    /// No line was cut: every chunk holds whole lines.
    pub line_aligned: bool,
    /// Pages each access rule decided, in rule order.
    pub rule_pages: Vec<(String, usize)>,
    /// Pages of each version, oldest first.
    pub version_pages: Vec<(String, usize)>,
}

/// Everything an ingest will write, checked before anything is: paths, text, rules.
pub(crate) fn plan(files: &[SourceFile], rules: &Rules, chunk_bytes: usize, tree_id: &str) -> Result<Plan, String> {
    let chunk_bytes = chunk_bytes.clamp(64, MAX_CHUNK_BYTES);
    let mut records = Vec::new();
    let mut tree = Map::new();
    let mut seen = HashSet::new();
    let mut matched = vec![0; rules.list.len()];
    let mut matched_versions = vec![0; rules.versions.list.len()];
    let mut version_pages: std::collections::BTreeMap<String, usize> = Default::default();
    let (mut public_pages, mut bytes, mut line_aligned) = (0, 0u64, true);
    let mut sorted: Vec<&SourceFile> = files.iter().collect();
    crate::base::sort::sort_by(&mut sorted, |a, b| a.path.cmp(&b.path));
    for f in sorted {
        let slug = f.path.trim_start_matches('/');
        if let Err(e) = crate::tree::decode::check_key(slug) {
            return Err(format!("{:?}: not a usable page path ({})", f.path, e.message));
        }
        if slug == tree_id || !seen.insert(slug.to_string()) {
            return Err(format!("{}: the path is used twice or collides with the tree record", f.path));
        }
        let text = std::str::from_utf8(&f.content).map_err(|e| {
            format!(
                "{}: not UTF-8 text (invalid byte at offset {}); only text pages can be ingested",
                f.path,
                e.valid_up_to()
            )
        })?;
        let (chunks, cut) = chunk_lines(text, chunk_bytes);
        line_aligned &= !cut;
        let (access, rule) = rules.access(slug);
        if let Some(i) = rule {
            matched[i] += 1;
        }
        let mut start_line = 1;
        for (i, c) in chunks.iter().enumerate() {
            records.push(Record {
                id: chunk_id(slug, i),
                slug: slug.to_string(),
                index: i,
                document: c.to_string(),
                start_line,
                access: access.clone(),
            });
            start_line += c.matches('\n').count() as u64;
        }
        public_pages += access.is_public as usize;
        bytes += f.content.len() as u64;
        let mut entry = json!({ "isPublic": access.is_public, "groups": access.groups, "size": f.content.len(), "chunks": chunks.len() });
        let (version, rule) = rules.versions.version(slug);
        if let Some(i) = rule {
            matched_versions[i] += 1;
        }
        if let Some(v) = version {
            entry["version"] = json!(v);
            *version_pages.entry(v.to_string()).or_default() += 1;
        }
        if let Some(m) = f.mtime {
            entry["mtime"] = json!(m.floor());
        }
        tree.insert(slug.to_string(), entry);
    }
    rules.check_used(&matched)?;
    rules.versions.check_used(&matched_versions)?;
    let rule_pages = rules.list.iter().map(|r| r.glob.clone()).zip(matched).collect();
    let mut version_pages: Vec<(String, usize)> = version_pages.into_iter().collect();
    version_pages.sort_by(|a, b| crate::tree::versions::natural_cmp(&a.0, &b.0));
    Ok(Plan { records, tree, pages: seen.len(), public_pages, bytes, line_aligned, rule_pages, version_pages })
}

/// What an ingest wrote.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Summary {
    pub collection: String,
    pub collection_id: String,
    pub pages: usize,
    pub public_pages: usize,
    pub restricted_pages: usize,
    pub chunks: usize,
    /// Chunks written (and embedded) by this run; the others were stored already, unchanged.
    pub chunks_written: usize,
    pub bytes: u64,
    pub removed_records: usize,
    /// Bytes of the stored tree: its manifest and shards.
    pub tree_bytes: usize,
    pub tree_shards: usize,
    /// Whether the tree was written: a re-run over unchanged docs leaves it as it is.
    pub tree_written: bool,
    pub line_aligned: bool,
    /// Pages each access rule decided: `[{glob, pages}]`.
    pub rules: Vec<RuleSummary>,
    /// Pages of each version of the docs, oldest first: `[{version, pages}]`.
    pub versions: Vec<VersionSummary>,
    /// The grep index's records (see `crate::pages::grams`).
    pub grep_index: IndexSummary,
    pub requests: u64,
}

/// What an ingest did to the grep index.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub(crate) struct IndexSummary {
    /// Records the index has after this run.
    pub records: usize,
    /// Records this run wrote.
    pub written: usize,
    /// Records of segments no longer used, deleted.
    pub removed: usize,
    /// Bytes of the records this run wrote.
    pub bytes: u64,
    /// Milliseconds building and writing it took (reading what it was included).
    pub ms: u64,
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub(crate) struct RuleSummary {
    pub glob: String,
    pub pages: usize,
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub(crate) struct VersionSummary {
    pub version: String,
    pub pages: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_rules_last_match_wins() {
        let rules = Rules::new(parse_access_rules(r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}, "internal/billing/**": {"groups": ["billing", "admin"]}}"#).unwrap(), false);
        let files: Vec<SourceFile> = ["index.md", "internal/keys.md", "internal/billing/plans.md"]
            .iter()
            .map(|p| SourceFile { path: p.to_string(), content: b"x\n".to_vec(), mtime: Some(1.5) })
            .collect();
        let p = plan(&files, &rules, 4096, "__path_tree__").unwrap();
        assert_eq!(p.tree["index.md"], json!({"isPublic": true, "groups": [], "size": 2, "chunks": 1, "mtime": 1.0}));
        assert_eq!(p.tree["internal/keys.md"]["groups"], json!(["admin"]));
        assert_eq!(p.tree["internal/billing/plans.md"]["groups"], json!(["billing", "admin"]));
        assert_eq!(p.tree["internal/billing/plans.md"]["isPublic"], json!(false));
        assert_eq!(p.public_pages, 1);
        assert_eq!(p.rule_pages, vec![("internal/**".to_string(), 1), ("internal/billing/**".to_string(), 1)]);
        let chunk = p.records.iter().find(|r| r.slug == "internal/keys.md").unwrap();
        assert_eq!(chunk.start_line, 1);
        assert_eq!(
            chunk.access,
            Access { is_public: false, groups: vec!["admin".into()] },
            "every chunk carries its page's access"
        );
    }

    #[test]
    fn a_rule_that_matches_no_page_stops_the_plan() {
        let rules = Rules::new(parse_access_rules(r#"{"/internal/**": {"groups": ["admin"]}}"#).unwrap(), false);
        let files = vec![SourceFile { path: "internal/a.md".into(), content: b"x\n".to_vec(), mtime: None }];
        assert!(plan(&files, &rules, 4096, "t").unwrap_err().contains("did you mean \"internal/**\""));
        let private = plan(&files, &Rules::new(Vec::new(), true), 4096, "t").unwrap();
        assert_eq!(private.public_pages, 0, "--default-private");
    }

    #[test]
    fn plan_rejects_binary_and_bad_paths() {
        let bin = SourceFile { path: "img.png".into(), content: vec![0x89, 0x50, 0xff, 0x00], mtime: None };
        assert!(plan(&[bin], &Rules::default(), 4096, "t").unwrap_err().starts_with("img.png: not UTF-8"));
        let bad = SourceFile { path: "a/../b.md".into(), content: vec![], mtime: None };
        assert!(plan(&[bad], &Rules::default(), 4096, "t").is_err());
    }

    #[test]
    fn plan_records_round_trip_through_assembly() {
        let text = "# Title\n".to_string() + &"a line of text\n".repeat(500);
        let f = SourceFile { path: "guide.md".into(), content: text.clone().into_bytes(), mtime: None };
        let p = plan(&[f], &Rules::default(), 1024, "__path_tree__").unwrap();
        assert!(p.records.len() > 5);
        assert!(p.line_aligned);
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for r in &p.records {
            let first = r.document.split_inclusive('\n').next().unwrap();
            assert_eq!(lines[r.start_line as usize - 1], first, "chunk {} starts on its start_line", r.index);
        }
        let chunks = p
            .records
            .iter()
            .rev()
            .map(|r| crate::pages::store::assemble::Chunk {
                id: r.id.clone(),
                index: Some(json!(r.index)),
                document: Some(r.document.clone()),
            })
            .collect();
        assert_eq!(crate::pages::store::assemble::assemble(chunks, Some(text.len() as u64)).unwrap(), text);
        let tree = crate::tree::decode::PathTree::from_json(&Value::Object(p.tree).to_string(), None).unwrap();
        assert_eq!(tree.entries[0].size, Some(text.len() as u64));
    }

    #[test]
    fn settings_are_read_and_checked() {
        let s = Settings::from_json(&json!({
            "url": "http://x", "collection": "docs", "access": "{\"internal/**\": {\"groups\": [\"admin\"]}}",
            "chunkBytes": 1024, "plainTree": true, "slugField": "page",
        }))
        .unwrap();
        assert_eq!((s.collection.as_str(), s.chunk_bytes, s.plain_tree), ("docs", 1024, true));
        assert_eq!(s.schema.slug_field, "page");
        assert_eq!(s.rules.list[0].access.groups, vec!["admin"]);
        let defaults = Settings::from_json(&json!({"url": "http://x", "collection": "docs"})).unwrap();
        assert_eq!(
            (defaults.chunk_bytes, defaults.plain_tree, defaults.rules.list.len()),
            (DEFAULT_CHUNK_BYTES, false, 0)
        );
        assert!(defaults.rules.default.is_public);
        let private =
            Settings::from_json(&json!({"url": "http://x", "collection": "docs", "defaultAccess": "private"})).unwrap();
        assert!(!private.rules.default.is_public);
        let e = Settings::from_json(&json!({"url": "http://x", "collection": "docs", "defaultAccess": "hidden"}))
            .unwrap_err();
        assert_eq!(e.0, "option defaultAccess must be \"public\" or \"private\", got \"hidden\"");
        let e = Settings::from_json(&json!({"url": "http://x"})).unwrap_err();
        assert_eq!(e.0, "option collection is required");
        let e =
            Settings::from_json(&json!({"url": "http://x", "collection": "d", "access": "{\"a\": 1}"})).unwrap_err();
        assert_eq!(e.0, "access rule \"a\": expected an object");
    }
}
