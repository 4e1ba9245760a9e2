//! `awk`: the pattern scanning language, as gawk 5.2 runs it (its extensions agents use
//! included: `gensub`, `IGNORECASE`, regular-expression `RS`, `BEGINFILE`, …).
//!
//! Programs are read into a tree ([`parse`]) and run over the input in memory
//! ([`interp`]). Commands (`cmd | getline`, `print | cmd`, `system`) are not available.

mod ast;
mod builtins;
mod exec;
mod expr;
mod interp;
mod io;
mod lex;
mod parse;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
mod value;

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, opt, Arg, Digits, Grammar};
use ast::*;
use interp::{Cell, Flow, Interp};
use value::Value;

const OPTS: &[getopt::Opt] = &[
    opt('F', "field-separator", Arg::Required),
    opt('v', "assign", Arg::Required),
    opt('f', "file", Arg::Required),
    opt('e', "source", Arg::Required),
    opt('E', "exec", Arg::Required),
    opt('h', "help", Arg::No),
    opt('V', "version", Arg::No),
    opt('b', "characters-as-bytes", Arg::No),
    opt('c', "traditional", Arg::No),
    opt('P', "posix", Arg::No),
    opt('O', "optimize", Arg::No),
    opt('s', "no-optimize", Arg::No),
    opt('S', "sandbox", Arg::No),
    opt('r', "re-interval", Arg::No),
    opt('N', "use-lc-numeric", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: false, digits: Digits::No, ..getopt::GETOPT_LONG };

/// One piece of program text: where it came from (`cmd. line` or a file) and its text.
struct Source {
    name: String,
    text: String,
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => {
            if let getopt::Misuse::ShortNeedsValue(c) = m {
                ctx.err.push_str(&format!("awk: option requires an argument -- {c}\n"));
            }
            return Ok(usage(ctx));
        }
    };
    let mut sources: Vec<Source> = Vec::new();
    let mut assigns: Vec<String> = Vec::new();
    let mut fs: Option<String> = None;
    let mut warnings = Vec::new();
    for given in &line.opts {
        let value = given.value.clone().unwrap_or_default();
        match given.key {
            "field-separator" => {
                fs = Some(escapes(&value, &mut warnings));
            }
            "assign" => assigns.push(value),
            "source" => sources.push(Source { name: "cmd. line".into(), text: value }),
            "file" | "exec" => {
                let text = match ctx.read(if value == "/dev/stdin" { "-" } else { &value })? {
                    Ok(b) => String::from_utf8_lossy(b).into_owned(),
                    Err(e) => {
                        ctx.err.push_str(&format!(
                            "awk: fatal: cannot open source file `{value}' for reading: {}\n",
                            e.text
                        ));
                        return Ok(2);
                    }
                };
                sources.push(Source { name: value, text });
            }
            "help" => {
                let text = super::texts::help("awk").replace("gawk [", "awk [").replace("\tgawk ", "\tawk ");
                ctx.print(text);
                return Ok(0);
            }
            "version" => return Ok(ctx.about("version")),
            _ => {}
        }
    }
    let mut operands = line.operands;
    if sources.is_empty() {
        if operands.is_empty() {
            return Ok(usage(ctx));
        }
        sources.push(Source { name: "cmd. line".into(), text: operands.remove(0) });
    }
    // The program: its pieces joined, each line remembering its piece.
    let mut text = String::new();
    let mut starts = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        starts.push((text.matches('\n').count() + 1, s.name.clone()));
        text.push_str(&s.text);
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let locate = |line: usize| -> (String, usize) {
        let (start, name) = starts.iter().rev().find(|(s, _)| *s <= line).cloned().unwrap_or((1, "cmd. line".into()));
        (name, line - start + 1)
    };
    // gawk's syntax error: the source line, then a caret under the column and the message,
    // each after the place `shown` (the line gawk names).
    let pointed = |shown: usize, line: usize, col: usize, message: &str| {
        let (name, l) = locate(shown);
        let src = lines.get(line - 1).copied().unwrap_or_default();
        format!("awk: {name}:{l}: {src}\nawk: {name}:{l}: {}^ {message}\n", " ".repeat(col))
    };
    let mut lex_warnings = Vec::new();
    let toks = match lex::lex(&text, &mut lex_warnings) {
        Ok(t) => t,
        Err(e) => {
            ctx.err.push_str(&pointed(e.line, e.line, e.col, &e.message));
            return Ok(1);
        }
    };
    for (line, w) in lex_warnings {
        let (name, l) = locate(line);
        ctx.err.push_str(&format!("awk: {name}:{l}: warning: {w}\n"));
    }
    let prog = match parse::parse(toks) {
        Ok(p) => p,
        Err(e) => {
            let (name, l) = locate(e.shown);
            if e.col == usize::MAX - 1 {
                ctx.err.push_str(&format!("awk: {name}:{l}: error: {}\n", e.message));
                return Ok(1);
            }
            if e.col == usize::MAX {
                ctx.err.push_str(&format!("awk: {name}:{l}: fatal: {}\n", e.message));
                return Ok(2);
            }
            ctx.err.push_str(&pointed(e.shown, e.line, e.col, &e.message));
            return Ok(1);
        }
    };
    for w in warnings {
        ctx.err.push_str(&format!("awk: warning: {w}\n"));
    }
    let needs_input =
        !prog.rules.is_empty() || !prog.end.is_empty() || !prog.beginfile.is_empty() || !prog.endfile.is_empty();
    if needs_input {
        let files: Vec<&str> =
            operands.iter().filter(|o| io::assignment(o).is_none() && !o.is_empty()).map(String::as_str).collect();
        ctx.want(files)?;
    }
    let mut it = Interp::new(&prog, ctx);
    let status = match start(&mut it, &operands, fs, &assigns) {
        Ok(()) => run_program(&mut it),
        Err(e) => Err(e),
    };
    let fatal = matches!(status, Err(Flow::Fatal(..)));
    let code = match status {
        Ok(()) => it.exit_code,
        Err(Flow::Pending) => return Err(super::Pending),
        Err(Flow::Fatal(m, at)) => {
            let place = if at { place(&it) } else { String::new() };
            let (name, l) = locate(it.line);
            let place = place.replacen("\u{0}", &format!("{name}:{l}: "), 1);
            it.ctx.err.push_str(&format!("awk: {place}fatal: {m}\n"));
            2
        }
        Err(_) => it.exit_code,
    };
    // Warnings made at run time carry the line as a placeholder.
    let line = it.line;
    let (name, l) = locate(line);
    let err = std::mem::take(&mut it.ctx.err);
    it.ctx.err = err.replace('\u{0}', &format!("{name}:{l}: "));
    // gawk writes its output out before a message: a fatal one, the last, comes after all
    // of it (what it warned before is placed with it).
    it.ctx.err_at.clear();
    if fatal {
        it.ctx.mark();
    }
    Ok(code)
}

