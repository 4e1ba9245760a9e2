//! `ls` answered from the listing, as GNU coreutils 9 `ls` prints it with its output not a
//! terminal, in a UTF-8 locale whose collation is the code point order (`C.UTF-8`).
//!
//! One name a line (or `-m`'s commas, wrapped at 80 columns, or [`columns`] under `-C`
//! and `-x`), sorted as [`order`] says, spelled as [`quoted`] says; with several operands
//! the files come first, then each directory under a `dir:` header, a blank line between.
//! `-l`, `-g`, `-o`, `-n`, `-i` and `-s` print the columns [`long`] describes, with the
//! metadata a copy on tmpfs has; `--dired` adds the byte offsets of the names. A
//! collection records one time for an entry: access, change and birth times are it.
//! `--block-size` counts sizes as GNU does ([`crate::commands::units::block_size`]);
//! `--color=always` and `--hyperlink=always` wrap names as [`colors`] says. Ambiguous long
//! options and a `--time-style=+FORMAT` directive not modelled are left to just-bash.

pub(crate) mod args;
mod colors;
mod columns;
pub(crate) mod long;
pub(crate) mod order;

use super::meta::Meta;
use super::{Place, Printed};
use crate::base::path;
use crate::base::quote::{self, Style};
use crate::base::width;
use crate::commands::Unsupported;
use crate::tree::listing::{byte_ordered, Node};
use args::{Flags, Sort};
use colors::Paint;
use columns::Geometry;

/// An entry to print: its name as shown and what the listing knows of it.
struct Entry {
    name: String,
    /// The absolute path, for `--hyperlink`.
    path: String,
    dir: bool,
    mtime_ms: f64,
    ino: u64,
    meta: Option<Meta>,
}

impl Entry {
    fn new(name: &str, path: &str, node: &Node) -> Entry {
        let (mtime_ms, ino) = match node {
            Node::Dir(d) => (d.mtime, d.ino),
            Node::File(f) => (f.mtime, f.ino),
        };
        let (name, path) = (name.to_string(), path.to_string());
        Entry { name, path, dir: matches!(node, Node::Dir(_)), mtime_ms, ino, meta: Meta::of(node) }
    }

    /// What `ls` sorts the entry by; `pad`: whether its listing pads unquoted names ([`pads`]).
    fn key(&self, f: &Flags, pad: bool) -> order::Key<'_> {
        let size = self.meta.map_or(0, |m| m.size);
        order::Key { name: &self.name, mtime_ms: self.mtime_ms, size, dir: self.dir, quoting: f.quoting, pad }
    }
}

