//! Writing the grep index: what an ingest adds to it, and when a class's index is made anew.
//!
//! Pages keep their numbers from one ingest to the next (a new page takes the next free
//! one), so that a class whose pages did not change keeps its segments as they are. A
//! class with changed pages gets a small new segment: the changed pages' pieces, and the
//! list of pages it takes over from the segments before it (changed, gone, or moved to
//! another class). When a class's small segments pass a quarter of its base, or eight of
//! them, the class is indexed anew in one base. A one-page edit so writes a record or two
//! against a base of hundreds.

use super::fold::{code, codes, gram_of, Gram};
use super::manifest::{same_access, Class, Manifest, Segment};
use super::shard::{lay_out, segment_prefix, PREFIX};
use crate::tree::access::Access;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Small segments a class may have before it is indexed anew.
const MAX_DELTAS: usize = 8;

/// One page as the ingest writes it.
#[derive(Debug, Clone)]
pub(crate) struct Page<'a> {
    pub slug: &'a str,
    pub access: &'a Access,
    pub text: &'a str,
}

/// What the collection's index was before this ingest.
#[derive(Debug, Clone, Default)]
pub(crate) struct Previous {
    pub manifest: Manifest,
    /// Each page's number and access, as the previous tree recorded them.
    pub pages: HashMap<String, (u32, Access)>,
    /// Pages whose text changed since (or that are new).
    pub changed: HashSet<String>,
}

/// What to write: the manifest, each page's number, the records to write and the ids of
/// the index's records to keep (every other record of the index is stale).
#[derive(Debug, Clone, Default)]
pub(crate) struct Built {
    pub manifest: Manifest,
    pub numbers: HashMap<String, u32>,
    pub records: Vec<(String, String)>,
    /// Segments kept from before, whose records stay.
    pub kept: Vec<String>,
    /// The ids of `records`.
    written: HashSet<String>,
}

impl Built {
    /// Whether `id`, a record the collection holds, is the index's and stays: one this
    /// ingest writes, or one of a segment it keeps.
    pub(crate) fn keeps(&self, id: &str) -> bool {
        let Some(rest) = id.strip_prefix(PREFIX).and_then(|r| r.strip_prefix(':')) else { return false };
        let segment = rest.split(':').next().unwrap_or("");
        self.kept.iter().any(|k| k == segment) || self.written.contains(id)
    }

    /// The same index less the records `there` already holds (an id names one content).
    pub(crate) fn without(&self, there: &HashSet<&str>) -> Built {
        let records: Vec<(String, String)> =
            self.records.iter().filter(|(id, _)| !there.contains(id.as_str())).cloned().collect();
        Built { records, ..self.clone() }
    }

    /// Whether this ingest writes the record `id`.
    pub(crate) fn written(&self, id: &str) -> bool {
        self.written.contains(id)
    }
}

/// The index after an ingest of `pages`, given what it was (`None`: made anew).
pub(crate) fn build(pages: &[Page], previous: Option<&Previous>) -> Built {
    let numbers = number(pages, previous);
    let mut writer = Writer {
        numbers: &numbers,
        next: previous.map_or(1, |p| p.manifest.next),
        records: Vec::new(),
        kept: Vec::new(),
    };
    let mut classes: Vec<(Access, Vec<&Page>)> = Vec::new();
    for p in pages {
        match classes.iter_mut().find(|(a, _)| same_access(a, p.access)) {
            Some((_, list)) => list.push(p),
            None => classes.push((p.access.clone(), vec![p])),
        }
    }
    let mut manifest = Manifest::default();
    for (access, members) in classes {
        let class = match previous.and_then(|p| p.manifest.class(&access).map(|c| (p, c))) {
            Some((prev, old)) => writer.grow(&access, &members, old, prev),
            None => writer.base(&access, &members),
        };
        manifest.classes.push(class);
    }
    manifest.next = writer.next;
    manifest.pages = numbers.values().max().map_or(0, |n| n + 1).max(previous.map_or(0, |p| p.manifest.pages));
    let Writer { records, kept, .. } = writer;
    let written = records.iter().map(|(id, _)| id.clone()).collect();
    Built { manifest, numbers, records, kept, written }
}

/// Each page's number: its previous one, else the next free one.
fn number(pages: &[Page], previous: Option<&Previous>) -> HashMap<String, u32> {
    let mut free =
        previous.map_or(0, |p| p.manifest.pages.max(p.pages.values().map(|(n, _)| n + 1).max().unwrap_or(0)));
    let mut out = HashMap::new();
    for p in pages {
        let n = match previous.and_then(|prev| prev.pages.get(p.slug)) {
            Some((n, _)) => *n,
            None => {
                free += 1;
                free - 1
            }
        };
        out.insert(p.slug.to_string(), n);
    }
    out
}

/// Segments as they are laid out: their records, and the segments kept from before.
struct Writer<'a> {
    numbers: &'a HashMap<String, u32>,
    next: u64,
    records: Vec<(String, String)>,
    kept: Vec<String>,
}

