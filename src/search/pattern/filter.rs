//! Chroma `where_document` filters that may only widen: the coarse half of a search.
//!
//! A filter keeps every chunk that could hold a matching line; it may keep more. Patterns
//! that fit go to Chroma whole (`$contains` for a plain substring, which Chroma answers
//! from its full-text index, else `$regex`); longer ones become their required literals
//! (see [`super::literals`]). When chunks are not cut on line boundaries a matching line
//! may straddle two chunks, so only single literals are used, and a chunk that *ends* with
//! the start of a literal is kept too.
//!
//! Every filter stays inside Chroma Cloud's limits: strings of at most
//! [`MAX_FILTER_BYTES`] and at most [`MAX_DOCUMENT_PREDICATES`] leaves.

use super::literals::Required;
use super::syntax::{cut_prefix_regex, escape, Node};
use crate::commands::Unsupported;
use serde_json::{json, Value};

/// Chroma Cloud's limit on a full-text or regex string.
const MAX_FILTER_BYTES: usize = 256;
/// `where_document` leaves per query; the scope in `where` takes the eighth predicate.
pub(crate) const MAX_DOCUMENT_PREDICATES: usize = 7;

/// How a collection's pages were cut into chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chunking {
    /// Every chunk holds whole lines (chromafs's ingest, unless a line was too long).
    LineAligned,
    /// Chunks may end mid-line (other tools).
    Arbitrary,
}

/// Builds filters for one search's case rule and one collection's chunking.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Filters {
    pub ignore_case: bool,
    pub chunking: Chunking,
}

fn or(mut v: Vec<Value>) -> Value {
    if v.len() == 1 {
        v.pop().unwrap()
    } else {
        json!({ "$or": v })
    }
}

fn and(mut v: Vec<Value>) -> Value {
    if v.len() == 1 {
        v.pop().unwrap()
    } else {
        json!({ "$and": v })
    }
}

/// How many leaf predicates a filter has.
pub(crate) fn count_leaves(v: &Value) -> usize {
    match v.as_object().and_then(|o| o.get("$or").or_else(|| o.get("$and"))) {
        Some(Value::Array(items)) => items.iter().map(count_leaves).sum(),
        _ => 1,
    }
}

/// The text a pattern matches when it is nothing but literal characters.
fn pure_literal(node: &Node) -> Option<String> {
    match node {
        Node::Lit(c) => Some(c.to_string()),
        Node::Cat(items) if !items.is_empty() => items.iter().map(pure_literal).collect(),
        _ => None,
    }
}

impl Filters {
    fn aligned(&self) -> bool {
        self.chunking == Chunking::LineAligned
    }

    fn contains(&self, lit: &str) -> Value {
        if self.ignore_case {
            // Truncating a required literal keeps it required.
            let mut s: String = lit.chars().collect();
            while format!("(?i){}", escape(&s)).len() > MAX_FILTER_BYTES {
                s.pop();
            }
            json!({ "$regex": format!("(?i){}", escape(&s)) })
        } else {
            let mut end = lit.len().min(MAX_FILTER_BYTES);
            while !lit.is_char_boundary(end) {
                end -= 1;
            }
            json!({ "$contains": &lit[..end] })
        }
    }

    /// Leaves for one literal: it occurs in a chunk, or (chunks not line-aligned) a chunk
    /// ends with the start of it.
    fn literal(&self, lit: &str) -> Vec<Value> {
        let mut leaves = vec![self.contains(lit)];
        if !self.aligned() {
            let mut s: String = lit.chars().take(24).collect();
            while let Some(re) = cut_prefix_regex(&s) {
                let re = if self.ignore_case { format!("(?i){re}") } else { re };
                if re.len() <= MAX_FILTER_BYTES {
                    leaves.push(json!({ "$regex": re }));
                    break;
                }
                s.pop();
            }
        }
        leaves
    }

    /// A filter from required literals; `None` when nothing is required.
    fn requirement(&self, req: &Required) -> Option<Value> {
        let req = if self.aligned() { req.clone() } else { req.single_literals() };
        match &req {
            Required::Any => None,
            Required::Lit(l) => Some(or(self.literal(l))),
            Required::All(parts) => {
                let mut lits: Vec<&Required> = parts.iter().collect();
                crate::base::sort::sort_by_key(&mut lits, |r| {
                    std::cmp::Reverse(match r {
                        Required::Lit(s) => s.chars().count(),
                        _ => 0,
                    })
                });
                let chosen: Vec<Value> = lits.iter().take(3).filter_map(|r| self.requirement(r)).collect();
                (!chosen.is_empty()).then(|| and(chosen))
            }
            Required::OneOf(parts) => {
                let alts: Option<Vec<Value>> = parts.iter().map(|r| self.requirement(r)).collect();
                alts.map(or)
            }
        }
    }

    /// The filter for one pattern, given its parse and its Rust-regex translation.
    pub(crate) fn pattern(&self, node: &Node, regex: &str, line_regexp: bool) -> Result<Value, Unsupported> {
        match pure_literal(node) {
            Some(lit) if self.aligned() && !self.ignore_case && !line_regexp && lit.len() <= MAX_FILTER_BYTES => {
                Ok(json!({ "$contains": lit }))
            }
            _ if self.aligned() && regex.len() <= MAX_FILTER_BYTES => Ok(json!({ "$regex": regex })),
            _ => self.requirement(&node.required()).ok_or_else(|| {
                Unsupported::new(if self.aligned() {
                    "the pattern is too long for a filter and requires no literal text"
                } else {
                    "the pattern requires no literal text, and chunks are not line-aligned"
                })
            }),
        }
    }

    /// One filter for several patterns (a line matching any of them), within the leaf
    /// budget: their filters side by side, else one regex for all.
    pub(crate) fn any(&self, filters: Vec<Value>, regexes: &[String], flags: &str) -> Result<Value, Unsupported> {
        let filter = or(filters);
        if count_leaves(&filter) <= MAX_DOCUMENT_PREDICATES {
            return Ok(filter);
        }
        let combined = format!(
            "{flags}{}",
            regexes.iter().map(|r| format!("(?:{})", &r[flags.len()..])).collect::<Vec<_>>().join("|")
        );
        if !self.aligned() || combined.len() > MAX_FILTER_BYTES {
            return Err(Unsupported::new("too many patterns for one filter"));
        }
        Ok(json!({ "$regex": combined }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_are_counted_through_and_and_or() {
        assert_eq!(count_leaves(&json!({"$contains": "a"})), 1);
        assert_eq!(
            count_leaves(&json!({"$or": [{"$contains": "a"}, {"$and": [{"$regex": "b"}, {"$contains": "c"}]}]})),
            3
        );
    }

    #[test]
    fn literals_are_truncated_to_the_quota_and_stay_required() {
        let f = Filters { ignore_case: false, chunking: Chunking::LineAligned };
        let long = "é".repeat(200);
        let leaf = f.contains(&long);
        let text = leaf["$contains"].as_str().unwrap();
        assert!(text.len() <= MAX_FILTER_BYTES && long.starts_with(text));
        let f = Filters { ignore_case: true, ..f };
        assert!(f.contains(&"a.".repeat(200))["$regex"].as_str().unwrap().len() <= MAX_FILTER_BYTES);
    }

    #[test]
    fn unaligned_literals_also_match_a_cut() {
        let f = Filters { ignore_case: true, chunking: Chunking::Arbitrary };
        assert_eq!(
            f.literal("token"),
            vec![json!({"$regex": "(?i)token"}), json!({"$regex": "(?i)t(?:o(?:k(?:e)?)?)?\\z"})]
        );
    }
}
