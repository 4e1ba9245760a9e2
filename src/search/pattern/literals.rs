//! What a matching line must contain: the required literals of a pattern.
//!
//! A coarse filter may only drop a page when it is sure grep would print nothing for it.
//! For patterns too long to send as a regex, and for collections whose chunks are not cut
//! on line boundaries, the filter is built from the literals every match must contain
//! ([`Node::required`]): a formula of conjunctions and alternatives over literal strings.

use super::syntax::Node;

/// Up to this many strings spell a part of a pattern out exactly (see [`Node::spelled_out`]).
const SPELLED_OUT: usize = 16;

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

    /// [`Node::required`], with the small parts of a pattern spelled out: a class of a few
    /// characters, an optional piece or an alternation of literals stands for each of the
    /// strings it matches, joined with its neighbours, so that `api[_-]key` requires
    /// `api_key` or `api-key` rather than `api` and `key`. Exact as `required` is (every
    /// match holds one of the strings), and more selective where an index of pieces of
    /// text reads it.
    pub(crate) fn spelled_out(&self) -> Required {
        self.spelling().required()
    }

    fn spelling(&self) -> Spelling {
        let exact = |v: Vec<String>| Spelling { exact: Some(v), required: Required::Any };
        let inexact = |required| Spelling { exact: None, required };
        match self {
            Node::Lit(c) => exact(vec![c.to_string()]),
            Node::Start | Node::End | Node::Empty => exact(vec![String::new()]),
            Node::Any => inexact(Required::Any),
            Node::Class(c) => small_class(c).map_or_else(|| inexact(Required::Any), exact),
            Node::Group(n) => n.spelling(),
            Node::Alt(v) => {
                let parts: Vec<Spelling> = v.iter().map(Node::spelling).collect();
                let total: usize =
                    parts.iter().map(|p| p.exact.as_ref().map_or(usize::MAX, Vec::len)).fold(0, usize::saturating_add);
                if total <= SPELLED_OUT {
                    exact(parts.into_iter().flat_map(|p| p.exact.unwrap_or_default()).collect())
                } else {
                    inexact(Required::one_of(parts.into_iter().map(Spelling::required).collect()))
                }
            }
            Node::Rep(n, 0, Some(1)) => match n.spelling().exact {
                Some(mut v) if v.len() < SPELLED_OUT => {
                    v.push(String::new());
                    exact(v)
                }
                _ => inexact(Required::Any),
            },
            Node::Rep(_, 0, _) => inexact(Required::Any),
            Node::Rep(n, _, _) => inexact(n.spelling().required()),
            Node::Cat(items) => {
                let mut done = Vec::new();
                let mut run = vec![String::new()];
                for item in items {
                    let s = item.spelling();
                    match s.exact {
                        Some(next) if run.len() * next.len() <= SPELLED_OUT => {
                            run = run.iter().flat_map(|a| next.iter().map(move |b| format!("{a}{b}"))).collect();
                        }
                        Some(next) => {
                            done.push(Spelling::strings(std::mem::replace(&mut run, next)));
                        }
                        None => {
                            done.push(Spelling::strings(std::mem::replace(&mut run, vec![String::new()])));
                            done.push(s.required);
                        }
                    }
                }
                if done.is_empty() {
                    return exact(run);
                }
                done.push(Spelling::strings(run));
                inexact(Required::all(done))
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

    /// The strings of a pattern that is a literal or an alternation of literals (in
    /// groups or not), none empty and at most [`SPELLED_OUT`]: a line matches exactly when
    /// it holds one of them. `None` for any other pattern.
    pub(crate) fn alternatives(&self) -> Option<Vec<String>> {
        if !self.only_characters() {
            return None;
        }
        self.spelling().exact.filter(|v| v.iter().all(|s| !s.is_empty()))
    }

    /// Whether the node is made of characters, groups, concatenations and alternations
    /// only: no class, repetition or zero-width assertion.
    fn only_characters(&self) -> bool {
        match self {
            Node::Lit(_) => true,
            Node::Group(n) => n.only_characters(),
            Node::Cat(v) | Node::Alt(v) => v.iter().all(Node::only_characters),
            _ => false,
        }
    }
}

/// What a part of a pattern matches: every string it matches when they are few, else
/// what each of its matches holds.
struct Spelling {
    exact: Option<Vec<String>>,
    required: Required,
}

impl Spelling {
    fn strings(v: Vec<String>) -> Required {
        Required::one_of(v.into_iter().map(|s| if s.is_empty() { Required::Any } else { Required::Lit(s) }).collect())
    }

    fn required(self) -> Required {
        match self.exact {
            Some(v) => Spelling::strings(v),
            None => self.required,
        }
    }
}

/// The characters of a bracket class of a few characters, in Rust-regex syntax (`[_\-]`,
/// `[0-3]`); `None` for a negated class, a named or Perl class, or a large one.
fn small_class(class: &str) -> Option<Vec<String>> {
    let inner: Vec<char> = class.strip_prefix('[')?.strip_suffix(']')?.chars().collect();
    if inner.first() == Some(&'^') || inner.contains(&'[') {
        return None;
    }
    let mut chars: Vec<char> = Vec::new();
    let mut i = 0;
    let one = |i: &mut usize| -> Option<char> {
        let c = *inner.get(*i)?;
        *i += 1;
        if c != '\\' {
            return Some(c);
        }
        let e = *inner.get(*i)?;
        *i += 1;
        e.is_ascii_punctuation().then_some(e)
    };
    while i < inner.len() {
        let from = one(&mut i)?;
        if inner.get(i) == Some(&'-') && i + 1 < inner.len() {
            i += 1;
            let to = one(&mut i)?;
            if (to as u32).saturating_sub(from as u32) >= SPELLED_OUT as u32 || to < from {
                return None;
            }
            chars.extend(from..=to);
        } else {
            chars.push(from);
        }
        if chars.len() > SPELLED_OUT {
            return None;
        }
    }
    chars.dedup();
    (!chars.is_empty()).then(|| chars.into_iter().map(String::from).collect())
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
    fn small_parts_are_spelled_out() {
        let spelled = |p: &str, d| parse(&to_re2(p, d).unwrap().unwrap()).unwrap().spelled_out();
        let one_of = |v: &[&str]| Required::OneOf(v.iter().map(|s| lit(s)).collect());
        assert_eq!(spelled("api[_-]key", Dialect::Extended), one_of(&["api_key", "api-key"]));
        assert_eq!(spelled("colou?r", Dialect::Extended), one_of(&["colour", "color"]));
        assert_eq!(spelled("(get|set)Token", Dialect::Extended), one_of(&["getToken", "setToken"]));
        assert_eq!(spelled("v[0-3]\\.x", Dialect::Extended), one_of(&["v0.x", "v1.x", "v2.x", "v3.x"]));
        assert_eq!(spelled("foo.*bar", Dialect::Basic), Required::All(vec![lit("foo"), lit("bar")]));
        assert_eq!(spelled("[a-z]+_id", Dialect::Extended), lit("_id"), "a large class is not spelled out");
        assert_eq!(spelled("x[^y]z", Dialect::Extended), Required::All(vec![lit("x"), lit("z")]));
        assert_eq!(spelled("a?", Dialect::Extended), Required::Any);
        for (p, line) in [("api[_-]key", "the api-key"), ("colou?r", "a color"), ("v[0-3]\\.x", "v2.x")] {
            assert!(spelled(p, Dialect::Extended).holds(line), "{p} on {line:?}");
        }
    }

    #[test]
    fn requirements_hold_on_lines() {
        let r = req("foo.*bar", Dialect::Basic);
        assert!(r.holds("a foo and a bar"));
        assert!(!r.holds("a foo"));
    }
}
