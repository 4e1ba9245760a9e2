//! The regex a native search matches lines with, as GNU grep or ripgrep matches them.
//!
//! [`Engine::new`] spells the command's patterns as one RE2-subset pattern with the
//! tool's meaning — GNU grep's BRE and ERE read by [`super::gnu`], `-P` and rg's patterns
//! as Perl syntax, fixed strings escaped, several patterns one alternation, `-w` as
//! "not preceded and not followed by a word character" (both tools' definition), `-x` as
//! `^(?:…)$` — and translates it into regex-lite syntax ([`super::lite`]), refusing what
//! the two would read differently ([`Unsupported`]: the command then runs in just-bash).
//!
//! regex-lite is leftmost-first, like ripgrep; GNU grep's `-o` prints leftmost-longest
//! matches, so for GNU grep `-o` is accepted only for patterns where the two agree
//! ([`super::longest`]). regex-lite's classes are ASCII's: a line beyond ASCII is
//! matched through a [`Proxy`] when the pattern's classes would tell its characters apart
//! (see [`super::unicode`]), and a text the engine cannot answer for exactly is said to
//! be so by [`Engine::exact_on`].
//!
//! Like ripgrep, lines are first tested for the literals every match must contain
//! ([`Node::required`]), which is most of the speed: regex-lite has no literal
//! optimisations of its own, and a pattern that is one literal needs no regex.

use super::finders::{any_hit_line, Finders};
use super::gnu;
use super::lite::{ascii_negations, translate};
use super::longest;
use super::perl::{self, Backtracker, Refusal};
use super::rewrite::{to_re2, Dialect};
use super::syntax::{parse, Node};
use super::unicode::{Classes, Named, Proxy};
use crate::commands::Unsupported;
use std::cell::Cell;
use std::rc::Rc;

/// Whose matching a search follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tool {
    /// GNU grep 3.8 (grep, egrep, fgrep).
    Gnu,
    /// ripgrep 15.
    Rg,
}

/// How the engine treats a line with characters beyond ASCII.
#[derive(Debug, Clone)]
enum Beyond {
    /// As it is: the pattern uses no class that tells such characters apart.
    AsIs,
    /// Through stand-ins (see [`Proxy`]).
    Proxy(Proxy),
    /// Not exactly: a class whose members beyond ASCII the locale decides, or a pattern
    /// with characters beyond ASCII beside classes.
    Inexact,
}

/// What matches a line: regex-lite over the subset, or for grep `-P` patterns beyond it
/// the backtracking engine (see [`perl`]).
#[derive(Clone)]
enum Re {
    Lite(regex_lite::Regex),
    Perl(Rc<dyn Backtracker>),
}

impl std::fmt::Debug for Re {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Re::Lite(re) => write!(f, "Lite({:?})", re.as_str()),
            Re::Perl(_) => f.write_str("Perl"),
        }
    }
}

/// A compiled line matcher, exact with respect to the real tool's.
#[derive(Debug, Clone)]
pub(crate) struct Engine {
    re: Re,
    /// The backtracking engine gave up on a line (see [`Engine::exceeded`]).
    exceeded: Cell<bool>,
    ignore_case: bool,
    /// Whether the pattern can match an empty span (`-o` and `-co` then depend on how
    /// the tool steps over it, which is not modelled).
    pub nullable: bool,
    /// Whether the matches regex-lite finds are the tool's (`-o`): for GNU grep, whether
    /// the leftmost-first match is also the longest.
    pub spans_exact: bool,
    /// One of these is in every matching line (ASCII-lowercased under `-i`); none: no
    /// such literals.
    needles: Vec<String>,
    /// The needles, found in a line as it is (in any case under `-i`).
    finders: Finders,
    /// The pattern is this one literal: no regex is needed.
    literal: bool,
    /// The pattern is these literals, one of which any matching line holds: a line
    /// holding one matches without the regex (its matches are still the regex's).
    alternatives: bool,
    beyond: Beyond,
    /// Characters beyond ASCII the tool folds onto an ASCII letter under `-i`.
    folds: &'static [char],
}

