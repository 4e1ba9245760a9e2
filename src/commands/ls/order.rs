//! The orders GNU `ls` sorts entries in: by name (code point order, which is byte order in
//! `C.UTF-8`), newest first, largest first, by extension, by version (`filevercmp`) or
//! by the columns the name takes (a wide character two), each falling back on the name; and none at all (`-U`), which
//! is the directory's own order, `.` and `..` first.

use super::args::Sort;
use crate::base::quote::Style;
use crate::base::vercmp::verrevcmp;
use crate::base::width::columns;
use std::cmp::Ordering;

/// What an entry is sorted by.
pub(crate) struct Key<'a> {
    pub name: &'a str,
    pub mtime_ms: f64,
    pub size: u64,
    pub dir: bool,
    /// How the name is quoted when printed, and whether it is padded when left unquoted
    /// (`pads`): `--sort=width` measures it so.
    pub quoting: Style,
    pub pad: bool,
}

/// Sorts `items` as `ls` would with `sort`, `reverse` and `--group-directories-first`.
pub(crate) fn sort<T>(items: &mut [T], key: impl Fn(&T) -> Key, how: Sort, reverse: bool, dirs_first: bool) {
    if how == Sort::None {
        return;
    }
    crate::base::sort::sort_by(items, |a, b| {
        let (a, b) = (key(a), key(b));
        let group = if dirs_first { b.dir.cmp(&a.dir) } else { Ordering::Equal };
        let by = compare(&a, &b, how);
        group.then(if reverse { by.reverse() } else { by })
    });
}

fn compare(a: &Key, b: &Key, how: Sort) -> Ordering {
    let names = || a.name.as_bytes().cmp(b.name.as_bytes());
    match how {
        Sort::Name | Sort::None => names(),
        Sort::Time => b.mtime_ms.total_cmp(&a.mtime_ms).then_with(names),
        Sort::Size => b.size.cmp(&a.size).then_with(names),
        Sort::Extension => extension(a.name).cmp(extension(b.name)).then_with(names),
        Sort::Version => version(a.name, b.name).then_with(names),
        Sort::Width => shown_width(a).cmp(&shown_width(b)).then_with(names),
    }
}

/// The columns a name takes as `ls` prints it: quotes, escapes and padding included.
fn shown_width(k: &Key) -> usize {
    match super::quoted(k.name, k.quoting) {
        Ok(shown) => columns(&shown) + usize::from(k.pad && shown == k.name),
        Err(_) => columns(k.name),
    }
}

/// The extension `ls -X` sorts by: from the last `.`, or nothing.
fn extension(name: &str) -> &[u8] {
    name.rfind('.').map_or(b"", |at| &name.as_bytes()[at..])
}

/// GNU's `filevercmp`: `.` and `..` first, then hidden names, then the names without
/// their suffix (`(\.[A-Za-z~][A-Za-z0-9~]*)*$`) compared as versions, then whole.
pub(crate) fn version(a: &str, b: &str) -> Ordering {
    let rank = |s: &str| match s {
        "" => 0,
        "." => 1,
        ".." => 2,
        _ if s.starts_with('.') => 3,
        _ => 4,
    };
    let (ra, rb) = (rank(a), rank(b));
    if ra != rb || ra < 3 {
        return ra.cmp(&rb);
    }
    let skip = usize::from(ra == 3);
    let (a, b) = (&a.as_bytes()[skip..], &b.as_bytes()[skip..]);
    let (pa, pb) = (&a[..prefix_len(a)], &b[..prefix_len(b)]);
    match verrevcmp(pa, pb) {
        Ordering::Equal => verrevcmp(a, b),
        o => o,
    }
}

/// The length of `s` without its suffix (see [`version`]).
fn prefix_len(s: &[u8]) -> usize {
    let mut end = s.len();
    let mut i = 0;
    let mut suffix_start = None;
    while i < s.len() {
        if s[i] == b'.' && s.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'~') {
            suffix_start.get_or_insert(i);
            i += 2;
            while s.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'~') {
                i += 1;
            }
            continue;
        }
        suffix_start = None;
        i += 1;
    }
    if let Some(start) = suffix_start {
        end = start;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_numbers_by_value() {
        let mut names =
            ["page-10.mdx", "page-2.mdx", "page-1.mdx", ".hidden", "a.md", "a-1.tar.gz", "a-1.10.md", "a-1.9.md"];
        names.sort_by(|a, b| version(a, b).then(a.cmp(b)));
        assert_eq!(
            names,
            [".hidden", "a.md", "a-1.tar.gz", "a-1.9.md", "a-1.10.md", "page-1.mdx", "page-2.mdx", "page-10.mdx"]
        );
    }

    #[test]
    fn extensions_then_names() {
        let mut names = ["b.md", "a.mdx", "c", "a.md"];
        names.sort_by(|a, b| extension(a).cmp(extension(b)).then(a.cmp(b)));
        assert_eq!(names, ["c", "a.md", "b.md", "a.mdx"]);
    }

    #[test]
    fn widths_count_columns() {
        let mut names = ["abc", "项", "x", "ab"];
        fn key<'b>(n: &'b &str) -> Key<'b> {
            Key { name: n, mtime_ms: 0.0, size: 0, dir: false, quoting: Style::Literal, pad: false }
        }
        sort(&mut names, key, Sort::Width, false, false);
        assert_eq!(names, ["x", "ab", "项", "abc"], "as GNU ls: a wide character takes two columns");
    }
}
