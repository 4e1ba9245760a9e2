//! `ls`'s command line, read as GNU `ls` reads it (`getopt_long`): short flags combine,
//! a value is the rest of the word or the next one, long options may be shortened while
//! unambiguous and take `=VALUE` (or the next word when required), `--` ends options.
//! An option GNU rejects is its message and status 2. A collection records one time for
//! an entry, so `-c`, `-u` and `--time` show and sort by it too; the owner is `user`
//! ([`OWNER_ID`](crate::commands::meta::OWNER_ID) by number), the security context `?`.
//! The last of `-h`, `--si` and `--block-size` says how sizes are counted; `-k` changes
//! nothing (its 1024-byte blocks are already the default).

use super::columns::Layout;
use crate::base::getopt::{self, Arg, Digits, Grammar, Opt};
use crate::base::quote::Style;
use crate::base::texts::{self, Text};
use crate::commands::units::{block_size, BlockSize};
use crate::commands::{Printed, Stop, Unsupported};

/// How entries are ordered (`--sort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Sort {
    #[default]
    Name,
    None,
    Time,
    Size,
    Extension,
    Version,
    Width,
}

/// `--time-style`: how `-l` prints a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum TimeStyle {
    #[default]
    Locale,
    FullIso,
    LongIso,
    Iso,
    /// `+FORMAT`: `Flags::time_format`.
    Format,
}

#[derive(Debug, Default)]
pub(crate) struct Flags {
    pub all: bool,
    pub almost_all: bool,
    pub recursive: bool,
    pub reverse: bool,
    pub directory: bool,
    /// `-p`, `-F`, `--file-type`: a `/` after each directory's name.
    pub slash: bool,
    pub long: bool,
    pub commas: bool,
    pub no_owner: bool,
    pub no_group: bool,
    /// `-h`, `--si`, `--block-size`: how `-s`, `total` and the `-l` sizes are counted
    /// (without them, blocks of 1024 bytes and sizes in bytes).
    pub sizes: Option<BlockSize>,
    /// `--color=always`, `--hyperlink=always` (see [`colors`](super::colors)).
    pub color: bool,
    pub hyperlink: bool,
    pub size: bool,
    pub quoting: Style,
    pub zero: bool,
    pub dirs_first: bool,
    pub sort: Sort,
    /// A `--sort` (or `-t`, `-S`, …) was given: `-c`/`-u` then do not sort by time.
    pub sort_given: bool,
    /// `-c`, `-u` or `--time`: another time than the modification time, which here is the same.
    pub other_time: bool,
    /// `-i`: inode numbers; `--author`, `-Z`: the author and security context columns;
    /// `-n`: owners by number ([`OWNER_ID`](crate::commands::meta::OWNER_ID)).
    pub inode: bool,
    pub author: bool,
    pub context: bool,
    pub numeric: bool,
    /// `--dired` (with `-l`): names indented, and their byte offsets after the listing.
    pub dired: bool,
    /// `-C`, `-x`: names in columns.
    pub layout: Option<Layout>,
    /// `-w`, `-T`: the line width (80 without them) and tab stops (every 8).
    pub width: Option<usize>,
    pub tabsize: Option<usize>,
    pub time_style: TimeStyle,
    /// `--time-style=+FORMAT`: the format of old times and, after a newline, of recent ones.
    pub time_format: Option<(String, Option<String>)>,
    /// `-I`: names hidden whatever `-a` says; `--hide`: unless `-a` or `-A`.
    pub ignore: Vec<Pattern>,
    pub hide: Vec<Pattern>,
}

/// A `-I`/`--hide` pattern: a POSIX glob, matched as `fnmatch` with `FNM_PERIOD` (a name's
/// leading `.` only by a `.` written first in the pattern).
#[derive(Debug)]
pub(crate) struct Pattern {
    glob: crate::base::glob::Glob,
    dot: bool,
}

impl Pattern {
    pub(crate) fn matches(&self, name: &str) -> bool {
        (self.dot || !name.starts_with('.')) && self.glob.matches(name) == Some(true)
    }
}

