//! The one reader of command lines: a table of options read under one grammar.
//!
//! A command states its options once, as a table of [`Opt`]s (a short letter, a long
//! name, or both, and whether a value follows); [`parse`] reads a command line against it.
//! [`GETOPT_LONG`] is glibc's `getopt_long`, which GNU tools use:
//!
//! - short options cluster (`-nv`); a value is the rest of the word (`-n5`) or the next
//!   word (`-n 5`); an optional value only when attached (`-i.bak`);
//! - long options take `--name=value`, or the next word when the value is required; a long
//!   name may be shortened while it names one option (names sharing a key, such as
//!   `--quiet` and `--silent`, are one option);
//! - `--` ends the options and `-` alone is an operand;
//! - operands and options mix unless the table says options stop at the first operand
//!   (an option string starting with `+`, as `xargs` and `env` have).
//!
//! Commands whose own parsers read otherwise say how in their [`Grammar`]: how long names
//! are matched ([`Longs`]: ripgrep takes whole names only, tree matches a name with a value
//! by the start of the word), where a short option's value is ([`Shorts`]: ripgrep's
//! `-m=5`, tree's values from the next words whatever the cluster holds, find's leading
//! options each a word of its own), whether a word that names no option is an error or
//! the first operand ([`Unknown`]), and which long names negate an option ([`negation`],
//! ripgrep's `--no-X`).
//!
//! Misuse is a [`Misuse`], whose [`message`](Misuse::message) is glibc's wording.

/// Whether an option takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arg {
    No,
    Required,
    Optional,
}

/// One option of a command: `-short`, `--long`, or both. `key` names it for the command
/// (the long name, or the letter when there is none); several rows with one key are
/// spellings of one option, and a row that `negates` it turns it off (`--no-heading`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opt {
    pub short: Option<char>,
    pub long: Option<&'static str>,
    pub arg: Arg,
    pub key: &'static str,
    pub negates: bool,
}

/// `-c` and `--long`, with the key `long`.
pub(crate) const fn opt(short: char, long: &'static str, arg: Arg) -> Opt {
    Opt { short: Some(short), long: Some(long), arg, key: long, negates: false }
}

/// A short option alone, named by its letter (`key` as given, a one-letter string).
pub(crate) const fn short(key: &'static str, arg: Arg) -> Opt {
    let c = key.as_bytes()[0] as char;
    Opt { short: Some(c), long: None, arg, key, negates: false }
}

/// A long option alone.
pub(crate) const fn long(name: &'static str, arg: Arg) -> Opt {
    Opt { short: None, long: Some(name), arg, key: name, negates: false }
}

/// Another long spelling of the option named `key` (`--silent` for `--quiet`).
pub(crate) const fn alias(name: &'static str, arg: Arg, key: &'static str) -> Opt {
    Opt { short: None, long: Some(name), arg, key, negates: false }
}

/// The long name that turns off the option named `key` (ripgrep's `--no-heading` for
/// `--heading`, `--ignore` for `--no-ignore`): it takes no value, even when the option does.
pub(crate) const fn negation(name: &'static str, key: &'static str) -> Opt {
    Opt { short: None, long: Some(name), arg: Arg::No, key, negates: true }
}

/// A command's options and the rules its parser reads them by.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grammar {
    pub opts: &'static [Opt],
    /// Options may follow operands (GNU's default); `false` stops at the first operand.
    pub permute: bool,
    /// Whether digits are options (keyed by themselves) where no row names them.
    pub digits: Digits,
    /// How a `--name` word is matched to a row.
    pub longs: Longs,
    /// How short options share a word, and where their values are.
    pub shorts: Shorts,
    /// What a word that names no option is.
    pub unknown: Unknown,
}

/// glibc's `getopt_long` over no options: the grammar of GNU tools, which a command's own
/// grammar starts from (`Grammar { opts: OPTS, ..GETOPT_LONG }`).
pub(crate) const GETOPT_LONG: Grammar = Grammar {
    opts: &[],
    permute: true,
    digits: Digits::No,
    longs: Longs::Abbreviated,
    shorts: Shorts::Clustered,
    unknown: Unknown::Misuse,
};

/// How a command reads digits among its short options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Digits {
    /// They are not options.
    No,
    /// Each is an option of its own (`-12` is `-1` then `-2`), as grep's `-NUM` and uniq's,
    /// tail's, diff's and fmt's obsolete counts are read.
    Each,
    /// The first is an option whose value is the rest of the word (`-80` is `-8` with `0`),
    /// as fold's width and expand's tab list are read.
    Number,
}

