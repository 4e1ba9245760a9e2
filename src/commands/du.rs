//! `du` answered from the listing, as GNU coreutils 9 `du` prints it for a copy of the
//! files on tmpfs: disk usage is a property of a filesystem, and this is the one the
//! reference copy lives on — a file takes its size rounded up to 4 KiB blocks, a
//! directory none of its own.
//!
//! The walk is GNU du's: each operand as typed (`guide/` stays `guide/`, what is below it
//! is `guide/a.md`), each directory's entries in byte order, a directory printed when the
//! walk leaves it, a file under `-a` or when it is the operand, and what an earlier
//! operand counted not counted again. Sizes are in KiB, or with `-h` as GNU prints them
//! (`4.0K`, `40K`, rounded up). Modelled: `-a`, `-h`, `--si`, `-k`, `-m`, `-B SIZE`, `-b`,
//! `--apparent-size` (a directory's apparent size is tmpfs's, see `meta`), `--inodes`,
//! `-s`, `-S`, `-c`, `-0`, `-t SIZE`, `--exclude`, `-X FILE`/`--exclude-from` and
//! `--files0-from` (read first, see `inputs`), `--time`, `-d N`/`--max-depth N`, and
//! the options about links and mount points, which change nothing here; over files and
//! directories whose sizes the tree records.

use super::inputs::{Inputs, Named};
use super::meta::Meta;
use super::units::{block_size, human, scaled_number, BlockSize, Civil};
use super::walk::{visit, Entry, Flow, Policy, Visitor};
use super::{Place, Printed, Stop};
use crate::base::getopt::{self, Arg, Digits, Grammar, Opt};
use crate::base::glob::Glob;
use crate::base::path;
use crate::base::texts::{self, Text};
use crate::commands::Unsupported;
use crate::fs::named::{exclude_lines, Unreadable};
use crate::tree::listing::Node;
use std::fmt::Write;

/// What a number counts and how it is printed.
#[derive(Debug, Default)]
struct Flags {
    all: bool,
    /// `-h` (`Some(false)`) or `--si` (`Some(true)`).
    human: Option<bool>,
    /// Bytes a printed unit holds (1024 unless `-B`, `-m`, `-b`).
    block: Option<u64>,
    /// `-BM`: a unit named without a number is printed after each count.
    suffix: Option<String>,
    apparent: bool,
    inodes: bool,
    summarize: bool,
    separate: bool,
    total: bool,
    zero: bool,
    time: bool,
    /// `-t`: at least this many bytes, or (negative) at most.
    threshold: Option<i128>,
    exclude: Vec<Glob>,
    max_depth: Option<u64>,
    /// `-l`: what an earlier operand counted is counted again.
    count_links: bool,
    /// `-X FILE`, `--exclude-from=FILE`: files of patterns, read first (see `inputs`).
    exclude_from: Vec<String>,
    /// `--files0-from=FILE`: the operands, NUL-separated, read first.
    files0_from: Option<String>,
}

/// `message` (with its newline), then where to get help: status 1.
fn usage(message: String) -> Stop {
    Stop::Usage(Printed {
        stdout: String::new(),
        stderr: format!("{message}Try 'du --help' for more information.\n"),
        exit_code: 1,
        ..Default::default()
    })
}

fn invalid(line: String) -> Stop {
    Stop::Usage(Printed { stdout: String::new(), stderr: format!("{line}\n"), exit_code: 1, ..Default::default() })
}

