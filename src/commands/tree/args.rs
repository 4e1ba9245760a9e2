//! tree 2.1's command line, read through the one option grammar ([`getopt`]) by tree's
//! rules: letters combine, and each that takes a value (`-L`, `-P`, `-I`, `-o`, `-H`,
//! `-T`) takes the next word not yet read, wherever it stands in its word; a long option
//! without a value is its whole word, one with a value any word that begins with its name,
//! the value after `=` or in the next word; options and directories mix until `--`. A
//! value missing at the end, and `-L 0`, stop tree with its message; other usage errors
//! and options this module does not read (`--help`, an unknown `--sort`) are left to
//! just-bash.

use super::charset::{line_draw, LineDraw};
use super::html::Html;
use crate::base::getopt::{self, long, short, Arg, Grammar, Longs, Misuse, Opt, Shorts};
use crate::base::glob::Glob;
use crate::commands::Unsupported;

/// How entries are ordered (`--sort`, `-t`, `-v`, `-U`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Sort {
    #[default]
    Name,
    Version,
    Time,
    Size,
    None,
}

#[derive(Debug, Default)]
pub(super) struct Flags {
    pub all: bool,
    pub dirs_only: bool,
    pub full_path: bool,
    pub no_report: bool,
    /// `-i`: no indentation lines.
    pub no_indent: bool,
    /// `-J`: JSON (see `json`).
    pub json: bool,
    /// `-P`: the files listed; `-I`: the entries left out (read once the whole line is,
    /// since `--ignore-case` may follow them).
    pub only: Vec<Glob>,
    pub ignore: Vec<Glob>,
    pub only_text: Vec<String>,
    pub ignore_text: Vec<String>,
    /// `--ignore-case`: `-P` and `-I` fold ASCII case.
    pub ignore_case: bool,
    /// `--matchdirs`: a directory whose path below the operand matches `-P` lists all its files.
    pub match_dirs: bool,
    /// `--prune`: directories with nothing listed in them are left out.
    pub prune: bool,
    /// `--filelimit N`: a directory of more than N listed entries is not opened (0: no limit).
    pub file_limit: usize,
    pub max_depth: Option<usize>,
    /// `-F`: a `/` after a directory's name; `-Q`: names in double quotes.
    pub slash: bool,
    pub quote: bool,
    /// `--charset`, `-S`: the line drawing (see `charset`).
    pub draw: LineDraw,
    pub sort: Sort,
    pub reverse: bool,
    /// `--dirsfirst` (`Some(true)`) or `--filesfirst` (`Some(false)`).
    pub dirs_first: Option<bool>,
    /// The bracketed fields before a name, in tree's order: `--inodes`, `--device`, `-p`,
    /// `-u`, `-g`, `-s` and `-D`; `-h`/`--si` the size's form, `--timefmt` the date's.
    pub inodes: bool,
    pub device: bool,
    pub perms: bool,
    pub user: bool,
    pub group: bool,
    pub size: bool,
    pub date: bool,
    pub human: Option<bool>,
    pub time_format: Option<String>,
    /// `--du`: a directory's size is what it holds, and the report adds them up.
    pub du: bool,
    /// `-C`: tree's colours without `LS_COLORS`.
    pub color: bool,
    /// `-A`: VT100 line graphics.
    pub vt100: bool,
    /// `-X`: XML (see `xml`).
    pub xml: bool,
    /// `--info`, `--gitignore`: nothing changes unless the walk meets such files.
    pub info: bool,
    pub gitignore: bool,
    /// `-o /dev/null`: nothing printed.
    pub discard: bool,
    /// `-H`: a web page (see `html`); of `-X`, `-J` and `-H`, the last one named wins.
    pub html: Option<Html>,
    /// `-T`: the page's title, whichever option comes first.
    pub title: Option<String>,
    /// `--nolinks`.
    pub no_links: bool,
    /// `--charset`: as named, for the page's head.
    pub charset: Option<String>,
    /// `-R` with `-L`: a directory below the level is listed again into a file of its own.
    pub rerun: bool,
    /// `--metafirst`: the bracketed fields before the indentation lines.
    pub meta_first: bool,
    /// tree's error for the line as it reads it (a missing value, `-L 0`): printed, exit
    /// status 1.
    pub usage: Option<String>,
    /// `--fromfile`: the operands are files listing paths (`.` standard input), each
    /// drawn as a tree of its own (see `from_file`).
    pub from_file: bool,
    /// `--hintro`, `--houtro`: files printed in place of the page's head and foot.
    pub intro: Option<String>,
    pub outro: Option<String>,
    /// `--gitfile`, `--infofile`: files of ignore rules and comments, read first.
    pub git_files: Vec<String>,
    pub info_files: Vec<String>,
    /// `-o FILE`: output to a file, which a read-only tree cannot create.
    pub output: Option<String>,
    /// `--version`.
    pub version: bool,
    /// An option just-bash's tree does not know: a line this module cannot answer is
    /// refused in words rather than handed to it.
    pub foreign: bool,
}

