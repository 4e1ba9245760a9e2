//! `tree -J`: the same walk printed as tree 2.x prints JSON — one entry a line, indented
//! two spaces a level (all on one line under `-i`), a directory's `contents` only when it lists something, and a
//! report entry after the tree. A file operand is an entry holding an error; a missing
//! operand prints tree's truncated entry (not well-formed JSON), after which every entry
//! below an operand that lists nothing has an empty `contents`. Several directories, a missing operand after
//! another, `--noreport` and the options [`Flags::plain`] does not allow change its layout
//! in ways not modelled: those are left to just-bash.

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

const ERROR: &str = "\"contents\":[{\"error\": \"error opening dir\"}\n";

pub(super) fn tree(dirs: &[&str], f: &Flags, place: Place) -> Result<Printed, Unsupported> {
    let no = || Unsupported::new("this tree -J is left to just-bash");
    if f.no_report || !f.plain() {
        return Err(no());
    }
    let resolved: Vec<String> = dirs.iter().map(|d| path::resolve(place.cwd, d)).collect();
    for full in &resolved {
        place.check(full)?;
    }
    let found = |i: usize| place.listing.get(&resolved[i]);
    // One operand, or a missing one before one other.
    let layout_known = match dirs.len() {
        1 => true,
        2 => found(0).is_none() && !dirs[1].ends_with('/'),
        _ => false,
    };
    if !layout_known {
        return Err(no());
    }
    let mut out = Printed { stdout: "[\n".into(), ..Default::default() };
    let mut n = Counts::default();
    let mut after_missing = false;
    for (i, d) in dirs.iter().enumerate() {
        let last = i + 1 == dirs.len();
        let shown = if f.full_path { d.trim_end_matches('/') } else { d };
        let shown = if shown.is_empty() { "/" } else { shown };
        match found(i) {
            None => {
                write!(out.stdout, ",\"name\":{},{ERROR}", quoted(shown)).unwrap();
                out.stdout.push_str(if last { "\n  ]}" } else { ",\n  ]},\n" });
                out.exit_code = 2;
                after_missing = true;
            }
            Some(Node::File(_)) if d.ends_with('/') => return Err(no()),
            Some(Node::File(_)) => {
                write!(out.stdout, "  {{\"type\":\"file\",\"name\":{},{ERROR}\n  ]}}", quoted(d)).unwrap();
                n.files += 1;
            }
            Some(Node::Dir(_)) => {
                let walk = Walk { f, place, after_missing };
                let listed_any = walk.entry(&resolved[i], shown, shown, true, 1, 0, &mut out.stdout, &mut n)?;
                n.dirs += usize::from(listed_any);
            }
        }
    }
    write!(out.stdout, "\n,\n  {{\"type\":\"report\",\"directories\":{}", n.dirs).unwrap();
    if !f.dirs_only {
        write!(out.stdout, ",\"files\":{}", n.files).unwrap();
    }
    out.stdout.push_str("}\n]\n");
    if f.no_indent {
        // `-i`: one line, as tree prints it.
        out.stdout = out.stdout.lines().map(str::trim_start).collect::<String>() + "\n";
    }
    Ok(out)
}

struct Walk<'a> {
    f: &'a Flags,
    place: Place<'a>,
    /// After a missing operand, tree gives every entry below an operand that lists nothing
    /// an empty `contents`.
    after_missing: bool,
}

impl Walk<'_> {
    /// Prints one entry at `level` (its children deeper): whether a directory listed anything.
    #[allow(clippy::too_many_arguments)]
    fn entry(
        &self,
        full: &str,
        shown: &str,
        name: &str,
        dir: bool,
        level: usize,
        depth: usize,
        out: &mut String,
        n: &mut Counts,
    ) -> Result<bool, Unsupported> {
        let f = self.f;
        let indent = "  ".repeat(level);
        let kind = if dir { "directory" } else { "file" };
        write!(
            out,
            "{indent}{{\"type\":\"{kind}\",\"name\":{}",
            quoted(if f.full_path || level == 1 { shown } else { name })
        )
        .unwrap();
        let children = if dir && f.max_depth.is_none_or(|m| depth < m) {
            listed(full, "", depth, f, self.place)?
        } else {
            Vec::new()
        };
        if children.is_empty() {
            out.push_str(match (self.after_missing && level > 1, f.no_indent) {
                (true, false) => ",\"contents\":[  ]}",
                (true, true) => ",\"contents\":[]}",
                (false, _) => "}",
            });
            return Ok(false);
        }
        out.push_str(",\"contents\":[\n");
        for (i, (child, is_dir)) in children.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n");
            }
            let child_full = super::child_of(full, child);
            let child_shown = if shown.ends_with('/') { format!("{shown}{child}") } else { format!("{shown}/{child}") };
            if *is_dir {
                n.dirs += 1;
            } else {
                n.files += 1;
            }
            self.entry(&child_full, &child_shown, child, *is_dir, level + 1, depth + 1, out, n)?;
        }
        write!(out, "\n{indent}]}}").unwrap();
        Ok(true)
    }
}
