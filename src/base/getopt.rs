//! The one reader of GNU command lines: `getopt_long`'s rules over a table of options.
//!
//! A command states its options once, as a table of [`Opt`]s (a short letter, a long
//! name, or both, and whether a value follows); [`parse`] reads a command line against it
//! as glibc's `getopt_long` does:
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
/// spellings of one option.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opt {
    pub short: Option<char>,
    pub long: Option<&'static str>,
    pub arg: Arg,
    pub key: &'static str,
}

/// `-c` and `--long`, with the key `long`.
pub(crate) const fn opt(short: char, long: &'static str, arg: Arg) -> Opt {
    Opt { short: Some(short), long: Some(long), arg, key: long }
}

/// A short option alone, named by its letter (`key` as given, a one-letter string).
pub(crate) const fn short(key: &'static str, arg: Arg) -> Opt {
    let c = key.as_bytes()[0] as char;
    Opt { short: Some(c), long: None, arg, key }
}

/// A long option alone.
pub(crate) const fn long(name: &'static str, arg: Arg) -> Opt {
    Opt { short: None, long: Some(name), arg, key: name }
}

/// Another long spelling of the option named `key` (`--silent` for `--quiet`).
pub(crate) const fn alias(name: &'static str, arg: Arg, key: &'static str) -> Opt {
    Opt { short: None, long: Some(name), arg, key }
}

/// A command's options.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grammar {
    pub opts: &'static [Opt],
    /// Options may follow operands (GNU's default); `false` stops at the first operand.
    pub permute: bool,
    /// Whether digits are options (keyed by themselves) where no row names them.
    pub digits: Digits,
}

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

/// A command line `getopt_long` refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Misuse {
    /// `-x` that no option has.
    Invalid(char),
    /// `--name` (as written, with any `=value`) that no option has.
    Unrecognized(String),
    /// `-x` at the end of the line when it needs a value.
    ShortNeedsValue(char),
    /// `--name` (its full name) at the end of the line when it needs a value.
    LongNeedsValue(&'static str),
    /// `--name=value` for an option without a value.
    NoValueAllowed(&'static str),
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
            Misuse::LongNeedsValue(l) => format!("{name}: option '--{l}' requires an argument\n"),
            Misuse::NoValueAllowed(l) => format!("{name}: option '--{l}' doesn't allow an argument\n"),
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

fn read_into(grammar: &Grammar, args: &[String], line: &mut Line) -> Result<(), Misuse> {
    let mut i = 0;
    while i < args.len() {
        let (at, word) = (i, &args[i]);
        i += 1;
        if word == "--" {
            line.double_dash = Some(i - 1);
            (i..args.len()).for_each(|at| line.operand(args, at));
            break;
        }
        if let Some(rest) = word.strip_prefix("--") {
            let (name, value) = match rest.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (rest, None),
            };
            let o = long_named(grammar, name, word)?;
            let name = o.long.unwrap_or_default();
            let value = match (o.arg, value) {
                (Arg::No, Some(_)) => return Err(Misuse::NoValueAllowed(name)),
                (Arg::Required, None) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        Some(v.clone())
                    }
                    None => return Err(Misuse::LongNeedsValue(name)),
                },
                (_, v) => v,
            };
            line.opts.push(Given { key: o.key, value, spelled: format!("--{name}"), word: at });
        } else if word.len() > 1 && word.starts_with('-') {
            for (pos, c) in word[1..].char_indices() {
                let rest = &word[1 + pos + c.len_utf8()..];
                let Some(o) = grammar.opts.iter().find(|o| o.short == Some(c)) else {
                    let digit = c.to_digit(10).filter(|_| grammar.digits != Digits::No).ok_or(Misuse::Invalid(c))?;
                    let value = (grammar.digits == Digits::Number && !rest.is_empty()).then(|| rest.to_string());
                    let took = value.is_some();
                    line.opts.push(Given { key: DIGITS[digit as usize], value, spelled: format!("-{c}"), word: at });
                    if took {
                        break;
                    }
                    continue;
                };
                let value = match o.arg {
                    Arg::No => None,
                    _ if !rest.is_empty() => Some(rest.to_string()),
                    Arg::Optional => None,
                    Arg::Required => match args.get(i) {
                        Some(v) => {
                            i += 1;
                            Some(v.clone())
                        }
                        None => return Err(Misuse::ShortNeedsValue(c)),
                    },
                };
                let took = value.is_some();
                line.opts.push(Given { key: o.key, value, spelled: format!("-{c}"), word: at });
                if took {
                    break;
                }
            }
        } else if grammar.permute {
            line.operand(args, at);
        } else {
            (at..args.len()).for_each(|at| line.operand(args, at));
            break;
        }
    }
    Ok(())
}

