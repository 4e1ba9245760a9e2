//! The path tree: which pages exist, where, and who may see them.
//!
//! One record (id `__path_tree__` by default) holds a JSON object mapping page slugs to
//! their access fields and optional `size`, `mtime` and `url`. It arrives as plain JSON
//! or gzip+base64 (see [`crate::codec`]); plain JSON is recognised by its leading `{`.
//!
//! The tree is validated as a whole before anything is shown: a key with `..`, `.`, an
//! empty segment or a NUL, two keys that name the same path, or a file that is also a
//! directory would make the shell lie about the docs, so each is an error naming the key.
//! A [`PathTree`] is shared by every session on the same collection; [`PathTree::view`]
//! prunes it to one session's visible pages and builds the directory index that answers
//! `stat`, `readdir` and `exists` with no network at all.

use crate::access::Groups;
use crate::codec;
use crate::path;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// A tree that cannot be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeError {
    /// The offending key, when the problem is one entry.
    pub key: Option<String>,
    pub message: String,
}

impl TreeError {
    fn whole(message: impl Into<String>) -> Self {
        TreeError { key: None, message: message.into() }
    }
    fn entry(key: &str, message: impl Into<String>) -> Self {
        TreeError { key: Some(key.to_string()), message: message.into() }
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(k) => write!(f, "corrupt path tree: entry {:?}: {}", k, self.message),
            None => write!(f, "corrupt path tree: {}", self.message),
        }
    }
}

impl std::error::Error for TreeError {}

/// One page as the tree describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeEntry {
    /// The key in the tree and the value of the chunks' slug field.
    pub slug: String,
    /// Where the page appears: absolute, normalised, with `extension` applied.
    pub path: String,
    pub is_public: bool,
    pub groups: Vec<String>,
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
pub struct PathTree {
    pub entries: Vec<TreeEntry>,
    /// A fingerprint of the stored record: changes whenever the docs are re-ingested.
    pub version: String,
}

/// Applies the `extension` option: a slug whose last segment has no extension is shown
/// with it (`guides/intro` → `guides/intro.mdx`).
pub fn display_path(slug: &str, extension: Option<&str>) -> String {
    let name = slug.rsplit('/').next().unwrap_or(slug);
    let has_ext = name.rfind('.').is_some_and(|i| i > 0);
    match extension {
        Some(ext) if !ext.is_empty() && !has_ext => format!("/{slug}{ext}"),
        _ => format!("/{slug}"),
    }
}

fn check_key(key: &str) -> Result<(), TreeError> {
    if key.is_empty() {
        return Err(TreeError::entry(key, "empty path"));
    }
    if key.contains('\0') {
        return Err(TreeError::entry(key, "path contains a NUL byte"));
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

fn parse_entry(key: &str, value: Value, extension: Option<&str>) -> Result<TreeEntry, TreeError> {
    let Value::Object(obj) = value else {
        return Err(TreeError::entry(key, "entry is not an object"));
    };
    let is_public = match obj.get("isPublic") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(TreeError::entry(key, "isPublic must be true or false")),
    };
    let groups = match obj.get("groups") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|g| g.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| TreeError::entry(key, "groups must be an array of strings"))?,
        Some(_) => return Err(TreeError::entry(key, "groups must be an array of strings")),
    };
    let size = match obj.get("size") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match (n.as_u64(), n.as_f64()) {
            (Some(u), _) => Some(u),
            (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 9.0e15 => Some(f as u64),
            _ => return Err(TreeError::entry(key, "size must be a non-negative integer")),
        },
        Some(_) => return Err(TreeError::entry(key, "size must be a non-negative integer")),
    };
    let mtime = match obj.get("mtime") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() && f.abs() <= 8.64e15 => Some(f),
            _ => return Err(TreeError::entry(key, "mtime is out of range")),
        },
        Some(_) => return Err(TreeError::entry(key, "mtime must be milliseconds since the epoch")),
    };
    let chunks = match obj.get("chunks") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| TreeError::entry(key, "chunks must be a non-negative integer"))?),
    };
    let url = match obj.get("url") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(_) => return Err(TreeError::entry(key, "url must be a non-empty string")),
    };
    Ok(TreeEntry { slug: key.to_string(), path: display_path(key, extension), is_public, groups, size, mtime, url, chunks })
}

