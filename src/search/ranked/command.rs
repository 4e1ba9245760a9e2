//! The `search` command: its command line, its help, and what it prints.
//!
//! `search [-n K] [--path DIR] [--lang LANG] [--version V] [-l] [--json] QUERY…` prints the K best pages, one block
//! each: `PATH:START-END` (the lines of the best chunk, ready for `sed -n 'START,ENDp'
//! PATH`), `title: TITLE` (the page's, when it states one) and the chunk's most telling
//! line with its number. `-l` prints paths only;
//! `--json` one object per line. Exit codes follow grep: 0 when something was found, 1
//! when nothing was, 2 for a usage error or a failure, which is always said on stderr.

use super::{Hit, Mode, Query};
use crate::base::path;
use crate::commands::Printed;

const DEFAULT_K: usize = 10;
/// The most pages one search shows.
const MAX_K: usize = 100;

pub(crate) const HELP: &str = "\
Usage: search [OPTION]... QUERY...
Rank the pages that best answer QUERY (words, a question, an identifier) and print,
best first, each page's path with the lines of its best-matching part, the page's
title and that part's most telling line. Read a hit with: sed -n 'START,ENDp' PATH
When no page answers QUERY (none holds enough of its words or comes near its
meaning), print nothing and say so.

Ranking combines the question's words (exact identifiers, error codes and option names
rank first) with its meaning, when the session has an embedding function. Use grep for
every occurrence of an exact string; use search when you do not know the exact words.
A question in another language than English ranks the pages in its language first (a
page's language is its first directory when that is a language code, as in /fr/ or
/zh-cn/, else English).

Options:
  -n K          show the K best pages (default 10, at most 100)
  --path DIR    search only pages under DIR (relative to the working directory)
  --lang LANG   search only pages in language LANG (a code: en, fr, ja, zh-cn…)
  --version V   search only the pages of version V of the docs and those of none;
                when none answers, name the pages of other versions that do
  -l            print paths only
  --json        print one JSON object per page: path, startLine, endLine, score,
                snippet, title (and version, for a page of one)
  --help        show this help

Exit status: 0 if a page was found, 1 if none, 2 for a usage error or a failure.
";

/// How hits are printed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Format {
    Blocks,
    Paths,
    Json,
}

/// A `search` command line as a host splits it across mounts: whether it asks for its
/// help or is a usage error, how many pages it shows, and the directory it searches
/// (resolved from the working directory).
#[derive(Debug, serde::Serialize)]
pub(crate) struct SearchLine {
    pub help: bool,
    pub usage: bool,
    pub k: usize,
    pub dir: Option<String>,
    /// The version searched (`--version`), when it names one.
    pub version: Option<String>,
}

/// Reads a `search` command line run in `cwd` (see [`SearchLine`]); with no `-n`, `k` is
/// the command's default.
pub(crate) fn search_line(args: &[String], cwd: &str) -> SearchLine {
    match parse(args, cwd) {
        Ok(Parsed::Help) => SearchLine { help: true, usage: false, k: DEFAULT_K, dir: None, version: None },
        Ok(Parsed::Search { query, .. }) => {
            SearchLine { help: false, usage: false, k: query.k, dir: Some(query.dir), version: query.version }
        }
        Err(_) => SearchLine { help: false, usage: true, k: DEFAULT_K, dir: None, version: None },
    }
}

/// A `search` command line, read.
#[derive(Debug, Clone)]
pub(crate) enum Parsed {
    Help,
    Search { query: Query, format: Format },
}

fn usage(message: &str) -> Printed {
    Printed {
        stdout: String::new(),
        stderr: format!("search: {message}\nTry 'search --help'.\n"),
        exit_code: 2,
        ..Default::default()
    }
}

fn count(value: &str) -> Result<usize, Printed> {
    match value.parse::<usize>() {
        Ok(k) if (1..=MAX_K).contains(&k) => Ok(k),
        _ => Err(usage(&format!("invalid number of pages: '{value}' (1 to {MAX_K})"))),
    }
}

