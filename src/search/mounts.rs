//! A grep across mounts, as one grep per mount.
//!
//! A host may mount several collections as the top-level directories of one shell (`/docs`,
//! `/api`), each a session of its own. A recursive grep that reaches more than one of them
//! is best answered as one grep per mount, each pushed down to its own collection, when
//! their outputs joined are the whole command's output: no context lines (grep puts `--`
//! between groups of different files), and every operand inside a mount, or the root
//! typed `/` or `.`, which stands for each of the root's entries as grep's walk names them
//! (`/docs`, `./docs`). The split is read by the parser the search itself uses, so a host
//! never reads grep's options on its own.

use crate::base::path;
use crate::search::job::{Job, Parsed};

/// One part of a split search: the mount it runs in (its name), and its command line.
#[derive(Debug, PartialEq)]
pub(crate) struct Part {
    pub mount: String,
    pub args: Vec<String>,
}

/// The mounts of a shell: their names (`docs` for `/docs`), the one that holds every path
/// outside them, and the names in the root, in the order grep's walk visits them.
pub(crate) struct Mounts<'a> {
    pub names: &'a [String],
    pub home: &'a str,
    pub root: &'a [String],
}

impl Mounts<'_> {
    /// The mount a normalised path other than `/` is in.
    fn owner(&self, full: &str) -> &str {
        let first = full[1..].split('/').next().unwrap_or_default();
        self.names.iter().find(|n| *n == first).map_or(self.home, String::as_str)
    }
}

/// A grep, egrep or fgrep typed in `cwd` as one grep per mount whose outputs joined are
/// its output, in order; `None` when it cannot be split so, or reaches one mount only.
/// With more than one operand, each part names the files it prints (`-H`, before the
/// command's own options, so that a `-h` of its still wins).
pub(crate) fn split(name: &str, args: &[String], cwd: &str, mounts: &Mounts) -> Option<Vec<Part>> {
    let job = Job::parse(name, args.to_vec(), cwd);
    let Parsed::Grep(g) = &job.parsed else { return None };
    let context = g.output.before.unwrap_or(0) > 0 || g.output.after.unwrap_or(0) > 0;
    if g.usage.is_some() || g.help || g.version || !g.recursive || context || g.file_operands.is_empty() {
        return None;
    }
    let operands: Vec<&str> = g.file_operands.iter().map(|&i| args[i].as_str()).collect();
    let mut parts: Vec<(&str, String)> = Vec::new();
    for &typed in &operands {
        let full = path::resolve(&job.cwd, typed);
        if typed == "-" || (full == "/" && typed != "/" && typed != ".") {
            return None;
        }
        if full != "/" {
            parts.push((mounts.owner(&full), typed.to_string()));
            continue;
        }
        for entry in mounts.root {
            let shown = if typed == "." { format!("./{entry}") } else { format!("/{entry}") };
            parts.push((mounts.owner(&format!("/{entry}")), shown));
        }
    }
    let first = parts.first()?.0;
    if parts.iter().all(|(m, _)| *m == first) {
        return None;
    }
    // The command's own words but its file operands, the pattern last, after a `--`.
    let taken = |i: usize| g.file_operands.contains(&i) || g.pattern_operand == Some(i) || g.double_dash == Some(i);
    let mut common = Vec::with_capacity(args.len() + 2);
    if operands.len() > 1 {
        common.push("-H".to_string());
    }
    for (i, a) in args.iter().enumerate() {
        if !taken(i) {
            common.push(a.clone());
        }
    }
    common.push("--".to_string());
    if let Some(i) = g.pattern_operand {
        common.push(args[i].clone());
    }
    let mut out = Vec::with_capacity(parts.len());
    for (mount, operand) in parts {
        let mut args = common.clone();
        args.push(operand);
        out.push(Part { mount: mount.to_string(), args });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    /// The parts of `line` typed in `cwd` over the mounts `/api` and `/docs` (the home, which
    /// also holds the scratch directory `/tmp`).
    fn parts(name: &str, line: &[&str], cwd: &str) -> Option<Vec<(String, String)>> {
        let (names, root) = (words(&["api", "docs"]), words(&["api", "docs", "tmp"]));
        let mounts = Mounts { names: &names, home: "docs", root: &root };
        let split = split(name, &words(line), cwd, &mounts)?;
        Some(split.into_iter().map(|p| (p.mount, p.args.join(" "))).collect())
    }

    fn expect(list: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(list.iter().map(|(m, a)| (m.to_string(), a.to_string())).collect())
    }

    #[test]
    fn the_root_stands_for_each_of_its_entries_as_grep_names_them() {
        let want =
            expect(&[("api", "-rn -- token /api"), ("docs", "-rn -- token /docs"), ("docs", "-rn -- token /tmp")]);
        assert_eq!(parts("grep", &["-rn", "token", "/"], "/docs"), want);
        let dot = parts("grep", &["-rl", "token", "."], "/").unwrap();
        assert_eq!(
            dot.iter().map(|p| p.1.as_str()).collect::<Vec<_>>(),
            ["-rl -- token ./api", "-rl -- token ./docs", "-rl -- token ./tmp"]
        );
    }

    #[test]
    fn several_operands_name_their_files_before_the_commands_own_options() {
        let want = expect(&[("api", "-H -rln -h -- token /api"), ("docs", "-H -rln -h -- token guides")]);
        assert_eq!(parts("grep", &["-rln", "-h", "token", "/api", "guides"], "/docs"), want);
        let want = expect(&[("api", "-H -r -e a|b -- ../api/-x"), ("docs", "-H -r -e a|b -- /docs")]);
        assert_eq!(parts("egrep", &["-r", "-e", "a|b", "--", "../api/-x", "/docs"], "/docs"), want);
    }

    #[test]
    fn a_grep_that_cannot_be_joined_from_parts_or_stays_in_one_mount_is_not_split() {
        for (name, line, cwd) in [
            ("grep", &["-rC1", "x", "/"][..], "/"),
            ("grep", &["-r", "x", "/docs", "/tmp"], "/"),
            ("grep", &["x", "/api/a.md", "/docs/b.md"], "/"),
            ("grep", &["-r", "x", "//"], "/"),
            ("grep", &["-r", "x", "-", "/api"], "/"),
            ("grep", &["-r", "--bogus", "x", "/"], "/"),
            ("grep", &["-r", "x"], "/"),
            ("rg", &["x", "/"], "/"),
        ] {
            assert_eq!(parts(name, line, cwd), None, "{name} {line:?}");
        }
    }
}
