//! diff's command line, read as GNU diff 3.8 reads it: its options table, the old `-NUM`
//! context spelling, conflicts between output styles, and its messages.

use super::analyze::{Compare, ALL, CHANGE, TAB, TRAILING};
use super::output::{Format, Style};
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar, Opt};
use crate::base::quote::{self, quoted};
use crate::tools::ctx::Ctx;

/// GNU's long options, in the order glibc lists them when a prefix is ambiguous.
const OPTS: &[Opt] = &[
    long("binary", Arg::No),
    opt('q', "brief", Arg::No),
    long("changed-group-format", Arg::Required),
    long("color", Arg::Optional),
    long("context", Arg::Optional),
    opt('e', "ed", Arg::No),
    opt('x', "exclude", Arg::Required),
    opt('X', "exclude-from", Arg::Required),
    opt('t', "expand-tabs", Arg::No),
    opt('f', "forward-ed", Arg::No),
    long("from-file", Arg::Required),
    long("help", Arg::No),
    long("horizon-lines", Arg::Required),
    opt('D', "ifdef", Arg::Required),
    opt('w', "ignore-all-space", Arg::No),
    opt('B', "ignore-blank-lines", Arg::No),
    opt('i', "ignore-case", Arg::No),
    long("ignore-file-name-case", Arg::No),
    opt('I', "ignore-matching-lines", Arg::Required),
    opt('b', "ignore-space-change", Arg::No),
    opt('E', "ignore-tab-expansion", Arg::No),
    opt('Z', "ignore-trailing-space", Arg::No),
    long("inhibit-hunk-merge", Arg::No),
    opt('T', "initial-tab", Arg::No),
    opt('L', "label", Arg::Required),
    long("left-column", Arg::No),
    long("line-format", Arg::Required),
    opt('d', "minimal", Arg::No),
    opt('N', "new-file", Arg::No),
    long("new-group-format", Arg::Required),
    long("new-line-format", Arg::Required),
    long("no-dereference", Arg::No),
    long("no-ignore-file-name-case", Arg::No),
    long("normal", Arg::No),
    long("old-group-format", Arg::Required),
    long("old-line-format", Arg::Required),
    opt('l', "paginate", Arg::No),
    long("palette", Arg::Required),
    opt('n', "rcs", Arg::No),
    opt('r', "recursive", Arg::No),
    opt('s', "report-identical-files", Arg::No),
    long("sdiff-merge-assist", Arg::No),
    opt('p', "show-c-function", Arg::No),
    opt('F', "show-function-line", Arg::Required),
    opt('y', "side-by-side", Arg::No),
    opt('H', "speed-large-files", Arg::No),
    opt('S', "starting-file", Arg::Required),
    long("strip-trailing-cr", Arg::No),
    long("suppress-blank-empty", Arg::No),
    long("suppress-common-lines", Arg::No),
    long("tabsize", Arg::Required),
    opt('a', "text", Arg::No),
    long("to-file", Arg::Required),
    long("unchanged-group-format", Arg::Required),
    long("unchanged-line-format", Arg::Required),
    opt('P', "unidirectional-new-file", Arg::No),
    long("unified", Arg::Optional),
    opt('v', "version", Arg::No),
    opt('W', "width", Arg::Required),
    short("C", Arg::Required),
    short("U", Arg::Required),
    short("c", Arg::No),
    short("u", Arg::No),
    short("h", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: true, digits: Digits::Each, ..getopt::GETOPT_LONG };

/// A command line read.
pub(crate) struct Options {
    pub operands: Vec<String>,
    pub from_file: Option<String>,
    pub to_file: Option<String>,
    pub compare: Compare,
    pub style: Style,
    pub format: Format,
    pub brief: bool,
    pub report_identical: bool,
    pub recursive: bool,
    pub new_file: bool,
    pub unidirectional: bool,
    pub text: bool,
    pub strip_cr: bool,
    pub labels: Vec<String>,
    pub starting_file: Option<String>,
    pub excludes: Vec<String>,
    /// The option words as given, shell-quoted, each after a space (for `diff -r`'s
    /// headers).
    pub switches: String,
}

impl Options {
    /// Whether a directory entry is left out by `-x`.
    pub(crate) fn excluded(&self, name: &str) -> bool {
        self.excludes.iter().any(|p| glob(p.as_bytes(), name.as_bytes()))
    }
}

/// `*` and `?` wildcards (patterns with brackets are refused before this).
fn glob(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|k| glob(rest, &s[k..])),
        Some((b'?', rest)) => !s.is_empty() && glob(rest, &s[1..]),
        Some((b'\\', rest)) if !rest.is_empty() => s.first() == Some(&rest[0]) && glob(&rest[1..], &s[1..]),
        Some((c, rest)) => s.first() == Some(c) && glob(rest, &s[1..]),
    }
}

