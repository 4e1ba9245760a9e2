//! rg answered in Rust, as ripgrep 15 answers it with its output not a terminal (and one
//! thread, so that files come in the walk's order).
//!
//! What is rg's own is modelled here: its command line (case-sensitive unless `-i`, or
//! `-S` with a lower-case pattern; the last of `-i`/`-s`/`-S` wins), its pattern (several
//! joined as `(?:a)|(?:b)`), its walk (hidden names skipped, `--max-depth`), `-g`/`-t`
//! filters for the files the walk finds ([`filters`]; a file named on the command line is
//! always searched), walked files with a NUL near the start skipped, no line numbers without
//! `-n`, a name before each line unless one file is named, names printed once with
//! `--heading` and files then separated by an empty line, counts of zero left out, and
//! its messages; `--json` is printed by [`super::json`], `-r` by [`super::printer`]. Ignore
//! files, multiline, standard input and the other forms are [`Unsupported`] and run in
//! just-bash.

mod filters;

use super::early_stop::EarlyStop;
use super::json;
use super::page::read_page;
use super::printer::{Groups, Options};
use super::replace::Replacement;
use super::summary::{self, Selects};
use crate::base::hash::PathSet;
use crate::base::path;
use crate::base::texts::{self, Text};
use crate::commands::walk::{Found, Scope};
use crate::commands::Unsupported;
use crate::commands::{Place, Printed};
use crate::fs::DEV_NULL;
use crate::pages::store::lru::CachedPage;
use crate::search::args::RgOutput;
use crate::search::job::{Job, Parsed, Walked};
use crate::search::pattern::engine::{rg_pattern, Engine, Flags, Tool};
use crate::search::pattern::rg_syntax::decimal_error;
use crate::search::view::SessionView;
use crate::search::walk::Target;
use filters::{Filters, TYPE_LIST};

/// How far into a file ripgrep has read when it decides whether a file is binary: a
/// NUL further on may come after lines it has printed (not modelled).
const BINARY_SAMPLE: usize = 64 * 1024;

/// `rg --version`, as the ripgrep the reference runs prints it.
const VERSION: Text = texts::RG_VERSION;

/// An rg command that can be answered here.
/// An operand rg cannot search, as typed, and whether it names a file as a directory.
type Missing = (String, bool);

#[derive(Debug)]
pub(crate) struct NativeRg {
    what: What,
    o: RgOutput,
    /// Every file searched, in order.
    files: Vec<RgFile>,
    /// Operands that do not exist, as typed, each with whether it names a file as a
    /// directory (`a.md/`: ENOTDIR) rather than nothing (ENOENT).
    missing: Vec<Missing>,
    show_filename: bool,
    line_numbers: bool,
    /// With no path, the walk of the working directory found nothing to search.
    nothing_searched: bool,
    /// `--json` decides what is printed.
    json: bool,
}

/// What an rg command prints.
#[derive(Debug)]
enum What {
    /// The files' lines (or counts, or names) that the engine matches.
    Search(Engine),
    /// `--files`: the names of the files it would search.
    Files,
    /// `--type-list`: its file types.
    TypeList,
    /// `--version` (`true`) or `-V`: ripgrep 15.2.0's version, whose output this is.
    Version(bool),
    /// A search ripgrep refuses before it starts, with its message (status 2).
    Refused(String),
}

