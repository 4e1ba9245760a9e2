//! Commands answered in Rust from what the session already holds.
//!
//! just-bash runs every command in JavaScript behind one filesystem call per file or
//! directory; over thousands of pages that walk is most of a command's time. The
//! commands here — [`ls`], [`find`], and grep in [`crate::search::native`] — print
//! exactly what just-bash's own command would print, for the flags and operands whose
//! output they model, and say [`Unsupported`] (with the reason) for anything else, which
//! then runs in just-bash as before.

pub mod find;
pub mod glob;
pub mod ls;

use crate::fs::{Filesystem, DEV_NULL};
use crate::stats::CommandStats;
use crate::listing::Listing;
use crate::search::Unsupported;
use serde::Serialize;

/// A command's result, as just-bash's command returns it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Printed {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

impl Printed {
    /// An error line; the command's exit code becomes `code`.
    pub fn fail(&mut self, code: i32, line: String) {
        self.stderr.push_str(&line);
        self.exit_code = code;
    }
}

/// Where a command runs: the session's listing and scratch directory, and its cwd.
#[derive(Clone, Copy)]
pub struct Place<'a> {
    pub listing: &'a Listing,
    pub scratch: Option<&'a str>,
    /// Normalised.
    pub cwd: &'a str,
}

impl Place<'_> {
    /// Paths the listing does not answer for: the scratch directory and `/dev`.
    pub fn check(&self, full: &str) -> Result<(), Unsupported> {
        let under = |root: &str| full == root || full.starts_with(&format!("{root}/"));
        if self.scratch.is_some_and(under) || under("/dev") || full == DEV_NULL {
            return Err(Unsupported::new("the scratch directory and /dev are listed by just-bash"));
        }
        Ok(())
    }

    /// A directory whose entries the listing alone holds: not the root when the session
    /// has a scratch directory beside the docs.
    pub fn check_dir(&self, full: &str) -> Result<(), Unsupported> {
        if full == "/" && self.scratch.is_some() {
            return Err(Unsupported::new("the scratch directory is listed by just-bash"));
        }
        Ok(())
    }
}

/// Answers a listing command for a session when it can, and records which way it went.
/// `own_fs`: the command reads this filesystem itself, not a host's around it.
pub fn answer(fs: &Filesystem, name: &str, args: &[String], cwd: &str, own_fs: bool) -> Option<Printed> {
    let cwd = crate::path::normalize(cwd);
    let mut cs = CommandStats { command: std::iter::once(name).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" "), ..Default::default() };
    let place = Place { listing: fs.listing(), scratch: fs.scratch_root(), cwd: &cwd };
    let answered = match (own_fs, fs.native_commands()) {
        (false, _) => Err(Unsupported::new("the command reads another filesystem")),
        (_, false) => Err(Unsupported::new("native commands are off")),
        _ => run(name, args, place),
    };
    let printed = answered.map_err(|why| cs.delegated = Some(why.0)).ok();
    cs.native = printed.is_some();
    fs.record(cs);
    printed
}

/// Runs `name` here when its output is modelled; the reason otherwise.
pub fn run(name: &str, args: &[String], place: Place) -> Result<Printed, Unsupported> {
    if args.iter().any(|a| a == "--help") {
        return Err(Unsupported::new("help is just-bash's"));
    }
    match name {
        "ls" => ls::ls(args, place),
        "find" => find::find(args, place),
        _ => Err(Unsupported::new(format!("{name} is run by just-bash"))),
    }
}
