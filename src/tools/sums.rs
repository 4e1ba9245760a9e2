//! `md5sum`, `sha1sum`, `sha256sum`: files' digests, and `-c` checking them, as
//! coreutils 9.1 prints them.

use super::ctx::{Ctx, Status};
use super::hash;
use crate::base::getopt::{self, long, opt, Arg, Digits, Grammar};
use crate::base::quote::quotef;

const OPTS: &[getopt::Opt] = &[
    opt('b', "binary", Arg::No),
    opt('c', "check", Arg::No),
    long("ignore-missing", Arg::No),
    long("quiet", Arg::No),
    long("status", Arg::No),
    opt('t', "text", Arg::No),
    opt('w', "warn", Arg::No),
    long("strict", Arg::No),
    long("tag", Arg::No),
    opt('z', "zero", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
];

/// A digest function.
type Digest = fn(&[u8]) -> Vec<u8>;

/// The digest a command computes, and its name in `--tag` lines.
fn algorithm(name: &str) -> (Digest, &'static str) {
    match name {
        "md5sum" => (hash::md5, "MD5"),
        "sha1sum" => (hash::sha1, "SHA1"),
        _ => (hash::sha256, "SHA256"),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file name as digest lines write it: `\` and newlines escaped (the line then starts
/// with a backslash).
fn escaped(name: &str) -> (bool, String) {
    let needs = name.contains(['\\', '\n', '\r']);
    (needs, if needs { name.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r") } else { name.into() })
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line =
        match getopt::parse(&Grammar { opts: OPTS, permute: true, digits: Digits::No, ..getopt::GETOPT_LONG }, args) {
            Ok(line) => line,
            Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
        };
    let mut o = Check::default();
    let (mut binary, mut check, mut tag, mut zero) = (None, false, false, false);
    for given in &line.opts {
        match given.key {
            "binary" => binary = Some(true),
            "text" => binary = Some(false),
            "check" => check = true,
            "ignore-missing" => o.ignore_missing = true,
            "quiet" => o.quiet = true,
            "status" => o.status = true,
            "warn" => o.warn = true,
            "strict" => o.strict = true,
            "tag" => tag = true,
            "zero" => zero = true,
            _ => return Ok(ctx.about(given.key)),
        }
    }
    let name = ctx.name;
    let only_check = |what: &str| format!("{name}: the {what} option is meaningful only when verifying checksums\n");
    if tag && check {
        return Ok(ctx.usage(&format!("{name}: the --tag option is meaningless when verifying checksums\n"), 1));
    }
    if tag && binary == Some(false) {
        return Ok(ctx.usage(&format!("{name}: --tag does not support --text mode\n"), 1));
    }
    if binary.is_some() && check {
        return Ok(ctx
            .usage(&format!("{name}: the --binary and --text options are meaningless when verifying checksums\n"), 1));
    }
    if !check {
        for (on, what) in [
            (o.ignore_missing, "--ignore-missing"),
            (o.status, "--status"),
            (o.warn, "--warn"),
            (o.quiet, "--quiet"),
            (o.strict, "--strict"),
        ] {
            if on {
                return Ok(ctx.usage(&only_check(what), 1));
            }
        }
    }
    let files = if line.operands.is_empty() { vec!["-".to_string()] } else { line.operands };
    ctx.want(files.iter().map(String::as_str))?;
    let (digest, algo) = algorithm(name);
    let mut status = 0;
    if check {
        for file in &files {
            if !o.check_file(ctx, file, digest)? {
                status = 1;
            }
        }
        return Ok(status);
    }
    for file in &files {
        let Some(data) = ctx.read_or_report(file)? else {
            status = 1;
            continue;
        };
        let sum = hex(&digest(data));
        let (escape, shown) = if zero { (false, file.clone()) } else { escaped(file) };
        let lead = if escape { "\\" } else { "" };
        let end = if zero { '\0' } else { '\n' };
        if tag {
            ctx.print(format!("{lead}{algo} ({shown}) = {sum}{end}"));
        } else {
            let mode = if binary == Some(true) { '*' } else { ' ' };
            ctx.print(format!("{lead}{sum} {mode}{shown}{end}"));
        }
    }
    Ok(status)
}

/// `-c`'s options.
#[derive(Default)]
struct Check {
    ignore_missing: bool,
    quiet: bool,
    status: bool,
    warn: bool,
    strict: bool,
}

/// A checksum line read: the digest in hex, and the file name.
fn split_line(line: &str, algo: &str, hex_len: usize) -> Option<(String, String)> {
    let line = line.trim_start_matches([' ', '\t']);
    let (escaped, line) = match line.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let unescape = |s: &str| -> Option<String> {
        if !escaped {
            return Some(s.to_string());
        }
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next()? {
                    '\\' => out.push('\\'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    _ => return None,
                }
            } else {
                out.push(c);
            }
        }
        Some(out)
    };
    if let Some(rest) = line.strip_prefix(algo).and_then(|r| r.strip_prefix(" (")) {
        let (name, sum) = rest.rsplit_once(") = ")?;
        let ok = sum.len() == hex_len && sum.bytes().all(|b| b.is_ascii_hexdigit());
        return if ok { Some((sum.to_string(), unescape(name)?)) } else { None };
    }
    let sum = line.get(..hex_len)?;
    if !sum.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let rest = &line[hex_len..];
    let rest = rest.strip_prefix([' ', '\t'])?;
    let name = rest.strip_prefix([' ', '*']).unwrap_or(rest);
    if name.is_empty() {
        return None;
    }
    Some((sum.to_string(), unescape(name)?))
}

impl Check {
    /// Checks the lines of `file`: false when anything failed.
    fn check_file(&self, ctx: &mut Ctx, file: &str, digest: Digest) -> Result<bool, super::Pending> {
        let (_, algo) = algorithm(ctx.name);
        let hex_len = digest(b"").len() * 2;
        let shown_file = quotef(if file == "-" { "standard input" } else { file });
        let Some(data) = ctx.read_or_report(file)? else { return Ok(false) };
        let text = String::from_utf8_lossy(data).into_owned();
        let mut entries = Vec::new();
        let mut misformatted = 0;
        for (n, raw) in text.split_inclusive('\n').enumerate() {
            if raw.starts_with('#') {
                continue;
            }
            let line = raw.strip_suffix('\n').unwrap_or(raw);
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.is_empty() {
                continue;
            }
            match split_line(line, algo, hex_len).filter(|(_, name)| !(file == "-" && name == "-")) {
                Some(entry) => entries.push(entry),
                None => {
                    misformatted += 1;
                    if self.warn {
                        ctx.error(format!("{shown_file}: {}: improperly formatted {algo} checksum line", n + 1));
                    }
                }
            }
        }
        // Every listed file, read in one round.
        let listed: Vec<&str> = entries.iter().map(|(_, n)| n.as_str()).filter(|n| *n != "-").collect();
        ctx.want(listed)?;
        let (mut failures, mut mismatches, mut matched) = (0, 0, false);
        for (sum, name) in &entries {
            let (escape, shown) = escaped(name);
            let shown = if escape && name.contains('\n') { format!("\\{shown}") } else { name.clone() };
            match ctx.read(name)? {
                Err(e) => {
                    if self.ignore_missing && e.code == "ENOENT" {
                        continue;
                    }
                    ctx.error(format!("{}: {}", quotef(name), e.text));
                    failures += 1;
                    if !self.status {
                        ctx.print(format!("{shown}: FAILED open or read\n"));
                    }
                }
                Ok(data) => {
                    let good = hex(&digest(data)) == sum.to_ascii_lowercase();
                    if good {
                        matched = true;
                    } else {
                        mismatches += 1;
                    }
                    if !self.status && (!good || !self.quiet) {
                        ctx.print(format!("{shown}: {}\n", if good { "OK" } else { "FAILED" }));
                    }
                }
            }
        }
        if entries.is_empty() {
            ctx.error(format!("{shown_file}: no properly formatted checksum lines found"));
            return Ok(false);
        }
        if !self.status {
            let plural = |n: usize, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
            if misformatted > 0 {
                let what = plural(misformatted, "line is", "lines are");
                ctx.error(format!("WARNING: {misformatted} {what} improperly formatted"));
            }
            if failures > 0 {
                let what = plural(failures, "listed file could", "listed files could");
                ctx.error(format!("WARNING: {failures} {what} not be read"));
            }
            if mismatches > 0 {
                let what = plural(mismatches, "computed checksum", "computed checksums");
                ctx.error(format!("WARNING: {mismatches} {what} did NOT match"));
            }
            if self.ignore_missing && !matched {
                ctx.error(format!("{shown_file}: no file was verified"));
            }
        }
        Ok(matched && mismatches == 0 && failures == 0 && (!self.strict || misformatted == 0))
    }
}