impl NativeRg {
    /// Accepts an rg command whose output is modelled here. `stdin_empty`: with no path,
    /// rg searches a non-empty stdin.
    pub(crate) fn prepare(
        job: &Job,
        place: Place,
        walked: &[Walked],
        stdin_empty: bool,
    ) -> Result<NativeRg, Unsupported> {
        let Parsed::Rg(r) = &job.parsed else {
            return Err(Unsupported::new("only rg is answered here"));
        };
        if r.invalid {
            return Err(Unsupported::new("usage errors are just-bash's"));
        }
        if !r.pattern_files.is_empty() && !r.patterns_read {
            return Err(Unsupported::new("rg -f: the pattern files could not be read first"));
        }
        let mut o = r.output.clone();
        let listing = |what, o, files, missing| NativeRg {
            what,
            o,
            files,
            missing,
            show_filename: false,
            line_numbers: false,
            nothing_searched: false,
            json: false,
        };
        if o.help {
            return Err(Unsupported::new("rg's help is just-bash's"));
        }
        if o.pcre2 && o.version.is_none() {
            let stderr = "rg: PCRE2 is not available in this build of ripgrep\n".to_string();
            return Ok(listing(What::Refused(stderr), o, Vec::new(), Vec::new()));
        }
        if let Some(long) = o.version {
            return Ok(listing(What::Version(long), o, Vec::new(), Vec::new()));
        }
        if o.type_list {
            return Ok(listing(What::TypeList, o, Vec::new(), Vec::new()));
        }
        if !o.files && r.patterns.is_empty() {
            return Err(Unsupported::new("usage errors are just-bash's"));
        }
        if let Some(flag) = &r.output.unmodelled {
            return Err(Unsupported::new(format!("rg {flag} is left to just-bash")));
        }
        if r.spans_lines(&job.patterns) {
            return Err(Unsupported::new("rg -U with a pattern that can match a line break"));
        }
        if r.paths.is_empty() && !stdin_empty && !o.files {
            return Err(Unsupported::new("stdin is read by just-bash"));
        }
        if Scope::from(place).has_ignore_file() {
            return Err(Unsupported::new("ignore files change rg's walk"));
        }
        let (mut files, missing) = collect(&o, place, &job.cwd, walked)?;
        // ripgrep skips the file its standard output goes to, without a word.
        if let Some(out) = job.stdout_file.as_deref() {
            files.retain(|f| f.path != out);
        }
        if o.files {
            return Ok(listing(What::Files, o, files, missing));
        }
        if let Some(stderr) = decimal_error(&job.patterns).filter(|_| !r.fixed) {
            return Ok(listing(What::Refused(stderr), o, Vec::new(), Vec::new()));
        }
        // `--vimgrep` prints a name on every line, never a heading.
        o.heading &= !o.vimgrep;
        let (re, dialect) = rg_pattern(&job.patterns, r.fixed)?;
        let flags = Flags { dialect, ignore_case: r.ignore_case(), word: o.word, line: r.line_regexp, tool: Tool::Rg };
        let engine = Engine::new(&[re], flags)?;
        if (o.only_matching || o.count_matches || o.column) && engine.nullable {
            return Err(Unsupported::new("-o with a pattern that matches empty text"));
        }
        if o.replace.is_some() && engine.nullable {
            return Err(Unsupported::new("rg -r with a pattern that matches empty text"));
        }
        // A name before each line when there is more than one path, or the one is a directory.
        let single_file = r.paths.len() == 1
            && matches!(Scope::from(place).get(&path::resolve(&job.cwd, &job.args[r.paths[0]])), Some(Found::File));
        let show_filename = !o.no_filename && (o.with_filename || o.vimgrep || !single_file);
        // `--column` and `--vimgrep` number lines too, unless `-N` says not to.
        let line_numbers = !o.no_line_numbers && (o.explicit_line_numbers || o.column || o.vimgrep);
        let nothing_searched = r.paths.is_empty() && files.is_empty();
        let json = o.json;
        if json && (o.invert || o.quiet || o.max_count.is_some() || engine.nullable) {
            return Err(Unsupported::new("rg --json with -v, -q, -m or a pattern that matches empty text"));
        }
        let what = What::Search(engine);
        Ok(NativeRg { what, o, files, missing, show_filename, line_numbers, nothing_searched, json })
    }
}