/// `ls` over the listing; `Unsupported` when its output is not modelled here.
pub(crate) fn ls(args: &[String], place: Place, now_ms: f64) -> Result<Printed, Unsupported> {
    let (f, mut paths) = match args::parse(args) {
        Ok(parsed) => parsed,
        Err(stop) => return stop.answer(),
    };
    if paths.is_empty() {
        paths.push(".".to_string());
    }
    let mut out = Printed::default();
    // GNU `ls` prints no `--dired` offsets for hyperlinks.
    let dired = (f.dired && f.long && !f.hyperlink).then(Dired::default);
    if dired.is_some() && f.quoting != Style::Literal {
        return Err(Unsupported::new("ls --dired with a quoting style"));
    }
    let paint = Paint::new(f.color, f.hyperlink, f.width.unwrap_or(80));
    let mut state = State { dired, paint };
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    for p in &paths {
        let full = path::resolve(place.cwd, p);
        place.check(&full)?;
        match place.listing.get(&full) {
            None => out.fail(2, format!("ls: cannot access '{p}': No such file or directory\n")),
            Some(Node::File(_)) if path::names_dir(p) => {
                out.fail(2, format!("ls: cannot access '{p}': Not a directory\n"))
            }
            Some(node @ Node::Dir(_)) if !f.directory => dirs.push((Entry::new(p, &full, node), full)),
            Some(node) => files.push(Entry::new(p, &full, node)),
        }
    }
    let pad = pads(files.iter().chain(dirs.iter().map(|(e, _)| e)), &f);
    order::sort(&mut files, |e| e.key(&f, pad), f.sort, f.reverse, f.dirs_first);
    order::sort(&mut dirs, |d| d.0.key(&f, pad), f.sort, f.reverse, false);
    if !files.is_empty() {
        // GNU ls sizes the file operands' columns over every operand it found, directories too.
        let widen: Vec<&Entry> = dirs.iter().map(|(e, _)| e).collect();
        print_block(&files, &widen, &f, false, now_ms, &mut out.stdout, &mut state)?;
    }
    let header = paths.len() > 1 || f.recursive;
    let mut w = Writer { f: &f, place, now_ms, header, state };
    for (i, (entry, full)) in dirs.iter().enumerate() {
        if i > 0 || !files.is_empty() {
            out.stdout.push('\n');
        }
        w.list(&entry.name, full, &mut out.stdout)?;
    }
    if let Some(d) = w.state.dired {
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

/// What the output carries from block to block: the `--dired` offsets, the colours.
struct State {
    dired: Option<Dired>,
    paint: Paint,
}

/// A name as `--quoting-style` (`-Q`, `-N`, `-b`) spells it, GNU's quoting with a space
/// quoted too under `escape`, as ls asks.
fn quoted(name: &str, style: Style) -> Result<String, Unsupported> {
    quoted_with(name, style, if style == Style::Escape { &[' '] } else { &[] })
}

/// A directory's name in its `dir:` header, as GNU ls quotes it there: by
/// `--quoting-style`, a `:` quoted too and a space not by `-b` (the escape style).
fn quoted_header(name: &str, style: Style) -> Result<String, Unsupported> {
    quoted_with(name, style, &[':'])
}

/// A name in `style`, the characters of `also` quoted too. A name with a control
/// character is not modelled: each style spells those its own way.
fn quoted_with(name: &str, style: Style, also: &[char]) -> Result<String, Unsupported> {
    if style != Style::Literal && name.chars().any(char::is_control) {
        return Err(Unsupported::new("a name with a control character"));
    }
    Ok(quote::quoted(name, style, also))
}

/// Whether unquoted names of a listing of `entries` get a space before them, as GNU's
/// `align_variable_outer_quotes` gives them: in columns (with a line width) and the long
/// format, a shell quoting style or `c-maybe` lines a name it leaves as it is up with those
/// it quotes, when it quotes one.
fn pads<'e>(mut entries: impl Iterator<Item = &'e Entry>, f: &Flags) -> bool {
    let aligns = matches!(f.quoting, Style::Shell | Style::ShellEscape | Style::CMaybe)
        && (f.long || (f.layout.is_some() && f.width != Some(0)));
    aligns && entries.any(|e| quoted(&e.name, f.quoting).is_ok_and(|q| q != e.name))
}

/// The name as quoted by `--quoting-style`, and the `/` after a directory's under `-p`.
fn decorated(e: &Entry, f: &Flags) -> Result<(String, &'static str), Unsupported> {
    let s = quoted(&e.name, f.quoting)?;
    // In columns and the long format GNU keeps the outer quotes of a name a shell style
    // quotes out of its link (and pads the names it does not quote).
    let shell = matches!(f.quoting, Style::Shell | Style::ShellEscape | Style::CMaybe);
    if f.hyperlink && shell && s != e.name && (f.long || f.layout.is_some()) {
        return Err(Unsupported::new("ls --hyperlink with a name quoted in columns"));
    }
    Ok((s, if e.dir && f.slash { "/" } else { "" }))
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
    state: &mut State,
) -> Result<(), Unsupported> {
    let (dired, paint) = (&mut state.dired, &mut state.paint);
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
        if f.zero {
            out.pop();
            out.push('\0');
        }
    }
    let inos: Vec<u64> = entries.iter().chain(widen.iter().copied()).map(|e| e.ino).collect();
    let fields = if f.long || f.size { &metas[..] } else { &[] };
    let block = (f.long || f.size || f.inode || f.context).then(|| long::Block::new(&inos, fields, f, now_ms));
    let end = if f.zero { '\0' } else { '\n' };
    let mut cells = Vec::new();
    let mut column = 0;
    let line = f.width.unwrap_or(80);
    let pad = pads(entries.iter().chain(widen.iter().copied()), f);
    for (i, e) in entries.iter().enumerate() {
        let mut prefix = block.as_ref().map(|b| b.prefix(i, &metas, f)).unwrap_or_default();
        let (name, slash) = decorated(e, f)?;
        if pad && name == e.name {
            prefix.push(' ');
        }
        if let Some(d) = dired {
            out.push_str(indent);
            out.push_str(&prefix);
            let at = paint.offset(out);
            d.names.push((at, at + e.name.len()));
            let start = block.as_ref().and_then(|b| b.name_start(i, &prefix, f)).unwrap_or(0);
            paint.name(out, &name, &e.path, e.dir, start);
            out.push_str(slash);
            out.push(end);
            continue;
        }
        let width = width::columns(&prefix) + width::columns(&name) + slash.len();
        if f.layout.is_some() {
            cells.push((prefix, name, slash, width));
            continue;
        }
        if !f.commas {
            let start = block.as_ref().and_then(|b| b.name_start(i, &prefix, f)).unwrap_or(0);
            out.push_str(&prefix);
            paint.name(out, &name, &e.path, e.dir, start);
            out.push_str(slash);
            out.push(end);
            continue;
        }
        // `-m`: GNU wraps before a name that would reach the line's last column.
        if i > 0 {
            let fits = line == 0 || column + width + 2 < line;
            out.push(',');
            out.push(if fits { ' ' } else { end });
            column = if fits { column + 2 } else { 0 };
        }
        out.push_str(&prefix);
        paint.name(out, &name, &e.path, e.dir, column);
        out.push_str(slash);
        column += width;
    }
    if let Some(layout) = f.layout {
        // With colours GNU spaces the columns with spaces alone, whatever `-T` says.
        let tabsize = if f.color { 0 } else { f.tabsize.unwrap_or(8) };
        let g = Geometry { layout, width: line, tabsize };
        let widths: Vec<usize> = cells.iter().map(|c| c.3).collect();
        columns::print(&widths, g, end, out, |i, pos, out| {
            let (prefix, name, slash, _) = &cells[i];
            out.push_str(prefix);
            paint.name(out, name, &entries[i].path, entries[i].dir, pos);
            out.push_str(slash);
        });
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
            && !f.ignore.iter().any(|g| g.matches(name))
            && (hidden || !f.hide.iter().any(|g| g.matches(name)))
    };
    let mut list = Vec::new();
    if f.all {
        let this = place.listing.get(full).expect("the directory");
        let parent = place.listing.get(path::parent(full)).unwrap_or(this);
        // `-I` hides them too (`.*` does).
        for (name, at, node) in [(".", full, this), ("..", path::parent(full), parent)] {
            if shown(name) {
                list.push(Entry::new(name, at, node));
            }
        }
    }
    for (name, _) in byte_ordered(&d.children).iter().filter(|(n, _)| shown(n)) {
        if let Some(node) = place.listing.get(&child(name)) {
            list.push(Entry::new(name, &child(name), node));
        }
    }
    let pad = pads(list.iter(), f);
    order::sort(&mut list, |e| e.key(f, pad), f.sort, f.reverse, f.dirs_first);
    list
}

