//! `cut`: selected bytes, characters or fields of each line, as coreutils 9.1 (whose `-c`
//! counts bytes, as `-b`).

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};

const OPTS: &[getopt::Opt] = &[
    opt('b', "bytes", Arg::Required),
    opt('c', "characters", Arg::Required),
    opt('d', "delimiter", Arg::Required),
    opt('f', "fields", Arg::Required),
    short("n", Arg::No),
    long("complement", Arg::No),
    opt('s', "only-delimited", Arg::No),
    long("output-delimiter", Arg::Required),
    opt('z', "zero-terminated", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// The positions picked: sorted, overlapping ranges merged (adjacent ones are kept apart,
/// as GNU's output delimiter goes between them), both ends inclusive.
struct Picked(Vec<(u64, u64)>);

impl Picked {
    fn has(&self, k: u64) -> bool {
        self.0.iter().any(|&(lo, hi)| lo <= k && k <= hi)
    }

    fn starts(&self, k: u64) -> bool {
        self.0.iter().any(|&(lo, _)| lo == k)
    }
}

/// Reads a list (`1,3-5,7-`, blanks as commas) as gnulib's `set_fields` does, or its
/// message refusing it.
fn picked(list: &str, bytes: bool, complement: bool) -> Result<Picked, String> {
    let from_one = if bytes { "byte/character positions are numbered from 1" } else { "fields are numbered from 1" };
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    let (mut lhs, mut rhs, mut dash) = (false, false, false);
    let (mut initial, mut value) = (1u64, 0u64);
    let mut digits_at: Option<usize> = None;
    let b = list.as_bytes();
    let mut i = 0;
    loop {
        let c = b.get(i).copied().unwrap_or(0);
        if c != 0 && !c.is_ascii_digit() {
            digits_at = None;
        }
        match c {
            b'-' => {
                if dash {
                    return Err(if bytes { "invalid byte or character range" } else { "invalid field range" }.into());
                }
                dash = true;
                if lhs && value == 0 {
                    return Err(from_one.into());
                }
                initial = if lhs { value } else { 1 };
                value = 0;
            }
            0 | b',' | b' ' | b'\t' => {
                if dash {
                    dash = false;
                    if !lhs && !rhs {
                        return Err("invalid range with no endpoint: -".into());
                    }
                    if !rhs {
                        ranges.push((initial, u64::MAX));
                    } else if value < initial {
                        return Err("invalid decreasing range".into());
                    } else {
                        ranges.push((initial, value));
                    }
                } else if value == 0 {
                    return Err(from_one.into());
                } else {
                    ranges.push((value, value));
                }
                value = 0;
                if c == 0 {
                    break;
                }
                (lhs, rhs) = (false, false);
            }
            b'0'..=b'9' => {
                let start = *digits_at.get_or_insert(i);
                if dash {
                    rhs = true;
                } else {
                    lhs = true;
                }
                value = match value.checked_mul(10).and_then(|v| v.checked_add(u64::from(c - b'0'))) {
                    Some(v) if v != u64::MAX => v,
                    _ => {
                        let len = b[start..].iter().take_while(|b| b.is_ascii_digit()).count();
                        let what = if bytes { "byte/character offset" } else { "field number" };
                        return Err(format!("{what} ‘{}’ is too large", &list[start..start + len]));
                    }
                };
            }
            _ => {
                let what = if bytes { "invalid byte/character position" } else { "invalid field value" };
                return Err(format!("{what} ‘{}’", String::from_utf8_lossy(&b[i..])));
            }
        }
        i += 1;
    }
    ranges.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    if complement {
        let mut holes = Vec::new();
        let mut next = 1u64;
        for &(lo, hi) in &merged {
            if lo > next {
                holes.push((next, lo - 1));
            }
            next = hi.saturating_add(1);
            if hi == u64::MAX {
                next = 0;
                break;
            }
        }
        if next != 0 {
            holes.push((next, u64::MAX));
        }
        merged = holes;
    }
    Ok(Picked(merged))
}

/// The options that shape the output.
struct Cut {
    picked: Picked,
    delim: u8,
    /// The output delimiter, when one was given.
    out_delim: Option<Vec<u8>>,
    suppress: bool,
    end: u8,
}

/// `-b`/`-c`: the picked bytes of each line.
fn cut_bytes(cut: &Cut, data: &[u8], out: &mut Vec<u8>) {
    let (mut idx, mut printed) = (0u64, false);
    for &c in data {
        if c == cut.end {
            out.push(c);
            (idx, printed) = (0, false);
            continue;
        }
        idx += 1;
        if cut.picked.has(idx) {
            if let Some(d) = &cut.out_delim {
                if printed && cut.picked.starts(idx) {
                    out.extend_from_slice(d);
                }
                printed = true;
            }
            out.push(c);
        }
    }
    if idx > 0 {
        out.push(cut.end);
    }
}

/// `-f`: the picked fields of each line, as coreutils' `cut_fields` reads its stream.
fn cut_fields(cut: &Cut, data: &[u8], out: &mut Vec<u8>) {
    if data.is_empty() {
        return;
    }
    let (delim, end) = (cut.delim, cut.end);
    let out_delim = cut.out_delim.clone().unwrap_or_else(|| vec![delim]);
    let mut at = 0usize;
    // The next byte, or `None` at the end.
    let getc = |at: &mut usize| {
        let c = data.get(*at).copied();
        *at += usize::from(c.is_some());
        c
    };
    let mut field = 1u64;
    let mut found_any = false;
    let buffer_first = cut.suppress ^ !cut.picked.has(1);
    let mut c: Option<u8> = Some(0);
    loop {
        if field == 1 && buffer_first {
            // The first field, through the delimiter or the line's end.
            if at >= data.len() {
                break;
            }
            let start = at;
            while let Some(b) = getc(&mut at) {
                if b == delim || b == end {
                    break;
                }
            }
            let first = &data[start..at];
            c = Some(0);
            if first.last() != Some(&delim) {
                if !cut.suppress {
                    out.extend_from_slice(first);
                    if first.last() != Some(&end) {
                        out.push(end);
                    }
                    c = Some(end);
                }
                continue;
            }
            if cut.picked.has(1) {
                out.extend_from_slice(&first[..first.len() - 1]);
                if delim != end || at < data.len() {
                    found_any = true;
                }
            }
            field += 1;
        }
        let mut prev = c;
        let picked = cut.picked.has(field);
        if picked {
            if found_any {
                out.extend_from_slice(&out_delim);
            }
            found_any = true;
        }
        loop {
            c = getc(&mut at);
            match c {
                Some(b) if b != delim && b != end => {
                    if picked {
                        out.push(b);
                    }
                    prev = c;
                }
                _ => break,
            }
        }
        if delim == end && c == Some(delim) && at >= data.len() {
            c = None;
        }
        if c == Some(delim) {
            field += 1;
        } else {
            let shown = found_any || !(cut.suppress && field == 1);
            if shown && (c == Some(end) || prev != Some(end) || delim == end) {
                out.push(end);
            }
            if c.is_none() {
                break;
            }
            field = 1;
            found_any = false;
        }
    }
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(l) => l,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let (mut list, mut bytes, mut delim, mut out_delim) = (None, false, None, None);
    let (mut suppress, mut complement, mut end) = (false, false, b'\n');
    let fatal = |ctx: &mut Ctx, message: &str| {
        ctx.error(message);
        Ok(ctx.usage("", 1))
    };
    for given in &line.opts {
        let value = given.value.clone().unwrap_or_default();
        match given.key {
            "bytes" | "characters" | "fields" => {
                bytes |= given.key != "fields";
                if list.is_some() {
                    return fatal(ctx, "only one list may be specified");
                }
                list = Some(value);
            }
            "delimiter" => {
                if value.len() > 1 {
                    return fatal(ctx, "the delimiter must be a single character");
                }
                delim = Some(value.bytes().next().unwrap_or(0));
            }
            "output-delimiter" => {
                out_delim = Some(if value.is_empty() { vec![0] } else { value.into_bytes() });
            }
            "only-delimited" => suppress = true,
            "complement" => complement = true,
            "zero-terminated" => end = 0,
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    let Some(list) = list else {
        return fatal(ctx, "you must specify a list of bytes, characters, or fields");
    };
    if bytes && delim.is_some() {
        return fatal(ctx, "an input delimiter may be specified only when operating on fields");
    }
    if bytes && suppress {
        return fatal(ctx, "suppressing non-delimited lines makes sense\n\tonly when operating on fields");
    }
    let picked = match picked(&list, bytes, complement) {
        Ok(p) => p,
        Err(message) => return fatal(ctx, &message),
    };
    let cut = Cut { picked, delim: delim.unwrap_or(b'\t'), out_delim, suppress, end };
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    let mut status = 0;
    for file in &files {
        let Some(data) = ctx.read_or_report(file)? else {
            status = 1;
            continue;
        };
        let mut out = Vec::new();
        if bytes {
            cut_bytes(&cut, data, &mut out);
        } else {
            cut_fields(&cut, data, &mut out);
        }
        ctx.print(out);
    }
    Ok(status)
}
