//! GNU find's options before the starting points: `-H`, `-L`, `-P` (a collection has no
//! symbolic links to follow), `-O` levels (the order of tests is the expression's here),
//! and `-D` debug flags. The debug output describes GNU find's own workings and goes to
//! standard error; what is printed on standard output does not change, so a valid list of
//! flags is read and nothing is added, an unknown flag is warned about in GNU's words,
//! and `-D help` prints GNU's list.

use crate::base::texts::{self, Text};
use crate::commands::{Printed, Stop};

/// What the leading options said: how many words they took, warnings for standard
/// error, and whether `-D help` asked for the list instead of a walk.
pub(super) struct Leading {
    pub words: usize,
    pub warnings: String,
    pub help: bool,
}

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

fn usage(line: &str) -> Stop {
    let stderr = format!("find: {line}\nTry 'find --help' for more information.\n");
    Stop::Usage(Printed { stdout: String::new(), stderr, exit_code: 1, ..Default::default() })
}

pub(super) fn leading(args: &[String]) -> Result<Leading, Stop> {
    let mut l = Leading { words: 0, warnings: String::new(), help: false };
    while let Some(a) = args.get(l.words) {
        match a.as_str() {
            "-H" | "-L" | "-P" => {}
            o if o.starts_with("-O") && o[2..].bytes().all(|b| b.is_ascii_digit()) => {}
            "-D" => {
                l.words += 1;
                let list = args.get(l.words).ok_or_else(|| usage("Missing argument after the -D option."))?;
                debug_flags(list, &mut l)?;
            }
            _ => break,
        }
        l.words += 1;
    }
    Ok(l)
}

/// A comma-separated list of debug flags. GNU find 4.9 names the list's first flag in
/// its warning about any unknown one.
fn debug_flags(list: &str, l: &mut Leading) -> Result<(), Stop> {
    let flags: Vec<&str> = list.split(',').filter(|f| !f.is_empty()).collect();
    let Some(first) = flags.first() else { return Err(usage("Empty argument to the -D option.")) };
    for f in &flags {
        if !FLAGS.contains(f) {
            l.warnings.push_str(&format!("find: Ignoring unrecognised debug flag ‘{first}’\n"));
        }
        l.help |= *f == "help";
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn debug_flags_are_read_and_unknown_ones_warned_about() {
        let l = leading(&words("-L -D tree,stat -O2 . -name x")).ok().unwrap();
        assert_eq!((l.words, l.warnings.as_str(), l.help), (4, "", false));
        let l = leading(&words("-D TREE .")).ok().unwrap();
        assert_eq!(l.warnings, "find: Ignoring unrecognised debug flag ‘TREE’\n");
        assert!(leading(&words("-D opt,help")).ok().unwrap().help);
        let Err(Stop::Usage(p)) = leading(&words("-D ,")) else { panic!() };
        assert_eq!(p.stderr, "find: Empty argument to the -D option.\nTry 'find --help' for more information.\n");
        let Err(Stop::Usage(p)) = leading(&words("-D")) else { panic!() };
        assert!(p.stderr.starts_with("find: Missing argument after the -D option.\n"));
    }
}