/// What the command's flags say about its patterns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flags {
    pub dialect: Dialect,
    pub ignore_case: bool,
    pub word: bool,
    pub line: bool,
    pub tool: Tool,
}

impl Engine {
    pub(crate) fn new(patterns: &[String], f: Flags) -> Result<Engine, Unsupported> {
        Engine::build(patterns, f, false)
    }

    /// An engine for grep `-z`, whose lines end in NUL and may hold newlines: `.` and
    /// every class match a newline too, and `^`/`$` only at a line's ends, as GNU grep's do.
    pub(crate) fn for_null_data(patterns: &[String], f: Flags) -> Result<Engine, Unsupported> {
        Engine::build(patterns, f, true)
    }

    /// grep `-P`'s engine for a pattern beyond the subset (see [`perl`]): `None` when no
    /// backtracking engine is installed, `Err` with PCRE's words for a pattern PCRE
    /// rejects too.
    pub(crate) fn backtracking(pattern: &str, f: Flags) -> Option<Result<Engine, Refusal>> {
        let compiler = perl::installed()?;
        let o = perl::Options { ignore_case: f.ignore_case, word: f.word, line: f.line };
        let re = match compiler.compile(pattern, o) {
            Ok(re) => re,
            Err(refused) => return Some(Err(refused)),
        };
        // The literals of the widened pattern are in every matching line; under -i only
        // when ASCII, whose case the finders fold as PCRE does.
        let tree =
            perl::widen(pattern).and_then(|w| to_re2(&w, Dialect::Perl).ok().flatten()).and_then(|r| parse(&r).ok());
        let needles: Vec<String> = match tree {
            Some(t) if !f.ignore_case || pattern.is_ascii() => {
                t.needles().iter().map(|s| if f.ignore_case { s.to_ascii_lowercase() } else { s.clone() }).collect()
            }
            _ => Vec::new(),
        };
        let finders = Finders::new(&needles, f.ignore_case);
        Some(Ok(Engine {
            re: Re::Perl(re),
            exceeded: Cell::new(false),
            ignore_case: f.ignore_case,
            // Empty matches are stepped over as GNU grep steps over them (see `matches`).
            nullable: false,
            spans_exact: true,
            needles,
            finders,
            literal: false,
            alternatives: false,
            beyond: Beyond::AsIs,
            folds: &[],
        }))
    }

