//! The walk's lines, as text or (with `-H`) as HTML: each line is the indentation, the
//! bracketed fields (before the indentation with `--metafirst`), the name as decorated
//! and what follows it (an error, a limit), ended by a newline or `<br>`.
//!
//! `-R` with `-L` asks tree to list each directory below the level into a file of its own,
//! `DIR/00Tree.html`; on a read-only filesystem tree cannot create it and stops there,
//! having printed the start of that directory's line. The walk marks that point with
//! [`STOP`] and the path, and [`cut_at_stop`] turns it into tree's answer.

use super::fields;
use super::html::{self, Anchor};
use super::{child_of, exceeded, listed, quoted, Below, Counts, Flags};
use crate::commands::meta::Meta;
use crate::commands::{Place, Printed, Unsupported};

/// Marks where tree stops (names never hold NUL): `STOP` path `STOP`.
const STOP: char = '\0';

/// One line: the entry at `full`, shown as `name`; `held` what a directory holds
/// (`--du`); `suffix` printed after the name; `branch` the indentation; `parent` the
/// spelling of the directory it lies in (`None` for an operand).
pub(super) struct Entry<'a> {
    pub full: &'a str,
    pub name: &'a str,
    pub dir: bool,
    pub held: u64,
    pub suffix: &'a str,
    pub branch: &'a str,
    pub parent: Option<&'a str>,
}

/// Prints the walk's lines below one operand.
pub(super) struct Writer<'a> {
    pub f: &'a Flags,
    pub place: Place<'a>,
    pub now_ms: f64,
    /// `-H`: the operand's length, which tree takes off the parent's path in a link.
    pub cut: usize,
    /// `--fromfile`: directories `-F` does not mark.
    pub unmarked: Option<&'a std::collections::BTreeSet<String>>,
}

