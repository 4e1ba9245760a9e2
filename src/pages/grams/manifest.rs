//! What a collection's grep index holds, as its tree record records it.
//!
//! The index is kept apart for each access class — each set of pages with the same
//! `isPublic` and `groups` — so that what a search reads is the index of the pages it may
//! see and nothing else: its requests, bytes and time cannot depend on a hidden page's
//! text. A class's index is a base segment and the small segments later ingests added
//! (each taking over the pages it lists from the segments before it), merged into a new
//! base when they grow. The manifest names the segments and how each is laid out; it is
//! written in the tree's own record (its `grams`) with the tree, so it always describes the
//! tree a session holds, and a segment it names was written before it.

use crate::tree::access::{Access, Groups};
use serde_json::{json, Value};

/// The version of the layout this code reads and writes.
pub(crate) const FORMAT: u64 = 3;

/// One segment of a class's index.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Segment {
    pub id: String,
    pub shards: u32,
    pub parts: u32,
    /// Whether it lists pages it takes over from the segments before it.
    pub covers: bool,
    /// Bytes of its records, to decide when to merge.
    pub bytes: u64,
}

/// The index of one access class: its segments, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Class {
    pub access: Access,
    pub segments: Vec<Segment>,
}

/// The whole index.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Manifest {
    /// Every page number in the index is below this.
    pub pages: u32,
    /// The number the next segment gets (segment ids are never reused).
    pub next: u64,
    pub classes: Vec<Class>,
}

/// Why a session's searches go without the index.
pub(crate) const NO_INDEX: &str = "the collection has no grep index (`chromafs ingest` writes one with the tree, and `chromafs annotate --grep-index` adds one to a collection another tool wrote)";
pub(crate) const OTHER_FORMAT: &str = "the collection's grep index is in a format this version of chromafs does not read: searches ask Chroma instead (`chromafs ingest` again, or `chromafs annotate` for a collection another tool wrote, makes it anew)";

impl Manifest {
    /// The index a tree records (its `grams`), or why there is none this code reads.
    pub(crate) fn of_tree(grams: Option<&Value>) -> Result<Manifest, &'static str> {
        Manifest::from_value(grams.ok_or(NO_INDEX)?).ok_or(OTHER_FORMAT)
    }

    /// The manifest as the tree records it, `None` when it is not one this code can read
    /// (another version: searches then go without the index).
    pub(crate) fn from_value(v: &Value) -> Option<Manifest> {
        if v.get("v")?.as_u64()? != FORMAT {
            return None;
        }
        let classes = v.get("classes")?.as_array()?.iter().map(class).collect::<Option<Vec<_>>>()?;
        Some(Manifest {
            pages: u32::try_from(v.get("pages")?.as_u64()?).ok()?,
            next: v.get("next")?.as_u64()?,
            classes,
        })
    }

    /// The manifest as the tree records it.
    pub(crate) fn to_value(&self) -> Value {
        let classes: Vec<Value> = self
            .classes
            .iter()
            .map(|c| {
                let segments: Vec<Value> = c
                    .segments
                    .iter()
                    .map(|s| json!({ "id": s.id, "shards": s.shards, "parts": s.parts, "covers": s.covers, "bytes": s.bytes }))
                    .collect();
                json!({ "isPublic": c.access.is_public, "groups": c.access.groups, "segments": segments })
            })
            .collect();
        json!({ "v": FORMAT, "pages": self.pages, "next": self.next, "classes": classes })
    }

    /// The classes a session with `groups` sees.
    pub(crate) fn visible<'a>(&'a self, groups: &'a Groups) -> impl Iterator<Item = &'a Class> + 'a {
        self.classes.iter().filter(move |c| groups.can_see(&c.access))
    }

    /// The class of `access`, when the index has one.
    pub(crate) fn class(&self, access: &Access) -> Option<&Class> {
        self.classes.iter().find(|c| same_access(&c.access, access))
    }
}

/// Whether two accesses are the same class (groups compared as sets).
pub(crate) fn same_access(a: &Access, b: &Access) -> bool {
    let key = |x: &Access| {
        let mut g = x.groups.clone();
        crate::base::sort::sort(&mut g);
        g.dedup();
        (x.is_public, g)
    };
    key(a) == key(b)
}

fn class(v: &Value) -> Option<Class> {
    let access = Access::from_values(v.get("isPublic"), v.get("groups")).ok()?;
    let segments = v.get("segments")?.as_array()?.iter().map(segment).collect::<Option<Vec<_>>>()?;
    Some(Class { access, segments })
}

fn segment(v: &Value) -> Option<Segment> {
    let n = |k: &str| v.get(k)?.as_u64();
    let id = v.get("id")?.as_str()?.to_string();
    // An id is part of record ids: plain characters only.
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some(Segment {
        id,
        shards: u32::try_from(n("shards")?).ok().filter(|&s| s > 0)?,
        parts: u32::try_from(n("parts")?).ok().filter(|&p| p > 0 && p <= 64)?,
        covers: v.get("covers")?.as_bool()?,
        bytes: n("bytes")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        let seg = |id: &str, covers| Segment { id: id.into(), shards: 12, parts: 2, covers, bytes: 9000 };
        Manifest {
            pages: 40,
            next: 4,
            classes: vec![
                Class {
                    access: Access { is_public: true, groups: vec![] },
                    segments: vec![seg("s1", false), seg("s3", true)],
                },
                Class {
                    access: Access { is_public: false, groups: vec!["admin".into()] },
                    segments: vec![seg("s2", false)],
                },
            ],
        }
    }

    #[test]
    fn a_manifest_reads_back_from_the_tree_record() {
        let m = sample();
        assert_eq!(Manifest::from_value(&m.to_value()), Some(m.clone()));
        let staff = Groups::new(["staff"]);
        assert_eq!(m.visible(&staff).count(), 1);
        assert_eq!(m.visible(&Groups::new(["admin"])).count(), 2);
        assert!(m.class(&Access { is_public: false, groups: vec!["admin".into(), "admin".into()] }).is_some());
    }

    #[test]
    fn another_version_or_a_bad_field_is_no_manifest() {
        let text = sample().to_value().to_string();
        for bad in [
            text.replace(&format!("\"v\":{FORMAT}"), "\"v\":2"),
            text.replace("\"id\":\"s1\"", "\"id\":\"s1:x\""),
            text.replace("\"shards\":12", "\"shards\":0"),
            "\"not a manifest\"".into(),
        ] {
            let v: Value = serde_json::from_str(&bad).unwrap();
            assert_eq!(Manifest::from_value(&v), None, "{bad}");
        }
    }
}
