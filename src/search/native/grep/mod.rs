//! grep answered in Rust, as GNU grep 3.8 answers it.
//!
//! After planning, the pages a search reads are in memory; what is left is matching and
//! printing. [`NativeGrep::prepare`] takes the parsed command ([`Job`]) over its whole scope, and
//! accepts it when every flag, pattern and operand is one whose output is modelled here
//! (a narrowing then takes away the files that cannot match): the
//! [`engine`](crate::search::pattern::engine) matches the lines and the [`printer`]
//! prints them as GNU grep does — names as its walk spells them, `--` between context
//! groups, `binary file matches` for a page with a NUL, errors in its words and exit
//! status 2 for them; under `--color=always`, coloured as GNU grep colours them
//! ([`color`]). Anything else is [`Unsupported`], with the reason, and the command
//! runs in just-bash.

mod inputs;

use super::color;
use super::early_stop::EarlyStop;
use super::page::{page_text, read_page};
use super::pattern_files;
use super::printer::{self, Groups, Options};
use super::summary::{self, Selects};
use crate::base::path;
use crate::base::texts;
use crate::commands::walk::{Found, Scope};
use crate::commands::Unsupported;
use crate::commands::{Place, Printed};
use crate::search::args::{self, BinaryFiles, GrepArgs};
use crate::search::job::{Job, Parsed, Walked};
use crate::search::pattern::engine::{Engine, Flags, Tool};
use crate::search::pattern::gnu;
use crate::search::pattern::perl::Refusal;
use crate::search::pattern::rewrite::Dialect;
use crate::search::view::SessionView;
pub(super) use inputs::Input;
use inputs::{plain_inputs, recursive_inputs};

/// How far into a file GNU grep looks for a NUL before it prints its first line.
const BINARY_SAMPLE: usize = 32 * 1024;

/// Whether GNU grep refuses to read its own output file: when it would print lines from
/// it (not with -q, -c, -l, -L, or -m 1).
fn refuses_output(g: &GrepArgs) -> bool {
    let o = &g.output;
    !(o.quiet || g.count || o.files_with_matches || g.files_without_match) && o.max_count.is_none_or(|m| m > 1)
}

/// A grep command that can be answered here.
#[derive(Debug)]
pub(crate) struct NativeGrep {
    /// `None` for a usage error, which is all it prints, or until the `-f` files are read.
    engine: Option<Engine>,
    g: GrepArgs,
    /// The patterns of the command line, for an engine made once `-f` files are read.
    patterns: Vec<String>,
    /// The working directory, which `-f` files are read from.
    cwd: String,
    pub(super) inputs: Vec<Input>,
    show_filename: bool,
    /// Standard input's text, for the operand `-`.
    stdin: String,
}

/// What a grep's patterns make: the engine that matches them, or the messages grep
/// prints for the ones it rejects (and then exits with 2).
enum Compiled {
    Engine(Engine),
    Rejected(String),
}

/// Whether GNU grep sees that no line can be selected and exits with 1 at once, before it
/// compiles a pattern or opens a file: under `-m 0`; for `-v` with the empty pattern alone
/// (the same one given twice counts once), unless `-x` or `-w`; for no pattern at all
/// (`-f /dev/null`) without `-v`. Not when it lists the files without a match (`-L`).
fn fails_at_once(g: &GrepArgs, patterns: &[String]) -> bool {
    let only_empty = !patterns.is_empty() && patterns.iter().all(String::is_empty);
    let nothing = g.output.max_count == Some(0)
        || (g.invert && only_empty && !g.line_regexp && !g.output.word)
        || (patterns.is_empty() && !g.invert);
    nothing && !g.files_without_match
}

/// The distinct patterns, in the order given (GNU grep drops a repeated one).
fn distinct(patterns: &[String]) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    patterns.iter().map(String::as_str).filter(|p| seen.insert(*p)).collect()
}

