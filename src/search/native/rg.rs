//! rg answered in Rust, as ripgrep 15 answers it with its output not a terminal (and one
//! thread, so that files come in the walk's order).
//!
//! What is rg's own is modelled here: its command line (case-sensitive unless `-i`, or
//! `-S` with a lower-case pattern; the last of `-i`/`-s`/`-S` wins), its pattern (several
//! joined as `(?:a)|(?:b)`), its walk (hidden names skipped, `--max-depth`), `-g`/`-t`
//! filters for the files the walk finds (a file named on the command line is always
//! searched), walked files with a NUL near the start skipped, no line numbers without
//! `-n`, a name before each line unless one file is named, names printed once with
//! `--heading` and files then separated by an empty line, counts of zero left out, and
//! its messages. Ignore files, `--replace`, `--json`, columns, byte offsets, multiline,
//! standard input and the other forms are [`Unsupported`] and run in just-bash.

use super::early_stop::EarlyStop;
use super::page::read_page;
use super::printer::{self, Groups, Options};
use crate::base::glob::Glob;
use crate::base::path;
use crate::commands::Unsupported;
use crate::commands::{Place, Printed};
use crate::fs::DEV_NULL;
use crate::pages::store::lru::CachedPage;
use crate::search::args::RgOutput;
use crate::search::job::{Job, Parsed, Walked};
use crate::search::pattern::engine::{rg_pattern, Engine, Flags, Tool};
use crate::search::view::SessionView;
use crate::search::walk::Target;
use crate::tree::listing::Node;
use std::collections::HashSet;

/// How far into a file ripgrep has read when it decides whether a file is binary: a
/// NUL further on may come after lines it has printed (not modelled).
const BINARY_SAMPLE: usize = 64 * 1024;

/// ripgrep 15's file types (`rg --type-list`): a name, `: `, its globs joined by `, `.
const TYPE_LIST: &str = include_str!("rg-types.txt");

/// The globs of a file type, or `None` when ripgrep does not know it.
fn type_globs(name: &str) -> Option<Vec<Glob>> {
    let line = TYPE_LIST.lines().find(|l| l.split_once(": ").is_some_and(|(n, _)| n == name))?;
    line.split_once(": ")?.1.split(", ").map(|g| Glob::rg(g, false).ok()).collect()
}

/// An rg command that can be answered here.
#[derive(Debug)]
pub(crate) struct NativeRg {
    engine: Engine,
    o: RgOutput,
    /// Every file searched, in order.
    files: Vec<RgFile>,
    /// Operands that do not exist, as typed.
    missing: Vec<String>,
    show_filename: bool,
    line_numbers: bool,
    /// With no path, the walk of the working directory found nothing to search.
    nothing_searched: bool,
}

/// An rg glob (`-g`, `--iglob`): a leading `!` negates it, and a negated glob that
/// starts with `/` is tested on the path only ([`Glob::rg`] reads the rest).
struct RgGlob {
    glob: Glob,
    negated: bool,
    rooted: bool,
}

impl RgGlob {
    fn new(glob: &str, ignore_case: bool) -> Result<RgGlob, Unsupported> {
        let (negated, glob) = glob.strip_prefix('!').map_or((false, glob), |g| (true, g));
        let rooted = negated && glob.starts_with('/');
        let glob = if rooted { &glob[1..] } else { glob };
        Ok(RgGlob { glob: Glob::rg(glob, ignore_case)?, negated, rooted })
    }

    /// Whether it matches `s`, or the case folding on a name beyond ASCII that only
    /// just-bash can say.
    fn is_match(&self, s: &str) -> Result<bool, Unsupported> {
        self.glob.matches(s).ok_or_else(|| Unsupported::new("a case-insensitive glob on a name beyond ASCII"))
    }
}