    /// Whether the backtracking engine gave up on a line since the last call: GNU grep
    /// then says the file "exceeded PCRE's backtracking limit" and exits with 2.
    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded.replace(false)
    }

    /// The first match of `re` in `line` from `start`; a limit reached is no match, noted.
    fn perl_find(&self, re: &dyn Backtracker, line: &str, start: usize) -> Option<std::ops::Range<usize>> {
        match re.find_at(line, start) {
            Ok(found) => found,
            Err(perl::Exceeded) => {
                self.exceeded.set(true);
                None
            }
        }
    }

    /// The non-empty matches of a line as GNU grep's `-o` finds them: after an empty match
    /// it moves on one character, after a match from its end.
    fn perl_matches(&self, re: &dyn Backtracker, line: &str) -> Vec<std::ops::Range<usize>> {
        let mut found = Vec::new();
        let mut at = 0;
        while at < line.len() {
            let Some(m) = self.perl_find(re, line, at) else { break };
            if m.start >= line.len() {
                break;
            }
            if m.is_empty() {
                at = m.start + line[m.start..].chars().next().map_or(1, char::len_utf8);
            } else {
                at = m.end;
                found.push(m);
            }
        }
        found
    }

    fn build(patterns: &[String], f: Flags, null_data: bool) -> Result<Engine, Unsupported> {
        #[cfg(test)]
        crate::search::tally::bump(|t| t.engines += 1);
        if patterns.is_empty() {
            return Err(Unsupported::new("no pattern"));
        }
        if f.ignore_case && !patterns.iter().all(|p| p.is_ascii()) {
            return Err(Unsupported::new("case folding beyond ASCII"));
        }
        let (mut re2, locale_class) = combined(patterns, f.dialect, f.tool)?;
        // GNU grep tries an empty match under -w at every byte, inside a character beyond
        // ASCII too: a line with one is not answered exactly.
        let empty_word = f.word && f.tool == Tool::Gnu && nullable(&parse(&re2)?);
        if f.word {
            re2 = format!("\\b{{start-half}}(?:{re2})\\b{{end-half}}");
        }
        if f.line {
            re2 = format!("^(?:{re2})$");
        }
        let tree = parse(&re2)?;
        let mut lite = String::from(match (f.ignore_case, null_data) {
            (true, true) => "(?is)",
            (true, false) => "(?i)",
            (false, true) => "(?s)",
            (false, false) => "",
        });
        translate(&re2.chars().collect::<Vec<_>>(), &mut lite)?;
        if (f.tool, f.dialect) == (Tool::Gnu, Dialect::Perl) {
            lite = ascii_negations(&lite);
        }
        let re = regex_lite::Regex::new(&lite).map_err(|e| Unsupported::new(format!("regex-lite: {e}")))?;
        let classes = match (f.tool, f.dialect) {
            (Tool::Rg, _) => Classes::Rg,
            (Tool::Gnu, Dialect::Perl) => Classes::Ascii,
            (Tool::Gnu, _) => Classes::Gnu,
        };
        let scanned = scan(&lite, f.ignore_case);
        let beyond = if locale_class || empty_word {
            Beyond::Inexact
        } else if classes == Classes::Ascii || !scanned.classes {
            Beyond::AsIs
        } else if scanned.beyond_ascii {
            Beyond::Inexact
        } else {
            Beyond::Proxy(Proxy::new(classes, scanned.named))
        };
        let folds: &[char] = match classes {
            Classes::Gnu => &['\u{17F}', '\u{131}'],
            _ => &['\u{17F}', '\u{212A}'],
        };
        let fold = |s: &String| if f.ignore_case { s.to_ascii_lowercase() } else { s.clone() };
        let exact = tree.alternatives();
        let alternatives = exact.is_some();
        let needles: Vec<String> = exact.unwrap_or_else(|| tree.needles()).iter().map(fold).collect();
        let literal = needles.len() == 1 && tree.is_literal();
        let finders = Finders::new(&needles, f.ignore_case);
        let spans_exact = f.tool == Tool::Rg || f.dialect == Dialect::Perl || longest::agrees(&tree, f.ignore_case);
        Ok(Engine {
            re: Re::Lite(re),
            exceeded: Cell::new(false),
            ignore_case: f.ignore_case,
            nullable: nullable(&tree),
            spans_exact,
            needles,
            finders,
            literal,
            alternatives,
            beyond,
            folds,
        })
    }

    /// Whether this engine's answers over `text` are the tool's: not when the tool
    /// folds a character of it onto an ASCII letter under `-i` (regex-lite does not), nor
    /// when a character beyond ASCII cannot be matched exactly (see [`Beyond`]).
    pub(crate) fn exact_on(&self, text: &str) -> bool {
        if self.ignore_case && holds_any(text, self.folds) {
            return false;
        }
        match &self.beyond {
            _ if text.is_ascii() => true,
            Beyond::AsIs => true,
            Beyond::Inexact => false,
            Beyond::Proxy(p) => p.covers(text),
        }
    }

    /// Whether a text may hold a matching line at all.
    pub(crate) fn may_match(&self, text: &str) -> bool {
        self.needles.is_empty() || self.finders.any_in(text.as_bytes())
    }

    #[cfg(test)]
    pub(crate) fn is_match(&self, line: &str) -> bool {
        if !self.needles.is_empty() {
            if !self.finders.any_in(line.as_bytes()) {
                return false;
            }
            if self.alternatives {
                return true;
            }
        }
        self.confirm(line)
    }

    /// Which lines may match, found with one search of the whole text per literal
    /// rather than one per line: `None` when every line may. `text` is the file, `starts`
    /// where each line begins in it.
    pub(crate) fn candidates(&self, text: &str, starts: &[usize]) -> Option<Vec<bool>> {
        if self.needles.is_empty() {
            return None;
        }
        let mut hit = vec![false; starts.len()];
        for found in self.finders.each_starts(text.as_bytes()) {
            let mut line = 0;
            for at in found {
                while line + 1 < starts.len() && starts[line + 1] <= at {
                    line += 1;
                }
                hit[line] = true;
            }
        }
        Some(hit)
    }

    /// Whether any line of `content` matches, stopping at the first that does: only the
    /// lines holding a literal hit are found and tested, the page is never split. `None`
    /// when there are no literals to look for (the caller then tests line by line).
    pub(crate) fn any_line(&self, content: &str) -> Option<bool> {
        if self.needles.is_empty() {
            return None;
        }
        Some(any_hit_line(content.as_bytes(), &self.finders, |line| self.confirm(&content[line])))
    }

    /// The proxy a line is matched through, when it needs one.
    fn proxy_for(&self, line: &str) -> Option<&Proxy> {
        match &self.beyond {
            Beyond::Proxy(p) if !line.is_ascii() => Some(p),
            _ => None,
        }
    }

    /// Whether a candidate line (see [`Engine::candidates`]) matches.
    pub(crate) fn confirm(&self, line: &str) -> bool {
        if self.alternatives {
            return true;
        }
        let re = match &self.re {
            Re::Lite(re) => re,
            Re::Perl(re) => return self.perl_find(re.as_ref(), line, 0).is_some(),
        };
        match self.proxy_for(line).and_then(|p| p.map(line)) {
            Some(mapped) => re.is_match(&mapped.text),
            None => re.is_match(line),
        }
    }

    /// Each match of `line`, left to right as [`Engine::matches`] finds them, as its
    /// groups' spans in the line (group 0 the match; `None`: the group took no part).
    pub(crate) fn captures(&self, line: &str) -> Vec<Vec<Option<std::ops::Range<usize>>>> {
        let re = match &self.re {
            Re::Lite(re) => re,
            Re::Perl(re) => return self.perl_matches(re.as_ref(), line).into_iter().map(|m| vec![Some(m)]).collect(),
        };
        let mapped = self.proxy_for(line).and_then(|p| p.map(line));
        let text = mapped.as_ref().map_or(line, |m| m.text.as_str());
        let span = |r: std::ops::Range<usize>| mapped.as_ref().map_or(r.clone(), |m| m.span(r));
        let groups = |c: regex_lite::Captures| (0..c.len()).map(|g| c.get(g).map(|m| span(m.range()))).collect();
        re.captures_iter(text).map(groups).collect()
    }

    /// The names of the pattern's groups, by number (`None` for a group with no name).
    pub(crate) fn group_names(&self) -> Vec<Option<&str>> {
        match &self.re {
            Re::Lite(re) => re.capture_names().collect(),
            Re::Perl(_) => vec![None],
        }
    }

    /// The matches of a line, left to right, as the tool finds them (non-empty patterns
    /// only: see [`Engine::nullable`]).
    pub(crate) fn matches<'a>(&'a self, line: &'a str) -> Box<dyn Iterator<Item = &'a str> + 'a> {
        if self.literal {
            return Box::new(self.finders.first_spans(line.as_bytes()).map(move |span| &line[span]));
        }
        let re = match &self.re {
            Re::Lite(re) => re,
            Re::Perl(re) => return Box::new(self.perl_matches(re.as_ref(), line).into_iter().map(move |m| &line[m])),
        };
        if let Some(mapped) = self.proxy_for(line).and_then(|p| p.map(line)) {
            let spans: Vec<&str> = re.find_iter(&mapped.text).map(|m| &line[mapped.span(m.range())]).collect();
            return Box::new(spans.into_iter());
        }
        Box::new(re.find_iter(line).map(|m| m.as_str()))
    }
}

