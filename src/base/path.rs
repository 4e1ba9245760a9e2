//! Path normalisation.
//!
//! just-bash hands paths over unnormalised (`//a.md`, `./x/../y`, `dir/`), so every
//! entry point of the filesystem runs them through [`normalize`] first. The rules are
//! just-bash's own `normalizePath`, so a path means the same thing to the shell and to
//! us: `.` and empty segments vanish, `..` pops a segment and never climbs above `/`.

/// Normalises a virtual path to the absolute form `/a/b` (or `/`).
/// Why a lookup of `p`'s parent directory fails, as path resolution says it, or `None`
/// when the parent is a directory: `ENOENT` when it is missing, `ENOTDIR` when a file
/// stands on the way. `kind(path)` says what is at a normalised path: `Some(true)` a
/// directory, `Some(false)` a file, `None` nothing.
pub(crate) fn parent_error(p: &str, kind: impl Fn(&str) -> Option<bool>) -> Option<crate::base::error::Errno> {
    use crate::base::error::Errno;
    let mut up = parent(p);
    let mut first = true;
    loop {
        match kind(up) {
            Some(true) if first => return None,
            Some(true) => return Some(Errno::Enoent),
            Some(false) => return Some(Errno::Enotdir),
            None if up == "/" => return Some(Errno::Enoent),
            None => {}
        }
        up = parent(up);
        first = false;
    }
}

/// Whether a path as typed can only name a directory: it ends in `/`, `/.` or `/..` (or is
/// `.` or `..`). A system call given such a path to a file fails with ENOTDIR, where the
/// normalised path would name the file.
pub(crate) fn names_dir(path: &str) -> bool {
    path.ends_with('/') || path.ends_with("/.") || path.ends_with("/..") || path == "." || path == ".."
}

pub(crate) fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    if parts.is_empty() {
        return "/".to_string();
    }
    let mut out = String::with_capacity(path.len() + 1);
    for p in parts {
        out.push('/');
        out.push_str(p);
    }
    out
}

/// Resolves `path` against the directory `base`, as the shell does for relative operands.
pub(crate) fn resolve(base: &str, path: &str) -> String {
    if path.starts_with('/') {
        normalize(path)
    } else {
        normalize(&format!("{base}/{path}"))
    }
}

/// The parent directory of a normalised path (`/` for `/`).
pub(crate) fn parent(path: &str) -> &str {
    match path.bytes().rposition(|b| b == b'/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

/// The last segment of a normalised path (empty for `/`).
pub(crate) fn file_name(path: &str) -> &str {
    match path.bytes().rposition(|b| b == b'/') {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

/// Orders names the way JavaScript's `<` does (UTF-16 code units), which is how
/// just-bash's in-memory filesystem sorts directory entries.
pub(crate) fn js_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    // Byte order equals UTF-16 order except where characters above U+FFFF meet
    // U+E000..=U+FFFF, so only the first difference matters: when it is between ASCII
    // bytes (or one string ends), bytes decide; otherwise the code units from the start
    // of that character on.
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let Some(i) = x.iter().zip(y).position(|(p, q)| p != q) else { return x.len().cmp(&y.len()) };
    if x[i] < 0x80 && y[i] < 0x80 {
        return x[i].cmp(&y[i]);
    }
    let start = (0..=i).rev().find(|&j| a.is_char_boundary(j)).unwrap_or(0);
    a[start..].encode_utf16().cmp(b[start..].encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_like_just_bash() {
        assert_eq!(normalize(""), "/");
        assert_eq!(normalize("/"), "/");
        assert_eq!(normalize("//a.md"), "/a.md");
        assert_eq!(normalize("/a/./b/"), "/a/b");
        assert_eq!(normalize("a/b"), "/a/b");
        assert_eq!(normalize("/a/../../.."), "/");
        assert_eq!(normalize("/../etc/passwd"), "/etc/passwd");
        assert_eq!(normalize("/a//b///c"), "/a/b/c");
        assert_eq!(normalize("/a/b/.."), "/a");
        assert_eq!(normalize("/..."), "/...");
    }

    #[test]
    fn resolves_relative_paths() {
        assert_eq!(resolve("/docs", "a.md"), "/docs/a.md");
        assert_eq!(resolve("/docs", "../x"), "/x");
        assert_eq!(resolve("/docs", "/abs"), "/abs");
        assert_eq!(resolve("/", "."), "/");
        assert_eq!(resolve("/", "//a.md"), "/a.md");
        assert_eq!(resolve("/a/b", "../../../.."), "/");
    }

    #[test]
    fn parent_and_name() {
        assert_eq!(parent("/a/b.md"), "/a");
        assert_eq!(parent("/a"), "/");
        assert_eq!(parent("/"), "/");
        assert_eq!(file_name("/a/b.md"), "b.md");
        assert_eq!(file_name("/"), "");
    }

    #[test]
    fn sorts_by_utf16_code_units() {
        use std::cmp::Ordering::*;
        assert_eq!(js_cmp("B", "a"), Less);
        assert_eq!(js_cmp("a", "ab"), Less);
        // U+FF21 (fullwidth A) sorts after U+1F600 in UTF-8 but before it in UTF-16.
        assert_eq!(js_cmp("\u{FF21}", "\u{1F600}"), Greater);
        assert_eq!(js_cmp("x\u{FF21}y", "x\u{1F600}"), Greater, "after a shared prefix too");
        assert_eq!(js_cmp("é\u{FF21}", "é\u{FF22}"), Less);
        assert_eq!(js_cmp("é", "éa"), Less);
        assert_eq!("\u{FF21}".cmp("\u{1F600}"), Less);
    }
}