/// Compiles grep's patterns as [`NativeGrep::prepare`] accepts them; `Err` for what is not modelled.
fn compile(g: &GrepArgs, patterns: &[String]) -> Result<Compiled, Unsupported> {
    // No pattern is read when nothing can match (the command then prints nothing).
    if patterns.is_empty() || fails_at_once(g, patterns) {
        // An expression that matches nothing (an anchor for the start of a line after a
        // character) stands for no pattern.
        let none = Flags { dialect: Dialect::Extended, ignore_case: false, word: false, line: false, tool: Tool::Gnu };
        return Ok(Compiled::Engine(Engine::new(&["a^b".to_string()], none)?));
    }
    if g.dialect() == Dialect::Perl && distinct(patterns).len() > 1 {
        let message = "grep: the -P option only supports a single pattern\n";
        return Ok(Compiled::Rejected(message.into()));
    }
    // Patterns GNU grep rejects: a message for each (the same pattern given twice, once),
    // and nothing read.
    if matches!(g.dialect(), Dialect::Basic | Dialect::Extended) {
        let extended = g.dialect() == Dialect::Extended;
        let messages: String = distinct(patterns)
            .into_iter()
            .filter_map(|p| gnu::error_of(p, extended))
            .map(|m| format!("grep: {m}\n"))
            .collect();
        if !messages.is_empty() {
            return Ok(Compiled::Rejected(messages));
        }
        // Then gnulib's dfa reads them all, and stops at its first complaint.
        if let Some(m) = patterns.iter().find_map(|p| gnu::dfa_error_of(p, extended)) {
            return Ok(Compiled::Rejected(format!("grep: {m}\n")));
        }
    }
    let flags = Flags {
        dialect: g.dialect(),
        ignore_case: g.ignore_case,
        word: g.output.word,
        line: g.line_regexp,
        tool: Tool::Gnu,
    };
    let built = match g.output.null_data {
        true => Engine::for_null_data(patterns, flags),
        false => Engine::new(patterns, flags),
    };
    let engine = match built {
        Ok(engine) => engine,
        // A -P pattern beyond the subset: the backtracking engine's, when one is installed.
        Err(why) if g.dialect() == Dialect::Perl && !g.output.null_data => {
            match Engine::backtracking(&patterns[0], flags) {
                None | Some(Err(Refusal::Unsupported(_))) => return Err(why),
                Some(Err(Refusal::Invalid(message))) => return Ok(Compiled::Rejected(format!("grep: {message}\n"))),
                Some(Ok(engine)) => engine,
            }
        }
        Err(why) => return Err(why),
    };
    // An empty match prints nothing under -o, as GNU's (the printer passes over it); with
    // -w, GNU looks for shorter and later matches at a word's edges, which is not modelled.
    if g.output.only_matching && engine.nullable && g.output.word {
        return Err(Unsupported::new("-o -w with a pattern that matches empty text"));
    }
    if g.output.only_matching && !engine.spans_exact {
        return Err(Unsupported::new("-o with a pattern whose longest matches are not its first ones"));
    }
    if paints_matches(g) && engine.nullable {
        return Err(Unsupported::new("--color=always with a pattern that matches empty text"));
    }
    if paints_matches(g) && !engine.spans_exact {
        return Err(Unsupported::new("--color=always with a pattern whose longest matches are not its first ones"));
    }
    Ok(Compiled::Engine(engine))
}

/// Whether grep colours the matches in the lines it prints (`--color=always`): in
/// selected lines, or under `-v` in context lines; not when it prints only names or
/// counts.
fn paints_matches(g: &GrepArgs) -> bool {
    let o = &g.output;
    let context = o.before.unwrap_or(0) > 0 || o.after.unwrap_or(0) > 0;
    o.color && !(g.count || o.files_with_matches || g.files_without_match || o.quiet) && (!g.invert || context)
}

