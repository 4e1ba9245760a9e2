//! Which files rg's walk reads: its globs (`-g`, `--iglob`) and file types (`-t`, `-T`),
//! and hidden names, decided for each entry as ripgrep decides it.

use crate::base::glob::Glob;
use crate::base::texts::{self, Text};
use crate::commands::Unsupported;
use crate::search::args::RgOutput;

/// ripgrep 15's file types (`rg --type-list`): a name, `: `, its globs joined by `, `.
pub(super) const TYPE_LIST: Text = texts::RG_TYPES;

/// The globs of a file type, or `None` when ripgrep does not know it.
fn type_globs(name: &str) -> Option<Vec<Glob>> {
    let list = texts::get(TYPE_LIST);
    let line = list.lines().find(|l| l.split_once(": ").is_some_and(|(n, _)| n == name))?;
    line.split_once(": ")?.1.split(", ").map(|g| Glob::rg(g, false).ok()).collect()
}

/// An rg glob (`-g`, `--iglob`), read as ripgrep reads it: a line of a gitignore file
/// whose meaning is inverted (a match selects the file; `!` excludes it). A glob without
/// a `/` (a trailing one aside) matches a name at any depth; one with a `/` matches the
/// path from the working directory (a leading `/` only anchors it); a trailing `/`
/// matches directories only.
struct RgGlob {
    glob: Glob,
    negated: bool,
    anchored: bool,
    dir_only: bool,
}

impl RgGlob {
    fn new(glob: &str, ignore_case: bool) -> Result<RgGlob, Unsupported> {
        let (negated, glob) = glob.strip_prefix('!').map_or((false, glob), |g| (true, g));
        let dir_only = glob.len() > 1 && glob.ends_with('/');
        let glob = if dir_only { &glob[..glob.len() - 1] } else { glob };
        let anchored = glob.contains('/');
        let glob = glob.strip_prefix('/').unwrap_or(glob);
        Ok(RgGlob { glob: Glob::rg(glob, ignore_case)?, negated, anchored, dir_only })
    }

    /// Whether it matches the path `rel` (from the working directory), or the case
    /// folding on a name beyond ASCII that is not modelled.
    fn is_match(&self, rel: &str, is_dir: bool) -> Result<bool, Unsupported> {
        if self.dir_only && !is_dir {
            return Ok(false);
        }
        let target = if self.anchored { rel } else { rel.rsplit('/').next().unwrap_or(rel) };
        self.glob.matches(target).ok_or_else(|| Unsupported::new("a case-insensitive glob on a name beyond ASCII"))
    }
}

/// Which files and directories rg's walk reads, as ripgrep decides it for each entry it
/// finds: its globs first (the last one that matches decides; with a glob that selects,
/// a file none matches is left out), then its file types, then hidden names — a hidden
/// file a glob or a type selects is read.
pub(super) struct Filters {
    globs: Vec<RgGlob>,
    types: Vec<Vec<Glob>>,
    types_not: Vec<Vec<Glob>>,
    hidden: bool,
}