impl Flags {
    /// `-P`'s globs as written.
    pub(super) fn only_patterns(&self) -> impl Iterator<Item = &str> {
        self.only_text.iter().flat_map(|v| v.split('|'))
    }

    /// Whether `--filelimit` leaves a directory that lists `entries` closed.
    pub(super) fn closes(&self, entries: usize) -> bool {
        self.file_limit > 0 && entries > self.file_limit
    }

    /// Whether only the walk's shape is asked for: no bracketed fields, decorations,
    /// colours, orders or limits (what `-J` and `-X` model).
    pub(super) fn plain(&self) -> bool {
        !(self.inodes || self.device || self.perms || self.user || self.group || self.size || self.date)
            && !(self.slash || self.quote || self.reverse || self.discard || self.color || self.vt100)
            && !(self.meta_first || self.rerun)
            && !(self.file_limit > 0 || self.du || self.match_dirs || self.prune)
            && self.sort == Sort::Name
            && self.dirs_first.is_none()
    }
}

/// tree's pattern: globs separated by `|`.
fn patterns(texts: &[String], ignore_case: bool) -> Result<Vec<Glob>, Unsupported> {
    texts.iter().flat_map(|v| v.split('|')).map(|g| Glob::fnmatch(g, ignore_case).map_err(Unsupported::from)).collect()
}

/// `-L`'s level as tree reads it (`atoi`: leading digits, 0 without any).
fn level(v: &str) -> usize {
    let digits: String = v.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(if digits.is_empty() { 0 } else { usize::MAX })
}

fn no() -> Unsupported {
    Unsupported::new("this tree option is left to just-bash")
}

/// tree 2.1's options, in the order its parser tries them (the first long name with a
/// value that begins a word names it). Letters are keyed by themselves.
const OPTS: &[Opt] = &[
    short("N", Arg::No),
    short("q", Arg::No),
    short("Q", Arg::No),
    short("d", Arg::No),
    short("l", Arg::No),
    short("s", Arg::No),
    short("h", Arg::No),
    short("u", Arg::No),
    short("g", Arg::No),
    short("f", Arg::No),
    short("F", Arg::No),
    short("a", Arg::No),
    short("p", Arg::No),
    short("i", Arg::No),
    short("C", Arg::No),
    short("n", Arg::No),
    short("x", Arg::No),
    short("P", Arg::Required),
    short("I", Arg::Required),
    short("A", Arg::No),
    short("S", Arg::No),
    short("D", Arg::No),
    short("t", Arg::No),
    short("c", Arg::No),
    short("r", Arg::No),
    short("v", Arg::No),
    short("U", Arg::No),
    short("X", Arg::No),
    short("J", Arg::No),
    short("H", Arg::Required),
    short("T", Arg::Required),
    short("R", Arg::No),
    short("L", Arg::Required),
    short("o", Arg::Required),
    long("help", Arg::No),
    long("version", Arg::No),
    long("inodes", Arg::No),
    long("device", Arg::No),
    long("noreport", Arg::No),
    long("nolinks", Arg::No),
    long("dirsfirst", Arg::No),
    long("filesfirst", Arg::No),
    long("filelimit", Arg::Required),
    long("charset", Arg::Required),
    long("si", Arg::No),
    long("du", Arg::No),
    long("prune", Arg::No),
    long("timefmt", Arg::Required),
    long("ignore-case", Arg::No),
    long("matchdirs", Arg::No),
    long("sort", Arg::Required),
    long("fromfile", Arg::No),
    long("metafirst", Arg::No),
    long("gitfile", Arg::Required),
    long("gitignore", Arg::No),
    long("info", Arg::No),
    long("infofile", Arg::Required),
    long("hintro", Arg::Required),
    long("houtro", Arg::Required),
    long("fflinks", Arg::No),
];
const GRAMMAR: Grammar =
    Grammar { opts: OPTS, longs: Longs::Leading, shorts: Shorts::NextWords, ..getopt::GETOPT_LONG };

/// tree's words for a value missing at the end of the line; `None` for a misuse it answers
/// with its usage (left to just-bash).
fn missing(misuse: &Misuse) -> Option<String> {
    Some(match misuse {
        Misuse::ShortNeedsValue(c) => format!("tree: Missing argument to -{c} option.\n"),
        Misuse::LongNeedsValue(name) => format!("tree: Missing argument to --{name}\n"),
        Misuse::EmptyValue(name) => format!("tree: Missing argument to --{name}=\n"),
        _ => return None,
    })
}

