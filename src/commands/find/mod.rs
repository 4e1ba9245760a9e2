//! `find` answered from the listing, as GNU findutils 4.9 `find` prints it over a
//! directory listed in byte order.
//!
//! A walk from each starting point, as typed (`guide/` stays `guide/`, what is below it is
//! `guide/a.md`), in pre-order, each directory's entries in byte order, dotfiles
//! included. Modelled: the tests `-name`, `-iname`, `-path`, `-ipath`, `-wholename`,
//! `-iwholename` (POSIX globs: `*` matches `/` too), `-type f|d`, `-empty`, `-size`,
//! `-true`, `-false`; the operators `!`/`-not`, `-a`/`-and` (or nothing), `-o`/`-or` and
//! parentheses; `-newer`, `-mtime`, `-mmin`, `-links`, `-inum`, `-executable`,
//! `-readable`, `-writable` (false: a read-only filesystem), `-fstype` (`chromafs`);
//! the access, change and birth times and the owners ([`stamps`]: a collection records
//! one time, the modification time, and every entry is `user`'s, id 1000); `-regex`,
//! `-iregex` and `-regextype` ([`regex`]); the actions `-print`, `-print0`, `-printf`
//! and `-ls` (see [`printf`]), `-prune` and `-quit` (without one, `-print` for what the
//! whole expression selects); `-maxdepth`, `-mindepth` and `-depth` anywhere, and the
//! options that change nothing without symbolic links or mount points. Writes fail as on
//! a read-only filesystem: `-delete` says it cannot delete each entry, `-fprint FILE` and
//! `-fls FILE` cannot open their file (except `/dev/null`); `-context` is refused as on a
//! system without SELinux. `-exec`, `-ok` and `-perm` go to just-bash.

mod leading;
mod printf;
mod regex;
mod stamps;
mod values;

#[cfg(test)]
mod tests;

use crate::base::texts;
use leading::leading;
use values::{date_ms, size};

use super::meta::Meta;
use super::walk::{visit, Entry, Flow, Policy, Visitor};
use super::{Place, Printed, Stop};
use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::Node;

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
    Printf(Vec<printf::Piece>),
    /// `-newer`: modified after this time (ms).
    Newer(f64),
    /// `-mtime`/`-mmin`: the age in whole units of this many ms from a time (now, or the
    /// end of today), compared.
    Age(std::cmp::Ordering, u64, f64, f64),
    /// `-inum`: the inode number compared.
    Inum(std::cmp::Ordering, u64),
    /// `-regex`, `-iregex`: the whole path as printed.
    Regex(regex::Regex),
    /// `-ls`.
    Ls,
    Links(std::cmp::Ordering, u64),
    /// `-samefile`: the entry at this full path (there are no hard links).
    Same(String),
    /// `-executable`: directories only, here.
    Executable,
    Prune,
    Quit,
    Delete,
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
    /// `-depth` or `-delete`: a directory after its entries.
    depth_first: bool,
    /// `-daystart`: ages from the end of today rather than now, for the tests after it.
    day_start: bool,
    /// `-regextype`: the syntax of the `-regex` tests after it.
    syntax: regex::Syntax,
}

/// `-fprint FILE` and its kin: `/dev/null` takes the output; any other file cannot be
/// opened on a read-only filesystem, as GNU find says before it walks anything.
fn output_file(file: &str, place: Place) -> Result<Option<Stop>, Unsupported> {
    if file == crate::fs::DEV_NULL {
        return Ok(None);
    }
    let full = path::resolve(place.cwd, file);
    place.check(&full)?;
    let why = match (place.listing.get(&full), place.listing.get(path::parent(&full))) {
        (Some(Node::Dir(_)), _) => return Err(no("an output file that is a directory")),
        (_, Some(Node::Dir(_))) => "Read-only file system",
        (_, Some(Node::File(_))) => "Not a directory",
        (_, None) => "No such file or directory",
    };
    let stderr = format!("find: ‘{file}’: {why}\n");
    Ok(Some(Stop::Usage(Printed { stdout: String::new(), stderr, exit_code: 1, ..Default::default() })))
}

