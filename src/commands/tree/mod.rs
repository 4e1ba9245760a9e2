//! `tree` answered from the listing, as tree 2.x prints it under a UTF-8 locale whose
//! collation is the code point order: box-drawing lines (a line down is followed by two
//! no-break spaces), names in byte order, and a
//! report that counts the directories named on the command line too (`1 directory`) when
//! it lists something in them.
//!
//! Modelled: `-a`, `-d`, `-f`, `-i`, `-L N`, `-P PATTERN` (files only), `-I PATTERN`
//! (files and directories; `|` separates globs), `--ignore-case`, `--matchdirs`,
//! `--prune`, `--filelimit N`, `--noreport`, `-J` (see [`json`]), `-X` (see [`xml`]),
//! `-F`, `-Q`, `-C` (tree's colours with no `LS_COLORS`), `-A` (VT100 line graphics),
//! `--charset` and `-S` (see [`charset`]), the orders (`-r`, `-t`, `-c`, `-v`, `-U`, `--sort`, `--dirsfirst`,
//! `--filesfirst`), `--info` and `--gitignore` while no such file is met, `-H` (see
//! [`html`]), `--metafirst`, `-R` (see [`lines`]), and the
//! bracketed fields (see [`fields`]) with `--du`'s sizes, with the metadata a tmpfs copy
//! has (see `meta`), over files and directories of this filesystem; the options [`args`]
//! does not read are left to just-bash.

mod args;
mod charset;
mod fields;
mod from_file;
mod html;
mod json;
mod lines;
mod xml;

use super::inputs::{Inputs, Named};
use super::meta::Meta;
use super::{Place, Printed};
use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::Unsupported;
use crate::fs::named::Unreadable;
use crate::tree::listing::{byte_ordered, Node};
use args::{flags, Flags, Sort};
use lines::{Entry, Writer};

#[derive(Default)]
pub(super) struct Counts {
    dirs: usize,
    files: usize,
    /// `--du`: the sizes printed below the operands, added up.
    bytes: u64,
    /// A directory below an operand that `--filelimit` left closed: tree exits with 2.
    closed: bool,
}

/// What the walk found below a directory.
enum Below {
    /// Bytes held (with `--du`).
    Listed(u64),
    /// More entries than `--filelimit` allows: the directory is not opened.
    Exceeded(usize),
}

/// `tree` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn tree(args: &[String], place: Place, now_ms: f64, read: &Inputs) -> Result<Printed, Unsupported> {
    let (f, mut dirs) = flags(args)?;
    let mut out = match listing(&f, &mut dirs, place, now_ms, read) {
        // just-bash's tree would not know the option: say so rather than hand it over.
        Err(why) if f.foreign => return Ok(refused(&why)),
        answered => answered?,
    };
    if f.discard {
        out.stdout.clear();
    }
    match f.json || f.xml {
        true => Ok(out),
        false => Ok(charset::finish(out, f.draw)),
    }
}

/// The files `tree` with `args` reads first: `--fromfile`'s lists, `-H`'s intro and outro.
pub(crate) fn reads(args: &[String]) -> Vec<Named> {
    let Ok((f, mut dirs)) = flags(args) else { return Vec::new() };
    if f.usage.is_some() {
        return Vec::new();
    }
    let mut files = Vec::new();
    if f.from_file && !(f.json || f.xml) {
        if dirs.is_empty() {
            dirs.push(".");
        }
        files.extend(dirs.iter().map(|d| Named { typed: d.to_string(), stdin: *d == "." }));
    }
    if f.html.is_some() {
        files.extend(f.intro.iter().chain(&f.outro).map(|p| Named { typed: p.clone(), stdin: false }));
    }
    files.extend(f.git_files.iter().chain(&f.info_files).map(|p| Named { typed: p.clone(), stdin: false }));
    files
}