/// How `--name` words name options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Longs {
    /// `getopt_long`'s: the whole name, or a prefix of it that names one option
    /// (`--ignore` for `--ignore-case`); `--name=value` gives a value, and so does the next
    /// word when one is required.
    Abbreviated,
    /// Whole names only (ripgrep: `--max-coun` names nothing); values as `getopt_long`'s.
    Exact,
    /// tree's: an option without a value by its whole word (`--noreport=1` names nothing);
    /// one with a value by any word that begins with its name (`--sortx name` is `--sort
    /// name`), the first in the table, whose value follows `=` (and may not be empty:
    /// [`Misuse::EmptyValue`]) or else is the next word.
    Leading,
}

/// How short options are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shorts {
    /// `getopt`'s: letters cluster (`-nv`); a value is the rest of the word (`-n5`), or the
    /// next word when required (`-n 5`).
    Clustered,
    /// ripgrep's (the `lexopt` crate's): as `Clustered`, and an attached value may follow
    /// one `=` (`-m=5` is `-m 5`); `=` after an option without a value is a misuse (`-c=3`:
    /// [`Misuse::NoValueAllowed`]).
    ClusteredEquals,
    /// tree's: letters cluster, and each that takes a value takes the next word not yet
    /// read, while the rest of its word is read as more letters (`-LP 2 x` is `-L 2 -P x`).
    NextWords,
    /// find's leading options: each is a word of its own, never clustered. An option
    /// without a value or with a required one is the word `-c` (its value the next word:
    /// `-D tree`); one with an optional value is the word's start, its value the rest
    /// (`-O3`).
    Whole,
}

/// What a word that names no option is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unknown {
    /// A misuse ([`Misuse::Invalid`], [`Misuse::Unrecognized`]).
    Misuse,
    /// An operand, the whole word (find's leading options end at the first word that is
    /// not one of them, such as `-name`).
    Operand,
}

/// The keys of digit options.
const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// An option as given: its key and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Given {
    pub key: &'static str,
    pub value: Option<String>,
    /// How it was spelled (`-n`, `--lines`), for messages about its value.
    pub spelled: String,
    /// The index of the word it was read from.
    pub word: usize,
    /// It was spelled by a [`negation`]: the option is turned off.
    pub negated: bool,
}

/// A command line read: its options in order, then its operands.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub opts: Vec<Given>,
    pub operands: Vec<String>,
    /// Each operand's index among the words.
    pub operand_at: Vec<usize>,
    /// The index of the `--` that ended the options, if one did.
    pub double_dash: Option<usize>,
}

impl Line {
    fn operand(&mut self, args: &[String], at: usize) {
        self.operands.push(args[at].clone());
        self.operand_at.push(at);
    }
}

