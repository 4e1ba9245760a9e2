//! The path tree: which pages exist, where, and who may see them.
//!
//! One record (id `__path_tree__` by default) holds a JSON object mapping page slugs to
//! their access fields and optional `size`, `mtime` and `url`. It arrives as plain JSON
//! or gzip+base64 (see [`crate::tree::codec`]); plain JSON is recognised by its leading `{`.
//!
//! The tree is validated as a whole before anything is shown: a key with `..`, `.`, an
//! empty segment or a NUL, two keys that name the same path, or a file that is also a
//! directory would make the shell lie about the docs, so each is an error naming the key.
//! A [`PathTree`] is shared by every session on the same collection; a session sees it
//! through a [`Listing`](crate::tree::listing::Listing), pruned to the pages its groups may see.

use crate::base::hash::PathMap;
use crate::base::json;
use crate::base::path;
use crate::tree::access::Access;
use crate::tree::codec;
use crate::tree::fields::Fields;
use serde_json::Value;
use std::fmt;

/// A tree that cannot be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TreeError {
    /// The offending key, when the problem is one entry.
    pub key: Option<String>,
    pub message: String,
}

impl TreeError {
    pub(crate) fn whole(message: impl Into<String>) -> Self {
        TreeError { key: None, message: message.into() }
    }
    pub(crate) fn entry(key: &str, message: impl Into<String>) -> Self {
        TreeError { key: Some(key.to_string()), message: message.into() }
    }
}

/// A key as errors show it: a hostile key may be megabytes long.
fn shown(key: &str) -> String {
    match key.char_indices().nth(120) {
        Some((i, _)) => format!("{:?}…", &key[..i]),
        None => format!("{key:?}"),
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(k) => write!(f, "corrupt path tree: entry {}: {}", shown(k), self.message),
            None => write!(f, "corrupt path tree: {}", self.message),
        }
    }
}

impl std::error::Error for TreeError {}

/// One page as the tree describes it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TreeEntry {
    /// The key in the tree and the value of the chunks' slug field.
    pub slug: String,
    /// Where the page appears: absolute, normalised, with `extension` applied.
    pub path: String,
    pub access: Access,
    pub size: Option<u64>,
    /// Milliseconds since the epoch.
    pub mtime: Option<f64>,
    /// A lazy file: content comes from this URL, not from chunks.
    pub url: Option<String>,
    /// How many chunk records the page has, when the producer recorded it: lets a bulk
    /// prefetch issue all its paginated requests at once.
    pub chunks: Option<u64>,
}

/// A decoded, validated tree, shared by all sessions on one collection.
#[derive(Debug, Clone)]
pub(crate) struct PathTree {
    pub entries: Vec<TreeEntry>,
    /// A fingerprint of the stored record: changes whenever the docs are re-ingested.
    pub version: String,
}

/// Applies the `extension` option: a slug whose last segment has no extension is shown
/// with it (`guides/intro` → `guides/intro.mdx`).
fn display_path(slug: &str, extension: Option<&str>) -> String {
    let name = slug.rsplit('/').next().unwrap_or(slug);
    let has_ext = name.rfind('.').is_some_and(|i| i > 0);
    match extension {
        Some(ext) if !ext.is_empty() && !has_ext => format!("/{slug}{ext}"),
        _ => format!("/{slug}"),
    }
}

/// Limits on a tree, so that a hostile one fails at once instead of exhausting memory or
/// time: generous for real documentation (a million pages), far below what hurts.
const MAX_ENTRIES: usize = 1_000_000;
/// Directory levels of one path (just-bash's walks stop at the same depth).
pub(crate) const MAX_DEPTH: usize = 256;
/// Bytes of one path (Linux's PATH_MAX).
const MAX_PATH_BYTES: usize = 4096;
/// Bytes of the decoded tree document.
pub(crate) const MAX_TREE_BYTES: usize = 128 << 20;
/// Chunks one entry may declare: 400 MiB of text at the ingest's 4 KiB chunks. A page is
/// read by its chunks' ids, so a count is memory before it is a request.
const MAX_PAGE_CHUNKS: u64 = 100_000;