/// What tree prints before it walks anything: its version, its usage error, the error of
/// an output file a read-only tree cannot create, or of a rules file it cannot load.
fn before_walking(f: &Flags, place: Place, read: &Inputs) -> Result<Option<Printed>, Unsupported> {
    let fail = |stderr: String| Ok(Some(Printed { stderr, exit_code: 1, ..Default::default() }));
    if let Some(usage) = &f.usage {
        return fail(usage.clone());
    }
    if f.version {
        let stdout = format!("{}\n", html::version(f.draw.copy));
        return Ok(Some(Printed { stdout, ..Default::default() }));
    }
    for (files, what) in [(&f.git_files, "gitignore file"), (&f.info_files, "infofile")] {
        for file in files {
            // tree loads a regular file only: /dev/null is no rules file to it.
            if path::resolve(place.cwd, file) == crate::fs::DEV_NULL {
                return fail(format!("tree: Could not load {what}\n"));
            }
            match read.text(file, false)? {
                Ok(text)
                    if text.lines().any(|l| !l.trim().is_empty() && !l.starts_with('#'))
                        && (what == "gitignore file" || f.info) =>
                {
                    return Err(Unsupported::new(format!("a {what} with rules")));
                }
                Ok(_) => {}
                Err(Unreadable::Failed) => return fail(format!("tree: {file}: Input/output error\n")),
                Err(_) => return fail(format!("tree: Could not load {what}\n")),
            }
        }
    }
    if let Some(file) = &f.output {
        let full = path::resolve(place.cwd, file);
        if place.check(&full).is_err() {
            return Err(Unsupported::new("tree -o into the scratch directory is just-bash's"));
        }
        return fail(format!("tree: invalid filename '{file}'\n"));
    }
    Ok(None)
}

fn listing(f: &Flags, dirs: &mut Vec<&str>, place: Place, now_ms: f64, read: &Inputs) -> Result<Printed, Unsupported> {
    if let Some(printed) = before_walking(f, place, read)? {
        return Ok(printed);
    }
    if dirs.is_empty() {
        dirs.push(".");
    }
    // tree's --du stops counting what --filelimit leaves closed; --matchdirs keeps a
    // matching directory under --prune by its name.
    if (f.du && f.file_limit > 0) || (f.match_dirs && f.prune) {
        return Err(Unsupported::new("this tree option combination is left to just-bash"));
    }
    for &d in dirs.iter() {
        if !f.from_file {
            unread_files_above(&path::resolve(place.cwd, d), f, place)?;
        }
        drawable(d, f)?;
    }
    if f.from_file && (f.json || f.xml) {
        return Err(Unsupported::new("tree --fromfile with -J or -X is left to just-bash"));
    }
    if f.json {
        return json::tree(dirs, f, place);
    }
    if f.xml {
        return xml::tree(dirs, f, place);
    }
    let mut out = Printed::default();
    let mut n = Counts::default();
    for &d in dirs.iter() {
        if !f.from_file {
            let root = Root { typed: d, full: path::resolve(place.cwd, d), place, counted: false, unmarked: None };
            operand(&root, f, now_ms, &mut out, &mut n)?;
            continue;
        }
        let (list, unmarked) = match read.text(d, d == ".")? {
            Ok(text) => from_file::listing_of(text)?,
            Err(Unreadable::Directory) => from_file::listing_of("")?,
            Err(Unreadable::Missing) => {
                missing(d, f, &mut out);
                continue;
            }
            Err(Unreadable::Failed) => return Ok(failed(d)),
        };
        let place = Place { listing: &list, scratch: None, cwd: "/" };
        let root = Root { typed: d, full: "/".into(), place, counted: true, unmarked: Some(&unmarked) };
        operand(&root, f, now_ms, &mut out, &mut n)?;
    }
    // The page's head (`-H`), printed before the walk.
    let head = match (&f.html, &f.intro) {
        (None, _) => String::new(),
        (Some(_), Some(file)) => page_part(read, file)?,
        (Some(h), None) => html::intro(h, charset_name(f), f.draw.copy),
    };
    if let Some(stopped) = lines::cut_at_stop(&out.stdout) {
        return Ok(Printed { stdout: format!("{head}{}", stopped.stdout), ..stopped });
    }
    let mut report = String::new();
    if !f.no_report {
        if f.du {
            let unit = if f.human.is_some() { "" } else { " bytes" };
            report.push_str(&format!(" {}{unit} used in ", fields::size(n.bytes, f.human)));
        }
        report.push_str(&counts(&n, f.dirs_only));
        report.push('\n');
    }
    out.stdout = match &f.html {
        None if f.no_report => out.stdout,
        None => format!("{}\n{report}", out.stdout),
        Some(_) => {
            let report = if f.no_report { String::new() } else { html::report(&report) };
            let outro = match &f.outro {
                Some(file) => page_part(read, file)?,
                None => html::outro(f.draw.copy),
            };
            format!("{head}{}{report}{outro}", out.stdout)
        }
    };
    if n.closed {
        out.exit_code = 2;
    }
    Ok(out)
}

