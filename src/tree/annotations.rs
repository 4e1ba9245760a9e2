//! What `chromafs annotate` records beside a tree another tool wrote.
//!
//! Annotating writes every chunk's access and directories (see
//! `crate::ingest::annotate`), then one record naming the tree version that holds for:
//! readers rely on those fields only while the tree is still that version. The record also
//! says how many chunks and pages there were, which decides whether reading a search's
//! whole directory costs fewer requests than naming its pages.
//!
//! And it can make the collection as cheap to read as one chromafs ingested. When every
//! chunk's id is the one chromafs's ingest would give it ([`schema::chunk_id`]: the slug,
//! `#`, the index) and every page's indexes run 0..n-1, annotate counts each page's chunks
//! and stores the counts in parts beside the record (`…@annotations#0`, `#1`, …: a count a
//! page does not fit Chroma Cloud's 16 KiB documents at 50,000 pages). A reader with the
//! counts asks for pages by id, 300 chunks a request, instead of naming pages by slug a few
//! at a time (Chroma Cloud counts each slug as a predicate).
//!
//! The counts follow the tree's slugs in byte order and carry a digest of slugs and counts
//! together: a reader whose tree holds other pages (a tree read with another `extension`
//! can set aside colliding entries), or parts of another run, finds the digest wrong and
//! reads by slug, which is slower and never wrong.
//!
//! [`schema::chunk_id`]: crate::tree::schema::chunk_id

use crate::tree::codec;
use crate::tree::decode::PathTree;
use crate::tree::shards::ChunkFacts;
use serde::Serialize;
use serde_json::Value;

const ANNOTATIONS: &str = "chunk-annotations";
/// How a part of the counts starts: `chromafs-chunk-counts <digest> <part>\n`.
const PART_HEADER: &str = "chromafs-chunk-counts";
/// Largest part document (Chroma Cloud's document cap is 16,384 bytes).
const PART_BYTES: usize = 16_000;
/// Pages a part starts with; a part that comes out too large is halved.
const PART_PAGES: usize = 12_000;
/// Parts a record may name: a million pages at the smallest parts, past what a tree holds.
const MAX_PARTS: usize = 1024;
/// What one part may inflate to.
const MAX_PART_TEXT: usize = 1 << 20;
/// The most chunks one page may be counted with (the tree's own limit for `chunks`).
const MAX_PAGE_CHUNKS: u64 = 100_000;

/// The record beside a tree another tool wrote, once every chunk carries its page's access
/// and directories.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Annotations {
    pub chromafs: String,
    /// The version of the tree record annotated (a fingerprint of its document).
    pub tree_version: String,
    /// Chunks and pages the collection held when annotated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<u64>,
    /// The public pages' text: what a page of unknown size may be expected to take in
    /// memory (a tree another tool writes gives no sizes). Public pages only, which every
    /// session sees: an estimate that counted other pages would let their text change what
    /// a session's searches ask for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public: Option<PublicText>,
    /// Every page's chunk count, in parts, when every chunk's id is chromafs's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// The grep index's manifest (see `pages::grams`): pages are numbered in their slugs'
    /// byte order, every page the tree names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grams: Option<Value>,
}

/// The public pages of an annotated collection: how many, their chunks, and the bytes of
/// their text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub(crate) struct PublicText {
    pub pages: u64,
    pub chunks: u64,
    pub bytes: u64,
}

impl PublicText {
    fn read(v: &Value) -> Option<PublicText> {
        let count = |name: &str| v.get(name).and_then(Value::as_u64);
        Some(PublicText { pages: count("pages")?, chunks: count("chunks")?, bytes: count("bytes")? })
    }

    /// Chunks a public page has on average.
    pub(crate) fn chunks_per_page(&self) -> f64 {
        self.chunks as f64 / self.pages as f64
    }

    /// Bytes of text a public chunk holds on average.
    pub(crate) fn bytes_per_chunk(&self) -> f64 {
        self.bytes as f64 / self.chunks as f64
    }
}

/// Where the per-page counts are and what they must add up to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Counts {
    /// A fingerprint of the slugs and their counts, in slug order.
    pub digest: String,
    pub parts: usize,
}