/// A command line its grammar refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Misuse {
    /// `-x` that no option has.
    Invalid(char),
    /// `--name` (as written, with any `=value`) that no option has, or under
    /// [`Shorts::Whole`] a word that is no option (`-HL`).
    Unrecognized(String),
    /// `-x` at the end of the line when it needs a value.
    ShortNeedsValue(char),
    /// `--name` (its full name) at the end of the line when it needs a value.
    LongNeedsValue(&'static str),
    /// A value for an option without one: `--name=value` (spelled `--name`), or under
    /// [`Shorts::ClusteredEquals`] `-c=value` (spelled `-c`).
    NoValueAllowed(String),
    /// `--name=` with nothing after `=`, under [`Longs::Leading`].
    EmptyValue(&'static str),
    /// `--pre` (as written) with the long names it could be.
    Ambiguous(String, Vec<&'static str>),
}

impl Misuse {
    /// glibc's message, after `name: `, with its newline.
    pub(crate) fn message(&self, name: &str) -> String {
        match self {
            Misuse::Invalid(c) => format!("{name}: invalid option -- '{c}'\n"),
            Misuse::Unrecognized(w) => format!("{name}: unrecognized option '{w}'\n"),
            Misuse::ShortNeedsValue(c) => format!("{name}: option requires an argument -- '{c}'\n"),
            Misuse::LongNeedsValue(l) | Misuse::EmptyValue(l) => {
                format!("{name}: option '--{l}' requires an argument\n")
            }
            Misuse::NoValueAllowed(o) => format!("{name}: option '{o}' doesn't allow an argument\n"),
            Misuse::Ambiguous(w, all) => {
                let mut m = format!("{name}: option '{w}' is ambiguous; possibilities:");
                for l in all {
                    m.push_str(&format!(" '--{l}'"));
                }
                m.push('\n');
                m
            }
        }
    }
}

/// Reads `args` (the words after the command's name) against `grammar`.
pub(crate) fn parse(grammar: &Grammar, args: &[String]) -> Result<Line, Misuse> {
    match read(grammar, args) {
        (line, None) => Ok(line),
        (_, Some(misuse)) => Err(misuse),
    }
}

/// Reads `args` as [`parse`] does, up to the first misuse: the options before it (a tool
/// that acts on each option as it reads it, as grep does, acts on those first), and it.
pub(crate) fn read(grammar: &Grammar, args: &[String]) -> (Line, Option<Misuse>) {
    let mut line = Line::default();
    let misuse = read_into(grammar, args, &mut line).err();
    (line, misuse)
}

/// The words of a command line, read from the front.
struct Words<'a> {
    args: &'a [String],
    /// The next word not yet read.
    next: usize,
}

impl Words<'_> {
    /// The next word not yet read, as a value.
    fn take(&mut self) -> Option<String> {
        let v = self.args.get(self.next)?.clone();
        self.next += 1;
        Some(v)
    }
}

fn read_into(grammar: &Grammar, args: &[String], line: &mut Line) -> Result<(), Misuse> {
    let mut words = Words { args, next: 0 };
    while words.next < args.len() {
        let at = words.next;
        let word = &args[at];
        words.next += 1;
        if word == "--" {
            line.double_dash = Some(at);
            (at + 1..args.len()).for_each(|at| line.operand(args, at));
            break;
        }
        let mut read = Vec::new();
        let outcome = if let Some(rest) = word.strip_prefix("--") {
            long_word(grammar, rest, at, &mut words, &mut read)
        } else if word.len() > 1 && word.starts_with('-') {
            short_word(grammar, word, at, &mut words, &mut read)
        } else {
            Ok(false)
        };
        let is_option = match outcome {
            Ok(is_option) => is_option,
            Err(Misuse::Invalid(_) | Misuse::Unrecognized(_)) if grammar.unknown == Unknown::Operand => {
                words.next = at + 1;
                read.clear();
                false
            }
            Err(misuse) => {
                line.opts.append(&mut read);
                return Err(misuse);
            }
        };
        if is_option {
            line.opts.append(&mut read);
        } else if grammar.permute {
            line.operand(args, at);
        } else {
            (at..args.len()).for_each(|at| line.operand(args, at));
            break;
        }
    }
    Ok(())
}

/// A `--name` word (`rest` after the dashes), read into `out`.
fn long_word(
    grammar: &Grammar,
    rest: &str,
    at: usize,
    words: &mut Words,
    out: &mut Vec<Given>,
) -> Result<bool, Misuse> {
    let word = format!("--{rest}");
    let (o, value) = match grammar.longs {
        Longs::Leading => leading_long(grammar, rest, &word, words)?,
        Longs::Abbreviated | Longs::Exact => {
            let (name, value) = match rest.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (rest, None),
            };
            let o = long_named(grammar, name, &word)?;
            let name = o.long.unwrap_or_default();
            let value = match (o.arg, value) {
                (Arg::No, Some(_)) => return Err(Misuse::NoValueAllowed(format!("--{name}"))),
                (Arg::Required, None) => Some(words.take().ok_or(Misuse::LongNeedsValue(name))?),
                (_, v) => v,
            };
            (o, value)
        }
    };
    let spelled = format!("--{}", o.long.unwrap_or_default());
    out.push(Given { key: o.key, value, spelled, word: at, negated: o.negates });
    Ok(true)
}

