//! `ls` answered from the listing, as GNU coreutils 9 `ls` prints it with its output not a
//! terminal, in a UTF-8 locale whose collation is the code point order (`C.UTF-8`).
//!
//! One name a line (or `-m`'s commas, wrapped at 80 columns, or [`columns`] under `-C`
//! and `-x`), sorted as [`order`] says, spelled as [`quoting`] says; with several operands
//! the files come first, then each directory under a `dir:` header, a blank line between.
//! `-l`, `-g`, `-o`, `-n`, `-i` and `-s` print the columns [`long`] describes, with the
//! metadata a copy on tmpfs has; `--dired` adds the byte offsets of the names. A
//! collection records one time for an entry: access, change and birth times are it.
//! Ambiguous long options, `--hyperlink=always`, `--color=always`, `--block-size` and
//! `--time-style=+FORMAT` are left to just-bash.

pub(crate) mod args;
mod columns;
pub(crate) mod long;
pub(crate) mod order;
mod quoting;

use super::meta::Meta;
use super::{Place, Printed};
use crate::base::path;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};
use args::{Flags, Sort};
use columns::{display_width, Geometry};
use quoting::{quoted, Quoting};

/// An entry to print: its name as shown and what the listing knows of it.
struct Entry {
    name: String,
    dir: bool,
    mtime_ms: f64,
    ino: u64,
    meta: Option<Meta>,
}

impl Entry {
    fn new(name: &str, node: &Node) -> Entry {
        let (mtime_ms, ino) = match node {
            Node::Dir(d) => (d.mtime, d.ino),
            Node::File(f) => (f.mtime, f.ino),
        };
        Entry { name: name.to_string(), dir: matches!(node, Node::Dir(_)), mtime_ms, ino, meta: Meta::of(node) }
    }

    fn key(&self) -> order::Key<'_> {
        let size = self.meta.map_or(0, |m| m.size);
        order::Key { name: &self.name, mtime_ms: self.mtime_ms, size, dir: self.dir }
    }
}

/// `ls` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn ls(args: &[String], place: Place, now_ms: f64) -> Result<Printed, Unsupported> {
    let (f, mut paths) = match args::parse(args) {
        Ok(parsed) => parsed,
        Err(stop) => return stop.answer(),
    };
    if paths.is_empty() {
        paths.push(".");
    }
    let mut out = Printed::default();
    let mut dired = (f.dired && f.long).then(Dired::default);
    if dired.is_some() && f.quoting != Quoting::Literal {
        return Err(Unsupported::new("ls --dired with a quoting style"));
    }
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    for p in &paths {
        let full = path::resolve(place.cwd, p);
        place.check(&full)?;
        match place.listing.get(&full) {
            None => out.fail(2, format!("ls: cannot access '{p}': No such file or directory\n")),
            Some(node @ Node::Dir(_)) if !f.directory => dirs.push((Entry::new(p, node), full)),
            Some(node) => files.push(Entry::new(p, node)),
        }
    }
    order::sort(&mut files, Entry::key, f.sort, f.reverse, f.dirs_first);
    order::sort(&mut dirs, |d| d.0.key(), f.sort, f.reverse, false);
    if !files.is_empty() {
        // GNU ls sizes the file operands' columns over every operand it found, directories too.
        let widen: Vec<&Entry> = dirs.iter().map(|(e, _)| e).collect();
        print_block(&files, &widen, &f, false, now_ms, &mut out.stdout, &mut dired)?;
    }
    let header = paths.len() > 1 || f.recursive;
    let mut w = Writer { f: &f, place, now_ms, header, dired };
    for (i, (entry, full)) in dirs.iter().enumerate() {
        if i > 0 || !files.is_empty() {
            out.stdout.push('\n');
        }
        w.list(&entry.name, full, &mut out.stdout)?;
    }
    if let Some(d) = w.dired {
        d.finish(&mut out.stdout);
    }
    Ok(out)
}

/// `--dired`: the byte offsets of the names of a long listing and of its directories'
/// headers, printed after it.
#[derive(Default)]
struct Dired {
    names: Vec<(usize, usize)>,
    subdirs: Vec<(usize, usize)>,
}

impl Dired {
    fn finish(self, out: &mut String) {
        for (label, spans) in [("//DIRED//", &self.names), ("//SUBDIRED//", &self.subdirs)] {
            if !spans.is_empty() {
                out.push_str(label);
                spans.iter().for_each(|(a, b)| out.push_str(&format!(" {a} {b}")));
                out.push('\n');
            }
        }
        out.push_str("//DIRED-OPTIONS// --quoting-style=literal\n");
    }
}

/// The name as printed: quoted as `--quoting-style` says, a `/` after a directory's under `-p`.
fn decorated(e: &Entry, f: &Flags) -> Result<String, Unsupported> {
    let mut s = quoted(&e.name, f.quoting).ok_or_else(|| Unsupported::new("a name with a control character"))?;
    if e.dir && f.slash {
        s.push('/');
    }
    Ok(s)
}