fn glob(pattern: &str, ignore_case: bool) -> Result<Pattern, Stop> {
    let glob = crate::base::glob::Glob::fnmatch(pattern, ignore_case).map_err(|e| Stop::Delegate(e.into()))?;
    Ok(Pattern { glob, dot: pattern.starts_with('.') || pattern.starts_with("\\.") })
}

/// getopt's `message` (with its newline), then where to get help: status 2.
fn usage(message: String) -> Stop {
    Stop::Usage(Printed {
        stdout: String::new(),
        stderr: format!("{message}Try 'ls --help' for more information.\n"),
        exit_code: 2,
        ..Default::default()
    })
}

/// A value GNU rejects with only its message (`ls: invalid line width: ‘x’`), status 2.
fn invalid(line: String) -> Stop {
    Stop::Usage(Printed { stdout: String::new(), stderr: format!("{line}\n"), exit_code: 2, ..Default::default() })
}

/// An argument `--quoting-style`, `--time`, `--color` or `--hyperlink` does not know: GNU's list of the valid
/// ones, status 1.
fn invalid_argument(value: &str, option: &str, valid: &str) -> Stop {
    let stderr = format!(
        "ls: invalid argument ‘{value}’ for ‘--{option}’\nValid arguments are:\n{valid}Try 'ls --help' for more information.\n"
    );
    Stop::Usage(Printed { stdout: String::new(), stderr, exit_code: 1, ..Default::default() })
}

fn delegate() -> Stop {
    Stop::Delegate(Unsupported::new("this ls option is left to just-bash"))
}

