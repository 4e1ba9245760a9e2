//! `du` answered from the listing, as GNU coreutils 9 `du` prints it for a copy of the
//! files on tmpfs: disk usage is a property of a filesystem, and this is the one the
//! reference copy lives on — a file takes its size rounded up to 4 KiB blocks, a
//! directory none of its own.
//!
//! The walk is GNU du's: each operand as typed (`guide/` stays `guide/`, what is below it
//! is `guide/a.md`), each directory's entries in byte order, a directory printed when the
//! walk leaves it, a file under `-a` or when it is the operand, and what an earlier
//! operand counted not counted again. Sizes are in KiB, or with `-h` as GNU prints them
//! (`4.0K`, `40K`, rounded up). Modelled: `-a`, `-h`, `-k`, `-s`, `-c`, `-d N` and
//! `--max-depth N`, over files and directories whose sizes the tree records.

use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};
use std::fmt::Write;

#[derive(Debug, Default)]
struct Flags {
    all: bool,
    human: bool,
    summarize: bool,
    total: bool,
    max_depth: Option<u64>,
}

/// GNU du's options (`getopt_long`): short flags combine, `-d` and `--max-depth` take
/// `=N`, the rest of the word or the next one; `--` ends the options.
fn flags(args: &[String]) -> Result<(Flags, Vec<&str>), Unsupported> {
    let no = || Unsupported::new("this du option is left to just-bash");
    let (mut f, mut operands, mut options) = (Flags::default(), Vec::new(), true);
    let mut words = args.iter().map(String::as_str);
    let depth = |v: &str| -> Result<u64, Unsupported> {
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(no());
        }
        v.parse().map_err(|_| no())
    };
    while let Some(a) = words.next() {
        if !options || !a.starts_with('-') || a == "-" {
            operands.push(a);
        } else if a == "--" {
            options = false;
        } else if let Some(long) = a.strip_prefix("--") {
            match long.split_once('=') {
                Some(("max-depth", v)) => f.max_depth = Some(depth(v)?),
                None if long == "max-depth" => f.max_depth = Some(depth(words.next().ok_or_else(no)?)?),
                None if long == "all" => f.all = true,
                None if long == "human-readable" => f.human = true,
                None if long == "summarize" => f.summarize = true,
                None if long == "total" => f.total = true,
                _ => return Err(no()),
            }
        } else {
            for (at, c) in a.char_indices().skip(1) {
                match c {
                    'a' => f.all = true,
                    'h' => f.human = true,
                    'k' => f.human = false,
                    's' => f.summarize = true,
                    'c' => f.total = true,
                    'd' => {
                        let rest = &a[at + 1..];
                        let v = if rest.is_empty() { words.next().ok_or_else(no)? } else { rest };
                        f.max_depth = Some(depth(v)?);
                        break;
                    }
                    _ => return Err(no()),
                }
            }
        }
    }
    if f.summarize && f.max_depth.is_some_and(|d| d > 0) {
        return Err(no()); // an error of GNU du's
    }
    Ok((f, operands))
}

/// What GNU du says of options that do not go together, before it reads anything.
fn conflicts(f: &Flags) -> Option<Printed> {
    if f.summarize && f.all {
        let stderr = "du: cannot both summarize and show all entries\nTry 'du --help' for more information.\n";
        return Some(Printed { stdout: String::new(), stderr: stderr.into(), exit_code: 1 });
    }
    None
}

/// The KiB a file of `bytes` takes on tmpfs: 4 KiB blocks.
fn blocks(bytes: u64) -> u64 {
    bytes.div_ceil(4096) * 4
}

/// A size in KiB as GNU du prints it: a number, or with `-h` scaled by 1024 and rounded
/// up, with one decimal below 10 (`4.0K`, `12K`, `1.5M`).
fn size(out: &mut String, kib: u64, human: bool) {
    if !human || kib == 0 {
        write!(out, "{kib}").unwrap();
        return;
    }
    let bytes = u128::from(kib) * 1024;
    let mut unit: u128 = 1024;
    for suffix in ['K', 'M', 'G', 'T', 'P'] {
        if bytes < unit * 1024 || suffix == 'P' {
            let tenths = (bytes * 10).div_ceil(unit);
            if tenths < 100 {
                write!(out, "{}.{}{suffix}", tenths / 10, tenths % 10).unwrap();
                return;
            }
            let whole = bytes.div_ceil(unit);
            if whole < 1024 || suffix == 'P' {
                write!(out, "{whole}{suffix}").unwrap();
                return;
            }
        }
        unit *= 1024;
    }
}

