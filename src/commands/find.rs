//! `find` answered from the listing, as GNU findutils 4.9 `find` prints it over a
//! directory listed in byte order.
//!
//! A walk from each starting point, as typed (`guide/` stays `guide/`, what is below it is
//! `guide/a.md`), in pre-order, each directory's entries in byte order, dotfiles
//! included. Modelled: the tests `-name`, `-iname`, `-path`, `-ipath`, `-wholename`,
//! `-iwholename` (POSIX globs: `*` matches `/` too), `-type f|d`, `-empty`, `-size`,
//! `-true`, `-false`; the operators `!`/`-not`, `-a`/`-and` (or nothing), `-o`/`-or` and
//! parentheses; the actions `-print` and `-print0` (without one, `-print` for what the
//! whole expression selects); `-maxdepth` and `-mindepth` anywhere. Anything else —
//! times, `-newer`, `-exec`, `-delete`, `-prune`, `-L` — goes to just-bash.

use super::{Place, Printed};
use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};

#[derive(Debug)]
enum Expr {
    /// `-name` (on the last name) or `-path` (on the whole path as printed).
    Name(Glob),
    Path(Glob),
    Type(bool),
    Empty,
    /// `-size`: the comparison (`+` more, `-` less, or equal), the count, and the unit in
    /// bytes (sizes are rounded up to it).
    Size(std::cmp::Ordering, u64, u64),
    Const(bool),
    /// `-print` (`'\n'`) or `-print0` (`'\0'`).
    Print(char),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
}

fn no(what: &str) -> Unsupported {
    Unsupported::new(format!("{what}: left to just-bash"))
}

enum Tok {
    Expr(Expr),
    And,
    Or,
    Not,
    Open,
    Close,
}

/// The expression's words; `-maxdepth` and `-mindepth` are global and stand for `-true`.
#[derive(Default)]
struct Words {
    toks: Vec<Tok>,
    max_depth: Option<usize>,
    min_depth: Option<usize>,
}

fn size(v: &str) -> Result<Expr, Unsupported> {
    let (order, rest) = match v.as_bytes().first() {
        Some(b'+') => (std::cmp::Ordering::Greater, &v[1..]),
        Some(b'-') => (std::cmp::Ordering::Less, &v[1..]),
        _ => (std::cmp::Ordering::Equal, v),
    };
    let (digits, unit) = match rest.as_bytes().last() {
        Some(b'c') => (&rest[..rest.len() - 1], 1),
        Some(b'w') => (&rest[..rest.len() - 1], 2),
        Some(b'b') => (&rest[..rest.len() - 1], 512),
        Some(b'k') => (&rest[..rest.len() - 1], 1024),
        Some(b'M') => (&rest[..rest.len() - 1], 1 << 20),
        Some(b'G') => (&rest[..rest.len() - 1], 1 << 30),
        _ => (rest, 512),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(no("an unusual -size"));
    }
    Ok(Expr::Size(order, digits.parse().map_err(|_| no("an unusual -size"))?, unit))
}

fn tokenize(args: &[String]) -> Result<Words, Unsupported> {
    let mut w = Words::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i).map(String::as_str).ok_or_else(|| no("a test without its value"))
        };
        let glob = |p: &str, ci: bool| Glob::fnmatch(p, ci).map_err(Unsupported::from);
        let tok = match a {
            "-name" | "-iname" => {
                let p = value()?;
                if p.contains('/') {
                    return Err(no("-name with a '/'"));
                }
                Tok::Expr(Expr::Name(glob(p, a == "-iname")?))
            }
            "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                let p = value()?;
                Tok::Expr(Expr::Path(glob(p, a.starts_with("-i"))?))
            }
            "-type" => match value()? {
                "f" => Tok::Expr(Expr::Type(false)),
                "d" => Tok::Expr(Expr::Type(true)),
                _ => return Err(no("this -type")),
            },
            "-empty" => Tok::Expr(Expr::Empty),
            "-size" => Tok::Expr(size(value()?)?),
            "-true" => Tok::Expr(Expr::Const(true)),
            "-false" => Tok::Expr(Expr::Const(false)),
            "-print" => Tok::Expr(Expr::Print('\n')),
            "-print0" => Tok::Expr(Expr::Print('\0')),
            "-maxdepth" | "-mindepth" => {
                let v = value()?;
                if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(no("an unusual depth"));
                }
                let d = v.parse().map_err(|_| no("an unusual depth"))?;
                if a == "-maxdepth" {
                    w.max_depth = Some(d)
                } else {
                    w.min_depth = Some(d)
                }
                Tok::Expr(Expr::Const(true))
            }
            "-a" | "-and" => Tok::And,
            "-o" | "-or" => Tok::Or,
            "!" | "-not" => Tok::Not,
            "(" => Tok::Open,
            ")" => Tok::Close,
            _ => return Err(no(&format!("find {a}"))),
        };
        w.toks.push(tok);
        i += 1;
    }
    Ok(w)
}

/// GNU find's grammar: `-o` below `-a` (written or not), below `!`, with parentheses.
struct Parser {
    toks: std::iter::Peekable<std::vec::IntoIter<Tok>>,
}

