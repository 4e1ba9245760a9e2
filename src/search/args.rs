//! Search command lines, parsed once, into what every later step reads.
//!
//! A plan is only as good as its reading of the command: a flag read differently from
//! the real tool would narrow a search to the wrong files. grep's command line is read as
//! GNU grep reads it ([`grep`]); rg's as ripgrep reads it ([`rg`]), and what the native
//! side does not model is recorded so the plan can fall back.

use crate::search::pattern::rewrite::Dialect;

mod grep;
mod rg;
pub(crate) use grep::{parse_grep, HELP, VERSION};
pub(crate) use rg::{parse_rg, RgArgs, RgOutput};

/// A count as a plain number (no sign).
fn plain_count(s: &str) -> Option<u64> {
    s.parse::<u64>().ok().filter(|_| !s.starts_with('+'))
}

/// grep's options, as GNU grep reads them (see [`grep`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct GrepArgs {
    pub ignore_case: bool,
    pub invert: bool,
    pub count: bool,
    pub files_without_match: bool,
    pub recursive: bool,
    pub line_regexp: bool,
    pub extended: bool,
    pub perl: bool,
    pub fixed: bool,
    /// `--help` (or a `--color` value grep does not know): its help on stdout, status 0.
    pub help: bool,
    /// `-V`: its version, which wins over `--help`.
    pub version: bool,
    /// A usage error: what grep prints on stderr before exiting with 2 (or 1, see
    /// `usage_fails`).
    pub usage: Option<String>,
    /// The usage error is an argument of `-d` grep does not know, which exits with 1.
    pub usage_fails: bool,
    /// Warnings grep prints on stderr as it reads its options (`-u` is obsolete).
    pub warnings: String,
    /// The patterns of the command line (every `-e`, joined by newlines, or the first
    /// operand); `-f` files add theirs.
    pub pattern: Option<String>,
    pub pattern_files: Vec<String>,
    /// How the output looks and which files are walked, for the native printer.
    pub output: GrepOutput,
    /// Indices into the argument list of the file operands.
    pub file_operands: Vec<usize>,
    pub has_double_dash: bool,
    /// Where the `--` that ends the options is, and the pattern given as an operand (no
    /// `-e`/`-f`), in the argument list.
    pub double_dash: Option<usize>,
    pub pattern_operand: Option<usize>,
    /// `-E`, `-F`, `-G` or `-P`, when one was given.
    matcher: Option<char>,
    regexps: Vec<String>,
}

/// How grep treats a file with a NUL byte (`--binary-files`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum BinaryFiles {
    #[default]
    Binary,
    Text,
    WithoutMatch,
}

/// What grep does with a directory operand (`-d`, `-r`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Directories {
    #[default]
    Read,
    Recurse,
    Skip,
}

/// A filter of the names of the files grep reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NameFilter {
    Include(String),
    Exclude(String),
    /// `--exclude-from`: a file of globs, each an `--exclude`, until the runner reads it
    /// (see [`crate::search::native::pattern_files::read_first`]).
    ExcludeFrom(String),
}

/// grep's options that shape its output and its walk.
#[derive(Debug, Clone, Default)]
pub(crate) struct GrepOutput {
    pub line_numbers: bool,
    pub files_with_matches: bool,
    pub word: bool,
    pub only_matching: bool,
    /// `-H` (`Some(true)`) or `-h` (`Some(false)`), the last one given.
    pub with_filename: Option<bool>,
    pub quiet: bool,
    pub no_messages: bool,
    /// `-m`; `None` is no limit.
    pub max_count: Option<u64>,
    /// `-B`, `-A` (with `-C`'s value where not given), and `-C`/`-NUM`.
    pub before: Option<u64>,
    pub after: Option<u64>,
    pub context: Option<u64>,
    /// `--include`, `--exclude` and `--exclude-from`, in command-line order.
    pub names: Vec<NameFilter>,
    pub exclude_dir: Vec<String>,
    pub byte_offset: bool,
    pub initial_tab: bool,
    /// `-Z`: a NUL after each file name.
    pub null: bool,
    /// `-z`: lines end in NUL.
    pub null_data: bool,
    pub label: Option<String>,
    pub binary: BinaryFiles,
    pub directories: Directories,
    /// Between context groups; `None` with `--no-group-separator`.
    pub group_separator: Option<String>,
    /// `-A`, `-B`, `-C` or `-NUM` given, even of no lines: groups are separated.
    pub context_given: bool,
    /// `--color=always`.
    pub color: bool,
}

impl GrepArgs {
    pub(crate) fn dialect(&self) -> Dialect {
        if self.fixed {
            Dialect::Fixed
        } else if self.extended {
            Dialect::Extended
        } else if self.perl {
            Dialect::Perl
        } else {
            Dialect::Basic
        }
    }
}

#[cfg(test)]
mod tests;
