//! What a matching line must contain: the required literals of a pattern.
//!
//! A coarse filter may only drop a page when it is sure grep would print nothing for it.
//! For patterns too long to send as a regex, and for collections whose chunks are not cut
//! on line boundaries, the filter is built from the literals every match must contain
//! ([`Node::required`]): a formula of conjunctions and alternatives over literal strings.

use super::syntax::Node;

/// What a matching line must contain: a formula over literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Required {
    /// No constraint: anything may match.
    Any,
    Lit(String),
    All(Vec<Required>),
    OneOf(Vec<Required>),
}

impl Required {
    fn all(parts: Vec<Required>) -> Required {
        let mut flat = Vec::new();
        for p in parts {
            match p {
                Required::Any => {}
                Required::All(v) => flat.extend(v),
                p => flat.push(p),
            }
        }
        match flat.len() {
            0 => Required::Any,
            1 => flat.pop().unwrap(),
            _ => Required::All(flat),
        }
    }

    pub(crate) fn one_of(parts: Vec<Required>) -> Required {
        if parts.contains(&Required::Any) || parts.is_empty() {
            return Required::Any;
        }
        let mut flat = Vec::new();
        for p in parts {
            match p {
                Required::OneOf(v) => flat.extend(v),
                p => flat.push(p),
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap()
        } else {
            Required::OneOf(flat)
        }
    }

    /// The same requirement with at most one literal per conjunction (the longest):
    /// sound when the parts of a line may sit in different chunks.
    pub(crate) fn single_literals(&self) -> Required {
        match self {
            Required::All(parts) => {
                let simplified: Vec<Required> = parts.iter().map(Required::single_literals).collect();
                simplified.into_iter().max_by_key(Required::weight).unwrap_or(Required::Any)
            }
            Required::OneOf(parts) => Required::one_of(parts.iter().map(Required::single_literals).collect()),
            r => r.clone(),
        }
    }

    /// How selective a requirement is, roughly: the length of its shortest literal.
    fn weight(&self) -> usize {
        match self {
            Required::Any => 0,
            Required::Lit(s) => s.chars().count(),
            Required::All(v) => v.iter().map(Required::weight).max().unwrap_or(0),
            Required::OneOf(v) => v.iter().map(Required::weight).min().unwrap_or(0),
        }
    }

    #[cfg(test)]
    /// Whether `line` satisfies the requirement (case-sensitive).
    pub(crate) fn holds(&self, line: &str) -> bool {
        match self {
            Required::Any => true,
            Required::Lit(s) => line.contains(s.as_str()),
            Required::All(v) => v.iter().all(|r| r.holds(line)),
            Required::OneOf(v) => v.iter().any(|r| r.holds(line)),
        }
    }
}

impl Node {
    /// The literals a match must contain.
    pub(crate) fn required(&self) -> Required {
        match self {
            Node::Lit(c) => Required::Lit(c.to_string()),
            Node::Class(_) | Node::Any | Node::Start | Node::End | Node::Empty => Required::Any,
            Node::Group(n) => n.required(),
            Node::Alt(v) => Required::one_of(v.iter().map(Node::required).collect()),
            Node::Rep(n, min, _) => {
                if *min == 0 {
                    Required::Any
                } else {
                    n.required()
                }
            }
            Node::Cat(items) => {
                let mut parts = Vec::new();
                let mut run = String::new();
                for item in items {
                    match item {
                        Node::Lit(c) => run.push(*c),
                        // Zero-width items do not break a literal run.
                        Node::Start | Node::End | Node::Empty => {}
                        other => {
                            if !run.is_empty() {
                                parts.push(Required::Lit(std::mem::take(&mut run)));
                            }
                            parts.push(other.required());
                        }
                    }
                }
                if !run.is_empty() {
                    parts.push(Required::Lit(run));
                }
                Required::all(parts)
            }
        }
    }

    /// The literals one of which every match contains, each to be found whole (empty:
    /// there is no such set, and any line may match).
    pub(crate) fn needles(&self) -> Vec<String> {
        match self.required().single_literals() {
            Required::Lit(s) => vec![s],
            Required::OneOf(v) if v.iter().all(|r| matches!(r, Required::Lit(_))) => {
                v.into_iter().filter_map(|r| if let Required::Lit(s) = r { Some(s) } else { None }).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether the pattern is one literal string: no anchor, class or repetition.
    pub(crate) fn is_literal(&self) -> bool {
        match self {
            Node::Lit(_) => true,
            Node::Cat(v) => v.iter().all(|n| matches!(n, Node::Lit(_))),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::rewrite::{to_re2, Dialect};
    use crate::search::pattern::syntax::parse;

    fn req(p: &str, d: Dialect) -> Required {
        parse(&to_re2(p, d).unwrap().unwrap()).unwrap().required()
    }

    fn lit(s: &str) -> Required {
        Required::Lit(s.into())
    }

    #[test]
    fn required_literals() {
        assert_eq!(req("access_token", Dialect::Basic), lit("access_token"));
        assert_eq!(req("foo.*bar", Dialect::Basic), Required::All(vec![lit("foo"), lit("bar")]));
        assert_eq!(req("foo|bar", Dialect::Extended), Required::OneOf(vec![lit("foo"), lit("bar")]));
        assert_eq!(req("colou?r", Dialect::Extended), Required::All(vec![lit("colo"), lit("r")]));
        assert_eq!(req("ab+c", Dialect::Extended), Required::All(vec![lit("a"), lit("b"), lit("c")]));
        assert_eq!(req("x*", Dialect::Extended), Required::Any);
        assert_eq!(req("(foo|)bar", Dialect::Extended), lit("bar"));
        assert_eq!(req("^# Title$", Dialect::Basic), lit("# Title"));
        assert_eq!(req("\\bapi\\b", Dialect::Perl), lit("api"));
        let r = req("foo.*barbaz|qu+x", Dialect::Extended);
        assert_eq!(r.single_literals(), Required::OneOf(vec![lit("barbaz"), lit("x")]));
    }

    #[test]
    fn requirements_hold_on_lines() {
        let r = req("foo.*bar", Dialect::Basic);
        assert!(r.holds("a foo and a bar"));
        assert!(!r.holds("a foo"));
    }
}
