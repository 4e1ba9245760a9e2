//! `ls` answered from the listing, as GNU coreutils 9 `ls` prints it with its output not a
//! terminal, in a UTF-8 locale whose collation is the code point order (`C.UTF-8`).
//!
//! Modelled: `-a`, `-A`, `-R`, `-r`, `-d`, `-p`, `-F`, `-1`, and `-h` (which changes
//! nothing without `-l`). Names are listed one per line in byte order; with several
//! operands the files come first, then each directory under a `dir:` header, a blank
//! line between. The long format (dates and owners are the host's), sorting by time or
//! size, columns and help are left to just-bash.

use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};

#[derive(Debug, Default)]
struct Flags {
    all: bool,
    almost_all: bool,
    recursive: bool,
    reverse: bool,
    directory: bool,
    /// `-p` or `-F`: a `/` after each directory's name.
    slash: bool,
}

fn flags(args: &[String]) -> Result<(Flags, Vec<&str>), Unsupported> {
    let mut f = Flags::default();
    let mut paths = Vec::new();
    let mut options = true;
    for a in args {
        let flag_chars: Vec<char> = match a.as_str() {
            "--" if options => {
                options = false;
                continue;
            }
            _ if !options => {
                paths.push(a.as_str());
                continue;
            }
            "--all" => vec!['a'],
            "--almost-all" => vec!['A'],
            "--recursive" => vec!['R'],
            "--reverse" => vec!['r'],
            "--directory" => vec!['d'],
            "--human-readable" => vec!['h'],
            "--classify" | "--indicator-style=slash" | "--indicator-style=classify" => vec!['p'],
            a if a.starts_with('-') && a.len() > 1 && !a.starts_with("--") => a[1..].chars().collect(),
            a if a.starts_with('-') && a.len() > 1 => {
                return Err(Unsupported::new("this ls option is left to just-bash"))
            }
            a => {
                paths.push(a);
                continue;
            }
        };
        for c in flag_chars {
            match c {
                'a' => f.all = true,
                'A' => f.almost_all = true,
                'R' => f.recursive = true,
                'r' => f.reverse = true,
                'd' => f.directory = true,
                'p' | 'F' => f.slash = true,
                '1' | 'h' => {}
                _ => return Err(Unsupported::new("this ls option is left to just-bash")),
            }
        }
    }
    Ok((f, paths))
}

/// `ls` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn ls(args: &[String], place: Place) -> Result<Printed, Unsupported> {
    let (f, mut paths) = flags(args)?;
    if paths.is_empty() {
        paths.push(".");
    }
    let mut out = Printed::default();
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    for p in &paths {
        let full = path::resolve(place.cwd, p);
        place.check(&full)?;
        match place.listing.get(&full) {
            None => out.fail(2, format!("ls: cannot access '{p}': No such file or directory\n")),
            Some(Node::Dir(_)) if !f.directory => dirs.push((*p, full)),
            Some(node) => files.push((*p, matches!(node, Node::Dir(_)))),
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    dirs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    if f.reverse {
        files.reverse();
        dirs.reverse();
    }
    for (name, is_dir) in &files {
        push_name(&mut out.stdout, name, *is_dir && f.slash && !name.ends_with('/'));
    }
    let header = paths.len() > 1 || f.recursive;
    for (i, (shown, full)) in dirs.iter().enumerate() {
        if i > 0 || !files.is_empty() {
            out.stdout.push('\n');
        }
        list(shown, full, &f, header, place, &mut out)?;
    }
    Ok(out)
}

fn push_name(out: &mut String, name: &str, slash: bool) {
    out.push_str(name);
    if slash {
        out.push('/');
    }
    out.push('\n');
}

fn list(shown: &str, full: &str, f: &Flags, header: bool, place: Place, out: &mut Printed) -> Result<(), Unsupported> {
    let Some(Node::Dir(d)) = place.listing.get(full) else { return Ok(()) };
    place.check_dir(full)?;
    let hidden = f.all || f.almost_all;
    let children = byte_ordered(&d.children);
    let mut entries: Vec<(&str, bool)> =
        children.iter().filter(|(n, _)| hidden || !n.starts_with('.')).map(|(n, dir)| (n.as_str(), *dir)).collect();
    if f.all {
        // In their place in the byte order (after `-a`, before `.a`).
        entries.extend([(".", true), ("..", true)]);
        entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    }
    if f.reverse {
        entries.reverse();
    }
    if header {
        out.stdout.push_str(&format!("{shown}:\n"));
    }
    for (n, dir) in &entries {
        push_name(&mut out.stdout, n, *dir && f.slash);
    }
    if !f.recursive {
        return Ok(());
    }
    for (name, _) in entries.iter().filter(|(n, dir)| *dir && *n != "." && *n != "..") {
        let sub = if shown.ends_with('/') { format!("{shown}{name}") } else { format!("{shown}/{name}") };
        let sub_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
        out.stdout.push('\n');
        list(&sub, &sub_full, f, true, place, out)?;
    }
    Ok(())
}