/// Reads the top-level object in order, refusing duplicate keys (serde_json would keep
/// the last one silently).
struct OrderedEntries(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for OrderedEntries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OrderedEntries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object mapping page slugs to entries")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedEntries, A::Error> {
                let mut seen = HashSet::new();
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(de::Error::custom(format!("duplicate key {key:?}")));
                    }
                    out.push((key, map.next_value()?));
                }
                Ok(OrderedEntries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// Decodes a stored tree document: plain JSON, or gzip then base64.
pub fn decode_document(doc: &str) -> Result<String, TreeError> {
    let trimmed = doc.trim_start();
    if trimmed.starts_with('{') {
        return Ok(doc.to_string());
    }
    let gz = codec::base64_decode(doc).map_err(|e| TreeError::whole(format!("neither JSON nor base64: {e}")))?;
    let json = codec::gunzip(&gz).map_err(|e| TreeError::whole(e.to_string()))?;
    String::from_utf8(json).map_err(|_| TreeError::whole("decoded tree is not UTF-8"))
}

impl PathTree {
    /// Decodes and validates a stored tree document.
    pub fn from_document(doc: &str, extension: Option<&str>) -> Result<Self, TreeError> {
        let json = decode_document(doc)?;
        let mut tree = Self::from_json(&json, extension)?;
        tree.version = format!("{:016x}", codec::fingerprint(doc.as_bytes()));
        Ok(tree)
    }

    /// Parses and validates the tree's JSON.
    pub fn from_json(json: &str, extension: Option<&str>) -> Result<Self, TreeError> {
        let OrderedEntries(raw) = serde_json::from_str(json).map_err(|e| TreeError::whole(format!("invalid JSON: {e}")))?;
        let mut entries = Vec::with_capacity(raw.len());
        let mut by_path: HashMap<String, String> = HashMap::with_capacity(raw.len());
        for (key, value) in raw {
            check_key(&key)?;
            let entry = parse_entry(&key, value, extension)?;
            if let Some(other) = by_path.insert(entry.path.clone(), key.clone()) {
                return Err(TreeError::entry(&key, format!("names the same path {} as {other:?}", entry.path)));
            }
            entries.push(entry);
        }
        // A path that is a file must not also be a directory of another entry.
        for entry in &entries {
            let mut dir = path::parent(&entry.path);
            while dir != "/" {
                if let Some(file_key) = by_path.get(dir) {
                    return Err(TreeError::entry(
                        &entry.slug,
                        format!("lies below {dir}, which is the file {file_key:?}"),
                    ));
                }
                dir = path::parent(dir);
            }
        }
        entries.sort_by(|a, b| path::js_cmp(&a.path, &b.path));
        let version = format!("{:016x}", codec::fingerprint(json.as_bytes()));
        Ok(PathTree { entries, version })
    }

    /// The pages one session can see, indexed for the filesystem. `extra_files` are paths
    /// the host adds for this session (lazy files); they may not turn a directory into a file.
    pub fn view(&self, groups: &Groups, extra_files: &[String]) -> Result<Listing, TreeError> {
        let mut listing = Listing::default();
        listing.nodes.insert("/".to_string(), Node::Dir(DirNode::default()));
        for (i, e) in self.entries.iter().enumerate() {
            if groups.can_see(e.is_public, &e.groups) {
                listing.add_file(&e.path, FileNode { entry: Some(i), size: e.size, mtime: e.mtime.unwrap_or(0.0), ino: 0 })?;
            }
        }
        for p in extra_files {
            let p = path::normalize(p);
            match listing.nodes.get(&p) {
                Some(Node::File(_)) => {}
                Some(Node::Dir(_)) => return Err(TreeError::entry(&p, "a lazy file cannot replace a directory")),
                None => listing.add_file(&p, FileNode { entry: None, size: None, mtime: 0.0, ino: 0 })?,
            }
        }
        listing.finish();
        Ok(listing)
    }
}

/// A file in a session's view.
#[derive(Debug, Clone)]
pub struct FileNode {
    /// Index into [`PathTree::entries`]; `None` for a host-supplied lazy file.
    pub entry: Option<usize>,
    pub size: Option<u64>,
    pub mtime: f64,
    pub ino: u64,
}

/// A directory in a session's view. It exists because a visible file lies below it.
#[derive(Debug, Clone, Default)]
pub struct DirNode {
    /// Sorted as just-bash sorts (JavaScript string order).
    pub children: Vec<(String, bool)>,
    /// The newest mtime below it.
    pub mtime: f64,
    pub ino: u64,
}

#[derive(Debug, Clone)]
pub enum Node {
    File(FileNode),
    Dir(DirNode),
}

impl Node {
    pub fn ino(&self) -> u64 {
        match self {
            Node::File(f) => f.ino,
            Node::Dir(d) => d.ino,
        }
    }
    pub fn mtime(&self) -> f64 {
        match self {
            Node::File(f) => f.mtime,
            Node::Dir(d) => d.mtime,
        }
    }
}

/// One session's directory index over its visible pages.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    nodes: HashMap<String, Node>,
    files: usize,
}

