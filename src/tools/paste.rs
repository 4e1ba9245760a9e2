//! `paste`: files' corresponding lines side by side (or each file's lines on one line
//! with `-s`), joined by the delimiters of `-d`, as coreutils 9.1.

use super::ctx::{Ctx, Status};
use crate::base::cescape;
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};
use crate::base::quote::quotef;

const OPTS: &[getopt::Opt] = &[
    opt('d', "delimiters", Arg::Required),
    opt('s', "serial", Arg::No),
    opt('z', "zero-terminated", Arg::No),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];

/// A delimiter of `-d`: a byte, or none (`\0`).
type Delim = Option<u8>;

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line =
        match getopt::parse(&Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG }, args) {
            Ok(line) => line,
            Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
        };
    let (mut list, mut serial, mut end) = ("\t".to_string(), false, b'\n');
    for given in &line.opts {
        match given.key {
            "delimiters" => list = given.value.clone().filter(|v| !v.is_empty()).unwrap_or("\\0".into()),
            "serial" => serial = true,
            "zero-terminated" => end = 0,
            _ => return Ok(ctx.about(given.key)),
        }
    }
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    let Some(delims) = delimiters(&list) else {
        ctx.error(format!("delimiter list ends with an unescaped backslash: {list}"));
        return Ok(1);
    };
    ctx.want(files.iter().map(String::as_str))?;
    // Side by side, a file that cannot be opened stops paste before it prints anything.
    if !serial {
        for file in files.iter().filter(|f| *f != "-") {
            if let Err(e) = ctx.read(file)? {
                if !e.is_dir() {
                    ctx.error(format!("{}: {}", quotef(file), e.text));
                    return Ok(1);
                }
            }
        }
    }
    let mut datas = Vec::new();
    let mut status = 0;
    for file in &files {
        match ctx.read(file)? {
            Ok(data) => datas.push(Some(data)),
            Err(e) => {
                ctx.error(format!("{}: {}", quotef(file), e.text));
                status = 1;
                // A directory opens, and reads as nothing.
                datas.push(if e.is_dir() { Some(&[][..]) } else { None });
            }
        }
    }
    if serial {
        for data in datas.into_iter().flatten() {
            ctx.print(self::serial(data, &delims, end));
        }
    } else {
        ctx.print(parallel(&files, &datas, &delims, end));
    }
    Ok(status)
}

/// The delimiters of `list`, with its escapes read; `None` when it ends in a lone backslash.
fn delimiters(list: &str) -> Option<Vec<Delim>> {
    let mut out = Vec::new();
    let mut bytes = list.bytes();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(Some(b));
            continue;
        }
        out.push(match bytes.next()? {
            b'0' => None,
            // GNU paste reads no `\a`.
            c @ b'a' => Some(c),
            c => Some(cescape::byte_of(c).unwrap_or(c)),
        });
    }
    Some(out)
}

/// One file's lines on one line (`-s`).
fn serial(data: &[u8], delims: &[Delim], end: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 1);
    let mut d = delims.iter().cycle();
    for (i, &b) in data.iter().enumerate() {
        if b == end && i + 1 < data.len() {
            out.extend(d.next().copied().flatten());
        } else {
            out.push(b);
        }
    }
    if data.last() != Some(&end) {
        out.push(end);
    }
    out
}

/// The files' lines side by side; every `-` reads on from the one standard input.
fn parallel(files: &[String], datas: &[Option<&[u8]>], delims: &[Delim], end: u8) -> Vec<u8> {
    let stdin_at = files.iter().position(|f| f == "-");
    // Where each file is read to, standard input's shared (kept at its first `-`).
    let mut pos = vec![0usize; files.len()];
    let mut open: Vec<bool> = datas.iter().map(Option::is_some).collect();
    let mut files_open = open.iter().filter(|&&o| o).count();
    let mut out = Vec::new();
    let n = files.len();
    while files_open > 0 {
        let mut somedone = false;
        let mut d = 0;
        let mut saved: Vec<u8> = Vec::new();
        for i in 0..n {
            if files_open == 0 {
                break;
            }
            let cursor = if files[i] == "-" { stdin_at.unwrap_or(i) } else { i };
            let mut line: Option<(&[u8], bool)> = None;
            if open[i] {
                let data = datas[cursor].unwrap_or_default();
                let at = pos[cursor];
                if at < data.len() {
                    let stop = memchr::memchr(end, &data[at..]).map(|k| at + k);
                    let (text, ended) = match stop {
                        Some(k) => (&data[at..k], true),
                        None => (&data[at..], false),
                    };
                    pos[cursor] = stop.map_or(data.len(), |k| k + 1);
                    line = Some((text, ended));
                }
            }
            let delim = delims[d];
            match line {
                None => {
                    if open[i] {
                        open[i] = false;
                        files_open -= 1;
                    }
                    if i + 1 == n {
                        if somedone {
                            out.append(&mut saved);
                            out.push(end);
                        }
                    } else {
                        saved.extend(delim);
                        d = (d + 1) % delims.len();
                    }
                }
                Some((text, _)) => {
                    out.append(&mut saved);
                    out.extend_from_slice(text);
                    somedone = true;
                    if i + 1 != n {
                        out.extend(delim);
                        d = (d + 1) % delims.len();
                    } else {
                        out.push(end);
                    }
                }
            }
        }
    }
    out
}