/// GNU du's options, the long ones in its order (which its message for an ambiguous prefix
/// follows); a short option's key is its letter.
const OPTS: &[Opt] = &[
    getopt::long("all", Arg::No),
    getopt::long("apparent-size", Arg::No),
    getopt::long("block-size", Arg::Required),
    getopt::long("bytes", Arg::No),
    getopt::long("count-links", Arg::No),
    getopt::long("dereference", Arg::No),
    getopt::long("dereference-args", Arg::No),
    getopt::long("exclude", Arg::Required),
    getopt::long("exclude-from", Arg::Required),
    getopt::long("files0-from", Arg::Required),
    getopt::long("human-readable", Arg::No),
    getopt::long("inodes", Arg::No),
    getopt::long("si", Arg::No),
    getopt::long("max-depth", Arg::Required),
    getopt::long("null", Arg::No),
    getopt::long("no-dereference", Arg::No),
    getopt::long("one-file-system", Arg::No),
    getopt::long("separate-dirs", Arg::No),
    getopt::long("summarize", Arg::No),
    getopt::long("total", Arg::No),
    getopt::long("threshold", Arg::Required),
    getopt::long("time", Arg::Optional),
    getopt::long("time-style", Arg::Required),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
    getopt::short("0", Arg::No),
    getopt::short("a", Arg::No),
    getopt::short("b", Arg::No),
    getopt::short("B", Arg::Required),
    getopt::short("c", Arg::No),
    getopt::short("d", Arg::Required),
    getopt::short("D", Arg::No),
    getopt::short("h", Arg::No),
    getopt::short("H", Arg::No),
    getopt::short("k", Arg::No),
    getopt::short("l", Arg::No),
    getopt::short("L", Arg::No),
    getopt::short("m", Arg::No),
    getopt::short("P", Arg::No),
    getopt::short("s", Arg::No),
    getopt::short("S", Arg::No),
    getopt::short("t", Arg::Required),
    getopt::short("x", Arg::No),
    getopt::short("X", Arg::Required),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// GNU du's command line, read as `getopt_long` reads it ([`crate::base::getopt`]).
fn flags(args: &[String]) -> Result<(Flags, Vec<String>), Stop> {
    let line = getopt::parse(&GRAMMAR, args).map_err(|m| usage(m.message("du")))?;
    let mut f = Flags::default();
    for given in &line.opts {
        let value = given.value.as_deref();
        let mut letters = given.key.chars();
        match (letters.next(), letters.next(), value) {
            (Some(c), None, Some(v)) => short_value(&mut f, c, v)?,
            (Some(c), None, None) => short(&mut f, c)?,
            _ => long_option(&mut f, given.key, value)?,
        }
    }
    if f.summarize && f.all {
        return Err(usage("du: cannot both summarize and show all entries\n".into()));
    }
    if f.summarize && f.max_depth.is_some_and(|d| d > 0) {
        let d = f.max_depth.unwrap_or(0);
        return Err(usage(format!("du: warning: summarizing conflicts with --max-depth={d}\n")));
    }
    Ok((f, line.operands))
}

/// Adds the patterns of `-X` files to `--exclude`'s.
fn excluded_from(f: &mut Flags, read: &Inputs) -> Result<(), Stop> {
    for file in std::mem::take(&mut f.exclude_from) {
        let text = match read.text(&file, file == "-")? {
            Ok(text) => text,
            Err(why) => return Err(usage(format!("du: {file}: {}\n", why.words()))),
        };
        for p in exclude_lines(text) {
            f.exclude.push(Glob::fnmatch(&p, false).map_err(Unsupported::from)?);
        }
    }
    Ok(())
}

/// `--files0-from`'s names, NUL-separated; an empty one is said and skipped (status 1).
fn names_from(list: &str, read: &Inputs, out: &mut Printed) -> Result<Vec<String>, Stop> {
    let text = match read.text(list, list == "-")? {
        Ok(text) => text,
        Err(Unreadable::Directory) => return Err(Unsupported::new("du --files0-from of a directory").into()),
        Err(why) => {
            let stderr = format!("du: cannot open '{list}' for reading: {}\n", why.words());
            return Err(Stop::Usage(Printed { stderr, exit_code: 1, ..Default::default() }));
        }
    };
    let mut names = Vec::new();
    let body = text.strip_suffix('\0').unwrap_or(text);
    for (i, name) in body.split('\0').enumerate().filter(|_| !text.is_empty()) {
        if name.is_empty() {
            out.fail(1, format!("du: {list}:{}: invalid zero-length file name\n", i + 1));
        } else if name.chars().any(|c| c.is_control() || c == '\'') {
            return Err(Unsupported::new("a name du would quote").into());
        } else {
            names.push(name.to_string());
        }
    }
    Ok(names)
}

fn short(f: &mut Flags, c: char) -> Result<(), Stop> {
    match c {
        'a' => f.all = true,
        'h' => f.human = Some(false),
        'k' => (f.human, f.block, f.suffix) = (None, Some(1024), None),
        'm' => (f.human, f.block, f.suffix) = (None, Some(1 << 20), None),
        'b' => (f.human, f.block, f.suffix, f.apparent) = (None, Some(1), None, true),
        's' => f.summarize = true,
        'S' => f.separate = true,
        'c' => f.total = true,
        '0' => f.zero = true,
        // Links, symbolic links and mount points: none among the docs.
        'l' => f.count_links = true,
        'x' | 'L' | 'P' | 'D' | 'H' => {}
        _ => return Err(usage(format!("du: invalid option -- '{c}'\n"))),
    }
    Ok(())
}

fn short_value(f: &mut Flags, c: char, v: &str) -> Result<(), Stop> {
    match c {
        'd' => match v.parse::<u64>() {
            Ok(d) if v.bytes().all(|b| b.is_ascii_digit()) => f.max_depth = Some(d),
            _ => return Err(usage(format!("du: invalid maximum depth ‘{v}’\n"))),
        },
        'B' => block(f, "-B", v)?,
        't' => {
            let (negative, rest) = v.strip_prefix('-').map_or((false, v), |r| (true, r));
            let b = scaled_number(rest, "kKmMGTPEZY0").map_err(|e| invalid(format!("du: {}", e.message("-t", v))))?;
            f.threshold = Some(if negative { -i128::from(b) } else { i128::from(b) });
        }
        'X' => f.exclude_from.push(v.to_string()),
        _ => return Err(Unsupported::new(format!("du -{c}")).into()),
    }
    Ok(())
}

/// `-B SIZE`, `--block-size=SIZE`: units of SIZE, or `-h`/`--si`'s.
fn block(f: &mut Flags, option: &str, v: &str) -> Result<(), Stop> {
    match block_size(v).map_err(|e| invalid(format!("du: {}", e.message(option, v))))? {
        BlockSize::Human { si } => f.human = Some(si),
        BlockSize::Units { bytes, suffix } => {
            (f.human, f.block) = (None, Some(bytes));
            f.suffix = (!suffix.is_empty()).then_some(suffix);
        }
    }
    Ok(())
}

/// `du --version`: coreutils 9.1's, whose output this is.
const VERSION: Text = texts::DU_VERSION;

fn long_option(f: &mut Flags, name: &str, value: Option<&str>) -> Result<(), Stop> {
    let v = value.unwrap_or_default();
    match name {
        "version" => return Err(Stop::Usage(Printed { stdout: texts::get(VERSION), ..Default::default() })),
        "all" => short(f, 'a')?,
        "apparent-size" => f.apparent = true,
        "block-size" => block(f, "--block-size", v)?,
        "bytes" => short(f, 'b')?,
        "total" => short(f, 'c')?,
        "max-depth" => short_value(f, 'd', v)?,
        "human-readable" => short(f, 'h')?,
        "si" => f.human = Some(true),
        "inodes" => f.inodes = true,
        "null" => short(f, '0')?,
        "separate-dirs" => short(f, 'S')?,
        "summarize" => short(f, 's')?,
        "threshold" => short_value(f, 't', v)?,
        "time" if value.is_none() => f.time = true,
        "exclude" => f.exclude.push(Glob::fnmatch(v, false).map_err(Unsupported::from)?),
        "exclude-from" => short_value(f, 'X', v)?,
        "count-links" => f.count_links = true,
        "files0-from" => f.files0_from = Some(v.to_string()),
        "dereference-args" | "dereference" | "no-dereference" | "one-file-system" => {}
        _ => return Err(Unsupported::new(format!("du --{name}")).into()),
    }
    Ok(())
}

/// A count as printed: bytes in units of the block size, rounded up, or `-h`/`--si`.
fn size(out: &mut String, n: u64, f: &Flags) {
    if f.inodes {
        write!(out, "{n}").unwrap();
    } else if let Some(si) = f.human {
        human(out, n, si);
    } else {
        write!(out, "{}{}", n.div_ceil(f.block.unwrap_or(1024)), f.suffix.as_deref().unwrap_or_default()).unwrap();
    }
}

/// What an entry adds: its bytes on disk or apparent, or one inode.
fn own(meta: &Meta, f: &Flags) -> u64 {
    match (f.inodes, f.apparent, meta.dir) {
        (true, _, _) => 1,
        (_, true, _) => meta.size,
        (_, false, _) => meta.kib * 1024,
    }
}

/// du's visitor: what each entry of an operand's walk adds up, printed as a directory is
/// left.
struct Walk<'a> {
    f: &'a Flags,
    place: Place<'a>,
    /// What earlier operands counted.
    seen: &'a mut std::collections::HashSet<String>,
    out: String,
    /// The directories being walked, outermost first: what each adds up so far.
    open: Vec<Open>,
    /// What the operand adds up, once walked.
    result: Sum,
}

