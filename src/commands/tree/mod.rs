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
//! `--charset=ascii`, the orders (`-r`, `-t`, `-c`, `-v`, `-U`, `--sort`, `--dirsfirst`,
//! `--filesfirst`), `--info` and `--gitignore` while no such file is met, and the
//! bracketed fields (see [`fields`]) with `--du`'s sizes, with the metadata a tmpfs copy
//! has (see `meta`), over files and directories of this filesystem; the options [`args`]
//! does not read are left to just-bash.

mod args;
mod fields;
mod json;
mod xml;

use super::meta::Meta;
use super::{Place, Printed};
use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};
use args::{flags, Flags, Sort};

#[derive(Default)]
pub(super) struct Counts {
    dirs: usize,
    files: usize,
    /// `--du`: the sizes printed below the operands, added up.
    bytes: u64,
}

/// What the walk found below a directory.
enum Below {
    /// Bytes held (with `--du`).
    Listed(u64),
    /// More entries than `--filelimit` allows: the directory is not opened.
    Exceeded(usize),
}

/// `tree` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn tree(args: &[String], place: Place, now_ms: f64) -> Result<Printed, Unsupported> {
    let (f, mut dirs) = flags(args)?;
    let mut out = listing(&f, &mut dirs, place, now_ms)?;
    if f.discard {
        out.stdout.clear();
    }
    Ok(out)
}

fn listing(f: &Flags, dirs: &mut Vec<&str>, place: Place, now_ms: f64) -> Result<Printed, Unsupported> {
    if f.invalid_level {
        return Ok(Printed {
            stdout: String::new(),
            stderr: "tree: Invalid level, must be greater than 0.\n".into(),
            exit_code: 1,
        });
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
        unread_files_above(&path::resolve(place.cwd, d), f, place)?;
    }
    if f.json {
        return json::tree(dirs, f, place);
    }
    if f.xml {
        return xml::tree(dirs, f, place);
    }
    let mut out = Printed::default();
    let mut n = Counts::default();
    let w = Writer { f, place, now_ms };
    for &d in dirs.iter() {
        let full = path::resolve(place.cwd, d);
        place.check(&full)?;
        match place.listing.get(&full) {
            None => {
                let shown = if f.full_path { d.trim_end_matches('/') } else { d };
                out.stdout.push_str(&format!("{}  [error opening dir]\n", w.quoted(shown)));
                out.exit_code = 2;
            }
            // A file named with a trailing slash is no file at all.
            Some(Node::File(_)) if d.ends_with('/') => {
                out.stdout.push_str(&format!("{}  [error opening dir]\n", w.quoted(d)));
            }
            Some(Node::File(_)) => {
                let (line, size) = w.line(&full, d, false, 0, "  [error opening dir]")?;
                out.stdout.push_str(&line);
                n.files += 1;
                n.bytes += size;
            }
            Some(Node::Dir(_)) => {
                // With -f, tree names the directory without its trailing slashes.
                let trimmed = match d.trim_end_matches('/') {
                    "" => "/",
                    t => t,
                };
                let shown = if f.full_path { trimmed } else { d };
                let mut below = String::new();
                match w.entries(&full, shown, "", "", 0, &mut below, &mut n)? {
                    Below::Exceeded(k) => {
                        out.stdout.push_str(&w.line(&full, shown, true, 0, &exceeded(k))?.0);
                        n.dirs += 1;
                    }
                    Below::Listed(held) => {
                        let (line, size) = w.line(&full, shown, true, held, "")?;
                        out.stdout.push_str(&line);
                        // tree 2.x counts a directory it was named only when it lists something
                        // in it; one that lists nothing counts in --du's sum as a file would.
                        match below.is_empty() {
                            true => n.bytes += size,
                            false => n.dirs += 1,
                        }
                        out.stdout.push_str(&below);
                    }
                }
            }
        }
    }
    if f.no_report {
        return Ok(out);
    }
    out.stdout.push('\n');
    if f.du {
        let unit = if f.human.is_some() { "" } else { " bytes" };
        out.stdout.push_str(&format!(" {}{unit} used in ", fields::size(n.bytes, f.human)));
    }
    out.stdout.push_str(&report(&n, f.dirs_only));
    out.stdout.push('\n');
    Ok(out)
}

