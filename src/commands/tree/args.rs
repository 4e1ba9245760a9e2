//! tree 2.x's command line: short flags combine and those that take a value (`-L`, `-P`,
//! `-I`, `-o`) read the next word wherever they stand in the word; long options are
//! `--name` or `--name=value` (or the next word). Options whose output a collection
//! cannot share (owners, inodes, devices, change times, HTML/XML, colours) are left to
//! just-bash.

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
    /// `-P`: the files listed; `-I`: the entries left out.
    pub only: Vec<Glob>,
    pub ignore: Vec<Glob>,
    pub max_depth: Option<usize>,
    /// `-L 0`: tree stops with an error.
    pub invalid_level: bool,
    /// `-F`: a `/` after a directory's name; `-Q`: names in double quotes.
    pub slash: bool,
    pub quote: bool,
    /// `--charset=ascii`: `|--` and `` `-- `` lines.
    pub ascii: bool,
    pub sort: Sort,
    pub reverse: bool,
    /// `--dirsfirst` (`Some(true)`) or `--filesfirst` (`Some(false)`).
    pub dirs_first: Option<bool>,
    /// `-p`, `-s` and `-D`: the bracketed fields before a name; `-h`/`--si` the size's form.
    pub perms: bool,
    pub size: bool,
    pub date: bool,
    pub human: Option<bool>,
    /// `-o /dev/null`: nothing printed.
    pub discard: bool,
}

/// tree's pattern: globs separated by `|`.
fn patterns(v: &str) -> Result<Vec<Glob>, Unsupported> {
    v.split('|').map(|g| Glob::fnmatch(g, false).map_err(Unsupported::from)).collect()
}

/// `-L`'s level as tree reads it (`atoi`: leading digits, 0 without any).
fn level(v: &str) -> usize {
    let digits: String = v.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(if digits.is_empty() { 0 } else { usize::MAX })
}

fn no() -> Unsupported {
    Unsupported::new("this tree option is left to just-bash")
}

/// The options and the directories named.
pub(super) fn flags(args: &[String]) -> Result<(Flags, Vec<&str>), Unsupported> {
    let mut f = Flags::default();
    let mut dirs = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if let Some(long) = a.strip_prefix("--") {
            let (name, inline) = long.split_once('=').map_or((long, None), |(n, v)| (n, Some(v)));
            let mut value = || match inline {
                Some(v) => Ok(v),
                None => {
                    i += 1;
                    args.get(i - 1).map(String::as_str).ok_or_else(no)
                }
            };
            long_option(&mut f, name, &mut value)?;
            continue;
        }
        if a.len() < 2 || !a.starts_with('-') {
            dirs.push(a);
            continue;
        }
        for c in a[1..].chars() {
            if matches!(c, 'L' | 'P' | 'I' | 'o') {
                let v = args.get(i).ok_or_else(no)?;
                i += 1;
                valued(&mut f, c, v)?;
                continue;
            }
            short(&mut f, c)?;
        }
    }
    Ok((f, dirs))
}

fn short(f: &mut Flags, c: char) -> Result<(), Unsupported> {
    match c {
        'a' => f.all = true,
        'd' => f.dirs_only = true,
        'f' => f.full_path = true,
        'i' => f.no_indent = true,
        'J' => f.json = true,
        'F' => f.slash = true,
        'Q' => f.quote = true,
        'r' => f.reverse = true,
        't' => f.sort = Sort::Time,
        'v' => f.sort = Sort::Version,
        'U' => f.sort = Sort::None,
        'p' => f.perms = true,
        's' => f.size = true,
        'h' => (f.size, f.human) = (true, Some(false)),
        'D' => f.date = true,
        // Literal names, no colours, no links to follow, one filesystem: nothing changes.
        'N' | 'q' | 'n' | 'l' | 'x' => {}
        _ => return Err(no()),
    }
    Ok(())
}

fn valued(f: &mut Flags, c: char, v: &str) -> Result<(), Unsupported> {
    match c {
        'L' => {
            f.max_depth = Some(level(v));
            f.invalid_level |= f.max_depth == Some(0);
        }
        'P' => f.only.extend(patterns(v)?),
        'I' => f.ignore.extend(patterns(v)?),
        'o' if v == crate::fs::DEV_NULL => f.discard = true,
        _ => return Err(no()),
    }
    Ok(())
}

fn long_option<'a>(
    f: &mut Flags,
    name: &str,
    value: &mut impl FnMut() -> Result<&'a str, Unsupported>,
) -> Result<(), Unsupported> {
    match name {
        "noreport" => f.no_report = true,
        "dirsfirst" => f.dirs_first = Some(true),
        "filesfirst" => f.dirs_first = Some(false),
        "si" => (f.size, f.human) = (true, Some(true)),
        "nolinks" => {}
        "charset" => match value()? {
            "ascii" | "ASCII" | "us-ascii" => f.ascii = true,
            "utf-8" | "UTF-8" | "utf8" => f.ascii = false,
            _ => return Err(no()),
        },
        "sort" => {
            f.sort = match value()? {
                "name" => Sort::Name,
                "version" => Sort::Version,
                "mtime" => Sort::Time,
                "size" => Sort::Size,
                "none" => Sort::None,
                _ => return Err(no()),
            }
        }
        _ => return Err(no()),
    }
    Ok(())
}
