//! C's one-letter escapes (`\a \b \f \n \r \t \v`), which sed, tr, paste and xargs read in
//! their arguments and sed's `l` and tr's messages write. Each tool handles what it reads
//! differently (numbers, `\0`, `\\`, a letter it leaves out) before asking here.

/// The byte `\LETTER` stands for, if `letter` is one of C's.
pub(crate) fn byte_of(letter: u8) -> Option<u8> {
    Some(match letter {
        b'a' => 7,
        b'b' => 8,
        b'f' => 12,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'v' => 11,
        _ => return None,
    })
}

/// `\LETTER` for a byte that has one.
pub(crate) fn name_of(byte: u8) -> Option<&'static str> {
    Some(match byte {
        7 => "\\a",
        8 => "\\b",
        12 => "\\f",
        b'\n' => "\\n",
        b'\r' => "\\r",
        b'\t' => "\\t",
        11 => "\\v",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_names_are_inverse() {
        for letter in b"abfnrtv" {
            let byte = byte_of(*letter).unwrap();
            assert_eq!(name_of(byte).unwrap().as_bytes(), [b'\\', *letter]);
        }
        assert_eq!(byte_of(b'x'), None);
        assert_eq!(name_of(b'x'), None);
        assert_eq!(name_of(0), None);
    }
}
