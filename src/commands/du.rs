//! `du` answered from the listing, exactly as just-bash's `du` prints it.
//!
//! just-bash's `du` sums the sizes files report (a directory adds nothing of its own),
//! prints a file when it is the operand or under `-a`, a directory once its walk leaves
//! it, and rounds up to KiB (never below 1), or with `-h` prints bytes below 1 KiB and one
//! decimal above. Modelled: `-a`, `-h`, `-s`, `-c`, `--max-depth N`, over files and
//! directories of this filesystem whose sizes the tree records. The walk orders each
//! directory with `localeCompare`, so, as for `ls -R`, a name outside lowercase ASCII
//! letters, digits, `-` and `.` sends the command to just-bash (see [`super::ls`]).

use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::Node;
use std::fmt::Write;

#[derive(Debug, Default)]
struct Flags {
    all: bool,
    human: bool,
    summarize: bool,
    total: bool,
    max_depth: Option<u64>,
}

/// just-bash's option parser for `du`: short flags combine, `--max-depth` takes `=N` or
/// the next word, `--` ends the options.
fn flags(args: &[String]) -> Result<(Flags, Vec<&str>), Unsupported> {
    let no = || Unsupported::new("this du option is left to just-bash");
    let (mut f, mut operands, mut options) = (Flags::default(), Vec::new(), true);
    let mut words = args.iter().map(String::as_str);
    while let Some(a) = words.next() {
        if !options || !a.starts_with('-') || a == "-" {
            operands.push(a);
        } else if a == "--" {
            options = false;
        } else if let Some(long) = a.strip_prefix("--") {
            let value = match long.split_once('=') {
                Some(("max-depth", v)) => v,
                None if long == "max-depth" => words.next().ok_or_else(no)?,
                _ => return Err(no()),
            };
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return Err(no());
            }
            f.max_depth = Some(value.parse().map_err(|_| no())?);
        } else {
            for c in a[1..].chars() {
                match c {
                    'a' => f.all = true,
                    'h' => f.human = true,
                    's' => f.summarize = true,
                    'c' => f.total = true,
                    _ => return Err(no()),
                }
            }
        }
    }
    Ok((f, operands))
}

/// A size as just-bash's `du` prints it.
fn size(out: &mut String, bytes: u64, human: bool) {
    // JavaScript's `toFixed(1)` of `bytes / unit`, exact because the unit is a power of two.
    let tenths = |unit: u64| (u128::from(bytes) * 10 + u128::from(unit / 2)) / u128::from(unit);
    let scaled = |out: &mut String, unit: u64, suffix: char| {
        let t = tenths(unit);
        write!(out, "{}.{}{suffix}", t / 10, t % 10).unwrap();
    };
    match bytes {
        _ if !human => write!(out, "{}", bytes.div_ceil(1024).max(1)).unwrap(),
        0..1024 => write!(out, "{bytes}").unwrap(),
        1024..1_048_576 => scaled(out, 1024, 'K'),
        1_048_576..1_073_741_824 => scaled(out, 1_048_576, 'M'),
        _ => scaled(out, 1_073_741_824, 'G'),
    }
}

struct Walk<'a> {
    f: &'a Flags,
    place: Place<'a>,
    /// The operand as typed, and where it is.
    operand: &'a str,
    root: &'a str,
    out: String,
}

impl Walk<'_> {
    /// How just-bash names `full` below the operand.
    fn shown(&self, full: &str) -> String {
        let rel = full[self.root.len()..].trim_start_matches('/');
        match (rel, self.operand) {
            ("", op) => op.to_string(),
            (rel, ".") => rel.to_string(),
            (rel, op) => format!("{op}/{rel}"),
        }
    }

    fn line(&mut self, bytes: u64, full: &str) {
        size(&mut self.out, bytes, self.f.human);
        let shown = self.shown(full);
        writeln!(self.out, "\t{shown}").unwrap();
    }

    /// Walks `full` at `depth`: its total size.
    fn visit(&mut self, full: &str, depth: u64) -> Result<u64, Unsupported> {
        let dir = match self.place.listing.get(full) {
            Some(Node::File(file)) => {
                let bytes = file.size.ok_or_else(|| Unsupported::new("a page whose size the tree does not record"))?;
                if (self.f.all || depth == 0) && !self.f.summarize {
                    self.line(bytes, full);
                }
                return Ok(bytes);
            }
            Some(Node::Dir(d)) => d,
            None => return Err(Unsupported::new("a path that went away")),
        };
        self.place.check_dir(full)?;
        if dir.children.iter().any(|(name, _)| !collates_as_sorted(name)) {
            return Err(Unsupported::new("names whose collation is the host's: left to just-bash"));
        }
        let mut total = 0;
        for (name, _) in &dir.children {
            let child = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
            total += self.visit(&child, depth + 1)?;
        }
        let shown = if self.f.summarize { depth == 0 } else { self.f.max_depth.is_none_or(|m| depth <= m) };
        if shown {
            self.line(total, full);
        }
        Ok(total)
    }
}

/// `du` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn du(args: &[String], place: Place) -> Result<Printed, Unsupported> {
    let (f, mut operands) = flags(args)?;
    if operands.is_empty() {
        operands.push(".");
    }
    let (mut out, mut grand) = (Printed::default(), 0);
    for op in operands {
        let full = path::resolve(place.cwd, op);
        place.check(&full)?;
        if place.listing.get(&full).is_none() {
            writeln!(out.stderr, "du: cannot access '{op}': No such file or directory").unwrap();
            continue;
        }
        let mut walk = Walk { f: &f, place, operand: op, root: &full, out: String::new() };
        grand += walk.visit(&full, 0)?;
        out.stdout.push_str(&walk.out);
    }
    if f.total {
        size(&mut out.stdout, grand, f.human);
        out.stdout.push_str("\ttotal\n");
    }
    out.exit_code = i32::from(!out.stderr.is_empty());
    Ok(out)
}

/// Whether `localeCompare` and `sort()` order these names alike: names of lowercase
/// ASCII letters, digits, `-` and `.`.
fn collates_as_sorted(name: &str) -> bool {
    name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
}

#[cfg(test)]
mod tests {
    use super::size;

    fn shown(bytes: u64, human: bool) -> String {
        let mut s = String::new();
        size(&mut s, bytes, human);
        s
    }

    #[test]
    fn sizes_print_as_just_bash_prints_them() {
        assert_eq!([0, 1, 1024, 1025].map(|b| shown(b, false)), ["1", "1", "1", "2"]);
        assert_eq!(
            [0, 1023, 1024, 1075, 1076, 1536, 1_048_576 * 3 / 2].map(|b| shown(b, true)),
            ["0", "1023", "1.0K", "1.0K", "1.1K", "1.5K", "1.5M"]
        );
        assert_eq!(shown(1023 * 1024 + 1000, true), "1024.0K", "just below a MiB, rounded as toFixed rounds");
    }
}