/// What a regex-lite pattern names and uses (see [`Named`]).
struct Scanned {
    named: Named,
    /// `\w`, `\s`, `\d`, `\b` or one of their kin.
    classes: bool,
    /// A character beyond ASCII, as a literal or in a class.
    beyond_ascii: bool,
}

/// Reads a regex-lite pattern as [`translate`] writes it.
fn scan(lite: &str, ignore_case: bool) -> Scanned {
    let mut s = Scanned { named: Named::default(), classes: false, beyond_ascii: false };
    let p: Vec<char> = lite.strip_prefix("(?i)").unwrap_or(lite).chars().collect();
    let mut i = 0;
    let mut in_class = false;
    // The last member read in a class, for a range.
    let mut last: Option<char> = None;
    while i < p.len() {
        let c = p[i];
        i += 1;
        let member = match c {
            '\\' => {
                let e = p.get(i).copied().unwrap_or('\\');
                i += 1;
                match e {
                    'w' | 'W' | 's' | 'S' | 'd' | 'D' | 'b' | 'B' => {
                        s.classes = true;
                        if e == 'b' && p.get(i) == Some(&'{') {
                            i = p[i..].iter().position(|&c| c == '}').map_or(p.len(), |e| i + e + 1);
                        }
                        None
                    }
                    'A' | 'z' => None,
                    't' => Some('\t'),
                    'n' => Some('\n'),
                    'r' => Some('\r'),
                    'x' => {
                        let hex: String = p[i..(i + 2).min(p.len())].iter().collect();
                        i += 2;
                        u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                    }
                    e => Some(e),
                }
            }
            '[' if !in_class => {
                in_class = true;
                last = None;
                if p.get(i) == Some(&'^') {
                    i += 1;
                }
                None
            }
            ']' if in_class => {
                in_class = false;
                None
            }
            '-' if in_class && last.is_some() && p.get(i) != Some(&']') => {
                // A range: its end is the next member.
                let lo = last.take().expect("checked");
                let hi = if p.get(i) == Some(&'\\') {
                    i += 2;
                    p.get(i - 1).copied().unwrap_or(lo)
                } else {
                    i += 1;
                    p.get(i - 1).copied().unwrap_or(lo)
                };
                s.beyond_ascii |= !hi.is_ascii();
                s.named.add_range(lo, hi, ignore_case);
                continue;
            }
            '{' if !in_class => {
                i = p[i..].iter().position(|&c| c == '}').map_or(p.len(), |e| i + e + 1);
                None
            }
            '(' if !in_class && p.get(i) == Some(&'?') => {
                i = p[i..].iter().position(|&c| c == ':').map_or(p.len(), |e| i + e + 1);
                None
            }
            '(' | ')' | '|' | '.' | '^' | '$' | '*' | '+' | '?' if !in_class => None,
            c => Some(c),
        };
        if let Some(m) = member {
            s.beyond_ascii |= !m.is_ascii();
            s.named.add(m, ignore_case);
            last = in_class.then_some(m);
        } else if in_class {
            last = None;
        }
    }
    s
}