impl Filters {
    pub(super) fn new(o: &RgOutput) -> Result<Filters, Unsupported> {
        let table = |names: &[String]| -> Result<Vec<Vec<Glob>>, Unsupported> {
            names
                .iter()
                .map(|n| type_globs(n).ok_or_else(|| Unsupported::new(format!("the file type {n:?} is not ripgrep's"))))
                .collect()
        };
        let globs = o
            .globs
            .iter()
            .map(|(g, ci)| RgGlob::new(g, *ci || o.glob_case_insensitive))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Filters { globs, types: table(&o.types)?, types_not: table(&o.types_not)?, hidden: o.hidden })
    }

    /// What the globs say of an entry: select (`Some(true)`), leave out, or nothing.
    fn by_globs(&self, rel: &str, is_dir: bool) -> Result<Option<bool>, Unsupported> {
        let mut last = None;
        for g in &self.globs {
            if g.is_match(rel, is_dir)? {
                last = Some(!g.negated);
            }
        }
        if last.is_none() && !is_dir && self.globs.iter().any(|g| !g.negated) {
            return Ok(Some(false));
        }
        Ok(last)
    }

    /// What the file types say of a file named `name`.
    fn by_types(&self, name: &str) -> Option<bool> {
        let typed = |types: &[Vec<Glob>]| types.iter().flatten().any(|g| g.matches(name).unwrap_or(false));
        if typed(&self.types_not) {
            return Some(false);
        }
        if self.types.is_empty() {
            return None;
        }
        Some(typed(&self.types))
    }

    /// Whether the walk reads the file `shown` found from the operand `op` (the
    /// directories between them included), the working directory being `cwd`.
    pub(super) fn selects(&self, op: &str, shown: &str, cwd: &str) -> Result<bool, Unsupported> {
        let rel = |p: &str| -> String {
            let from_cwd =
                if cwd == "/" { p.strip_prefix('/') } else { p.strip_prefix(cwd).and_then(|r| r.strip_prefix('/')) };
            from_cwd.or_else(|| p.strip_prefix("./")).unwrap_or(p).to_string()
        };
        let hidden = |p: &str| !self.hidden && p.rsplit('/').next().is_some_and(|n| n.starts_with('.'));
        // The directories below the operand, each of which the walk entered.
        let below = shown.strip_prefix(op).unwrap_or(shown);
        let mut dir = shown[..shown.len() - below.len()].to_string();
        let parts: Vec<&str> = below.split('/').filter(|s| !s.is_empty()).collect();
        for part in &parts[..parts.len().saturating_sub(1)] {
            if !dir.is_empty() && !dir.ends_with('/') {
                dir.push('/');
            }
            dir.push_str(part);
            match self.by_globs(&rel(&dir), true)? {
                Some(false) => return Ok(false),
                None if hidden(&dir) => return Ok(false),
                _ => {}
            }
        }
        let name = shown.rsplit('/').next().unwrap_or(shown);
        Ok(match self.by_globs(&rel(shown), false)? {
            Some(selected) => selected,
            None => match self.by_types(name) {
                Some(selected) => selected,
                None => !hidden(shown),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters(globs: &[&str]) -> Filters {
        let o = RgOutput { globs: globs.iter().map(|g| (g.to_string(), false)).collect(), ..RgOutput::default() };
        Filters::new(&o).unwrap()
    }

    #[test]
    fn globs_are_gitignore_lines_from_the_working_directory() {
        let f = |globs: &[&str], op: &str, shown: &str, cwd: &str| filters(globs).selects(op, shown, cwd).unwrap();
        assert!(f(&["*.md"], "/", "/docs/a.md", "/") && !f(&["*.md"], "/", "/docs/a.mdx", "/"));
        assert!(f(&["docs/*"], "/", "/docs/a.md", "/") && !f(&["docs/*"], "/", "/docs/sub/a.md", "/"));
        assert!(f(&["docs/**"], ".", "./docs/sub/a.md", "/"));
        assert!(!f(&["docs/**"], "/", "/docs/a.md", "/docs"), "anchored at the working directory");
        assert!(f(&["/a.md"], "/", "/docs/a.md", "/docs") && !f(&["/a.md"], "/", "/a/b/a.md", "/a"));
        assert!(!f(&["!*.md"], "/", "/a.md", "/") && f(&["!*.md"], "/", "/a.txt", "/"));
        assert!(f(&["!*.md", "a.md"], "/", "/a.md", "/"), "the last glob that matches decides");
        assert!(f(&["*.md"], "/", "/.hidden.md", "/"), "a glob selects a hidden file");
        assert!(!f(&["*.md"], "/", "/.dot/a.md", "/"), "not one in a hidden directory");
        assert!(!f(&["!/docs/"], "/", "/docs/a.md", "/"), "a directory left out is not entered");
        assert!(!f(&[], "/", "/.hidden.md", "/") && f(&[], "/", "/a.md", "/"));
        assert!(RgGlob::new("[a", false).is_err() && RgGlob::new("[\\]]", false).is_err());
    }

    #[test]
    fn file_types_are_ripgreps() {
        let md = type_globs("md").unwrap();
        for name in ["a.md", "a.mdx", "a.mdwn", "a.mkdn", "a.markdown"] {
            assert!(md.iter().any(|g| g.matches(name) == Some(true)), "{name}");
        }
        assert!(!md.iter().any(|g| g.matches("a.MD") == Some(true)), "types are case-sensitive");
        assert!(type_globs("json").unwrap().iter().any(|g| g.matches("composer.lock") == Some(true)));
        assert!(type_globs("nosuch").is_none());
    }
}
