//! `tree` answered from the listing, exactly as just-bash's `tree` prints it.
//!
//! Modelled: `-a`, `-d`, `-f` and `-L N`, over files and directories of this filesystem.
//! just-bash orders each directory's entries with `localeCompare`, so, as for `ls -R`, a
//! directory holding a name outside lowercase ASCII letters, digits, `-` and `.` is left
//! to just-bash (see [`super::ls`]).

use super::ls::collates_as_sorted;
use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::Node;

#[derive(Debug, Default)]
struct Flags {
    all: bool,
    dirs_only: bool,
    full_path: bool,
    max_depth: Option<usize>,
}

fn flags(args: &[String]) -> Result<(Flags, Vec<&str>), Unsupported> {
    let no = || Unsupported::new("this tree option is left to just-bash");
    let mut f = Flags::default();
    let mut dirs = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "-L" {
            let v = args.get(i).filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit())).ok_or_else(no)?;
            f.max_depth = Some(v.parse().map_err(|_| no())?);
            i += 1;
            continue;
        }
        if a.len() < 2 || !a.starts_with('-') || a.starts_with("--") {
            if a.starts_with("--") {
                return Err(no());
            }
            dirs.push(a);
            continue;
        }
        for c in a[1..].chars() {
            match c {
                'a' => f.all = true,
                'd' => f.dirs_only = true,
                'f' => f.full_path = true,
                _ => return Err(no()),
            }
        }
    }
    Ok((f, dirs))
}

#[derive(Default)]
struct Counts {
    dirs: usize,
    files: usize,
}

/// `tree` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn tree(args: &[String], place: Place) -> Result<Printed, Unsupported> {
    let (f, mut dirs) = flags(args)?;
    if dirs.is_empty() {
        dirs.push(".");
    }
    let mut out = Printed::default();
    let mut n = Counts::default();
    for d in dirs {
        let full = path::resolve(place.cwd, d);
        place.check(&full)?;
        match place.listing.get(&full) {
            None => out.stderr.push_str(&format!("tree: {d}: No such file or directory\n")),
            Some(Node::File(_)) => {
                out.stdout.push_str(&format!("{d}\n"));
                n.files += 1;
            }
            Some(Node::Dir(_)) => {
                out.stdout.push_str(&format!("{d}\n"));
                if f.max_depth.is_none_or(|m| m > 0) {
                    entries(&full, "", 0, &f, place, &mut out.stdout, &mut n)?;
                }
            }
        }
    }
    let plural = |k: usize, one: &str, many: &str| if k == 1 { one.to_string() } else { many.to_string() };
    out.stdout.push_str(&format!("\n{} {}", n.dirs, plural(n.dirs, "directory", "directories")));
    if !f.dirs_only {
        out.stdout.push_str(&format!(", {} {}", n.files, plural(n.files, "file", "files")));
    }
    out.stdout.push('\n');
    out.exit_code = i32::from(!out.stderr.is_empty());
    Ok(out)
}

fn entries(
    full: &str,
    prefix: &str,
    depth: usize,
    f: &Flags,
    place: Place,
    out: &mut String,
    n: &mut Counts,
) -> Result<(), Unsupported> {
    let Some(Node::Dir(d)) = place.listing.get(full) else { return Ok(()) };
    place.check_dir(full)?;
    let shown: Vec<&(String, bool)> =
        d.children.iter().filter(|(name, dir)| (f.all || !name.starts_with('.')) && (*dir || !f.dirs_only)).collect();
    if !shown.iter().all(|(name, _)| collates_as_sorted(name)) {
        return Err(Unsupported::new("names whose collation is the host's: left to just-bash"));
    }
    for (i, (name, is_dir)) in shown.iter().enumerate() {
        let child = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
        let last = i + 1 == shown.len();
        out.push_str(prefix);
        out.push_str(if last { "`-- " } else { "|-- " });
        out.push_str(if f.full_path { &child } else { name });
        out.push('\n');
        if *is_dir {
            n.dirs += 1;
            if f.max_depth.is_none_or(|m| depth + 1 < m) {
                let deeper = format!("{prefix}{}", if last { "    " } else { "|   " });
                entries(&child, &deeper, depth + 1, f, place, out, n)?;
            }
        } else {
            n.files += 1;
        }
    }
    Ok(())
}