/// Whether a text holds a character RE2 folds onto an ASCII letter (the Kelvin sign,
/// the long s).
pub(crate) fn folds_beyond_ascii(text: &str) -> bool {
    holds_any(text, &['\u{212A}', '\u{17F}'])
}

/// Whether `text` holds one of `chars` (at most three, none ASCII), in one pass: memchr
/// finds the first bytes of their UTF-8 forms and each hit is compared whole. A search per
/// character would pass over the page once for each, and `str::contains` of a character
/// beyond ASCII runs core's two-way search.
fn holds_any(text: &str, chars: &[char]) -> bool {
    debug_assert!(chars.len() <= 3 && !chars.iter().any(char::is_ascii));
    let mut bufs = [[0u8; 4]; 3];
    let forms: Vec<&[u8]> = chars.iter().zip(&mut bufs).map(|(c, b)| c.encode_utf8(b).as_bytes()).collect();
    let lead = |i: usize| forms.get(i).or(forms.first()).map_or(0, |f| f[0]);
    let bytes = text.as_bytes();
    memchr::memchr3_iter(lead(0), lead(1), lead(2), bytes).any(|at| forms.iter().any(|f| bytes[at..].starts_with(f)))
}

/// The command's patterns as one RE2-subset pattern with the tool's meaning, and whether
/// a POSIX class the locale decides is in it. Several patterns are one alternation, each
/// spelled on its own; several literals for GNU grep longest first, so that the first
/// alternative that matches is also the longest, as GNU grep's matches are.
fn combined(patterns: &[String], dialect: Dialect, tool: Tool) -> Result<(String, bool), Unsupported> {
    let mut locale_class = false;
    let mut one = |p: &str| -> Result<String, Unsupported> {
        Ok(match (dialect, tool) {
            (Dialect::Fixed, _) => escape_fixed(p),
            (Dialect::Basic | Dialect::Extended, Tool::Gnu) => {
                let spelled = gnu::spell(p, dialect == Dialect::Extended)?;
                locale_class |= spelled.locale_class;
                spelled.re2
            }
            _ => to_re2(p, dialect)?.unwrap_or_else(|| escape_fixed(p)),
        })
    };
    let mut spelled = patterns.iter().map(|p| one(p)).collect::<Result<Vec<_>, _>>()?;
    if let [only] = &spelled[..] {
        return Ok((only.clone(), locale_class));
    }
    let literal = |s: &String| parse(s).map(|n| n.is_literal()).unwrap_or(false);
    if tool == Tool::Gnu && spelled.iter().all(literal) {
        crate::base::sort::sort_by_key(&mut spelled, |s| {
            std::cmp::Reverse(parse(s).map(|n| literal_len(&n)).unwrap_or(0))
        });
    }
    Ok((spelled.iter().map(|s| format!("(?:{s})")).collect::<Vec<_>>().join("|"), locale_class))
}

