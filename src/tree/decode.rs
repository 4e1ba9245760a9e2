//! The path tree: which pages exist, where, and who may see them.
//!
//! One record (id `__path_tree__` by default) holds a JSON object mapping page slugs to
//! their access fields and optional `size`, `mtime` and `url`. It arrives as plain JSON
//! or gzip+base64 (see [`crate::tree::codec`]); plain JSON is recognised by its leading `{`.
//!
//! The tree is validated as a whole before anything is shown, but one bad entry does not
//! cost the agents every other page. A key that cannot be a path — `..`, `.`, an empty
//! segment, a control character, two keys naming one path, a file that is also a
//! directory — would make the shell lie about the docs, so such an entry is set aside:
//! it is in no listing, and [`PathTree::set_aside`] names it (escaped) for the operator.
//! An entry whose access cannot be read is set aside too, and is never named to a
//! session: access fails closed. An entry with a sound path and access but a field that
//! cannot be right (a chunk count past any real page, a negative size) is listed, and
//! reading it is an error naming the entry ([`TreeEntry::problem`]). What bounds the tree
//! as a whole (entries, bytes) still fails `connect` at once.
//! A [`PathTree`] is shared by every session on the same collection; a session sees it
//! through a [`Listing`](crate::tree::listing::Listing), pruned to the pages its groups may see.

use crate::base::hash::PathMap;
use crate::base::json;
use crate::base::path;
use crate::tree::access::Access;
use crate::tree::codec;
use crate::tree::fields::Fields;
use crate::tree::versions;
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
    /// The page's number in the grep index (`n`), when the ingest that wrote it kept one.
    pub number: Option<u32>,
    /// The version of the docs the page belongs to; `None`: every version (see
    /// [`crate::tree::versions`]).
    pub version: Option<String>,
    /// Why the page cannot be read (a field of its entry that cannot be right): reading
    /// it is an error with this message, and nothing is asked of Chroma for it.
    pub problem: Option<String>,
}

/// An entry no listing holds: its key cannot be a path, or its access cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SetAside {
    /// What is wrong, naming the entry escaped (`corrupt path tree: entry "a\nb.md": …`).
    pub problem: String,
    /// The entry's access when it could be read; `None` hides it from every session.
    pub access: Option<Access>,
}

/// A decoded, validated tree, shared by all sessions on one collection.
#[derive(Debug, Clone)]
pub(crate) struct PathTree {
    pub entries: Vec<TreeEntry>,
    /// A fingerprint of the stored record: changes whenever the docs are re-ingested.
    pub revision: String,
    /// Entries left out of every listing, in the order they were found.
    pub set_aside: Vec<SetAside>,
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

/// What one entry becomes: a page (perhaps with a problem), or set aside.
enum Parsed {
    Page(TreeEntry),
    SetAside(SetAside),
}

fn parse_entry(key: &str, fields: Fields, extension: Option<&str>) -> Parsed {
    let problem = |message: &str| TreeError::entry(key, message).to_string();
    if !fields.object {
        return Parsed::SetAside(SetAside { problem: problem("entry is not an object"), access: None });
    }
    let access = match Access::from_values(fields.is_public.as_ref(), fields.groups.as_ref()) {
        Ok(a) => a,
        Err(why) => return Parsed::SetAside(SetAside { problem: problem(why), access: None }),
    };
    // Which versions show a page is part of where it is: one that cannot be read is in none.
    let version = match versions::read(fields.version.as_ref()) {
        Ok(v) => v,
        Err(why) => return Parsed::SetAside(SetAside { problem: problem(why), access: Some(access) }),
    };
    if let Err(e) = check_key(key) {
        return Parsed::SetAside(SetAside { problem: e.to_string(), access: Some(access) });
    }
    let mut entry = TreeEntry {
        slug: key.to_string(),
        path: display_path(key, extension),
        access,
        size: None,
        mtime: None,
        url: None,
        chunks: None,
        number: None,
        version,
        problem: None,
    };
    if let Err(why) = read_fields(&mut entry, fields) {
        entry.problem = Some(problem(&why));
    }
    Parsed::Page(entry)
}

/// An entry's optional fields, each checked; the first that cannot be right is the error
/// (the fields read so far are kept, the rest left out).
fn read_fields(entry: &mut TreeEntry, fields: Fields) -> Result<(), String> {
    entry.size = match fields.size {
        None | Some(Value::Null) => None,
        Some(v) => Some(json::whole_number(&v).ok_or("size must be a non-negative integer")?),
    };
    entry.mtime = match fields.mtime {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() && f.abs() <= 8.64e15 => Some(f),
            _ => return Err("mtime is out of range".into()),
        },
        Some(_) => return Err("mtime must be milliseconds since the epoch".into()),
    };
    entry.chunks = match fields.chunks {
        None | Some(Value::Null) => None,
        Some(v) => match json::whole_number(&v) {
            Some(n) if n <= MAX_PAGE_CHUNKS => Some(n),
            Some(_) => return Err(format!("chunks is more than {MAX_PAGE_CHUNKS}")),
            None => return Err("chunks must be a non-negative integer".into()),
        },
    };
    entry.url = match fields.url {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        Some(_) => return Err("url must be a non-empty string".into()),
    };
    // Only the grep index reads it, and a page it cannot place is always a candidate: a
    // number that is not one is left out, never an error of the page.
    entry.number = fields.number.as_ref().and_then(json::whole_number).and_then(|n| u32::try_from(n).ok());
    Ok(())
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
        tree.revision = format!("{:016x}", codec::fingerprint(doc.as_bytes()));
        Ok(tree)
    }

    /// Parses and validates the tree's JSON.
    pub(crate) fn from_json(json: &str, extension: Option<&str>) -> Result<Self, TreeError> {
        let raw = json::all_members(json).map_err(|e| TreeError::whole(format!("invalid JSON: {e}")))?;
        let revision = format!("{:016x}", codec::fingerprint(json.as_bytes()));
        Self::from_members(raw, extension, revision)
    }

    /// Validates a tree given as its members, in order (from one document or from shards).
    pub(crate) fn from_members(
        raw: Vec<(String, Fields)>,
        extension: Option<&str>,
        revision: String,
    ) -> Result<Self, TreeError> {
        if raw.len() > MAX_ENTRIES {
            return Err(TreeError::whole(format!("more than {MAX_ENTRIES} entries")));
        }
        let mut entries = Vec::with_capacity(raw.len());
        let mut set_aside = Vec::new();
        for (key, value) in raw {
            match parse_entry(&key, value, extension) {
                Parsed::Page(e) => entries.push(e),
                Parsed::SetAside(s) => set_aside.push(s),
            }
        }
        // Stable: trees are usually written sorted already, and then this is one pass.
        crate::base::sort::sort_by(&mut entries, |a, b| path::js_cmp(&a.path, &b.path));
        set_aside.extend(collisions(&mut entries));
        Ok(PathTree { entries, revision, set_aside })
    }
}