/// The option words of `args` (with their separate values), as getopt leaves them
/// before the operands.
fn option_words(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < args.len() {
        let w = args[k].as_str();
        k += 1;
        if w == "--" {
            out.push(w);
            break;
        }
        if w.len() < 2 || !w.starts_with('-') {
            continue;
        }
        out.push(w);
        let takes_next = if let Some(name) = w.strip_prefix("--") {
            !name.contains('=')
                && OPTS.iter().any(|o| o.arg == Arg::Required && o.long.is_some_and(|l| l.starts_with(name)))
        } else {
            let chars: Vec<char> = w[1..].chars().collect();
            let mut takes = false;
            for (i, c) in chars.iter().enumerate() {
                if OPTS.iter().any(|o| o.short == Some(*c) && o.arg == Arg::Required) {
                    takes = i + 1 == chars.len();
                    break;
                }
            }
            takes
        };
        if takes_next && k < args.len() {
            out.push(&args[k]);
            k += 1;
        }
    }
    out
}

/// GNU's refusal of a command line: its message, then where to get help; status 2.
fn try_help(ctx: &mut Ctx, message: Option<String>) -> i32 {
    if let Some(m) = message {
        ctx.error(m);
    }
    ctx.error("Try 'diff --help' for more information.");
    2
}

/// A count as `strtoimax` reads it (leading blanks and a sign allowed, nothing after;
/// an empty word is 0).
fn number(s: &str) -> Option<i64> {
    if s.is_empty() {
        return Some(0);
    }
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, d) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if d.is_empty() || !d.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let v = d.parse::<i64>().unwrap_or(i64::MAX);
    Some(if neg { -v } else { v })
}