/// Reads the command line; a usage error is the command's answer.
pub(crate) fn parse(args: &[String], cwd: &str) -> Result<Parsed, Printed> {
    let (mut k, mut dir, mut format, mut words) = (DEFAULT_K, None, Format::Blocks, Vec::new());
    let (mut lang, mut version) = (None, None);
    let mut rest = args.iter();
    let mut options = true;
    while let Some(a) = rest.next() {
        let mut value =
            |name: &str| rest.next().cloned().ok_or_else(|| usage(&format!("option '{name}' needs a value")));
        match a.as_str() {
            _ if !options || !a.starts_with('-') || a == "-" => words.push(a.clone()),
            "--" => options = false,
            "--help" => return Ok(Parsed::Help),
            "-l" => format = Format::Paths,
            "--json" => format = Format::Json,
            "-n" => k = count(&value("-n")?)?,
            "--path" => dir = Some(value("--path")?),
            "--lang" => lang = Some(language(&value("--lang")?).map_err(|why| usage(&why))?),
            _ if a.starts_with("--lang=") => lang = Some(language(&a["--lang=".len()..]).map_err(|why| usage(&why))?),
            _ if a.starts_with("--path=") => dir = Some(a["--path=".len()..].to_string()),
            "--version" => version = Some(value("--version")?),
            _ if a.starts_with("--version=") => version = Some(a["--version=".len()..].to_string()),
            _ if a.starts_with("-n") => k = count(&a[2..])?,
            _ => return Err(usage(&format!("unknown option '{a}'"))),
        }
    }
    if words.iter().all(|w| w.trim().is_empty()) {
        return Err(usage("no query given"));
    }
    let dir = path::resolve(cwd, dir.as_deref().unwrap_or("."));
    let query = Query { text: words.join(" "), k, dir, mode: Mode::Hybrid, lang, version };
    Ok(Parsed::Search { query, format })
}

/// A language tag as `--lang` and the `lang` option take it, or why not.
fn language(tag: &str) -> Result<String, String> {
    super::lang::parse(tag)
        .map(str::to_string)
        .ok_or_else(|| format!("unknown language '{tag}' (a code such as en, fr, ja, zh-cn)"))
}

/// What the command says on stderr when no page answers the query (exit 1): none holds its
/// words or meaning, or none enough to answer it (see [`super::floor`]).
pub(crate) const NO_ANSWER: &str = "search: no page answers the query";

/// What the command prints for its hits, each printed as [`blocks`] gives it.
pub(crate) fn print(blocks: &[String]) -> Printed {
    if blocks.is_empty() {
        return Printed { stdout: String::new(), stderr: format!("{NO_ANSWER}\n"), exit_code: 1, ..Default::default() };
    }
    Printed { stdout: blocks.concat(), stderr: String::new(), exit_code: 0, ..Default::default() }
}

/// What the command prints for a search of `version` (when it names one) that found
/// `blocks`: as [`print()`] does, but a search of one version that found nothing names the
/// pages of other versions that answer, `elsewhere` (see [`super::elsewhere`]).
pub(crate) fn print_found(blocks: &[String], version: Option<&str>, elsewhere: &[Hit]) -> Printed {
    let mut printed = print(blocks);
    if let (true, Some(v), false) = (blocks.is_empty(), version, elsewhere.is_empty()) {
        printed.stderr = super::elsewhere::said(v, elsewhere);
    }
    printed
}

/// Each hit as the command prints it, best first: a host that searches several
/// collections interleaves these rather than reading the output back.
pub(crate) fn blocks(hits: &[Hit], format: Format) -> Vec<String> {
    let block = |h: &Hit| match format {
        Format::Paths => format!("{}\n", h.path),
        Format::Json => format!("{}\n", json_line(h)),
        Format::Blocks => {
            let mut out = match h.lines {
                Some((start, end)) => format!("{}:{start}-{end}\n", h.path),
                None => format!("{}\n", h.path),
            };
            if let Some(title) = &h.title {
                out.push_str(&format!("  title: {}\n", one_line(title)));
            }
            match &h.snippet {
                Some((Some(line), text)) => out.push_str(&format!("  {line}: {text}\n")),
                Some((None, text)) => out.push_str(&format!("  {text}\n")),
                None => {}
            }
            out
        }
    };
    hits.iter().map(block).collect()
}