impl Annotations {
    pub(crate) fn new(tree_version: &str) -> Self {
        Annotations {
            chromafs: ANNOTATIONS.into(),
            tree_version: tree_version.to_string(),
            chunks: None,
            pages: None,
            public: None,
            counts: None,
            grams: None,
        }
    }

    /// The same, saying how many chunks and pages were annotated, and what the public
    /// pages' text holds.
    pub(crate) fn counting(self, chunks: usize, pages: usize, public: PublicText) -> Self {
        Annotations { chunks: Some(chunks as u64), pages: Some(pages as u64), public: Some(public), ..self }
    }

    /// The same, with every page's chunk count: the parts to write beside the record.
    pub(crate) fn with_counts(self, pages: &[(&str, u64)]) -> (Self, Vec<String>) {
        let mut pages = pages.to_vec();
        crate::base::sort::sort(&mut pages);
        let digest = digest(pages.iter().map(|&(s, n)| (s, n)));
        let counts: Vec<u64> = pages.iter().map(|p| p.1).collect();
        let mut parts = Vec::new();
        let mut start = 0;
        while start < counts.len() {
            let end = (start + PART_PAGES).min(counts.len());
            fit(&counts[start..end], &digest, &mut parts);
            start = end;
        }
        let counts = Counts { digest, parts: parts.len() };
        (Annotations { counts: Some(counts), ..self }, parts)
    }

    /// What the public pages' text holds, when the annotation measured it for this tree.
    pub(crate) fn public_text(&self, tree_version: &str) -> Option<PublicText> {
        self.public.filter(|p| p.pages > 0 && p.chunks > 0 && self.tree_version == tree_version)
    }

    /// The record's id beside a tree record.
    pub(crate) fn id(tree_id: &str) -> String {
        format!("{tree_id}@annotations")
    }

    /// The id of part `i` of the counts.
    pub(crate) fn part_id(tree_id: &str, i: usize) -> String {
        format!("{tree_id}@annotations#{i}")
    }

    /// What a reader compares to see that the annotations changed.
    pub(crate) fn stamp(&self) -> String {
        let digest = self.counts.as_ref().map_or("", |c| c.digest.as_str());
        let grams = self.grams.as_ref().map_or(String::new(), Value::to_string);
        let public = self.public.map_or(String::new(), |p| format!("{}/{}/{}", p.pages, p.chunks, p.bytes));
        format!("{} {digest} {public} {grams}", self.tree_version)
    }

    /// The grep index's manifest, when it describes a tree of this version.
    pub(crate) fn grams_for(&self, tree_version: &str) -> Option<Value> {
        self.grams.clone().filter(|_| self.tree_version == tree_version)
    }

    /// The annotations a document holds, if it is one.
    pub(crate) fn read(doc: &str) -> Option<Annotations> {
        let v: Value = serde_json::from_str(doc).ok()?;
        let o = v.as_object()?;
        let count = |name: &str| o.get(name).and_then(Value::as_u64);
        let counts = o.get("counts").and_then(Value::as_object).and_then(|c| {
            let parts = usize::try_from(c.get("parts")?.as_u64()?).ok().filter(|&n| n <= MAX_PARTS)?;
            Some(Counts { digest: c.get("digest")?.as_str()?.to_string(), parts })
        });
        Some(Annotations {
            chromafs: o.get("chromafs")?.as_str()?.to_string(),
            tree_version: o.get("tree_version")?.as_str()?.to_string(),
            chunks: count("chunks"),
            pages: count("pages"),
            public: o.get("public").and_then(PublicText::read),
            counts,
            grams: o.get("grams").cloned(),
        })
        .filter(|a| a.chromafs == ANNOTATIONS)
    }

    /// What chunks carry for a tree of this version. Ids are known only once the counts
    /// are applied ([`Annotations::apply_counts`]).
    pub(crate) fn facts(&self, tree_version: &str, line_aligned: bool) -> ChunkFacts {
        let current = self.tree_version == tree_version;
        ChunkFacts { line_aligned, access: current, dirs: current, ids: false }
    }

