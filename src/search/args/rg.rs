//! rg's command line, read as ripgrep reads it: which options take a value, what its output
//! will look like ([`RgOutput`]), and the options the native side does not model, recorded
//! so the plan can fall back.

use super::{is_context, plain_count};
use crate::search::pattern::multiline::may_match_newline;

/// rg's options that take a value (as a separate word, or attached).
const RG_VALUE_SHORT: &str = "gtTmefrdj";
const RG_VALUE_LONG: &[&str] = &[
    "glob",
    "iglob",
    "type",
    "type-not",
    "type-add",
    "type-clear",
    "max-count",
    "regexp",
    "file",
    "replace",
    "max-depth",
    "max-filesize",
    "context-separator",
    "threads",
    "ignore-file",
    "pre",
    "pre-glob",
    "color",
    "colors",
    "engine",
];
const RG_BOOL: &[&str] = &[
    "i",
    "--ignore-case",
    "s",
    "--case-sensitive",
    "S",
    "--smart-case",
    "F",
    "--fixed-strings",
    "w",
    "--word-regexp",
    "x",
    "--line-regexp",
    "v",
    "--invert-match",
    "U",
    "--multiline",
    "--multiline-dotall",
    "c",
    "--count",
    "--count-matches",
    "l",
    "--files",
    "--type-list",
    "V",
    "--version",
    "P",
    "--pcre2",
    "--no-pcre2",
    "--files-with-matches",
    "--files-without-match",
    "--stats",
    "o",
    "--only-matching",
    "q",
    "--quiet",
    "N",
    "--no-line-number",
    "H",
    "--with-filename",
    "I",
    "--no-filename",
    "0",
    "--null",
    "b",
    "--byte-offset",
    "--column",
    "--no-column",
    "--vimgrep",
    "--json",
    "--hidden",
    "--no-ignore",
    "--no-ignore-dot",
    "--no-ignore-vcs",
    "L",
    "--follow",
    "z",
    "--search-zip",
    "a",
    "--text",
    "--heading",
    "--no-heading",
    "--no-messages",
    "--passthru",
    "--include-zero",
    "--glob-case-insensitive",
    "n",
    "--line-number",
    "u",
    "--unrestricted",
];
/// Flags after which rg must see every file in scope (or reads none).
const RG_UNSAFE: &[&str] = &[
    "v",
    "--invert-match",
    "--files-without-match",
    "--stats",
    "--json",
    "--passthru",
    "--include-zero",
    "z",
    "--search-zip",
    "--hidden",
    "--no-ignore",
    "--no-ignore-dot",
    "--no-ignore-vcs",
    "u",
    "--unrestricted",
    "L",
    "--follow",
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

    fn set_numeric(&mut self, which: &str, v: &str) {
        let n = self.number(&format!("-{which} {v}"), v);
        match which {
            "A" => self.after = Some(n),
            "B" => self.before = Some(n),
            "C" => self.context = n,
            _ => self.max_count = Some(n),
        }
    }

    fn flag(&mut self, flag: &str) {
        let o = self;
        match flag {
            "w" | "--word-regexp" => o.word = true,
            "v" | "--invert-match" => o.invert = true,
            // What is printed of each file: the last of these wins.
            "c" | "--count" => o.mode(Mode::Count),
            "--count-matches" => o.mode(Mode::CountMatches),
            "l" | "--files-with-matches" => o.mode(Mode::FilesWithMatches),
            "--files-without-match" => o.mode(Mode::FilesWithoutMatch),
            "--files" => o.mode(Mode::Files),
            "--type-list" => o.mode(Mode::TypeList),
            "V" => o.version = Some(false),
            "--version" => o.version = Some(true),
            "P" | "--pcre2" => o.pcre2 = true,
            "--no-pcre2" => o.pcre2 = false,
            "o" | "--only-matching" => o.only_matching = true,
            "q" | "--quiet" => o.quiet = true,
            "n" | "--line-number" => (o.no_line_numbers, o.explicit_line_numbers) = (false, true),
            "N" | "--no-line-number" => o.no_line_numbers = true,
            "H" | "--with-filename" => o.with_filename = true,
            "I" | "--no-filename" => o.no_filename = true,
            "0" | "--null" => o.null = true,
            "--hidden" => o.hidden = true,
            "--no-ignore" => o.no_ignore = true,
            "a" | "--text" => o.binary = true,
            "--heading" => o.heading = true,
            "--no-heading" => o.heading = false,
            "--no-messages" => o.no_messages = true,
            "--glob-case-insensitive" => o.glob_case_insensitive = true,
            "--column" => o.column = true,
            "--no-column" => o.column = false,
            "--vimgrep" => (o.vimgrep, o.column) = (true, true),
            "b" | "--byte-offset" => o.byte_offset = true,
            "--json" => o.mode(Mode::Json),
            "u" | "--unrestricted" if o.hidden => o.binary = true,
            "u" | "--unrestricted" if o.no_ignore => o.hidden = true,
            "u" | "--unrestricted" => o.no_ignore = true,
            // Only ignore files and symlinks tell these apart, and a search over a tree
            // with ignore files is left to just-bash.
            "--no-ignore-dot" | "--no-ignore-vcs" | "L" | "--follow" | "i" | "--ignore-case" | "s"
            | "--case-sensitive" | "S" | "--smart-case" | "F" | "--fixed-strings" | "x" | "--line-regexp" => {}
            // A pattern that can match a line break is not answered natively (see `RgArgs::spans_lines`).
            "U" | "--multiline" | "--multiline-dotall" => {}
            other => o.unmodelled(&if other.starts_with("--") { other.to_string() } else { format!("-{other}") }),
        }
    }

    fn value(&mut self, name: &str, v: String) {
        match name {
            "g" | "glob" => self.globs.push((v, false)),
            "iglob" => self.globs.push((v, true)),
            "t" | "type" => self.types.push(v),
            "T" | "type-not" => self.types_not.push(v),
            "m" | "max-count" => self.max_count = Some(self.number("-m", &v)),
            "r" | "replace" => self.replace = Some(v),
            "engine" if v == "pcre2" => self.pcre2 = true,
            "engine" if matches!(v.as_str(), "default" | "auto") => self.pcre2 = false,
            "d" | "max-depth" => self.max_depth = Some(self.number("--max-depth", &v).min(usize::MAX as u64) as usize),
            "j" | "threads" | "e" | "regexp" | "f" | "file" | "colors" => {}
            // Without a terminal, only `always` and `ansi` colour the output.
            "color" if !matches!(v.as_str(), "always" | "ansi") => {}
            other => self.unmodelled(&if other.len() == 1 { format!("-{other}") } else { format!("--{other}") }),
        }
    }
}

