//! grep planning: what a `grep` command line will read, and how Chroma can narrow it.
//!
//! The split follows ripgrep's: this module only plans (pure, over the in-memory
//! listing); `fs` runs the plan (a coarse query, a bulk prefetch, a fine check); the
//! command itself — just-bash's own grep, run by the host over the narrowed operands —
//! does the matching and all the printing, so output stays byte-for-byte just-bash's.
//!
//! The options are parsed exactly as just-bash 3.4 parses them. A plan is one of:
//! - [`Plan::Delegate`]: the command reads no files (stdin, `--help`, a usage error);
//! - [`Plan::Prefetch`]: no filter can be a guaranteed superset (`-v`, `-L`, `-c`,
//!   `--exclude-dir`, an unsupported pattern…), so the files it will read are loaded in
//!   bulk and the command runs as typed;
//! - [`Plan::Narrow`]: a recursive search whose files are named one by one, in the
//!   order and spelling just-bash's walk would use, keeping only the pages Chroma says
//!   may match.

use crate::path;
use crate::pattern::{self, Dialect, Node, Req};
use crate::tree::{Listing, Node as TreeNode};
use serde_json::{json, Value};

/// Chroma Cloud's limits on a filter.
pub const MAX_FILTER_BYTES: usize = 256;
/// `where_document` leaves per query; the slug scope in `where` is the eighth predicate.
pub const MAX_DOCUMENT_PREDICATES: usize = 7;
const MAX_GREP_DEPTH: usize = 256;

/// grep's options, as just-bash reads them.
#[derive(Debug, Clone, Default)]
pub struct GrepArgs {
    pub ignore_case: bool,
    pub invert: bool,
    pub count: bool,
    pub files_without_match: bool,
    pub recursive: bool,
    pub line_regexp: bool,
    pub extended: bool,
    pub perl: bool,
    pub fixed: bool,
    pub help: bool,
    /// An option just-bash rejects: the command fails before reading anything.
    pub invalid: bool,
    pub pattern: Option<String>,
    pub pattern_files: Vec<String>,
    pub exclude_dir: bool,
    /// Indices into the argument list of the file operands.
    pub file_operands: Vec<usize>,
    pub has_double_dash: bool,
}

impl GrepArgs {
    pub fn dialect(&self) -> Dialect {
        if self.fixed {
            Dialect::Fixed
        } else if self.extended {
            Dialect::Extended
        } else if self.perl {
            Dialect::Perl
        } else {
            Dialect::Basic
        }
    }
}

fn is_context(a: &str) -> bool {
    let b = a.as_bytes();
    b.len() > 2 && b[0] == b'-' && matches!(b[1], b'A' | b'B' | b'C') && b[2..].iter().all(u8::is_ascii_digit)
}

/// Parses `args` (after `skip` injected ones, such as egrep's `-E`) as just-bash's grep does.
pub fn parse_grep(args: &[String], skip: usize) -> GrepArgs {
    let mut g = GrepArgs::default();
    let mut operands = Vec::new();
    let mut options = true;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if options && arg == "--" {
            options = false;
            g.has_double_dash = true;
            i += 1;
            continue;
        }
        if options && arg == "--help" {
            g.help = true;
            return g;
        }
        if options && arg.starts_with('-') && arg != "-" {
            let takes_next = i + 1 < args.len();
            if arg == "-e" && takes_next {
                g.pattern = Some(args[i + 1].clone());
                i += 2;
                continue;
            }
            if let Some(f) = arg.strip_prefix("--file=") {
                g.pattern_files.push(f.to_string());
            } else if arg.starts_with("--include=") || arg.starts_with("--exclude=") || arg.starts_with("--max-count=") {
            } else if arg.starts_with("--exclude-dir=") {
                g.exclude_dir = true;
            } else if arg.len() > 2 && arg.starts_with("-m") && arg[2..].bytes().all(|b| b.is_ascii_digit()) || is_context(arg) {
            } else if matches!(arg, "-m" | "-A" | "-B" | "-C") && takes_next {
                i += 1;
            } else {
                let flags: Vec<String> = if arg.starts_with("--") { vec![arg.to_string()] } else { arg[1..].chars().map(String::from).collect() };
                for (f, flag) in flags.iter().enumerate() {
                    match flag.as_str() {
                        "f" | "--file" => {
                            let attached: String = if flag == "f" { flags[f + 1..].concat() } else { String::new() };
                            if !attached.is_empty() {
                                g.pattern_files.push(attached);
                            } else if i + 1 < args.len() {
                                i += 1;
                                g.pattern_files.push(args[i].clone());
                            } else {
                                g.invalid = true;
                                return g;
                            }
                            break;
                        }
                        "i" | "--ignore-case" => g.ignore_case = true,
                        "v" | "--invert-match" => g.invert = true,
                        "c" | "--count" => g.count = true,
                        "L" | "--files-without-match" => g.files_without_match = true,
                        "r" | "R" | "--recursive" => g.recursive = true,
                        "x" | "--line-regexp" => g.line_regexp = true,
                        "E" | "--extended-regexp" => g.extended = true,
                        "P" | "--perl-regexp" => g.perl = true,
                        "F" | "--fixed-strings" => g.fixed = true,
                        "n" | "--line-number" | "l" | "--files-with-matches" | "w" | "--word-regexp" | "o"
                        | "--only-matching" | "h" | "--no-filename" | "q" | "--quiet" | "--silent" => {}
                        _ => {
                            g.invalid = true;
                            return g;
                        }
                    }
                }
            }
            i += 1;
            continue;
        }
        operands.push(i);
        i += 1;
    }
    if g.pattern.is_none() && g.pattern_files.is_empty() {
        if operands.is_empty() {
            g.invalid = true; // "missing pattern"
            return g;
        }
        g.pattern = Some(args[operands.remove(0)].clone());
    }
    g.file_operands = operands.into_iter().filter(|&o| o >= skip).collect();
    g
}

