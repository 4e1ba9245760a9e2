//! What to do with one search command line: run it as typed, load what it reads in bulk
//! first, or narrow it to the pages Chroma says may match.
//!
//! Planning is pure: it reads the command line and the listing, nothing else. A plan is
//! - [`Plan::Delegate`]: the command reads no files of ours (stdin, `--help`, a usage
//!   error), so it runs untouched;
//! - [`Plan::Prefetch`]: no filter can be a guaranteed superset (`-v`, `-L`, `-c`,
//!   `--exclude-dir`, an unsupported pattern…), so the files it will read are loaded in
//!   bulk and it runs as typed; `why` says what stood in the way;
//! - [`Plan::ReadPatternFiles`]: `-f` files must be read before the patterns are known;
//! - [`Plan::Narrow`]: a recursive search whose files are named one by one, in the order
//!   and spelling just-bash's walk would use, so that only the pages that may match are
//!   read and the output is unchanged.

use crate::base::path;
use crate::commands::walk::{Found, Scope};
use crate::search::args::GrepArgs;
use crate::search::job::{Job, Parsed};
use crate::search::native::pattern_files;
use crate::search::pattern::engine::Tool;
use crate::search::pattern::filter::Chunking;
use crate::search::pattern::matcher::{Matcher, Query};
use crate::search::pattern::perl::{self, widen};
use crate::search::pattern::rewrite::Dialect;
use crate::search::walk::{grep_read_set, has_glob, rg_read_set, Target};
use crate::tree::listing::Listing;
use std::collections::HashSet;

/// What planning looks at besides the command line.
#[derive(Clone, Copy)]
pub(crate) struct Context<'a> {
    pub listing: &'a Listing,
    /// The session's scratch directory, which the listing does not hold.
    pub scratch: Option<&'a crate::fs::scratch::Dirs>,
    pub chunking: Chunking,
}

/// What to do with one search command.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Plan {
    Delegate,
    /// Load these (normalised) paths, then run the command as typed.
    Prefetch {
        files: Vec<String>,
        why: String,
    },
    /// Pattern files to read first (paths as given), then plan again with their contents.
    ReadPatternFiles(Vec<String>),
    Narrow(Narrowing),
    /// Not run at all: the reason, for the command's error line.
    Refuse(String),
}

/// The longest pattern a search command accepts. just-bash's matchers take time that
/// grows with the square of a pattern's length (8 KiB: about 2 s; 100 KiB: minutes, with
/// the event loop blocked), so a longer one is refused at once rather than hanging.
pub(crate) const MAX_PATTERN_BYTES: usize = 8192;

fn too_long<'a>(mut patterns: impl Iterator<Item = &'a String>) -> Option<Plan> {
    let long = patterns.find(|p| p.len() > MAX_PATTERN_BYTES)?;
    Some(Plan::Refuse(format!(
        "a pattern of {} bytes is longer than the {MAX_PATTERN_BYTES} this shell searches with",
        long.len()
    )))
}

/// Why a command line must not run at all, if it must not.
pub(crate) fn refusal(args: &[String]) -> Option<String> {
    match too_long(args.iter()) {
        Some(Plan::Refuse(why)) => Some(why),
        _ => None,
    }
}

/// A recursive search to run over fewer files.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Narrowing {
    pub targets: Vec<Target>,
    /// The coarse filter and fine check, built once while planning.
    pub matcher: Matcher,
    /// rg prints bare lines for a single explicit file: when the original command did
    /// not name one, a narrowed list of one gets `/dev/null` beside it.
    pub keep_many: bool,
}

/// Why grep's flags need every file in scope, if they do.
fn grep_needs_every_file(g: &GrepArgs) -> Option<&'static str> {
    Some(if g.invert {
        "-v prints the lines that do not match"
    } else if g.count {
        "-c prints a count for every file"
    } else if g.files_without_match {
        "-L lists the files without a match"
    } else if !g.output.exclude_dir.is_empty() {
        "--exclude-dir changes the walk"
    } else if g.output.null_data {
        "-z: a line may span newlines, which the coarse filter and the fine check do not model"
    } else if !g.recursive {
        "not recursive: the named files are read"
    } else {
        return None;
    })
}

