//! `tac`: each file's records in reverse order, as coreutils 9.1 (records end with a
//! separator, a string or with `-r` a regular expression; `-b` puts it before).
//!
//! GNU reads `-r`'s expression in Emacs's syntax (no `[[:classes:]]`, no intervals,
//! `+` and `?` as operators); it is read here as a basic one, which agrees on the rest.

use super::bre;
use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};
use crate::base::quote::quoteaf;

const OPTS: &[getopt::Opt] = &[
    opt('b', "before", Arg::No),
    opt('r', "regex", Arg::No),
    opt('s', "separator", Arg::Required),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line =
        match getopt::parse(&Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG }, args) {
            Ok(line) => line,
            Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
        };
    let (mut before, mut regex, mut sep) = (false, false, "\n".to_string());
    for given in &line.opts {
        match given.key {
            "before" => before = true,
            "regex" => regex = true,
            "separator" => sep = given.value.clone().unwrap_or_default(),
            _ => return Ok(ctx.about(given.key)),
        }
    }
    let re = if regex {
        if sep.is_empty() {
            ctx.error("separator cannot be empty");
            return Ok(1);
        }
        match bre::compile(&sep, true) {
            Ok(re) => Some(re),
            Err(message) => {
                ctx.error(message);
                return Ok(1);
            }
        }
    } else {
        None
    };
    // An empty separator is the NUL byte.
    let sep = if sep.is_empty() { vec![0] } else { sep.into_bytes() };
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    let mut status = 0;
    for file in &files {
        let data = match ctx.read(file)? {
            Ok(data) => data,
            Err(e) if e.is_dir() => {
                ctx.error(format!("{file}: read error: Invalid argument"));
                status = 1;
                continue;
            }
            Err(e) => {
                ctx.error(format!("failed to open {} for reading: {}", quoteaf(file), e.text));
                status = 1;
                continue;
            }
        };
        let matches = match &re {
            Some(re) => regex_matches(re, data),
            None => string_matches(&sep, data),
        };
        // Each match, from the last, ends (or with -b starts) the record after it.
        let mut past_end = data.len();
        for (start, end) in matches {
            let cut = if before { start } else { end };
            ctx.print(&data[cut..past_end]);
            past_end = cut;
        }
        ctx.print(&data[..past_end]);
    }
    Ok(status)
}

/// Where `sep` occurs in `data`, searched from the end as tac does: (start, end), last first.
fn string_matches(sep: &[u8], data: &[u8]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut at = data.len().checked_sub(sep.len());
    while let Some(p) = at {
        if data[p..].starts_with(sep) {
            found.push((p, p + sep.len()));
            at = p.checked_sub(sep.len());
        } else {
            at = p.checked_sub(1);
        }
    }
    found
}

/// Where `re` matches `data`, searched from the end as tac does: the match that starts
/// last within what is left before the previous one, repeatedly.
fn regex_matches(re: &regex_lite::Regex, data: &[u8]) -> Vec<(usize, usize)> {
    let Ok(text) = std::str::from_utf8(data) else {
        return Vec::new();
    };
    // Every position a match starts at, then from the last, the matches within the limit.
    let mut starts = Vec::new();
    let mut p = 0;
    while p <= text.len() {
        let Some(m) = re.find_at(text, p) else { break };
        starts.push(m.start());
        p = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
    }
    let mut found = Vec::new();
    let mut limit = text.len();
    for &s in starts.iter().rev() {
        if s >= limit {
            continue;
        }
        if let Some(m) = re.find_at(&text[..limit], s).filter(|m| m.start() == s) {
            found.push((s, m.end()));
            limit = s;
        }
    }
    found
}
