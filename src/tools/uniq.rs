//! `uniq`: adjacent matching lines merged, counted (`-c`) or picked (`-d`, `-D`, `-u`,
//! `--group`), as coreutils 9.1.

use super::argmatch::argmatch;
use super::ctx::{Ctx, Status, Write};
use super::lines;
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};
use crate::base::quote::{quote, quoteaf, quotef};

const OPTS: &[getopt::Opt] = &[
    opt('c', "count", Arg::No),
    opt('d', "repeated", Arg::No),
    long("all-repeated", Arg::Optional),
    long("group", Arg::Optional),
    opt('i', "ignore-case", Arg::No),
    opt('u', "unique", Arg::No),
    opt('f', "skip-fields", Arg::Required),
    opt('s', "skip-chars", Arg::Required),
    opt('w', "check-chars", Arg::Required),
    opt('z', "zero-terminated", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
    short("D", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::Each, ..getopt::GETOPT_LONG };

/// How `-D`/`--all-repeated` marks off groups.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Delimit {
    None,
    Prepend,
    Separate,
}

/// Where `--group` puts empty lines.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    None,
    Prepend,
    Append,
    Separate,
    Both,
}

/// What counts of a line are compared.
struct Compare {
    skip_fields: usize,
    skip_chars: usize,
    check_chars: usize,
    ignore_case: bool,
}