impl Listing {
    fn add_file(&mut self, file: &str, node: FileNode) -> Result<(), TreeError> {
        let mtime = node.mtime;
        if self.nodes.contains_key(file) {
            return Err(TreeError::entry(file, "listed twice"));
        }
        self.nodes.insert(file.to_string(), Node::File(node));
        self.files += 1;
        // Walk up to `/`, creating directories and registering each new node in its parent.
        let (mut child, mut is_new, mut is_dir) = (file.to_string(), true, false);
        while child != "/" {
            let dir = path::parent(&child).to_string();
            let name = path::file_name(&child).to_string();
            let created = match self.nodes.get_mut(&dir) {
                Some(Node::Dir(d)) => {
                    d.mtime = d.mtime.max(mtime);
                    if is_new {
                        d.children.push((name, is_dir));
                    }
                    false
                }
                Some(Node::File(_)) => return Err(TreeError::entry(file, format!("lies below the file {dir}"))),
                None => {
                    let d = DirNode { children: vec![(name, is_dir)], mtime, ino: 0 };
                    self.nodes.insert(dir.clone(), Node::Dir(d));
                    true
                }
            };
            (child, is_new, is_dir) = (dir, created, true);
        }
        Ok(())
    }

    /// Sorts children and numbers every node, so `ino` is unique per path.
    fn finish(&mut self) {
        let mut paths: Vec<String> = self.nodes.keys().cloned().collect();
        paths.sort_by(|a, b| path::js_cmp(a, b));
        for (i, p) in paths.iter().enumerate() {
            match self.nodes.get_mut(p).unwrap() {
                Node::File(f) => f.ino = i as u64 + 1,
                Node::Dir(d) => {
                    d.ino = i as u64 + 1;
                    d.children.sort_by(|a, b| path::js_cmp(&a.0, &b.0));
                }
            }
        }
    }

    /// The node at a normalised path.
    pub fn get(&self, path: &str) -> Option<&Node> {
        self.nodes.get(path)
    }

    /// Every visible path, directories included, sorted.
    pub fn all_paths(&self) -> Vec<String> {
        let mut v: Vec<String> = self.nodes.keys().cloned().collect();
        v.sort_by(|a, b| path::js_cmp(a, b));
        v
    }

    /// Whether any visible path satisfies `f` (no allocation, no sorting).
    pub fn any_path(&self, f: impl Fn(&str) -> bool) -> bool {
        self.nodes.keys().any(|p| f(p))
    }

    /// The number of visible files.
    pub fn file_count(&self) -> usize {
        self.files
    }