/// A directory being walked: its own size and its entries' (`below`: its directories',
/// with `-S`).
struct Open {
    total: Sum,
    below: Sum,
}

/// What a walk adds up below an entry: its total, and the newest time in it.
#[derive(Clone, Copy, Default)]
struct Sum {
    n: u64,
    mtime_ms: f64,
}

impl<'a> Walk<'a> {
    fn new(f: &'a Flags, place: Place<'a>, seen: &'a mut std::collections::HashSet<String>) -> Self {
        Walk { f, place, seen, out: String::new(), open: Vec::new(), result: Sum::default() }
    }

    /// An entry's line, unless `-t` leaves it out.
    fn line(&mut self, sum: Sum, shown: &str) {
        if let Some(t) = self.f.threshold {
            let n = i128::from(sum.n);
            if (t >= 0 && n < t) || (t < 0 && n > -t) {
                return;
            }
        }
        self.print(sum, shown);
    }

    fn print(&mut self, sum: Sum, shown: &str) {
        size(&mut self.out, sum.n, self.f);
        if self.f.time {
            let c = Civil::of((sum.mtime_ms / 1000.0).floor() as i64);
            write!(self.out, "\t{:04}-{:02}-{:02} {:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute).unwrap();
        }
        write!(self.out, "\t{shown}{}", if self.f.zero { '\0' } else { '\n' }).unwrap();
    }

    /// Whether an entry `depth` levels below an operand gets a line of its own.
    fn printed(&self, depth: usize) -> bool {
        if self.f.summarize {
            depth == 0
        } else {
            self.f.max_depth.is_none_or(|m| depth as u64 <= m)
        }
    }

    /// Adds what an entry adds up to its directory's total, or to the operand's.
    fn add(&mut self, sum: Sum, dir: bool) {
        let Some(open) = self.open.last_mut() else {
            self.result = sum;
            return;
        };
        let into = if dir && self.f.separate { &mut open.below } else { &mut open.total };
        into.n += sum.n;
        into.mtime_ms = into.mtime_ms.max(sum.mtime_ms);
    }
}

impl Visitor for Walk<'_> {
    type Stop = Unsupported;