/// Prints one block of entries: a directory's (with its `total` under `-l`/`-s`) or the
/// file operands.
/// `widen`: entries not printed whose values still widen the columns.
fn print_block(
    entries: &[Entry],
    widen: &[&Entry],
    f: &Flags,
    total: bool,
    now_ms: f64,
    out: &mut String,
    dired: &mut Option<Dired>,
) -> Result<(), Unsupported> {
    let metas = if f.long || f.size || f.sort == Sort::Size {
        let need = |e: &Entry| e.meta.ok_or_else(|| Unsupported::new("a page whose size the tree does not record"));
        entries.iter().chain(widen.iter().copied()).map(need).collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    let indent = if dired.is_some() { "  " } else { "" };
    if total && (f.long || f.size) {
        out.push_str(indent);
        out.push_str(&long::total(&metas[..entries.len()], f));
    }
    let inos: Vec<u64> = entries.iter().chain(widen.iter().copied()).map(|e| e.ino).collect();
    let fields = if f.long || f.size { &metas[..] } else { &[] };
    let block = (f.long || f.size || f.inode || f.context).then(|| long::Block::new(&inos, fields, f, now_ms));
    let end = if f.zero { '\0' } else { '\n' };
    let mut cells = Vec::new();
    let mut column = 0;
    for (i, e) in entries.iter().enumerate() {
        let prefix = block.as_ref().map(|b| b.prefix(i, &metas, f)).unwrap_or_default();
        let name = decorated(e, f)?;
        if let Some(d) = dired {
            out.push_str(indent);
            out.push_str(&prefix);
            d.names.push((out.len(), out.len() + e.name.len()));
            out.push_str(&name);
            out.push(end);
            continue;
        }
        let shown = format!("{prefix}{name}");
        if f.layout.is_some() {
            let width = display_width(&shown);
            cells.push((shown, width));
            continue;
        }
        if !f.commas {
            out.push_str(&shown);
            out.push(end);
            continue;
        }
        // `-m`: GNU wraps before a name that would reach the 80th column.
        let width = shown.chars().count();
        if i > 0 {
            let fits = column + width + 2 < 80;
            out.push(',');
            out.push(if fits { ' ' } else { end });
            column = if fits { column + 2 } else { 0 };
        }
        out.push_str(&shown);
        column += width;
    }
    if let Some(layout) = f.layout {
        let g = Geometry { layout, width: f.width.unwrap_or(80), tabsize: f.tabsize.unwrap_or(8) };
        columns::print(&cells, g, end, out);
    }
    if f.commas && !entries.is_empty() {
        out.push(end);
    }
    Ok(())
}

/// The entries of the directory `full` that `ls` shows, in its order.
fn entries(full: &str, f: &Flags, place: Place) -> Vec<Entry> {
    let Some(Node::Dir(d)) = place.listing.get(full) else { return Vec::new() };
    let hidden = f.all || f.almost_all;
    let child = |name: &str| if full == "/" { format!("/{name}") } else { format!("{full}/{name}") };
    let shown = |name: &str| {
        (hidden || !name.starts_with('.'))
            && !f.ignore.iter().any(|g| g.matches(name) == Some(true))
            && (hidden || !f.hide.iter().any(|g| g.matches(name) == Some(true)))
    };
    let mut list = Vec::new();
    if f.all {
        let parent = place.listing.get(path::parent(full)).unwrap_or(place.listing.get(full).expect("the directory"));
        list.push(Entry::new(".", place.listing.get(full).expect("the directory")));
        list.push(Entry::new("..", parent));
    }
    for (name, _) in byte_ordered(&d.children).iter().filter(|(n, _)| shown(n)) {
        if let Some(node) = place.listing.get(&child(name)) {
            list.push(Entry::new(name, node));
        }
    }
    order::sort(&mut list, Entry::key, f.sort, f.reverse, f.dirs_first);
    list
}

/// What every directory's listing needs: the options, where, and the `--dired` offsets.
struct Writer<'a> {
    f: &'a Flags,
    place: Place<'a>,
    now_ms: f64,
    /// Each directory under a `dir:` header.
    header: bool,
    dired: Option<Dired>,
}

impl Writer<'_> {
    fn list(&mut self, shown: &str, full: &str, out: &mut String) -> Result<(), Unsupported> {
        let (f, place) = (self.f, self.place);
        place.check_dir(full)?;
        let listed = entries(full, f, place);
        if self.header {
            let name = quoted(shown, f.quoting).ok_or_else(|| Unsupported::new("a name with a control character"))?;
            if let Some(d) = &mut self.dired {
                out.push_str("  ");
                d.subdirs.push((out.len(), out.len() + name.len()));
            }
            out.push_str(&format!("{name}:\n"));
        }
        print_block(&listed, &[], f, true, self.now_ms, out, &mut self.dired)?;
        if !f.recursive {
            return Ok(());
        }
        for e in listed.iter().filter(|e| e.dir && e.name != "." && e.name != "..") {
            let sub = if shown.ends_with('/') { format!("{shown}{}", e.name) } else { format!("{shown}/{}", e.name) };
            let sub_full = if full == "/" { format!("/{}", e.name) } else { format!("{full}/{}", e.name) };
            out.push('\n');
            self.list(&sub, &sub_full, out)?;
        }
        Ok(())
    }
}
