//! `xargs`: command lines built from input items, as GNU findutils 4.9 builds them.
//!
//! xargs runs nothing itself: each command line it would run goes to [`Ctx::runs`], and
//! the host runs them in order after it (and works out the final status from theirs).
//! `-t` writes each command line to standard error as it is planned, so those lines come
//! before the commands' own messages rather than between them. `-P` runs one command at
//! a time; `-p` (which asks on the terminal) is refused; `--process-slot-var` and `-o`
//! are accepted and have no effect.

use super::ctx::{Ctx, Status};
use crate::base::cescape;
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};
use crate::base::quote::{quoted, Style};

const OPTS: &[getopt::Opt] = &[
    opt('0', "null", Arg::No),
    opt('a', "arg-file", Arg::Required),
    opt('d', "delimiter", Arg::Required),
    short("E", Arg::Required),
    opt('e', "eof", Arg::Optional),
    short("I", Arg::Required),
    opt('i', "replace", Arg::Optional),
    short("L", Arg::Required),
    opt('l', "max-lines", Arg::Optional),
    opt('n', "max-args", Arg::Required),
    opt('o', "open-tty", Arg::No),
    opt('p', "interactive", Arg::No),
    opt('r', "no-run-if-empty", Arg::No),
    opt('s', "max-chars", Arg::Required),
    opt('t', "verbose", Arg::No),
    long("show-limits", Arg::No),
    opt('x', "exit", Arg::No),
    opt('P', "max-procs", Arg::Required),
    long("process-slot-var", Arg::Required),
    long("version", Arg::No),
    long("help", Arg::No),
];

/// The largest command line, in bytes, that xargs may build (`-s`'s limit) on a Linux
/// host with a small environment.
const ARG_SIZE_MAX: i64 = 2_093_828;

/// The command lines being built, as findutils' `buildcmd` builds them.
struct Build {
    arg_max: usize,
    args_per_exec: usize,
    lines_per_exec: usize,
    replace: Option<String>,
    exit_if_size_exceeded: bool,
    print_command: bool,
    initial_argc: usize,
    initial_chars: usize,
    argv: Vec<String>,
    chars: usize,
    runs: Vec<Vec<String>>,
    shown: String,
}

/// Why xargs stops: its message (without `xargs: `).
type Die = String;

impl Build {
    /// Adds an argument (`len` counts its NUL), running the command line first when it
    /// would grow too long, and after when it has enough arguments.
    fn push(&mut self, arg: String, initial: bool) -> Result<(), Die> {
        let len = arg.len() + 1;
        if self.chars + len > self.arg_max {
            if initial || self.argv.len() == self.initial_argc {
                return Err("cannot fit single argument within argument list size limit".into());
            }
            if self.replace.is_some()
                || self.exit_if_size_exceeded && (self.lines_per_exec > 0 || self.args_per_exec > 0)
            {
                return Err("argument list too long".into());
            }
            self.exec();
        }
        if self.limit_reached(initial) {
            self.exec();
        }
        self.argv.push(arg);
        self.chars += len;
        if self.limit_reached(initial) {
            self.exec();
        }
        if initial {
            self.initial_chars = self.chars;
        }
        Ok(())
    }

    fn limit_reached(&self, initial: bool) -> bool {
        !initial && self.args_per_exec > 0 && self.argv.len() - self.initial_argc == self.args_per_exec
    }

    /// Plans the command line built so far, and starts the next one from the command.
    fn exec(&mut self) {
        if self.print_command {
            // findutils quotes each word only when a shell would need it.
            let words: Vec<String> = self.argv.iter().map(|a| quoted(a, Style::ShellEscape, &[])).collect();
            self.shown.push_str(&words.join(" "));
            self.shown.push('\n');
        }
        self.runs.push(self.argv.clone());
        self.argv.truncate(self.initial_argc);
        self.chars = self.initial_chars;
    }

    /// Before dying on bad input: runs what has been built, when xargs would.
    fn exec_if_possible(&mut self) {
        if self.replace.is_none() && self.argv.len() != self.initial_argc && !self.exit_if_size_exceeded {
            self.exec();
        }
    }
}

/// How input is cut into items.
enum Split {
    /// Blanks and newlines, with quotes and backslashes (whole lines with `-I`).
    Words { eof_str: Option<String> },
    /// A delimiter byte (`-0`, `-d`).
    Delimiter(u8),
}

/// Input being read into items.
struct Input<'a> {
    data: &'a [u8],
    pos: usize,
    eof: bool,
    /// Lines read since the last command line (for `-L`).
    lineno: usize,
    null_warned: bool,
}