/// What every directory's listing needs: the options, where, and the `--dired` offsets.
struct Writer<'a> {
    f: &'a Flags,
    place: Place<'a>,
    now_ms: f64,
    /// Each directory under a `dir:` header.
    header: bool,
    state: State,
}

impl Writer<'_> {
    fn list(&mut self, shown: &str, full: &str, out: &mut String) -> Result<(), Unsupported> {
        let (f, place) = (self.f, self.place);
        place.check_dir(full)?;
        let listed = entries(full, f, place);
        if self.header {
            let name = quoted_header(shown, f.quoting)?;
            if let Some(d) = &mut self.state.dired {
                out.push_str("  ");
                let at = self.state.paint.offset(out);
                d.subdirs.push((at, at + name.len()));
            }
            self.state.paint.link(out, &name, full);
            out.push_str(":\n");
        }
        print_block(&listed, &[], f, true, self.now_ms, out, &mut self.state)?;
        if !f.recursive {
            return Ok(());
        }
        for e in listed.iter().filter(|e| e.dir && e.name != "." && e.name != "..") {
            // GNU ls joins a name to its directory as typed with its trailing slashes cut.
            let sub = format!("{}/{}", shown.trim_end_matches('/'), e.name);
            let sub_full = if full == "/" { format!("/{}", e.name) } else { format!("{full}/{}", e.name) };
            out.push('\n');
            self.list(&sub, &sub_full, out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::access::Groups;
    use crate::tree::decode::PathTree;
    use crate::tree::listing::Listing;

    /// `ls ARGS` from `/` over a.md (7 bytes), docs/b.md (5000), docs/c d.md (1) and
    /// docs/guides/x.md (2): its stdout, stderr and status.
    fn ls_over_docs(args: &str) -> (String, String, i32) {
        let json = r#"{"a.md":{"isPublic":true,"size":7,"mtime":0},"docs/b.md":{"isPublic":true,"size":5000,"mtime":1000},
            "docs/c d.md":{"isPublic":true,"size":1,"mtime":2000},"docs/guides/x.md":{"isPublic":true,"size":2,"mtime":0}}"#;
        let l = Listing::new(&PathTree::from_json(json, None).unwrap(), &Groups::default(), None, &[]).unwrap();
        let args: Vec<String> = args.split(' ').map(String::from).collect();
        let out = ls(&args, Place { listing: &l, scratch: None, cwd: "/" }, 1_795_749_644_000.0).unwrap();
        (out.stdout, out.stderr, out.exit_code)
    }

    #[test]
    fn colours_hyperlinks_and_block_sizes_as_gnu_ls_prints_them() {
        // What GNU ls 9.1 printed (LC_ALL=C.UTF-8, TERM=xterm, LS_COLORS unset) over a copy
        // of these files on tmpfs, its owner read as `user`, the copy's directory taken out
        // of the paths and its host name read as `localhost`.
        let cases: &[(&str, &str)] = &[
            ("-l --color=always docs", "total 12\n-rw-r--r-- 1 user user 5000 Jan  1  1970 b.md\n-rw-r--r-- 1 user user    1 Jan  1  1970 c d.md\ndrwxr-xr-x 2 user user   60 Jan  1  1970 \x1b[0m\x1b[01;34mguides\x1b[0m\n"),
            ("-lsa --block-size=K docs", "total 12K\n0K drwxr-xr-x 3 user user 1K Jan  1  1970 .\n0K drwxr-xr-x 3 user user 1K Jan  1  1970 ..\n8K -rw-r--r-- 1 user user 5K Jan  1  1970 b.md\n4K -rw-r--r-- 1 user user 1K Jan  1  1970 c d.md\n0K drwxr-xr-x 2 user user 1K Jan  1  1970 guides\n"),
            ("-m --color=always -s --block-size=KB docs a.md", "5kB a.md\n\ndocs:\ntotal 13kB\n9kB b.md, 5kB c d.md, 0kB \x1b[0m\x1b[01;34mguides\x1b[0m\n"),
            ("-R --color=always --hyperlink=always -x docs", "\x1b]8;;file://localhost/docs\x07docs\x1b]8;;\x07:\n\x1b]8;;file://localhost/docs/b.md\x07b.md\x1b]8;;\x07  \x1b]8;;file://localhost/docs/c%20d.md\x07c d.md\x1b]8;;\x07  \x1b[0m\x1b[01;34m\x1b]8;;file://localhost/docs/guides\x07guides\x1b]8;;\x07\x1b[0m\n\n\x1b]8;;file://localhost/docs/guides\x07docs/guides\x1b]8;;\x07:\n\x1b]8;;file://localhost/docs/guides/x.md\x07x.md\x1b]8;;\x07\n"),
            ("-go --color=always -d docs a.md", "-rw-r--r-- 1   7 Jan  1  1970 a.md\ndrwxr-xr-x 3 100 Jan  1  1970 \x1b[0m\x1b[01;34mdocs\x1b[0m\n"),
            ("--color -F -1 docs", "b.md\nc d.md\n\x1b[0m\x1b[01;34mguides\x1b[0m/\n"),
            ("-ls --si docs", "total 13k\n8.2k -rw-r--r-- 1 user user 5.0k Jan  1  1970 b.md\n4.1k -rw-r--r-- 1 user user    1 Jan  1  1970 c d.md\n   0 drwxr-xr-x 2 user user   60 Jan  1  1970 guides\n"),
            ("-s -h --block-size=1 docs", "total 12288\n8192 b.md\n4096 c d.md\n   0 guides\n"),
            ("--color=always --dired -l docs", "  total 12\n  -rw-r--r-- 1 user user 5000 Jan  1  1970 b.md\n  -rw-r--r-- 1 user user    1 Jan  1  1970 c d.md\n  drwxr-xr-x 2 user user   60 Jan  1  1970 \x1b[0m\x1b[01;34mguides\x1b[0m\n//DIRED// 54 58 102 108 152 158\n//DIRED-OPTIONS// --quoting-style=literal\n"),
            ("--hyperlink --dired -l docs/guides", "total 4\n-rw-r--r-- 1 user user 2 Jan  1  1970 \x1b]8;;file://localhost/docs/guides/x.md\x07x.md\x1b]8;;\x07\n"),
            // `-T 2` without colours: `b.md\tc d.md\tguides`.
            ("--color=always -x -T 2 -w 40 docs a.md", "a.md\n\ndocs:\nb.md  c d.md  \x1b[0m\x1b[01;34mguides\x1b[0m\n"),
            ("--zero -C --color=always docs", "b.md  c d.md  \x1b[0m\x1b[01;34mguides\x1b[0m\0"),
            ("--color=always -Q -x --zero docs", "b.md\0c d.md\0guides\0"),
            ("--color=always -w 5 -C docs", "b.md\nc d.md\n\x1b[0m\x1b[01;34mguides\x1b[0m\x1b[K\n"),
            // GNU links the copy's root to its own path; the docs' root is `/`.
            ("--hyperlink=always -C --color=always -p . docs", "\x1b]8;;file://localhost/\x07.\x1b]8;;\x07:\n\x1b]8;;file://localhost/a.md\x07a.md\x1b]8;;\x07  \x1b[0m\x1b[01;34m\x1b]8;;file://localhost/docs\x07docs\x1b]8;;\x07\x1b[0m/\n\n\x1b]8;;file://localhost/docs\x07docs\x1b]8;;\x07:\n\x1b]8;;file://localhost/docs/b.md\x07b.md\x1b]8;;\x07  \x1b]8;;file://localhost/docs/c%20d.md\x07c d.md\x1b]8;;\x07  \x1b[01;34m\x1b]8;;file://localhost/docs/guides\x07guides\x1b]8;;\x07\x1b[0m/\n"),
        ];
        for (args, want) in cases {
            assert_eq!(ls_over_docs(args), (want.to_string(), String::new(), 0), "ls {args}");
        }
        let refused = |args: &str| {
            let (out, err, code) = ls_over_docs(args);
            assert!(out.is_empty(), "ls {args}");
            (err, code)
        };
        assert_eq!(refused("--block-size=0 docs"), ("ls: invalid --block-size argument '0'\n".into(), 2));
        assert_eq!(
            refused("--block-size 1.5K docs"),
            ("ls: invalid suffix in --block-size argument '1.5K'\n".into(), 2)
        );
        let (err, code) = refused("--hyperlink=x docs");
        assert_eq!((err.lines().next(), code), (Some("ls: invalid argument ‘x’ for ‘--hyperlink’"), 1));
    }
}