/// One file of a narrowed search, or an operand left for grep to report.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A visible file: `shown` is how grep spells it, `path` where it is.
    File { shown: String, path: String },
    /// An operand that is not a visible file or directory: grep reports it itself.
    Keep(String),
}

/// The files a recursive grep walk visits from `operand`, spelled as just-bash spells them.
pub fn walk(listing: &Listing, cwd: &str, operand: &str, out: &mut Vec<Target>) {
    fn go(listing: &Listing, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) {
        if depth >= MAX_GREP_DEPTH {
            return;
        }
        match listing.get(full) {
            Some(TreeNode::File(_)) => out.push(Target::File { shown: shown.to_string(), path: full.to_string() }),
            Some(TreeNode::Dir(d)) => {
                for (name, _) in &d.children {
                    if name.starts_with('.') {
                        continue; // the walk skips dotfiles
                    }
                    let child_shown = if shown == "." { name.clone() } else { format!("{shown}/{name}") };
                    let child_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
                    go(listing, &child_full, &child_shown, out, depth + 1);
                }
            }
            None => {}
        }
    }
    let full = path::resolve(cwd, operand);
    if listing.get(&full).is_none() {
        out.push(Target::Keep(operand.to_string()));
        return;
    }
    go(listing, &full, operand, out, 0);
}

fn has_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// The coarse filter and the fine check for a set of patterns.
#[derive(Debug, Clone, PartialEq)]
pub struct Matcher {
    /// `where_document` for the coarse query.
    pub filter: Value,
    /// Rust regexes run over a candidate page (any one matching keeps it), or `None`
    /// when no exact-enough check exists.
    pub fine: Option<Vec<String>>,
    pub ignore_case: bool,
}

fn contains_leaf(lit: &str, ignore_case: bool) -> Value {
    if ignore_case {
        // Truncating a required literal keeps it required.
        let mut s: String = lit.chars().collect();
        while format!("(?i){}", pattern::escape(&s)).len() > MAX_FILTER_BYTES {
            s.pop();
        }
        json!({ "$regex": format!("(?i){}", pattern::escape(&s)) })
    } else {
        let mut end = lit.len().min(MAX_FILTER_BYTES);
        while !lit.is_char_boundary(end) {
            end -= 1;
        }
        json!({ "$contains": &lit[..end] })
    }
}

/// Leaves for one literal: it occurs in a chunk, or (chunks not line-aligned) a chunk
/// ends with the start of it.
fn literal_leaves(lit: &str, ignore_case: bool, aligned: bool) -> Vec<Value> {
    let mut leaves = vec![contains_leaf(lit, ignore_case)];
    if !aligned {
        let mut s: String = lit.chars().take(24).collect();
        while let Some(re) = pattern::cut_prefix_regex(&s) {
            let re = if ignore_case { format!("(?i){re}") } else { re };
            if re.len() <= MAX_FILTER_BYTES {
                leaves.push(json!({ "$regex": re }));
                break;
            }
            s.pop();
        }
    }
    leaves
}

fn or(mut v: Vec<Value>) -> Value {
    if v.len() == 1 {
        v.pop().unwrap()
    } else {
        json!({ "$or": v })
    }
}

fn and(mut v: Vec<Value>) -> Value {
    if v.len() == 1 {
        v.pop().unwrap()
    } else {
        json!({ "$and": v })
    }
}

fn count_leaves(v: &Value) -> usize {
    match v.as_object().and_then(|o| o.get("$or").or_else(|| o.get("$and"))) {
        Some(Value::Array(items)) => items.iter().map(count_leaves).sum(),
        _ => 1,
    }
}