impl Input<'_> {
    fn next(&mut self) -> Option<u8> {
        let c = self.data.get(self.pos).copied();
        self.pos += 1;
        c
    }
}

/// An item as a C string: it ends at a NUL.
fn item(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// xargs's `read_line`: the next item (or with `-I` line), pushed unless replacing;
/// `None` at the end of input (or the logical end of file).
fn read_line(
    input: &mut Input,
    b: &mut Build,
    eof_str: &Option<String>,
    warn: &mut String,
) -> Result<Option<String>, Die> {
    #[derive(PartialEq)]
    enum S {
        Norm,
        Space,
        Quote,
        Backslash,
    }
    if input.eof {
        return Ok(None);
    }
    let replacing = b.replace.is_some();
    let (mut state, mut quotc, mut c) = (S::Space, 0u8, None);
    let mut prevc;
    let (mut first, mut seen_arg) = (true, false);
    let mut p: Vec<u8> = Vec::new();
    let is_eof = |p: &[u8]| eof_str.as_deref().is_some_and(|e| e.as_bytes() == item(p).as_bytes());
    let unmatched = |q: u8| {
        let which = if q == b'"' { "double" } else { "single" };
        format!("unmatched {which} quote; by default quotes are special to xargs unless you use the -0 option")
    };
    loop {
        prevc = c;
        c = input.next();
        let Some(ch) = c else {
            input.eof = true;
            if p.is_empty() {
                return Ok(None);
            }
            if state == S::Quote {
                b.exec_if_possible();
                return Err(unmatched(quotc));
            }
            if first && is_eof(&p) {
                return Ok(None);
            }
            let arg = item(&p);
            if !replacing {
                b.push(arg.clone(), false)?;
            }
            return Ok(Some(arg));
        };
        let blank = |c: Option<u8>| matches!(c, Some(b' ' | b'\t'));
        if state == S::Space {
            if matches!(ch, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
                continue;
            }
            state = S::Norm;
        }
        match state {
            S::Norm => {
                if ch == b'\n' {
                    if !blank(prevc) {
                        input.lineno += 1;
                    }
                    if p.is_empty() && !seen_arg {
                        state = S::Space;
                        continue;
                    }
                    if is_eof(&p) {
                        input.eof = true;
                        return Ok(if first { None } else { Some(item(&p)) });
                    }
                    let arg = item(&p);
                    if !replacing {
                        b.push(arg.clone(), false)?;
                    }
                    return Ok(Some(arg));
                }
                seen_arg = true;
                if !replacing && blank(c) {
                    if is_eof(&p) {
                        input.eof = true;
                        return Ok(if first { None } else { Some(item(&p)) });
                    }
                    b.push(item(&p), false)?;
                    p.clear();
                    state = S::Space;
                    first = false;
                    continue;
                }
                if ch == b'\\' {
                    state = S::Backslash;
                    continue;
                }
                if ch == b'\'' || ch == b'"' {
                    state = S::Quote;
                    quotc = ch;
                    continue;
                }
            }
            S::Quote => {
                if ch == b'\n' {
                    b.exec_if_possible();
                    return Err(unmatched(quotc));
                }
                if ch == quotc {
                    state = S::Norm;
                    seen_arg = true;
                    continue;
                }
            }
            S::Backslash => state = S::Norm,
            S::Space => {}
        }
        if ch == 0 && !input.null_warned {
            warn.push_str("xargs: WARNING: a NUL character occurred in the input.  It cannot be passed through in the argument list.  Did you mean to use the --null option?\n");
            input.null_warned = true;
        }
        if p.len() + b.initial_chars + 1 >= b.arg_max {
            b.exec_if_possible();
            return Err("argument line too long".into());
        }
        p.push(ch);
    }
}

/// xargs's `read_string`: the next item ended by `delim` (or the end of input).
fn read_string(input: &mut Input, b: &mut Build, delim: u8) -> Result<Option<String>, Die> {
    if input.eof {
        return Ok(None);
    }
    let rest = &input.data[input.pos.min(input.data.len())..];
    let (bytes, ended) = match memchr::memchr(delim, rest) {
        Some(i) => (&rest[..i], true),
        None => (rest, false),
    };
    if !ended {
        input.eof = true;
        if bytes.is_empty() {
            return Ok(None);
        }
    } else {
        input.lineno += 1;
    }
    input.pos += bytes.len() + 1;
    if bytes.len() + b.initial_chars + 1 > b.arg_max {
        b.exec_if_possible();
        return Err("argument line too long".into());
    }
    let arg = item(bytes);
    if b.replace.is_none() {
        b.push(arg.clone(), false)?;
    }
    Ok(Some(arg))
}

/// `-d`'s delimiter: one character, or an escape.
fn delimiter(s: &str) -> Result<u8, Die> {
    let b = s.as_bytes();
    if b.len() == 1 {
        return Ok(b[0]);
    }
    if b.first() != Some(&b'\\') {
        return Err(format!("Invalid input delimiter specification {s}: the delimiter must be either a single character or an escape sequence starting with \\."));
    }
    let simple = match b[1] {
        b'\\' => Some(b'\\'),
        c => cescape::byte_of(c),
    };
    if let Some(d) = simple {
        return Ok(d);
    }
    let (digits, base) = match b[1] {
        b'x' => (&s[2..], 16),
        c if c.is_ascii_digit() => (&s[1..], 8),
        _ => return Err(format!("Invalid escape sequence {s} in input delimiter specification.")),
    };
    let len = digits.chars().take_while(|c| c.is_digit(base)).count();
    let value = u64::from_str_radix(&digits[..len], base).unwrap_or(if len == 0 { 0 } else { u64::MAX });
    if value > 255 {
        let max = if base == 16 { "ff" } else { "377" };
        return Err(format!(
            "Invalid escape sequence {s} in input delimiter specification; character values must not exceed {max}."
        ));
    }
    if len < digits.len() {
        let rest = &digits[len..];
        return Err(format!(
            "Invalid escape sequence {s} in input delimiter specification; trailing characters {rest} not recognised."
        ));
    }
    Ok(value as u8)
}

/// An option's number as xargs's `parse_num` reads it (`strtol`), or its message and
/// whether it is fatal; out of range and not fatal, the nearest allowed.
fn number(text: &str, option: char, min: i64, max: i64, fatal: bool, ctx: &mut Ctx) -> Option<i64> {
    let t = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let value = if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        t.parse::<i64>().unwrap_or(if t.starts_with('-') { i64::MIN } else { i64::MAX })
    } else {
        ctx.err.push_str(&format!("xargs: invalid number \"{text}\" for -{option} option\n"));
        return None;
    };
    let (bad, bound) = if value < min {
        (format!(">= {min}"), min)
    } else if max >= 0 && value > max {
        (format!("<= {max}"), max)
    } else {
        return Some(value);
    };
    ctx.err.push_str(&format!("xargs: value {text} for -{option} option should be {bad}\n"));
    if fatal {
        None
    } else {
        Some(bound)
    }
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line =
        match getopt::parse(&Grammar { opts: OPTS, permute: false, digits: Digits::No, ..getopt::GETOPT_LONG }, args) {
            Ok(line) => line,
            Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
        };
    let mut b = Build {
        arg_max: 128 * 1024,
        args_per_exec: 0,
        lines_per_exec: 0,
        replace: None,
        exit_if_size_exceeded: false,
        print_command: false,
        initial_argc: 0,
        initial_chars: 0,
        argv: Vec::new(),
        chars: 0,
        runs: Vec::new(),
        shown: String::new(),
    };
    let mut split = Split::Words { eof_str: None };
    let mut eof_str: Option<String> = None;
    let mut always_run = true;
    let mut input_file = "-".to_string();
    let warn = |ctx: &mut Ctx, option: &str, offending: &str| {
        ctx.error(format!(
            "warning: options {offending} and {option} are mutually exclusive, ignoring previous {offending} value"
        ))
    };
    for given in &line.opts {
        let value = given.value.clone();
        let v = value.clone().unwrap_or_default();
        match given.key {
            "null" => split = Split::Delimiter(0),
            "delimiter" => match delimiter(&v) {
                Ok(d) => split = Split::Delimiter(d),
                Err(message) => {
                    ctx.error(message);
                    return Ok(1);
                }
            },
            "E" | "eof" => eof_str = value.filter(|v| !v.is_empty()),
            "I" | "replace" => {
                b.replace = Some(value.unwrap_or_else(|| "{}".into()));
                if b.args_per_exec != 0 {
                    warn(ctx, "--replace/-I/-i", "--max-args");
                    b.args_per_exec = 0;
                }
                if b.lines_per_exec != 0 {
                    warn(ctx, "--replace/-I/-i", "--max-lines");
                    b.lines_per_exec = 0;
                }
            }
            "L" | "max-lines" => {
                let (option, name) = if given.key == "L" { ('L', "-L") } else { ('l', "--max-lines/-l") };
                b.lines_per_exec = match value {
                    None => 1,
                    Some(_) => match number(&v, option, 1, -1, true, ctx) {
                        Some(n) => n as usize,
                        None => return Ok(ctx.usage("", 1)),
                    },
                };
                if b.args_per_exec != 0 {
                    warn(ctx, name, "--max-args");
                    b.args_per_exec = 0;
                }
                if b.replace.is_some() {
                    warn(ctx, name, "--replace");
                    b.replace = None;
                }
            }
            "max-args" => {
                b.args_per_exec = match number(&v, 'n', 1, -1, true, ctx) {
                    Some(n) => n as usize,
                    None => return Ok(ctx.usage("", 1)),
                };
                if b.lines_per_exec != 0 {
                    warn(ctx, "--max-args/-n", "--max-lines");
                    b.lines_per_exec = 0;
                }
                if b.replace.is_some() {
                    if b.args_per_exec == 1 {
                        b.args_per_exec = 0;
                    } else {
                        warn(ctx, "--max-args/-n", "--replace");
                        b.replace = None;
                    }
                }
            }
            "max-chars" => match number(&v, 's', 1, ARG_SIZE_MAX, false, ctx) {
                Some(n) => b.arg_max = n as usize,
                None => return Ok(ctx.usage("", 1)),
            },
            "verbose" => b.print_command = true,
            "exit" => b.exit_if_size_exceeded = true,
            "interactive" => {
                ctx.error("-p (--interactive) is not supported: there is no terminal to ask on");
                return Ok(1);
            }
            "no-run-if-empty" => always_run = false,
            "max-procs" if number(&v, 'P', 0, i64::from(i32::MAX), true, ctx).is_none() => {
                return Ok(ctx.usage("", 1));
            }
            "arg-file" => input_file = v,
            "process-slot-var" if v.contains('=') => {
                ctx.error("option --process-slot-var may not be set to a value which includes `='");
                return Ok(1);
            }
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    if let Split::Words { eof_str: e } = &mut split {
        *e = eof_str;
    } else if eof_str.is_some() {
        ctx.error("warning: the -E option has no effect if -0 or -d is used.\n");
    }
    let data: &[u8] = if input_file == "-" {
        ctx.stdin()
    } else {
        match ctx.read(&input_file)? {
            Ok(data) => data,
            Err(e) if e.is_dir() => &[],
            Err(e) => {
                ctx.error(format!("Cannot open input file ‘{input_file}’: {}", e.text));
                return Ok(1);
            }
        }
    };
    if b.replace.is_some() || b.lines_per_exec > 0 {
        b.exit_if_size_exceeded = true;
    }
    let command = if line.operands.is_empty() { vec!["echo".to_string()] } else { line.operands };
    let mut input = Input { data, pos: 0, eof: false, lineno: 0, null_warned: false };
    let mut warnings = String::new();
    let result = plan(&mut b, &mut input, &split, &command, always_run, &mut warnings);
    ctx.err.push_str(&b.shown);
    ctx.err.push_str(&warnings);
    ctx.runs = b.runs;
    match result {
        Ok(()) => Ok(0),
        Err(message) => {
            ctx.error(message);
            Ok(1)
        }
    }
}

/// Every command line xargs runs for `input`.
fn plan(
    b: &mut Build,
    input: &mut Input,
    split: &Split,
    command: &[String],
    always_run: bool,
    warn: &mut String,
) -> Result<(), Die> {
    let mut read = |input: &mut Input, b: &mut Build| match split {
        Split::Words { eof_str } => read_line(input, b, eof_str, warn),
        Split::Delimiter(d) => read_string(input, b, *d),
    };
    let Some(pattern) = b.replace.clone() else {
        for arg in command {
            b.push(arg.clone(), true)?;
        }
        b.initial_argc = b.argv.len();
        while read(input, b)?.is_some() {
            if b.lines_per_exec > 0 && input.lineno >= b.lines_per_exec {
                b.exec();
                input.lineno = 0;
            }
        }
        if b.argv.len() != b.initial_argc || always_run && b.runs.is_empty() {
            b.exec();
        }
        return Ok(());
    };
    let mut initial = true;
    while let Some(text) = read(input, b)? {
        b.argv.clear();
        b.chars = 0;
        b.push(command[0].clone(), initial)?;
        initial = false;
        for arg in &command[1..] {
            let inserted = arg.replace(&pattern, &text);
            if inserted.len() + 1 > b.arg_max {
                return Err("command too long".into());
            }
            b.push(inserted, false)?;
        }
        b.exec();
    }
    Ok(())
}