impl Writer<'_> {
    /// The indentation of an operand's line: a tab in HTML, unless `-i`.
    pub(super) fn root_branch(&self) -> &'static str {
        match self.f.html.is_some() && !self.f.no_indent {
            true => "\t",
            false => "",
        }
    }

    /// The lines below the directory `full`, spelled `shown` (`rel` below its operand),
    /// each after `prefix`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn entries(
        &self,
        full: &str,
        shown: &str,
        rel: &str,
        prefix: &str,
        depth: usize,
        out: &mut String,
        n: &mut Counts,
    ) -> Result<Below, Unsupported> {
        let f = self.f;
        let listed = listed(full, rel, depth, f, self.place)?;
        if f.closes(listed.len()) {
            return Ok(Below::Exceeded(listed.len()));
        }
        let d = f.draw;
        let (tee, elbow, bar) = match f.vt100 {
            true => ("tqq ".to_string(), "mqq ".to_string(), "x   ".to_string()),
            false => (format!("{} ", d.tee), format!("{} ", d.corner), format!("{} ", d.vert)),
        };
        let blank = if f.html.is_some() { "&nbsp;&nbsp;&nbsp; " } else { "    " };
        let mut held = 0;
        for (i, (name, is_dir)) in listed.iter().enumerate() {
            let is_dir = *is_dir;
            let child = child_of(full, name);
            let child_shown = if shown.ends_with('/') { format!("{shown}{name}") } else { format!("{shown}/{name}") };
            let child_rel = child_of(rel, name);
            let last = i + 1 == listed.len();
            let branch = if f.no_indent {
                String::new()
            } else if f.vt100 {
                format!("\x1b(0{prefix}{}\x1b(B", if last { &elbow } else { &tee })
            } else {
                format!("{}{prefix}{}", self.root_branch(), if last { &elbow } else { &tee })
            };
            let name_shown = if f.full_path { &child_shown } else { name };
            let e = Entry {
                full: &child,
                name: name_shown,
                dir: is_dir,
                held: 0,
                suffix: "",
                branch: &branch,
                parent: Some(shown),
            };
            let (line, size) = if is_dir {
                n.dirs += 1;
                let mut below = String::new();
                let mut found = Below::Listed(0);
                if f.max_depth.is_none_or(|m| depth + 1 < m) {
                    let deeper = format!("{prefix}{}", if last { blank } else { &bar });
                    found = self.entries(&child, &child_shown, &child_rel, &deeper, depth + 1, &mut below, n)?;
                } else if f.rerun {
                    out.push_str(&self.start(&e)?);
                    out.push(STOP);
                    out.push_str(&child_shown);
                    out.push(STOP);
                    return Ok(Below::Listed(held));
                }
                let (line, size) = match found {
                    Below::Exceeded(k) => {
                        n.closed = true;
                        self.line(&Entry { suffix: &exceeded(k), ..e })?
                    }
                    Below::Listed(inside) => self.line(&Entry { held: inside, ..e })?,
                };
                (format!("{line}{below}"), size)
            } else {
                n.files += 1;
                self.line(&e)?
            };
            out.push_str(&line);
            held += size;
            n.bytes += size;
        }
        Ok(Below::Listed(held))
    }

    /// An entry's line, and with `--du` the size printed (its own, plus `held` for a
    /// directory).
    pub(super) fn line(&self, e: &Entry) -> Result<(String, u64), Unsupported> {
        let (start, size) = self.start_sized(e)?;
        let mut line = start;
        line.push_str(&self.name(e));
        line.push_str(e.suffix);
        line.push_str(if self.f.html.is_some() { "<br>\n" } else { "\n" });
        Ok((line, if self.f.du { size } else { 0 }))
    }

    /// What tree prints of a line before the name: the indentation and the fields.
    fn start(&self, e: &Entry) -> Result<String, Unsupported> {
        Ok(self.start_sized(e)?.0)
    }

    fn start_sized(&self, e: &Entry) -> Result<(String, u64), Unsupported> {
        let f = self.f;
        let mut info = String::new();
        let mut size = 0;
        if fields::any(f) {
            let node = self.place.listing.get(e.full).ok_or_else(|| Unsupported::new("a path that went away"))?;
            let m = Meta::need(node)?;
            size = m.size + if f.du { e.held } else { 0 };
            let bracket = fields::bracket(f, &m, node.ino(), size, self.now_ms)?;
            info = if f.html.is_some() { html::fields(&bracket) } else { bracket };
        }
        Ok((if f.meta_first { format!("{info}{}", e.branch) } else { format!("{}{info}", e.branch) }, size))
    }

    /// The name as decorated: quoted, coloured and marked (`-Q`, `-C`, `-F`), or the
    /// page's element.
    fn name(&self, e: &Entry) -> String {
        let f = self.f;
        if let Some(h) = &f.html {
            let class = f.color.then_some(if e.dir { "DIR" } else { "NORM" });
            let cut = self.cut;
            return html::anchor(h, &Anchor { parent: e.parent, cut, name: e.name, dir: e.dir, class, stat: true });
        }
        let mut s = match (f.color, e.dir) {
            (false, _) => quoted(f, e.name),
            (true, true) => format!("\x1b[01;34m{}\x1b[0m", quoted(f, e.name)),
            (true, false) => format!("\x1b[00m{}\x1b[0m", quoted(f, e.name)),
        };
        if e.dir && f.slash && !self.unmarked.is_some_and(|u| u.contains(e.full)) {
            s.push('/');
        }
        s
    }
}

/// tree's answer when the walk met a directory `-R` would list into a file: what was
/// printed up to there, and the error of a file it cannot create. `None` otherwise.
pub(super) fn cut_at_stop(stdout: &str) -> Option<Printed> {
    let (before, rest) = stdout.split_once(STOP)?;
    let path = rest.split(STOP).next().unwrap_or_default();
    Some(Printed {
        stdout: before.to_string(),
        stderr: format!("tree: invalid filename '{path}/00Tree.html'\n"),
        exit_code: 1,
        ..Default::default()
    })
}
