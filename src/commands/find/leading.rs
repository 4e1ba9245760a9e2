//! GNU find's options before the starting points, read through the one option grammar
//! ([`getopt`]) as findutils 4.9 reads them: each a word of its own, up to the first word
//! that is none of them (`--` ends them too). `-H`, `-L`, `-P` (a collection has no
//! symbolic links to follow), `-O` levels (the order of tests is the expression's here:
//! a level is checked, then changes nothing), and `-D` debug flags. The debug output
//! describes GNU find's own workings and goes to standard error; what is printed on
//! standard output does not change, so a valid list of flags is read and nothing is added,
//! an unknown flag is warned about in GNU's words, and `-D help` prints GNU's list.

use crate::base::getopt::{self, short, Arg, Grammar, Opt, Shorts, Unknown};
use crate::base::texts::{self, Text};
use crate::commands::{Printed, Stop};

/// What the leading options said: how many words they took, warnings for standard
/// error, and whether `-D help` asked for the list instead of a walk.
pub(super) struct Leading {
    pub words: usize,
    pub warnings: String,
    pub help: bool,
}

/// find's leading options: `-O` takes the rest of its word (`-O3`), `-D` the next word.
const OPTS: &[Opt] = &[
    short("H", Arg::No),
    short("L", Arg::No),
    short("P", Arg::No),
    short("D", Arg::Required),
    short("O", Arg::Optional),
];
const GRAMMAR: Grammar =
    Grammar { opts: OPTS, permute: false, shorts: Shorts::Whole, unknown: Unknown::Operand, ..getopt::GETOPT_LONG };

const FLAGS: [&str; 9] = ["exec", "opt", "rates", "search", "stat", "time", "tree", "all", "help"];

/// `find --version`: findutils 4.9.0's, whose output this is.
pub(super) const VERSION: Text = texts::FIND_VERSION;

pub(super) const HELP: &str = "Valid arguments for -D:
exec       Show diagnostic information relating to -exec, -execdir, -ok and -okdir
opt        Show diagnostic information relating to optimisation
rates      Indicate how often each predicate succeeded
search     Navigate the directory tree verbosely
stat       Trace calls to stat(2) and lstat(2)
time       Show diagnostic information relating to time-of-day and timestamp comparisons
tree       Display the expression tree
all        Set all of the debug flags (but help)
help       Explain the various -D options
";

/// find stops with `line` (after the warnings printed so far), and with `--help`'s hint
/// when it is a usage error.
fn fail(warnings: &str, line: &str, hint: bool) -> Stop {
    let hint = if hint { "Try 'find --help' for more information.\n" } else { "" };
    let stderr = format!("{warnings}find: {line}\n{hint}");
    Stop::Usage(Printed { stdout: String::new(), stderr, exit_code: 1, ..Default::default() })
}

pub(super) fn leading(args: &[String]) -> Result<Leading, Stop> {
    let (line, misuse) = getopt::read(&GRAMMAR, args);
    let words = line.operand_at.first().copied().unwrap_or(args.len());
    let mut l = Leading { words, warnings: String::new(), help: false };
    for given in &line.opts {
        let value = given.value.as_deref().unwrap_or_default();
        match given.key {
            "D" => debug_flags(value, &mut l)?,
            "O" => optimisation_level(value).map_err(|why| fail(&l.warnings, &why, false))?,
            _ => {}
        }
        // GNU find prints the list as soon as a `-D` asks for it, and exits.
        if l.help {
            return Ok(l);
        }
    }
    match misuse {
        Some(_) => Err(fail(&l.warnings, "Missing argument after the -D option.", true)),
        None => Ok(l),
    }
}

/// A comma-separated list of debug flags. GNU find 4.9 names the list's first flag in
/// its warning about any unknown one.
fn debug_flags(list: &str, l: &mut Leading) -> Result<(), Stop> {
    let flags: Vec<&str> = list.split(',').filter(|f| !f.is_empty()).collect();
    let Some(first) = flags.first() else { return Err(fail(&l.warnings, "Empty argument to the -D option.", true)) };
    for f in &flags {
        if !FLAGS.contains(f) {
            l.warnings.push_str(&format!("find: Ignoring unrecognised debug flag ‘{first}’\n"));
        }
        l.help |= *f == "help";
    }
    Ok(())
}