/// The option `--name` names: itself, or the one option its prefix names.
fn long_named<'g>(grammar: &'g Grammar, name: &str, word: &str) -> Result<&'g Opt, Misuse> {
    let longs = || grammar.opts.iter().filter(|o| o.long.is_some());
    if let Some(exact) = longs().find(|o| o.long == Some(name)) {
        return Ok(exact);
    }
    // As glibc: the first option the prefix names, and each later one that differs from it.
    let mut matching = longs().filter(|o| !name.is_empty() && o.long.is_some_and(|l| l.starts_with(name)));
    let found = matching.next().ok_or_else(|| Misuse::Unrecognized(word.to_string()))?;
    let others: Vec<&'static str> =
        matching.filter(|o| o.key != found.key || o.arg != found.arg).filter_map(|o| o.long).collect();
    if others.is_empty() {
        return Ok(found);
    }
    Err(Misuse::Ambiguous(word.to_string(), found.long.into_iter().chain(others).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: &[Opt] = &[
        opt('n', "lines", Arg::Required),
        opt('q', "quiet", Arg::No),
        alias("silent", Arg::No, "quiet"),
        opt('v', "verbose", Arg::No),
        opt('i', "in-place", Arg::Optional),
        long("sort", Arg::Required),
        long("stable", Arg::No),
        short("z", Arg::No),
    ];
    const G: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No };

    fn words(s: &str) -> Vec<String> {
        s.split(' ').filter(|w| !w.is_empty()).map(String::from).collect()
    }

    fn keys(line: &Line) -> Vec<(&str, Option<&str>)> {
        line.opts.iter().map(|g| (g.key, g.value.as_deref())).collect()
    }

    #[test]
    fn clusters_values_and_operands() {
        let l = parse(&G, &words("-qvn5 a --lines 3 -n -2 b -- -z")).unwrap();
        assert_eq!(
            keys(&l),
            [("quiet", None), ("verbose", None), ("lines", Some("5")), ("lines", Some("3")), ("lines", Some("-2"))]
        );
        assert_eq!(l.operands, ["a", "b", "-z"]);
        let l = parse(&G, &words("-i -i.bak --in-place=x --in-place - -z")).unwrap();
        assert_eq!(
            keys(&l),
            [("in-place", None), ("in-place", Some(".bak")), ("in-place", Some("x")), ("in-place", None), ("z", None)]
        );
        assert_eq!(l.operands, ["-"]);
    }

    #[test]
    fn prefixes_and_aliases() {
        let l = parse(&G, &words("--li=4 --sil --ve --so x")).unwrap();
        assert_eq!(keys(&l), [("lines", Some("4")), ("quiet", None), ("verbose", None), ("sort", Some("x"))]);
        let e = parse(&G, &words("--s")).unwrap_err();
        assert_eq!(
            e.message("sort"),
            "sort: option '--s' is ambiguous; possibilities: '--silent' '--sort' '--stable'\n"
        );
        let e = parse(&G, &words("--st=1")).unwrap_err();
        assert_eq!(e, Misuse::NoValueAllowed("stable"));
    }

    #[test]
    fn misuse_in_glibc_words() {
        let m = |s: &str| parse(&G, &words(s)).unwrap_err().message("head");
        assert_eq!(m("-x"), "head: invalid option -- 'x'\n");
        assert_eq!(m("-n"), "head: option requires an argument -- 'n'\n");
        assert_eq!(m("--lin"), "head: option '--lines' requires an argument\n");
        assert_eq!(m("--foo=bar"), "head: unrecognized option '--foo=bar'\n");
        assert_eq!(m("--quiet=3"), "head: option '--quiet' doesn't allow an argument\n");
    }

    #[test]
    fn digits_are_options_when_asked() {
        let g = Grammar { opts: OPTS, permute: true, digits: Digits::Each };
        let l = parse(&g, &words("-12 -q3 x")).unwrap();
        assert_eq!(keys(&l), [("1", None), ("2", None), ("quiet", None), ("3", None)]);
        assert_eq!(l.opts.iter().map(|g| g.word).collect::<Vec<_>>(), [0, 0, 1, 1], "each option knows its word");
        let g = Grammar { opts: OPTS, permute: true, digits: Digits::Number };
        let l = parse(&g, &words("-80 -q4,8 -5")).unwrap();
        assert_eq!(keys(&l), [("8", Some("0")), ("quiet", None), ("4", Some(",8")), ("5", None)]);
        assert_eq!(parse(&G, &words("-1")).unwrap_err(), Misuse::Invalid('1'));
    }

    #[test]
    fn options_stop_at_the_first_operand_when_asked() {
        let g = Grammar { opts: OPTS, permute: false, digits: Digits::No };
        let l = parse(&g, &words("-q echo -n 1")).unwrap();
        assert_eq!(keys(&l), [("quiet", None)]);
        assert_eq!(l.operands, ["echo", "-n", "1"]);
    }
}