/// A filter from required literals; `None` when nothing is required.
fn requirement_filter(req: &Req, ignore_case: bool, aligned: bool) -> Option<Value> {
    let req = if aligned { req.clone() } else { req.single_literals() };
    match &req {
        Req::Any => None,
        Req::Lit(l) => Some(or(literal_leaves(l, ignore_case, aligned))),
        Req::All(parts) => {
            let mut lits: Vec<&Req> = parts.iter().collect();
            lits.sort_by_key(|r| std::cmp::Reverse(match r {
                Req::Lit(s) => s.chars().count(),
                _ => 0,
            }));
            let chosen: Vec<Value> = lits.iter().take(3).filter_map(|r| requirement_filter(r, ignore_case, aligned)).collect();
            (!chosen.is_empty()).then(|| and(chosen))
        }
        Req::OneOf(parts) => {
            let alts: Option<Vec<Value>> = parts.iter().map(|r| requirement_filter(r, ignore_case, aligned)).collect();
            alts.map(or)
        }
    }
}

/// The text a pattern matches when it is nothing but literal characters.
fn pure_literal(node: &Node) -> Option<String> {
    match node {
        Node::Lit(c) => Some(c.to_string()),
        Node::Cat(items) if !items.is_empty() => items.iter().map(pure_literal).collect(),
        _ => None,
    }
}

/// Builds the matcher for grep's patterns, or `None` when no sound filter exists.
pub fn matcher(patterns: &[String], dialect: Dialect, ignore_case: bool, line_regexp: bool, aligned: bool) -> Option<Matcher> {
    let flags = if ignore_case { "(?mi)" } else { "(?m)" };
    let mut regexes = Vec::new();
    let mut filters = Vec::new();
    let mut exact_fine = true;
    for p in patterns {
        if p.is_empty() {
            return None; // matches every line
        }
        let node = match pattern::to_re2(p, dialect).ok()? {
            None if line_regexp => Node::Cat(vec![Node::Start, Node::Cat(p.chars().map(Node::Lit).collect()), Node::End]),
            None => Node::Cat(p.chars().map(Node::Lit).collect()),
            Some(re2) => {
                let node = pattern::parse(&re2).ok()?;
                if line_regexp {
                    Node::Cat(vec![Node::Start, Node::Group(Box::new(node)), Node::End])
                } else {
                    node
                }
            }
        };
        let mut re = String::from(flags);
        node.to_rust_regex(&mut re);
        let filter = match pure_literal(&node) {
            // A plain substring: `$contains`, which Chroma answers from its full-text index.
            Some(lit) if aligned && !ignore_case && !line_regexp && lit.len() <= MAX_FILTER_BYTES => json!({ "$contains": lit }),
            _ if aligned && re.len() <= MAX_FILTER_BYTES => json!({ "$regex": re }),
            _ => requirement_filter(&node.required(), ignore_case, aligned)?,
        };
        regexes.push(re);
        filters.push(filter);
        // regex-lite folds case for ASCII only; RE2 folds Unicode.
        exact_fine &= !ignore_case || p.is_ascii();
    }
    if patterns.is_empty() {
        return None;
    }
    let mut filter = or(filters);
    if count_leaves(&filter) > MAX_DOCUMENT_PREDICATES {
        // One regex for all patterns, when it fits.
        let combined = format!("{flags}{}", regexes.iter().map(|r| format!("(?:{})", &r[flags.len()..])).collect::<Vec<_>>().join("|"));
        if !aligned || combined.len() > MAX_FILTER_BYTES {
            return None;
        }
        filter = json!({ "$regex": combined });
    }
    Some(Matcher { filter, fine: exact_fine.then_some(regexes), ignore_case })
}

/// What to do with one search command.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    Delegate,
    /// Load these (normalised) paths, then run the command as typed.
    Prefetch(Vec<String>),
    /// Pattern files to read first (paths as given), then plan again with their contents.
    ReadPatternFiles(Vec<String>),
    Narrow(Narrowing),
}

/// A recursive grep to run over fewer files.
#[derive(Debug, Clone, PartialEq)]
pub struct Narrowing {
    pub targets: Vec<Target>,
    pub patterns: Vec<String>,
    /// The coarse filter and fine check, built once while planning.
    pub matcher: Matcher,
    /// The arguments without the file operands, ending where the new operands go.
    pub args: Vec<String>,
    /// rg prints bare lines for a single explicit file: when the original command did
    /// not name one, a narrowed list of one gets `/dev/null` beside it.
    pub keep_many: bool,
}