/// Whether rg's `-t`/`-T`/`-g`/`--iglob` let it read a file its walk found, spelled `shown`
/// (a file named on the command line is read whatever they say).
struct Filters {
    types: Vec<Vec<Glob>>,
    types_not: Vec<Vec<Glob>>,
    /// Each group must pass on its own: `-g` globs, then `--iglob` globs.
    groups: Vec<Vec<RgGlob>>,
}

impl Filters {
    fn new(o: &RgOutput) -> Result<Filters, Unsupported> {
        let table = |names: &[String]| -> Result<Vec<Vec<Glob>>, Unsupported> {
            names
                .iter()
                .map(|n| type_globs(n).ok_or_else(|| Unsupported::new(format!("the file type {n:?} is not ripgrep's"))))
                .collect()
        };
        let globs = |v: &[String], ci: bool| v.iter().map(|g| RgGlob::new(g, ci)).collect::<Result<Vec<_>, _>>();
        Ok(Filters {
            types: table(&o.types)?,
            types_not: table(&o.types_not)?,
            groups: vec![globs(&o.globs, o.glob_case_insensitive)?, globs(&o.iglobs, true)?],
        })
    }

    fn selects(&self, shown: &str) -> Result<bool, Unsupported> {
        let name = match shown.rsplit('/').next() {
            Some("") | None => shown,
            Some(n) => n,
        };
        let typed = |types: &[Vec<Glob>]| types.iter().flatten().any(|g| g.matches(name).unwrap_or(false));
        if (!self.types.is_empty() && !typed(&self.types)) || typed(&self.types_not) {
            return Ok(false);
        }
        for g in &self.groups {
            if !passes(g, name, shown)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

fn passes(globs: &[RgGlob], name: &str, shown: &str) -> Result<bool, Unsupported> {
    let either = |g: &RgGlob| Ok::<bool, Unsupported>(g.is_match(name)? || g.is_match(shown)?);
    let positive: Vec<&RgGlob> = globs.iter().filter(|g| !g.negated).collect();
    let mut any = positive.is_empty();
    for g in positive {
        any |= either(g)?;
    }
    if !any {
        return Ok(false);
    }
    for g in globs.iter().filter(|g| g.negated) {
        if if g.rooted { g.is_match(shown)? } else { either(g)? } {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Accepts an rg command whose output is modelled here. `stdin_empty`: with no path,
/// rg searches a non-empty stdin.
pub(crate) fn prepare(job: &Job, place: Place, stdin_empty: bool) -> Result<NativeRg, Unsupported> {
    let Parsed::Rg(r) = &job.parsed else {
        return Err(Unsupported::new("only rg is answered here"));
    };
    if r.invalid || r.files_only || r.patterns.is_empty() {
        return Err(Unsupported::new("usage errors and --files are just-bash's"));
    }
    if let Some(flag) = &r.output.unmodelled {
        return Err(Unsupported::new(format!("rg {flag} is left to just-bash")));
    }
    if r.paths.is_empty() && !stdin_empty {
        return Err(Unsupported::new("stdin is read by just-bash"));
    }
    if place.listing.any_path(|p| matches!(path::file_name(p), ".gitignore" | ".rgignore" | ".ignore")) {
        return Err(Unsupported::new("ignore files change rg's walk"));
    }
    let o = r.output.clone();
    let (re, dialect) = rg_pattern(&job.patterns, r.fixed)?;
    let flags = Flags { dialect, ignore_case: r.ignore_case(), word: o.word, line: r.line_regexp, tool: Tool::Rg };
    let engine = Engine::new(&[re], flags)?;
    if (o.only_matching || o.count_matches) && engine.nullable {
        return Err(Unsupported::new("-o with a pattern that matches empty text"));
    }
    let (files, missing) = collect(&o, place, job.walked(place))?;
    // A name before each line when there is more than one path, or the one is a directory.
    let single_file = r.paths.len() == 1
        && matches!(place.listing.get(&path::resolve(place.cwd, &job.args[r.paths[0]])), Some(Node::File(_)));
    let show_filename = !o.no_filename && (o.with_filename || !single_file);
    let line_numbers = !o.no_line_numbers && o.explicit_line_numbers;
    let nothing_searched = r.paths.is_empty() && files.is_empty();
    Ok(NativeRg { engine, o, files, missing, show_filename, line_numbers, nothing_searched })
}

/// The files rg searches from its walked operands, in its order (each operand's walk in
/// turn), and the operands that do not exist.
fn collect(o: &RgOutput, place: Place, walked: &[Walked]) -> Result<(Vec<RgFile>, Vec<String>), Unsupported> {
    let filters = Filters::new(o)?;
    let (mut files, mut missing) = (Vec::new(), Vec::new());
    for Walked { operand: op, targets: walk, .. } in walked {
        let full = path::resolve(place.cwd, op);
        if op == "-" {
            return Err(Unsupported::new("an operand is stdin"));
        }
        if full != DEV_NULL {
            place.check(&full)?;
        }
        let node = place.listing.get(&full);
        if node.is_none() && full != DEV_NULL {
            missing.push(op.clone());
            continue;
        }
        if !matches!(node, Some(Node::Dir(_))) {
            // A file named on the command line is searched whatever the filters say.
            files.push(RgFile { shown: op.to_string(), path: full, named: true });
            continue;
        }
        for t in walk {
            match t {
                Target::File { shown, path } if filters.selects(shown)? => {
                    files.push(RgFile { shown: shown.clone(), path: path.clone(), named: false })
                }
                Target::File { .. } => {}
                Target::Keep(_) => return Err(Unsupported::new("the scratch directory is searched by just-bash")),
            }
        }
    }
    Ok((files, missing))
}

/// A file rg searches: as it names it, where it is, and whether the command line named it.
#[derive(Debug)]
struct RgFile {
    shown: String,
    path: String,
    named: bool,
}

/// How ripgrep reads a page: its text, or `None` when it is not UTF-8 (not modelled); and
/// whether a file its walk found is binary (skipped), `None` when that is decided past
/// what ripgrep has read first, or for a named file with a NUL (ripgrep then searches it
/// and prints a warning instead of the lines; not modelled).
fn content(page: &CachedPage, named: bool) -> Option<(&str, bool)> {
    let text = page.as_str()?;
    match memchr::memchr(0, text.as_bytes()) {
        None => Some((text, false)),
        Some(at) if at < BINARY_SAMPLE && !named => Some((text, true)),
        Some(_) => None,
    }
}

impl NativeRg {
    /// The normalised paths of the files it reads, in order.
    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|f| f.path.as_str())
    }

    /// The same command over only the files in `kept`: see [`Native::only`](crate::search::native::Native::only).
    pub(crate) fn only(mut self, kept: &HashSet<String>) -> NativeRg {
        self.files.retain(|f| kept.contains(&f.path));
        self
    }

    /// Runs the command over the session's pages; `None` when a page holds text whose
    /// answer is not modelled (see [`content`] and [`Engine::exact_on`]).
    pub(crate) async fn run(&self, view: SessionView<'_>, mut taken: Option<&mut EarlyStop>) -> Option<Printed> {
        let o = &self.o;
        let (mut stdout, mut any_match) = (String::new(), false);
        let (mut out, mut groups) = (String::new(), Groups::default());
        for RgFile { shown, path, named } in &self.files {
            // An unreadable file is skipped by rg: the session's journal reports it.
            if taken.as_mut().is_some_and(|t| !t.may_read(view, path)) {
                return None;
            }
            let Ok(page) = read_page(view, path).await else { continue };
            let (text, binary) = content(&page, *named)?;
            if binary && !o.binary {
                continue;
            }
            if !self.engine.exact_on(text) {
                return None;
            }
            let opts = Options {
                invert: o.invert,
                line_numbers: self.line_numbers,
                count: o.count || o.count_matches,
                count_matches: o.count_matches || o.only_matching,
                only_matching: o.only_matching,
                before: o.before.unwrap_or(o.context),
                after: o.after.unwrap_or(o.context),
                max_count: o.max_count,
                filename: (self.show_filename && !o.heading).then_some(shown.as_str()),
                null_after_name: false,
                byte_offset: false,
                separator: Some("--"),
            };
            out.clear();
            // Under --heading, each file's lines are a block of their own.
            let heading = o.heading && self.show_filename && !(o.count || o.count_matches);
            if heading {
                groups = Groups::default();
            }
            let matched = if (o.files_with_matches || o.files_without_match || o.quiet) && !o.invert {
                printer::any_match(text, &self.engine)
            } else {
                printer::search(text, &self.engine, &opts, &mut out, &mut groups)
            };
            any_match |= matched;
            if matched && o.quiet {
                break;
            }
            let end = if o.null { '\0' } else { '\n' };
            if matched && o.files_with_matches || !matched && o.files_without_match {
                stdout.push_str(shown);
                stdout.push(end);
            } else if matched && !o.files_without_match {
                if heading {
                    if !stdout.is_empty() {
                        stdout.push('\n');
                    }
                    stdout.push_str(shown);
                    stdout.push('\n');
                }
                stdout.push_str(&out);
            }
            // rg prints no errors of its own here, and its status is 0 from the first
            // file listed (`--files-without-match`) or the first match on.
            let settled = if o.files_without_match { !stdout.is_empty() } else { any_match };
            if settled && taken.as_mut().is_some_and(|t| t.has_all(&stdout)) {
                break;
            }
        }
        let mut stderr: String = self
            .missing
            .iter()
            .map(|m| format!("rg: {m}: IO error for operation on {m}: No such file or directory (os error 2)\n"))
            .collect();
        if self.nothing_searched {
            stderr.push_str(NOTHING_SEARCHED);
        }
        let found = if o.files_without_match { !stdout.is_empty() } else { any_match };
        let exit_code = if o.quiet && found {
            0
        } else if !stderr.is_empty() {
            2
        } else {
            i32::from(!found)
        };
        if o.no_messages {
            stderr.clear();
        }
        if o.quiet {
            stdout.clear();
        }
        Some(Printed { stdout, stderr, exit_code })
    }
}

/// What ripgrep says when its walk of the working directory searched no file at all.
const NOTHING_SEARCHED: &str = "rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n";

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(g: &str, s: &str) -> bool {
        let g = RgGlob::new(g, false).unwrap();
        passes(&[g], s.rsplit('/').next().unwrap(), s).unwrap()
    }

    #[test]
    fn globs_match_the_name_or_the_path() {
        assert!(glob("*.md", "docs/a.md"));
        assert!(!glob("*.md", "docs/a.mdx"));
        assert!(glob("docs/*", "docs/a.md"));
        assert!(!glob("docs/*", "docs/sub/a.md"));
        assert!(glob("docs/**", "docs/sub/a.md"));
        assert!(glob("[ab].md", "b.md"));
        assert!(glob("[!ab].md", "c.md") && !glob("[!ab].md", "a.md"));
        assert!(!glob("!*.md", "a.md") && glob("!*.md", "a.txt"));
        assert!(!glob("!/docs/*", "docs/a.md") && glob("!/a.md", "docs/a.md"));
        assert!(RgGlob::new("[a", false).is_err() && RgGlob::new("[\\]]", false).is_err());
    }

    #[test]
    fn binary_files_have_a_nul_near_the_start() {
        let page = |b: &[u8]| CachedPage::new(b.into());
        assert_eq!(content(&page(b"a\0b"), false), Some(("a\0b", true)));
        assert_eq!(content(&page(b"a\0b"), true), None, "a named binary file is not modelled");
        let late = format!("{}\0", "x".repeat(BINARY_SAMPLE));
        assert_eq!(content(&page(late.as_bytes()), false), None);
        assert_eq!(content(&page(b"ab"), false), Some(("ab", false)));
        assert_eq!(content(&page(b"\xff"), false), None);
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