/// ls's options, the long ones in GNU `ls`'s order (which its message for an ambiguous
/// prefix follows); a short option's key is its letter, a long one's its name.
const OPTS: &[Opt] = &[
    getopt::long("all", Arg::No),
    getopt::long("escape", Arg::No),
    getopt::long("directory", Arg::No),
    getopt::long("dired", Arg::No),
    getopt::long("full-time", Arg::No),
    getopt::long("group-directories-first", Arg::No),
    getopt::long("human-readable", Arg::No),
    getopt::long("inode", Arg::No),
    getopt::long("kibibytes", Arg::No),
    getopt::long("numeric-uid-gid", Arg::No),
    getopt::long("no-group", Arg::No),
    getopt::long("hide-control-chars", Arg::No),
    getopt::long("reverse", Arg::No),
    getopt::long("size", Arg::No),
    getopt::long("width", Arg::Required),
    getopt::long("almost-all", Arg::No),
    getopt::long("ignore-backups", Arg::No),
    getopt::long("classify", Arg::Optional),
    getopt::long("file-type", Arg::No),
    getopt::long("si", Arg::No),
    getopt::long("dereference-command-line", Arg::No),
    getopt::long("dereference-command-line-symlink-to-dir", Arg::No),
    getopt::long("hide", Arg::Required),
    getopt::long("ignore", Arg::Required),
    getopt::long("indicator-style", Arg::Required),
    getopt::long("dereference", Arg::No),
    getopt::long("literal", Arg::No),
    getopt::long("quote-name", Arg::No),
    getopt::long("quoting-style", Arg::Required),
    getopt::long("recursive", Arg::No),
    getopt::long("format", Arg::Required),
    getopt::long("show-control-chars", Arg::No),
    getopt::long("sort", Arg::Required),
    getopt::long("tabsize", Arg::Required),
    getopt::long("time", Arg::Required),
    getopt::long("time-style", Arg::Required),
    getopt::long("zero", Arg::No),
    getopt::long("color", Arg::Optional),
    getopt::long("hyperlink", Arg::Optional),
    getopt::long("block-size", Arg::Required),
    getopt::long("context", Arg::No),
    getopt::long("author", Arg::No),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
    getopt::short("a", Arg::No),
    getopt::short("A", Arg::No),
    getopt::short("b", Arg::No),
    getopt::short("B", Arg::No),
    getopt::short("c", Arg::No),
    getopt::short("C", Arg::No),
    getopt::short("d", Arg::No),
    getopt::short("D", Arg::No),
    getopt::short("f", Arg::No),
    getopt::short("F", Arg::No),
    getopt::short("g", Arg::No),
    getopt::short("G", Arg::No),
    getopt::short("h", Arg::No),
    getopt::short("H", Arg::No),
    getopt::short("i", Arg::No),
    getopt::short("I", Arg::Required),
    getopt::short("k", Arg::No),
    getopt::short("l", Arg::No),
    getopt::short("L", Arg::No),
    getopt::short("m", Arg::No),
    getopt::short("n", Arg::No),
    getopt::short("N", Arg::No),
    getopt::short("o", Arg::No),
    getopt::short("p", Arg::No),
    getopt::short("q", Arg::No),
    getopt::short("Q", Arg::No),
    getopt::short("r", Arg::No),
    getopt::short("R", Arg::No),
    getopt::short("s", Arg::No),
    getopt::short("S", Arg::No),
    getopt::short("t", Arg::No),
    getopt::short("T", Arg::Required),
    getopt::short("u", Arg::No),
    getopt::short("U", Arg::No),
    getopt::short("v", Arg::No),
    getopt::short("w", Arg::Required),
    getopt::short("x", Arg::No),
    getopt::short("X", Arg::No),
    getopt::short("Z", Arg::No),
    getopt::short("1", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// `--quoting-style`'s and `--time`'s words, as GNU `ls` lists them.
const QUOTING_STYLES: &str = "  - ‘literal’\n  - ‘shell’\n  - ‘shell-always’\n  - ‘shell-escape’\n  - ‘shell-escape-always’\n  - ‘c’\n  - ‘c-maybe’\n  - ‘escape’\n  - ‘locale’\n  - ‘clocale’\n";
const SORTS: &str = "  - ‘none’\n  - ‘time’\n  - ‘size’\n  - ‘extension’\n  - ‘version’\n  - ‘width’\n";
const TIME_STYLES: &str = "  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\n";
const WHEN: &str = "  - ‘always’, ‘yes’, ‘force’\n  - ‘never’, ‘no’, ‘none’\n  - ‘auto’, ‘tty’, ‘if-tty’\n";
const TIMES: &str = "  - ‘atime’, ‘access’, ‘use’\n  - ‘ctime’, ‘status’\n  - ‘birth’, ‘creation’\n";

/// Reads the command line (as `getopt_long`, [`crate::base::getopt`]): the flags and the operands.
pub(crate) fn parse(args: &[String]) -> Result<(Flags, Vec<String>), Stop> {
    let line = getopt::parse(&GRAMMAR, args).map_err(|m| usage(m.message("ls")))?;
    let mut f = Flags::default();
    for given in &line.opts {
        let value = given.value.as_deref();
        let mut letters = given.key.chars();
        match (letters.next(), letters.next(), value) {
            (Some(c), None, Some(v)) => valued(&mut f, c, v)?,
            (Some(c), None, None) => short(&mut f, c)?,
            _ => long(&mut f, given.key, value)?,
        }
    }
    // Another time than the modification time sorts by it, unless a sort or `-l` says otherwise.
    if f.other_time && !f.sort_given && !f.long {
        f.sort = Sort::Time;
    }
    Ok((f, line.operands))
}

fn short(f: &mut Flags, c: char) -> Result<(), Stop> {
    match c {
        // The last of -a and -A wins.
        'a' => (f.all, f.almost_all) = (true, false),
        'A' => (f.all, f.almost_all) = (false, true),
        'R' => f.recursive = true,
        'r' => f.reverse = true,
        'd' => f.directory = true,
        'p' | 'F' => f.slash = true,
        'l' => (f.long, f.commas, f.layout) = (true, false, None),
        'g' => (f.long, f.no_owner, f.commas, f.layout) = (true, true, false, None),
        'o' => (f.long, f.no_group, f.commas, f.layout) = (true, true, false, None),
        'n' => (f.long, f.numeric, f.commas, f.layout) = (true, true, false, None),
        'G' => f.no_group = true,
        // GNU: "-1 has no effect after -l".
        '1' if !f.long => (f.commas, f.layout) = (false, None),
        '1' => {}
        'm' => (f.long, f.commas, f.layout) = (false, true, None),
        'C' => (f.long, f.commas, f.layout) = (false, false, Some(Layout::Vertical)),
        'x' => (f.long, f.commas, f.layout) = (false, false, Some(Layout::Across)),
        'i' => f.inode = true,
        'Z' => f.context = true,
        'D' => f.dired = true,
        'c' | 'u' => f.other_time = true,
        'h' => f.sizes = Some(BlockSize::Human { si: false }),
        's' => f.size = true,
        'k' => {}
        'Q' => f.quoting = Style::C,
        'N' => f.quoting = Style::Literal,
        'b' => f.quoting = Style::Escape,
        't' => (f.sort, f.sort_given) = (Sort::Time, true),
        'S' => (f.sort, f.sort_given) = (Sort::Size, true),
        'U' => (f.sort, f.sort_given) = (Sort::None, true),
        'X' => (f.sort, f.sort_given) = (Sort::Extension, true),
        'v' => (f.sort, f.sort_given) = (Sort::Version, true),
        // As `-a -U -1 --color=none --hyperlink=none`, and `-s` off.
        'f' => {
            (f.all, f.almost_all, f.sort, f.sort_given) = (true, false, Sort::None, true);
            (f.long, f.commas, f.layout, f.size, f.color, f.hyperlink) = (false, false, None, false, false, false);
        }
        'B' => {
            f.ignore.push(glob("*~", false)?);
            f.ignore.push(glob(".*~", false)?);
        }
        // Control characters hidden, dereferencing: the names and entries here need none.
        'q' | 'L' | 'H' => {}
        _ => {
            return Err(usage(format!("ls: invalid option -- '{c}'\n")));
        }
    }
    Ok(())
}

fn valued(f: &mut Flags, c: char, v: &str) -> Result<(), Stop> {
    match c {
        'I' => f.ignore.push(glob(v, false)?),
        // A width too large for a number is no limit either.
        'w' if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            f.width = Some(v.parse::<usize>().unwrap_or(0))
        }
        'T' if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            f.tabsize = Some(v.parse::<usize>().unwrap_or(0))
        }
        'T' => return Err(invalid(format!("ls: invalid tab size: ‘{v}’"))),
        _ => return Err(invalid(format!("ls: invalid line width: ‘{v}’"))),
    }
    Ok(())
}

