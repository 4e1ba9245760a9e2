//! `seq`: numbers from FIRST by INCREMENT to LAST, as coreutils 9.1 prints them (its
//! widths and precisions taken from how the operands are written, `-w`, `-s`, `-f`).
//!
//! GNU counts in `long double`; here numbers are exact decimals, which print the same
//! for operands written in decimal. Hexadecimal operands, infinities and `%a` formats
//! are refused.

use super::ctx::{Ctx, Status};
use super::decfmt::{self, Dec};
use crate::base::getopt::{self, opt, Arg, Digits, Grammar, Misuse};

const OPTS: &[getopt::Opt] = &[
    opt('f', "format", Arg::Required),
    opt('s', "separator", Arg::Required),
    opt('w', "equal-width", Arg::No),
    getopt::long("help", Arg::No),
    getopt::long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: false, digits: Digits::No, ..getopt::GETOPT_LONG };

/// An operand: its value, and the width and precision it is written with (`None`: the
/// precision of a number that is not plainly fixed-point).
struct Operand {
    value: Dec,
    width: usize,
    precision: Option<usize>,
}

/// A `-f` format: the text before and after its one directive, and the directive.
struct Format {
    prefix: String,
    spec: decfmt::Spec,
    suffix: String,
}

/// Reads the command line as GNU's seq does: options stop at an operand, and a word that
/// looks like a negative number is one.
fn parse(args: &[String]) -> Result<getopt::Line, Misuse> {
    let negative = |a: &String| a.starts_with('-') && a[1..].starts_with(|c: char| c == '.' || c.is_ascii_digit());
    for (i, _) in args.iter().enumerate().filter(|(_, a)| negative(a)) {
        match getopt::parse(&GRAMMAR, &args[..i]) {
            Err(Misuse::ShortNeedsValue(_) | Misuse::LongNeedsValue(_)) => continue,
            Err(e) => return Err(e),
            Ok(mut line) => {
                line.operands.extend(args[i..].iter().cloned());
                return Ok(line);
            }
        }
    }
    getopt::parse(&GRAMMAR, args)
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match parse(args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let (mut format, mut sep, mut equal) = (None, "\n".to_string(), false);
    for given in &line.opts {
        let value = given.value.clone().unwrap_or_default();
        match given.key {
            "format" => format = Some(value),
            "separator" => sep = value,
            "equal-width" => equal = true,
            _ => return Ok(ctx.about(given.key)),
        }
    }
    let ops = &line.operands;
    if ops.is_empty() {
        return Ok(ctx.usage(&format!("{}: missing operand\n", ctx.name), 1));
    }
    if ops.len() > 3 {
        return Ok(ctx.usage(&format!("{}: extra operand ‘{}’\n", ctx.name, ops[3]), 1));
    }
    let format = match format.as_deref().map(read_format) {
        Some(Err(message)) => {
            ctx.error(message);
            return Ok(1);
        }
        Some(Ok(f)) => Some(f),
        None => None,
    };
    if format.is_some() && equal {
        let message = "format string may not be specified when printing equal width strings";
        return Ok(ctx.usage(&format!("{}: {message}\n", ctx.name), 1));
    }
    let mut operands = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        match scan(op) {
            Ok(o) => {
                if i == 1 && ops.len() == 3 && o.value.is_zero() {
                    return Ok(ctx.usage(&format!("{}: invalid Zero increment value: ‘{op}’\n", ctx.name), 1));
                }
                operands.push(o);
            }
            Err(message) => return Ok(ctx.usage(&format!("{}: {message}\n", ctx.name), 1)),
        }
    }
    let one = || Operand { value: Dec::int(1), width: 1, precision: Some(0) };
    let last = operands.pop().unwrap_or_else(one);
    let step = if operands.len() == 2 { operands.pop().unwrap_or_else(one) } else { one() };
    let first = operands.pop().unwrap_or_else(one);
    let format = format.unwrap_or_else(|| default_format(&first, &step, &last, equal));
    let print = |x: &Dec| format!("{}{}{}", format.prefix, decfmt::format(x, &format.spec), format.suffix);
    let beyond = |x: &Dec| if step.value.neg { x.lt(&last.value) } else { last.value.lt(x) };
    if beyond(&first.value) {
        return Ok(0);
    }
    let mut out = print(&first.value);
    let mut previous = first.value.clone();
    for i in 1u128.. {
        let x = first.value.add(&step.value.times(i));
        if beyond(&x) {
            // A number just past LAST that prints as LAST (and not as the one before) is
            // printed, as GNU does against rounding.
            let shown = decfmt::format(&x, &format.spec);
            let equal_last = Dec::parse(shown.trim_start()).is_some_and(|v| v.eq(&last.value));
            if !equal_last || shown == decfmt::format(&previous, &format.spec) {
                break;
            }
            out.push_str(&sep);
            out.push_str(&print(&x));
            break;
        }
        out.push_str(&sep);
        out.push_str(&print(&x));
        previous = x;
    }
    out.push('\n');
    ctx.print(out);
    Ok(0)
}