/// `--hintro`'s or `--houtro`'s file, printed as it is (nothing when tree cannot open it).
fn page_part(read: &Inputs, file: &str) -> Result<String, Unsupported> {
    match read.text(file, false)? {
        Ok(text) => Ok(text.to_string()),
        Err(Unreadable::Failed) => Err(Unsupported::new("the page's intro or outro could not be read")),
        Err(_) => Ok(String::new()),
    }
}

/// A line with an option just-bash's tree does not know, whose answer is not modelled
/// here, refused in words.
fn refused(why: &Unsupported) -> Printed {
    let stderr = format!("tree: these options together are not answered by chromafs ({why})\n");
    Printed { stderr, exit_code: 2, ..Default::default() }
}

/// What tree says of a list it cannot read for a failure of the database or network.
fn failed(d: &str) -> Printed {
    Printed { stderr: format!("tree: {d}: Input/output error\n"), exit_code: 2, ..Default::default() }
}

/// A name as `-Q` prints it.
fn quoted(f: &Flags, name: &str) -> String {
    match f.quote {
        true => format!("\"{name}\""),
        false => name.to_string(),
    }
}

/// The line of an operand that does not exist.
fn missing(d: &str, f: &Flags, out: &mut Printed) {
    let shown = if f.full_path { d.trim_end_matches('/') } else { d };
    let name = match &f.html {
        Some(h) => {
            html::anchor(h, &html::Anchor { parent: None, cut: 0, name: d, dir: false, class: None, stat: false })
        }
        None => quoted(f, shown),
    };
    let end = if f.html.is_some() { "<br>" } else { "" };
    out.stdout.push_str(&format!("{name}  [error opening dir]{end}\n"));
    out.exit_code = 2;
}

/// An operand: as typed, where it is in `place`, and whether it counts as a directory
/// whatever it holds (`--fromfile`'s lists).
struct Root<'a> {
    typed: &'a str,
    full: String,
    place: Place<'a>,
    counted: bool,
    /// `--fromfile`: directories `-F` does not mark (see `from_file`).
    unmarked: Option<&'a std::collections::BTreeSet<String>>,
}

/// The character set the page's head names: `--charset`'s, else the locale's.
fn charset_name(f: &Flags) -> &str {
    f.charset.as_deref().unwrap_or("UTF-8")
}

