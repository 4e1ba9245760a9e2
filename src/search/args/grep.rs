//! grep's command line, read as GNU grep 3.8 reads it: `getopt_long` with its argument
//! permutation (options may follow operands until `--`), unambiguous prefixes of long
//! options (`--ignore` is `--ignore-case`), values attached or in the next word, `-NUM`
//! for context, and the same usage errors in the same words. Every option of
//! `grep --help` is read; what the rest of the search does with each is its business.

use super::{BinaryFiles, Directories, GrepArgs, NameFilter};
use crate::base::getopt::{self, alias, Arg, Digits, Grammar, Opt};
use crate::base::texts::{self, Text};

/// grep's options: each letter, and the long names in GNU grep 3.8's order (which its
/// message for an ambiguous prefix follows), a long name with a letter keyed by the letter.
const OPTS: &[Opt] = &[
    alias("basic-regexp", Arg::No, "G"),
    alias("extended-regexp", Arg::No, "E"),
    alias("fixed-regexp", Arg::No, "F"),
    alias("fixed-strings", Arg::No, "F"),
    alias("perl-regexp", Arg::No, "P"),
    alias("after-context", Arg::Required, "A"),
    alias("before-context", Arg::Required, "B"),
    getopt::long("binary-files", Arg::Required),
    alias("byte-offset", Arg::No, "b"),
    alias("context", Arg::Required, "C"),
    getopt::long("color", Arg::Optional),
    alias("colour", Arg::Optional, "color"),
    alias("count", Arg::No, "c"),
    alias("devices", Arg::Required, "D"),
    alias("directories", Arg::Required, "d"),
    getopt::long("exclude", Arg::Required),
    getopt::long("exclude-from", Arg::Required),
    getopt::long("exclude-dir", Arg::Required),
    alias("file", Arg::Required, "f"),
    alias("files-with-matches", Arg::No, "l"),
    alias("files-without-match", Arg::No, "L"),
    getopt::long("group-separator", Arg::Required),
    getopt::long("help", Arg::No),
    getopt::long("include", Arg::Required),
    alias("ignore-case", Arg::No, "i"),
    getopt::long("no-ignore-case", Arg::No),
    alias("initial-tab", Arg::No, "T"),
    getopt::long("label", Arg::Required),
    getopt::long("line-buffered", Arg::No),
    alias("line-number", Arg::No, "n"),
    alias("line-regexp", Arg::No, "x"),
    alias("max-count", Arg::Required, "m"),
    alias("no-filename", Arg::No, "h"),
    getopt::long("no-group-separator", Arg::No),
    alias("no-messages", Arg::No, "s"),
    alias("null", Arg::No, "Z"),
    alias("null-data", Arg::No, "z"),
    alias("only-matching", Arg::No, "o"),
    alias("quiet", Arg::No, "q"),
    alias("recursive", Arg::No, "r"),
    alias("dereference-recursive", Arg::No, "R"),
    alias("regexp", Arg::Required, "e"),
    alias("invert-match", Arg::No, "v"),
    alias("silent", Arg::No, "q"),
    alias("text", Arg::No, "a"),
    alias("binary", Arg::No, "U"),
    alias("unix-byte-offsets", Arg::No, "u"),
    alias("version", Arg::No, "V"),
    alias("with-filename", Arg::No, "H"),
    alias("word-regexp", Arg::No, "w"),
    getopt::short("E", Arg::No),
    getopt::short("F", Arg::No),
    getopt::short("G", Arg::No),
    getopt::short("P", Arg::No),
    getopt::short("i", Arg::No),
    getopt::short("y", Arg::No),
    getopt::short("w", Arg::No),
    getopt::short("x", Arg::No),
    getopt::short("z", Arg::No),
    getopt::short("s", Arg::No),
    getopt::short("v", Arg::No),
    getopt::short("V", Arg::No),
    getopt::short("b", Arg::No),
    getopt::short("n", Arg::No),
    getopt::short("H", Arg::No),
    getopt::short("h", Arg::No),
    getopt::short("o", Arg::No),
    getopt::short("q", Arg::No),
    getopt::short("a", Arg::No),
    getopt::short("I", Arg::No),
    getopt::short("r", Arg::No),
    getopt::short("R", Arg::No),
    getopt::short("L", Arg::No),
    getopt::short("l", Arg::No),
    getopt::short("c", Arg::No),
    getopt::short("T", Arg::No),
    getopt::short("Z", Arg::No),
    getopt::short("U", Arg::No),
    getopt::short("u", Arg::No),
    getopt::short("e", Arg::Required),
    getopt::short("f", Arg::Required),
    getopt::short("m", Arg::Required),
    getopt::short("d", Arg::Required),
    getopt::short("D", Arg::Required),
    getopt::short("A", Arg::Required),
    getopt::short("B", Arg::Required),
    getopt::short("C", Arg::Required),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::Each, ..getopt::GETOPT_LONG };