/// Checks a slug as the tree and the ingest both require it. A control character (C0,
/// DEL, C1) would print as something else — `a\nb.md` as two lines of `find`, an escape
/// sequence as a command to the agent's terminal — so no slug may hold one.
pub(crate) fn check_key(key: &str) -> Result<(), TreeError> {
    if key.len() > MAX_PATH_BYTES {
        return Err(TreeError::entry(key, format!("path longer than {MAX_PATH_BYTES} bytes")));
    }
    if key.bytes().filter(|&b| b == b'/').count() >= MAX_DEPTH {
        return Err(TreeError::entry(key, format!("path deeper than {MAX_DEPTH} levels")));
    }
    if key.is_empty() {
        return Err(TreeError::entry(key, "empty path"));
    }
    // Control characters are C0 and DEL (one byte each) and C1 (U+0080..=U+009F, UTF-8
    // `C2 80`..=`C2 9F`): one pass over the bytes finds them all.
    let b = key.as_bytes();
    if let Some(i) = (0..b.len()).find(|&i| {
        b[i] < 0x20 || b[i] == 0x7f || (b[i] == 0xc2 && b.get(i + 1).is_some_and(|n| (0x80..0xa0).contains(n)))
    }) {
        if b[i] == 0 {
            return Err(TreeError::entry(key, "path contains a NUL byte"));
        }
        let c = key[i..].chars().next().expect("a character starts at a control byte");
        return Err(TreeError::entry(key, format!("path contains the control character {:?}", c)));
    }
    for seg in key.split('/') {
        match seg {
            "" => return Err(TreeError::entry(key, "empty path segment (leading, trailing or double '/')")),
            "." | ".." => return Err(TreeError::entry(key, format!("'{seg}' is not allowed in a path"))),
            _ => {}
        }
    }
    Ok(())
}

fn parse_entry(key: &str, fields: Fields, extension: Option<&str>) -> Result<TreeEntry, TreeError> {
    if !fields.object {
        return Err(TreeError::entry(key, "entry is not an object"));
    }
    let bad = |message: &str| TreeError::entry(key, message);
    let access = Access::from_values(fields.is_public.as_ref(), fields.groups.as_ref()).map_err(bad)?;
    let size = match fields.size {
        None | Some(Value::Null) => None,
        Some(v) => Some(json::whole_number(&v).ok_or_else(|| bad("size must be a non-negative integer"))?),
    };
    let mtime = match fields.mtime {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() && f.abs() <= 8.64e15 => Some(f),
            _ => return Err(bad("mtime is out of range")),
        },
        Some(_) => return Err(bad("mtime must be milliseconds since the epoch")),
    };
    let chunks = match fields.chunks {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_u64() {
            Some(n) if n <= MAX_PAGE_CHUNKS => Some(n),
            Some(_) => return Err(bad(&format!("chunks is more than {MAX_PAGE_CHUNKS}"))),
            None => return Err(bad("chunks must be a non-negative integer")),
        },
    };
    let url = match fields.url {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        Some(_) => return Err(bad("url must be a non-empty string")),
    };
    Ok(TreeEntry { slug: key.to_string(), path: display_path(key, extension), access, size, mtime, url, chunks })
}

/// Decodes a stored tree document: plain JSON, or gzip then base64.
fn decode_document(doc: &str) -> Result<String, TreeError> {
    let too_big = || TreeError::whole(format!("the tree is larger than {MAX_TREE_BYTES} bytes"));
    let trimmed = doc.trim_start();
    if trimmed.starts_with('{') {
        return if doc.len() > MAX_TREE_BYTES { Err(too_big()) } else { Ok(doc.to_string()) };
    }
    let gz = codec::base64_decode(doc).map_err(|e| TreeError::whole(format!("neither JSON nor base64: {e}")))?;
    let json = codec::gunzip(&gz, MAX_TREE_BYTES).map_err(|e| TreeError::whole(e.to_string()))?;
    String::from_utf8(json).map_err(|_| TreeError::whole("decoded tree is not UTF-8"))
}

impl PathTree {
    /// Decodes and validates a stored tree document.
    pub(crate) fn from_document(doc: &str, extension: Option<&str>) -> Result<Self, TreeError> {
        let json = decode_document(doc)?;
        let mut tree = Self::from_json(&json, extension)?;
        tree.version = format!("{:016x}", codec::fingerprint(doc.as_bytes()));
        Ok(tree)
    }

    /// Parses and validates the tree's JSON.
    pub(crate) fn from_json(json: &str, extension: Option<&str>) -> Result<Self, TreeError> {
        let raw = json::ordered_members(json).map_err(|e| TreeError::whole(format!("invalid JSON: {e}")))?;
        let version = format!("{:016x}", codec::fingerprint(json.as_bytes()));
        Self::from_members(raw, extension, version)
    }