/// GNU find's error before the walk: `find: WHY`, status 1.
fn usage(why: String) -> Stop {
    Stop::Usage(Printed { stdout: String::new(), stderr: format!("find: {why}\n"), exit_code: 1, ..Default::default() })
}

/// The rest of GNU find's predicates, left to just-bash (any other word is unknown to it).
const GNU_PREDICATES: &[&str] = &["-exec", "-execdir", "-ok", "-okdir", "-perm", "-help"];

fn tokenize(args: &[String], place: Place, now_ms: f64) -> Result<Words, Stop> {
    let mut w = Words::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i).map(String::as_str).ok_or_else(|| usage(format!("missing argument to `{a}'")))
        };
        let glob = |p: &str, ci: bool| Glob::fnmatch(p, ci).map_err(Unsupported::from);
        let tok = match a {
            "-name" | "-iname" => {
                let p = value()?;
                if p.contains('/') {
                    return Err(no("-name with a '/'").into());
                }
                Tok::Expr(Expr::Name(glob(p, a == "-iname")?))
            }
            "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                let p = value()?;
                Tok::Expr(Expr::Path(glob(p, a.starts_with("-i"))?))
            }
            "-type" | "-xtype" => Tok::Expr(file_types(a, value()?).map_err(usage)?),
            "-empty" => Tok::Expr(Expr::Empty),
            "-size" => Tok::Expr(size(value()?)?),
            "-true" => Tok::Expr(Expr::Const(true)),
            "-false" => Tok::Expr(Expr::Const(false)),
            "-print" => Tok::Expr(Expr::Print('\n')),
            "-print0" => Tok::Expr(Expr::Print('\0')),
            "-printf" => Tok::Expr(Expr::Printf(printf::parse(value()?)?)),
            "-fprint" | "-fprint0" | "-fls" => match output_file(value()?, place)? {
                Some(stop) => return Err(stop),
                None => Tok::Expr(Expr::Printf(Vec::new())),
            },
            "-fprintf" => {
                let file = value()?;
                printf::parse(value()?)?;
                match output_file(file, place)? {
                    Some(stop) => return Err(stop),
                    None => Tok::Expr(Expr::Printf(Vec::new())),
                }
            }
            "-newer" | "-anewer" | "-cnewer" => Tok::Expr(Expr::Newer(stamps::time_of(value()?, place)?)),
            _ if a.len() == 8 && a.starts_with("-newer") => {
                let date = stamps::newer_xy(a)?;
                let v = value()?;
                Tok::Expr(Expr::Newer(if date {
                    date_ms(v).ok_or_else(|| no("a -newerXt date beyond YYYY-MM-DD [HH:MM[:SS]]"))?
                } else {
                    stamps::time_of(v, place)?
                }))
            }
            "-mtime" | "-mmin" | "-atime" | "-amin" | "-ctime" | "-cmin" => {
                let origin = if w.day_start { stamps::day_start(now_ms) } else { now_ms };
                Tok::Expr(stamps::age(a, value()?, origin)?)
            }
            // A positional option, not a test: the expression has no word for it.
            "-daystart" => {
                w.day_start = true;
                i += 1;
                continue;
            }
            "-used" => stamps::used(value()?)?,
            "-user" | "-group" => stamps::owner(a, value()?)?,
            "-uid" | "-gid" => stamps::id(a, value()?)?,
            "-nouser" | "-nogroup" | "-writable" => Tok::Expr(Expr::Const(false)),
            // GNU find prints its version where it reads the option, and stops.
            "-version" | "--version" => {
                return Err(Stop::Usage(Printed { stdout: texts::get(leading::VERSION), ..Default::default() }))
            }
            // The docs have no security contexts, as a system without SELinux has none.
            "-context" => return Err(usage("invalid predicate -context: SELinux is not enabled.".into())),
            "-fstype" => Tok::Expr(Expr::Const(value()? == "chromafs")),
            "-inum" => {
                let (order, n) = stamps::number(a, value()?)?;
                Tok::Expr(Expr::Inum(order, n))
            }
            "-links" => {
                let (order, n) = stamps::number(a, value()?)?;
                Tok::Expr(Expr::Links(order, n))
            }
            "-ls" => Tok::Expr(Expr::Ls),
            "-regextype" => {
                w.syntax = regex::syntax(value()?).map_err(usage)?;
                Tok::Expr(Expr::Const(true))
            }
            "-regex" | "-iregex" => Tok::Expr(Expr::Regex(regex::compile(value()?, w.syntax, a == "-iregex")?)),
            "-executable" => Tok::Expr(Expr::Executable),
            // No symbolic links among the docs.
            "-lname" | "-ilname" => {
                value()?;
                Tok::Expr(Expr::Const(false))
            }
            "-samefile" => {
                let file = value()?;
                let full = path::resolve(place.cwd, file);
                place.check(&full)?;
                if place.listing.get(&full).is_none() {
                    return Err(usage(format!("‘{file}’: No such file or directory")));
                }
                Tok::Expr(Expr::Same(full))
            }
            "-readable" => Tok::Expr(Expr::Const(true)),
            "-prune" => Tok::Expr(Expr::Prune),
            "-quit" => Tok::Expr(Expr::Quit),
            "-delete" => {
                w.depth_first = true;
                Tok::Expr(Expr::Delete)
            }
            "-depth" | "-d" => {
                w.depth_first = true;
                Tok::Expr(Expr::Const(true))
            }
            // Nothing to follow, no other filesystem, no race with a writer.
            "-xdev"
            | "-mount"
            | "-noleaf"
            | "-ignore_readdir_race"
            | "-noignore_readdir_race"
            | "-follow"
            | "-nowarn"
            | "-warn" => Tok::Expr(Expr::Const(true)),
            "-maxdepth" | "-mindepth" => {
                let v = value()?;
                if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(usage(format!("Expected a positive decimal integer argument to {a}, but got ‘{v}’")));
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
            _ if a.starts_with('-') && !GNU_PREDICATES.contains(&a) => {
                return Err(usage(format!("unknown predicate `{a}'")))
            }
            _ => return Err(no(&format!("find {a}")).into()),
        };
        w.toks.push(tok);
        i += 1;
    }
    Ok(w)
}

