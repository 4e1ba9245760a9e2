//! `ls` answered from the listing, exactly as just-bash's `ls` prints it.
//!
//! just-bash's `ls` costs a `stat` and a `readdir` per directory through the filesystem
//! interface; the listing already holds every name, sorted as JavaScript sorts them. The
//! modelled flags are `-a`, `-A`, `-R`, `-r`, `-d`, `-1`, and `-h`/`-t` (which change
//! nothing without `-l`). The long format depends on the host's clock and time zone, and
//! `-S`/`-F` on metadata not modelled: those, globs and help go to just-bash.
//!
//! One quirk shapes `-R`: just-bash orders subdirectories with `localeCompare`, the
//! host's collation, and names with `sort()`. Both agree on names of lowercase ASCII
//! letters, digits, `-` and `.`; a directory with another subdirectory name is left to
//! just-bash.

use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::Node;

#[derive(Debug, Default)]
struct Flags {
    all: bool,
    almost_all: bool,
    recursive: bool,
    reverse: bool,
    directory: bool,
}

fn flags(args: &[String]) -> Result<(Flags, Vec<&str>), Unsupported> {
    let mut f = Flags::default();
    let mut paths = Vec::new();
    for a in args {
        let flag_chars: Vec<char> = match a.as_str() {
            "--all" => vec!['a'],
            "--almost-all" => vec!['A'],
            "--recursive" => vec!['R'],
            "--reverse" => vec!['r'],
            "--directory" => vec!['d'],
            "--human-readable" => vec!['h'],
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
                '1' | 'h' | 't' => {}
                _ => return Err(Unsupported::new("this ls option is left to just-bash")),
            }
        }
    }
    Ok((f, paths))
}

/// Whether `localeCompare` and `sort()` order these names alike (see the module doc).
pub(super) fn collates_as_sorted(name: &str) -> bool {
    name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
}

/// `ls` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn ls(args: &[String], place: Place) -> Result<Printed, Unsupported> {
    let (f, mut paths) = flags(args)?;
    if paths.is_empty() {
        paths.push(".");
    }
    let mut out = Printed::default();
    for (i, p) in paths.iter().enumerate() {
        if i > 0 && !out.stdout.is_empty() && !out.stdout.ends_with("\n\n") {
            out.stdout.push('\n');
        }
        if p.contains(['*', '?', '[']) {
            return Err(Unsupported::new("ls expands globs itself: left to just-bash"));
        }
        let full = path::resolve(place.cwd, p);
        place.check(&full)?;
        if f.directory {
            match place.listing.get(&full) {
                Some(_) => out.stdout.push_str(&format!("{p}\n")),
                None => out.fail(2, format!("ls: cannot access '{p}': No such file or directory\n")),
            }
            continue;
        }
        list(p, &full, &f, paths.len() > 1, place, &mut out)?;
    }
    Ok(out)
}

fn list(shown: &str, full: &str, f: &Flags, header: bool, place: Place, out: &mut Printed) -> Result<(), Unsupported> {
    let d = match place.listing.get(full) {
        None => {
            out.fail(2, format!("ls: {shown}: No such file or directory\n"));
            return Ok(());
        }
        Some(Node::File(_)) => {
            out.stdout.push_str(&format!("{shown}\n"));
            return Ok(());
        }
        Some(Node::Dir(d)) => d,
    };
    place.check_dir(full)?;
    let hidden = f.all || f.almost_all;
    let mut entries: Vec<(&str, bool)> =
        d.children.iter().filter(|(n, _)| hidden || !n.starts_with('.')).map(|(n, dir)| (n.as_str(), *dir)).collect();
    if f.reverse {
        entries.reverse();
    }
    if f.recursive || header {
        out.stdout.push_str(&format!("{shown}:\n"));
    }
    let dots: &[&str] = if f.all {
        if f.reverse {
            &["..", "."]
        } else {
            &[".", ".."]
        }
    } else {
        &[]
    };
    let names: Vec<&str> = if f.reverse {
        entries.iter().map(|(n, _)| *n).chain(dots.iter().copied()).collect()
    } else {
        dots.iter().copied().chain(entries.iter().map(|(n, _)| *n)).collect()
    };
    for n in &names {
        out.stdout.push_str(n);
        out.stdout.push('\n');
    }
    if !f.recursive {
        return Ok(());
    }
    let dirs: Vec<&str> = entries.iter().filter(|(_, dir)| *dir).map(|(n, _)| *n).collect();
    if !dirs.iter().all(|n| collates_as_sorted(n)) {
        return Err(Unsupported::new("directory names whose collation is the host's: left to just-bash"));
    }
    for name in dirs {
        let sub = if shown == "." { format!("./{name}") } else { format!("{shown}/{name}") };
        let sub_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
        out.stdout.push('\n');
        list(&sub, &sub_full, f, false, place, out)?;
    }
    Ok(())
}