    /// Gives every entry of `tree` its chunk count from the parts (`parts[i]` is part
    /// `i`'s document, if found). Whether it did: missing, torn or foreign parts, or a tree
    /// holding other pages, leave the tree as it was.
    pub(crate) fn apply_counts(&self, tree: &mut PathTree, parts: &[Option<&str>]) -> bool {
        let Some(counts) = self.counts.as_ref().filter(|_| self.tree_version == tree.revision) else {
            return false;
        };
        let Ok(values) = read_parts(counts, parts) else { return false };
        let mut order: Vec<usize> = (0..tree.entries.len()).collect();
        crate::base::sort::sort_by(&mut order, |&a, &b| tree.entries[a].slug.cmp(&tree.entries[b].slug));
        if values.len() != order.len() {
            return false;
        }
        let pairs = order.iter().zip(&values).map(|(&i, &n)| (tree.entries[i].slug.as_str(), n));
        if digest(pairs) != counts.digest {
            return false;
        }
        let disagrees = order.iter().zip(&values).any(|(&i, &n)| tree.entries[i].chunks.is_some_and(|c| c != n));
        if disagrees {
            return false;
        }
        for (&i, &n) in order.iter().zip(&values) {
            tree.entries[i].chunks = Some(n);
        }
        true
    }
}

fn digest<'a>(pages: impl Iterator<Item = (&'a str, u64)>) -> String {
    let mut text = Vec::new();
    for (slug, n) in pages {
        // Length-prefixed, so no slug can pose as two.
        text.extend_from_slice(format!("{}:{slug}{n};", slug.len()).as_bytes());
    }
    format!("{:016x}", codec::fingerprint(&text))
}

fn part_text(counts: &[u64], digest: &str, part: usize) -> String {
    let list: Vec<String> = counts.iter().map(u64::to_string).collect();
    format!("{PART_HEADER} {digest} {part}\n{}", list.join(","))
}

fn fit(counts: &[u64], digest: &str, out: &mut Vec<String>) {
    let doc = codec::base64_encode(&codec::gzip(part_text(counts, digest, out.len()).as_bytes()));
    if doc.len() <= PART_BYTES || counts.len() == 1 {
        out.push(doc);
        return;
    }
    let (a, b) = counts.split_at(counts.len() / 2);
    fit(a, digest, out);
    fit(b, digest, out);
}