/// gawk's usage text, on standard error, status 1.
fn usage(ctx: &mut Ctx) -> i32 {
    let text = super::texts::help("awk").replace("gawk [", "awk [").replace("\tgawk ", "\tawk ");
    ctx.err.push_str(&text);
    1
}

/// Where a run-time message is: the program line (a placeholder the caller fills) and,
/// once input is read, the file and record.
pub(crate) fn place(it: &Interp) -> String {
    let fnr = match &it.globals[FNR] {
        Cell::Val(v) => v.num(),
        _ => 0.0,
    };
    let mut s = String::from("\u{0}");
    if fnr > 0.0 {
        let f = it.special(FILENAME);
        let f = if f.is_empty() { "-".into() } else { f.to_string() };
        s.push_str(&format!("(FILENAME={f} FNR={fnr}) "));
    }
    s
}

/// The special variables' starting values, `ARGV`, `-F` and `-v`.
fn start(it: &mut Interp, operands: &[String], fs: Option<String>, assigns: &[String]) -> Result<(), Flow> {
    let strs = [(FS, " "), (OFS, " "), (ORS, "\n"), (RS, "\n"), (SUBSEP, "\u{1c}"), (CONVFMT, "%.6g"), (OFMT, "%.6g")];
    for (i, s) in strs {
        it.globals[i] = Cell::Val(Value::str(s));
    }
    for i in [NR, NF, FNR, RSTART] {
        it.set_num(i, 0.0);
    }
    it.set_num(RLENGTH, -1.0);
    it.globals[FILENAME] = Cell::Val(Value::Uninit);
    it.set_num(ARGC, operands.len() as f64 + 1.0);
    let argv = it.array(Var::Global(ARGV))?;
    argv.borrow_mut().set("0".into(), Value::str("awk"));
    for (i, o) in operands.iter().enumerate() {
        argv.borrow_mut().set((i + 1).to_string().into(), Value::input(o));
    }
    it.array(Var::Global(ENVIRON))?;
    if let Some(fs) = fs {
        it.globals[FS] = Cell::Val(Value::str(fs));
    }
    for a in assigns {
        match io::assignment(a) {
            Some((name, value)) => {
                let value = escapes(value, &mut it.warnings);
                if let Some(i) = it.prog.globals.iter().position(|g| g == name) {
                    it.assign(&Expr::Var(Var::Global(i)), Value::input(&value))?;
                }
            }
            None => {
                let name = a.split('=').next().unwrap_or_default();
                return Err(Flow::Fatal(format!("`{name}' is not a legal variable name"), false));
            }
        }
    }
    Ok(())
}