/// The options and the directories named. tree acts on each option as it reads it, so
/// the first error met, an invalid level or a missing value, is the one it prints.
pub(super) fn flags(args: &[String]) -> Result<(Flags, Vec<&str>), Unsupported> {
    let mut f = Flags::default();
    let (line, misuse) = getopt::read(&GRAMMAR, args);
    for given in &line.opts {
        let v = given.value.as_deref().unwrap_or_default();
        match (given.key, given.value.is_some()) {
            (key, false) if key.len() == 1 => letter(&mut f, key)?,
            (key, true) if key.len() == 1 => valued(&mut f, key, v)?,
            (name, _) => long_option(&mut f, name, v)?,
        }
        if f.usage.is_some() {
            break;
        }
    }
    if let Some(misuse) = misuse.filter(|_| f.usage.is_none()) {
        f.usage = Some(missing(&misuse).ok_or_else(no)?);
    }
    let dirs = line.operand_at.iter().map(|&at| args[at].as_str()).collect();
    f.only = patterns(&f.only_text, f.ignore_case)?;
    f.ignore = patterns(&f.ignore_text, f.ignore_case)?;
    if f.time_format.is_some() {
        f.date = true;
    }
    if f.du {
        f.size = true;
    }
    f.rerun &= f.max_depth.is_some();
    // tree marks no directory with `-F` when it lists directories alone.
    f.slash &= !f.dirs_only;
    f.draw = line_draw(f.charset.as_deref());
    if let Some(h) = &mut f.html {
        h.title = f.title.clone();
        h.links = !f.no_links;
    }
    Ok((f, dirs))
}

fn letter(f: &mut Flags, c: &str) -> Result<(), Unsupported> {
    match c {
        "a" => f.all = true,
        "d" => f.dirs_only = true,
        "f" => f.full_path = true,
        "i" => f.no_indent = true,
        "J" => (f.json, f.xml, f.html) = (true, false, None),
        "F" => f.slash = true,
        "Q" => f.quote = true,
        "r" => f.reverse = true,
        "t" => f.sort = Sort::Time,
        "v" => f.sort = Sort::Version,
        "U" => f.sort = Sort::None,
        "p" => f.perms = true,
        "s" => f.size = true,
        "h" => (f.size, f.human) = (true, Some(false)),
        "D" => f.date = true,
        "u" => f.user = true,
        "g" => f.group = true,
        // A collection records one time: the change time is the modification time.
        "c" => f.sort = Sort::Time,
        "C" => f.color = true,
        "A" => f.vt100 = true,
        "X" => (f.xml, f.json, f.html) = (true, false, None),
        "R" => (f.rerun, f.foreign) = (true, true),
        "S" => (f.charset, f.foreign) = (Some("IBM437".into()), true),
        // Literal names, no colours, no links to follow, one filesystem: nothing changes.
        "N" | "q" | "n" | "l" | "x" => {}
        _ => return Err(no()),
    }
    Ok(())
}

fn valued(f: &mut Flags, letter: &str, v: &str) -> Result<(), Unsupported> {
    match letter {
        "L" => {
            f.max_depth = Some(level(v));
            if f.max_depth == Some(0) {
                f.usage = Some("tree: Invalid level, must be greater than 0.\n".into());
            }
        }
        "P" => f.only_text.push(v.to_string()),
        "I" => f.ignore_text.push(v.to_string()),
        "o" if v == crate::fs::DEV_NULL => f.discard = true,
        "o" => (f.output, f.foreign) = (Some(v.to_string()), true),
        "H" => (f.html, f.json, f.xml, f.foreign) = (Some(Html::new(v)), false, false, true),
        "T" => (f.title, f.foreign) = (Some(v.to_string()), true),
        _ => return Err(no()),
    }
    Ok(())
}

fn long_option(f: &mut Flags, name: &str, v: &str) -> Result<(), Unsupported> {
    match name {
        "noreport" => f.no_report = true,
        "dirsfirst" => f.dirs_first = Some(true),
        "filesfirst" => f.dirs_first = Some(false),
        "si" => (f.size, f.human) = (true, Some(true)),
        "nolinks" => f.no_links = true,
        "fromfile" => (f.from_file, f.foreign) = (true, true),
        "hintro" => (f.intro, f.foreign) = (Some(v.to_string()), true),
        "houtro" => (f.outro, f.foreign) = (Some(v.to_string()), true),
        "gitfile" => {
            f.git_files.push(v.to_string());
            f.foreign = true;
        }
        "infofile" => {
            f.info_files.push(v.to_string());
            f.foreign = true;
        }
        "version" => f.version = true,
        "help" => return Err(no()),
        "metafirst" => (f.meta_first, f.foreign) = (true, true),
        // No links are followed, so none has information to process.
        "fflinks" => {}
        "inodes" => f.inodes = true,
        "device" => f.device = true,
        "du" => f.du = true,
        "prune" => f.prune = true,
        "matchdirs" => f.match_dirs = true,
        "ignore-case" => f.ignore_case = true,
        "info" => f.info = true,
        "gitignore" => f.gitignore = true,
        "timefmt" => f.time_format = Some(v.to_string()),
        "filelimit" => f.file_limit = level(v),
        "charset" => (f.charset, f.foreign) = (Some(v.to_string()), true),
        // tree 2.1's orders, named in any case (`none` came with 2.2); a collection
        // records one time, so `ctime` is `mtime`.
        "sort" => {
            f.sort = match v.to_ascii_lowercase().as_str() {
                "name" => Sort::Name,
                "version" => Sort::Version,
                "mtime" | "ctime" => Sort::Time,
                "size" => Sort::Size,
                _ => return Err(no()),
            }
        }
        _ => return Err(no()),
    }
    Ok(())
}
