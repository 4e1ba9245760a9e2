//! `sort`: lines of files sorted, merged (`-m`) or checked (`-c`, `-C`), as coreutils 9.1
//! under `LC_ALL=C.UTF-8` (whose collation is byte order).
//!
//! Left out: `--debug`'s annotations, `--files0-from`, the obsolete `+POS1 -POS2` keys,
//! and `-R`'s randomness (equal keys still sort together, in an order of their own).

mod compare;
mod key;

use super::argmatch::argmatch;
use super::ctx::{Ctx, Status, Write};
use super::lines;
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};
use crate::base::quote::{quoteaf, quotef};
use compare::Order;
use key::{Blanks, Key, Sep};
use std::cmp::Ordering;

const OPTS: &[getopt::Opt] = &[
    opt('b', "ignore-leading-blanks", Arg::No),
    long("check", Arg::Optional),
    long("compress-program", Arg::Required),
    long("debug", Arg::No),
    opt('d', "dictionary-order", Arg::No),
    opt('f', "ignore-case", Arg::No),
    long("files0-from", Arg::Required),
    opt('g', "general-numeric-sort", Arg::No),
    opt('i', "ignore-nonprinting", Arg::No),
    opt('k', "key", Arg::Required),
    opt('m', "merge", Arg::No),
    opt('M', "month-sort", Arg::No),
    opt('n', "numeric-sort", Arg::No),
    opt('h', "human-numeric-sort", Arg::No),
    opt('V', "version-sort", Arg::No),
    opt('R', "random-sort", Arg::No),
    long("random-source", Arg::Required),
    long("sort", Arg::Required),
    opt('o', "output", Arg::Required),
    opt('r', "reverse", Arg::No),
    opt('s', "stable", Arg::No),
    long("batch-size", Arg::Required),
    opt('S', "buffer-size", Arg::Required),
    opt('t', "field-separator", Arg::Required),
    opt('T', "temporary-directory", Arg::Required),
    opt('u', "unique", Arg::No),
    opt('z', "zero-terminated", Arg::No),
    long("parallel", Arg::Required),
    long("help", Arg::No),
    long("version", Arg::No),
    short("c", Arg::No),
    short("C", Arg::No),
    short("y", Arg::Required),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// sort's status for trouble (1 is for input out of order with `-c`).
const FAILURE: i32 = 2;

/// The line ordering letters, as `--sort=WORD` names them.
const SORT_WORDS: &[(&str, &str)] = &[
    ("general-numeric", "g"),
    ("human-numeric", "h"),
    ("month", "M"),
    ("numeric", "n"),
    ("random", "R"),
    ("version", "V"),
];
const CHECK_WORDS: &[(&str, &str)] = &[("quiet", "C"), ("silent", "C"), ("diagnose-first", "c")];

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), FAILURE)),
    };
    let mut global = Key::new();
    let mut keys: Vec<Key> = Vec::new();
    let mut check: Option<&str> = None;
    let (mut merge, mut stable, mut unique) = (false, false, false);
    let mut output: Option<String> = None;
    let mut sep = Sep::Blanks;
    let mut end = b'\n';
    for given in &line.opts {
        let value = given.value.as_deref().unwrap_or_default();
        let mut letter = given.key;
        match given.key {
            "sort" => match argmatch(ctx, "--sort", value, SORT_WORDS) {
                Some(l) => letter = l,
                None => return Ok(1),
            },
            "check" if given.value.is_some() => match argmatch(ctx, "--check", value, CHECK_WORDS) {
                Some(l) => letter = l,
                None => return Ok(1),
            },
            "check" => letter = "c",
            _ => {}
        }
        match letter {
            "ignore-leading-blanks"
            | "dictionary-order"
            | "ignore-case"
            | "general-numeric-sort"
            | "ignore-nonprinting"
            | "month-sort"
            | "numeric-sort"
            | "human-numeric-sort"
            | "version-sort"
            | "random-sort"
            | "reverse" => {
                global.set_ordering(long_letter(letter), Blanks::Both);
            }
            "g" | "h" | "M" | "n" | "R" | "V" => {
                global.set_ordering(letter, Blanks::Both);
            }
            "c" | "C" => {
                if check.is_some_and(|c| c != letter) {
                    return Ok(die(ctx, "options '-cC' are incompatible"));
                }
                check = Some(letter);
            }
            "key" => match key::parse_spec(value) {
                Ok(k) => keys.push(k),
                Err(m) => return Ok(die(ctx, m)),
            },
            "merge" => merge = true,
            "stable" => stable = true,
            "unique" => unique = true,
            "zero-terminated" => end = 0,
            "output" => {
                if output.as_deref().is_some_and(|o| o != value) {
                    return Ok(die(ctx, "multiple output files specified"));
                }
                output = Some(value.to_string());
            }
            "field-separator" => {
                let tab = match value.as_bytes() {
                    [] => return Ok(die(ctx, "empty tab")),
                    [b] => *b,
                    b"\\0" => 0,
                    _ => return Ok(die(ctx, format!("multi-character tab ‘{value}’"))),
                };
                if matches!(sep, Sep::Byte(t) if t != tab) {
                    return Ok(die(ctx, "incompatible tabs"));
                }
                sep = Sep::Byte(tab);
            }
            "parallel" if value.parse::<u64>() == Ok(0) => {
                return Ok(die(ctx, "number in parallel must be nonzero"));
            }
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    for k in &mut keys {
        if k.is_default() && !k.reverse {
            k.inherit(&global);
        }
    }
    if keys.is_empty() && !global.is_default() {
        keys.push(global.clone());
    }
    if let Some(letters) = keys.iter().find_map(Key::incompatible) {
        return Ok(die(ctx, format!("options '-{letters}' are incompatible")));
    }
    let order = Order { keys, sep, keys_only: stable || unique, reverse: global.reverse };
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    if let Some(c) = check {
        if let Some(extra) = files.get(1) {
            return Ok(die(ctx, format!("extra operand {} not allowed with -{c}", quoteaf(extra))));
        }
        if output.is_some() {
            return Ok(die(ctx, format!("options '-{c}o' are incompatible")));
        }
        ctx.want([files[0].as_str()])?;
        let data = match ctx.read(&files[0])? {
            Ok(d) => d,
            Err(e) => {
                let what = if e.is_dir() { "read failed" } else { "open failed" };
                return Ok(die(ctx, format!("{what}: {}: {}", quotef(&files[0]), e.text)));
            }
        };
        return Ok(check_order(ctx, &order, &files[0], data, end, unique, c == "c"));
    }
    ctx.want(files.iter().map(String::as_str))?;
    let mut inputs = Vec::new();
    let mut first_dir = None;
    for f in &files {
        match ctx.read(f)? {
            Ok(d) => inputs.push(d),
            Err(e) if e.is_dir() => {
                first_dir.get_or_insert((f.clone(), e.text.clone()));
            }
            Err(e) => return Ok(die(ctx, format!("cannot read: {}: {}", quotef(f), e.text))),
        }
    }
    if let Some((f, text)) = first_dir {
        return Ok(die(ctx, format!("read failed: {}: {text}", quotef(&f))));
    }
    let lists: Vec<Vec<&[u8]>> =
        inputs.iter().map(|d| lines::split(d, end).map(|l| lines::body(l, end)).collect()).collect();
    let sorted = if merge {
        merge_lists(&order, lists)
    } else {
        let mut all: Vec<&[u8]> = lists.into_iter().flatten().collect();
        all.sort_by(|a, b| order.compare(a, b));
        all
    };
    let mut out = Vec::new();
    let mut last: Option<&[u8]> = None;
    for l in sorted {
        if unique && last.is_some_and(|p| order.compare(l, p) == Ordering::Equal) {
            continue;
        }
        last = Some(l);
        out.extend_from_slice(l);
        out.push(end);
    }
    match output {
        Some(path) => ctx.writes.push(Write { path, bytes: out, append: false }),
        None => ctx.print(out),
    }
    Ok(0)
}

/// The ordering letter a long option stands for.
fn long_letter(name: &str) -> &'static str {
    match name {
        "ignore-leading-blanks" => "b",
        "dictionary-order" => "d",
        "ignore-case" => "f",
        "general-numeric-sort" => "g",
        "ignore-nonprinting" => "i",
        "month-sort" => "M",
        "numeric-sort" => "n",
        "human-numeric-sort" => "h",
        "version-sort" => "V",
        "random-sort" => "R",
        _ => "r",
    }
}

