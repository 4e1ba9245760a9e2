//! awk's tokens: the program text read into words, numbers, strings, regular expressions
//! and operators, each with where it starts for gawk's syntax-error caret.

/// One token.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Num(f64),
    Str(String),
    /// A regular expression literal, as written between its slashes.
    Regex(String),
    /// A variable's name.
    Name(String),
    /// A user function's name directly followed by `(`.
    Func(String),
    /// A built-in function's name.
    Builtin(&'static str),
    /// A keyword or an operator.
    Op(&'static str),
    Newline,
    Eof,
}

/// A token and where it is: the line (from 1) and the byte offsets of its first and last
/// characters in that line.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub col: usize,
    pub end: usize,
}

const KEYWORDS: &[&str] = &[
    "BEGIN",
    "END",
    "BEGINFILE",
    "ENDFILE",
    "function",
    "func",
    "if",
    "else",
    "while",
    "for",
    "do",
    "break",
    "continue",
    "next",
    "nextfile",
    "exit",
    "return",
    "delete",
    "in",
    "getline",
    "print",
    "printf",
];

pub(crate) const BUILTINS: &[&str] = &[
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos", "atan2", "exp", "log",
    "sqrt", "int", "rand", "srand", "tolower", "toupper", "system", "close", "fflush", "gensub", "systime", "strftime",
    "asort", "asorti", "typeof", "isarray",
];

const OPS: &[&str] = &[
    "**=", "&&", "||", "==", "!=", "<=", ">=", "!~", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**", ">>", "{",
    "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">", "<", "|", "?", ":", "~", "$", "=",
];

/// A lexing error: its message and where.
pub(crate) struct LexError {
    pub message: String,
    pub line: usize,
    pub col: usize,
}

/// Reads `src` into tokens; warnings (unknown escapes) go to `warn`, with their line.
pub(crate) fn lex(src: &str, warn: &mut Vec<(usize, String)>) -> Result<Vec<Token>, LexError> {
    let b = src.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < b.len() {
        let c = b[i];
        let col = i - line_start;
        let push = |out: &mut Vec<Token>, tok: Tok, end: usize| out.push(Token { tok, line, col, end });
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                i += 2;
                line += 1;
                line_start = i;
            }
            b'\\' if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') => {
                i += 3;
                line += 1;
                line_start = i;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'\n' => {
                push(&mut out, Tok::Newline, col);
                i += 1;
                line += 1;
                line_start = i;
            }
            b'"' => {
                let mut s = String::new();
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        None | Some(b'\n') => {
                            return Err(LexError { message: "unterminated string".into(), line, col })
                        }
                        Some(b'"') => break,
                        Some(b'\\') => {
                            j += 1;
                            match b.get(j) {
                                Some(b'\n') => j += 1,
                                None => return Err(LexError { message: "unterminated string".into(), line, col }),
                                Some(_) => {
                                    let (ch, n) = escape(&src[j..], true);
                                    if let Some(w) = ch.1 {
                                        warn.push((line, w));
                                    }
                                    s.push_str(&ch.0);
                                    j += n;
                                }
                            }
                        }
                        Some(_) => {
                            let ch = src[j..].chars().next().unwrap_or_default();
                            s.push(ch);
                            j += ch.len_utf8();
                        }
                    }
                }
                push(&mut out, Tok::Str(s), j - line_start);
                i = j + 1;
            }
            b'/' if !after_operand(out.last()) => {
                let mut j = i + 1;
                let mut bracket = false;
                loop {
                    match b.get(j) {
                        None | Some(b'\n') => {
                            return Err(LexError { message: "unterminated regexp".into(), line, col })
                        }
                        Some(b'/') if !bracket => break,
                        Some(b'\\') => j += if b.get(j + 1).is_some_and(|&c| c != b'\n') { 2 } else { 1 },
                        Some(b'[') if !bracket => {
                            bracket = true;
                            j += 1;
                            if b.get(j) == Some(&b'^') {
                                j += 1;
                            }
                            if b.get(j) == Some(&b']') {
                                j += 1;
                            }
                        }
                        Some(b'[') if b.get(j + 1) == Some(&b':') => {
                            let close = src[j + 2..].find(":]").map_or(j + 1, |k| j + 2 + k + 2);
                            j = close;
                        }
                        Some(b']') => {
                            bracket = false;
                            j += 1
                        }
                        Some(_) => j += 1,
                    }
                }
                push(&mut out, Tok::Regex(src[i + 1..j].to_string()), j - line_start);
                i = j + 1;
            }
            b'0'..=b'9' | b'.' if c != b'.' || b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let (n, len) = source_number(&src[i..]);
                push(&mut out, Tok::Num(n), i + len - 1 - line_start);
                i += len;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                let word = &src[i..j];
                let tok = if let Some(k) = KEYWORDS.iter().find(|k| **k == word) {
                    Tok::Op(if *k == "func" { "function" } else { k })
                } else if let Some(f) = BUILTINS.iter().find(|k| **k == word) {
                    Tok::Builtin(f)
                } else if b.get(j) == Some(&b'(') {
                    Tok::Func(word.to_string())
                } else {
                    Tok::Name(word.to_string())
                };
                push(&mut out, tok, j - 1 - line_start);
                i = j;
            }
            _ => {
                let Some(op) = OPS.iter().find(|o| src[i..].starts_with(**o)) else {
                    let ch = src[i..].chars().next().unwrap_or_default();
                    return Err(LexError { message: format!("invalid char '{ch}' in expression"), line, col });
                };
                push(&mut out, Tok::Op(op), col + op.len() - 1);
                i += op.len();
            }
        }
    }
    out.push(Token { tok: Tok::Eof, line, col: i - line_start, end: i - line_start });
    Ok(out)
}