    fn enter(&mut self, e: &Entry) -> Result<Flow, Unsupported> {
        // An operand's excluded entries are not counted; an entry an earlier operand
        // counted is not counted again, unless `-l`.
        if e.depth > 0 && excluded(self.f, e.shown) {
            return Ok(Flow::Prune);
        }
        if !self.seen.insert(e.full.to_string()) && !self.f.count_links {
            return Ok(Flow::Prune);
        }
        let node = self.place.listing.get(e.full).ok_or_else(|| Unsupported::new("a path that went away"))?;
        let meta = Meta::need(node)?;
        let mine = Sum { n: own(&meta, self.f), mtime_ms: meta.mtime_ms };
        let Node::Dir(_) = node else {
            if (self.f.all || e.depth == 0) && self.printed(e.depth) {
                self.line(mine, e.shown);
            }
            self.add(mine, false);
            return Ok(Flow::Prune);
        };
        self.place.check_dir(e.full)?;
        self.open.push(Open { total: mine, below: Sum::default() });
        Ok(Flow::Go)
    }

    fn leave(&mut self, e: &Entry) -> Result<Flow, Unsupported> {
        let Open { total, below } = self.open.pop().expect("a directory entered is left");
        if self.printed(e.depth) {
            self.line(total, e.shown);
        }
        self.add(Sum { n: total.n + below.n, mtime_ms: total.mtime_ms.max(below.mtime_ms) }, true);
        Ok(Flow::Go)
    }
}

/// Whether `--exclude` (or `-X`) leaves out the entry spelled `shown`: a pattern that
/// matches it unanchored ([`Glob::matches_unanchored`]; `*` matches `/` too).
fn excluded(f: &Flags, shown: &str) -> bool {
    f.exclude.iter().any(|g| g.matches_unanchored(shown) == Some(true))
}

/// An operand as du's walk (gnulib's fts) spells it: a run of trailing slashes cut to one
/// (`d//` is `d/`, `///` is `/`), `//` as typed.
fn fts_root(op: &str) -> &str {
    let b = op.as_bytes();
    let mut len = b.len();
    if len > 2 && b[len - 1] == b'/' {
        while len > 1 && b[len - 2] == b'/' {
            len -= 1;
        }
    }
    &op[..len]
}

/// The files `du` with `args` reads first: `-X`'s patterns and `--files0-from`'s names
/// (`-` standard input).
pub(crate) fn reads(args: &[String]) -> Vec<Named> {
    let Ok((f, _)) = flags(args) else { return Vec::new() };
    let named = |typed: &String| Named { typed: typed.clone(), stdin: typed == "-" };
    f.exclude_from.iter().chain(&f.files0_from).map(named).collect()
}

