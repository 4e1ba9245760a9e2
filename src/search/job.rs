//! One search command line, parsed once, for every stage of the search to read.
//!
//! A search passes through a plan, a coarse query, a bulk load, a fine check and a
//! printer. Each stage needs the options, the patterns and the files in scope, and each
//! used to get them by parsing the command line again (and walking the scope again, and
//! compiling the pattern again), with the arguments rebuilt as text between stages. A
//! [`Job`] is that reading done once: the options as the real tool reads them (egrep's and
//! fgrep's implied flag included), the patterns the command line gives, and the walk of
//! its scope, done on first use and kept. The stages take it by reference; only a command
//! handed back to just-bash is spelled as arguments again.

use crate::base::path;
use crate::commands::walk::{Policy, RgWalk, Scope};
use crate::search::args::{parse_grep, parse_rg, GrepArgs, RgArgs};
use crate::search::walk::{walk, Target};
use crate::tree::listing::Listing;
use std::cell::OnceCell;

/// The parsed options of a search command.
#[derive(Debug)]
pub(crate) enum Parsed {
    /// grep, egrep or fgrep.
    Grep(GrepArgs),
    Rg(RgArgs),
}

/// What a walk from one operand visits.
#[derive(Debug)]
pub(crate) struct Walked {
    pub operand: String,
    pub targets: Vec<Target>,
    /// rg only: no file is spelled like an option (see [`walk`]).
    pub clean: bool,
}

/// A search command line, parsed once.
#[derive(Debug)]
pub(crate) struct Job {
    /// The arguments as typed (without an implied flag); operand indices point here.
    pub args: Vec<String>,
    pub parsed: Parsed,
    /// The patterns the command line gives (grep's split at newlines); `-f` files are
    /// read later, by the plan.
    pub patterns: Vec<String>,
    /// The command's standard input, when its text is known (`None`: not empty, and
    /// not passed).
    pub stdin: Option<String>,
    /// The working directory, normalised: the operands are resolved against it.
    pub cwd: String,
    /// The file the command's standard output goes to (normalised), when it is one: grep
    /// will not read it, rg skips it.
    pub stdout_file: Option<String>,
    walked: OnceCell<Vec<Walked>>,
}

impl Job {
    /// Parses a command line (grep's as GNU grep, rg's as ripgrep reads it) typed in
    /// the working directory `cwd`.
    pub(crate) fn parse(name: &str, args: Vec<String>, cwd: &str) -> Job {
        let (parsed, patterns) = match name {
            "rg" => {
                let r = parse_rg(&args);
                let patterns = r.patterns.clone();
                (Parsed::Rg(r), patterns)
            }
            _ => {
                let g = parse_implied(name, &args);
                let patterns = g.pattern.as_deref().map(|p| p.split('\n').map(String::from).collect());
                (Parsed::Grep(g), patterns.unwrap_or_default())
            }
        };
        Job {
            args,
            parsed,
            patterns,
            stdin: None,
            cwd: path::normalize(cwd),
            stdout_file: None,
            walked: OnceCell::new(),
        }
    }

    /// The file operands as typed; `""` is the working directory searched without an
    /// operand (a recursive grep, or rg), whose files are named without `./`.
    pub(crate) fn operands(&self) -> Vec<&str> {
        match &self.parsed {
            Parsed::Grep(g) if g.file_operands.is_empty() && g.recursive => vec![""],
            Parsed::Grep(g) => g.file_operands.iter().map(|&i| self.args[i].as_str()).collect(),
            Parsed::Rg(r) if r.paths.is_empty() => vec![""],
            Parsed::Rg(r) => r.paths.iter().map(|&i| self.args[i].as_str()).collect(),
        }
    }

    /// The arguments without the file operands, ending where a narrowed search's files
    /// go (after a `--` for grep, so that no file name reads as an option).
    pub(crate) fn without_operands(&self) -> Vec<String> {
        let (operands, dash): (&[usize], bool) = match &self.parsed {
            Parsed::Grep(g) => (&g.file_operands, !g.has_double_dash),
            Parsed::Rg(r) => (&r.paths, false),
        };
        let rest = self.args.iter().enumerate().filter(|(i, _)| !operands.contains(i)).map(|(_, a)| a.clone());
        rest.chain(dash.then(|| "--".to_string())).collect()
    }

    /// The walk of every operand, in order: grep's recursive walk, or rg's with its
    /// `--hidden` and `--max-depth`. Walked on first use; a job is walked
    /// in the one place it runs: `listing`, beside the session's `scratch` directory.
    pub(crate) fn walked(&self, listing: &Listing, scratch: Option<&crate::fs::scratch::Dirs>) -> &[Walked] {
        let scope = Scope { listing, scratch };
        self.walked.get_or_init(|| {
            let how = match &self.parsed {
                Parsed::Rg(r) => Some(RgWalk {
                    hidden: r.output.hidden,
                    filtered: !(r.output.globs.is_empty() && r.output.types.is_empty()),
                    max_depth: r.output.max_depth.unwrap_or(RgWalk::default().max_depth),
                }),
                Parsed::Grep(_) => None,
            };
            let one = |op: &str| {
                let mut targets = Vec::new();
                let policy = how.map_or(Policy::GREP, Policy::rg);
                let clean = walk(scope, &self.cwd, op, policy, &mut targets);
                Walked { operand: op.to_string(), targets, clean }
            };
            self.operands().into_iter().map(one).collect()
        })
    }
}

/// grep's options with egrep's `-E` or fgrep's `-F` put in front, and the operand
/// indices pointing into `args` as typed.
fn parse_implied(name: &str, args: &[String]) -> GrepArgs {
    let implied: &[&str] = match name {
        "egrep" => &["-E"],
        "fgrep" => &["-F"],
        _ => &[],
    };
    let full: Vec<String> = implied.iter().map(|s| s.to_string()).chain(args.iter().cloned()).collect();
    let mut g = parse_grep(&full, implied.len());
    g.file_operands.iter_mut().for_each(|i| *i -= implied.len());
    for at in [&mut g.double_dash, &mut g.pattern_operand].into_iter().flatten() {
        *at -= implied.len();
    }
    g
}