/// `text` on one line: a title cannot break the block it is shown in.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A score to six decimals, as `fs.search()` returns it.
pub(crate) fn rounded(score: f64) -> f64 {
    (score * 1e6).round() / 1e6
}

/// A hit as one line of JSON, as `--json` prints it. Written by hand: printing a float
/// through serde_json would bring a float formatter into the module for this one number.
fn json_line(h: &Hit) -> String {
    let text = |s: &str| serde_json::Value::from(s).to_string();
    let opt = |n: Option<u64>| n.map_or("null".to_string(), |n| n.to_string());
    let micro = (h.score.max(0.0) * 1e6).round() as u64;
    let score = format!("{}.{:06}", micro / 1_000_000, micro % 1_000_000);
    let score = score.trim_end_matches('0').trim_end_matches('.');
    let version = h.version.as_deref().map_or(String::new(), |v| format!(",\"version\":{}", text(v)));
    format!(
        "{{\"path\":{},\"startLine\":{},\"endLine\":{},\"score\":{},\"snippet\":{},\"title\":{}{version}}}",
        text(&h.path),
        opt(h.lines.map(|l| l.0)),
        opt(h.lines.map(|l| l.1)),
        if score.is_empty() { "0" } else { score },
        h.snippet.as_ref().map_or("null".to_string(), |s| text(&s.1)),
        h.title.as_deref().map_or("null".to_string(), text),
    )
}

/// The options of `fs.search(text, { k, cwd, path, mode, lang, version })`, as given.
#[derive(Debug, Default)]
pub(crate) struct Options {
    pub k: Option<f64>,
    pub cwd: Option<String>,
    pub path: Option<String>,
    pub mode: Option<String>,
    pub lang: Option<String>,
    pub version: Option<String>,
}