/// `-type LIST` (or `-xtype`): `f`, `d`, or several joined by commas, as findutils reads
/// them. The docs hold no symbolic links, sockets, pipes or devices.
fn file_types(option: &str, list: &str) -> Result<Expr, String> {
    if list.is_empty() {
        return Err(format!("Arguments to {option} should contain at least one letter"));
    }
    let (mut file, mut dir) = (false, false);
    let mut seen = Vec::new();
    let mut chars = list.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'f' | 'd' | 'l' | 's' | 'p' | 'b' | 'c' => {}
            'D' => {
                return Err(format!(
                    "{option} D is not supported because Solaris doors are not supported on the platform find was compiled on."
                ))
            }
            _ => return Err(format!("Unknown argument to {option}: {c}")),
        }
        if seen.contains(&c) {
            return Err(format!("Duplicate file type '{c}' in the argument list to {option}."));
        }
        seen.push(c);
        file |= c == 'f';
        dir |= c == 'd';
        match chars.next() {
            None => break,
            Some(',') if chars.peek().is_none() => {
                return Err(format!(
                    "Last file type in list argument to {option} is missing, i.e., list is ending on: ','"
                ))
            }
            Some(',') => {}
            Some(_) => return Err(format!("Must separate multiple arguments to {option} using: ','")),
        }
    }
    Ok(match (file, dir) {
        (true, true) => Expr::Const(true),
        (false, false) => Expr::Const(false),
        (_, dir) => Expr::Type(dir),
    })
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
            // `-prune` and `-quit` are not actions: the line still prints what it matches.
            Expr::Print(_) | Expr::Printf(_) | Expr::Ls | Expr::Delete => true,
            Expr::Not(e) => e.has_action(),
            Expr::And(a, b) | Expr::Or(a, b) => a.has_action() || b.has_action(),
            _ => false,
        }
    }
}