/// The files rg searches from its walked operands, in its order (each operand's walk in
/// turn), and the operands that do not exist.
fn collect(
    o: &RgOutput,
    place: Place,
    cwd: &str,
    walked: &[Walked],
) -> Result<(Vec<RgFile>, Vec<Missing>), Unsupported> {
    let filters = Filters::new(o)?;
    let (mut files, mut missing) = (Vec::new(), Vec::new());
    for Walked { operand: op, targets: walk, .. } in walked {
        let full = path::resolve(cwd, op);
        if op == "-" {
            return Err(Unsupported::new("an operand is stdin"));
        }
        if full != DEV_NULL {
            place.check_searched(&full)?;
        }
        let found = Scope::from(place).get(&full);
        if found.is_none() && full != DEV_NULL {
            missing.push((op.clone(), false));
            continue;
        }
        if matches!(found, Some(Found::File)) && path::names_dir(op) {
            missing.push((op.clone(), true));
            continue;
        }
        if !matches!(found, Some(Found::Dir(_))) {
            // A file named on the command line is searched whatever the filters say.
            files.push(RgFile { shown: op.to_string(), path: full, named: true });
            continue;
        }
        for t in walk {
            match t {
                Target::File { shown, path } if filters.selects(op, shown, cwd)? => {
                    files.push(RgFile { shown: shown.clone(), path: path.clone(), named: false })
                }
                Target::File { .. } => {}
                Target::Keep(_) | Target::NotDir(_) => return Err(Unsupported::new("a path the walk could not read")),
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
    /// The normalised paths of the files it reads, in order (none for `--files`).
    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        let reads = matches!(self.what, What::Search(_));
        self.files.iter().filter(move |_| reads).map(|f| f.path.as_str())
    }

    /// What `--files` and `--type-list` print: names (or types), each on its line.
    fn list(&self) -> Printed {
        let o = &self.o;
        if let What::Refused(stderr) = &self.what {
            return Printed { stderr: stderr.clone(), exit_code: 2, ..Default::default() };
        }
        let stdout: String = match self.what {
            What::TypeList => texts::get(TYPE_LIST),
            What::Version(true) => texts::get(VERSION),
            What::Version(false) => texts::get(VERSION).lines().next().map(|l| format!("{l}\n")).unwrap_or_default(),
            _ => self.files.iter().flat_map(|f| [f.shown.as_str(), if o.null { "\0" } else { "\n" }]).collect(),
        };
        let stderr = self.missing_messages();
        let exit_code = match (stderr.is_empty(), stdout.is_empty()) {
            (false, _) => 2,
            (true, empty) => i32::from(empty),
        };
        let stderr = if o.no_messages { String::new() } else { stderr };
        Printed { stdout: if o.quiet { String::new() } else { stdout }, stderr, exit_code, ..Default::default() }
    }

    /// rg's message for each path that does not exist.
    fn missing_messages(&self) -> String {
        let message = |(m, not_dir): &(String, bool)| match not_dir {
            true => format!("rg: {m}: IO error for operation on {m}: Not a directory (os error 20)\n"),
            false => format!("rg: {m}: IO error for operation on {m}: No such file or directory (os error 2)\n"),
        };
        self.missing.iter().map(message).collect()
    }

    /// The same command over only the files in `kept`: see [`Native::only`](crate::search::native::Native::only).
    pub(crate) fn only(mut self, kept: &PathSet<String>) -> NativeRg {
        self.files.retain(|f| kept.contains(&f.path));
        self
    }

    /// Runs the command over the session's pages; `None` when a page holds text whose
    /// answer is not modelled (see [`content`] and [`Engine::exact_on`]).
    pub(crate) async fn run(&self, view: SessionView<'_>, mut taken: Option<&mut EarlyStop>) -> Option<Printed> {
        let What::Search(engine) = &self.what else { return Some(self.list()) };
        if self.json {
            return self.run_json(view, engine).await;
        }
        let o = &self.o;
        if o.max_count == Some(0) {
            // ripgrep searches nothing under `-m 0`, and says nothing, not even of an
            // operand that does not exist.
            return Some(Printed { exit_code: 1, ..Default::default() });
        }
        let replacement = o.replace.as_deref().map(Replacement::new);
        let (mut stdout, mut any_match) = (String::new(), false);
        let (mut out, mut groups) = (String::new(), Groups::default());
        let mut unprinted_without_match = false;
        for RgFile { shown, path, named } in &self.files {
            // An unreadable file is skipped by rg: the session's journal reports it.
            if taken.as_mut().is_some_and(|t| !t.may_read(view, path)) {
                return None;
            }
            let Ok(page) = read_page(view, path).await else { continue };
            let (text, binary) = content(&page, *named)?;
            if binary && !o.binary {
                // A binary file the walk found is skipped; to --files-without-match it is
                // one without a match, though its name is not printed.
                unprinted_without_match |= o.files_without_match;
                continue;
            }
            if !engine.exact_on(text) {
                return None;
            }
            let opts = Options {
                invert: o.invert,
                line_numbers: self.line_numbers,
                count: o.count || o.count_matches,
                count_matches: o.count_matches || o.only_matching,
                only_matching: o.only_matching,
                context_with_matches: true,
                before: o.before.unwrap_or(o.context),
                after: o.after.unwrap_or(o.context),
                max_count: o.max_count,
                filename: (self.show_filename && !o.heading).then_some(shown.as_str()),
                null_after_name: o.null,
                byte_offset: o.byte_offset,
                separator: Some("--"),
                separated: false,
                align: None,
                column: o.column,
                per_match: o.vimgrep && o.column,
                null_data: false,
                color: false,
                replace: replacement.as_ref(),
            };
            out.clear();
            // Under --heading, each file's lines are a block of their own.
            let heading = o.heading && self.show_filename && !(o.count || o.count_matches);
            if heading {
                groups = Groups::default();
            }
            let matched = if o.files_with_matches || o.files_without_match || o.quiet {
                summary::selects_any(text, engine, Selects { invert: o.invert, ..Selects::default() })
            } else {
                super::print_file(text, engine, &opts, &mut out, &mut groups)
            };
            any_match |= matched;
            if o.quiet && matched != o.files_without_match {
                // -q: the status is known (a match, or under --files-without-match a file
                // without one).
                unprinted_without_match |= o.files_without_match;
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
                    stdout.push(end);
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
        let mut stderr = self.missing_messages();
        if self.nothing_searched {
            stderr.push_str(NOTHING_SEARCHED);
        }
        let found = if o.files_without_match { !stdout.is_empty() || unprinted_without_match } else { any_match };
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
        Some(Printed { stdout, stderr, exit_code, ..Default::default() })
    }
}

impl NativeRg {
    /// `--json`: every file in scope searched (its figures count them all), and its
    /// messages printed (see [`json`]).
    async fn run_json(&self, view: SessionView<'_>, engine: &Engine) -> Option<Printed> {
        let (o, started) = (&self.o, view.now_ms());
        let replacement = o.replace.as_deref().map(Replacement::new);
        let (mut stdout, mut total) = (String::new(), json::Figures::default());
        for RgFile { shown, path, named } in &self.files {
            let Ok(page) = read_page(view, path).await else { continue };
            let (text, binary) = content(&page, *named)?;
            if binary || !engine.exact_on(text) {
                return None;
            }
            let at = view.now_ms();
            let context = |n: Option<u64>| n.unwrap_or(o.context);
            let (printed, mut figures) =
                json::search(shown, text, (engine, replacement.as_ref()), context(o.before), context(o.after));
            figures.elapsed_ns = nanos(view.now_ms() - at);
            if figures.matched_lines > 0 {
                stdout.push_str(&printed);
                json::end(&mut stdout, shown, &figures, &mut total);
            } else {
                total = json::Figures { bytes_printed: 0, ..figures }.plus(total);
            }
        }
        json::summary(&mut stdout, &total, nanos(view.now_ms() - started));
        let mut stderr = self.missing_messages();
        if self.nothing_searched {
            stderr.push_str(NOTHING_SEARCHED);
        }
        let exit_code = if !stderr.is_empty() { 2 } else { i32::from(total.matched_lines == 0) };
        if o.no_messages {
            stderr.clear();
        }
        Some(Printed { stdout, stderr, exit_code, ..Default::default() })
    }
}

/// Milliseconds on the session's clock as nanoseconds.
fn nanos(ms: f64) -> u64 {
    (ms.max(0.0) * 1e6) as u64
}

/// What ripgrep says when its walk of the working directory searched no file at all.
const NOTHING_SEARCHED: &str = "rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n";

#[cfg(test)]
mod tests {
    use super::*;

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
}
