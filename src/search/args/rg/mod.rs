//! rg's command line, read as ripgrep 15 reads it: its flag table ([`flags`]) through the
//! one option grammar ([`getopt`]) with ripgrep's rules (whole long names, `-m=5`,
//! `--no-X` negations); what its output will look like ([`RgOutput`]), and the options
//! the native side does not model, recorded so the plan can fall back.

mod flags;

use super::plain_count;
use crate::base::getopt::{self, Given, Grammar, Longs, Shorts};
use crate::search::pattern::multiline::may_match_newline;

/// ripgrep's grammar: long names whole, short values attached (after an optional `=`) or
/// in the next word, options anywhere before `--`.
const GRAMMAR: Grammar =
    Grammar { opts: flags::FLAGS, longs: Longs::Exact, shorts: Shorts::ClusteredEquals, ..getopt::GETOPT_LONG };

/// Flags after which rg must see every file in scope (or reads none), or that change
/// which files are in it: the plan reads the scope rather than narrow it. A negation
/// (`--no-hidden`) is not one of them.
const UNSAFE: &[&str] = &[
    "invert-match",
    "files-without-match",
    "stats",
    "json",
    "passthru",
    "include-zero",
    "search-zip",
    "hidden",
    "no-ignore",
    "no-ignore-dot",
    "no-ignore-vcs",
    "unrestricted",
    "follow",
    // Depth limits, size limits, ignore files and preprocessors change what is searched
    // in ways the plan does not model.
    "max-depth",
    "max-filesize",
    "ignore-file",
    "pre",
    "pre-glob",
];

/// rg's options, as ripgrep reads them.
#[derive(Debug, Default)]
pub(crate) struct RgArgs {
    pub patterns: Vec<String>,
    /// `-f` files as typed, in order, until the runner reads them (see
    /// [`crate::search::native::pattern_files`]) and adds their patterns to `patterns`.
    pub pattern_files: Vec<String>,
    /// The `-f` files' patterns are in `patterns`.
    pub patterns_read: bool,
    /// Indices into the argument list of the path operands.
    pub paths: Vec<usize>,
    pub fixed: bool,
    ignore_case: bool,
    case_sensitive: bool,
    smart_case: bool,
    pub line_regexp: bool,
    pub files_only: bool,
    /// The first option that needs every file in scope, or changes which files are in it.
    pub unsafe_flag: Option<String>,
    /// `-U`, and `--multiline-dotall` (`.` then matches a line break too).
    pub multiline: bool,
    pub dotall: bool,
    /// `--pre`: a preprocessor, a process this shell runs in just-bash.
    pub preprocessor: bool,
    /// ripgrep refuses the line (an unknown flag, a missing value): a usage error, left
    /// to just-bash.
    pub invalid: bool,
    /// How the output looks and which files are walked, for the native printer.
    pub output: RgOutput,
}

/// rg's options that shape its output and its walk.
#[derive(Debug, Clone, Default)]
pub(crate) struct RgOutput {
    pub word: bool,
    pub invert: bool,
    pub count: bool,
    pub count_matches: bool,
    pub files_with_matches: bool,
    pub files_without_match: bool,
    /// `--files` and `--type-list` (see [`Mode`]).
    pub files: bool,
    pub type_list: bool,
    /// `-P`, `--pcre2`, `--engine pcre2` (the last of them and `--no-pcre2`, `--engine
    /// default|auto` winning): ripgrep built without PCRE2 refuses the search.
    pub pcre2: bool,
    /// `-V` (`Some(false)`: the first line only), `--version` (`Some(true)`, with the
    /// build's features), the last of them winning: ripgrep's version, nothing searched.
    pub version: Option<bool>,
    /// `-h`, `--help`, `--pcre2-version`: ripgrep's other answers that search nothing
    /// (of these and `-V`, the last wins), left to just-bash.
    pub help: bool,
    pub only_matching: bool,
    pub quiet: bool,
    /// `-N` came after the last `-n`.
    pub no_line_numbers: bool,
    /// `-n` was given (with its output not a terminal, rg prints no line numbers
    /// without it).
    pub explicit_line_numbers: bool,
    pub with_filename: bool,
    pub no_filename: bool,
    /// `-0`: names printed by `-l` end in NUL.
    pub null: bool,
    pub hidden: bool,
    pub no_ignore: bool,
    /// `-a`: files with a NUL near the start are searched too.
    pub binary: bool,
    pub heading: bool,
    /// `--no-messages`: no error messages.
    pub no_messages: bool,
    /// `--sort none`.
    pub unsorted: bool,
    /// `-m`; `None` is no limit.
    pub max_count: Option<u64>,
    /// `-A`, `-B` as given; where one is not, `-C`'s.
    pub after: Option<u64>,
    pub before: Option<u64>,
    pub context: u64,
    /// `-g` and `--iglob` globs in command-line order, each with whether it ignores case
    /// (`--iglob`); `--glob-case-insensitive` makes every `-g` one do so.
    pub globs: Vec<(String, bool)>,
    pub glob_case_insensitive: bool,
    pub types: Vec<String>,
    pub types_not: Vec<String>,
    /// `--max-depth`; `None`: the walk's own limit.
    pub max_depth: Option<usize>,
    /// `--column` (or `--vimgrep`), unless a later `--no-column`.
    pub column: bool,
    /// `--vimgrep`: a line for each match, with a name, a number and a column.
    pub vimgrep: bool,
    /// `-b`: the byte offset of each line (or `-o` match).
    pub byte_offset: bool,
    /// `--json`: JSON Lines messages (see [`Mode`]).
    pub json: bool,
    /// `-r`/`--replace`: what each match of a printed line becomes.
    pub replace: Option<String>,
    /// The first option whose output is not modelled natively.
    pub unmodelled: Option<String>,
}

