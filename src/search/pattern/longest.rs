//! Whether a leftmost-first engine finds GNU grep's matches.
//!
//! GNU grep's `-o` prints, at the leftmost place a match starts, the longest match there
//! (POSIX); regex-lite, like Perl and ripgrep, the first its alternatives and greedy
//! repetitions reach. The two agree for patterns whose every choice is forced or ends
//! longest: [`agrees`] accepts those it can prove so — a greedy repetition of something
//! of fixed length that is followed by nothing but fixed-length pieces, or by a piece
//! that cannot start as a further repetition would; alternatives of one length, or
//! literals none of which begins another — and refuses the rest.

use super::syntax::Node;

/// Every match of `n` has this many characters.
fn fixed(n: &Node) -> Option<usize> {
    match n {
        Node::Lit(_) | Node::Class(_) | Node::Any => Some(1),
        Node::Start | Node::End | Node::Empty => Some(0),
        Node::Group(g) => fixed(g),
        Node::Cat(v) => v.iter().map(fixed).sum(),
        Node::Alt(v) => {
            let lens: Vec<Option<usize>> = v.iter().map(fixed).collect();
            lens.first().copied().flatten().filter(|first| lens.iter().all(|l| *l == Some(*first)))
        }
        Node::Rep(inner, min, max) if Some(*min) == *max => fixed(inner).map(|l| l * *min as usize),
        Node::Rep(inner, ..) => fixed(inner).filter(|&l| l == 0),
    }
}

/// The literal text of `n`, when it is one.
fn literal(n: &Node) -> Option<String> {
    match n {
        Node::Lit(c) => Some(c.to_string()),
        Node::Group(g) => literal(g),
        Node::Cat(v) => v.iter().map(literal).collect(),
        _ => None,
    }
}

/// Whether a character may start a match of `n` (`None`: cannot tell).
fn may_start(n: &Node, c: char, ignore_case: bool) -> Option<bool> {
    match n {
        Node::Lit(l) => Some(*l == c || ignore_case && l.eq_ignore_ascii_case(&c)),
        Node::Class(class) => {
            let re = regex_lite::Regex::new(&format!("^(?:{}{class})$", if ignore_case { "(?i)" } else { "" })).ok()?;
            Some(re.is_match(&c.to_string()))
        }
        Node::Any => Some(true),
        Node::Group(g) => may_start(g, c, ignore_case),
        Node::Alt(v) => v.iter().try_fold(false, |any, b| Some(any || may_start(b, c, ignore_case)?)),
        Node::Cat(v) => starts_in(v, c, ignore_case),
        Node::Rep(inner, ..) => may_start(inner, c, ignore_case),
        Node::Start | Node::End | Node::Empty => Some(false),
    }
}

/// Whether a character may start a match of the pieces `v` in turn (skipping those that
/// may match nothing).
fn starts_in(v: &[Node], c: char, ignore_case: bool) -> Option<bool> {
    for n in v {
        if may_start(n, c, ignore_case)? {
            return Some(true);
        }
        if !empty_ok(n) {
            return Some(false);
        }
    }
    Some(false)
}

fn empty_ok(n: &Node) -> bool {
    match n {
        Node::Lit(_) | Node::Class(_) | Node::Any => false,
        Node::Start | Node::End | Node::Empty => true,
        Node::Group(g) => empty_ok(g),
        Node::Cat(v) => v.iter().all(empty_ok),
        Node::Alt(v) => v.iter().any(empty_ok),
        Node::Rep(inner, min, _) => *min == 0 || empty_ok(inner),
    }
}

/// The first character of every match of `n` when they all start with one literal
/// character (`None` otherwise).
fn first_char(n: &Node) -> Option<char> {
    match n {
        Node::Lit(c) => Some(*c),
        Node::Group(g) => first_char(g),
        Node::Cat(v) => v.first().and_then(first_char),
        _ => None,
    }
}