/// Under [`Longs::Leading`]: the option `--rest` names, and its value.
fn leading_long<'g>(
    grammar: &'g Grammar,
    rest: &str,
    word: &str,
    words: &mut Words,
) -> Result<(&'g Opt, Option<String>), Misuse> {
    let rows = || grammar.opts.iter();
    if let Some(o) = rows().find(|o| o.arg == Arg::No && o.long == Some(rest)) {
        return Ok((o, None));
    }
    let valued = rows().filter(|o| o.arg != Arg::No);
    let Some((o, name, after)) = valued.filter_map(|o| o.long.and_then(|l| Some((o, l, rest.strip_prefix(l)?)))).next()
    else {
        return Err(Misuse::Unrecognized(word.to_string()));
    };
    let value = match after.strip_prefix('=') {
        Some("") => return Err(Misuse::EmptyValue(name)),
        Some(v) => v.to_string(),
        None => words.take().ok_or(Misuse::LongNeedsValue(name))?,
    };
    Ok((o, Some(value)))
}

/// The option `--name` names: itself, or the one option its prefix names when the grammar
/// allows abbreviations.
fn long_named<'g>(grammar: &'g Grammar, name: &str, word: &str) -> Result<&'g Opt, Misuse> {
    let longs = || grammar.opts.iter().filter(|o| o.long.is_some());
    if let Some(exact) = longs().find(|o| o.long == Some(name)) {
        return Ok(exact);
    }
    if grammar.longs != Longs::Abbreviated {
        return Err(Misuse::Unrecognized(word.to_string()));
    }
    // As glibc: the first option the prefix names, and each later one that differs from it.
    let mut matching = longs().filter(|o| !name.is_empty() && o.long.is_some_and(|l| l.starts_with(name)));
    let found = matching.next().ok_or_else(|| Misuse::Unrecognized(word.to_string()))?;
    let differs = |o: &&Opt| o.key != found.key || o.arg != found.arg || o.negates != found.negates;
    let others: Vec<&'static str> = matching.filter(differs).filter_map(|o| o.long).collect();
    if others.is_empty() {
        return Ok(found);
    }
    Err(Misuse::Ambiguous(word.to_string(), found.long.into_iter().chain(others).collect()))
}

/// A `-xyz` word, read into `out`.
fn short_word(
    grammar: &Grammar,
    word: &str,
    at: usize,
    words: &mut Words,
    out: &mut Vec<Given>,
) -> Result<bool, Misuse> {
    let row = |c: char| grammar.opts.iter().find(|o| o.short == Some(c));
    let given = |o: &Opt, c: char, value: Option<String>| Given {
        key: o.key,
        value,
        spelled: format!("-{c}"),
        word: at,
        negated: o.negates,
    };
    if grammar.shorts == Shorts::Whole {
        let mut letters = word[1..].chars();
        let c = letters.next().unwrap_or_default();
        let (o, rest) = (row(c).ok_or(Misuse::Invalid(c))?, letters.as_str());
        let value = match o.arg {
            Arg::Optional => (!rest.is_empty()).then(|| rest.to_string()),
            _ if !rest.is_empty() => return Err(Misuse::Unrecognized(word.to_string())),
            Arg::No => None,
            Arg::Required => Some(words.take().ok_or(Misuse::ShortNeedsValue(c))?),
        };
        out.push(given(o, c, value));
        return Ok(true);
    }
    for (pos, c) in word[1..].char_indices() {
        let rest = &word[1 + pos + c.len_utf8()..];
        let Some(o) = row(c) else {
            let digit = c.to_digit(10).filter(|_| grammar.digits != Digits::No).ok_or(Misuse::Invalid(c))?;
            let value = (grammar.digits == Digits::Number && !rest.is_empty()).then(|| rest.to_string());
            let took = value.is_some();
            out.push(Given { key: DIGITS[digit as usize], value, spelled: format!("-{c}"), word: at, negated: false });
            if took {
                break;
            }
            continue;
        };
        let equals = grammar.shorts == Shorts::ClusteredEquals;
        let value = match o.arg {
            Arg::No if equals && rest.starts_with('=') => return Err(Misuse::NoValueAllowed(format!("-{c}"))),
            Arg::No => None,
            _ if grammar.shorts == Shorts::NextWords => Some(words.take().ok_or(Misuse::ShortNeedsValue(c))?),
            _ if !rest.is_empty() => {
                let attached = if equals { rest.strip_prefix('=').unwrap_or(rest) } else { rest };
                out.push(given(o, c, Some(attached.to_string())));
                break;
            }
            Arg::Optional => None,
            Arg::Required => Some(words.take().ok_or(Misuse::ShortNeedsValue(c))?),
        };
        let took = value.is_some() && grammar.shorts != Shorts::NextWords;
        out.push(given(o, c, value));
        if took {
            break;
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests;