fn split_pattern_file(content: &str) -> Vec<String> {
    if content.is_empty() {
        return Vec::new();
    }
    let mut lines: Vec<String> = content.split('\n').map(String::from).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

/// Every file the command may read, for a bulk prefetch.
fn read_set(listing: &Listing, cwd: &str, args: &[String], g: &GrepArgs) -> Vec<String> {
    let mut out = Vec::new();
    for &i in &g.file_operands {
        let op = args[i].as_str();
        if op == "-" {
            continue;
        }
        if has_glob(op) {
            // grep expands it itself: load everything below its fixed directory.
            let fixed = op[..op.find(['*', '?', '[']).unwrap()].rsplit_once('/').map_or(".", |(d, _)| if d.is_empty() { "/" } else { d });
            out.extend(listing.files_under(&path::resolve(cwd, fixed)));
            continue;
        }
        let full = path::resolve(cwd, op);
        match listing.get(&full) {
            Some(TreeNode::File(_)) => out.push(full),
            Some(TreeNode::Dir(_)) if g.recursive => out.extend(listing.files_under(&full)),
            _ => {}
        }
    }
    out
}

/// Plans a `grep`/`egrep`/`fgrep` command. `pattern_files` holds the contents of the
/// `-f` files once they have been read (see [`Plan::ReadPatternFiles`]).
pub fn plan_grep(name: &str, args: &[String], cwd: &str, listing: &Listing, aligned: bool, pattern_files: Option<&[String]>) -> Plan {
    let injected: &[&str] = match name {
        "egrep" => &["-E"],
        "fgrep" => &["-F"],
        _ => &[],
    };
    let full: Vec<String> = injected.iter().map(|s| s.to_string()).chain(args.iter().cloned()).collect();
    let mut g = parse_grep(&full, injected.len());
    if g.help || g.invalid || g.file_operands.is_empty() {
        return Plan::Delegate;
    }
    // Operand indices refer to `full`; shift them back to `args`.
    g.file_operands.iter_mut().for_each(|i| *i -= injected.len());
    let prefetch = || Plan::Prefetch(read_set(listing, cwd, args, &g));
    let mut patterns: Vec<String> = g.pattern.as_deref().map(|p| p.split('\n').map(String::from).collect()).unwrap_or_default();
    if !g.pattern_files.is_empty() {
        match pattern_files {
            None if g.pattern_files.iter().all(|f| !f.is_empty() && f != "-") => return Plan::ReadPatternFiles(g.pattern_files.clone()),
            None => return prefetch(),
            Some(contents) => contents.iter().for_each(|c| patterns.extend(split_pattern_file(c))),
        }
    }
    if patterns.is_empty() && !g.invert && !g.files_without_match {
        return Plan::Delegate; // selects nothing and reads nothing
    }
    let unsafe_flags = g.invert || g.count || g.files_without_match || g.exclude_dir || !g.recursive;
    let odd_operand = g.file_operands.iter().any(|&i| args[i] == "-" || has_glob(&args[i]));
    let distinct: std::collections::HashSet<&String> = patterns.iter().collect();
    if g.perl && !g.fixed && !g.extended && distinct.len() > 1 {
        return Plan::Delegate; // "-P supports only a single pattern"
    }
    let matcher = match matcher(&patterns, g.dialect(), g.ignore_case, g.line_regexp, aligned) {
        Some(m) if !unsafe_flags && !odd_operand => m,
        _ => return prefetch(),
    };
    let mut targets = Vec::new();
    for &i in &g.file_operands {
        walk(listing, cwd, &args[i], &mut targets);
    }
    let mut rest: Vec<String> = args.iter().enumerate().filter(|(i, _)| !g.file_operands.contains(i)).map(|(_, a)| a.clone()).collect();
    if !g.has_double_dash {
        rest.push("--".into());
    }
    Plan::Narrow(Narrowing { targets, patterns, matcher, args: rest, keep_many: false })
}

/// rg's options that take a value (as a separate word, or attached).
const RG_VALUE_SHORT: &str = "gtTmefrdj";
const RG_VALUE_LONG: &[&str] = &[
    "glob", "iglob", "type", "type-not", "type-add", "type-clear", "max-count", "regexp", "file", "replace", "max-depth",
    "max-filesize", "context-separator", "threads", "ignore-file", "pre", "pre-glob",
];
const RG_BOOL: &[&str] = &[
    "i", "--ignore-case", "s", "--case-sensitive", "S", "--smart-case", "F", "--fixed-strings", "w", "--word-regexp", "x",
    "--line-regexp", "v", "--invert-match", "U", "--multiline", "--multiline-dotall", "c", "--count", "--count-matches", "l",
    "--files", "--files-with-matches", "--files-without-match", "--stats", "o", "--only-matching", "q", "--quiet", "N",
    "--no-line-number", "H", "--with-filename", "I", "--no-filename", "0", "--null", "b", "--byte-offset", "--column",
    "--no-column", "--vimgrep", "--json", "--hidden", "--no-ignore", "--no-ignore-dot", "--no-ignore-vcs", "L", "--follow",
    "z", "--search-zip", "a", "--text", "--heading", "--passthru", "--include-zero", "--glob-case-insensitive", "n",
    "--line-number", "u", "--unrestricted",
];
/// Flags after which rg must see every file in scope (or reads none).
const RG_UNSAFE: &[&str] = &[
    "v", "--invert-match", "U", "--multiline", "--multiline-dotall", "--files-without-match", "--stats", "--json", "--passthru",
    "--include-zero", "z", "--search-zip", "--hidden", "--no-ignore", "--no-ignore-dot", "--no-ignore-vcs", "u", "--unrestricted",
    "L", "--follow",
];
/// Names rg's walk always skips.
const RG_COMMON_IGNORED: &[&str] = &[
    "node_modules", ".git", ".svn", ".hg", "__pycache__", ".pytest_cache", ".mypy_cache", "venv", ".venv", ".next", ".nuxt", ".cargo",
];

/// rg's options, as just-bash reads them.
#[derive(Debug, Default)]
struct RgArgs {
    patterns: Vec<String>,
    pattern_files: usize,
    paths: Vec<usize>,
    fixed: bool,
    ignore_case: bool,
    case_sensitive: bool,
    smart_case: bool,
    line_regexp: bool,
    files_only: bool,
    /// Needs every file in scope, or changes which files are in it.
    unsafe_flags: bool,
    invalid: bool,
}

fn parse_rg(args: &[String]) -> RgArgs {
    let mut r = RgArgs { smart_case: true, ..Default::default() };
    let mut positional: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !(a.starts_with('-') && a != "-") {
            if positional.is_none() && r.patterns.is_empty() && r.pattern_files == 0 {
                positional = Some(a.to_string());
            } else {
                r.paths.push(i);
            }
            i += 1;
            continue;
        }
        let next = args.get(i + 1).map(String::as_str);
        if is_context(a) || (a.len() > 2 && a.starts_with("-m") && a[2..].bytes().all(|b| b.is_ascii_digit())) {
            i += 1;
            continue;
        }
        if matches!(a, "-A" | "-B" | "-C") && next.is_some() {
            i += 2;
            continue;
        }
        // Value options: --long=V, -sV, then -s V / --long V.
        let value_name = a
            .strip_prefix("--")
            .filter(|l| RG_VALUE_LONG.contains(l))
            .or_else(|| a.strip_prefix('-').filter(|s| s.len() == 1 && RG_VALUE_SHORT.contains(*s)));
        if let Some((name, v)) = a.strip_prefix("--").and_then(|l| l.split_once('=')).filter(|(n, _)| RG_VALUE_LONG.contains(n)) {
            r.take_value(name, v.to_string());
            i += 1;
            continue;
        }
        if a.len() > 2 && !a.starts_with("--") && RG_VALUE_SHORT.contains(&a[1..2]) {
            r.take_value(&a[1..2], a[2..].to_string());
            i += 1;
            continue;
        }
        if let (Some(name), Some(v)) = (value_name, next) {
            r.take_value(name, v.to_string());
            i += 2;
            continue;
        }
        if a == "--sort" && matches!(next, Some("path" | "none")) {
            i += 2;
            continue;
        }
        if a == "--sort=path" || a == "--sort=none" {
            i += 1;
            continue;
        }
        let flags: Vec<String> = if a.starts_with("--") { vec![a.to_string()] } else { a[1..].chars().map(String::from).collect() };
        for flag in &flags {
            if flag.len() == 1 && RG_VALUE_SHORT.contains(flag.as_str()) {
                // A value option inside combined flags takes the next word.
                match args.get(i + 1) {
                    Some(v) => {
                        r.take_value(flag, v.clone());
                        i += 1;
                    }
                    None => {
                        r.invalid = true;
                        return r;
                    }
                }
                continue;
            }
            if !RG_BOOL.contains(&flag.as_str()) {
                r.invalid = true; // unknown, or -P (rejected by just-bash)
                return r;
            }
            match flag.as_str() {
                "i" | "--ignore-case" => (r.ignore_case, r.case_sensitive, r.smart_case) = (true, false, false),
                "s" | "--case-sensitive" => (r.ignore_case, r.case_sensitive, r.smart_case) = (false, true, false),
                "S" | "--smart-case" => (r.ignore_case, r.case_sensitive, r.smart_case) = (false, false, true),
                "F" | "--fixed-strings" => r.fixed = true,
                "x" | "--line-regexp" => r.line_regexp = true,
                "--files" => r.files_only = true,
                f if RG_UNSAFE.contains(&f) => r.unsafe_flags = true,
                _ => {}
            }
        }
        i += 1;
    }
    if let Some(p) = positional {
        r.patterns.push(p);
    }
    r
}

