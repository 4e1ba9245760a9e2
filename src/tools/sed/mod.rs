//! `sed`: the stream editor, as GNU sed 4.9 — its options, then the script read by
//! [`parse`] and run by [`exec`] over the input files ([`input`]).
//!
//! Files that `w` writes and files edited in place (`-i`) are handed to the host as
//! [`Write`]s. The `e` command and the `e` flag of `s` run commands, which this sed does
//! not do.

mod bytes;
mod exec;
mod input;
mod parse;
mod read;
mod rx;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use super::ctx::{Ctx, Status};
use super::Write;
use crate::base::getopt::{self, alias, long, opt, Arg, Digits, Grammar, Opt};
use input::{Inputs, Source};
use parse::{From, Parser};

const OPTS: &[Opt] = &[
    opt('b', "binary", Arg::No),
    opt('r', "regexp-extended", Arg::No),
    Opt { short: Some('E'), long: None, arg: Arg::No, key: "regexp-extended", negates: false },
    long("debug", Arg::No),
    opt('i', "in-place", Arg::Optional),
    opt('e', "expression", Arg::Required),
    opt('f', "file", Arg::Required),
    opt('l', "line-length", Arg::Required),
    opt('z', "null-data", Arg::No),
    alias("zero-terminated", Arg::No, "null-data"),
    opt('n', "quiet", Arg::No),
    long("posix", Arg::No),
    alias("silent", Arg::No, "quiet"),
    long("sandbox", Arg::No),
    opt('s', "separate", Arg::No),
    opt('u', "unbuffered", Arg::No),
    long("version", Arg::No),
    long("help", Arg::No),
    long("follow-symlinks", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG };

/// GNU's usage message after a misused command line: the help without its last line.
fn usage(ctx: &mut Ctx, message: &str) -> i32 {
    ctx.err.push_str(message);
    let help = super::texts::help("sed");
    let cut = help.trim_end_matches('\n').rfind('\n').map_or(help.len(), |n| n + 1);
    ctx.err.push_str(&help[..cut]);
    1
}

/// `atoi`: the leading digits of `s`, 0 without any.
fn atoi(s: &str) -> usize {
    let s = s.trim_start();
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(usage(ctx, &m.message(ctx.name))),
    };
    let (mut quiet, mut extended, mut separate, mut zero, mut sandbox) = (false, false, false, false, false);
    let mut in_place: Option<String> = None;
    let mut line_len = 70;
    let mut pieces: Vec<(bool, String)> = Vec::new();
    for given in &line.opts {
        let value = given.value.clone().unwrap_or_default();
        match given.key {
            "regexp-extended" => extended = true,
            "in-place" => {
                in_place = Some(value);
                separate = true;
            }
            "expression" => pieces.push((false, value)),
            "file" => pieces.push((true, value)),
            "line-length" => line_len = atoi(&value),
            "null-data" => zero = true,
            "quiet" => quiet = true,
            "sandbox" => sandbox = true,
            "separate" => separate = true,
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    let mut operands = line.operands;
    if pieces.is_empty() {
        if operands.is_empty() {
            return Ok(usage(ctx, ""));
        }
        pieces.push((false, operands.remove(0)));
    }
    if in_place.is_some() && operands.is_empty() {
        ctx.error("no input files");
        return Ok(4);
    }
    let files = if operands.is_empty() { vec!["-".to_string()] } else { operands };
    let scripts = pieces.iter().filter(|p| p.0).map(|p| p.1.as_str());
    let inputs = files.iter().map(String::as_str).filter(|f| in_place.is_none() || *f != "-");
    ctx.want(scripts.chain(inputs))?;

    let mut parser = Parser::new(extended, sandbox);
    let mut expr = 0;
    for (file, text) in &pieces {
        let result = if *file {
            let bytes = match ctx.read(text)? {
                Ok(b) => b.to_vec(),
                Err(e) => {
                    ctx.error(format!("couldn't open file {text}: {}", e.text));
                    return Ok(4);
                }
            };
            parser.piece(&bytes, From::File(text.clone()))
        } else {
            expr += 1;
            parser.piece(text.as_bytes(), From::Expr(expr))
        };
        if let Err(message) = result {
            if let Some(panic) = parser.panic {
                ctx.error(panic);
                return Ok(4);
            }
            ctx.error(message);
            return Ok(1);
        }
    }
    let prog = match parser.finish() {
        Ok(p) => p,
        Err(message) => {
            // A jump to a missing label is found after the script is read: status 4.
            let status = if message.starts_with("can't find label") { 4 } else { 1 };
            ctx.error(message);
            return Ok(status);
        }
    };
    let reads: Vec<String> = prog.rfiles.iter().filter(|f| *f != "/dev/stdin").cloned().collect();
    ctx.want(reads.iter().map(String::as_str))?;

    let mut sources = Vec::new();
    for f in &files {
        if in_place.is_some() && f == "-" {
            static NO: std::sync::OnceLock<super::Failed> = std::sync::OnceLock::new();
            let no = NO.get_or_init(|| super::Failed::new("ENOENT", "No such file or directory"));
            sources.push(Source { name: f.clone(), data: Err(no) });
            continue;
        }
        sources.push(Source { name: f.clone(), data: ctx.read(f)? });
    }
    let mut rdata = Vec::new();
    for name in &prog.rfiles {
        let data = if name == "/dev/stdin" { Some(ctx.stdin()) } else { ctx.read(name)?.ok() };
        let key = if name == "/dev/stdin" { "-".to_string() } else { name.clone() };
        rdata.push((key, data));
    }
    let originals: Vec<&[u8]> = sources.iter().map(|s| s.data.unwrap_or_default()).collect();
    let delim = if zero { 0 } else { b'\n' };
    let inputs = Inputs::new(sources, delim, separate, in_place.is_some());
    let opts = exec::Opts { quiet: quiet || prog.hash_n, separate, delim, line_len, in_place: in_place.is_some() };
    let mut m = exec::Machine::new(&prog, inputs, opts, rdata);
    let code = m.run();
    for e in std::mem::take(&mut m.inputs.errors) {
        ctx.error(e);
    }
    let mut status = if m.inputs.status != 0 { m.inputs.status } else { code };
    if let Some(message) = &m.fatal {
        ctx.error(message);
        status = if message.contains("no previous regular expression") { 1 } else { 4 };
    }
    if in_place.is_some() {
        ctx.print(&m.stdout.buf);
    } else {
        ctx.print(&m.out.buf);
    }
    ctx.err.push_str(&String::from_utf8_lossy(&m.stderr));
    let suffix = in_place.unwrap_or_default();
    for (n, bytes) in std::mem::take(&mut m.edited) {
        let name = m.inputs.file_name(n).to_string();
        if !suffix.is_empty() {
            let base = name.rsplit('/').next().unwrap_or(&name);
            let backup = if suffix.contains('*') { suffix.replace('*', base) } else { format!("{name}{suffix}") };
            ctx.writes.push(Write { path: backup, bytes: originals[n].to_vec(), append: false });
        }
        ctx.writes.push(Write { path: name, bytes, append: false });
    }
    for (name, out) in prog.wfiles.iter().zip(std::mem::take(&mut m.wfiles)) {
        if name != "/dev/stdout" && name != "/dev/stderr" {
            ctx.writes.push(Write { path: name.clone(), bytes: out.buf, append: false });
        }
    }
    Ok(status)
}