/// The query of `fs.search(text, options)`: `k` a whole number from 1 to 100 (default
/// 10), `path` resolved against `cwd` (default `/`), `mode` one of `"hybrid"` (the
/// default), `"lexical"` and `"dense"`, `lang` a language code, `version` a version of the
/// docs (checked when the search runs); or why not.
pub(crate) fn query_of(text: String, o: Options) -> Result<Query, String> {
    let Options { k, cwd, path, mode, lang, version } = o;
    let k = match k {
        None => 10,
        Some(k) if k.fract() == 0.0 && (1.0..=100.0).contains(&k) => k as usize,
        Some(_) => return Err("option k must be a whole number from 1 to 100".into()),
    };
    let cwd = path::normalize(&cwd.unwrap_or_else(|| "/".into()));
    let dir = path::resolve(&cwd, &path.unwrap_or_else(|| ".".into()));
    let mode = match mode.as_deref() {
        None | Some("hybrid") => Mode::Hybrid,
        Some("lexical") => Mode::Lexical,
        Some("dense") => Mode::Dense,
        Some(_) => return Err("option mode must be \"hybrid\", \"lexical\" or \"dense\"".into()),
    };
    let lang = lang.map(|l| language(&l).map_err(|why| format!("option lang: {why}"))).transpose()?;
    Ok(Query { text, k, dir, mode, lang, version })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_its_options_and_joins_the_query() {
        let Ok(Parsed::Search { query, format }) =
            parse(&args(&["-n", "3", "--path", "api", "rotate", "keys", "-l"]), "/docs")
        else {
            panic!()
        };
        assert_eq!(
            (query.text.as_str(), query.k, query.dir.as_str(), format),
            ("rotate keys", 3, "/docs/api", Format::Paths)
        );
        let Ok(Parsed::Search { query, format }) = parse(&args(&["--json", "-n5", "--path=/", "--", "-x"]), "/") else {
            panic!()
        };
        assert_eq!((query.text.as_str(), query.k, query.dir.as_str(), format), ("-x", 5, "/", Format::Json));
        assert!(matches!(parse(&args(&["--help"]), "/"), Ok(Parsed::Help)));
        let Ok(Parsed::Search { query, .. }) = parse(&args(&["--lang", "zh-CN", "配置"]), "/") else { panic!() };
        assert_eq!(query.lang.as_deref(), Some("zh"));
        let Ok(Parsed::Search { query, .. }) = parse(&args(&["--lang=fr", "x"]), "/") else { panic!() };
        assert_eq!(query.lang.as_deref(), Some("fr"));
        let q = query_of("x".into(), Options { lang: Some("ja".into()), ..Options::default() }).unwrap();
        assert_eq!(q.lang.as_deref(), Some("ja"));
        assert!(query_of("x".into(), Options { lang: Some("xx".into()), ..Options::default() })
            .unwrap_err()
            .contains("unknown language"));
    }

    #[test]
    fn usage_errors_exit_2_and_say_why() {
        for (a, said) in [
            (&["-n", "0", "x"][..], "invalid number"),
            (&["-n"][..], "needs a value"),
            (&["--nope", "x"][..], "unknown option"),
            (&[][..], "no query"),
            (&["  "][..], "no query"),
            (&["--lang", "elvish", "x"][..], "unknown language"),
        ] {
            let Err(p) = parse(&args(a), "/") else { panic!("{a:?}") };
            assert_eq!(p.exit_code, 2);
            assert!(p.stderr.contains(said), "{a:?}: {}", p.stderr);
        }
    }

    #[test]
    fn prints_blocks_paths_and_json() {
        let hits = [
            Hit {
                path: "/a.md".into(),
                lines: Some((3, 9)),
                score: 0.5,
                snippet: Some((Some(4), "key".into())),
                title: Some("Keys\n and  more".into()),
                version: None,
            },
            Hit {
                path: "/b.md".into(),
                lines: None,
                score: 0.25,
                snippet: Some((None, "x".into())),
                title: None,
                version: None,
            },
        ];
        assert_eq!(
            print(&blocks(&hits, Format::Blocks)).stdout,
            "/a.md:3-9\n  title: Keys and more\n  4: key\n/b.md\n  x\n",
            "a title on one line of its own, between the lines and the snippet"
        );
        assert_eq!(print(&blocks(&hits, Format::Paths)).stdout, "/a.md\n/b.md\n");
        let first = print(&blocks(&hits, Format::Json)).stdout.lines().next().unwrap().to_string();
        let v: serde_json::Value = serde_json::from_str(&first).unwrap();
        assert_eq!(
            v,
            json!({"path": "/a.md", "startLine": 3, "endLine": 9, "score": 0.5, "snippet": "key", "title": "Keys\n and  more"})
        );
        let second: serde_json::Value =
            serde_json::from_str(print(&blocks(&hits, Format::Json)).stdout.lines().nth(1).unwrap()).unwrap();
        assert_eq!(
            second,
            json!({"path": "/b.md", "startLine": null, "endLine": null, "score": 0.25, "snippet": "x", "title": null})
        );
        let tiny = Hit { score: 0.0000004, snippet: None, ..hits[1].clone() };
        assert!(json_line(&tiny).contains("\"score\":0,"), "{}", json_line(&tiny));
        let none = print(&blocks(&[], Format::Blocks));
        assert_eq!(
            (none.stdout.as_str(), none.stderr.as_str(), none.exit_code),
            ("", "search: no page answers the query\n", 1)
        );
        let v2 = |path: &str| Hit { path: path.into(), version: Some("v2".into()), ..hits[1].clone() };
        let other = print_found(&[], Some("v1"), &[v2("/v2/a.md"), v2("/v2/b.md")]);
        assert_eq!(
            (other.stdout.as_str(), other.stderr.as_str(), other.exit_code),
            ("", "search: no page of version v1 answers the query; pages of other versions do: /v2/a.md (version v2), /v2/b.md (version v2)\n", 1),
            "nothing on stdout and exit 1 as for no page, but the other versions' pages named"
        );
        assert_eq!(print_found(&[], Some("v1"), &[]).stderr, "search: no page answers the query\n");
        assert_eq!(print_found(&blocks(&hits, Format::Paths), Some("v1"), &[v2("/v2/a.md")]).stderr, "");
    }
}
