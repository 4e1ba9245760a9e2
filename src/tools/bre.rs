//! GNU basic regular expressions in tools' options (`tac -r -s`, `nl -bp`), read by the
//! project's GNU pattern reader and run by `regex_lite`.

use crate::search::pattern::gnu;

/// `pattern` as a regex, or the message GNU (or this reader, for what it leaves out)
/// refuses it with.
/// `multiline`: `^` and `$` also match at newlines (what `re_compile_pattern` sets).
pub(crate) fn compile(pattern: &str, multiline: bool) -> Result<regex_lite::Regex, String> {
    if let Some(message) = gnu::error_of(pattern, false) {
        return Err(message.to_string());
    }
    let spelled = gnu::spell(pattern, false).map_err(|u| u.0)?;
    let flags = if multiline { "(?m)" } else { "" };
    regex_lite::Regex::new(&format!("{flags}{}", spelled.re2)).map_err(|e| e.to_string())
}