/// The lines of one operand.
fn operand(root: &Root, f: &Flags, now_ms: f64, out: &mut Printed, n: &mut Counts) -> Result<(), Unsupported> {
    let (d, full, place) = (root.typed, root.full.as_str(), root.place);
    place.check(full)?;
    // With -f, tree names the operand without its trailing slashes.
    let trimmed = match d.trim_end_matches('/') {
        "" if d.is_empty() => "",
        "" => "/",
        t => t,
    };
    let shown = if f.full_path { trimmed } else { d };
    let w = Writer { f, place, now_ms, cut: shown.len(), unmarked: root.unmarked };
    let line = |name, dir, held, suffix| Entry { full, name, dir, held, suffix, branch: w.root_branch(), parent: None };
    let node =
        place.listing.get(full).filter(|n| !(f.html.is_some() && d.ends_with('/') && matches!(n, Node::File(_))));
    match node {
        None => missing(d, f, out),
        // A file named with a trailing slash is no file at all.
        Some(Node::File(_)) if d.ends_with('/') => {
            out.stdout.push_str(&format!("{}  [error opening dir]\n", quoted(f, d)));
            out.exit_code = 2;
        }
        Some(Node::File(_)) => {
            let (text, size) = w.line(&line(d, false, 0, "  [error opening dir]"))?;
            out.stdout.push_str(&text);
            n.files += 1;
            n.bytes += size;
        }
        Some(Node::Dir(_)) => {
            let mut below = String::new();
            match w.entries(full, shown, "", "", 0, &mut below, n)? {
                // With --prune, tree takes the operand it left closed for one it cannot open.
                Below::Exceeded(_) if f.prune => {
                    let (text, size) = w.line(&line(shown, false, 0, "  [error opening dir]"))?;
                    out.stdout.push_str(&text);
                    n.files += 1;
                    n.bytes += size;
                }
                Below::Exceeded(k) => {
                    out.stdout.push_str(&w.line(&line(shown, true, 0, &exceeded(k)))?.0);
                    n.dirs += 1;
                }
                Below::Listed(held) => {
                    let (text, size) = w.line(&line(shown, true, held, ""))?;
                    out.stdout.push_str(&text);
                    // tree 2.x counts a directory it was named only when it lists something
                    // in it; one that lists nothing counts in --du's sum as a file would.
                    match below.is_empty() && !root.counted {
                        true => n.bytes += size,
                        false => n.dirs += 1,
                    }
                    out.stdout.push_str(&below);
                }
            }
        }
    }
    Ok(())
}

/// The report's counts: `1 directory, 2 files`.
pub(super) fn counts(n: &Counts, dirs_only: bool) -> String {
    let plural = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let mut s = plural(n.dirs, "directory", "directories");
    if !dirs_only {
        s.push_str(&format!(", {}", plural(n.files, "file", "files")));
    }
    s
}

fn exceeded(k: usize) -> String {
    format!("  [{k} entries exceeds filelimit, not opening dir]")
}

/// `--gitignore` and `--info` read files this module does not: with one above an operand,
/// the command is left to just-bash (those in the walk are met in [`listed`]).
fn unread_files_above(full: &str, f: &Flags, place: Place) -> Result<(), Unsupported> {
    if !(f.gitignore || f.info) {
        return Ok(());
    }
    let mut dir = full;
    loop {
        read_files_in(dir, f, place)?;
        if dir == "/" {
            break;
        }
        dir = path::parent(dir);
    }
    Ok(())
}

fn read_files_in(dir: &str, f: &Flags, place: Place) -> Result<(), Unsupported> {
    let Some(Node::Dir(d)) = place.listing.get(dir) else { return Ok(()) };
    let reads = |name: &str| (f.gitignore && name == ".gitignore") || (f.info && name == ".info");
    if d.children.iter().any(|(name, _)| reads(name)) {
        return Err(Unsupported::new("tree --gitignore/--info over such files is left to just-bash"));
    }
    Ok(())
}