impl RgArgs {
    fn take_value(&mut self, name: &str, v: String) {
        match name {
            "e" | "regexp" => self.patterns.push(v),
            "f" | "file" => {
                self.pattern_files += 1;
                self.unsafe_flags = true;
            }
            // Pattern files, depth limits, size limits, ignore files and preprocessors all
            // change what is searched in ways the plan does not model.
            "d" | "max-depth" | "max-filesize" | "ignore-file" | "pre" | "pre-glob" => self.unsafe_flags = true,
            _ => {}
        }
    }

    fn ignore_case(&self) -> bool {
        self.ignore_case || (!self.case_sensitive && self.smart_case && !self.patterns.iter().any(|p| p.bytes().any(|b| b.is_ascii_uppercase())))
    }
}

/// The files rg's walk visits from `operand`, spelled as just-bash's rg spells them.
fn rg_walk(listing: &Listing, cwd: &str, operand: &str, out: &mut Vec<Target>) -> bool {
    fn go(listing: &Listing, full: &str, shown: &str, out: &mut Vec<Target>, depth: usize) -> bool {
        if depth >= MAX_GREP_DEPTH {
            return true;
        }
        let Some(TreeNode::Dir(d)) = listing.get(full) else { return true };
        for (name, is_dir) in &d.children {
            if RG_COMMON_IGNORED.contains(&name.as_str()) || name.starts_with('.') {
                continue;
            }
            let child_shown = match shown {
                "." => name.clone(),
                "./" => format!("./{name}"),
                s if s.ends_with('/') => format!("{s}{name}"),
                s => format!("{s}/{name}"),
            };
            let child_full = if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
            if *is_dir {
                go(listing, &child_full, &child_shown, out, depth + 1);
            } else {
                if child_shown.starts_with('-') {
                    return false; // would read as an option
                }
                out.push(Target::File { shown: child_shown, path: child_full });
            }
        }
        true
    }
    let full = path::resolve(cwd, operand);
    match listing.get(&full) {
        None => {
            out.push(Target::Keep(operand.to_string()));
            true
        }
        Some(TreeNode::File(_)) => {
            out.push(Target::File { shown: operand.to_string(), path: full });
            true
        }
        Some(TreeNode::Dir(_)) => go(listing, &full, operand, out, 0),
    }
}