/// Reads the command line; `Err` is the status to exit with, its messages printed.
pub(crate) fn parse(ctx: &mut Ctx, args: &[String]) -> Result<Options, i32> {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(l) => l,
        Err(m) => {
            ctx.err.push_str(&m.message("diff"));
            return Err(try_help(ctx, None));
        }
    };
    let mut format: Option<Format> = None;
    let mut context: i64 = 0;
    let mut ocontext: i64 = -1;
    let mut explicit_context = false;
    let mut c = Compare { tabsize: 0, ..Compare::default() };
    let mut labels = Vec::new();
    let mut o = Options {
        operands: Vec::new(),
        from_file: None,
        to_file: None,
        compare: Compare::default(),
        style: Style {
            format: Format::Normal,
            context: 0,
            initial_tab: false,
            expand_tabs: false,
            tabsize: 8,
            suppress_blank_empty: false,
            ignore_blank: false,
            ignore_re: None,
            function_re: None,
            white: 0,
            width: 130,
            left_column: false,
            suppress_common: false,
        },
        format: Format::Normal,
        brief: false,
        report_identical: false,
        recursive: false,
        new_file: false,
        unidirectional: false,
        text: false,
        strip_cr: false,
        labels: Vec::new(),
        starting_file: None,
        excludes: Vec::new(),
        switches: String::new(),
    };
    let (mut ignore_res, mut function_res): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    let mut show_c_function = false;
    let mut width: i64 = 0;
    let mut prev_digit = false;
    let mut unsupported: Option<String> = None;
    for g in &line.opts {
        let value = g.value.clone().unwrap_or_default();
        let mut style = |f: Format, ctx: &mut Ctx| -> Result<(), i32> {
            match format {
                Some(old) if old != f => Err(try_help(ctx, Some("conflicting output style options".into()))),
                _ => {
                    format = Some(f);
                    Ok(())
                }
            }
        };
        let digit = g.key.len() == 1 && g.key.as_bytes()[0].is_ascii_digit();
        match g.key {
            _ if digit => {
                let d = i64::from(g.key.as_bytes()[0] - b'0');
                ocontext = if prev_digit { (ocontext * 10 + d).min(i64::MAX / 20) } else { d };
            }
            "text" => o.text = true,
            "ignore-space-change" => c.white = c.white.max(CHANGE),
            "ignore-trailing-space" => c.white |= if c.white < CHANGE { TRAILING } else { 0 },
            "ignore-tab-expansion" => c.white |= if c.white < CHANGE { TAB } else { 0 },
            "ignore-all-space" => c.white = ALL,
            "ignore-blank-lines" => o.style.ignore_blank = true,
            "C" | "U" | "context" | "unified" => {
                let n = match &g.value {
                    Some(v) => match number(v) {
                        Some(n) if n >= 0 => n,
                        _ => return Err(try_help(ctx, Some(format!("invalid context length '{v}'")))),
                    },
                    None => 3,
                };
                style(if matches!(g.key, "U" | "unified") { Format::Unified } else { Format::Context }, ctx)?;
                context = context.max(n);
                explicit_context = true;
            }
            "c" | "u" => {
                style(if g.key == "u" { Format::Unified } else { Format::Context }, ctx)?;
                context = context.max(3);
            }
            "minimal" => c.minimal = true,
            "ed" => style(Format::Ed, ctx)?,
            "forward-ed" => style(Format::ForwardEd, ctx)?,
            "rcs" => style(Format::Rcs, ctx)?,
            "normal" => style(Format::Normal, ctx)?,
            "side-by-side" => style(Format::Side, ctx)?,
            "show-function-line" => function_res.push(value),
            "show-c-function" => {
                show_c_function = true;
                function_res.push("^[[:alpha:]$_]".into());
            }
            "ignore-matching-lines" => ignore_res.push(value),
            "ignore-case" => c.ignore_case = true,
            "label" => {
                if labels.len() == 2 {
                    ctx.error("too many file label options");
                    return Err(2);
                }
                labels.push(value);
            }
            "new-file" => o.new_file = true,
            "unidirectional-new-file" => o.unidirectional = true,
            "brief" => o.brief = true,
            "recursive" => o.recursive = true,
            "report-identical-files" => o.report_identical = true,
            "starting-file" => o.starting_file = Some(value),
            "expand-tabs" => o.style.expand_tabs = true,
            "initial-tab" => o.style.initial_tab = true,
            "version" | "help" => {
                ctx.about(g.key);
                return Err(0);
            }
            "exclude" => {
                if value.contains('[') {
                    unsupported.get_or_insert(g.spelled.clone());
                }
                o.excludes.push(value);
            }
            "width" => match number(&value) {
                Some(n) if n > 0 => {
                    if width != 0 && width != n {
                        ctx.error("conflicting width options");
                        return Err(2);
                    }
                    width = n;
                }
                _ => return Err(try_help(ctx, Some(format!("invalid width '{value}'")))),
            },
            "tabsize" => match number(&value) {
                Some(n) if n > 0 => {
                    if c.tabsize != 0 && c.tabsize != n as usize {
                        ctx.error("conflicting tabsize options");
                        return Err(2);
                    }
                    c.tabsize = n as usize;
                }
                _ => return Err(try_help(ctx, Some(format!("invalid tabsize '{value}'")))),
            },
            "horizon-lines" => match number(&value) {
                Some(n) if n >= 0 => c.horizon = c.horizon.max(n as usize),
                _ => return Err(try_help(ctx, Some(format!("invalid horizon length '{value}'")))),
            },
            "from-file" | "to-file" => {
                let slot = if g.key == "from-file" { &mut o.from_file } else { &mut o.to_file };
                if slot.as_ref().is_some_and(|v| *v != value) {
                    ctx.error(format!("conflicting {} option value '{value}'", g.spelled));
                    return Err(try_help(ctx, None));
                }
                *slot = Some(value);
            }
            "strip-trailing-cr" => o.strip_cr = true,
            "suppress-blank-empty" => o.style.suppress_blank_empty = true,
            "suppress-common-lines" => o.style.suppress_common = true,
            "left-column" => o.style.left_column = true,
            "color" => match value.as_str() {
                "" | "never" | "no" | "none" | "auto" | "tty" | "if-tty" => {}
                "always" | "yes" | "force" => {
                    unsupported.get_or_insert("--color=always".into());
                }
                _ => return Err(try_help(ctx, Some(format!("invalid color '{value}'")))),
            },
            "binary"
            | "h"
            | "speed-large-files"
            | "inhibit-hunk-merge"
            | "no-dereference"
            | "palette"
            | "no-ignore-file-name-case" => {}
            _ => {
                unsupported.get_or_insert(g.spelled.clone());
            }
        }
        prev_digit = digit;
    }
    let mut format = match format {
        Some(f) => f,
        None if show_c_function => {
            if ocontext < 0 {
                context = 3;
            }
            Format::Context
        }
        None => Format::Normal,
    };
    if format == Format::Side && o.style.suppress_common {
        format = Format::Side;
    }
    if ocontext >= 0
        && matches!(format, Format::Context | Format::Unified)
        && (context < ocontext || (ocontext < context && !explicit_context))
    {
        context = ocontext;
    }
    if c.tabsize == 0 {
        c.tabsize = 8;
    }
    if width == 0 {
        width = 130;
    }
    let context = context.min(i64::from(u32::MAX)) as usize;
    c.horizon = c.horizon.max(context);
    // Each word as the shell would need it quoted (gnulib's `shell` style).
    o.switches = option_words(args).iter().map(|w| format!(" {}", quoted(w, quote::Style::Shell, &[]))).collect();
    if o.from_file.is_some() && o.to_file.is_some() {
        ctx.error("--from-file and --to-file both specified");
        return Err(2);
    }
    o.operands = line.operands;
    if o.from_file.is_none() && o.to_file.is_none() && o.operands.len() != 2 {
        let message = if o.operands.len() < 2 {
            format!("missing operand after '{}'", args.last().map_or("diff", String::as_str))
        } else {
            format!("extra operand '{}'", o.operands[2])
        };
        return Err(try_help(ctx, Some(message)));
    }
    if let Some(what) = unsupported {
        ctx.error(format!("option '{what}' is not supported here"));
        return Err(2);
    }
    let regex = |pats: &[String], ctx: &mut Ctx| -> Result<Option<regex_lite::Regex>, i32> {
        if pats.is_empty() {
            return Ok(None);
        }
        let mut all = Vec::new();
        for p in pats {
            match crate::search::pattern::gnu::spell(p, false) {
                Ok(s) => all.push(format!("(?:{})", s.re2)),
                Err(_) => {
                    ctx.error(format!("the pattern '{p}' is not supported here"));
                    return Err(2);
                }
            }
        }
        regex_lite::Regex::new(&all.join("|")).map(Some).map_err(|_| {
            ctx.error("the pattern is not supported here");
            2
        })
    };
    o.style.ignore_re = regex(&ignore_res, ctx)?;
    o.style.function_re = regex(&function_res, ctx)?;
    o.style.format = format;
    o.style.context = context;
    o.style.tabsize = c.tabsize;
    // GNU's comparison of lines with both -E and -Z ignores only trailing white space.
    if c.white == TAB | TRAILING {
        c.white = TRAILING;
    }
    o.style.white = c.white;
    o.style.width = width as usize;
    o.format = format;
    o.labels = labels;
    o.compare = c;
    Ok(o)
}