/// `du` over the listing (and the files read first); `Unsupported` when its output is not
/// modelled here.
pub(crate) fn du(args: &[String], place: Place, read: &Inputs) -> Result<Printed, Unsupported> {
    let (mut f, mut operands) = match flags(args) {
        Ok(parsed) => parsed,
        Err(stop) => return stop.answer(),
    };
    let mut out = Printed::default();
    if let Err(stop) = excluded_from(&mut f, read) {
        return stop.answer();
    }
    if let Some(list) = &f.files0_from {
        if let Some(extra) = operands.first() {
            let line = format!("du: extra operand ‘{extra}’\nfile operands cannot be combined with --files0-from\n");
            return usage(line).answer();
        }
        operands = match names_from(list, read, &mut out) {
            Ok(names) => names,
            Err(stop) => return stop.answer(),
        };
    } else if operands.is_empty() {
        operands.push(".".to_string());
    }
    let mut grand = Sum::default();
    if f.summarize && f.max_depth == Some(0) {
        out.stderr.push_str("du: warning: summarizing is the same as using --max-depth=0\n");
    }
    if f.inodes && f.apparent {
        out.stderr.push_str("du: warning: options --apparent-size and -b are ineffective with --inodes\n");
    }
    let mut seen = std::collections::HashSet::new();
    for op in &operands {
        let op = fts_root(op);
        // An excluded operand is passed over before it is looked up, as du's walk does.
        if excluded(&f, op) {
            continue;
        }
        let full = path::resolve(place.cwd, op);
        place.check(&full)?;
        let dir = match place.listing.get(&full) {
            None => {
                writeln!(out.stderr, "du: cannot access '{op}': No such file or directory").unwrap();
                continue;
            }
            Some(Node::File(_)) if path::names_dir(op) => {
                writeln!(out.stderr, "du: cannot access '{op}': Not a directory").unwrap();
                continue;
            }
            Some(node) => matches!(node, Node::Dir(_)),
        };
        let mut walk = Walk::new(&f, place, &mut seen);
        let start = Entry { full: &full, shown: op, name: path::file_name(&full), depth: 0, dir };
        visit(place.into(), Policy::fts(usize::MAX), &start, &mut walk)?;
        let sum = walk.result;
        grand.n += sum.n;
        grand.mtime_ms = grand.mtime_ms.max(sum.mtime_ms);
        out.stdout.push_str(&walk.out);
    }
    if f.total {
        // The total whatever the threshold (`-t` chooses the entries' lines only).
        let mut walk = Walk::new(&f, place, &mut seen);
        walk.print(grand, "total");
        out.stdout.push_str(&walk.out);
    }
    out.exit_code = i32::from(out.stderr.contains("cannot access"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(bytes: u64, args: &[&str]) -> String {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let Ok((f, _)) = flags(&args) else { panic!("flags") };
        let mut s = String::new();
        size(&mut s, bytes, &f);
        s
    }

    #[test]
    fn sizes_print_as_gnu_du_prints_them() {
        assert_eq!([0, 4096, 40960].map(|b| shown(b, &[])), ["0", "4", "40"]);
        assert_eq!(
            [0, 4, 8, 12, 40, 1020, 1024, 1536, 10240].map(|k| shown(k * 1024, &["-h"])),
            ["0", "4.0K", "8.0K", "12K", "40K", "1020K", "1.0M", "1.5M", "10M"]
        );
        assert_eq!(
            [shown(4096, &["-m"]), shown(4096, &["-B", "1"]), shown(62, &["-b"]), shown(4096, &["--si"])],
            ["1", "4096", "62", "4.1k"]
        );
    }

    #[test]
    fn gnu_du_refuses_what_it_refuses() {
        let refused = |args: &[&str]| match flags(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()) {
            Err(Stop::Usage(p)) => p.stderr,
            _ => String::new(),
        };
        assert_eq!(refused(&["-A"]), "du: invalid option -- 'A'\nTry 'du --help' for more information.\n");
        assert_eq!(refused(&["-d", "x"]), "du: invalid maximum depth ‘x’\nTry 'du --help' for more information.\n");
        assert_eq!(refused(&["-B", "x"]), "du: invalid -B argument 'x'\n");
        assert_eq!(
            refused(&["-sa"]),
            "du: cannot both summarize and show all entries\nTry 'du --help' for more information.\n"
        );
    }
}
