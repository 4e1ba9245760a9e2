//! `find` answered from the listing, exactly as just-bash's `find` prints it.
//!
//! just-bash's `find` visits each directory with one `readdirWithFileTypes` and prints
//! in pre-order, children in the directory's order; the listing has all of that. The
//! modelled expressions are tests joined by `-a`/`-and` (or nothing), `-o`/`-or` and
//! `!`/`-not`: `-name`, `-iname`, `-path`, `-ipath`, `-type f|d`,
//! with `-maxdepth`, `-mindepth` and a final `-print`. just-bash's shortcuts are kept
//! where they change answers (`-name '*.ext'` compares the ending only, `-path` first
//! requires the pattern's literal directories as `/dir/` in the path). Anything else —
//! parentheses, actions, `-depth`, `-prune`, sizes and times — goes to just-bash.

use super::{Place, Printed};
use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::Node;

#[derive(Debug)]
enum Expr {
    Name(Glob, Option<String>),
    Path(Glob, String, bool),
    Type(char),
    Const(bool),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

fn no(what: &str) -> Unsupported {
    Unsupported::new(format!("{what}: left to just-bash"))
}

/// `*.ext` (ASCII letters and digits): just-bash compares the ending only.
fn extension(pattern: &str) -> Option<String> {
    let ext = pattern.strip_prefix('*')?;
    (ext.len() > 1 && ext.starts_with('.') && ext[1..].bytes().all(|b| b.is_ascii_alphanumeric()))
        .then(|| ext.to_string())
}

enum Tok {
    Expr(Expr),
    And,
    Or,
    Not,
    Print,
}

/// The expression's words as just-bash's parser reads them; depth options take no place
/// in the expression (`-o -maxdepth 1` is an error there).
#[derive(Default)]
struct Words {
    toks: Vec<Tok>,
    max_depth: Option<usize>,
    min_depth: Option<usize>,
}

fn tokenize(args: &[String]) -> Result<Words, Unsupported> {
    let mut w = Words::default();
    let mut i = 0;
    let value = |i: usize| args.get(i + 1).map(String::as_str).ok_or_else(|| no("a test without its value"));
    while i < args.len() {
        let a = args[i].as_str();
        let tok = match a {
            "-name" | "-iname" => {
                let p = value(i)?;
                i += 1;
                Tok::Expr(Expr::Name(Glob::just_bash(p, a == "-iname", false)?, extension(p)))
            }
            "-path" | "-ipath" => {
                let p = value(i)?;
                i += 1;
                Tok::Expr(Expr::Path(Glob::just_bash(p, a == "-ipath", false)?, p.to_string(), a == "-ipath"))
            }
            "-type" => {
                i += 1;
                match value(i - 1)? {
                    "f" => Tok::Expr(Expr::Type('f')),
                    "d" => Tok::Expr(Expr::Type('d')),
                    _ => return Err(no("this -type")),
                }
            }
            "-maxdepth" | "-mindepth" => {
                let v = value(i)?;
                i += 2;
                if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(no("an unusual depth"));
                }
                let d = v.parse().map_err(|_| no("an unusual depth"))?;
                if a == "-maxdepth" {
                    w.max_depth = Some(d)
                } else {
                    w.min_depth = Some(d)
                }
                continue;
            }
            "-a" | "-and" => Tok::And,
            "-o" | "-or" => Tok::Or,
            "!" | "-not" => Tok::Not,
            "-print" => Tok::Print,
            _ => return Err(no(&format!("find {a}"))),
        };
        w.toks.push(tok);
        i += 1;
    }
    // A final -print prints what the rest selects; anywhere else it is left to just-bash.
    if matches!(w.toks.last(), Some(Tok::Print)) && !w.toks.iter().any(|t| matches!(t, Tok::Or)) {
        w.toks.pop();
        if matches!(w.toks.last(), Some(Tok::And)) {
            w.toks.pop();
        }
    }
    if w.toks.iter().any(|t| matches!(t, Tok::Print)) {
        return Err(no("-print inside an expression"));
    }
    Ok(w)
}

/// just-bash's expression grammar: `-o` below implicit or explicit `-a`, below `!`.
struct Tree {
    toks: std::iter::Peekable<std::vec::IntoIter<Tok>>,
}

impl Tree {
    fn or(&mut self) -> Result<Option<Expr>, Unsupported> {
        let Some(mut left) = self.and()? else { return Ok(None) };
        while matches!(self.toks.peek(), Some(Tok::Or)) {
            self.toks.next();
            let right = self.and()?.ok_or_else(|| no("an expression that ends after -o"))?;
            left = Expr::Or(vec![left, right]);
        }
        Ok(Some(left))
    }

    fn and(&mut self) -> Result<Option<Expr>, Unsupported> {
        let Some(mut left) = self.not()? else { return Ok(None) };
        loop {
            match self.toks.peek() {
                Some(Tok::And) => {
                    self.toks.next();
                    let right = self.not()?.ok_or_else(|| no("an expression that ends after -a"))?;
                    left = Expr::And(vec![left, right]);
                }
                Some(Tok::Expr(_) | Tok::Not) => match self.not()? {
                    Some(right) => left = Expr::And(vec![left, right]),
                    None => return Ok(Some(left)),
                },
                _ => return Ok(Some(left)),
            }
        }
    }

    fn not(&mut self) -> Result<Option<Expr>, Unsupported> {
        if matches!(self.toks.peek(), Some(Tok::Not)) {
            self.toks.next();
            let inner = self.not()?.ok_or_else(|| no("an expression that ends after !"))?;
            return Ok(Some(Expr::Not(Box::new(inner))));
        }
        Ok(match self.toks.peek() {
            Some(Tok::Expr(_)) => match self.toks.next() {
                Some(Tok::Expr(e)) => Some(e),
                _ => None,
            },
            _ => None,
        })
    }
}

