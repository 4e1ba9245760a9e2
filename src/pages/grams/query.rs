//! What a search asks the grep index: a formula over pieces of text that every page
//! holding a match satisfies.
//!
//! It is built from the literals a matching line must hold (the search's own analysis of
//! its patterns): a literal becomes all of its pieces, "all of" and "one of" stay what they
//! are, and whatever has no piece (a literal of fewer than three bytes, a pattern with no
//! literal at all) asks nothing, so the formula can only keep more pages than match. A
//! formula that asks nothing at all cannot narrow the search: the search reads its scope
//! as it would without an index.

use super::fold::{literal_grams, Gram};
use std::collections::BTreeSet;

/// A formula over pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GramQuery {
    /// Every page.
    Any,
    Gram(Gram),
    All(Vec<GramQuery>),
    OneOf(Vec<GramQuery>),
}

impl GramQuery {
    /// A page holding `literal` (in any case) holds all of these pieces.
    pub(crate) fn literal(literal: &str) -> GramQuery {
        let one_of = |set: Vec<Gram>| GramQuery::one_of(set.into_iter().map(GramQuery::Gram).collect());
        GramQuery::all(literal_grams(literal).into_iter().map(one_of).collect())
    }

    /// All of `parts`; what asks nothing drops out.
    pub(crate) fn all(parts: Vec<GramQuery>) -> GramQuery {
        let mut flat: Vec<GramQuery> = Vec::new();
        for p in parts {
            match p {
                GramQuery::Any => {}
                GramQuery::All(v) => flat.extend(v),
                p => flat.push(p),
            }
        }
        match flat.len() {
            0 => GramQuery::Any,
            1 => flat.pop().expect("one"),
            _ => GramQuery::All(flat),
        }
    }

    /// One of `parts`; one that asks nothing makes the whole ask nothing.
    pub(crate) fn one_of(parts: Vec<GramQuery>) -> GramQuery {
        if parts.is_empty() || parts.contains(&GramQuery::Any) {
            return GramQuery::Any;
        }
        let mut flat: Vec<GramQuery> = Vec::new();
        for p in parts {
            match p {
                GramQuery::OneOf(v) => flat.extend(v),
                p => flat.push(p),
            }
        }
        if flat.len() == 1 {
            flat.pop().expect("one")
        } else {
            GramQuery::OneOf(flat)
        }
    }

    /// The pieces the formula names.
    pub(crate) fn grams(&self) -> BTreeSet<Gram> {
        let mut out = BTreeSet::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut BTreeSet<Gram>) {
        match self {
            GramQuery::Any => {}
            GramQuery::Gram(g) => {
                out.insert(*g);
            }
            GramQuery::All(v) | GramQuery::OneOf(v) => v.iter().for_each(|q| q.collect(out)),
        }
    }

    /// The pages (ascending) that satisfy the formula, given each piece's pages; `every`
    /// is every page, for `Any`.
    pub(crate) fn eval(&self, pages_of: &dyn Fn(&Gram) -> Vec<u32>, every: &[u32]) -> Vec<u32> {
        match self {
            GramQuery::Any => every.to_vec(),
            GramQuery::Gram(g) => pages_of(g),
            GramQuery::All(v) => {
                let mut sets = v.iter().map(|q| q.eval(pages_of, every));
                let first = sets.next().unwrap_or_default();
                sets.fold(first, |acc, s| intersect(&acc, &s))
            }
            GramQuery::OneOf(v) => v.iter().map(|q| q.eval(pages_of, every)).fold(Vec::new(), |acc, s| union(&acc, &s)),
        }
    }
}

/// The numbers in both ascending lists.
pub(crate) fn intersect(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// The numbers in either ascending list, ascending.
pub(crate) fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(a.len() + b.len()));
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(_), Some(&y)) | (None, Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, None) => break,
        };
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn a_formula_keeps_the_pages_holding_its_literals_in_any_case() {
        let pages = ["The API Key rotates.", "an api_key here", "nothing", "KEY and token", "apiKey"];
        let index: HashMap<Gram, Vec<u32>> = {
            let mut m: HashMap<Gram, Vec<u32>> = HashMap::new();
            for (n, text) in pages.iter().enumerate() {
                let mut grams: Vec<Gram> = super::super::fold::grams(text).into_iter().collect();
                grams.sort();
                for g in grams {
                    m.entry(g).or_default().push(n as u32);
                }
            }
            m
        };
        let lookup = |g: &Gram| index.get(g).cloned().unwrap_or_default();
        let every: Vec<u32> = (0..pages.len() as u32).collect();
        let key = GramQuery::literal("KEY");
        assert_eq!(key.eval(&lookup, &every), vec![0, 1, 3, 4]);
        let both = GramQuery::all(vec![GramQuery::literal("api"), GramQuery::literal("key")]);
        assert_eq!(both.eval(&lookup, &every), vec![0, 1, 4]);
        let either = GramQuery::one_of(vec![GramQuery::literal("token"), GramQuery::literal("rotates")]);
        assert_eq!(either.eval(&lookup, &every), vec![0, 3]);
        assert_eq!(GramQuery::literal("ke"), GramQuery::Any, "too short to ask anything");
        assert_eq!(GramQuery::one_of(vec![GramQuery::literal("token"), GramQuery::literal("a")]), GramQuery::Any);
        assert_eq!(
            GramQuery::all(vec![GramQuery::literal("token"), GramQuery::literal("a")]),
            GramQuery::literal("token")
        );
    }

    #[test]
    fn intersections_and_unions_of_ascending_lists() {
        assert_eq!(intersect(&[1, 3, 5, 9], &[2, 3, 9, 10]), vec![3, 9]);
        assert_eq!(union(&[1, 3, 5], &[2, 3, 9]), vec![1, 2, 3, 5, 9]);
        assert_eq!(union(&[], &[4]), vec![4]);
    }
}