/// `sort: message`, status 2.
fn die(ctx: &mut Ctx, message: impl AsRef<str>) -> i32 {
    ctx.error(message);
    FAILURE
}

/// `-c`/`-C`: whether `data`'s lines are in order (strictly, with `-u`); `-c` reports the
/// first that is not.
fn check_order(ctx: &mut Ctx, order: &Order, name: &str, data: &[u8], end: u8, unique: bool, report: bool) -> i32 {
    let mut previous: Option<&[u8]> = None;
    for (n, line) in lines::split(data, end).map(|l| lines::body(l, end)).enumerate() {
        if let Some(p) = previous {
            let d = order.compare(p, line);
            if d == Ordering::Greater || (unique && d == Ordering::Equal) {
                if report {
                    let text = String::from_utf8_lossy(line);
                    ctx.err.push_str(&format!("sort: {name}:{}: disorder: {text}{}", n + 1, end as char));
                }
                return 1;
            }
        }
        previous = Some(line);
    }
    0
}

/// `-m`: the lines of sorted lists merged, the earlier list's first among equals.
fn merge_lists<'d>(order: &Order, lists: Vec<Vec<&'d [u8]>>) -> Vec<&'d [u8]> {
    let mut at = vec![0; lists.len()];
    let mut out = Vec::new();
    loop {
        let mut best: Option<usize> = None;
        for (i, list) in lists.iter().enumerate() {
            if let Some(l) = list.get(at[i]) {
                if best.is_none_or(|b| order.compare(l, lists[b][at[b]]) == Ordering::Less) {
                    best = Some(i);
                }
            }
        }
        let Some(b) = best else { return out };
        out.push(lists[b][at[b]]);
        at[b] += 1;
    }
}