impl Compare {
    /// The part of `line` compared (as `find_field`, then `-w`).
    fn part<'l>(&self, line: &'l [u8]) -> &'l [u8] {
        let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n');
        let mut i = 0;
        for _ in 0..self.skip_fields {
            if i >= line.len() {
                break;
            }
            while i < line.len() && blank(line[i]) {
                i += 1;
            }
            while i < line.len() && !blank(line[i]) {
                i += 1;
            }
        }
        i += self.skip_chars.min(line.len() - i);
        let rest = &line[i..];
        &rest[..rest.len().min(self.check_chars)]
    }

    fn same(&self, a: &[u8], b: &[u8]) -> bool {
        let (a, b) = (self.part(a), self.part(b));
        if self.ignore_case {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let mut cmp = Compare { skip_fields: 0, skip_chars: 0, check_chars: usize::MAX, ignore_case: false };
    let (mut unique, mut first_repeated, mut later_repeated, mut count) = (true, true, false, false);
    let mut picked = false;
    let mut delimit = Delimit::None;
    let mut group = Group::None;
    let mut end = b'\n';
    let mut digits_new = false;
    for given in &line.opts {
        let value = given.value.as_deref().unwrap_or_default();
        match given.key {
            "count" => (count, picked) = (true, true),
            "repeated" => (unique, picked) = (false, true),
            "D" | "all-repeated" => {
                (unique, later_repeated, picked) = (false, true, true);
                delimit = match &given.value {
                    None => Delimit::None,
                    Some(v) => {
                        let words =
                            [("none", Delimit::None), ("prepend", Delimit::Prepend), ("separate", Delimit::Separate)];
                        match argmatch(ctx, "--all-repeated", v, &words) {
                            Some(d) => d,
                            None => return Ok(1),
                        }
                    }
                };
            }
            "group" => {
                group = match &given.value {
                    None => Group::Separate,
                    Some(v) => {
                        let words = [
                            ("prepend", Group::Prepend),
                            ("append", Group::Append),
                            ("separate", Group::Separate),
                            ("both", Group::Both),
                        ];
                        match argmatch(ctx, "--group", v, &words) {
                            Some(g) => g,
                            None => return Ok(1),
                        }
                    }
                }
            }
            "ignore-case" => cmp.ignore_case = true,
            "unique" => (first_repeated, picked) = (false, true),
            "skip-fields" | "skip-chars" | "check-chars" => {
                let what = match given.key {
                    "skip-fields" => "invalid number of fields to skip",
                    "skip-chars" => "invalid number of bytes to skip",
                    _ => "invalid number of bytes to compare",
                };
                let Some(n) = size(value) else {
                    ctx.error(format!("{value}: {what}"));
                    return Ok(1);
                };
                match given.key {
                    "skip-fields" => (cmp.skip_fields, digits_new) = (n, true),
                    "skip-chars" => cmp.skip_chars = n,
                    _ => cmp.check_chars = n,
                }
            }
            "zero-terminated" => end = 0,
            "help" | "version" => return Ok(ctx.about(given.key)),
            d => {
                // `-2`: the obsolete spelling of `-f 2`, its digits accumulating.
                if digits_new {
                    (cmp.skip_fields, digits_new) = (0, false);
                }
                let digit = usize::from(d.as_bytes()[0] - b'0');
                cmp.skip_fields =
                    cmp.skip_fields.checked_mul(10).and_then(|n| n.checked_add(digit)).unwrap_or(usize::MAX);
            }
        }
    }
    let mut files: Vec<String> = Vec::new();
    for operand in &line.operands {
        // `+N`: the obsolete spelling of `-s N`.
        if let Some(n) = operand.strip_prefix('+').filter(|n| !n.starts_with(['+', '-'])).and_then(size) {
            cmp.skip_chars = n;
        } else if files.len() == 2 {
            ctx.error(format!("extra operand {}", quote(operand)));
            return Ok(ctx.usage("", 1));
        } else {
            files.push(operand.clone());
        }
    }
    if group != Group::None && picked {
        ctx.error("--group is mutually exclusive with -c/-d/-D/-u");
        return Ok(ctx.usage("", 1));
    }
    if count && later_repeated {
        ctx.error("printing all duplicated lines and repeat counts is meaningless");
        return Ok(ctx.usage("", 1));
    }
    let input = files.first().map_or("-", String::as_str).to_string();
    let output = files.get(1).filter(|o| *o != "-").cloned();
    ctx.want([input.as_str()])?;
    let data = match ctx.read(&input)? {
        Ok(d) => d,
        Err(e) if e.is_dir() => {
            ctx.error(format!("error reading {}", quoteaf(&input)));
            return Ok(1);
        }
        Err(e) => {
            ctx.error(format!("{}: {}", quotef(&input), e.text));
            return Ok(1);
        }
    };
    // `uniq f f` empties f before reading it.
    let data = if output.as_deref() == Some(input.as_str()) { &[][..] } else { data };
    let lines: Vec<&[u8]> = lines::split(data, end).map(|l| lines::body(l, end)).collect();
    let mut out = Vec::new();
    let put = |out: &mut Vec<u8>, l: &[u8]| {
        out.extend_from_slice(l);
        out.push(end);
    };
    if unique && first_repeated && !count {
        let mut previous: Option<&[u8]> = None;
        for l in &lines {
            let new_group = previous.is_none_or(|p| !cmp.same(l, p));
            let printed = previous.is_some();
            if new_group
                && (matches!(group, Group::Prepend | Group::Both)
                    || (printed && matches!(group, Group::Append | Group::Separate)))
            {
                out.push(end);
            }
            if new_group || group != Group::None {
                put(&mut out, l);
                previous = Some(l);
            }
        }
        if matches!(group, Group::Both | Group::Append) && previous.is_some() {
            out.push(end);
        }
    } else if let Some((first, rest)) = lines.split_first() {
        let mut previous: &[u8] = first;
        let mut matches = 0u64;
        let mut first_delimiter = true;
        let write = |out: &mut Vec<u8>, l: &[u8], matched: bool, n: u64| {
            let wanted = if n == 0 {
                unique
            } else if !matched {
                first_repeated
            } else {
                later_repeated
            };
            if wanted {
                if count {
                    out.extend_from_slice(format!("{:7} ", n + 1).as_bytes());
                }
                put(out, l);
            }
        };
        for l in rest {
            let matched = cmp.same(l, previous);
            matches += u64::from(matched);
            if delimit != Delimit::None {
                if !matched {
                    if matches > 0 {
                        first_delimiter = false;
                    }
                } else if matches == 1 && (delimit == Delimit::Prepend || !first_delimiter) {
                    out.push(end);
                }
            }
            if !matched || later_repeated {
                write(&mut out, previous, matched, matches);
                previous = l;
                if !matched {
                    matches = 0;
                }
            }
        }
        write(&mut out, previous, false, matches);
    }
    match output {
        Some(path) => ctx.writes.push(Write { path, bytes: out, append: false }),
        None => ctx.print(out),
    }
    Ok(0)
}

/// A count as `xstrtoumax` reads it (too large: the largest), or `None`.
fn size(text: &str) -> Option<usize> {
    let t = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(t.parse::<usize>().unwrap_or(usize::MAX))
}