/// `ls --version`: coreutils 9.1's, whose output this is.
const VERSION: Text = texts::LS_VERSION;

fn long(f: &mut Flags, name: &str, value: Option<&str>) -> Result<(), Stop> {
    let one = |c: char, f: &mut Flags| short(f, c);
    match (name, value) {
        ("version", _) => return Err(Stop::Usage(Printed { stdout: texts::get(VERSION), ..Default::default() })),
        ("all", _) => one('a', f)?,
        ("almost-all", _) => one('A', f)?,
        ("directory", _) => one('d', f)?,
        ("recursive", _) => one('R', f)?,
        ("reverse", _) => one('r', f)?,
        ("human-readable", _) => one('h', f)?,
        ("si", _) => f.sizes = Some(BlockSize::Human { si: true }),
        ("block-size", Some(v)) => {
            let size = block_size(v).map_err(|e| invalid(format!("ls: {}", e.message("--block-size", v))))?;
            f.sizes = Some(size);
        }
        ("size", _) => one('s', f)?,
        ("kibibytes", _) => one('k', f)?,
        ("no-group", _) => one('G', f)?,
        ("ignore-backups", _) => one('B', f)?,
        ("quote-name", _) => one('Q', f)?,
        ("literal", _) => one('N', f)?,
        ("escape", _) => one('b', f)?,
        ("inode", _) => one('i', f)?,
        ("numeric-uid-gid", _) => one('n', f)?,
        ("context", _) => one('Z', f)?,
        ("dired", _) => one('D', f)?,
        ("author", _) => f.author = true,
        ("quoting-style", Some(v)) => {
            f.quoting = Style::named(v).ok_or_else(|| invalid_argument(v, "quoting-style", QUOTING_STYLES))?
        }
        ("time", Some(v)) => match v {
            "atime" | "access" | "use" | "ctime" | "status" | "birth" | "creation" => f.other_time = true,
            _ => return Err(invalid_argument(v, "time", TIMES)),
        },
        ("format", Some("across" | "horizontal")) => one('x', f)?,
        ("format", Some("vertical")) => one('C', f)?,
        // `--zero`: one name a line (unless `-l`), as they are, and no colours, until an
        // option after it says otherwise.
        ("zero", _) => {
            (f.zero, f.color, f.quoting) = (true, false, Style::Literal);
            if !f.long {
                (f.commas, f.layout) = (false, None);
            }
        }
        ("group-directories-first", _) => f.dirs_first = true,
        ("file-type", _) | ("classify", None | Some("always" | "yes" | "force")) => f.slash = true,
        ("indicator-style", Some("slash" | "file-type" | "classify")) => f.slash = true,
        ("indicator-style", Some("none")) => f.slash = false,
        // Without WHEN, always; `auto` asks whether the output is a terminal, which it is not.
        ("color", v) => f.color = when(v, "color")?,
        ("hyperlink", v) => f.hyperlink = when(v, "hyperlink")?,
        ("hide-control-chars" | "show-control-chars" | "dereference", _) => {}
        ("dereference-command-line" | "dereference-command-line-symlink-to-dir", _) => {}
        ("ignore", Some(v)) => valued(f, 'I', v)?,
        ("hide", Some(v)) => f.hide.push(glob(v, false)?),
        ("tabsize", Some(v)) => valued(f, 'T', v)?,
        ("width", Some(v)) => valued(f, 'w', v)?,
        ("full-time", _) => {
            short(f, 'l')?;
            f.time_style = TimeStyle::FullIso;
        }
        ("time-style", Some(v)) => match v.strip_prefix('+') {
            Some(format) => {
                let (old, recent) = format.split_once('\n').map_or((format, None), |(o, r)| (o, Some(r)));
                if [Some(old), recent].into_iter().flatten().any(|x| crate::commands::strftime::format(x, 0).is_none())
                {
                    return Err(delegate());
                }
                f.time_format = Some((old.to_string(), recent.map(String::from)));
                f.time_style = TimeStyle::Format;
            }
            None => f.time_style = time_style(v)?,
        },
        ("sort", Some(v)) => (f.sort, f.sort_given) = (sort(v)?, true),
        ("format", Some("long" | "verbose")) => one('l', f)?,
        ("format", Some("single-column")) => one('1', f)?,
        ("format", Some("commas")) => one('m', f)?,
        _ => return Err(delegate()),
    }
    Ok(())
}