    /// Visible files at or below `dir`, sorted.
    pub fn files_under(&self, dir: &str) -> Vec<String> {
        let prefix = if dir == "/" { "/".to_string() } else { format!("{dir}/") };
        let mut v: Vec<String> = self
            .nodes
            .iter()
            .filter(|(p, n)| matches!(n, Node::File(_)) && (p.starts_with(&prefix) || p.as_str() == dir))
            .map(|(p, _)| p.clone())
            .collect();
        v.sort_by(|a, b| path::js_cmp(a, b));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"{
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

    fn names(l: &Listing, dir: &str) -> Vec<String> {
        match l.get(dir) {
            Some(Node::Dir(d)) => d.children.iter().map(|(n, is_dir)| format!("{n}{}", if *is_dir { "/" } else { "" })).collect(),
            _ => panic!("{dir} is not a directory"),
        }
    }

    #[test]
    fn parses_fields() {
        let t = tree();
        let b = t.entries.iter().find(|e| e.slug == "internal/billing.mdx").unwrap();
        assert_eq!(b.size, Some(5120));
        assert!(!b.is_public);
        assert_eq!(b.groups, vec!["admin", "billing"]);
        let spec = t.entries.iter().find(|e| e.slug == "api-specs/v2.json").unwrap();
        assert_eq!(spec.url.as_deref(), Some("https://example.com/v2.json"));
        assert!(spec.groups.is_empty());
    }

    #[test]
    fn public_view_hides_private_pages_and_their_directories() {
        let l = tree().view(&Groups::default(), &[]).unwrap();
        assert_eq!(names(&l, "/"), vec!["api-specs/", "auth/", "index.mdx"]);
        assert!(l.get("/internal").is_none());
        assert!(l.get("/internal/billing.mdx").is_none());
        assert!(l.get("/draft.mdx").is_none(), "missing isPublic must mean private");
        assert_eq!(l.file_count(), 3);
    }

    #[test]
    fn group_views() {
        let billing = tree().view(&Groups::new(["billing"]), &[]).unwrap();
        assert_eq!(names(&billing, "/internal"), vec!["billing.mdx"]);
        let admin = tree().view(&Groups::new(["admin"]), &[]).unwrap();
        assert_eq!(names(&admin, "/internal"), vec!["admin/", "billing.mdx"]);
        assert_eq!(names(&admin, "/internal/admin"), vec!["keys.mdx"]);
        assert_eq!(admin.get("/internal").unwrap().mtime(), 1700000000000.0);
        assert_eq!(admin.get("/").unwrap().mtime(), 1700000000000.0);
    }

    #[test]
    fn inodes_are_unique() {
        let l = tree().view(&Groups::new(["admin"]), &[]).unwrap();
        let paths = l.all_paths();
        let inos: HashSet<u64> = paths.iter().map(|p| l.get(p).unwrap().ino()).collect();
        assert_eq!(inos.len(), paths.len());
        assert!(!inos.contains(&0));
    }

    #[test]
    fn files_under_a_directory() {
        let l = tree().view(&Groups::new(["admin"]), &[]).unwrap();
        assert_eq!(l.files_under("/internal"), vec!["/internal/admin/keys.mdx", "/internal/billing.mdx"]);
        assert_eq!(l.files_under("/index.mdx"), vec!["/index.mdx"]);
        assert_eq!(l.files_under("/").len(), 5);
    }

    #[test]
    fn extension_option() {
        let t = PathTree::from_json(r#"{"guides/intro": {"isPublic": true}, "a.json": {"isPublic": true}, ".env": {"isPublic": true}}"#, Some(".mdx")).unwrap();
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
        ] {
            let e = PathTree::from_json(json, None).unwrap_err();
            assert_eq!(e.key.as_deref(), Some(key), "{json}");
        }
    }

    #[test]
    fn rejects_duplicates_and_collisions() {
        let e = PathTree::from_json(r#"{"a.md": {"isPublic": true}, "a.md": {"isPublic": false}}"#, None).unwrap_err();
        assert!(e.to_string().contains("duplicate key \"a.md\""), "{e}");
        let e = PathTree::from_json(r#"{"a": {"isPublic": true}, "a/b.md": {"isPublic": true}}"#, None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("a/b.md"));
        assert!(e.to_string().contains("which is the file \"a\""), "{e}");
        let e = PathTree::from_json(r#"{"a": {"isPublic": true}, "a.mdx": {"isPublic": true}}"#, Some(".mdx")).unwrap_err();
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
            r#"{"a": true}"#,
        ] {
            let e = PathTree::from_json(json, None).unwrap_err();
            assert_eq!(e.key.as_deref(), Some("a"), "{json}");
        }
        assert!(PathTree::from_json("[1,2]", None).is_err());
        assert!(PathTree::from_json("{\"a\":", None).is_err());
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

    #[test]
    fn lazy_extra_files() {
        let l = tree().view(&Groups::default(), &["/specs/openapi.json".to_string(), "/index.mdx".to_string()]).unwrap();
        assert!(matches!(l.get("/specs/openapi.json"), Some(Node::File(f)) if f.entry.is_none()));
        assert_eq!(l.file_count(), 4);
        assert!(tree().view(&Groups::default(), &["/auth".to_string()]).is_err());
        assert!(tree().view(&Groups::default(), &["/index.mdx/x".to_string()]).is_err());
    }
}
