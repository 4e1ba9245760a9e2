//! just-bash's own directory walks, for a narrowed search handed back to it.
//!
//! A command just-bash runs (a form chromafs does not answer, or `nativeCommands: false`)
//! must print what it prints over the whole scope. Narrowed, it gets an explicit list of
//! files instead of a directory, so the list must be exactly what its own walk would have
//! visited — the same order (JavaScript's string order), the same skipped names (its grep
//! skips dotfiles; its rg also skips `node_modules` and friends) and the same spelling
//! (`//a.md` below `/` for its grep, `dir//f` for `dir/`). Every such file is also in the
//! real tools' walk of the same operand, which the narrowing was computed over.

use super::{Target, MAX_DEPTH};
use crate::base::path;
use crate::tree::listing::{Listing, Node};

/// A directory's children in just-bash's order, with the scratch directory in its place
/// at the root (see [`super::children`]).
fn children<'a>(d: &'a [(String, bool)], full: &str, mount: Option<&'a str>) -> Vec<(&'a str, Option<bool>)> {
    let mut out: Vec<(&str, Option<bool>)> = d.iter().map(|(n, is_dir)| (n.as_str(), Some(*is_dir))).collect();
    if let (Some(m), "/") = (mount, full) {
        let name = path::file_name(m);
        let at = out.partition_point(|(n, _)| path::js_cmp(n, name).is_lt());
        out.insert(at, (name, None));
    }
    out
}

/// The files just-bash's recursive grep visits from `operand` (`""`: none, which it
/// reads as `.`), spelled as it spells them.
pub(crate) fn grep_visits(listing: &Listing, mount: Option<&str>, cwd: &str, operand: &str, out: &mut Vec<Target>) {
    fn go(listing: &Listing, mount: Option<&str>, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) {
        if depth >= MAX_DEPTH {
            return;
        }
        match listing.get(full) {
            Some(Node::File(_)) => out.push(Target::File { shown: shown.to_string(), path: full.to_string() }),
            Some(Node::Dir(d)) => {
                for (name, kind) in children(&d.children, full, mount) {
                    if name.starts_with('.') {
                        continue; // the walk skips dotfiles
                    }
                    let child_shown = if shown == "." { name.to_string() } else { format!("{shown}/{name}") };
                    let child_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
                    match kind {
                        Some(_) => go(listing, mount, &child_full, &child_shown, out, depth + 1),
                        None => out.push(Target::Keep(child_shown)),
                    }
                }
            }
            None => {}
        }
    }
    let operand = if operand.is_empty() { "." } else { operand };
    let full = path::resolve(cwd, operand);
    if listing.get(&full).is_none() {
        out.push(Target::Keep(operand.to_string()));
        return;
    }
    go(listing, mount, &full, operand, out, 0);
}

/// Names just-bash's rg always skips.
const RG_COMMON_IGNORED: &[&str] = &[
    "node_modules",
    ".git",
    ".svn",
    ".hg",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    "venv",
    ".venv",
    ".next",
    ".nuxt",
    ".cargo",
];

/// The files just-bash's rg visits from `operand` (`""`: none, read as `.`) with its
/// default walk, spelled as it spells them.
pub(crate) fn rg_visits(listing: &Listing, mount: Option<&str>, cwd: &str, operand: &str, out: &mut Vec<Target>) {
    fn dir(listing: &Listing, mount: Option<&str>, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) {
        if depth >= MAX_DEPTH {
            return;
        }
        let Some(Node::Dir(d)) = listing.get(full) else { return };
        for (name, kind) in children(&d.children, full, mount) {
            if RG_COMMON_IGNORED.contains(&name) || name.starts_with('.') {
                continue;
            }
            let child_shown = match shown {
                "." => name.to_string(),
                "./" => format!("./{name}"),
                s if s.ends_with('/') => format!("{s}{name}"),
                s => format!("{s}/{name}"),
            };
            let child_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
            match kind {
                None => out.push(Target::Keep(child_shown)),
                Some(true) => dir(listing, mount, &child_full, &child_shown, out, depth + 1),
                Some(false) => out.push(Target::File { shown: child_shown, path: child_full }),
            }
        }
    }
    let operand = if operand.is_empty() { "." } else { operand };
    let full = path::resolve(cwd, operand);
    match listing.get(&full) {
        None => out.push(Target::Keep(operand.to_string())),
        Some(Node::File(_)) => out.push(Target::File { shown: operand.to_string(), path: full }),
        Some(Node::Dir(_)) => dir(listing, mount, &full, operand, out, 0),
    }
}
