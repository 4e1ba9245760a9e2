//! Lines as GNU's tools read them: ended by a newline (or NUL with `-z`), the last one
//! perhaps without its end.

/// The lines of `data` ended by `end`, each with its end when it has one.
pub(crate) fn split(data: &[u8], end: u8) -> impl Iterator<Item = &[u8]> {
    let mut rest = data;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let n = memchr::memchr(end, rest).map_or(rest.len(), |i| i + 1);
        let (line, after) = rest.split_at(n);
        rest = after;
        Some(line)
    })
}

/// `line` without its end.
pub(crate) fn body(line: &[u8], end: u8) -> &[u8] {
    line.strip_suffix(&[end]).unwrap_or(line)
}

/// The byte offset where the last `n` lines of `data` begin (the last line counts even
/// without its end).
pub(crate) fn start_of_last(data: &[u8], n: u64, end: u8) -> usize {
    if n == 0 {
        return data.len();
    }
    let mut left = n;
    // A last line without its end is a line; with its end, the end is not a line's start.
    let search = match data.last() {
        Some(&b) if b == end => &data[..data.len() - 1],
        _ => data,
    };
    for i in memchr::memrchr_iter(end, search) {
        left -= 1;
        if left == 0 {
            return i + 1;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_their_ends() {
        assert_eq!(split(b"a\nb\n\nc", b'\n').collect::<Vec<_>>(), [&b"a\n"[..], b"b\n", b"\n", b"c"]);
        assert_eq!(start_of_last(b"a\nb\nc\n", 2, b'\n'), 2);
        assert_eq!(start_of_last(b"a\nb\nc", 1, b'\n'), 4);
        assert_eq!(start_of_last(b"a\nb\n", 5, b'\n'), 0);
    }
}
