//! `diff`: compares files line by line, or directories file by file, as GNU diffutils 3.8
//! does: the same hunks (see [`analyze`]), printed in the same formats (see [`output`]),
//! with the same messages and exit status (0 same, 1 different, 2 trouble).
//!
//! Not answered here (GNU's options all the same, refused with status 2): `-D` and the
//! `--*-format` options, `-l`, `-X`, `--ignore-file-name-case`, `--sdiff-merge-assist`
//! and `--color=always`. Headers without `--label` show the epoch for the files'
//! times, which the host does not give.

mod analyze;
mod myers;
mod options;
mod output;
mod side;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use super::ctx::{Ctx, Failed, Stat, Status};
use super::Pending;
use analyze::{Change, Compare, Text};
use options::Options;
use output::{Format, Printer};

/// The first bytes GNU reads of each file, where a NUL makes the file binary.
const PEEK: usize = 4096;

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let o = match options::parse(ctx, args) {
        Ok(o) => o,
        Err(status) => return Ok(status),
    };
    let mut d = Diff { o: &o, stop: false };
    let mut status = 0;
    let pairs: Vec<(String, String)> = match (&o.from_file, &o.to_file) {
        (Some(f), _) => o.operands.iter().map(|x| (f.clone(), x.clone())).collect(),
        (None, Some(t)) => o.operands.iter().map(|x| (x.clone(), t.clone())).collect(),
        _ => vec![(o.operands[0].clone(), o.operands[1].clone())],
    };
    for (a, b) in &pairs {
        status = status.max(d.compare(ctx, None, Some(a), Some(b))?);
        if d.stop {
            return Ok(2);
        }
    }
    Ok(status)
}

/// What is at one side of a comparison.
#[derive(Clone)]
enum Side<'a> {
    /// Not there, and taken as empty (`-N`), or the absent side of a directory entry.
    Absent,
    Stdin,
    Found(&'a Stat),
    Trouble(&'a Failed),
}

impl Side<'_> {
    fn dir(&self) -> bool {
        matches!(self, Side::Found(s) if s.dir)
    }
}

/// One run's comparisons.
struct Diff<'o> {
    o: &'o Options,
    /// A fatal error was printed: the run ends with status 2.
    stop: bool,
}