struct Walk<'a> {
    f: &'a Flags,
    place: Place<'a>,
    /// What earlier operands counted.
    seen: &'a mut std::collections::HashSet<String>,
    out: String,
}

impl Walk<'_> {
    fn line(&mut self, kib: u64, shown: &str) {
        size(&mut self.out, kib, self.f.human);
        writeln!(self.out, "\t{shown}").unwrap();
    }

    /// Walks `full`, spelled `shown`, at `depth`: the KiB it takes.
    fn visit(&mut self, full: &str, shown: &str, depth: u64) -> Result<u64, Unsupported> {
        if !self.seen.insert(full.to_string()) {
            return Ok(0);
        }
        let printed = |f: &Flags| if f.summarize { depth == 0 } else { f.max_depth.is_none_or(|m| depth <= m) };
        let dir = match self.place.listing.get(full) {
            Some(Node::File(file)) => {
                let bytes = file.size.ok_or_else(|| Unsupported::new("a page whose size the tree does not record"))?;
                if (self.f.all || depth == 0) && printed(self.f) {
                    self.line(blocks(bytes), shown);
                }
                return Ok(blocks(bytes));
            }
            Some(Node::Dir(d)) => d,
            None => return Err(Unsupported::new("a path that went away")),
        };
        self.place.check_dir(full)?;
        let mut total = 0;
        for (name, _) in byte_ordered(&dir.children).iter() {
            let child = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
            let child_shown = if shown.ends_with('/') { format!("{shown}{name}") } else { format!("{shown}/{name}") };
            total += self.visit(&child, &child_shown, depth + 1)?;
        }
        if printed(self.f) {
            self.line(total, shown);
        }
        Ok(total)
    }
}

/// `du` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn du(args: &[String], place: Place) -> Result<Printed, Unsupported> {
    let (f, mut operands) = flags(args)?;
    if let Some(refused) = conflicts(&f) {
        return Ok(refused);
    }
    if operands.is_empty() {
        operands.push(".");
    }
    let (mut out, mut grand) = (Printed::default(), 0);
    if f.summarize && f.max_depth == Some(0) {
        out.stderr.push_str("du: warning: summarizing is the same as using --max-depth=0\n");
    }
    let mut seen = std::collections::HashSet::new();
    for op in operands {
        let full = path::resolve(place.cwd, op);
        place.check(&full)?;
        if place.listing.get(&full).is_none() {
            writeln!(out.stderr, "du: cannot access '{op}': No such file or directory").unwrap();
            continue;
        }
        if seen.iter().any(|s: &String| full.starts_with(&format!("{}/", s.trim_end_matches('/'))) || *s == full) {
            return Err(Unsupported::new("an operand inside another"));
        }
        let mut walk = Walk { f: &f, place, seen: &mut seen, out: String::new() };
        grand += walk.visit(&full, op, 0)?;
        out.stdout.push_str(&walk.out);
    }
    if f.total {
        size(&mut out.stdout, grand, f.human);
        out.stdout.push_str("\ttotal\n");
    }
    out.exit_code = i32::from(out.stderr.contains("cannot access"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::size;

    fn shown(kib: u64, human: bool) -> String {
        let mut s = String::new();
        size(&mut s, kib, human);
        s
    }

    #[test]
    fn sizes_print_as_gnu_du_prints_them() {
        assert_eq!([0, 4, 40].map(|k| shown(k, false)), ["0", "4", "40"]);
        assert_eq!(
            [0, 4, 8, 12, 40, 1020, 1024, 1536, 10240].map(|k| shown(k, true)),
            ["0", "4.0K", "8.0K", "12K", "40K", "1020K", "1.0M", "1.5M", "10M"]
        );
    }
}
