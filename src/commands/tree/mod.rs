//! `tree` answered from the listing, as tree 2.x prints it under a UTF-8 locale whose
//! collation is the code point order: box-drawing lines (a line down is followed by two
//! no-break spaces), names in byte order, and a
//! report that counts the directories named on the command line too (`1 directory`) when
//! it lists something in them.
//!
//! Modelled: `-a`, `-d`, `-f`, `-i`, `-L N`, `-P PATTERN` (files only), `-I PATTERN`
//! (files and directories; `|` separates globs), `--noreport`, `-J` (see [`json`]),
//! `-F`, `-Q`, `--charset=ascii`, the orders (`-r`, `-t`, `-v`, `-U`, `--sort`,
//! `--dirsfirst`, `--filesfirst`) and the bracketed `-p`, `-s`, `-h`, `--si` and `-D`
//! with the metadata a tmpfs copy has (see `meta`), over files and directories of this
//! filesystem; the options [`args`] lists as just-bash's are left to it.

mod args;
mod json;

use super::meta::Meta;
use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};
use args::{flags, Flags, Sort};

#[derive(Default)]
pub(super) struct Counts {
    dirs: usize,
    files: usize,
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
    if f.json {
        return json::tree(dirs, f, place);
    }
    let mut out = Printed::default();
    let mut n = Counts::default();
    let w = Writer { f, place, now_ms };
    let quoted = |d: &str| if f.quote { format!("\"{d}\"") } else { d.to_string() };
    for &d in dirs.iter() {
        let full = path::resolve(place.cwd, d);
        place.check(&full)?;
        match place.listing.get(&full) {
            None => {
                let shown = if f.full_path { d.trim_end_matches('/') } else { d };
                out.stdout.push_str(&format!("{}  [error opening dir]\n", quoted(shown)));
                out.exit_code = 2;
            }
            // A file named with a trailing slash is no file at all.
            Some(Node::File(_)) if d.ends_with('/') => {
                out.stdout.push_str(&format!("{}  [error opening dir]\n", quoted(d)));
            }
            Some(Node::File(_)) => {
                let line = w.line(&full, d, false)?;
                out.stdout.push_str(&format!("{}  [error opening dir]\n", line.trim_end_matches('\n')));
                n.files += 1;
            }
            Some(Node::Dir(_)) => {
                // With -f, tree names the directory without its trailing slashes.
                let trimmed = match d.trim_end_matches('/') {
                    "" => "/",
                    t => t,
                };
                let shown = if f.full_path { trimmed } else { d };
                out.stdout.push_str(&w.line(&full, shown, true)?);
                // tree 2.x counts a directory it was named only when it lists something in it.
                let listed = out.stdout.len();
                w.entries(&full, shown, "", 0, &mut out.stdout, &mut n)?;
                n.dirs += usize::from(out.stdout.len() > listed);
            }
        }
    }
    if f.no_report {
        return Ok(out);
    }
    let plural = |k: usize, one: &str, many: &str| if k == 1 { one.to_string() } else { many.to_string() };
    out.stdout.push_str(&format!("\n{} {}", n.dirs, plural(n.dirs, "directory", "directories")));
    if !f.dirs_only {
        out.stdout.push_str(&format!(", {} {}", n.files, plural(n.files, "file", "files")));
    }
    out.stdout.push('\n');
    Ok(out)
}

/// The entries of the directory `full` that tree lists, in its order.
fn listed(full: &str, f: &Flags, place: Place) -> Result<Vec<(String, bool)>, Unsupported> {
    let Some(Node::Dir(d)) = place.listing.get(full) else { return Ok(Vec::new()) };
    place.check_dir(full)?;
    let mut list: Vec<(String, bool)> = byte_ordered(&d.children)
        .iter()
        .filter(|(name, dir)| (f.all || !name.starts_with('.')) && (*dir || !f.dirs_only))
        .filter(|(name, dir)| !any(&f.ignore, name) && (*dir || f.only.is_empty() || any(&f.only, name)))
        .cloned()
        .collect();
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

fn child_of(full: &str, name: &str) -> String {
    if full == "/" {
        format!("/{name}")
    } else {
        format!("{full}/{name}")
    }
}

fn any(globs: &[crate::base::glob::Glob], name: &str) -> bool {
    globs.iter().any(|g| g.matches(name) == Some(true))
}

/// Prints the walk's lines.
struct Writer<'a> {
    f: &'a Flags,
    place: Place<'a>,
    now_ms: f64,
}

