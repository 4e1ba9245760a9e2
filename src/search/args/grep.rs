//! grep's command line, read as GNU grep 3.8 reads it: `getopt_long` with its argument
//! permutation (options may follow operands until `--`), unambiguous prefixes of long
//! options (`--ignore` is `--ignore-case`), values attached or in the next word, `-NUM`
//! for context, and the same usage errors in the same words. Every option of
//! `grep --help` is read; what the rest of the search does with each is its business.

use super::{BinaryFiles, Directories, GrepArgs, NameFilter};
use crate::base::texts::{self, Text};

/// Whether a long option takes a value.
#[derive(Clone, Copy, PartialEq)]
enum Takes {
    No,
    Value,
    /// `--color[=WHEN]`: only attached.
    Optional,
}

/// grep's long options, and the short option each stands for (`\0`: long only).
const LONG: &[(&str, char, Takes)] = &[
    ("extended-regexp", 'E', Takes::No),
    ("fixed-strings", 'F', Takes::No),
    ("basic-regexp", 'G', Takes::No),
    ("perl-regexp", 'P', Takes::No),
    ("regexp", 'e', Takes::Value),
    ("file", 'f', Takes::Value),
    ("ignore-case", 'i', Takes::No),
    ("no-ignore-case", '\0', Takes::No),
    ("word-regexp", 'w', Takes::No),
    ("line-regexp", 'x', Takes::No),
    ("null-data", 'z', Takes::No),
    ("no-messages", 's', Takes::No),
    ("invert-match", 'v', Takes::No),
    ("version", 'V', Takes::No),
    ("help", '\0', Takes::No),
    ("max-count", 'm', Takes::Value),
    ("byte-offset", 'b', Takes::No),
    ("line-number", 'n', Takes::No),
    ("line-buffered", '\0', Takes::No),
    ("with-filename", 'H', Takes::No),
    ("no-filename", 'h', Takes::No),
    ("label", '\0', Takes::Value),
    ("only-matching", 'o', Takes::No),
    ("quiet", 'q', Takes::No),
    ("silent", 'q', Takes::No),
    ("binary-files", '\0', Takes::Value),
    ("text", 'a', Takes::No),
    ("directories", 'd', Takes::Value),
    ("devices", 'D', Takes::Value),
    ("recursive", 'r', Takes::No),
    ("dereference-recursive", 'R', Takes::No),
    ("include", '\0', Takes::Value),
    ("exclude", '\0', Takes::Value),
    ("exclude-from", '\0', Takes::Value),
    ("exclude-dir", '\0', Takes::Value),
    ("files-without-match", 'L', Takes::No),
    ("files-with-matches", 'l', Takes::No),
    ("count", 'c', Takes::No),
    ("initial-tab", 'T', Takes::No),
    ("null", 'Z', Takes::No),
    ("before-context", 'B', Takes::Value),
    ("after-context", 'A', Takes::Value),
    ("context", 'C', Takes::Value),
    ("group-separator", '\0', Takes::Value),
    ("no-group-separator", '\0', Takes::No),
    ("color", '\0', Takes::Optional),
    ("colour", '\0', Takes::Optional),
    ("binary", 'U', Takes::No),
    ("unix-byte-offsets", 'u', Takes::No),
];

/// Short options without a value, and those with one.
const SHORT_FLAGS: &str = "EFGPiywxzsvVbnHhoqaIrRLlcTZUu";
const SHORT_VALUES: &str = "efmdDABC";

/// What `grep --help` and `grep -V` print (GNU grep 3.8's own words).
pub(crate) const HELP: Text = texts::GREP_HELP;
pub(crate) const VERSION: Text = texts::GREP_VERSION;

const USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

/// A long option typed as `name`: its entry, or the error getopt_long prints.
fn long_option(name: &str) -> Result<(&'static str, char, Takes), String> {
    if let Some(exact) = LONG.iter().find(|(n, ..)| *n == name) {
        return Ok(*exact);
    }
    let found: Vec<&(&str, char, Takes)> = LONG.iter().filter(|(n, ..)| n.starts_with(name)).collect();
    match found.as_slice() {
        [] => Err(format!("grep: unrecognized option '--{name}'\n{USAGE}")),
        [one] => Ok(**one),
        // Synonyms (`--quiet`/`--silent`, `--color`/`--colour`) are one option.
        [first, rest @ ..] if rest.iter().all(|o| o.1 == first.1 && o.1 != '\0' || o.0.starts_with("colo")) => {
            Ok(**first)
        }
        many => {
            let names: Vec<String> = many.iter().map(|(n, ..)| format!(" '--{n}'")).collect();
            Err(format!("grep: option '--{name}' is ambiguous; possibilities:{}\n{USAGE}", names.concat()))
        }
    }
}

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

/// Reads every option; collects the operands' indices in `g.file_operands`.
fn read(args: &[String], g: &mut GrepArgs) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "--" {
            g.has_double_dash = true;
            g.double_dash = Some(i - 1);
            g.file_operands.extend(i..args.len());
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let (full, short, takes) = long_option(name)?;
            let value = match (takes, attached) {
                (Takes::No, Some(_)) => {
                    return Err(format!("grep: option '--{full}' doesn't allow an argument\n{USAGE}"));
                }
                (Takes::Value, None) => {
                    let v =
                        args.get(i).ok_or_else(|| format!("grep: option '--{full}' requires an argument\n{USAGE}"))?;
                    i += 1;
                    Some(v.as_str())
                }
                (_, v) => v,
            };
            g.apply(short, full, value)?;
            continue;
        }
        if a.len() < 2 || !a.starts_with('-') {
            g.file_operands.push(i - 1);
            continue;
        }
        i = shorts(args, i, g)?;
    }
    Ok(())
}

/// Reads the cluster of short options in `args[i - 1]`; returns where reading goes on.
fn shorts(args: &[String], mut i: usize, g: &mut GrepArgs) -> Result<usize, String> {
    let a = &args[i - 1];
    let mut digits: Option<String> = None;
    for (at, c) in a.char_indices().skip(1) {
        if c.is_ascii_digit() {
            digits.get_or_insert_with(String::new).push(c);
            g.output.context = Some(context_length(digits.as_deref().unwrap_or("0"))?);
            continue;
        }
        digits = None;
        if SHORT_VALUES.contains(c) {
            let rest = &a[at + c.len_utf8()..];
            let value = if !rest.is_empty() {
                rest.to_string()
            } else {
                let v = args.get(i).ok_or_else(|| format!("grep: option requires an argument -- '{c}'\n{USAGE}"))?;
                i += 1;
                v.clone()
            };
            g.apply(c, "", Some(&value))?;
            return Ok(i);
        }
        if !SHORT_FLAGS.contains(c) {
            return Err(format!("grep: invalid option -- '{c}'\n{USAGE}"));
        }
        g.apply(c, "", None)?;
    }
    Ok(i)
}

impl GrepArgs {
    /// What the options imply once all are read: the patterns, the dialect, the context.
    fn finish(&mut self, args: &[String], skip: usize) {
        let m = self.matcher.unwrap_or('G');
        (self.extended, self.fixed, self.perl) = (m == 'E', m == 'F', m == 'P');
        self.recursive = self.output.directories == Directories::Recurse;
        let o = &mut self.output;
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