/// What rg prints of each file, when not its lines (the last of these options wins).
enum Mode {
    Count,
    CountMatches,
    FilesWithMatches,
    FilesWithoutMatch,
    /// `--files`: the files it would search, not searched.
    Files,
    /// `--type-list`: its file types, nothing searched.
    TypeList,
    /// `--json`: every match as a JSON message.
    Json,
}

impl RgOutput {
    fn mode(&mut self, m: Mode) {
        self.count = matches!(m, Mode::Count);
        self.count_matches = matches!(m, Mode::CountMatches);
        self.files_with_matches = matches!(m, Mode::FilesWithMatches);
        self.files_without_match = matches!(m, Mode::FilesWithoutMatch);
        self.files = matches!(m, Mode::Files);
        self.type_list = matches!(m, Mode::TypeList);
        self.json = matches!(m, Mode::Json);
    }

    fn unmodelled(&mut self, what: &str) {
        self.unmodelled.get_or_insert_with(|| what.to_string());
    }

    fn number(&mut self, what: &str, s: &str) -> u64 {
        plain_count(s).unwrap_or_else(|| {
            self.unmodelled(what);
            0
        })
    }

    /// Applies one flag to the output and the walk; `false` for a flag whose effect the
    /// native side does not know (the caller records it). A flag known but not printed
    /// natively (`--color=always`) is recorded here.
    fn take(&mut self, g: &Given) -> bool {
        let (on, spelled) = (!g.negated, g.spelled.as_str());
        let v = g.value.as_deref().unwrap_or_default();
        let o = self;
        match g.key {
            "word-regexp" => o.word = true,
            "invert-match" => o.invert = on,
            // What is printed of each file: the last of these wins.
            "count" => o.mode(Mode::Count),
            "count-matches" => o.mode(Mode::CountMatches),
            "files-with-matches" => o.mode(Mode::FilesWithMatches),
            "files-without-match" => o.mode(Mode::FilesWithoutMatch),
            "files" => o.mode(Mode::Files),
            "type-list" => o.mode(Mode::TypeList),
            "json" if on => o.mode(Mode::Json),
            // `--no-json` turns JSON off, and no other mode.
            "json" => o.json = false,
            "version" => (o.version, o.help) = (Some(spelled == "--version"), false),
            "help" | "pcre2-version" => (o.version, o.help) = (None, true),
            "pcre2" => o.pcre2 = on,
            "engine" if v == "pcre2" => o.pcre2 = true,
            "engine" if matches!(v, "default" | "auto") => o.pcre2 = false,
            "only-matching" => o.only_matching = true,
            "quiet" => o.quiet = true,
            "line-number" => (o.no_line_numbers, o.explicit_line_numbers) = (false, true),
            "no-line-number" => o.no_line_numbers = true,
            "with-filename" => o.with_filename = true,
            "no-filename" => o.no_filename = true,
            "null" => o.null = true,
            "hidden" => o.hidden = on,
            "no-ignore" => o.no_ignore = on,
            "text" => o.binary = on,
            "heading" => o.heading = on,
            "no-messages" => o.no_messages = on,
            "glob-case-insensitive" => o.glob_case_insensitive = on,
            "column" => o.column = on,
            "vimgrep" => (o.vimgrep, o.column) = (true, true),
            "byte-offset" => o.byte_offset = on,
            "unrestricted" if o.hidden => o.binary = true,
            "unrestricted" if o.no_ignore => o.hidden = true,
            "unrestricted" => o.no_ignore = true,
            "glob" => o.globs.push((v.to_string(), false)),
            "iglob" => o.globs.push((v.to_string(), true)),
            "type" => o.types.push(v.to_string()),
            "type-not" => o.types_not.push(v.to_string()),
            "max-count" => o.max_count = Some(o.number(spelled, v)),
            "after-context" => o.after = Some(o.number(&format!("{spelled} {v}"), v)),
            "before-context" => o.before = Some(o.number(&format!("{spelled} {v}"), v)),
            "context" => o.context = o.number(&format!("{spelled} {v}"), v),
            "replace" => o.replace = Some(v.to_string()),
            "max-depth" => o.max_depth = Some(o.number(spelled, v).min(usize::MAX as u64) as usize),
            "sort" if matches!(v, "path" | "none") => o.unsorted = v == "none",
            // Only ignore files and symlinks tell these apart, and a search over a tree
            // with ignore files is left to just-bash.
            "no-ignore-dot" | "no-ignore-vcs" | "follow" => {}
            // Patterns, their case and `-U` are the search's (see `RgArgs::take`).
            "regexp" | "file" | "ignore-case" | "case-sensitive" | "smart-case" | "fixed-strings" | "line-regexp"
            | "multiline" | "multiline-dotall" => {}
            "threads" | "colors" => {}
            // Without a terminal, only `always` and `ansi` colour the output.
            "color" if !matches!(v, "always" | "ansi") => {}
            // Printing that changes, over the same files.
            "color" | "engine" | "type-add" | "type-clear" | "context-separator" => o.unmodelled(spelled),
            // `--no-encoding` stops ripgrep reading byte-order marks.
            "encoding" => return false,
            // Any other negation is ripgrep's default.
            _ if g.negated => {}
            _ => return false,
        }
        true
    }
}

