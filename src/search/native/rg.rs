//! rg answered in Rust, when its output is known to be just-bash's byte for byte.
//!
//! just-bash's rg differs from its grep in what it reads and how it names it, not in how
//! it prints a file: both end in the same `searchContent`, which [`printer`] follows.
//! What is rg's own is modelled here: its command line (the last of `-i`/`-s`/`-S` wins,
//! smart case by default), its pattern (several joined as `(?:a)|(?:b)`, compiled in
//! Perl mode), its walk (hidden files, `node_modules` and friends skipped, `--max-depth`),
//! one sort of every path, `-g`/`-t` filters, files with a NUL near the start skipped,
//! line numbers on unless a single file is named, names printed once with `--heading`,
//! counts of zero left out. Ignore files, `--replace`, `--json`, columns, byte offsets,
//! multiline and the other forms are [`Unsupported`] and run in just-bash.

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
use crate::search::pattern::engine::{rg_pattern, Engine, Flags};
use crate::search::view::SessionView;
use crate::search::walk::Target;
use crate::tree::listing::Node;
use std::collections::HashSet;

/// How far into a file just-bash looks for a NUL (UTF-16 code units).
const BINARY_SAMPLE: usize = 8192;

/// Extensions of the file types modelled here (`rg --type-list` in just-bash).
const TYPES: &[(&str, &[&str])] = &[
    ("md", &[".md", ".mdx", ".markdown", ".mdown", ".mkd"]),
    ("markdown", &[".md", ".mdx", ".markdown", ".mdown", ".mkd"]),
    ("txt", &[".txt", ".text"]),
    ("json", &[".json", ".jsonc", ".json5"]),
    ("yaml", &[".yaml", ".yml"]),
];

/// An rg command that can be answered here.
#[derive(Debug)]
pub(crate) struct NativeRg {
    engine: Engine,
    o: RgOutput,
    /// `(shown, path)` of every file searched, in order.
    files: Vec<(String, String)>,
    /// Operands that do not exist, as typed.
    missing: Vec<String>,
    show_filename: bool,
    line_numbers: bool,
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

/// Whether rg's `-t`/`-T`/`-g`/`--iglob` let it read the file it spells `shown`.
struct Filters {
    types: Vec<&'static [&'static str]>,
    types_not: Vec<&'static [&'static str]>,
    /// Each group must pass on its own: `-g` globs, then `--iglob` globs.
    groups: Vec<Vec<RgGlob>>,
}

impl Filters {
    fn new(o: &RgOutput) -> Result<Filters, Unsupported> {
        let table = |names: &[String]| -> Result<Vec<&'static [&'static str]>, Unsupported> {
            names
                .iter()
                .map(|n| {
                    TYPES
                        .iter()
                        .find(|(t, _)| t == n)
                        .map(|(_, e)| *e)
                        .ok_or_else(|| Unsupported::new(format!("the file type {n:?} is left to just-bash")))
                })
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
        if !(self.types.is_empty() && self.types_not.is_empty()) {
            if !name.is_ascii() {
                return Err(Unsupported::new("a file type test on a name beyond ASCII"));
            }
            let lower = name.to_ascii_lowercase();
            let typed = |exts: &[&[&str]]| exts.iter().any(|e| e.iter().any(|x| lower.ends_with(x)));
            if (!self.types.is_empty() && !typed(&self.types)) || typed(&self.types_not) {
                return Ok(false);
            }
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
    let engine =
        Engine::new(&[re], Flags { dialect, ignore_case: r.ignore_case(), word: o.word, line: r.line_regexp })?;
    if (o.only_matching || o.count_matches) && engine.nullable {
        return Err(Unsupported::new("-o with a pattern that matches empty text"));
    }
    let (files, missing, single_file) = collect(&o, place, job.walked(place))?;
    let show_filename = !o.no_filename && (o.with_filename || !single_file || files.len() > 1);
    let line_numbers = !o.no_line_numbers && o.explicit_line_numbers;
    Ok(NativeRg { engine, o, files, missing, show_filename, line_numbers })
}

/// What rg searches from its walked operands.
type Collected = (Vec<(String, String)>, Vec<String>, bool);

/// The files rg searches from its walked operands, in its order (each operand's walk in
/// turn), the operands that do not exist, and whether it was named exactly one file and
/// no directory.
fn collect(o: &RgOutput, place: Place, walked: &[Walked]) -> Result<Collected, Unsupported> {
    let filters = Filters::new(o)?;
    let (mut files, mut missing, mut named_files, mut dirs) = (Vec::new(), Vec::new(), 0, 0);
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
        let mut targets = Vec::new();
        if matches!(node, Some(Node::Dir(_))) {
            dirs += 1;
            // Names that would read as options matter only to a command line.
            targets.extend(walk.iter().cloned());
        } else {
            named_files += 1;
            targets.push(Target::File { shown: op.to_string(), path: full });
        }
        for t in targets {
            match t {
                Target::File { shown, path } if filters.selects(&shown)? => files.push((shown, path)),
                Target::File { .. } => {}
                Target::Keep(_) => return Err(Unsupported::new("the scratch directory is searched by just-bash")),
            }
        }
    }
    Ok((files, missing, named_files == 1 && dirs == 0))
}

/// Text as just-bash's rg reads a file, or `None` when it is not UTF-8 (just-bash then
/// reads it as Latin-1, which is not modelled); and whether rg takes it for binary.
fn content(page: &CachedPage) -> Option<(&str, bool)> {
    let text = page.as_str()?;
    let binary =
        text.find('\0').is_some_and(|at| text[..at].chars().map(char::len_utf16).sum::<usize>() < BINARY_SAMPLE);
    Some((text, binary))
}

impl NativeRg {
    /// The normalised paths of the files it reads, in order.
    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(_, p)| p.as_str())
    }

    /// The same command over only the files in `kept`: see [`Native::only`](crate::search::native::Native::only).
    pub(crate) fn only(mut self, kept: &HashSet<String>) -> NativeRg {
        self.files.retain(|(_, path)| kept.contains(path));
        self
    }

    /// Runs the command over the session's pages; `None` when a page holds text whose
    /// answer is not modelled (not UTF-8, or case folding only RE2 does).
    pub(crate) async fn run(&self, view: SessionView<'_>, mut taken: Option<&mut EarlyStop>) -> Option<Printed> {
        let o = &self.o;
        let (mut stdout, mut any_match) = (String::new(), false);
        let (mut out, mut groups) = (String::new(), Groups::default());
        for (shown, path) in &self.files {
            // An unreadable file is skipped by rg: the session's journal reports it.
            if taken.as_mut().is_some_and(|t| !t.may_read(view, path)) {
                return None;
            }
            let Ok(page) = read_page(view, path).await else { continue };
            let (text, binary) = content(&page)?;
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
                if o.heading && !o.no_filename {
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
        let stderr: String =
            self.missing.iter().map(|m| format!("rg: {m}: No such file or directory (os error 2)\n")).collect();
        let found = if o.files_without_match { !stdout.is_empty() } else { any_match };
        let exit_code = if o.quiet && found {
            0
        } else if !stderr.is_empty() {
            2
        } else {
            i32::from(!found)
        };
        if o.quiet {
            stdout.clear();
        }
        Some(Printed { stdout, stderr, exit_code })
    }
}

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
        assert_eq!(content(&page(b"a\0b")), Some(("a\0b", true)));
        let late = format!("{}\0", "x".repeat(BINARY_SAMPLE));
        assert_eq!(content(&page(late.as_bytes())).map(|c| c.1), Some(false));
        assert_eq!(content(&page(b"\xff")), None);
    }
}