/// What a node is, as the tests see it.
struct Seen<'a> {
    name: &'a str,
    relative: &'a str,
    is_dir: bool,
}

impl Expr {
    fn eval(&self, s: &Seen) -> Option<bool> {
        Some(match self {
            Expr::Name(g, ext) => match ext {
                Some(ext) if g.ignore_case() => {
                    if !s.name.is_ascii() {
                        return None;
                    }
                    s.name.to_ascii_lowercase().ends_with(&ext.to_ascii_lowercase())
                }
                Some(ext) => s.name.ends_with(ext.as_str()),
                None => g.matches(s.name)?,
            },
            Expr::Path(g, pattern, ignore_case) => path_matches(g, pattern, *ignore_case, s.relative)?,
            Expr::Type(t) => (*t == 'd') == s.is_dir,
            Expr::Const(b) => *b,
            Expr::Not(e) => !e.eval(s)?,
            Expr::And(v) => {
                for e in v {
                    if !e.eval(s)? {
                        return Some(false);
                    }
                }
                true
            }
            Expr::Or(v) => {
                for e in v {
                    if e.eval(s)? {
                        return Some(true);
                    }
                }
                false
            }
        })
    }
}

/// just-bash's `-path`: literal directories of the pattern must appear as `/dir/`, a
/// `*.ext` ending must end the path, then the glob decides.
fn path_matches(g: &Glob, pattern: &str, ignore_case: bool, relative: &str) -> Option<bool> {
    if ignore_case && !relative.is_ascii() {
        return None;
    }
    let fold = |s: &str| if ignore_case { s.to_ascii_lowercase() } else { s.to_string() };
    let rel = fold(relative);
    let segments: Vec<&str> = pattern.split('/').collect();
    for seg in &segments[..segments.len() - 1] {
        if !seg.is_empty()
            && *seg != "."
            && *seg != ".."
            && !seg.contains(['*', '?', '['])
            && !rel.contains(&fold(&format!("/{seg}/")))
        {
            return Some(false);
        }
    }
    if let Some(at) = pattern.rfind("*.") {
        let ext = &pattern[at + 1..];
        if ext.len() > 1 && ext[1..].bytes().all(|b| b.is_ascii_alphanumeric()) && !rel.ends_with(&fold(ext)) {
            return Some(false);
        }
    }
    g.matches(relative)
}

/// `find` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn find(args: &[String], place: Place) -> Result<Printed, Unsupported> {
    let start = args
        .iter()
        .position(|a| a.starts_with('-') || matches!(a.as_str(), "(" | "\\(" | ")" | "\\)" | "!"))
        .unwrap_or(args.len());
    let mut roots: Vec<&str> = args[..start].iter().map(String::as_str).collect();
    if roots.is_empty() {
        roots.push(".");
    }
    let w = tokenize(&args[start..])?;
    let mut tree = Tree { toks: w.toks.into_iter().peekable() };
    let expr = tree.or()?.unwrap_or(Expr::Const(true));
    if tree.toks.next().is_some() {
        return Err(no("this find expression"));
    }
    let mut out = Printed::default();
    for root in roots {
        let shown = if root.len() > 1 && root.ends_with('/') { &root[..root.len() - 1] } else { root };
        let full = path::resolve(place.cwd, shown);
        place.check(&full)?;
        if place.listing.get(&full).is_none() {
            out.fail(1, format!("find: {shown}: No such file or directory\n"));
            continue;
        }
        let name = match shown.rsplit('/').next() {
            Some("") | None => shown,
            Some(n) => n,
        };
        let walk = Walk {
            expr: &expr,
            max: w.max_depth.unwrap_or(usize::MAX),
            min: w.min_depth.unwrap_or(0),
            place,
            base: &full,
            root: shown,
        };
        walk.visit(&full, name, 0, &mut out)?;
    }
    Ok(out)
}

struct Walk<'a> {
    expr: &'a Expr,
    max: usize,
    min: usize,
    place: Place<'a>,
    /// The starting point, normalised and as given.
    base: &'a str,
    root: &'a str,
}

impl Walk<'_> {
    /// How just-bash spells a path below the starting point: the starting point as given
    /// plus the rest of the path (`..` + `/a` below `/` is `...a`), or `./` + the rest.
    fn relative(&self, full: &str) -> String {
        if full == self.base {
            self.root.to_string()
        } else if self.root == "." {
            format!("./{}", &full[if self.base == "/" { 1 } else { self.base.len() + 1 }..])
        } else {
            format!("{}{}", self.root, &full[self.base.len()..])
        }
    }

    fn visit(&self, full: &str, name: &str, depth: usize, out: &mut Printed) -> Result<(), Unsupported> {
        if depth > self.max {
            return Ok(());
        }
        let relative = &self.relative(full);
        let node = self.place.listing.get(full).ok_or_else(|| no("a path that went away"))?;
        let is_dir = matches!(node, Node::Dir(_));
        if depth >= self.min {
            let seen = Seen { name, relative, is_dir };
            if self.expr.eval(&seen).ok_or_else(|| no("case folding beyond ASCII"))? {
                out.stdout.push_str(relative);
                out.stdout.push('\n');
            }
        }
        let Node::Dir(d) = node else { return Ok(()) };
        if depth >= self.max {
            return Ok(());
        }
        self.place.check_dir(full)?;
        for (child, _) in &d.children {
            let child_full = if full == "/" { format!("/{child}") } else { format!("{full}/{child}") };
            self.visit(&child_full, child, depth + 1, out)?;
        }
        Ok(())
    }
}