/// BEGIN, the rules over each record, END.
fn run_program(it: &mut Interp) -> Result<(), Flow> {
    let prog = it.prog;
    let mut exited = false;
    match it.block(&prog.begin) {
        Err(Flow::Exit) => exited = true,
        Err(e) => return Err(e),
        Ok(()) => {}
    }
    let needs_input =
        !prog.rules.is_empty() || !prog.end.is_empty() || !prog.beginfile.is_empty() || !prog.endfile.is_empty();
    if !exited && needs_input {
        'records: while let Some(rec) = it.next_main()? {
            it.set_record(rec);
            it.ran = true;
            for rule in &prog.rules {
                let fire = match &rule.pattern {
                    Pattern::All => true,
                    Pattern::Expr(e) => it.eval(e)?.truthy(),
                    Pattern::Range(from, to, k) => {
                        if it.ranges[*k] {
                            if it.eval(to)?.truthy() {
                                it.ranges[*k] = false;
                            }
                            true
                        } else if it.eval(from)?.truthy() {
                            it.ranges[*k] = !it.eval(to)?.truthy();
                            true
                        } else {
                            false
                        }
                    }
                };
                if !fire {
                    continue;
                }
                let r = match &rule.action {
                    None => {
                        let text = format!("{}{}", it.record, it.special(ORS));
                        it.ctx.print(text);
                        Ok(())
                    }
                    Some(body) => it.block(body),
                };
                match r {
                    Ok(()) => {}
                    Err(Flow::Next) => continue 'records,
                    Err(Flow::NextFile) => {
                        it.skip_file()?;
                        continue 'records;
                    }
                    Err(Flow::Exit) => break 'records,
                    Err(e) => return Err(e),
                }
            }
        }
    }
    it.in_end = true;
    match it.block(&prog.end) {
        Err(Flow::Exit) | Ok(()) => Ok(()),
        Err(e) => Err(e),
    }
}

/// A `-v` value or `-F` separator with awk's string escapes read.
pub(crate) fn escapes(s: &str, warnings: &mut Vec<String>) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(k) = rest.find('\\') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        if after.is_empty() {
            out.push('\\');
            return out;
        }
        let ((t, w), n) = lex::escape(after, true);
        if let Some(w) = w {
            warnings.push(w);
        }
        out.push_str(&t);
        rest = &after[n..];
    }
    out.push_str(rest);
    out
}
