//! Text from a server, made fit to show an agent.
//!
//! An error message is the one place where what a server sends reaches the agent
//! verbatim, and a server — or a gateway in front of it — may echo the request it got:
//! its headers, Chroma's token among them. So server text is shown only as an
//! [`excerpt`]: one short line, control characters escaped (a body cannot forge lines
//! of output or drive the agent's terminal). And every secret the session sends — the
//! token and every header value the host configured — is replaced by `[redacted]` in
//! such text before it is cut ([`Secrets::scrub`]), in the forms an echo would take:
//! as sent, and as a JSON string would escape it.

/// The most characters of server text a message shows.
const EXCERPT_CHARS: usize = 200;

/// What replaces a secret.
const REDACTED: &str = "[redacted]";

/// Values shorter than this are not looked for: a one- or two-character header value is
/// no credential, and replacing every `1` in a message would make it unreadable.
const MIN_SECRET_CHARS: usize = 3;

/// The values a session sends that no message may show.
#[derive(Debug, Clone, Default)]
pub(crate) struct Secrets(Vec<String>);

impl Secrets {
    pub(crate) fn new<'a>(values: impl IntoIterator<Item = &'a str>) -> Self {
        let mut forms = Vec::new();
        for v in values.into_iter().map(str::trim).filter(|v| v.chars().count() >= MIN_SECRET_CHARS) {
            let quoted = serde_json::to_string(v).unwrap_or_default();
            let json = quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or_default().to_string();
            forms.push(v.to_string());
            if json != v {
                forms.push(json);
            }
        }
        // Longest first, so a secret that contains another is replaced whole.
        crate::base::sort::sort_by(&mut forms, |a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        forms.dedup();
        Secrets(forms)
    }

    /// The text with every secret replaced by [`REDACTED`].
    pub(crate) fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for s in &self.0 {
            if out.contains(s.as_str()) {
                out = out.replace(s.as_str(), REDACTED);
            }
        }
        out
    }

    /// Server text as a message may show it: scrubbed, then cut to one short line.
    pub(crate) fn excerpt(&self, text: &str) -> String {
        excerpt(&self.scrub(text))
    }
}

/// One line of at most [`EXCERPT_CHARS`] characters (then `…`), surrounding whitespace
/// trimmed, control characters written as escapes (`\n`, `\u{1b}`).
pub(crate) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.trim().chars().enumerate() {
        if n == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_secrets_are_replaced_as_sent_and_as_json_escapes_them() {
        let s = Secrets::new(["ck-123456", "team \"blue\"", "ab", ""]);
        let echo = r#"{"headers":{"x-chroma-token":"ck-123456","x-team":"team \"blue\"","x-short":"ab"}}"#;
        assert_eq!(
            s.scrub(echo),
            r#"{"headers":{"x-chroma-token":"[redacted]","x-team":"[redacted]","x-short":"ab"}}"#
        );
        assert_eq!(s.scrub("token ck-123456 and team \"blue\""), "token [redacted] and [redacted]");
    }

    #[test]
    fn a_secret_inside_another_is_replaced_whole() {
        let s = Secrets::new(["abc", "xxabcxx"]);
        assert_eq!(s.scrub("xxabcxx abc"), "[redacted] [redacted]");
    }

    #[test]
    fn excerpts_are_one_short_line() {
        assert_eq!(excerpt("  line one\nline two\r\n\u{1b}[2J  "), "line one\\nline two\\r\\n\\u{1b}[2J");
        let long = excerpt(&"é".repeat(1000));
        assert_eq!(long.chars().count(), EXCERPT_CHARS + 1);
        assert!(long.ends_with('…'));
        assert_eq!(excerpt("\u{9b}31m"), "\\u{9b}31m", "C1 controls too");
    }

    #[test]
    fn secrets_are_scrubbed_before_the_cut() {
        let secret = "s".repeat(30);
        let s = Secrets::new([secret.as_str()]);
        let text = format!("{}{secret}", "x".repeat(EXCERPT_CHARS - 10));
        let shown = s.excerpt(&text);
        assert!(!shown.contains("ssssssssss"), "{shown}");
    }
}