/// Plans an `rg` command. `stdin_empty` matters: with no path, rg searches a non-empty stdin.
pub fn plan_rg(args: &[String], cwd: &str, listing: &Listing, aligned: bool, stdin_empty: bool) -> Plan {
    let r = parse_rg(args);
    if r.invalid || r.files_only || r.patterns.is_empty() || (r.paths.is_empty() && !stdin_empty) {
        return Plan::Delegate;
    }
    let operands: Vec<&str> = if r.paths.is_empty() { vec!["."] } else { r.paths.iter().map(|&i| args[i].as_str()).collect() };
    let read_set = || {
        let mut files: Vec<String> = operands.iter().flat_map(|o| listing.files_under(&path::resolve(cwd, o))).collect();
        files.sort();
        files.dedup();
        Plan::Prefetch(files)
    };
    let ignore_files = listing.any_path(|p| matches!(path::file_name(p), ".gitignore" | ".rgignore" | ".ignore"));
    let dialect = if r.fixed { Dialect::Fixed } else { Dialect::Perl };
    let matcher = match matcher(&r.patterns, dialect, r.ignore_case(), r.line_regexp, aligned) {
        Some(m) if !r.unsafe_flags && !ignore_files && !operands.contains(&"-") => m,
        _ => return read_set(),
    };
    let mut targets = Vec::new();
    for o in &operands {
        if !rg_walk(listing, cwd, o, &mut targets) {
            return read_set();
        }
    }
    let single_explicit_file = operands.len() == 1 && matches!(listing.get(&path::resolve(cwd, operands[0])), Some(TreeNode::File(_)));
    let rest: Vec<String> = args.iter().enumerate().filter(|(i, _)| !r.paths.contains(i)).map(|(_, a)| a.clone()).collect();
    Plan::Narrow(Narrowing {
        targets,
        patterns: r.patterns.clone(),
        matcher,
        args: rest,
        keep_many: !single_explicit_file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::Groups;
    use crate::tree::PathTree;

    fn listing() -> Listing {
        let json = r#"{"a.md":{"isPublic":true},"docs/b.md":{"isPublic":true},"docs/.hidden.md":{"isPublic":true},
            "docs/sub/c.md":{"isPublic":true},"secret.md":{"isPublic":false}}"#;
        PathTree::from_json(json, None).unwrap().view(&Groups::default(), &[]).unwrap()
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn files(p: &Plan) -> Vec<String> {
        match p {
            Plan::Narrow(n) => n
                .targets
                .iter()
                .map(|t| match t {
                    Target::File { shown, .. } => shown.clone(),
                    Target::Keep(k) => format!("keep:{k}"),
                })
                .collect(),
            other => panic!("not narrowed: {other:?}"),
        }
    }

    #[test]
    fn walks_like_just_bash() {
        let l = listing();
        let p = plan_grep("grep", &s(&["-rn", "foo", "/"]), "/", &l, true, None);
        assert_eq!(files(&p), ["//a.md", "//docs/b.md", "//docs/sub/c.md"]);
        let p = plan_grep("grep", &s(&["-r", "foo", "."]), "/docs", &l, true, None);
        assert_eq!(files(&p), ["b.md", "sub/c.md"]);
        let p = plan_grep("grep", &s(&["-r", "foo", "docs/", "nope", "secret.md", "a.md"]), "/", &l, true, None);
        assert_eq!(files(&p), ["docs//b.md", "docs//sub/c.md", "keep:nope", "keep:secret.md", "a.md"]);
        let p = plan_grep("grep", &s(&["-r", "foo", ".."]), "/docs/sub", &l, true, None);
        assert_eq!(files(&p), ["../b.md", "../sub/c.md"]);
    }

    #[test]
    fn narrowed_arguments_keep_everything_but_the_operands() {
        let l = listing();
        match plan_grep("grep", &s(&["-r", "foo", "/docs", "-n"]), "/", &l, true, None) {
            Plan::Narrow(n) => {
                assert_eq!(n.args, s(&["-r", "foo", "-n", "--"]));
                assert_eq!(n.patterns, s(&["foo"]));
            }
            p => panic!("{p:?}"),
        }
        match plan_grep("egrep", &s(&["-r", "-e", "a|b", "--", "/docs"]), "/", &l, true, None) {
            Plan::Narrow(n) => assert_eq!(n.args, s(&["-r", "-e", "a|b", "--"])),
            p => panic!("{p:?}"),
        }
    }

    #[test]
    fn unsafe_searches_prefetch_what_they_read() {
        let l = listing();
        for args in [["-rv", "foo", "/docs"], ["-rc", "foo", "/docs"], ["-rL", "foo", "/docs"]] {
            assert_eq!(plan_grep("grep", &s(&args), "/", &l, true, None), Plan::Prefetch(s(&["/docs/.hidden.md", "/docs/b.md", "/docs/sub/c.md"])));
        }
        assert_eq!(plan_grep("grep", &s(&["foo", "a.md", "docs"]), "/", &l, true, None), Plan::Prefetch(s(&["/a.md"])));
        assert_eq!(
            plan_grep("grep", &s(&["-r", "--exclude-dir=sub", "foo", "/docs"]), "/", &l, true, None),
            Plan::Prefetch(s(&["/docs/.hidden.md", "/docs/b.md", "/docs/sub/c.md"]))
        );
        assert_eq!(plan_grep("grep", &s(&["-rE", "(?=x)", "/a.md"]), "/", &l, true, None), Plan::Prefetch(s(&["/a.md"])));
    }

    #[test]
    fn commands_that_read_no_files_are_left_alone() {
        let l = listing();
        for args in [&["foo"][..], &["-r", "foo"], &["--help"], &["-Z", "foo", "/"], &["-r"], &["-e"]] {
            assert_eq!(plan_grep("grep", &s(args), "/", &l, true, None), Plan::Delegate, "{args:?}");
        }
    }

    #[test]
    fn pattern_files_are_read_first() {
        let l = listing();
        let args = s(&["-r", "-f", "/pats.txt", "/docs"]);
        assert_eq!(plan_grep("grep", &args, "/", &l, true, None), Plan::ReadPatternFiles(s(&["/pats.txt"])));
        match plan_grep("grep", &args, "/", &l, true, Some(&s(&["a\nb\n"]))) {
            Plan::Narrow(n) => assert_eq!(n.patterns, s(&["a", "b"])),
            p => panic!("{p:?}"),
        }
        assert!(matches!(plan_grep("grep", &s(&["-r", "-f", "-", "/docs"]), "/", &l, true, None), Plan::Prefetch(_)));
    }

    #[test]
    fn parse_mirrors_just_bash() {
        let g = parse_grep(&s(&["-rin", "-e", "one", "-e", "two", "-A2", "-m", "3", "x", "--include=*.md", "y"]), 0);
        assert_eq!(g.pattern.as_deref(), Some("two"), "the last -e wins");
        assert!(g.ignore_case && g.recursive);
        assert_eq!(g.file_operands, vec![8, 10]);
        let g = parse_grep(&s(&["-vxfpats", "x"]), 0);
        assert_eq!(g.pattern_files, s(&["pats"]));
        assert!(g.invert && g.line_regexp);
        assert!(parse_grep(&s(&["--color=never", "x", "y"]), 0).invalid);
    }

    #[test]
    fn filters() {
        let m = matcher(&s(&["access_token"]), Dialect::Basic, false, false, true).unwrap();
        assert_eq!(m.filter, json!({"$contains": "access_token"}));
        let m = matcher(&s(&["a\\.b"]), Dialect::Basic, false, false, true).unwrap();
        assert_eq!(m.filter, json!({"$contains": "a.b"}), "an escaped dot is a literal dot");
        let m = matcher(&s(&["a.b"]), Dialect::Basic, false, false, true).unwrap();
        assert_eq!(m.filter, json!({"$regex": "(?m)a.b"}));
        let m = matcher(&s(&["Token"]), Dialect::Fixed, true, false, true).unwrap();
        assert_eq!(m.filter, json!({"$regex": "(?mi)Token"}));
        assert!(m.fine.is_some());
        let m = matcher(&s(&["été"]), Dialect::Fixed, true, false, true).unwrap();
        assert!(m.fine.is_none(), "regex-lite cannot fold non-ASCII case");
        let m = matcher(&s(&["a.c"]), Dialect::Fixed, false, true, true).unwrap();
        assert_eq!(m.filter, json!({"$regex": "(?m)^a\\.c$"}));
        assert!(matcher(&s(&["x", ""]), Dialect::Basic, false, false, true).is_none());
        assert!(matcher(&s(&["a*"]), Dialect::Basic, false, false, false).is_none(), "nothing required, chunks unaligned");
    }

    #[test]
    fn unaligned_filters_catch_cut_literals() {
        let m = matcher(&s(&["foo.*token"]), Dialect::Basic, false, false, false).unwrap();
        assert_eq!(m.filter, json!({"$or": [{"$contains": "token"}, {"$regex": "t(?:o(?:k(?:e)?)?)?\\z"}]}));
    }

    #[test]
    fn long_patterns_fall_back_to_literals() {
        let long = format!("{}.*end", "x".repeat(300));
        let m = matcher(&[long], Dialect::Basic, false, false, true).unwrap();
        assert_eq!(m.filter, json!({"$and": [{"$contains": "x".repeat(256)}, {"$contains": "end"}]}));
        let many: Vec<String> = (0..12).map(|i| format!("w{i}")).collect();
        let m = matcher(&many, Dialect::Fixed, false, false, true).unwrap();
        assert_eq!(count_leaves(&m.filter), 1, "{}", m.filter);
    }

    #[test]
    fn rg_walks_like_just_bash() {
        let l = listing();
        let p = plan_rg(&s(&["-n", "foo", "/"]), "/", &l, true, true);
        assert_eq!(files(&p), ["/a.md", "/docs/b.md", "/docs/sub/c.md"]);
        let p = plan_rg(&s(&["foo"]), "/docs", &l, true, true);
        assert_eq!(files(&p), ["b.md", "sub/c.md"]);
        let p = plan_rg(&s(&["foo", "docs", "nope", "a.md"]), "/", &l, true, true);
        assert_eq!(files(&p), ["docs/b.md", "docs/sub/c.md", "keep:nope", "a.md"]);
        match plan_rg(&s(&["-e", "x", "-g", "*.md", "docs", "-n"]), "/", &l, true, true) {
            Plan::Narrow(n) => {
                assert_eq!(n.args, s(&["-e", "x", "-g", "*.md", "-n"]));
                assert!(n.keep_many);
            }
            p => panic!("{p:?}"),
        }
        match plan_rg(&s(&["x", "a.md"]), "/", &l, true, true) {
            Plan::Narrow(n) => assert!(!n.keep_many),
            p => panic!("{p:?}"),
        }
    }

    #[test]
    fn rg_smart_case_and_fallbacks() {
        assert!(parse_rg(&s(&["foo"])).ignore_case());
        assert!(!parse_rg(&s(&["Foo"])).ignore_case());
        assert!(!parse_rg(&s(&["-i", "-s", "foo"])).ignore_case());
        assert!(parse_rg(&s(&["-s", "-i", "Foo"])).ignore_case());
        let l = listing();
        assert_eq!(plan_rg(&s(&["-v", "foo", "docs/sub"]), "/", &l, true, true), Plan::Prefetch(s(&["/docs/sub/c.md"])));
        assert_eq!(plan_rg(&s(&["--hidden", "foo"]), "/docs", &l, true, true), Plan::Prefetch(s(&["/docs/.hidden.md", "/docs/b.md", "/docs/sub/c.md"])));
        assert_eq!(plan_rg(&s(&["foo"]), "/", &l, true, false), Plan::Delegate, "rg reads a non-empty stdin");
        assert_eq!(plan_rg(&s(&["--files"]), "/", &l, true, true), Plan::Delegate);
        assert_eq!(plan_rg(&s(&["-P", "foo", "/"]), "/", &l, true, true), Plan::Delegate);
        assert_eq!(parse_rg(&s(&["-e", "a", "b", "c"])).paths, vec![2, 3], "after -e, every word is a path");
        assert_eq!(parse_rg(&s(&["-tmd", "x", "y"])).paths, vec![2]);
    }
}