impl NativeGrep {
    /// Accepts a grep command whose output is modelled here.
    pub(crate) fn prepare(job: &Job, place: Place, walked: &[Walked]) -> Result<NativeGrep, Unsupported> {
        let Parsed::Grep(g) = &job.parsed else {
            return Err(Unsupported::new("only grep is answered here"));
        };
        let usage = |g: &GrepArgs| NativeGrep {
            engine: None,
            g: g.clone(),
            patterns: Vec::new(),
            cwd: job.cwd.clone(),
            inputs: Vec::new(),
            show_filename: false,
            stdin: String::new(),
        };
        if g.usage.is_some() || g.help || g.version {
            return Ok(usage(g));
        }
        let mut operands = job.operands();
        if operands.is_empty() {
            operands.push("-");
        }
        let reads_stdin = operands.contains(&"-") || g.pattern_files.iter().any(|f| f == "-");
        if reads_stdin && job.stdin.is_none() {
            return Err(Unsupported::new("stdin is read by just-bash"));
        }
        // With `-f`, the engine is made once the files are read, when the command runs.
        let engine = match g.pattern_files.is_empty() {
            true => match compile(g, &job.patterns)? {
                Compiled::Engine(e) => Some(e),
                Compiled::Rejected(messages) => {
                    let mut g = g.clone();
                    g.usage = Some(format!("{}{messages}", g.warnings));
                    return Ok(usage(&g));
                }
            },
            false => None,
        };
        let mut inputs =
            if g.recursive { recursive_inputs(job, place, walked)? } else { plain_inputs(job, place, &operands)? };
        if let Some(out) = job.stdout_file.as_deref().filter(|_| refuses_output(g)) {
            for input in &mut inputs {
                if let Input::File { shown, path } = input {
                    if path == out {
                        *input = Input::Output(std::mem::take(shown));
                    }
                }
            }
        }
        // With one operand, names are printed only for the files a directory holds.
        let single_dir = g.recursive
            && operands.len() == 1
            && (operands[0].is_empty()
                || matches!(Scope::from(place).get(&path::resolve(&job.cwd, operands[0])), Some(Found::Dir(_))));
        let show_filename = g.output.with_filename.unwrap_or(operands.len() > 1 || single_dir);
        let stdin = job.stdin.clone().unwrap_or_default();
        let (patterns, cwd) = (job.patterns.clone(), job.cwd.clone());
        Ok(NativeGrep { engine, g: g.clone(), patterns, cwd, inputs, show_filename, stdin })
    }
}

/// Whether GNU grep takes a page for binary: a NUL in it. `Err` when the NUL lies past
/// what grep reads before it prints (it may then have printed lines already).
fn is_binary(text: &str) -> Result<bool, ()> {
    match memchr::memchr(0, text.as_bytes()) {
        None => Ok(false),
        Some(at) if at < BINARY_SAMPLE => Ok(true),
        Some(_) => Err(()),
    }
}

