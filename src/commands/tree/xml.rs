//! `tree -X`: the same walk printed as tree 2.x prints XML — a declaration, a `<tree>`
//! element holding one element per operand (children indented two spaces a level, an
//! empty directory below an operand closed on its line; under `-i` unindented, a line
//! ending only after a directory's opening tag) and a `<report>`. A missing
//! operand prints tree's truncated `unknown` element, a file operand an error. Names that XML would escape, and
//! the options [`Flags::plain`] does not allow, are left to just-bash.

use super::{listed, Counts, Flags};
use crate::base::path;
use crate::commands::{Place, Printed, Unsupported};
use crate::tree::listing::Node;
use std::fmt::Write;

fn no() -> Unsupported {
    Unsupported::new("this tree -X is left to just-bash")
}

/// A name as an attribute: names with characters XML escapes are not modelled.
fn attribute(name: &str) -> Result<&str, Unsupported> {
    if name.contains(['&', '<', '>', '"', '\'']) || name.chars().any(char::is_control) {
        return Err(no());
    }
    Ok(name)
}

pub(super) fn tree(dirs: &[&str], f: &Flags, place: Place) -> Result<Printed, Unsupported> {
    if !f.plain() {
        return Err(no());
    }
    let mut out = Printed {
        stdout: format!("<?xml version=\"1.0\" encoding=\"{}\"?>\n<tree>\n", super::charset_name(f)),
        ..Default::default()
    };
    let mut n = Counts::default();
    for &d in dirs {
        let full = path::resolve(place.cwd, d);
        place.check(&full)?;
        let shown = if f.full_path { d.trim_end_matches('/') } else { d };
        let shown = if shown.is_empty() { "/" } else { shown };
        match place.listing.get(&full) {
            None => {
                writeln!(out.stdout, " name=\"{}\"><error>error opening dir</error>\n  </unknown>", attribute(shown)?)
                    .unwrap();
                out.exit_code = 2;
            }
            Some(Node::File(_)) if d.ends_with('/') => return Err(no()),
            Some(Node::File(_)) => {
                writeln!(out.stdout, "  <file name=\"{}\"><error>error opening dir</error>\n  </file>", attribute(d)?)
                    .unwrap();
                n.files += 1;
            }
            Some(Node::Dir(_)) => {
                writeln!(out.stdout, "  <directory name=\"{}\">", attribute(shown)?).unwrap();
                let before = out.stdout.len();
                children(&full, shown, "", 0, f, place, &mut out.stdout, &mut n)?;
                n.dirs += usize::from(out.stdout.len() > before);
                out.stdout.push_str("  </directory>\n");
            }
        }
    }
    if f.no_report {
        out.stdout.push_str("</tree>\n");
        return unindented(out, f);
    }
    let mut counts = format!("  <report>\n    <directories>{}</directories>\n", n.dirs);
    if !f.dirs_only {
        writeln!(counts, "    <files>{}</files>", n.files).unwrap();
    }
    out.stdout.push_str(&counts);
    out.stdout.push_str("  </report>\n</tree>\n");
    unindented(out, f)
}

/// Under `-i`, the elements as tree prints them: unindented (the space before a missing
/// operand's name is not indentation), one after another, a line ending only after the
/// opening tag of a directory that holds something and after an error.
fn unindented(mut out: Printed, f: &Flags) -> Result<Printed, Unsupported> {
    if !f.no_indent {
        return Ok(out);
    }
    let mut joined = String::with_capacity(out.stdout.len());
    for line in out.stdout.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let line = &line[indent - indent % 2..];
        joined.push_str(line);
        if line.starts_with("<directory") && !line.ends_with("</directory>") || line.ends_with("</error>") {
            joined.push('\n');
        }
    }
    joined.push('\n');
    out.stdout = joined;
    Ok(out)
}

/// The elements below the directory `full`, `depth` levels below its operand.
#[allow(clippy::too_many_arguments)]
fn children(
    full: &str,
    shown: &str,
    rel: &str,
    depth: usize,
    f: &Flags,
    place: Place,
    out: &mut String,
    n: &mut Counts,
) -> Result<(), Unsupported> {
    let indent = "  ".repeat(depth + 2);
    for (name, dir) in listed(full, rel, depth, f, place)? {
        let child = super::child_of(full, &name);
        let child_shown = if shown.ends_with('/') { format!("{shown}{name}") } else { format!("{shown}/{name}") };
        let written = attribute(if f.full_path { &child_shown } else { &name })?.to_string();
        if !dir {
            n.files += 1;
            writeln!(out, "{indent}<file name=\"{written}\"></file>").unwrap();
            continue;
        }
        n.dirs += 1;
        let mut below = String::new();
        if f.max_depth.is_none_or(|m| depth + 1 < m) {
            children(&child, &child_shown, &super::child_of(rel, &name), depth + 1, f, place, &mut below, n)?;
        }
        if below.is_empty() {
            writeln!(out, "{indent}<directory name=\"{written}\"></directory>").unwrap();
        } else {
            writeln!(out, "{indent}<directory name=\"{written}\">\n{below}{indent}</directory>").unwrap();
        }
    }
    Ok(())
}