impl Writer<'_> {
    /// A class's index made anew: one base segment of all its pages.
    fn base(&mut self, access: &Access, members: &[&Page]) -> Class {
        let segment = self.segment(members, &[]).expect("a base takes nothing over");
        Class { access: access.clone(), segments: vec![segment] }
    }

    /// A class's index after this ingest: as it was, with a small segment for what changed,
    /// or made anew when its small segments have grown too many or too large.
    fn grow(&mut self, access: &Access, members: &[&Page], old: &Class, prev: &Previous) -> Class {
        let here: HashSet<&str> = members.iter().map(|p| p.slug).collect();
        let changed: Vec<&Page> = members
            .iter()
            .copied()
            .filter(|p| {
                prev.changed.contains(p.slug) || prev.pages.get(p.slug).is_none_or(|(_, a)| !same_access(a, access))
            })
            .collect();
        // Pages the class had that it no longer has, or whose text is new, and those it gains.
        let mut covers: Vec<u32> = prev
            .pages
            .iter()
            .filter(|(slug, (_, a))| {
                same_access(a, access) && (!here.contains(slug.as_str()) || prev.changed.contains(*slug))
            })
            .map(|(_, (n, _))| *n)
            .collect();
        covers.extend(changed.iter().map(|p| self.numbers[p.slug]));
        covers.sort_unstable();
        covers.dedup();
        if changed.is_empty() && covers.is_empty() {
            self.kept.extend(old.segments.iter().map(|s| s.id.clone()));
            return old.clone();
        }
        let base_bytes = old.segments.first().map_or(0, |s| s.bytes);
        let delta_bytes: u64 = old.segments.iter().skip(1).map(|s| s.bytes).sum();
        let merge = |s: &Segment| old.segments.len() > MAX_DELTAS || (delta_bytes + s.bytes) * 4 > base_bytes;
        let segment = match self.segment(&changed, &covers) {
            Some(s) if !merge(&s) => s,
            made => {
                // Merged: the class anew; a small segment laid out is not needed.
                if let Some(s) = made {
                    let prefix = segment_prefix(&s.id);
                    self.records.retain(|(id, _)| !id.starts_with(&prefix));
                }
                return self.base(access, members);
            }
        };
        self.kept.extend(old.segments.iter().map(|s| s.id.clone()));
        let mut segments = old.segments.clone();
        segments.push(segment);
        Class { access: access.clone(), segments }
    }

    /// Lays out a segment of `pages` and of the pages it `covers`, adding its records;
    /// `None` when what it covers does not fit its first record.
    fn segment(&mut self, pages: &[&Page], covers: &[u32]) -> Option<Segment> {
        let mut ordered: Vec<(u32, &str)> = pages.iter().map(|p| (self.numbers[p.slug], p.text)).collect();
        crate::base::sort::sort_by_key(&mut ordered, |(n, _)| *n);
        // Every (piece, page) pair, by the piece's first byte, then each of those sorted:
        // each piece's pages come out in ascending order, and sorting needs room for one
        // first byte's pairs at a time rather than a copy of them all.
        let mut by_first: Vec<Vec<u64>> = vec![Vec::new(); 256];
        for (n, text) in ordered {
            for c in codes(text) {
                by_first[(c >> 24) as usize].push(u64::from(c) << 32 | u64::from(n));
            }
        }
        let mut grouped: Vec<(Gram, Vec<u32>)> = Vec::new();
        for mut pairs in by_first {
            sort_by_piece(&mut pairs);
            for pair in pairs {
                let (c, n) = ((pair >> 32) as u32, pair as u32);
                match grouped.last_mut() {
                    Some((g, pages)) if code(g) == c => pages.push(n),
                    _ => grouped.push((gram_of(c), vec![n])),
                }
            }
        }
        let lists: BTreeMap<Gram, Vec<u32>> = grouped.into_iter().collect();
        // Named by its number and its content: a record's id names one content for good, so
        // a process may keep what it read, even across a collection indexed anew.
        let id = format!("s{}x{:016x}", self.next, digest(&lists, covers));
        self.next += 1;
        let layout = lay_out(&id, &lists, covers)?;
        let bytes: u64 = layout.records.iter().map(|(_, d)| d.len() as u64).sum();
        self.records.extend(layout.records);
        Some(Segment { id, shards: layout.shards, parts: layout.parts, covers: !covers.is_empty(), bytes })
    }
}

/// Sorts (piece << 32 | page) pairs by piece, keeping the order of each piece's pages: a
/// radix sort a byte at a time, where a comparison sort of a site's tens of millions of
/// pairs was most of an ingest's time spent on the index.
fn sort_by_piece(pairs: &mut Vec<u64>) {
    let mut from = std::mem::take(pairs);
    let mut to = vec![0u64; from.len()];
    for shift in [32, 40, 48, 56] {
        let digit = |p: u64| (p >> shift) as u8 as usize;
        let mut at = [0usize; 256];
        for &p in &from {
            at[digit(p)] += 1;
        }
        if at.contains(&from.len()) {
            continue; // every pair has this digit: the order stands
        }
        let mut next = 0;
        for slot in at.iter_mut() {
            (*slot, next) = (next, next + *slot);
        }
        for &p in &from {
            let d = digit(p);
            to[at[d]] = p;
            at[d] += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    *pairs = from;
}

/// FNV-1a over the index's format, a segment's lists and the pages it takes over: the same
/// lists laid out by another format are other records.
fn digest(lists: &BTreeMap<Gram, Vec<u32>>, covers: &[u32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&super::manifest::FORMAT.to_le_bytes());
    for n in covers {
        eat(&n.to_le_bytes());
    }
    for (gram, pages) in lists {
        eat(gram);
        eat(&(pages.len() as u32).to_le_bytes());
        pages.iter().for_each(|n| eat(&n.to_le_bytes()));
    }
    h
}

#[cfg(test)]
mod tests;