/// `-O`'s level: decimal digits right after `-O`, at most 65535 (findutils' checks, in
/// their order and words).
fn optimisation_level(level: &str) -> Result<(), String> {
    if level.is_empty() {
        return Err("The -O option must be immediately followed by a decimal integer".into());
    }
    if !level.starts_with(|c: char| c.is_ascii_digit()) {
        return Err("Please specify a decimal number immediately after -O".into());
    }
    if !level.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("Invalid optimisation level {level}"));
    }
    match level.parse::<u64>() {
        Err(_) => Err(format!("Invalid optimisation level {level}: Numerical result out of range")),
        Ok(n) if n > u64::from(u16::MAX) => Err(format!(
            "Optimisation level {n} is too high.  If you want to find files very quickly, consider using GNU locate."
        )),
        Ok(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_string).collect()
    }

    fn stderr(line: &str) -> String {
        match leading(&words(line)) {
            Err(Stop::Usage(p)) => p.stderr,
            _ => String::new(),
        }
    }

    #[test]
    fn debug_flags_are_read_and_unknown_ones_warned_about() {
        let l = leading(&words("-L -D tree,stat -O2 . -name x")).ok().unwrap();
        assert_eq!((l.words, l.warnings.as_str(), l.help), (4, "", false));
        let l = leading(&words("-D TREE .")).ok().unwrap();
        assert_eq!(l.warnings, "find: Ignoring unrecognised debug flag ‘TREE’\n");
        assert!(leading(&words("-D opt,help")).ok().unwrap().help);
        assert_eq!(stderr("-D ,"), "find: Empty argument to the -D option.\nTry 'find --help' for more information.\n");
        assert!(stderr("-D").starts_with("find: Missing argument after the -D option.\n"));
        assert_eq!(
            stderr("-D bogus -D"),
            "find: Ignoring unrecognised debug flag ‘bogus’\nfind: Missing argument after the -D option.\n\
             Try 'find --help' for more information.\n",
            "the warnings printed before the error"
        );
    }

    #[test]
    fn the_leading_options_end_where_find_stops_reading_them() {
        // GNU find: `-HL`, `-Dtree` and `-x` are the expression's (unknown predicates); `--`
        // ends the options and is not a starting point.
        for (line, words) in
            [("-H -L -P d", 3), ("-HL d", 0), ("-Dtree d", 0), ("-P -x", 1), ("-H -- -L d", 2), ("--", 1)]
        {
            assert_eq!(leading(&self::words(line)).ok().map(|l| l.words), Some(words), "{line}");
        }
        assert!(leading(&words("-D help -O")).ok().unwrap().help, "the list is printed before -O is read");
    }

    #[test]
    fn optimisation_levels_are_checked_in_findutils_words() {
        assert_eq!(leading(&words("-O0 -O3 -O65535 d")).ok().map(|l| l.words), Some(3));
        let cases = [
            ("-O d", "find: The -O option must be immediately followed by a decimal integer\n"),
            ("-Ox d", "find: Please specify a decimal number immediately after -O\n"),
            ("-O+1", "find: Please specify a decimal number immediately after -O\n"),
            ("-O3x d", "find: Invalid optimisation level 3x\n"),
            (
                "-O65536",
                "find: Optimisation level 65536 is too high.  If you want to find files very quickly, consider using GNU locate.\n",
            ),
            (
                "-O18446744073709551616",
                "find: Invalid optimisation level 18446744073709551616: Numerical result out of range\n",
            ),
            ("-D x -O", "find: Ignoring unrecognised debug flag ‘x’\nfind: The -O option must be immediately followed by a decimal integer\n"),
        ];
        for (line, want) in cases {
            assert_eq!(stderr(line), want, "{line}");
        }
    }
}