    /// Validates a tree given as its members, in order (from one document or from shards).
    pub(crate) fn from_members(
        raw: Vec<(String, Fields)>,
        extension: Option<&str>,
        version: String,
    ) -> Result<Self, TreeError> {
        if raw.len() > MAX_ENTRIES {
            return Err(TreeError::whole(format!("more than {MAX_ENTRIES} entries")));
        }
        let mut entries = Vec::with_capacity(raw.len());
        for (key, value) in raw {
            check_key(&key)?;
            entries.push(parse_entry(&key, value, extension)?);
        }
        // Stable: trees are usually written sorted already, and then this is one pass.
        crate::base::sort::sort_by(&mut entries, |a, b| path::js_cmp(&a.path, &b.path));
        // Sorted, two entries naming one path are neighbours.
        if let Some(w) = entries.windows(2).find(|w| w[0].path == w[1].path) {
            return Err(TreeError::entry(&w[1].slug, format!("names the same path {} as {:?}", w[1].path, w[0].slug)));
        }
        // A path that is a file must not also be a directory of another entry. Each
        // directory is recorded with the first entry below it; the walk up stops at a
        // directory already recorded, whose ancestors are then recorded too.
        let mut dirs: PathMap<&str, &str> = PathMap::default();
        for entry in &entries {
            let mut dir = path::parent(&entry.path);
            while dir != "/" && !dirs.contains_key(dir) {
                dirs.insert(dir, &entry.slug);
                dir = path::parent(dir);
            }
        }
        if let Some((file, below)) = entries.iter().find_map(|e| Some((e, *dirs.get(e.path.as_str())?))) {
            return Err(TreeError::entry(
                below,
                format!("lies below {}, which is the file {:?}", file.path, file.slug),
            ));
        }
        drop(dirs);
        Ok(PathTree { entries, version })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tree with every kind of entry, for the tests of the modules that read trees.
    pub(crate) const SAMPLE: &str = r#"{
        "auth/oauth.mdx": {"isPublic": true, "groups": []},
        "internal/billing.mdx": {"isPublic": false, "groups": ["admin", "billing"], "size": 5120},
        "internal/admin/keys.mdx": {"isPublic": false, "groups": ["admin"], "mtime": 1700000000000},
        "api-specs/v2.json": {"isPublic": true, "url": "https://example.com/v2.json"},
        "index.mdx": {"isPublic": true},
        "draft.mdx": {"groups": []}
    }"#;

    fn tree() -> PathTree {
        PathTree::from_json(SAMPLE, None).unwrap()
    }

    #[test]
    fn parses_fields() {
        let t = tree();
        let b = t.entries.iter().find(|e| e.slug == "internal/billing.mdx").unwrap();
        assert_eq!(b.size, Some(5120));
        assert!(!b.access.is_public);
        assert_eq!(b.access.groups, vec!["admin", "billing"]);
        let spec = t.entries.iter().find(|e| e.slug == "api-specs/v2.json").unwrap();
        assert_eq!(spec.url.as_deref(), Some("https://example.com/v2.json"));
        assert!(spec.access.groups.is_empty());
    }