/// Whether leftmost-first matching of `n` finds the longest match at each start.
pub(crate) fn agrees(n: &Node, ignore_case: bool) -> bool {
    match n {
        Node::Lit(_) | Node::Class(_) | Node::Any | Node::Start | Node::End | Node::Empty => true,
        Node::Group(g) => agrees(g, ignore_case),
        Node::Alt(v) => {
            if !v.iter().all(|b| agrees(b, ignore_case)) {
                return false;
            }
            if fixed(n).is_some() {
                return true;
            }
            // Literals none of which begins another: at most one matches at a place.
            let lits: Option<Vec<String>> = v.iter().map(literal).collect();
            let fold = |s: &String| if ignore_case { s.to_ascii_lowercase() } else { s.clone() };
            lits.is_some_and(|lits| {
                let lits: Vec<String> = lits.iter().map(fold).collect();
                lits.iter().enumerate().all(|(i, a)| {
                    !a.is_empty() && lits.iter().enumerate().all(|(j, b)| i == j || !b.starts_with(a.as_str()))
                })
            })
        }
        Node::Rep(inner, ..) => agrees(inner, ignore_case) && fixed(inner).is_some_and(|l| l > 0),
        Node::Cat(v) => {
            let v = flattened(v);
            v.iter().enumerate().all(|(i, piece)| {
                if !agrees(piece, ignore_case) {
                    return false;
                }
                if fixed(piece).is_some() {
                    return true;
                }
                let rest = &v[i + 1..];
                let mut piece = piece;
                while let Node::Group(g) = piece {
                    piece = g;
                }
                match piece {
                    // Alternatives none of which begins another: the choice is forced.
                    Node::Alt(_) => true,
                    // A greedy repetition takes all it can when what follows has one
                    // length, or cannot start where a further repetition would.
                    Node::Rep(inner, ..) => {
                        if rest.iter().all(|r| fixed(r).is_some()) {
                            return true;
                        }
                        match first_char(inner) {
                            Some(c) => starts_in(rest, c, ignore_case) == Some(false),
                            None => single_class(inner).is_some_and(|class| disjoint(class, rest, ignore_case)),
                        }
                    }
                    _ => false,
                }
            })
        }
    }
}

/// The pieces of a concatenation with groups of concatenations opened up (`a(?:bc*)d` is
/// `abc*d`).
fn flattened(v: &[Node]) -> Vec<Node> {
    let mut out = Vec::new();
    for n in v {
        match n {
            Node::Group(g) => match g.as_ref() {
                Node::Cat(inner) => out.extend(flattened(inner)),
                Node::Alt(_) => out.push(n.clone()),
                other => out.extend(flattened(std::slice::from_ref(other))),
            },
            Node::Cat(inner) => out.extend(flattened(inner)),
            other => out.push(other.clone()),
        }
    }
    out
}

/// A repeated piece that is one class or any character.
fn single_class(n: &Node) -> Option<&Node> {
    match n {
        Node::Class(_) | Node::Any => Some(n),
        Node::Group(g) => single_class(g),
        _ => None,
    }
}

/// Whether no character of `class` may start the pieces `rest`: tested on ASCII, and
/// only when neither side can hold characters beyond it.
fn disjoint(class: &Node, rest: &[Node], ignore_case: bool) -> bool {
    let Node::Class(text) = class else { return false };
    if text.starts_with("[^") || !text.is_ascii() || text.contains("\\x{") {
        return false;
    }
    let Some(next) = rest.iter().find(|r| !matches!(r, Node::Start | Node::End | Node::Empty)) else {
        return true;
    };
    let mut head = next;
    while let Node::Rep(inner, ..) | Node::Group(inner) = head {
        head = inner;
    }
    let follows_ascii = match head {
        Node::Class(t) => !t.starts_with("[^") && t.is_ascii() && !t.contains("\\x{"),
        Node::Lit(c) => c.is_ascii(),
        _ => false,
    };
    follows_ascii
        && (0u8..128).all(|b| {
            let c = b as char;
            !(may_start(class, c, ignore_case) == Some(true) && starts_in(rest, c, ignore_case) != Some(false))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pattern::rewrite::{to_re2, Dialect};
    use crate::search::pattern::syntax::parse;

    fn ok(p: &str) -> bool {
        agrees(&parse(&to_re2(p, Dialect::Extended).unwrap().unwrap()).unwrap(), false)
    }

    #[test]
    fn forced_and_longest_choices_agree() {
        for p in [
            "Mintlify",
            "v[0-9]+\\.[0-9]+",
            "colou?r",
            "https://[a-z.]*",
            "\\w+_key",
            "[0-9]{4}-[0-9]{2}",
            "mint|npm",
            "tok(en)?s?",
            "^## ",
            "a*b*",
            "(ab|cde)f",
            "[a-z]+[0-9]+",
        ] {
            assert!(ok(p), "{p}");
        }
    }

    #[test]
    fn choices_that_may_end_shorter_are_refused() {
        for p in ["a|ab", "a?(ab)?", "(a|ab)(c|bcd)", "x*[a-z]x+", "[a-z]+[a-z0-9]*x"] {
            assert!(!ok(p), "{p}");
        }
    }
}
