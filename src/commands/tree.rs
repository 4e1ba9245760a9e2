//! `tree` answered from the listing, as tree 2.x prints it under a UTF-8 locale whose
//! collation is the code point order: box-drawing lines (a line down is followed by two
//! no-break spaces), names in byte order, and a
//! report that counts the directories named on the command line too (`1 directory`) when
//! it lists something in them.
//!
//! Modelled: `-a`, `-d`, `-f`, `-L N` and `--noreport`, over files and directories of
//! this filesystem; other options are left to just-bash.

use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};

#[derive(Debug, Default)]
struct Flags {
    all: bool,
    dirs_only: bool,
    full_path: bool,
    no_report: bool,
    max_depth: Option<usize>,
    /// `-L 0`: tree stops with an error.
    invalid_level: bool,
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
            f.invalid_level |= f.max_depth == Some(0);
            i += 1;
            continue;
        }
        if a == "--noreport" {
            f.no_report = true;
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
                // tree takes the next argument as the level, wherever the `L` is.
                'L' => {
                    let v = args.get(i).filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
                    let level: usize = v.ok_or_else(no)?.parse().map_err(|_| no())?;
                    f.max_depth = Some(level);
                    f.invalid_level |= level == 0;
                    i += 1;
                }
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
    let mut out = Printed::default();
    let mut n = Counts::default();
    for d in dirs {
        let full = path::resolve(place.cwd, d);
        place.check(&full)?;
        match place.listing.get(&full) {
            None => {
                let shown = if f.full_path { d.trim_end_matches('/') } else { d };
                out.stdout.push_str(&format!("{shown}  [error opening dir]\n"));
                out.exit_code = 2;
            }
            // A file named with a trailing slash is no file at all.
            Some(Node::File(_)) if d.ends_with('/') => {
                out.stdout.push_str(&format!("{d}  [error opening dir]\n"));
            }
            Some(Node::File(_)) => {
                out.stdout.push_str(&format!("{d}  [error opening dir]\n"));
                n.files += 1;
            }
            Some(Node::Dir(_)) => {
                // With -f, tree names the directory without its trailing slashes.
                let trimmed = match d.trim_end_matches('/') {
                    "" => "/",
                    t => t,
                };
                let shown = if f.full_path { trimmed } else { d };
                out.stdout.push_str(&format!("{shown}\n"));
                // tree 2.x counts a directory it was named only when it lists something in it.
                let listed = out.stdout.len();
                entries(&full, shown, "", 0, &f, place, &mut out.stdout, &mut n)?;
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

#[allow(clippy::too_many_arguments)]
fn entries(
    full: &str,
    shown: &str,
    prefix: &str,
    depth: usize,
    f: &Flags,
    place: Place,
    out: &mut String,
    n: &mut Counts,
) -> Result<(), Unsupported> {
    let Some(Node::Dir(d)) = place.listing.get(full) else { return Ok(()) };
    place.check_dir(full)?;
    let children = byte_ordered(&d.children);
    let listed: Vec<&(String, bool)> =
        children.iter().filter(|(name, dir)| (f.all || !name.starts_with('.')) && (*dir || !f.dirs_only)).collect();
    for (i, (name, is_dir)) in listed.iter().enumerate() {
        let child = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
        let child_shown = if shown.ends_with('/') { format!("{shown}{name}") } else { format!("{shown}/{name}") };
        let last = i + 1 == listed.len();
        out.push_str(prefix);
        out.push_str(if last { "└── " } else { "├── " });
        out.push_str(if f.full_path { &child_shown } else { name });
        out.push('\n');
        if *is_dir {
            n.dirs += 1;
            if f.max_depth.is_none_or(|m| depth + 1 < m) {
                let deeper = format!("{prefix}{}", if last { "    " } else { "│\u{a0}\u{a0} " });
                entries(&child, &child_shown, &deeper, depth + 1, f, place, out, n)?;
            }
        } else {
            n.files += 1;
        }
    }
    Ok(())
}