/// An entry of the walk, as the tests see it.
struct Seen<'a> {
    full: &'a str,
    shown: &'a str,
    name: &'a str,
    node: &'a Node,
    /// The starting point as typed, and the depth below it.
    start: &'a str,
    depth: usize,
}

impl Seen<'_> {
    /// What `-printf` and `-ls` print from.
    fn entry(&self) -> printf::Entry<'_> {
        let (node, dir) = (self.node, matches!(self.node, Node::Dir(_)));
        let meta = Meta::of(node);
        printf::Entry { shown: self.shown, start: self.start, depth: self.depth, meta, dir, ino: node.ino() }
    }
}

/// What evaluating the expression does besides deciding: output, messages, and the
/// walk's orders (`-prune`, `-quit`).
struct Cx {
    out: Printed,
    now_ms: f64,
    prune: bool,
    quit: bool,
}

impl Expr {
    /// Evaluates the expression on an entry, printing what its actions print; `None`
    /// when a test cannot be decided exactly (a name beyond ASCII under `-iname`, a size
    /// the tree does not record).
    fn eval(&self, s: &Seen, cx: &mut Cx) -> Option<bool> {
        let meta = || Meta::of(s.node);
        Some(match self {
            Expr::Name(g) => g.matches(s.name)?,
            Expr::Path(g) => g.matches(s.shown)?,
            Expr::Type(dir) => *dir == matches!(s.node, Node::Dir(_)),
            Expr::Empty => match s.node {
                Node::Dir(d) => d.children.is_empty(),
                Node::File(f) => f.size? == 0,
            },
            // A directory's size is the one a tmpfs copy has (see `meta`).
            Expr::Size(order, n, unit) => meta()?.size.div_ceil(*unit).cmp(n) == *order,
            Expr::Const(b) => *b,
            Expr::Print(end) => {
                cx.out.stdout.push_str(s.shown);
                cx.out.stdout.push(*end);
                true
            }
            Expr::Printf(pieces) => {
                printf::print(pieces, &s.entry(), &mut cx.out.stdout)?;
                true
            }
            Expr::Ls => {
                printf::ls(&s.entry(), cx.now_ms, &mut cx.out.stdout)?;
                true
            }
            Expr::Inum(order, n) => s.node.ino().cmp(n) == *order,
            Expr::Regex(re) => re.matches(s.shown)?,
            Expr::Newer(t) => meta()?.mtime_ms > *t,
            Expr::Age(order, n, unit, origin) => {
                (((origin - meta()?.mtime_ms) / unit).floor().max(0.0) as u64).cmp(n) == *order
            }
            Expr::Links(order, n) => meta()?.links.cmp(n) == *order,
            Expr::Executable => matches!(s.node, Node::Dir(_)),
            Expr::Same(full) => s.full == full,
            Expr::Prune => {
                cx.prune = true;
                true
            }
            Expr::Quit => {
                cx.quit = true;
                true
            }
            Expr::Delete => {
                if s.shown == "." {
                    return Some(true);
                }
                cx.out.fail(1, format!("find: cannot delete ‘{}’: Read-only file system\n", s.shown));
                false
            }
            Expr::Not(e) => !e.eval(s, cx)?,
            Expr::And(a, b) => a.eval(s, cx)? && !cx.quit && b.eval(s, cx)?,
            Expr::Or(a, b) => a.eval(s, cx)? || (!cx.quit && b.eval(s, cx)?),
        })
    }
}