/// The characters of a literal pattern.
fn literal_len(n: &Node) -> usize {
    match n {
        Node::Cat(v) => v.len(),
        _ => 1,
    }
}

/// rg's joining of several patterns into one (grep's is [`combined`]): the pattern, and
/// how it is read.
pub(crate) fn rg_pattern(patterns: &[String], fixed: bool) -> Result<(String, Dialect), Unsupported> {
    if let [p] = patterns {
        return Ok((p.clone(), if fixed { Dialect::Fixed } else { Dialect::Perl }));
    }
    if fixed && patterns.iter().any(|p| p.contains("[:")) {
        return Err(Unsupported::new("fixed strings that read as POSIX classes in Perl mode"));
    }
    let joined: Vec<String> =
        patterns.iter().map(|p| if fixed { escape_fixed(p) } else { format!("(?:{p})") }).collect();
    Ok((joined.join("|"), Dialect::Perl))
}

/// A fixed string escaped for RE2 (`[.*+?^${}()|[\]\\]`).
fn escape_fixed(p: &str) -> String {
    let mut out = String::with_capacity(p.len() + 4);
    for c in p.chars() {
        if ".*+?^${}()|[]\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn nullable(n: &Node) -> bool {
    match n {
        Node::Lit(_) | Node::Class(_) | Node::Any => false,
        Node::Start | Node::End | Node::Empty => true,
        Node::Cat(v) => v.iter().all(nullable),
        Node::Alt(v) => v.iter().any(nullable),
        Node::Group(g) => nullable(g),
        Node::Rep(inner, min, _) => *min == 0 || nullable(inner),
    }
}

#[cfg(test)]
mod tests;
