//! The POSIX character classes (`[:alpha:]`, `[:digit:]`…) as the C library's `is*`
//! functions answer for a byte in the `C` and `C.UTF-8` locales: ASCII members only.

/// The twelve class names, in the order POSIX lists them.
pub(crate) const CLASS_NAMES: [&str; 12] =
    ["alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"];

/// The test for membership in the class called `name`, or `None` when there is no such class.
pub(crate) fn class(name: &str) -> Option<fn(u8) -> bool> {
    Some(match name {
        "alnum" => |b: u8| b.is_ascii_alphanumeric(),
        "alpha" => |b: u8| b.is_ascii_alphabetic(),
        "blank" => |b: u8| b == b' ' || b == b'\t',
        "cntrl" => |b: u8| b.is_ascii_control(),
        "digit" => |b: u8| b.is_ascii_digit(),
        "graph" => |b: u8| b.is_ascii_graphic(),
        "lower" => |b: u8| b.is_ascii_lowercase(),
        "print" => |b: u8| b.is_ascii_graphic() || b == b' ',
        "punct" => |b: u8| b.is_ascii_punctuation(),
        "space" => |b: u8| b" \t\n\x0B\x0C\r".contains(&b),
        "upper" => |b: u8| b.is_ascii_uppercase(),
        "xdigit" => |b: u8| b.is_ascii_hexdigit(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_has_its_test() {
        assert!(CLASS_NAMES.iter().all(|n| class(n).is_some()));
        assert_eq!((0..=255u8).filter(|&b| class("punct").unwrap()(b)).count(), 32);
        assert_eq!((0..=255u8).filter(|&b| class("print").unwrap()(b)).count(), 95);
        assert!(class("word").is_none());
    }
}
