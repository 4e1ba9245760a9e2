//! just-bash's own directory walks, for a narrowed search handed back to it.
//!
//! A command just-bash runs (a form chromafs does not answer, or `nativeCommands: false`)
//! must print what it prints over the whole scope. Narrowed, it gets an explicit list of
//! files instead of a directory, so the list must be exactly what its own walk would have
//! visited — the same order (JavaScript's string order), the same skipped names (its grep
//! skips dotfiles; its rg also skips `node_modules` and friends) and the same spelling
//! (`//a.md` below `/` for its grep, `dir//f` for `dir/`). Every such file is also in the
//! real tools' walk of the same operand, which the narrowing was computed over.

use super::{Found, Scope, Target, MAX_DEPTH};
use crate::base::path;

/// A directory's entries in just-bash's order (JavaScript's string order).
fn js_ordered(children: &[(String, bool)]) -> Vec<(String, bool)> {
    let mut out = children.to_vec();
    crate::base::sort::sort_by(&mut out, |a, b| path::js_cmp(&a.0, &b.0));
    out
}

/// The files just-bash's recursive grep visits from `operand` (`""`: none, which it
/// reads as `.`), spelled as it spells them.
pub(crate) fn grep_visits(scope: Scope, cwd: &str, operand: &str, out: &mut Vec<Target>) {
    fn go(scope: Scope, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) {
        if depth >= MAX_DEPTH {
            return;
        }
        match scope.get(full) {
            Some(Found::File) => out.push(Target::File { shown: shown.to_string(), path: full.to_string() }),
            Some(Found::Dir(children)) => {
                for (name, _) in js_ordered(&children) {
                    if name.starts_with('.') {
                        continue; // the walk skips dotfiles
                    }
                    let child_shown = if shown == "." { name.to_string() } else { format!("{shown}/{name}") };
                    let child_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
                    go(scope, &child_full, &child_shown, out, depth + 1);
                }
            }
            None => {}
        }
    }
    let operand = if operand.is_empty() { "." } else { operand };
    let full = path::resolve(cwd, operand);
    match scope.get(&full) {
        // A file named as a directory is the command's to report.
        Some(Found::File) if path::names_dir(operand) => out.push(Target::Keep(operand.to_string())),
        None => out.push(Target::Keep(operand.to_string())),
        Some(_) => go(scope, &full, operand, out, 0),
    }
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
pub(crate) fn rg_visits(scope: Scope, cwd: &str, operand: &str, out: &mut Vec<Target>) {
    fn dir(scope: Scope, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) {
        if depth >= MAX_DEPTH {
            return;
        }
        let Some(Found::Dir(children)) = scope.get(full) else { return };
        for (name, is_dir) in js_ordered(&children) {
            let name = name.as_str();
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
            if is_dir {
                dir(scope, &child_full, &child_shown, out, depth + 1);
            } else {
                out.push(Target::File { shown: child_shown, path: child_full });
            }
        }
    }
    let operand = if operand.is_empty() { "." } else { operand };
    let full = path::resolve(cwd, operand);
    match scope.get(&full) {
        None => out.push(Target::Keep(operand.to_string())),
        Some(Found::File) if path::names_dir(operand) => out.push(Target::Keep(operand.to_string())),
        Some(Found::File) => out.push(Target::File { shown: operand.to_string(), path: full }),
        Some(Found::Dir(_)) => dir(scope, &full, operand, out, 0),
    }
}