fn read_parts(counts: &Counts, parts: &[Option<&str>]) -> Result<Vec<u64>, String> {
    if parts.len() != counts.parts {
        return Err(format!("{} parts, the record names {}", parts.len(), counts.parts));
    }
    let mut values = Vec::new();
    for (i, doc) in parts.iter().enumerate() {
        let doc = doc.ok_or_else(|| format!("part {i} is missing"))?;
        let gz = codec::base64_decode(doc).map_err(|e| e.to_string())?;
        let raw = codec::gunzip(&gz, MAX_PART_TEXT).map_err(|e| e.to_string())?;
        let text = String::from_utf8(raw).map_err(|_| "not UTF-8".to_string())?;
        let (header, body) = text.split_once('\n').ok_or("no header")?;
        if header != format!("{PART_HEADER} {} {i}", counts.digest) {
            return Err(format!("part {i} belongs to another annotation"));
        }
        for n in body.split(',').filter(|s| !s.is_empty()) {
            let n: u64 = n.parse().map_err(|_| format!("part {i}: {n:?} is not a count"))?;
            if n > MAX_PAGE_CHUNKS {
                return Err(format!("part {i}: {n} chunks for one page"));
            }
            values.push(n);
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(slugs: &[&str]) -> PathTree {
        let entries: serde_json::Map<String, Value> =
            slugs.iter().map(|s| (s.to_string(), serde_json::json!({"isPublic": true}))).collect();
        PathTree::from_json(&Value::Object(entries).to_string(), None).unwrap()
    }

    fn parts(p: &[String]) -> Vec<Option<&str>> {
        p.iter().map(|s| Some(s.as_str())).collect()
    }

    #[test]
    fn annotations_hold_for_the_tree_they_name() {
        let public = PublicText { pages: 2, chunks: 6, bytes: 9_000 };
        let a = Annotations::new("v1").counting(10, 4, public);
        let text = a.public_text("v1").unwrap();
        assert_eq!((text.chunks_per_page(), text.bytes_per_chunk()), (3.0, 1500.0));
        assert_eq!(a.public_text("v2"), None, "counts of another tree say nothing");
        let none = Annotations::new("v1").counting(10, 4, PublicText::default());
        assert_eq!(none.public_text("v1"), None, "no public page: nothing to go by");
        let doc = serde_json::to_string(&a).unwrap();
        assert_eq!(Annotations::read(&doc), Some(a.clone()));
        assert_eq!(Annotations::read(r#"{"a.md": {"isPublic": true}}"#), None);
        assert_eq!(a.facts("v1", true), ChunkFacts { line_aligned: true, access: true, dirs: true, ids: false });
        assert_eq!(a.facts("v2", false), ChunkFacts::default(), "a rewritten tree: the fields may be stale");
        assert_eq!(Annotations::id("__path_tree__"), "__path_tree__@annotations");
        assert_eq!(Annotations::part_id("__path_tree__", 2), "__path_tree__@annotations#2");
    }

    #[test]
    fn counts_reach_every_page_of_the_tree_they_were_made_for() {
        let mut t = tree(&["b.md", "a.md", "c/d.md"]);
        let (a, p) = Annotations::new(&t.revision).with_counts(&[("c/d.md", 3), ("a.md", 1), ("b.md", 0)]);
        let a = Annotations::read(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(a.counts.as_ref().unwrap().parts, 1);
        assert!(a.apply_counts(&mut t, &parts(&p)));
        let got: Vec<(&str, Option<u64>)> = t.entries.iter().map(|e| (e.slug.as_str(), e.chunks)).collect();
        assert_eq!(got, [("a.md", Some(1)), ("b.md", Some(0)), ("c/d.md", Some(3))]);
    }

    #[test]
    fn counts_that_do_not_fit_the_tree_are_not_used() {
        let t = tree(&["a.md", "b.md"]);
        let (a, p) = Annotations::new(&t.revision).with_counts(&[("a.md", 1), ("b.md", 2)]);
        let untouched = |tree: &PathTree| tree.entries.iter().all(|e| e.chunks.is_none());
        let mut other = tree(&["a.md", "x.md"]);
        other.revision = t.revision.clone();
        assert!(!a.apply_counts(&mut other, &parts(&p)), "other pages");
        assert!(untouched(&other));
        let mut newer = tree(&["a.md", "b.md", "c.md"]);
        assert!(!a.apply_counts(&mut newer, &parts(&p)), "another tree version");
        let mut same = tree(&["a.md", "b.md"]);
        assert!(!a.apply_counts(&mut same, &[None]), "a missing part");
        assert!(!a.apply_counts(&mut same, &[Some("not base64!")]), "a corrupt part");
        let (b, q) = Annotations::new(&t.revision).with_counts(&[("a.md", 1), ("b.md", 3)]);
        assert_ne!(a.stamp(), b.stamp());
        assert!(!a.apply_counts(&mut same, &parts(&q)), "a part of another run");
        assert!(untouched(&same));
        assert!(b.apply_counts(&mut same, &parts(&q)));
    }

    #[test]
    fn fifty_thousand_pages_fit_in_parts_under_the_document_cap() {
        let slugs: Vec<String> = (0..50_000).map(|i| format!("section-{}/page-{i}.mdx", i % 40)).collect();
        let pages: Vec<(&str, u64)> =
            slugs.iter().enumerate().map(|(i, s)| (s.as_str(), (i as u64 * 7919) % 23 + 1)).collect();
        let (a, p) = Annotations::new("v").with_counts(&pages);
        assert!(p.iter().all(|d| d.len() <= PART_BYTES), "{:?}", p.iter().map(String::len).collect::<Vec<_>>());
        assert!(p.len() <= 8, "{} parts", p.len());
        let values = read_parts(a.counts.as_ref().unwrap(), &parts(&p)).unwrap();
        assert_eq!(values.len(), 50_000);
    }
}