/// What `grep --help` and `grep -V` print (GNU grep 3.8's own words).
pub(crate) const HELP: Text = texts::GREP_HELP;
pub(crate) const VERSION: Text = texts::GREP_VERSION;

const USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

/// A count of context lines, as grep reads it.
fn context_length(v: &str) -> Result<u64, String> {
    let digits = v.strip_prefix('+').unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("grep: {v}: invalid context length argument\n"));
    }
    Ok(digits.parse().unwrap_or(u64::MAX))
}

/// `-m`'s count: a negative one is no limit.
fn max_count(v: &str) -> Result<Option<u64>, String> {
    let (negative, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("grep: invalid max count\n".into());
    }
    Ok((!negative).then(|| digits.parse().unwrap_or(u64::MAX)))
}

fn choice<T: Copy>(option: &str, v: &str, choices: &[(&str, T)]) -> Result<T, String> {
    if let Some((_, t)) = choices.iter().find(|(n, _)| *n == v) {
        return Ok(*t);
    }
    let valid: String = choices.iter().map(|(n, _)| format!("\n  - ‘{n}’")).collect();
    Err(format!("grep: invalid argument ‘{v}’ for ‘--{option}’\nValid arguments are:{valid}\n{USAGE}"))
}

impl GrepArgs {
    /// Applies one option (by its short letter, or its long name when it has none).
    fn apply(&mut self, short: char, long: &str, value: Option<&str>) -> Result<(), String> {
        let v = value.unwrap_or("");
        let o = &mut self.output;
        match (short, long) {
            ('E' | 'F' | 'G' | 'P', _) => {
                if self.matcher.is_some_and(|m| m != short) {
                    return Err("grep: conflicting matchers specified\n".into());
                }
                self.matcher = Some(short);
            }
            ('e', _) => self.regexps.push(v.to_string()),
            ('f', _) => self.pattern_files.push(v.to_string()),
            ('i' | 'y', _) => self.ignore_case = true,
            (_, "no-ignore-case") => self.ignore_case = false,
            ('w', _) => o.word = true,
            ('x', _) => self.line_regexp = true,
            ('z', _) => o.null_data = true,
            ('s', _) => o.no_messages = true,
            ('v', _) => self.invert = true,
            ('V', _) => self.version = true,
            (_, "help") => self.help = true,
            ('m', _) => o.max_count = max_count(v)?,
            ('b', _) => o.byte_offset = true,
            ('n', _) => o.line_numbers = true,
            ('H', _) => o.with_filename = Some(true),
            ('h', _) => o.with_filename = Some(false),
            (_, "label") => o.label = Some(v.to_string()),
            ('o', _) => o.only_matching = true,
            ('q', _) => o.quiet = true,
            (_, "binary-files") => {
                o.binary = match v {
                    "binary" => BinaryFiles::Binary,
                    "text" => BinaryFiles::Text,
                    "without-match" => BinaryFiles::WithoutMatch,
                    _ => return Err("grep: unknown binary-files type\n".into()),
                }
            }
            ('a', _) => o.binary = BinaryFiles::Text,
            ('I', _) => o.binary = BinaryFiles::WithoutMatch,
            ('d', _) => {
                let all = [("read", Directories::Read), ("recurse", Directories::Recurse), ("skip", Directories::Skip)];
                self.usage_fails = true;
                o.directories = choice("directories", v, &all)?;
                self.usage_fails = false;
            }
            ('D', _) if !matches!(v, "read" | "skip") => return Err("grep: unknown devices method\n".into()),
            ('r' | 'R', _) => o.directories = Directories::Recurse,
            (_, "include") => o.names.push(NameFilter::Include(v.to_string())),
            (_, "exclude") => o.names.push(NameFilter::Exclude(v.to_string())),
            (_, "exclude-from") => o.names.push(NameFilter::ExcludeFrom(v.to_string())),
            (_, "exclude-dir") => o.exclude_dir.push(v.to_string()),
            ('L', _) => (self.files_without_match, o.files_with_matches) = (true, false),
            ('l', _) => (self.files_without_match, o.files_with_matches) = (false, true),
            ('c', _) => self.count = true,
            ('T', _) => o.initial_tab = true,
            ('Z', _) => o.null = true,
            ('B', _) => o.before = Some(context_length(v)?),
            ('A', _) => o.after = Some(context_length(v)?),
            ('C', _) => o.context = Some(context_length(v)?),
            (_, "group-separator") => o.group_separator = Some(v.to_string()),
            (_, "no-group-separator") => o.group_separator = None,
            (_, "color" | "colour") => {
                o.color = match value {
                    Some("always" | "yes" | "force") => true,
                    None | Some("never" | "no" | "none" | "auto" | "tty" | "if-tty") => false,
                    // GNU grep then shows its help, and exits with 0.
                    Some(_) => {
                        self.help = true;
                        false
                    }
                };
            }
            // Obsolete, and said to be so each time it is given; it changes nothing.
            ('u', _) => self.warnings.push_str("grep: warning: --unix-byte-offsets (-u) is obsolete\n"),
            _ => {} // --line-buffered, -U: no effect on what is printed here
        }
        Ok(())
    }
}