impl Parser {
    fn or(&mut self) -> Result<Expr, Unsupported> {
        let mut left = self.and()?;
        while matches!(self.toks.peek(), Some(Tok::Or)) {
            self.toks.next();
            left = Expr::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, Unsupported> {
        let mut left = self.not()?;
        loop {
            match self.toks.peek() {
                Some(Tok::And) => {
                    self.toks.next();
                }
                Some(Tok::Expr(_) | Tok::Not | Tok::Open) => {}
                _ => return Ok(left),
            }
            left = Expr::And(Box::new(left), Box::new(self.not()?));
        }
    }

    fn not(&mut self) -> Result<Expr, Unsupported> {
        match self.toks.next() {
            Some(Tok::Not) => Ok(Expr::Not(Box::new(self.not()?))),
            Some(Tok::Open) => {
                let inner = self.or()?;
                match self.toks.next() {
                    Some(Tok::Close) => Ok(inner),
                    _ => Err(no("an unbalanced parenthesis")),
                }
            }
            Some(Tok::Expr(e)) => Ok(e),
            _ => Err(no("an incomplete expression")),
        }
    }
}

impl Expr {
    fn has_action(&self) -> bool {
        match self {
            Expr::Print(_) => true,
            Expr::Not(e) => e.has_action(),
            Expr::And(a, b) | Expr::Or(a, b) => a.has_action() || b.has_action(),
            _ => false,
        }
    }
}

/// An entry of the walk, as the tests see it.
struct Seen<'a> {
    shown: &'a str,
    name: &'a str,
    node: &'a Node,
}

impl Expr {
    /// Evaluates the expression on an entry, printing what its actions print; `None`
    /// when a test cannot be decided exactly (a name beyond ASCII under `-iname`, a size
    /// the tree does not record).
    fn eval(&self, s: &Seen, out: &mut String) -> Option<bool> {
        Some(match self {
            Expr::Name(g) => g.matches(s.name)?,
            Expr::Path(g) => g.matches(s.shown)?,
            Expr::Type(dir) => *dir == matches!(s.node, Node::Dir(_)),
            Expr::Empty => match s.node {
                Node::Dir(d) => d.children.is_empty(),
                Node::File(f) => f.size? == 0,
            },
            Expr::Size(order, n, unit) => match s.node {
                // A directory's size is the filesystem's: not modelled.
                Node::Dir(_) => return None,
                Node::File(f) => f.size?.div_ceil(*unit).cmp(n) == *order,
            },
            Expr::Const(b) => *b,
            Expr::Print(end) => {
                out.push_str(s.shown);
                out.push(*end);
                true
            }
            Expr::Not(e) => !e.eval(s, out)?,
            Expr::And(a, b) => a.eval(s, out)? && b.eval(s, out)?,
            Expr::Or(a, b) => a.eval(s, out)? || b.eval(s, out)?,
        })
    }
}

/// `find` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn find(args: &[String], place: Place) -> Result<Printed, Unsupported> {
    let start = args
        .iter()
        .position(|a| (a.starts_with('-') && a.len() > 1) || matches!(a.as_str(), "(" | ")" | "!"))
        .unwrap_or(args.len());
    let mut roots: Vec<&str> = args[..start].iter().map(String::as_str).collect();
    if roots.is_empty() {
        roots.push(".");
    }
    let w = tokenize(&args[start..])?;
    let mut parser = Parser { toks: w.toks.into_iter().peekable() };
    let mut expr = if parser.toks.peek().is_none() { Expr::Const(true) } else { parser.or()? };
    if parser.toks.next().is_some() {
        return Err(no("this find expression"));
    }
    if !expr.has_action() {
        expr = Expr::And(Box::new(expr), Box::new(Expr::Print('\n')));
    }
    let mut out = Printed::default();
    for root in roots {
        if root.is_empty() {
            return Err(no("an empty starting point"));
        }
        let full = path::resolve(place.cwd, root);
        place.check(&full)?;
        let Some(node) = place.listing.get(&full) else {
            out.fail(1, format!("find: ‘{root}’: No such file or directory\n"));
            continue;
        };
        // The name a test sees: the last one, trailing slashes aside (`/` for `/`).
        let trimmed = root.trim_end_matches('/');
        let name = if trimmed.is_empty() { "/" } else { trimmed.rsplit('/').next().unwrap_or(trimmed) };
        let walk = Walk { expr: &expr, max: w.max_depth.unwrap_or(usize::MAX), min: w.min_depth.unwrap_or(0), place };
        walk.visit(&full, root, name, node, 0, &mut out.stdout)?;
    }
    Ok(out)
}

struct Walk<'a> {
    expr: &'a Expr,
    max: usize,
    min: usize,
    place: Place<'a>,
}

impl Walk<'_> {
    fn visit(
        &self,
        full: &str,
        shown: &str,
        name: &str,
        node: &Node,
        depth: usize,
        out: &mut String,
    ) -> Result<(), Unsupported> {
        if depth >= self.min {
            let seen = Seen { shown, name, node };
            self.expr.eval(&seen, out).ok_or_else(|| no("a test this page cannot answer exactly"))?;
        }
        let Node::Dir(d) = node else { return Ok(()) };
        if depth >= self.max {
            return Ok(());
        }
        self.place.check_dir(full)?;
        for (child, _) in byte_ordered(&d.children).iter() {
            let child_full = if full == "/" { format!("/{child}") } else { format!("{full}/{child}") };
            let child_shown = if shown.ends_with('/') { format!("{shown}{child}") } else { format!("{shown}/{child}") };
            let child_node = self.place.listing.get(&child_full).ok_or_else(|| no("a path that went away"))?;
            self.visit(&child_full, &child_shown, child, child_node, depth + 1, out)?;
        }
        Ok(())
    }
}