impl NativeGrep {
    /// The normalised paths of the files it reads, in order.
    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        self.inputs.iter().filter_map(|i| match i {
            Input::File { path, .. } => Some(path.as_str()),
            _ => None,
        })
    }

    /// How one file's lines are printed.
    /// `size`: the file's size in bytes, `None` for standard input (a pipe).
    fn options<'a>(&'a self, shown: &'a str, size: Option<u64>) -> Options<'a> {
        let o = &self.g.output;
        Options {
            invert: self.g.invert,
            line_numbers: o.line_numbers,
            count: self.g.count,
            count_matches: false,
            only_matching: o.only_matching,
            context_with_matches: false,
            before: o.before.unwrap_or(0),
            after: o.after.unwrap_or(0),
            max_count: o.max_count,
            filename: self.show_filename.then_some(shown),
            null_after_name: o.null,
            byte_offset: o.byte_offset,
            separator: o.group_separator.as_deref(),
            separated: o.context_given,
            align: o.initial_tab.then(|| printer::align_width(size, o.line_numbers)),
            column: false,
            per_match: false,
            null_data: o.null_data,
            color: o.color,
            replace: None,
        }
    }

    /// Runs the command over the session's pages. `None` when a page holds text the
    /// engine cannot answer for (see [`Engine::exact_on`]): the command then goes to
    /// just-bash, and the pages read so far stay in the cache for it.
    pub(crate) async fn run(&self, view: SessionView<'_>, mut taken: Option<&mut EarlyStop>) -> Option<Printed> {
        let g = &self.g;
        if g.usage.is_none() && (g.version || g.help) {
            let stdout = if g.version { args::VERSION } else { args::HELP };
            return Some(Printed {
                stdout: texts::get(stdout),
                stderr: g.warnings.clone(),
                exit_code: 0,
                ..Default::default()
            });
        }
        let (mut read_engine, mut stdin) = (None, self.stdin.as_str());
        // When no line can be selected, no page need be read.
        let mut selects_nothing = fails_at_once(&self.g, &self.patterns);
        let engine = match (&self.engine, &self.g.usage) {
            (Some(engine), _) => engine,
            (None, None) => {
                let g = &self.g;
                let (mut patterns, used) =
                    match pattern_files::read(view, &self.cwd, &g.pattern_files, stdin, Tool::Gnu).await? {
                        pattern_files::Read::Patterns(patterns, used) => (patterns, used),
                        pattern_files::Read::Error(e) => return Some(usage(format!("{}{e}", g.warnings))),
                    };
                if used {
                    stdin = "";
                }
                patterns.splice(0..0, self.patterns.iter().cloned());
                selects_nothing = fails_at_once(g, &patterns);
                match compile(g, &patterns).ok()? {
                    Compiled::Engine(e) => read_engine.insert(e),
                    Compiled::Rejected(messages) => return Some(usage(format!("{}{messages}", g.warnings))),
                }
            }
            (None, Some(u)) => {
                let exit_code = if g.usage_fails { 1 } else { 2 };
                return Some(Printed { stdout: String::new(), stderr: u.clone(), exit_code, ..Default::default() });
            }
        };
        let (o, quiet_errors) = (&self.g.output, self.g.output.no_messages);
        let (mut stdout, mut stderr) = (String::new(), self.g.warnings.clone());
        let (mut any_match, mut any_error) = (false, false);
        let (mut scratch, mut groups) = (String::new(), Groups::default());
        // Where each error came in the output (GNU grep flushes its output before one).
        let mut at_errors: Vec<(usize, usize)> = Vec::new();
        let error = |stderr: &mut String, at_errors: &mut Vec<(usize, usize)>, stdout: &str, line: String| {
            if !quiet_errors {
                stderr.push_str(&line);
                at_errors.push((stdout.len(), stderr.len()));
            }
        };
        // Past the last operand that is not a file, no input can print to stderr.
        let files_only_from =
            self.inputs.iter().rposition(|i| !matches!(i, Input::File { .. } | Input::Stdin(_))).map_or(0, |i| i + 1);
        let names_only = o.files_with_matches || self.g.files_without_match || o.quiet;
        if selects_nothing {
            return Some(Printed { stdout: String::new(), stderr, exit_code: 1, ..Default::default() });
        }
        for (at, input) in self.inputs.iter().enumerate() {
            let (shown, path) = match input {
                Input::File { shown, path } => (shown, Some(path)),
                Input::Stdin(label) => (label, None),
                // A directory read as a file: an error, then a file without lines (counted
                // as 0, listed by -L).
                Input::Dir(op) => {
                    any_error = true;
                    error(&mut stderr, &mut at_errors, &stdout, format!("grep: {op}: Is a directory\n"));
                    (op, None)
                }
                Input::Missing(op) => {
                    any_error = true;
                    error(&mut stderr, &mut at_errors, &stdout, format!("grep: {op}: No such file or directory\n"));
                    continue;
                }
                Input::NotDir(op) => {
                    any_error = true;
                    error(&mut stderr, &mut at_errors, &stdout, format!("grep: {op}: Not a directory\n"));
                    continue;
                }
                Input::Output(op) => {
                    any_error = true;
                    error(&mut stderr, &mut at_errors, &stdout, format!("grep: {op}: input file is also the output\n"));
                    continue;
                }
            };
            let page = match path {
                Some(_) if selects_nothing => None,
                Some(path) => {
                    if taken.as_mut().is_some_and(|t| !t.may_read(view, path)) {
                        return None;
                    }
                    match read_page(view, path).await {
                        Ok(page) => Some(page),
                        Err(_) => {
                            any_error = true;
                            error(
                                &mut stderr,
                                &mut at_errors,
                                &stdout,
                                format!("grep: {shown}: No such file or directory\n"),
                            );
                            continue;
                        }
                    }
                }
                None => None,
            };
            let content = match (&page, input) {
                // A page that is not UTF-8 is left to just-bash.
                (Some(page), _) => page_text(page.as_str().map(|_| page)?),
                (None, Input::Dir(_) | Input::File { .. }) => std::borrow::Cow::Borrowed(""),
                (None, _) => std::borrow::Cow::Borrowed(stdin),
            };
            if !engine.exact_on(&content) {
                return None;
            }
            // Under -z a NUL ends a line: it does not make a file binary.
            let binary = o.binary != BinaryFiles::Text && !o.null_data && is_binary(&content).ok()?;
            // In a binary file GNU grep takes a NUL for the end of a line.
            let lines_of_binary;
            let content: &str = match (binary, o.binary) {
                (true, BinaryFiles::WithoutMatch) => "",
                (true, _) => {
                    lines_of_binary = content.replace('\0', "\n");
                    &lines_of_binary
                }
                (false, _) => &content,
            };
            let size = path.map(|_| content.len() as u64);
            let opts = self.options(shown, size);
            // A binary file's lines are not printed: it is said to match instead.
            let hide_lines = binary && !names_only && !self.g.count;
            let out = if hide_lines { &mut scratch } else { &mut stdout };
            let matched = if names_only {
                let s = Selects { invert: self.g.invert, null_data: o.null_data, max_count: o.max_count };
                summary::selects_any(content, engine, s)
            } else {
                super::print_file(content, engine, &opts, out, &mut groups)
            };
            scratch.clear();
            if engine.exceeded() {
                // As PCRE's match limit in GNU grep: the file is named, and grep stops.
                let line = format!("grep: {shown}: exceeded PCRE's backtracking limit\n");
                error(&mut stderr, &mut at_errors, &stdout, line);
                return Some(Printed { stdout, stderr, exit_code: 2, stderr_at: at_errors, ..Default::default() });
            }
            if matched && o.quiet {
                return Some(Printed { stdout: String::new(), stderr, exit_code: 0, ..Default::default() });
            }
            any_match |= matched;
            if matched && hide_lines {
                stderr.push_str(&format!("grep: {shown}: binary file matches\n"));
                at_errors.push((stdout.len(), stderr.len()));
            }
            if matched && o.files_with_matches || !matched && self.g.files_without_match {
                color::paint(&mut stdout, o.color, color::FILE_NAME, shown);
                stdout.push(if o.null { '\0' } else { '\n' });
            }
            // The status is 0 from the first match on (an error would have made it 2).
            let settled = any_match && !any_error && at >= files_only_from;
            if settled && taken.as_mut().is_some_and(|t| t.has_all(&stdout)) {
                break;
            }
        }
        let exit_code = if any_error { 2 } else { i32::from(!any_match) };
        if o.quiet {
            stdout.clear();
            at_errors.clear();
        }
        Some(Printed { stdout, stderr, exit_code, stderr_at: at_errors, ..Default::default() })
    }
}

/// What grep prints for a usage error or a pattern it rejects: the message, status 2.
fn usage(stderr: String) -> Printed {
    Printed { stdout: String::new(), stderr, exit_code: 2, ..Default::default() }
}