/// Plans a search command: grep's or rg's plan. `pattern_files` holds the contents of
/// grep's `-f` files once they have been read (see [`Plan::ReadPatternFiles`]).
pub(crate) fn plan(job: &Job, cx: Context, stdin_empty: bool, pattern_files: Option<&[String]>) -> Plan {
    match &job.parsed {
        Parsed::Grep(g) => plan_grep(job, g, cx, pattern_files),
        Parsed::Rg(_) => plan_rg(job, cx, stdin_empty),
    }
}

fn plan_grep(job: &Job, g: &GrepArgs, cx: Context, pattern_files: Option<&[String]>) -> Plan {
    let args = &job.args;
    if let Some(refused) = too_long(args.iter()) {
        return refused;
    }
    let operands = job.operands();
    if g.help || g.version || g.usage.is_some() || operands.is_empty() {
        return Plan::Delegate;
    }
    let prefetch =
        |why: &str| Plan::Prefetch { files: grep_read_set(cx.listing, &job.cwd, &operands, g), why: why.to_string() };
    let mut patterns = job.patterns.clone();
    if !g.pattern_files.is_empty() {
        match pattern_files {
            None if g.pattern_files.iter().all(|f| !f.is_empty() && f != "-") => {
                return Plan::ReadPatternFiles(g.pattern_files.clone())
            }
            None => return prefetch("patterns come from stdin"),
            Some(contents) => contents.iter().for_each(|c| patterns.extend(pattern_files::split(c, Tool::Gnu))),
        }
    }
    if let Some(refused) = too_long(patterns.iter()) {
        return refused;
    }
    if patterns.is_empty() && !g.invert && !g.files_without_match {
        return Plan::Delegate; // selects nothing and reads nothing
    }
    let distinct: HashSet<&String> = patterns.iter().collect();
    if g.perl && !g.fixed && !g.extended && distinct.len() > 1 {
        return Plan::Delegate; // "-P supports only a single pattern"
    }
    if let Some(why) = grep_needs_every_file(g) {
        return prefetch(why);
    }
    if operands.iter().any(|o| *o == "-" || has_glob(o)) {
        return prefetch("an operand is stdin or a glob grep expands itself");
    }
    let query =
        Query { patterns: &patterns, dialect: g.dialect(), ignore_case: g.ignore_case, line_regexp: g.line_regexp };
    let matcher = match Matcher::new(&query, cx.chunking) {
        Ok(m) => m,
        Err(why) => match widened(&query, cx.chunking) {
            Some(m) => m,
            None => return prefetch(&why.0),
        },
    };
    let targets = job.walked(cx.listing, cx.scratch).iter().flat_map(|w| w.targets.iter().cloned()).collect();
    Plan::Narrow(Narrowing { targets, matcher, keep_many: false })
}

/// The matcher of a `-P` pattern beyond the subset, read [`widen`]ed: it keeps every page
/// the pattern could match (the backtracking engine has the last word on the lines).
fn widened(q: &Query, chunking: Chunking) -> Option<Matcher> {
    if q.dialect != Dialect::Perl || perl::installed().is_none() {
        return None;
    }
    let patterns: Vec<String> = q.patterns.iter().map(|p| widen(p)).collect::<Option<_>>()?;
    Matcher::new(&Query { patterns: &patterns, ..*q }, chunking).ok()
}