/// An operand, with its width and precision as seq.c's `scan_arg` works them out.
fn scan(arg: &str) -> Result<Operand, String> {
    let t = arg.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let lower = t.trim_start_matches(['+', '-']).to_ascii_lowercase();
    if lower.starts_with("nan") {
        return Err(format!("invalid ‘not-a-number’ argument: ‘{arg}’"));
    }
    let value = Dec::parse(t).ok_or_else(|| format!("invalid floating point argument: ‘{arg}’"))?;
    let a = arg.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '+');
    let point = a.find('.');
    let mut precision: i64 = if point.is_none() { 0 } else { i64::MAX };
    let mut width = a.len() as i64;
    let mut fraction = 0i64;
    if let Some(p) = point {
        fraction = a[p + 1..].find(['e', 'E']).unwrap_or(a.len() - p - 1) as i64;
        precision = fraction;
        width += if fraction == 0 { -1 } else { i64::from(p == 0 || !a.as_bytes()[p - 1].is_ascii_digit()) };
    }
    if let Some(e) = a.find(['e', 'E']) {
        let digits: String = a[e + 1..]
            .char_indices()
            .take_while(|&(i, c)| c.is_ascii_digit() || i == 0 && (c == '-' || c == '+'))
            .map(|(_, c)| c)
            .collect();
        let mut exponent: i64 = digits.parse().unwrap_or(0);
        precision += if exponent < 0 { -exponent } else { -precision.min(exponent) };
        width -= (a.len() - e) as i64;
        if exponent < 0 {
            if point.is_none_or(|p| e == p + 1) {
                width += 1;
            }
            exponent = -exponent;
        } else {
            if point.is_some() && precision == 0 && fraction > 0 {
                width -= 1;
            }
            exponent -= fraction.min(exponent);
        }
        width += exponent;
    }
    Ok(Operand { value, width: width.max(0) as usize, precision: usize::try_from(precision).ok() })
}

/// The format seq prints with when not given one: as many decimals as FIRST or INCREMENT
/// have, padded with zeros to one width with `-w`.
fn default_format(first: &Operand, step: &Operand, last: &Operand, equal: bool) -> Format {
    let spec = |width: usize, zero: bool, precision: Option<usize>, conv: char| decfmt::Spec {
        width,
        zero,
        precision,
        conv,
        ..Default::default()
    };
    let prec = match (first.precision, step.precision, last.precision) {
        (Some(a), Some(b), Some(lp)) => Some((a.max(b), lp)),
        _ => None,
    };
    let spec = match prec {
        None => spec(0, false, None, 'g'),
        Some((prec, _)) if !equal => spec(0, false, Some(prec), 'f'),
        Some((prec, last_prec)) => {
            let first_prec = first.precision.unwrap_or(0);
            let mut first_width = first.width + prec - first_prec;
            let mut last_width = (last.width + prec).saturating_sub(last_prec);
            if last_prec > 0 && prec == 0 {
                last_width -= 1;
            }
            if last_prec == 0 && prec > 0 {
                last_width += 1;
            }
            if first_prec == 0 && prec > 0 {
                first_width += 1;
            }
            spec(first_width.max(last_width), true, Some(prec), 'f')
        }
    };
    Format { prefix: String::new(), spec, suffix: String::new() }
}

/// A `-f` format read as seq.c's `long_double_format` does, or its message.
fn read_format(fmt: &str) -> Result<Format, String> {
    let b = fmt.as_bytes();
    let mut i = 0;
    while !(b.get(i) == Some(&b'%') && b.get(i + 1) != Some(&b'%')) {
        if i >= b.len() {
            return Err(format!("format ‘{fmt}’ has no % directive"));
        }
        i += if b[i] == b'%' { 2 } else { 1 };
    }
    let prefix = unescape_percent(&fmt[..i]);
    i += 1;
    let mut spec = decfmt::Spec::default();
    while let Some(&c) = b.get(i).filter(|c| b"-+#0 '".contains(c)) {
        match c {
            b'-' => spec.left = true,
            b'+' => spec.plus = true,
            b'#' => spec.alt = true,
            b'0' => spec.zero = true,
            b' ' => spec.space = true,
            _ => {}
        }
        i += 1;
    }
    let digits = |i: &mut usize| {
        let s = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        fmt[s..*i].parse::<usize>().unwrap_or(0)
    };
    spec.width = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        spec.precision = Some(digits(&mut i));
    }
    if b.get(i) == Some(&b'L') {
        i += 1;
    }
    let Some(&conv) = b.get(i) else {
        return Err(format!("format ‘{fmt}’ ends in %"));
    };
    if !b"efgaEFGA".contains(&conv) {
        let c = fmt[i..].chars().next().unwrap_or('?');
        return Err(format!("format ‘{fmt}’ has unknown %{c} directive"));
    }
    if conv.eq_ignore_ascii_case(&b'a') {
        return Err(format!("format ‘{fmt}’: %{} is not supported here", conv as char));
    }
    spec.conv = conv as char;
    i += 1;
    let rest = &fmt[i..];
    let rb = rest.as_bytes();
    let mut j = 0;
    while j < rb.len() {
        if rb[j] == b'%' && rb.get(j + 1) != Some(&b'%') {
            return Err(format!("format ‘{fmt}’ has too many % directives"));
        }
        j += if rb[j] == b'%' { 2 } else { 1 };
    }
    Ok(Format { prefix, spec, suffix: unescape_percent(rest) })
}

/// Text around the directive as printf prints it: `%%` is `%`.
fn unescape_percent(text: &str) -> String {
    text.replace("%%", "%")
}