/// The report's counts: `1 directory, 2 files`.
pub(super) fn report(n: &Counts, dirs_only: bool) -> String {
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
        let hidden = !f.all && name.starts_with('.');
        if hidden || (!dir && f.dirs_only) || any(&f.ignore, &name)? {
            continue;
        }
        if !dir && !f.only.is_empty() && !all_files && !any(&f.only, &name)? {
            continue;
        }
        if dir && f.prune && !f.dirs_only {
            let opened = f.max_depth.is_none_or(|m| depth + 1 < m);
            if !opened || listed(&child_of(full, &name), &child_of(rel, &name), depth + 1, f, place)?.is_empty() {
                continue;
            }
        }
        list.push((name, dir));
    }
    let meta = |name: &str| place.listing.get(&child_of(full, name)).and_then(Meta::of);
    match f.sort {
        Sort::Name | Sort::None => {}
        Sort::Version => list.sort_by(|a, b| crate::commands::ls::order::version(&a.0, &b.0).then(a.0.cmp(&b.0))),
        Sort::Time => list.sort_by(|a, b| {
            let t = |n: &str| meta(n).map_or(0.0, |m| m.mtime_ms);
            t(&a.0).total_cmp(&t(&b.0)).then(a.0.cmp(&b.0))
        }),
        Sort::Size => {
            let sizes: Option<Vec<u64>> = list.iter().map(|(n, _)| meta(n).map(|m| m.size)).collect();
            let sizes = sizes.ok_or_else(|| Unsupported::new("a page whose size the tree does not record"))?;
            let mut keyed: Vec<_> = sizes.into_iter().zip(list).collect();
            keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1 .0.cmp(&b.1 .0)));
            list = keyed.into_iter().map(|(_, e)| e).collect();
        }
    }
    if f.reverse && f.sort != Sort::None {
        list.reverse();
    }
    if let Some(dirs_first) = f.dirs_first {
        list.sort_by_key(|(_, dir)| *dir != dirs_first);
    }
    Ok(list)
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

/// Prints the walk's lines.
struct Writer<'a> {
    f: &'a Flags,
    place: Place<'a>,
    now_ms: f64,
}

impl Writer<'_> {
    /// The lines below the directory `full`, spelled `shown` (`rel` below its operand),
    /// each after `prefix`.
    #[allow(clippy::too_many_arguments)]
    fn entries(
        &self,
        full: &str,
        shown: &str,
        rel: &str,
        prefix: &str,
        depth: usize,
        out: &mut String,
        n: &mut Counts,
    ) -> Result<Below, Unsupported> {
        let f = self.f;
        let listed = listed(full, rel, depth, f, self.place)?;
        if f.file_limit > 0 && listed.len() > f.file_limit {
            return Ok(Below::Exceeded(listed.len()));
        }
        let (tee, elbow, bar) = if f.vt100 {
            ("tqq ", "mqq ", "x   ")
        } else if f.ascii {
            ("|-- ", "`-- ", "|   ")
        } else {
            ("├── ", "└── ", "│\u{a0}\u{a0} ")
        };
        let mut held = 0;
        for (i, (name, is_dir)) in listed.iter().enumerate() {
            let is_dir = *is_dir;
            let child = child_of(full, name);
            let child_shown = if shown.ends_with('/') { format!("{shown}{name}") } else { format!("{shown}/{name}") };
            let child_rel = child_of(rel, name);
            let last = i + 1 == listed.len();
            let branch = if f.no_indent {
                String::new()
            } else if f.vt100 {
                format!("\x1b(0{prefix}{}\x1b(B", if last { elbow } else { tee })
            } else {
                format!("{prefix}{}", if last { elbow } else { tee })
            };
            let name_shown = if f.full_path { &child_shown } else { name };
            let (line, size) = if is_dir {
                n.dirs += 1;
                let mut below = String::new();
                let mut found = Below::Listed(0);
                if f.max_depth.is_none_or(|m| depth + 1 < m) {
                    let deeper = format!("{prefix}{}", if last { "    " } else { bar });
                    found = self.entries(&child, &child_shown, &child_rel, &deeper, depth + 1, &mut below, n)?;
                }
                let (line, size) = match found {
                    Below::Exceeded(k) => self.line(&child, name_shown, true, 0, &exceeded(k))?,
                    Below::Listed(inside) => self.line(&child, name_shown, true, inside, "")?,
                };
                (format!("{line}{below}"), size)
            } else {
                n.files += 1;
                self.line(&child, name_shown, false, 0, "")?
            };
            out.push_str(&branch);
            out.push_str(&line);
            held += size;
            n.bytes += size;
        }
        Ok(Below::Listed(held))
    }

    /// A name as `-Q` and `-C` print it.
    fn quoted(&self, name: &str) -> String {
        if self.f.quote {
            format!("\"{name}\"")
        } else {
            name.to_string()
        }
    }

    /// An entry's line after its branch: the bracketed fields, the name as decorated and
    /// `suffix`; and with `--du` the size printed (its own, plus `held` for a directory).
    fn line(&self, full: &str, name: &str, dir: bool, held: u64, suffix: &str) -> Result<(String, u64), Unsupported> {
        let f = self.f;
        let mut line = String::new();
        let mut size = 0;
        if fields::any(f) {
            let node = self.place.listing.get(full).ok_or_else(|| Unsupported::new("a path that went away"))?;
            let m = Meta::need(node)?;
            size = m.size + if f.du { held } else { 0 };
            line.push_str(&fields::bracket(f, &m, node.ino(), size, self.now_ms)?);
        }
        match (f.color, dir) {
            (false, _) => line.push_str(&self.quoted(name)),
            (true, true) => line.push_str(&format!("\x1b[01;34m{}\x1b[0m", self.quoted(name))),
            (true, false) => line.push_str(&format!("\x1b[00m{}\x1b[0m", self.quoted(name))),
        }
        if dir && f.slash {
            line.push('/');
        }
        line.push_str(suffix);
        line.push('\n');
        Ok((line, if f.du { size } else { 0 }))
    }
}

#[cfg(test)]
mod tests;