    #[test]
    fn extension_option() {
        let t = PathTree::from_json(
            r#"{"guides/intro": {"isPublic": true}, "a.json": {"isPublic": true}, ".env": {"isPublic": true}}"#,
            Some(".mdx"),
        )
        .unwrap();
        let paths: Vec<&str> = t.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, vec!["/.env.mdx", "/a.json", "/guides/intro.mdx"]);
        assert_eq!(t.entries[2].slug, "guides/intro");
    }

    #[test]
    fn rejects_bad_keys() {
        for (json, key) in [
            (r#"{"a/../b.md": {"isPublic": true}}"#, "a/../b.md"),
            (r#"{"a//b.md": {"isPublic": true}}"#, "a//b.md"),
            (r#"{"/a.md": {"isPublic": true}}"#, "/a.md"),
            (r#"{"a/": {"isPublic": true}}"#, "a/"),
            (r#"{"./a": {"isPublic": true}}"#, "./a"),
            (r#"{"": {"isPublic": true}}"#, ""),
            (r#"{"a\nb.md": {"isPublic": true}}"#, "a\nb.md"),
            (r#"{"d\nforged/page.md": {"isPublic": true}}"#, "d\nforged/page.md"),
            (r#"{"a\rb.md": {"isPublic": true}}"#, "a\rb.md"),
            (r#"{"\u001b[31mred.md": {"isPublic": true}}"#, "\u{1b}[31mred.md"),
            (r#"{"del\u007f.md": {"isPublic": true}}"#, "del\u{7f}.md"),
            (r#"{"c1\u009b2J.md": {"isPublic": true}}"#, "c1\u{9b}2J.md"),
            (r#"{"tab\t.md": {"isPublic": true}}"#, "tab\t.md"),
        ] {
            let e = PathTree::from_json(json, None).unwrap_err();
            assert_eq!(e.key.as_deref(), Some(key), "{json}");
        }
    }

    #[test]
    fn control_characters_are_named_escaped() {
        let e = PathTree::from_json(r#"{"ok.md": {"isPublic": true}, "a\nb\u001b[2J.md": {"isPublic": true}}"#, None)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"corrupt path tree: entry "a\nb\u{1b}[2J.md": path contains the control character '\n'"#
        );
        assert!(!e.to_string().chars().any(char::is_control), "the message itself holds no control character");
        assert!(
            PathTree::from_json(
                r#"{"naïve café/日本.md": {"isPublic": true}, "nbsp\u00a0.md": {"isPublic": true}}"#,
                None
            )
            .is_ok(),
            "other characters are fine"
        );
    }

    #[test]
    fn rejects_duplicates_and_collisions() {
        let e = PathTree::from_json(r#"{"a.md": {"isPublic": true}, "a.md": {"isPublic": false}}"#, None).unwrap_err();
        assert!(e.to_string().contains("duplicate key \"a.md\""), "{e}");
        let e = PathTree::from_json(r#"{"a": {"isPublic": true}, "a/b.md": {"isPublic": true}}"#, None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("a/b.md"));
        assert!(e.to_string().contains("which is the file \"a\""), "{e}");
        let e =
            PathTree::from_json(r#"{"a": {"isPublic": true}, "a.mdx": {"isPublic": true}}"#, Some(".mdx")).unwrap_err();
        assert!(e.to_string().contains("same path /a.mdx"), "{e}");
    }

    #[test]
    fn rejects_bad_fields() {
        for json in [
            r#"{"a": {"isPublic": "yes"}}"#,
            r#"{"a": {"isPublic": true, "groups": "admin"}}"#,
            r#"{"a": {"isPublic": true, "groups": [1]}}"#,
            r#"{"a": {"isPublic": true, "size": -1}}"#,
            r#"{"a": {"isPublic": true, "size": 1.5}}"#,
            r#"{"a": {"isPublic": true, "url": 3}}"#,
            r#"{"a": {"isPublic": true, "chunks": 100001}}"#,
            r#"{"a": {"isPublic": true, "chunks": 1e12}}"#,
            r#"{"a": true}"#,
        ] {
            let e = PathTree::from_json(json, None).unwrap_err();
            assert_eq!(e.key.as_deref(), Some("a"), "{json}");
        }
        assert!(PathTree::from_json("[1,2]", None).is_err());
        assert!(PathTree::from_json("{\"a\":", None).is_err());
    }

    #[test]
    fn hostile_trees_fail_at_once_naming_the_limit() {
        let deep = vec!["d"; 50_000].join("/");
        let e = PathTree::from_json(&format!("{{{deep:?}: {{\"isPublic\": true}}}}"), None).unwrap_err();
        assert!(e.to_string().ends_with("…: path longer than 4096 bytes"), "{e}");
        let deep = vec!["d"; 300].join("/");
        let e = PathTree::from_json(&format!("{{{deep:?}: {{\"isPublic\": true}}}}"), None).unwrap_err();
        assert!(e.to_string().ends_with(": path deeper than 256 levels"), "{e}");
        assert!(e.to_string().len() < 400, "the key is shortened in the message");
        let bomb = codec::base64_encode(&codec::gzip(&vec![b' '; MAX_TREE_BYTES + 1]));
        let e = PathTree::from_document(&bomb, None).unwrap_err();
        assert_eq!(e.to_string(), format!("corrupt path tree: gzip data inflates past {MAX_TREE_BYTES} bytes"));
        let e = PathTree::from_json("{\"/\": {}, \"//\": {}}", None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("/"));
    }

    #[test]
    fn decodes_gzip_base64_documents() {
        let doc = codec::base64_encode(&codec::gzip(SAMPLE.as_bytes()));
        let t = PathTree::from_document(&doc, None).unwrap();
        assert_eq!(t.entries.len(), 6);
        let plain = PathTree::from_document(SAMPLE, None).unwrap();
        assert_eq!(plain.entries, t.entries);
        assert_ne!(plain.version, t.version, "the version fingerprints the stored record");
        let e = PathTree::from_document("not a tree!", None).unwrap_err();
        assert!(e.to_string().starts_with("corrupt path tree: neither JSON nor base64"), "{e}");
        let e = PathTree::from_document(&codec::base64_encode(b"junk junk junk junk"), None).unwrap_err();
        assert_eq!(e.to_string(), "corrupt path tree: not gzip data");
    }
}