/// Parses `args` as ripgrep does (case-sensitive unless `-i` or `-S`).
pub(crate) fn parse_rg(args: &[String]) -> RgArgs {
    #[cfg(test)]
    crate::search::tally::bump(|t| t.parses += 1);
    let mut r = RgArgs::default();
    let mut positional: Option<usize> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !(a.starts_with('-') && a != "-") {
            if positional.is_none() && r.patterns.is_empty() && r.pattern_files.is_empty() {
                positional = Some(i);
            } else {
                r.paths.push(i);
            }
            i += 1;
            continue;
        }
        let next = args.get(i + 1).map(String::as_str);
        if is_context(a) || (a.len() > 2 && a.starts_with("-m") && a[2..].bytes().all(|b| b.is_ascii_digit())) {
            r.output.set_numeric(&a[1..2], &a[2..]);
            i += 1;
            continue;
        }
        if let (Some(which @ ("-A" | "-B" | "-C")), Some(v)) = (Some(a), next) {
            r.output.set_numeric(&which[1..], v);
            i += 2;
            continue;
        }
        // Value options: --long=V, -sV, then -s V / --long V.
        let value_name = a
            .strip_prefix("--")
            .filter(|l| RG_VALUE_LONG.contains(l))
            .or_else(|| a.strip_prefix('-').filter(|s| s.len() == 1 && RG_VALUE_SHORT.contains(*s)));
        if let Some((name, v)) =
            a.strip_prefix("--").and_then(|l| l.split_once('=')).filter(|(n, _)| RG_VALUE_LONG.contains(n))
        {
            r.take_value(name, v.to_string());
            i += 1;
            continue;
        }
        if a.len() > 2 && !a.starts_with("--") && RG_VALUE_SHORT.contains(&a[1..2]) {
            r.take_value(&a[1..2], a[2..].to_string());
            i += 1;
            continue;
        }
        if let (Some(name), Some(v)) = (value_name, next) {
            r.take_value(name, v.to_string());
            i += 2;
            continue;
        }
        if a == "--sort" && matches!(next, Some("path" | "none")) {
            r.output.unsorted = next == Some("none");
            i += 2;
            continue;
        }
        if a == "--sort=path" || a == "--sort=none" {
            r.output.unsorted = a == "--sort=none";
            i += 1;
            continue;
        }
        let flags: Vec<String> =
            if a.starts_with("--") { vec![a.to_string()] } else { a[1..].chars().map(String::from).collect() };
        for flag in &flags {
            if flag.len() == 1 && RG_VALUE_SHORT.contains(flag.as_str()) {
                // A value option inside combined flags takes the next word.
                match args.get(i + 1) {
                    Some(v) => {
                        r.take_value(flag, v.clone());
                        i += 1;
                    }
                    None => {
                        r.invalid = true;
                        return r;
                    }
                }
                continue;
            }
            if !RG_BOOL.contains(&flag.as_str()) {
                r.invalid = true; // an option ripgrep does not know
                return r;
            }
            match flag.as_str() {
                "i" | "--ignore-case" => (r.ignore_case, r.case_sensitive, r.smart_case) = (true, false, false),
                "s" | "--case-sensitive" => (r.ignore_case, r.case_sensitive, r.smart_case) = (false, true, false),
                "S" | "--smart-case" => (r.ignore_case, r.case_sensitive, r.smart_case) = (false, false, true),
                "F" | "--fixed-strings" => r.fixed = true,
                "x" | "--line-regexp" => r.line_regexp = true,
                "U" | "--multiline" => r.multiline = true,
                "--multiline-dotall" => r.dotall = true,
                f if RG_UNSAFE.contains(&f) => {
                    r.flag_unsafe(if f.starts_with("--") { f.to_string() } else { format!("-{f}") })
                }
                _ => {}
            }
            r.output.flag(flag);
        }
        i += 1;
    }
    // `--files` and `--type-list` search nothing; under `--files` the first word is a path.
    r.files_only = r.output.files || r.output.type_list || r.output.version.is_some() || r.output.pcre2;
    match positional {
        Some(at) if r.output.files => r.paths.insert(0, at),
        Some(at) => r.patterns.push(args[at].clone()),
        None => {}
    }
    r
}

impl RgArgs {
    fn flag_unsafe(&mut self, flag: String) {
        self.unsafe_flag.get_or_insert(flag);
    }

    fn take_value(&mut self, name: &str, v: String) {
        let spelled = if name.len() == 1 { format!("-{name}") } else { format!("--{name}") };
        self.output.value(name, v.clone());
        match name {
            "e" | "regexp" => self.patterns.push(v),
            "f" | "file" => self.pattern_files.push(v),
            // Pattern files, depth limits, size limits, ignore files and preprocessors all
            // change what is searched in ways the plan does not model.
            "d" | "max-depth" | "max-filesize" | "ignore-file" | "pre" | "pre-glob" => {
                self.preprocessor |= name == "pre";
                self.flag_unsafe(spelled)
            }
            _ => {}
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