/// `--color`'s and `--hyperlink`'s WHEN: whether they apply to an output that is not a terminal.
fn when(v: Option<&str>, option: &str) -> Result<bool, Stop> {
    match v {
        None | Some("always" | "yes" | "force") => Ok(true),
        Some("never" | "no" | "none" | "auto" | "tty" | "if-tty") => Ok(false),
        Some(v) => Err(invalid_argument(v, option, WHEN)),
    }
}

fn sort(v: &str) -> Result<Sort, Stop> {
    Ok(match v {
        "none" => Sort::None,
        "time" => Sort::Time,
        "size" => Sort::Size,
        "extension" => Sort::Extension,
        "version" => Sort::Version,
        "width" => Sort::Width,
        _ => return Err(invalid_argument(v, "sort", SORTS)),
    })
}

fn time_style(v: &str) -> Result<TimeStyle, Stop> {
    // In a locale other than POSIX, the `posix-` styles are the others.
    let v = v.strip_prefix("posix-").unwrap_or(v);
    Ok(match v {
        "full-iso" => TimeStyle::FullIso,
        "long-iso" => TimeStyle::LongIso,
        "iso" => TimeStyle::Iso,
        "locale" => TimeStyle::Locale,
        _ => {
            let stderr = format!("ls: invalid argument ‘{v}’ for ‘time style’\nValid arguments are:\n{TIME_STYLES}Try 'ls --help' for more information.\n");
            return Err(Stop::Usage(Printed { stdout: String::new(), stderr, exit_code: 2, ..Default::default() }));
        }
    })
}