/// Plans an `rg` command. `stdin_empty` matters: with no path, rg searches a non-empty stdin.
fn plan_rg(job: &Job, cx: Context, stdin_empty: bool) -> Plan {
    let (args, Parsed::Rg(r)) = (&job.args, &job.parsed) else { return Plan::Delegate };
    if let Some(refused) = too_long(args.iter()) {
        return refused;
    }
    if r.invalid || r.files_only || job.patterns.is_empty() || (r.paths.is_empty() && !stdin_empty) {
        return Plan::Delegate;
    }
    let operands = job.operands();
    let prefetch = |why: String| Plan::Prefetch { files: rg_read_set(cx.listing, &job.cwd, &operands), why };
    if !r.pattern_files.is_empty() && !r.patterns_read {
        return prefetch("rg -f: the pattern files could not be read first".into());
    }
    if let Some(flag) = &r.unsafe_flag {
        return prefetch(format!("rg {flag} is not narrowed"));
    }
    if r.spans_lines(&job.patterns) {
        return prefetch("rg -U with a pattern that can match a line break".into());
    }
    if (Scope { listing: cx.listing, scratch: cx.scratch }).has_ignore_file() {
        return prefetch("ignore files change rg's walk".into());
    }
    if operands.contains(&"-") {
        return prefetch("an operand is stdin".into());
    }
    let dialect = if r.fixed { Dialect::Fixed } else { Dialect::Perl };
    let query =
        Query { patterns: &job.patterns, dialect, ignore_case: r.filter_ignores_case(), line_regexp: r.line_regexp };
    let matcher = match Matcher::new(&query, cx.chunking) {
        Ok(m) => m,
        Err(why) => return prefetch(why.0),
    };
    // With no unsafe flag, rg's walk is its default one (hidden files and ignored names
    // skipped, no depth limit).
    let walked = job.walked(cx.listing, cx.scratch);
    if walked.iter().any(|w| !w.clean) {
        return prefetch("a file name would read as an option".into());
    }
    let targets = walked.iter().flat_map(|w| w.targets.iter().cloned()).collect();
    let scope = Scope { listing: cx.listing, scratch: cx.scratch };
    let single_explicit_file =
        operands.len() == 1 && matches!(scope.get(&path::resolve(&job.cwd, operands[0])), Some(Found::File));
    Plan::Narrow(Narrowing { targets, matcher, keep_many: !single_explicit_file })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::access::Groups;
    use crate::tree::decode::PathTree;

    fn listing() -> Listing {
        let json = r#"{"a.md":{"isPublic":true},"docs/b.md":{"isPublic":true},"docs/.hidden.md":{"isPublic":true},
            "docs/sub/c.md":{"isPublic":true},"secret.md":{"isPublic":false}}"#;
        Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap()
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn planned(name: &str, args: &[&str], cwd: &str, stdin_empty: bool, pattern_files: Option<&[String]>) -> Plan {
        let cx = Context { listing: &listing(), scratch: None, chunking: Chunking::LineAligned };
        plan(&Job::parse(name, s(args), cwd), cx, stdin_empty, pattern_files)
    }

    /// A narrowed command line before its files: the arguments without the operands.
    fn job(name: &str, args: &[&str]) -> Vec<String> {
        Job::parse(name, s(args), "/").without_operands()
    }

    fn grep(args: &[&str], cwd: &str) -> Plan {
        planned("grep", args, cwd, true, None)
    }

    fn rg(args: &[&str], cwd: &str, stdin_empty: bool) -> Plan {
        planned("rg", args, cwd, stdin_empty, None)
    }

    fn files(p: &Plan) -> Vec<String> {
        match p {
            Plan::Narrow(n) => n
                .targets
                .iter()
                .map(|t| match t {
                    Target::File { shown, .. } => shown.clone(),
                    Target::Keep(k) => format!("keep:{k}"),
                    Target::NotDir(k) => format!("notdir:{k}"),
                })
                .collect(),
            other => panic!("not narrowed: {other:?}"),
        }
    }

    fn prefetch(files: &[&str], why: &str) -> Plan {
        Plan::Prefetch { files: s(files), why: why.into() }
    }

    #[test]
    fn recursive_searches_are_narrowed_over_the_walk() {
        assert_eq!(
            files(&grep(&["-rn", "foo", "/"], "/")),
            ["/a.md", "/docs/.hidden.md", "/docs/b.md", "/docs/sub/c.md"]
        );
        assert_eq!(
            files(&grep(&["-r", "foo", "docs/", "nope", "secret.md", "a.md"], "/")),
            ["docs/.hidden.md", "docs/b.md", "docs/sub/c.md", "keep:nope", "keep:secret.md", "a.md"]
        );
        assert_eq!(files(&grep(&["-r", "foo"], "/docs")), [".hidden.md", "b.md", "sub/c.md"], "no operand: the cwd");
    }

    #[test]
    fn narrowed_arguments_keep_everything_but_the_operands() {
        match grep(&["-r", "foo", "/docs", "-n"], "/") {
            Plan::Narrow(_) => assert_eq!(job("grep", &["-r", "foo", "/docs", "-n"]), ["-r", "foo", "-n", "--"]),
            p => panic!("{p:?}"),
        }
        match planned("egrep", &["-r", "-e", "a|b", "--", "/docs"], "/", true, None) {
            Plan::Narrow(_) => assert_eq!(job("egrep", &["-r", "-e", "a|b", "--", "/docs"]), ["-r", "-e", "a|b", "--"]),
            p => panic!("{p:?}"),
        }
    }

    #[test]
    fn unsafe_searches_prefetch_what_they_read_and_say_why() {
        let docs = ["/docs/.hidden.md", "/docs/b.md", "/docs/sub/c.md"];
        assert_eq!(grep(&["-rv", "foo", "/docs"], "/"), prefetch(&docs, "-v prints the lines that do not match"));
        assert_eq!(grep(&["-rc", "foo", "/docs"], "/"), prefetch(&docs, "-c prints a count for every file"));
        assert_eq!(grep(&["-rL", "foo", "/docs"], "/"), prefetch(&docs, "-L lists the files without a match"));
        assert_eq!(
            grep(&["foo", "a.md", "docs"], "/"),
            prefetch(&["/a.md"], "not recursive: the named files are read")
        );
        assert_eq!(
            grep(&["-r", "--exclude-dir=sub", "foo", "/docs"], "/"),
            prefetch(&docs, "--exclude-dir changes the walk")
        );
        assert_eq!(
            grep(&["-rE", "(?=x)", "/a.md"], "/"),
            prefetch(&["/a.md"], "a repetition at the start of an expression in a GNU pattern is left to just-bash")
        );
        assert_eq!(
            grep(&["-r", "x", "/docs/*.md"], "/"),
            prefetch(&docs, "an operand is stdin or a glob grep expands itself")
        );
    }

    #[test]
    fn commands_that_read_no_files_are_left_alone() {
        for args in [&["foo"][..], &["--help"], &["-k", "foo", "/"], &["-r"], &["-e"], &["-rP", "a\nb", "/"]] {
            assert_eq!(grep(args, "/"), Plan::Delegate, "{args:?}");
        }
    }

    #[test]
    fn pattern_files_are_read_first() {
        let args = ["-r", "-f", "/pats.txt", "/docs"];
        assert_eq!(grep(&args, "/"), Plan::ReadPatternFiles(s(&["/pats.txt"])));
        match planned("grep", &args, "/", true, Some(&s(&["a\nb\n"]))) {
            Plan::Narrow(n) => {
                assert_eq!(n.matcher.filter, serde_json::json!({"$or": [{"$contains": "a"}, {"$contains": "b"}]}))
            }
            p => panic!("{p:?}"),
        }
        assert!(
            matches!(grep(&["-r", "-f", "-", "/docs"], "/"), Plan::Prefetch { why, .. } if why == "patterns come from stdin")
        );
    }

    #[test]
    fn rg_is_narrowed_over_its_own_walk() {
        assert_eq!(files(&rg(&["-n", "foo", "/"], "/", true)), ["/a.md", "/docs/b.md", "/docs/sub/c.md"]);
        assert_eq!(files(&rg(&["foo"], "/docs", true)), ["b.md", "sub/c.md"]);
        assert_eq!(
            files(&rg(&["foo", "docs", "nope", "a.md"], "/", true)),
            ["docs/b.md", "docs/sub/c.md", "keep:nope", "a.md"]
        );
        match rg(&["-e", "x", "-g", "*.md", "docs", "-n"], "/", true) {
            Plan::Narrow(n) => {
                assert_eq!(job("rg", &["-e", "x", "-g", "*.md", "docs", "-n"]), ["-e", "x", "-g", "*.md", "-n"]);
                assert!(n.keep_many);
            }
            p => panic!("{p:?}"),
        }
        assert!(matches!(rg(&["x", "a.md"], "/", true), Plan::Narrow(n) if !n.keep_many));
    }

    #[test]
    fn rg_fallbacks() {
        assert_eq!(rg(&["-v", "foo", "docs/sub"], "/", true), prefetch(&["/docs/sub/c.md"], "rg -v is not narrowed"));
        assert_eq!(
            rg(&["--hidden", "foo"], "/docs", true),
            prefetch(&["/docs/.hidden.md", "/docs/b.md", "/docs/sub/c.md"], "rg --hidden is not narrowed")
        );
        assert_eq!(rg(&["foo"], "/", false), Plan::Delegate, "rg reads a non-empty stdin");
        assert_eq!(rg(&["--files"], "/", true), Plan::Delegate);
        assert_eq!(rg(&["-P", "foo", "/"], "/", true), Plan::Delegate);
    }
}