/// `find` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn find(args: &[String], place: Place, now_ms: f64) -> Result<Printed, Unsupported> {
    let lead = match leading(args) {
        Ok(lead) => lead,
        Err(stop) => return stop.answer(),
    };
    if lead.help {
        return Ok(Printed { stdout: leading::HELP.into(), stderr: lead.warnings, exit_code: 0, ..Default::default() });
    }
    let args = &args[lead.words..];
    let start = args
        .iter()
        .position(|a| (a.starts_with('-') && a.len() > 1) || matches!(a.as_str(), "(" | ")" | "!"))
        .unwrap_or(args.len());
    let mut roots: Vec<&str> = args[..start].iter().map(String::as_str).collect();
    if roots.is_empty() {
        roots.push(".");
    }
    let w = match tokenize(&args[start..], place, now_ms) {
        Ok(w) => w,
        // The -D warnings come first, as GNU find prints them while it reads its options.
        Err(Stop::Usage(p)) => return Ok(Printed { stderr: format!("{}{}", lead.warnings, p.stderr), ..p }),
        Err(stop) => return stop.answer(),
    };
    let mut parser = Parser { toks: w.toks.into_iter().peekable() };
    let mut expr = if parser.toks.peek().is_none() { Expr::Const(true) } else { parser.or()? };
    if parser.toks.next().is_some() {
        return Err(no("this find expression"));
    }
    if !expr.has_action() {
        expr = Expr::And(Box::new(expr), Box::new(Expr::Print('\n')));
    }
    let out = Printed { stderr: lead.warnings, ..Printed::default() };
    let mut cx = Cx { out, now_ms, prune: false, quit: false };
    for root in roots {
        if root.is_empty() {
            return Err(no("an empty starting point"));
        }
        let full = path::resolve(place.cwd, root);
        place.check(&full)?;
        let Some(node) = place.listing.get(&full) else {
            cx.out.fail(1, format!("find: ‘{root}’: No such file or directory\n"));
            continue;
        };
        if matches!(node, Node::File(_)) && path::names_dir(root) {
            cx.out.fail(1, format!("find: ‘{root}’: Not a directory\n"));
            continue;
        }
        // The name a test sees: the last one, trailing slashes aside (`/` for `/`).
        let trimmed = root.trim_end_matches('/');
        let name = if trimmed.is_empty() { "/" } else { trimmed.rsplit('/').next().unwrap_or(trimmed) };
        let mut visitor = Eval {
            expr: &expr,
            min: w.min_depth.unwrap_or(0),
            depth_first: w.depth_first,
            place,
            start: root,
            cx: &mut cx,
        };
        let start = Entry { full: &full, shown: root, name, depth: 0, dir: matches!(node, Node::Dir(_)) };
        visit(place.into(), Policy::fts(w.max_depth.unwrap_or(usize::MAX)), &start, &mut visitor)?;
        if cx.quit {
            break;
        }
    }
    Ok(cx.out)
}

/// find's visitor: evaluates the expression on each entry of the walk, before a
/// directory's entries (or after them, with `-depth`).
struct Eval<'a, 'c> {
    expr: &'a Expr,
    min: usize,
    depth_first: bool,
    place: Place<'a>,
    start: &'a str,
    cx: &'c mut Cx,
}

impl Eval<'_, '_> {
    /// Evaluates the expression on an entry: whether the walk may go below it.
    fn check(&mut self, e: &Entry) -> Result<Flow, Unsupported> {
        let node = self.place.listing.get(e.full).ok_or_else(|| no("a path that went away"))?;
        self.cx.prune = false;
        if e.depth >= self.min {
            let seen = Seen { full: e.full, shown: e.shown, name: e.name, node, start: self.start, depth: e.depth };
            self.expr.eval(&seen, self.cx).ok_or_else(|| no("a test this page cannot answer exactly"))?;
        }
        Ok(if self.cx.quit {
            Flow::Quit
        } else if self.cx.prune && !self.depth_first {
            Flow::Prune
        } else {
            Flow::Go
        })
    }
}

impl Visitor for Eval<'_, '_> {
    type Stop = Unsupported;

    fn enter(&mut self, e: &Entry) -> Result<Flow, Unsupported> {
        let flow = if self.depth_first { Flow::Go } else { self.check(e)? };
        if e.dir && flow == Flow::Go {
            self.place.check_dir(e.full)?;
        }
        Ok(flow)
    }

    fn leave(&mut self, e: &Entry) -> Result<Flow, Unsupported> {
        if self.depth_first {
            self.check(e)
        } else {
            Ok(Flow::Go)
        }
    }
}