/// Parses `args` (after `skip` injected ones, such as egrep's `-E`) as GNU grep does.
pub(crate) fn parse_grep(args: &[String], skip: usize) -> GrepArgs {
    #[cfg(test)]
    crate::search::tally::bump(|t| t.parses += 1);
    let mut g = GrepArgs { usage: None, ..GrepArgs::default() };
    g.output.group_separator = Some("--".into());
    if let Err(e) = read(args, &mut g) {
        g.usage = Some(format!("{}{e}", g.warnings));
        return g;
    }
    g.finish(args, skip);
    g
}

/// Reads every option ([`crate::base::getopt`]); collects the operands' indices in
/// `g.file_operands`.
fn read(args: &[String], g: &mut GrepArgs) -> Result<(), String> {
    let (line, misuse) = getopt::read(&GRAMMAR, args);
    let digit = |key: &str| key.len() == 1 && key.as_bytes()[0].is_ascii_digit();
    let mut digits = String::new();
    for (n, given) in line.opts.iter().enumerate() {
        // `-12` is twelve lines of context; a digit after another option, or in another
        // word, starts a new number.
        if digit(given.key) {
            let goes_on = n > 0 && digit(line.opts[n - 1].key) && line.opts[n - 1].word == given.word;
            if !goes_on {
                digits.clear();
            }
            digits.push_str(given.key);
            g.output.context = Some(context_length(&digits)?);
            continue;
        }
        let mut letters = given.key.chars();
        match (letters.next(), letters.next()) {
            (Some(c), None) => g.apply(c, "", given.value.as_deref())?,
            _ => g.apply('\0', given.key, given.value.as_deref())?,
        }
    }
    if let Some(m) = misuse {
        return Err(format!("{}{USAGE}", m.message("grep")));
    }
    g.has_double_dash = line.double_dash.is_some();
    g.double_dash = line.double_dash;
    g.file_operands.extend(line.operand_at);
    Ok(())
}

impl GrepArgs {
    /// What the options imply once all are read: the patterns, the dialect, the context.
    fn finish(&mut self, args: &[String], skip: usize) {
        let m = self.matcher.unwrap_or('G');
        (self.extended, self.fixed, self.perl) = (m == 'E', m == 'F', m == 'P');
        self.recursive = self.output.directories == Directories::Recurse;
        let o = &mut self.output;
        o.context_given = o.before.is_some() || o.after.is_some() || o.context.is_some();
        let c = o.context.unwrap_or(0);
        (o.before, o.after) = (Some(o.before.unwrap_or(c)), Some(o.after.unwrap_or(c)));
        if self.help || self.version {
            return;
        }
        if self.regexps.is_empty() && self.pattern_files.is_empty() {
            if self.file_operands.is_empty() {
                self.usage = Some(format!("{}{USAGE}", self.warnings));
                return;
            }
            let at = self.file_operands.remove(0);
            self.pattern_operand = Some(at);
            self.pattern = Some(args[at].clone());
        } else if !self.regexps.is_empty() {
            self.pattern = Some(self.regexps.join("\n"));
        }
        self.file_operands.retain(|&o| o >= skip);
    }
}
