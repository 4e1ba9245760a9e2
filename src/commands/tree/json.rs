//! `tree -J`: the same walk printed as tree 2.x prints JSON — one entry a line, indented
//! two spaces a level, a directory's `contents` only when it lists something, and a
//! report entry after the tree. tree's JSON for a file or a missing operand is not
//! well-formed, and several operands or `--noreport` change its layout: those are left
//! to just-bash.

use super::{listed, Counts, Flags};
use crate::base::path;
use crate::commands::{Place, Printed, Unsupported};
use crate::tree::listing::Node;
use std::fmt::Write;

/// A name as a JSON string.
fn quoted(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub(super) fn tree(dirs: &[&str], f: &Flags, place: Place) -> Result<Printed, Unsupported> {
    let no = || Unsupported::new("this tree -J is left to just-bash");
    let [d] = dirs else { return Err(no()) };
    let full = path::resolve(place.cwd, d);
    place.check(&full)?;
    let plain = !(f.perms || f.size || f.date || f.slash || f.quote || f.ascii || f.reverse || f.discard);
    if f.no_report || !plain || f.sort != super::args::Sort::Name || f.dirs_first.is_some() {
        return Err(no());
    }
    if !matches!(place.listing.get(&full), Some(Node::Dir(_))) {
        return Err(no());
    }
    let shown = if f.full_path { d.trim_end_matches('/') } else { d };
    let shown = if shown.is_empty() { "/" } else { shown };
    let mut n = Counts::default();
    let mut out = String::from("[\n");
    let listed_any = entry(&full, shown, shown, true, 1, 0, f, place, &mut out, &mut n)?;
    n.dirs += usize::from(listed_any);
    write!(out, "\n,\n  {{\"type\":\"report\",\"directories\":{}", n.dirs).unwrap();
    if !f.dirs_only {
        write!(out, ",\"files\":{}", n.files).unwrap();
    }
    out.push_str("}\n]\n");
    Ok(Printed { stdout: out, ..Default::default() })
}

/// Prints one entry at `level` (its children deeper): whether a directory listed anything.
#[allow(clippy::too_many_arguments)]
fn entry(
    full: &str,
    shown: &str,
    name: &str,
    dir: bool,
    level: usize,
    depth: usize,
    f: &Flags,
    place: Place,
    out: &mut String,
    n: &mut Counts,
) -> Result<bool, Unsupported> {
    let indent = "  ".repeat(level);
    let kind = if dir { "directory" } else { "file" };
    write!(
        out,
        "{indent}{{\"type\":\"{kind}\",\"name\":{}",
        quoted(if f.full_path || level == 1 { shown } else { name })
    )
    .unwrap();
    let children = if dir && f.max_depth.is_none_or(|m| depth < m) { listed(full, f, place)? } else { Vec::new() };
    if children.is_empty() {
        out.push('}');
        return Ok(false);
    }
    out.push_str(",\"contents\":[\n");
    for (i, (child, is_dir)) in children.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        let child_full = if full == "/" { format!("/{child}") } else { format!("{full}/{child}") };
        let child_shown = if shown.ends_with('/') { format!("{shown}{child}") } else { format!("{shown}/{child}") };
        if *is_dir {
            n.dirs += 1;
        } else {
            n.files += 1;
        }
        entry(&child_full, &child_shown, child, *is_dir, level + 1, depth + 1, f, place, out, n)?;
    }
    write!(out, "\n{indent}]}}").unwrap();
    Ok(true)
}