/// The entries of the directory `full` (`rel` below its operand, `depth` levels down)
/// that tree lists, in its order.
fn listed(full: &str, rel: &str, depth: usize, f: &Flags, place: Place) -> Result<Vec<(String, bool)>, Unsupported> {
    let Some(Node::Dir(d)) = place.listing.get(full) else { return Ok(Vec::new()) };
    place.check_dir(full)?;
    read_files_in(full, f, place)?;
    let all_files = f.match_dirs && !rel.is_empty() && path_matches(f, rel)?;
    let mut list = Vec::new();
    for (name, dir) in byte_ordered(&d.children).iter().cloned() {
        let hidden = !(f.all || f.from_file) && name.starts_with('.');
        drawable(&name, f)?;
        if hidden || (!dir && f.dirs_only) || any(&f.ignore, &name)? {
            continue;
        }
        if !dir && !f.only.is_empty() && !all_files && !any(&f.only, &name)? {
            continue;
        }
        if dir && f.prune && !f.dirs_only {
            // A directory that shows nothing is pruned: one left closed by --filelimit too.
            let opened = f.max_depth.is_none_or(|m| depth + 1 < m);
            let shows = |below: Vec<_>| !below.is_empty() && !f.closes(below.len());
            if !opened || !shows(listed(&child_of(full, &name), &child_of(rel, &name), depth + 1, f, place)?) {
                continue;
            }
        }
        list.push((name, dir));
    }
    let meta = |name: &str| place.listing.get(&child_of(full, name)).and_then(Meta::of);
    match f.sort {
        Sort::Name | Sort::None => {}
        Sort::Version => crate::base::sort::sort_by(&mut list, |a, b| {
            crate::base::vercmp::strverscmp(a.0.as_bytes(), b.0.as_bytes())
        }),
        Sort::Time => crate::base::sort::sort_by(&mut list, |a, b| {
            let t = |n: &str| meta(n).map_or(0.0, |m| m.mtime_ms);
            t(&a.0).total_cmp(&t(&b.0)).then(a.0.cmp(&b.0))
        }),
        Sort::Size => {
            let sizes: Option<Vec<u64>> = list.iter().map(|(n, _)| meta(n).map(|m| m.size)).collect();
            let sizes = sizes.ok_or_else(|| Unsupported::new("a page whose size the tree does not record"))?;
            let mut keyed: Vec<_> = sizes.into_iter().zip(list).collect();
            crate::base::sort::sort_by(&mut keyed, |a, b| b.0.cmp(&a.0).then(a.1 .0.cmp(&b.1 .0)));
            list = keyed.into_iter().map(|(_, e)| e).collect();
        }
    }
    if f.reverse && f.sort != Sort::None {
        list.reverse();
    }
    if let Some(dirs_first) = f.dirs_first {
        crate::base::sort::sort_by_key(&mut list, |(_, dir)| *dir != dirs_first);
    }
    Ok(list)
}

/// A name printed with a line drawing of bytes must not hold the characters that stand
/// for them (see `charset`).
fn drawable(name: &str, f: &Flags) -> Result<(), Unsupported> {
    match f.draw.bytes && name.chars().any(charset::is_byte) {
        true => Err(Unsupported::new("a name holding a private-use character under tree's byte line drawing")),
        false => Ok(()),
    }
}

/// `full/name`; `name` alone below an empty `full` (an operand's relative path).
fn child_of(full: &str, name: &str) -> String {
    match full {
        "" => name.to_string(),
        "/" => format!("/{name}"),
        _ => format!("{full}/{name}"),
    }
}

/// Whether a glob of `globs` matches `name`; `Unsupported` where case folding beyond
/// ASCII would decide.
fn any(globs: &[Glob], name: &str) -> Result<bool, Unsupported> {
    for g in globs {
        match g.matches(name) {
            Some(true) => return Ok(true),
            Some(false) => {}
            None => return Err(Unsupported::new("a name beyond ASCII under tree --ignore-case")),
        }
    }
    Ok(false)
}

/// `--matchdirs`: whether a directory's path below its operand matches `-P`, a `*` or `?`
/// standing within one component of the path.
fn path_matches(f: &Flags, rel: &str) -> Result<bool, Unsupported> {
    let parts: Vec<&str> = rel.split('/').collect();
    for pattern in f.only_patterns() {
        let segments: Vec<&str> = pattern.split('/').collect();
        if segments.len() != parts.len() {
            continue;
        }
        let mut all = true;
        for (seg, part) in segments.iter().zip(&parts) {
            all &= any(&[Glob::fnmatch(seg, f.ignore_case).map_err(Unsupported::from)?], part)?;
        }
        if all {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests;