impl PathTree {
    /// The versions of the pages `groups` may see, oldest first.
    pub(crate) fn versions_seen_by(&self, groups: &crate::tree::access::Groups) -> Vec<String> {
        let seen = self.entries.iter().filter(|e| groups.can_see(&e.access));
        versions::ordered(seen.filter_map(|e| e.version.as_deref()))
    }

    /// Shows every page under the top-level directory `dir` (`guides/a.md` at
    /// `/docs/guides/a.md`): one prefix for all keeps their order and their collisions.
    pub(crate) fn mount(&mut self, dir: &str) {
        for e in &mut self.entries {
            e.path = format!("/{dir}{}", e.path);
        }
    }
}

/// Takes out of `entries` (sorted by path) every entry that names a path another entry
/// names too, and every file that is also a directory of another entry: which one the
/// author meant cannot be known, so none of them is shown.
fn collisions(entries: &mut Vec<TreeEntry>) -> Vec<SetAside> {
    let mut out = Vec::new();
    let mut clash = vec![false; entries.len()];
    // Sorted, two entries naming one path are neighbours.
    for i in 1..entries.len() {
        if entries[i].path == entries[i - 1].path {
            for (at, other) in [(i, i - 1), (i - 1, i)] {
                if !clash[at] {
                    clash[at] = true;
                    let why = format!("names the same path {} as {:?}", entries[at].path, entries[other].slug);
                    out.push(SetAside {
                        problem: TreeError::entry(&entries[at].slug, why).to_string(),
                        access: Some(entries[at].access.clone()),
                    });
                }
            }
        }
    }
    // A path that is a file must not also be a directory of another entry. Each directory
    // is recorded with the first entry below it; the walk up stops at a directory already
    // recorded, whose ancestors are then recorded too.
    let mut dirs: PathMap<&str, &str> = PathMap::default();
    for (entry, _) in entries.iter().zip(&clash).filter(|(_, c)| !**c) {
        let mut dir = path::parent(&entry.path);
        while dir != "/" && !dirs.contains_key(dir) {
            dirs.insert(dir, &entry.slug);
            dir = path::parent(dir);
        }
    }
    let mut is_dir = vec![false; entries.len()];
    for (i, e) in entries.iter().enumerate() {
        if let Some(below) = dirs.get(e.path.as_str()).filter(|_| !clash[i]) {
            is_dir[i] = true;
            let why = format!("is a file, and also the directory of {below:?}");
            out.push(SetAside { problem: TreeError::entry(&e.slug, why).to_string(), access: Some(e.access.clone()) });
        }
    }
    drop(dirs);
    let mut i = 0;
    entries.retain(|_| {
        i += 1;
        !clash[i - 1] && !is_dir[i - 1]
    });
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tree::access::Groups;

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

    /// The problems of the entries set aside, and of those listed but unreadable.
    fn problems(json: &str) -> (Vec<String>, Vec<(String, String)>) {
        let t = PathTree::from_json(json, None).unwrap();
        let listed = t.entries.iter().filter_map(|e| Some((e.slug.clone(), e.problem.clone()?))).collect();
        (t.set_aside.into_iter().map(|s| s.problem).collect(), listed)
    }

    #[test]
    fn keys_that_cannot_be_paths_are_set_aside_and_the_rest_kept() {
        for (json, shown) in [
            (r#"{"a/../b.md": {"isPublic": true}}"#, r#""a/../b.md""#),
            (r#"{"a//b.md": {"isPublic": true}}"#, r#""a//b.md""#),
            (r#"{"/a.md": {"isPublic": true}}"#, r#""/a.md""#),
            (r#"{"a/": {"isPublic": true}}"#, r#""a/""#),
            (r#"{"./a": {"isPublic": true}}"#, r#""./a""#),
            (r#"{"": {"isPublic": true}}"#, r#""""#),
            (r#"{"a\nb.md": {"isPublic": true}}"#, r#""a\nb.md""#),
            (r#"{"d\nforged/page.md": {"isPublic": true}}"#, r#""d\nforged/page.md""#),
            (r#"{"a\rb.md": {"isPublic": true}}"#, r#""a\rb.md""#),
            (r#"{"\u001b[31mred.md": {"isPublic": true}}"#, r#""\u{1b}[31mred.md""#),
            (r#"{"del\u007f.md": {"isPublic": true}}"#, r#""del\u{7f}.md""#),
            (r#"{"c1\u009b2J.md": {"isPublic": true}}"#, r#""c1\u{9b}2J.md""#),
            (r#"{"tab\t.md": {"isPublic": true}}"#, r#""tab\t.md""#),
        ] {
            let with_good = json.replacen('{', r#"{"good.md": {"isPublic": true}, "#, 1);
            let t = PathTree::from_json(&with_good, None).unwrap();
            assert_eq!(t.entries.iter().map(|e| e.slug.as_str()).collect::<Vec<_>>(), ["good.md"], "{json}");
            assert_eq!(t.set_aside.len(), 1, "{json}");
            assert!(
                t.set_aside[0].problem.starts_with(&format!("corrupt path tree: entry {shown}: ")),
                "{json}: {:?}",
                t.set_aside
            );
            assert!(!t.set_aside[0].problem.chars().any(char::is_control), "the problem holds no control character");
        }
    }

    #[test]
    fn control_characters_are_named_escaped() {
        let (aside, _) = problems(r#"{"ok.md": {"isPublic": true}, "a\nb\u001b[2J.md": {"isPublic": true}}"#);
        assert_eq!(aside, [r#"corrupt path tree: entry "a\nb\u{1b}[2J.md": path contains the control character '\n'"#]);
        let t = PathTree::from_json(
            r#"{"naïve café/日本.md": {"isPublic": true}, "nbsp\u00a0.md": {"isPublic": true}}"#,
            None,
        )
        .unwrap();
        assert_eq!((t.entries.len(), t.set_aside.len()), (2, 0), "other characters are fine");
    }

    #[test]
    fn colliding_entries_are_all_set_aside() {
        let (aside, _) =
            problems(r#"{"a.md": {"isPublic": true}, "a.md": {"isPublic": false}, "b.md": {"isPublic": true}}"#);
        assert_eq!(aside.len(), 2, "both of two equal keys: which was meant cannot be known");
        assert!(aside[0].contains(r#"names the same path /a.md as "a.md""#), "{aside:?}");
        let t = PathTree::from_json(r#"{"a": {"isPublic": true}, "a/b.md": {"isPublic": true}}"#, None).unwrap();
        assert_eq!(t.entries.iter().map(|e| e.slug.as_str()).collect::<Vec<_>>(), ["a/b.md"], "the directory wins");
        assert_eq!(
            t.set_aside[0].problem,
            r#"corrupt path tree: entry "a": is a file, and also the directory of "a/b.md""#
        );
        let t = PathTree::from_json(r#"{"a": {"isPublic": true}, "a.mdx": {"isPublic": true}}"#, Some(".mdx")).unwrap();
        assert!(t.entries.is_empty() && t.set_aside[0].problem.contains("same path /a.mdx"), "{:?}", t.set_aside);
    }

    #[test]
    fn unreadable_access_hides_and_other_bad_fields_make_the_page_an_error() {
        for json in [
            r#"{"a": {"isPublic": "yes"}}"#,
            r#"{"a": {"isPublic": true, "groups": "admin"}}"#,
            r#"{"a": {"isPublic": true, "groups": [1]}}"#,
            r#"{"a": true}"#,
        ] {
            let t = PathTree::from_json(json, None).unwrap();
            assert!(t.entries.is_empty(), "{json}");
            assert_eq!(t.set_aside[0].access, None, "{json}: fails closed");
        }
        for (json, why) in [
            (r#"{"a": {"isPublic": true, "size": -1}}"#, "size must be a non-negative integer"),
            (r#"{"a": {"isPublic": true, "size": 1.5}}"#, "size must be a non-negative integer"),
            (r#"{"a": {"isPublic": true, "url": 3}}"#, "url must be a non-empty string"),
            (r#"{"a": {"isPublic": true, "chunks": 100001}}"#, "chunks is more than 100000"),
            (r#"{"a": {"isPublic": true, "chunks": 1e12}}"#, "chunks is more than 100000"),
            (r#"{"a": {"isPublic": true, "chunks": -3}}"#, "chunks must be a non-negative integer"),
            (r#"{"a": {"isPublic": true, "mtime": "today"}}"#, "mtime must be milliseconds since the epoch"),
        ] {
            let (aside, listed) = problems(json);
            assert!(aside.is_empty(), "{json}");
            assert_eq!(listed, [("a".to_string(), format!("corrupt path tree: entry \"a\": {why}"))], "{json}");
        }
        assert!(PathTree::from_json("[1,2]", None).is_err());
        assert!(PathTree::from_json("{\"a\":", None).is_err());
    }

    #[test]
    fn hostile_trees_fail_at_once_naming_the_limit() {
        let deep = vec!["d"; 50_000].join("/");
        let (aside, _) = problems(&format!("{{{deep:?}: {{\"isPublic\": true}}}}"));
        assert!(aside[0].ends_with("…: path longer than 4096 bytes"), "{aside:?}");
        let deep = vec!["d"; 300].join("/");
        let (aside, _) = problems(&format!("{{{deep:?}: {{\"isPublic\": true}}}}"));
        assert!(aside[0].ends_with(": path deeper than 256 levels"), "{aside:?}");
        assert!(aside[0].len() < 400, "the key is shortened in the message");
        let bomb = codec::base64_encode(&codec::gzip(&vec![b' '; MAX_TREE_BYTES + 1]));
        let e = PathTree::from_document(&bomb, None).unwrap_err();
        assert_eq!(e.to_string(), format!("corrupt path tree: gzip data inflates past {MAX_TREE_BYTES} bytes"));
        let (aside, _) = problems("{\"/\": {}, \"//\": {}}");
        assert_eq!(aside.len(), 2);
    }

    #[test]
    fn decodes_gzip_base64_documents() {
        let doc = codec::base64_encode(&codec::gzip(SAMPLE.as_bytes()));
        let t = PathTree::from_document(&doc, None).unwrap();
        assert_eq!(t.entries.len(), 6);
        let plain = PathTree::from_document(SAMPLE, None).unwrap();
        assert_eq!(plain.entries, t.entries);
        assert_ne!(plain.revision, t.revision, "the version fingerprints the stored record");
        let e = PathTree::from_document("not a tree!", None).unwrap_err();
        assert!(e.to_string().starts_with("corrupt path tree: neither JSON nor base64"), "{e}");
        let e = PathTree::from_document(&codec::base64_encode(b"junk junk junk junk"), None).unwrap_err();
        assert_eq!(e.to_string(), "corrupt path tree: not gzip data");
    }

    #[test]
    fn versions_are_those_of_pages_a_session_sees_and_one_that_cannot_be_read_is_set_aside() {
        let t = PathTree::from_json(
            r#"{"v1/a.md": {"isPublic": true, "version": "v1"}, "v10/a.md": {"isPublic": true, "version": "v10"},
                "v2/a.md": {"isPublic": true, "version": "v2"}, "beta/a.md": {"groups": ["staff"], "version": "v4-beta"},
                "changelog.md": {"isPublic": true}, "odd.md": {"isPublic": true, "version": 3}}"#,
            None,
        )
        .unwrap();
        assert_eq!(t.versions_seen_by(&Groups::default()), ["v1", "v2", "v10"]);
        assert_eq!(t.versions_seen_by(&Groups::new(["staff"])), ["v1", "v2", "v4-beta", "v10"]);
        assert_eq!(t.entries.iter().find(|e| e.slug == "changelog.md").unwrap().version, None);
        assert!(t.set_aside[0].problem.contains("odd.md\": version must be a string"), "{:?}", t.set_aside);
        assert!(t.set_aside[0].access.is_some(), "named to the sessions that would see it");
    }
}