/// `dir/name`, as gnulib's `file_name_concat` joins them.
fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// A name as diff's headers print it: in double quotes with C escapes when it has
/// spaces, quotes, backslashes or control characters.
fn c_escape(name: &str) -> String {
    let special = |c: char| c == ' ' || c == '"' || c == '\\' || (c as u32) < 32;
    if !name.chars().any(special) {
        return name.to_string();
    }
    let mut s = String::from("\"");
    for c in name.chars() {
        match c {
            '\x07' => s.push_str("\\a"),
            '\x08' => s.push_str("\\b"),
            '\t' => s.push_str("\\t"),
            '\n' => s.push_str("\\n"),
            '\x0b' => s.push_str("\\v"),
            '\x0c' => s.push_str("\\f"),
            '\r' => s.push_str("\\r"),
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if (c as u32) < 32 => s.push_str(&format!("\\{:03o}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

impl Diff<'_> {
    /// What is at `name` (`-` is standard input).
    fn side<'a>(&self, ctx: &mut Ctx<'a>, name: &str) -> Result<Side<'a>, Pending> {
        if name == "-" {
            return Ok(Side::Stdin);
        }
        Ok(match ctx.stat(name)? {
            Ok(s) => Side::Found(s),
            Err(e) => Side::Trouble(e),
        })
    }

    /// Compares two operands, or two entries of the directories `parent` (an entry absent
    /// from one is `None`): GNU's `compare_files`.
    fn compare(
        &mut self,
        ctx: &mut Ctx,
        parent: Option<(&str, &str)>,
        name0: Option<&str>,
        name1: Option<&str>,
    ) -> Result<i32, Pending> {
        let o = self.o;
        if !((name0.is_some() && name1.is_some()) || (o.unidirectional && name1.is_some()) || o.new_file) {
            let (dir, name) = match (parent, name0) {
                (Some((d, _)), Some(n)) => (d, n),
                (Some((_, d)), None) => (d, name1.unwrap_or_default()),
                _ => return Ok(1),
            };
            self.message(ctx, format!("Only in {dir}: {name}\n"));
            return Ok(1);
        }
        let absent = [name0.is_none(), name1.is_none()];
        let (n0, n1) = (name0.or(name1).unwrap_or_default(), name1.or(name0).unwrap_or_default());
        let mut names = match parent {
            Some((p0, p1)) => [join(p0, n0), join(p1, n1)],
            None => [n0.to_string(), n1.to_string()],
        };
        let mut sides = [Side::Absent, Side::Absent];
        // Ask for both at once.
        let s0 = if absent[0] { Ok(Side::Absent) } else { self.side(ctx, &names[0]) };
        let s1 = if absent[1] { Ok(Side::Absent) } else { self.side(ctx, &names[1]) };
        (sides[0], sides[1]) = (s0?, s1?);
        for f in 0..2 {
            let other_there = matches!(sides[1 - f], Side::Found(_) | Side::Stdin);
            if (o.new_file || (f == 0 && o.unidirectional))
                && matches!(sides[f], Side::Trouble(e) if e.code == "ENOENT")
                && parent.is_none()
                && other_there
            {
                sides[f] = Side::Absent;
            }
        }
        let mut status = 0;
        for f in 0..2 {
            if let Side::Trouble(e) = sides[f] {
                ctx.error(format!("{}: {}", names[f], e.text));
                status = 2;
            }
        }
        let dirs = [sides[0].dir() || (absent[0] && sides[1].dir()), sides[1].dir() || (absent[1] && sides[0].dir())];
        let absent = [matches!(sides[0], Side::Absent), matches!(sides[1], Side::Absent)];
        if status == 0 && parent.is_none() && dirs[0] != dirs[1] && !absent[0] && !absent[1] {
            let file = usize::from(dirs[0]);
            let dir = 1 - file;
            if names[file] == "-" {
                ctx.error("cannot compare '-' to a directory");
                self.stop = true;
                return Ok(2);
            }
            let base = names[file].trim_end_matches('/').rsplit('/').next().unwrap_or_default().to_string();
            names[dir] = join(&names[dir], &base);
            match ctx.stat(&names[dir])? {
                Ok(s) => sides[dir] = Side::Found(s),
                Err(e) => {
                    ctx.error(format!("{}: {}", names[dir], e.text));
                    status = 2;
                }
            }
        }
        let dirs = [sides[0].dir() || (absent[0] && sides[1].dir()), sides[1].dir() || (absent[1] && sides[0].dir())];
        let same = match (&sides[0], &sides[1]) {
            (Side::Found(a), Side::Found(b)) => a.absolute == b.absolute,
            (Side::Stdin, Side::Stdin) => true,
            _ => false,
        };
        let label = |f: usize| o.labels.get(f).cloned().unwrap_or_else(|| names[f].clone());
        if status != 0 || (absent[0] && absent[1]) || (same && o.format != Format::Side) {
        } else if dirs[0] && dirs[1] {
            if parent.is_some() && !o.recursive {
                self.message(ctx, format!("Common subdirectories: {} and {}\n", names[0], names[1]));
            } else {
                status = self.dirs(ctx, parent.is_none(), [&names[0], &names[1]], absent)?;
            }
        } else if dirs[0] || dirs[1] {
            if absent[0] || absent[1] {
                if o.recursive && (o.new_file || (o.unidirectional && absent[0])) {
                    status = self.dirs(ctx, false, [&names[0], &names[1]], absent)?;
                } else {
                    let (p0, p1) = parent.unwrap_or_default();
                    let dir = if absent[0] { p1 } else { p0 };
                    self.message(ctx, format!("Only in {dir}: {n0}\n"));
                    status = 1;
                }
            } else {
                let kind = |s: &Side| match s {
                    Side::Found(s) if s.dir => "directory",
                    Side::Found(s) if s.size == 0 => "regular empty file",
                    Side::Found(_) => "regular file",
                    _ => "fifo",
                };
                let text = format!(
                    "File {} is a {} while file {} is a {}\n",
                    label(0),
                    kind(&sides[0]),
                    label(1),
                    kind(&sides[1])
                );
                self.message(ctx, text);
                status = 1;
            }
        } else {
            status = self.files(ctx, parent.is_some(), &names, &sides, same)?;
        }
        if status == 0 && o.report_identical && !dirs[0] {
            self.message(ctx, format!("Files {} and {} are identical\n", label(0), label(1)));
        }
        Ok(status)
    }

    fn message(&mut self, ctx: &mut Ctx, text: String) {
        ctx.print(text);
    }

    /// Compares two directories entry by entry (an absent one as empty).
    fn dirs(&mut self, ctx: &mut Ctx, top: bool, names: [&str; 2], absent: [bool; 2]) -> Result<i32, Pending> {
        let l0 = if absent[0] { Ok(Ok(&[][..])) } else { ctx.list(names[0]) };
        let l1 = if absent[1] { Ok(Ok(&[][..])) } else { ctx.list(names[1]) };
        let lists = [l0?, l1?];
        let mut status = 0;
        let mut entries: [Vec<&str>; 2] = [Vec::new(), Vec::new()];
        for f in 0..2 {
            match lists[f] {
                Ok(l) => {
                    entries[f] = l
                        .iter()
                        .map(String::as_str)
                        .filter(|n| *n != "." && *n != "..")
                        .filter(|n| !self.o.excluded(n))
                        .filter(|n| !top || self.o.starting_file.as_deref().is_none_or(|s| *n >= s))
                        .collect();
                }
                Err(e) => {
                    ctx.error(format!("{}: {}", names[f], e.text));
                    status = 2;
                }
            }
        }
        if status != 0 {
            return Ok(status);
        }
        // Ask for every entry's kind in one round.
        let mut pending = false;
        for f in 0..2 {
            for n in &entries[f] {
                pending |= ctx.stat(&join(names[f], n)).is_err();
            }
        }
        if pending {
            return Err(Pending);
        }
        let (mut i, mut j) = (0, 0);
        while i < entries[0].len() || j < entries[1].len() {
            let order = match (entries[0].get(i), entries[1].get(j)) {
                (None, _) => std::cmp::Ordering::Greater,
                (_, None) => std::cmp::Ordering::Less,
                (Some(a), Some(b)) => a.as_bytes().cmp(b.as_bytes()),
            };
            let a = (order.is_le()).then(|| entries[0][i]);
            let b = (order.is_ge()).then(|| entries[1][j]);
            i += usize::from(a.is_some());
            j += usize::from(b.is_some());
            let v = self.compare(ctx, Some((names[0], names[1])), a, b)?;
            status = status.max(v);
            if self.stop {
                return Ok(2);
            }
        }
        Ok(status)
    }

    /// Compares two files' contents: GNU's `diff_2_files`.
    fn files(
        &mut self,
        ctx: &mut Ctx,
        nested: bool,
        names: &[String; 2],
        sides: &[Side; 2],
        same: bool,
    ) -> Result<i32, Pending> {
        let o = self.o;
        let paths: Vec<&str> =
            (0..2).filter(|&f| matches!(sides[f], Side::Found(_))).map(|f| names[f].as_str()).collect();
        ctx.want(paths)?;
        let mut data: [&[u8]; 2] = [&[], &[]];
        let mut status = 0;
        for f in 0..2 {
            match sides[f] {
                Side::Found(_) => match ctx.read(&names[f])? {
                    Ok(d) => data[f] = d,
                    Err(e) => {
                        ctx.error(format!("{}: {}", names[f], e.text));
                        status = 2;
                    }
                },
                Side::Stdin => data[f] = if same && f == 1 { data[0] } else { ctx.stdin() },
                _ => {}
            }
        }
        if status != 0 {
            return Ok(status);
        }
        let label = |f: usize| o.labels.get(f).cloned().unwrap_or_else(|| names[f].clone());
        let nul = |d: &[u8]| memchr::memchr(0, &d[..d.len().min(PEEK)]).is_some();
        if !o.text && (nul(data[0]) || nul(data[1])) {
            if data[0] == data[1] {
                return Ok(0);
            }
            let what = if o.brief { "Files" } else { "Binary files" };
            self.message(ctx, format!("{what} {} and {} differ\n", label(0), label(1)));
            return Ok(1);
        }
        let robust = !matches!(o.format, Format::Ed | Format::ForwardEd);
        let a = Text::new(data[0], o.strip_cr, robust);
        let b = Text::new(data[1], o.strip_cr, robust);
        let cmp = Compare { robust, ..o.compare.clone() };
        let changes: Vec<Change> = if same { Vec::new() } else { analyze::diff(&a, &b, &cmp) };
        let mut out = Vec::new();
        let mut header = Vec::new();
        if nested {
            header.extend_from_slice(
                format!("diff{} {} {}\n", o.switches, c_escape(&label(0)), c_escape(&label(1))).as_bytes(),
            );
        }
        let marks = match o.format {
            Format::Context => Some(("***", "---")),
            Format::Unified => Some(("---", "+++")),
            _ => None,
        };
        if let Some(marks) = marks {
            for (f, mark) in [marks.0, marks.1].into_iter().enumerate() {
                let line = match o.labels.get(f) {
                    Some(l) => format!("{mark} {l}\n"),
                    None => format!("{mark} {}\t1970-01-01 00:00:00.000000000 +0000\n", c_escape(&names[f])),
                };
                header.extend_from_slice(line.as_bytes());
            }
        }
        let mut p = Printer::new(&mut out, &a, &b, &o.style, header);
        let differ = p.differ(&changes);
        if o.brief {
            if differ {
                self.message(ctx, format!("Files {} and {} differ\n", label(0), label(1)));
            }
        } else if differ || o.format == Format::Side && !o.style.suppress_common {
            if p.st.format == Format::Side {
                side::script(&mut p, &changes);
            } else {
                p.script(&changes);
            }
            ctx.print(out);
        }
        let mut status = i32::from(differ);
        if !robust {
            for (f, t) in [&a, &b].into_iter().enumerate() {
                if t.missing_newline {
                    ctx.error(format!("{}: No newline at end of file\n", label(f)));
                    status = 2;
                }
            }
        }
        Ok(status)
    }
}
