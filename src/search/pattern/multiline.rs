//! rg `-U`: whether a pattern can match a line break. ripgrep's multiline mode lets a
//! match run over several lines, but only a pattern that can match `\n` does so — a `\n`,
//! `\s`, a negated class, a class by name or number, `.` under `--multiline-dotall` or
//! `(?s)` — and for any other, `-U` prints exactly what the search without it prints. The
//! check reads the pattern as written and says "can" wherever it is unsure.

use super::lite::group_name;

/// Whether `pattern` (rg's syntax; `fixed` for `-F`) may match a line break when `dotall`
/// lets `.` match one.
pub(crate) fn may_match_newline(pattern: &str, fixed: bool, dotall: bool) -> bool {
    if fixed {
        return pattern.contains('\n');
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\n' => return true,
            '\\' => {
                let e = chars.get(i + 1).copied().unwrap_or('\\');
                // Word, digit and boundary escapes and escaped punctuation match no line break.
                if !(matches!(e, 'd' | 'w' | 'b' | 'B' | 'A' | 'z') || e.is_ascii_punctuation()) {
                    return true;
                }
                i += 1;
            }
            '[' if matches!(chars.get(i + 1), Some('^') | Some(':')) => return true,
            '[' if chars.get(i + 1) == Some(&'[') => return true,
            '.' if dotall => return true,
            // Any group but one that sets no flags: `(?:…)` or a named one.
            '(' if chars.get(i + 1) == Some(&'?')
                && !(chars.get(i + 2) == Some(&':') || group_name(&chars, i + 2).is_some()) =>
            {
                return true
            }
            _ => {}
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_can_match_a_line_break_spans_lines() {
        for p in ["mint", "mi(n)t[a-z]+", "\\bword\\b", "a\\.b", "\\d+-\\w*", "(?:a|b)c", "x.y"] {
            assert!(!may_match_newline(p, false, false), "{p}");
        }
        for p in ["a\\nb", "a\\sb", "[^a]", "[[:space:]]", "(?s)a.b", "\\x0a", "\\pZ", "a\\Wb"] {
            assert!(may_match_newline(p, false, false), "{p}");
        }
        assert!(may_match_newline("x.y", false, true), "--multiline-dotall");
        assert!(!may_match_newline("a\\nb", true, false), "a fixed string holds no line break");
    }
}