impl Writer<'_> {
    /// The lines below the directory `full`, spelled `shown`, each after `prefix`.
    fn entries(
        &self,
        full: &str,
        shown: &str,
        prefix: &str,
        depth: usize,
        out: &mut String,
        n: &mut Counts,
    ) -> Result<(), Unsupported> {
        let f = self.f;
        let listed = listed(full, f, self.place)?;
        let (tee, elbow, bar) =
            if f.ascii { ("|-- ", "`-- ", "|   ") } else { ("├── ", "└── ", "│\u{a0}\u{a0} ") };
        for (i, (name, is_dir)) in listed.iter().enumerate() {
            let is_dir = *is_dir;
            let child = child_of(full, name);
            let child_shown = if shown.ends_with('/') { format!("{shown}{name}") } else { format!("{shown}/{name}") };
            let last = i + 1 == listed.len();
            if !f.no_indent {
                out.push_str(prefix);
                out.push_str(if last { elbow } else { tee });
            }
            out.push_str(&self.line(&child, if f.full_path { &child_shown } else { name }, is_dir)?);
            if is_dir {
                n.dirs += 1;
                if f.max_depth.is_none_or(|m| depth + 1 < m) {
                    let deeper = format!("{prefix}{}", if last { "    " } else { bar });
                    self.entries(&child, &child_shown, &deeper, depth + 1, out, n)?;
                }
            } else {
                n.files += 1;
            }
        }
        Ok(())
    }

    /// An entry's line after its branch: the bracketed fields, then the name as decorated.
    fn line(&self, full: &str, name: &str, dir: bool) -> Result<String, Unsupported> {
        let f = self.f;
        let mut fields = Vec::new();
        if f.perms || f.size || f.date {
            let node = self.place.listing.get(full).ok_or_else(|| Unsupported::new("a path that went away"))?;
            let m = Meta::need(node)?;
            if f.perms {
                fields.push(m.mode().to_string());
            }
            if f.size {
                fields.push(size(m.size, f.human));
            }
            if f.date {
                fields.push(crate::commands::ls::long::time(
                    &m,
                    crate::commands::ls::args::TimeStyle::Locale,
                    self.now_ms,
                ));
            }
        }
        let mut line = if fields.is_empty() { String::new() } else { format!("[{}]  ", fields.join(" ")) };
        if f.quote {
            line.push_str(&format!("\"{name}\""));
        } else {
            line.push_str(name);
        }
        if dir && f.slash {
            line.push('/');
        }
        line.push('\n');
        Ok(line)
    }
}

/// `-s`'s size: bytes in eleven columns, or with `-h`/`--si` tree's four (`2.9K`, rounded
/// to the nearest tenth below ten units, so `10.0k` can show).
fn size(bytes: u64, human: Option<bool>) -> String {
    let Some(si) = human else { return format!("{bytes:>11}") };
    let base: u64 = if si { 1000 } else { 1024 };
    if bytes < base {
        return format!("{bytes:>4}");
    }
    let units = if si { ['k', 'M', 'G', 'T', 'P', 'E'] } else { ['K', 'M', 'G', 'T', 'P', 'E'] };
    let (mut whole, mut unit) = (bytes, 0);
    while whole >= base * base && unit + 1 < units.len() {
        whole /= base;
        unit += 1;
    }
    // tree divides in single precision: 9350 bytes are 9.4k, not 9.3k.
    let v = whole as f32 / base as f32;
    let shown = if v < 10.0 { format!("{v:.1}{}", units[unit]) } else { format!("{v:.0}{}", units[unit]) };
    format!("{shown:>4}")
}

#[cfg(test)]
mod tests {
    use super::size;

    #[test]
    fn sizes_print_as_tree_prints_them() {
        assert_eq!([size(6, None), size(100, Some(false)), size(3000, Some(false))], ["          6", " 100", "2.9K"]);
        assert_eq!(
            [size(9350, Some(true)), size(9999, Some(true)), size(12_000, Some(true))],
            ["9.4k", "10.0k", " 12k"]
        );
    }
}