/// Whether a `/` after `prev` divides (rather than starting a regular expression).
fn after_operand(prev: Option<&Token>) -> bool {
    match prev.map(|t| &t.tok) {
        Some(Tok::Num(_) | Tok::Str(_) | Tok::Name(_) | Tok::Builtin(_) | Tok::Regex(_)) => true,
        Some(Tok::Op(o)) => matches!(*o, ")" | "]" | "$" | "++" | "--"),
        _ => false,
    }
}

/// A number in program text: as [`number`], and `0` then octal digits is octal.
fn source_number(s: &str) -> (f64, usize) {
    let b = s.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let octal = digits > 1 && b[0] == b'0' && b[..digits].iter().all(|c| *c < b'8');
    if octal && !matches!(b.get(digits), Some(b'.' | b'e' | b'E')) {
        let v = b[..digits].iter().fold(0f64, |a, &c| a * 8.0 + f64::from(c - b'0'));
        return (v, digits);
    }
    number(s)
}

/// A number at the start of `s` (decimal, with fraction and exponent, or `0x` hex) and
/// how many bytes it takes.
pub(crate) fn number(s: &str) -> (f64, usize) {
    let b = s.as_bytes();
    if b.len() > 2 && b[0] == b'0' && (b[1] | 0x20) == b'x' && b[2].is_ascii_hexdigit() {
        let n = b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        let v = b[2..2 + n].iter().fold(0f64, |a, &c| a * 16.0 + (c as char).to_digit(16).unwrap_or(0) as f64);
        return (v, 2 + n);
    }
    let mut j = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    if j < b.len() && b[j] == b'.' {
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    if j < b.len() && (b[j] | 0x20) == b'e' {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            j = k;
        }
    }
    (s[..j].parse().unwrap_or(0.0), j)
}

/// The escape after a backslash at the start of `s`: its text (and, for one awk does not
/// know, gawk's warning) and how many bytes it takes. `plain` is for strings, where an
/// unknown escape stands for its character; in regular expressions it is kept.
pub(crate) fn escape(s: &str, plain: bool) -> ((String, Option<String>), usize) {
    let c = s.chars().next().unwrap_or_default();
    let simple = match c {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        '/' if !plain => Some('/'),
        '"' => Some('"'),
        '\\' if plain => Some('\\'),
        _ => None,
    };
    if let Some(ch) = simple {
        return ((ch.to_string(), None), 1);
    }
    if c == 'x' && s[1..].starts_with(|h: char| h.is_ascii_hexdigit()) {
        let n = s[1..].bytes().take(2).take_while(u8::is_ascii_hexdigit).count();
        let v = u32::from_str_radix(&s[1..1 + n], 16).unwrap_or(0);
        return ((char::from_u32(v).unwrap_or_default().to_string(), None), 1 + n);
    }
    if c.is_digit(8) {
        let n = s.bytes().take(3).take_while(|b| (b'0'..=b'7').contains(b)).count();
        let v = u32::from_str_radix(&s[..n], 8).unwrap_or(0);
        let ch = char::from_u32(v & 0xFF).unwrap_or_default();
        return ((ch.to_string(), None), n);
    }
    if plain {
        let w = format!("escape sequence `\\{c}' treated as plain `{c}'");
        ((c.to_string(), Some(w)), c.len_utf8())
    } else {
        ((format!("\\{c}"), None), c.len_utf8())
    }
}