/// Parses `args` as ripgrep does (case-sensitive unless `-i` or `-S`).
pub(crate) fn parse_rg(args: &[String]) -> RgArgs {
    #[cfg(test)]
    crate::search::tally::bump(|t| t.parses += 1);
    let mut r = RgArgs::default();
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(_) => {
            r.invalid = true;
            return r;
        }
    };
    for given in &line.opts {
        r.take(given);
    }
    let o = &r.output;
    // `--files`, `--type-list`, `--version` and `--help` search nothing.
    r.files_only = o.files || o.type_list || o.version.is_some() || o.help || o.pcre2;
    // Without `-e` or `-f`, the first operand is the pattern (under `--files`, a path).
    let mut operands = line.operand_at.iter().copied();
    if r.patterns.is_empty() && r.pattern_files.is_empty() && !o.files {
        r.patterns.extend(operands.next().map(|at| args[at].clone()));
    }
    r.paths.extend(operands);
    r
}

impl RgArgs {
    fn flag_unsafe(&mut self, flag: String) {
        self.unsafe_flag.get_or_insert(flag);
    }

    /// Applies one flag, in the order given.
    fn take(&mut self, g: &Given) {
        let (on, v) = (!g.negated, g.value.clone().unwrap_or_default());
        if on && UNSAFE.contains(&g.key) {
            self.flag_unsafe(g.spelled.clone());
        }
        match g.key {
            "regexp" => self.patterns.push(v),
            "file" => self.pattern_files.push(v),
            "ignore-case" => (self.ignore_case, self.case_sensitive, self.smart_case) = (true, false, false),
            "case-sensitive" => (self.ignore_case, self.case_sensitive, self.smart_case) = (false, true, false),
            "smart-case" => (self.ignore_case, self.case_sensitive, self.smart_case) = (false, false, true),
            "fixed-strings" => self.fixed = on,
            "line-regexp" => self.line_regexp = true,
            // A pattern that can match a line break is not answered natively (see
            // `RgArgs::spans_lines`).
            "multiline" => self.multiline = on,
            "multiline-dotall" => self.dotall = on,
            "pre" => self.preprocessor = on,
            _ => {}
        }
        if !self.output.take(g) {
            // A flag the native side does not model: its answer is just-bash's, over the
            // whole scope.
            self.output.unmodelled(&g.spelled);
            self.flag_unsafe(g.spelled.clone());
        }
    }

    /// Whether a filter of the pages it may read must ignore case: when ripgrep does, or
    /// when just-bash's rg would (smart case unless told otherwise), for a command handed
    /// to it.
    pub(crate) fn filter_ignores_case(&self) -> bool {
        self.ignore_case()
            || (!self.case_sensitive && !self.patterns.iter().any(|p| p.bytes().any(|b| b.is_ascii_uppercase())))
    }

    /// Whether `-U` lets a match run over several lines: only for a pattern that can match
    /// a line break (see [`may_match_newline`]); for any other, `-U` changes nothing.
    pub(crate) fn spans_lines(&self, patterns: &[String]) -> bool {
        self.multiline && patterns.iter().any(|p| may_match_newline(p, self.fixed, self.dotall))
    }

    /// Whether the search ignores case: `-i`, or smart case with a lower-case pattern.
    pub(crate) fn ignore_case(&self) -> bool {
        self.ignore_case
            || (!self.case_sensitive
                && self.smart_case
                && !self.patterns.iter().any(|p| p.bytes().any(|b| b.is_ascii_uppercase())))
    }
}
