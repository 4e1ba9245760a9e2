//! What a page says it is: its title and description, where docs put them — the YAML front
//! matter's `title:` and `description:` (Mintlify's, Docusaurus's, Hugo's), else the first
//! Markdown heading for the title. Read from the start of the text only, so the first chunk
//! of a page is enough.

/// A page's title and description, when it states them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Heading {
    pub title: Option<String>,
    pub description: Option<String>,
}

/// How far into a page its front matter or first heading is looked for.
const LOOK: usize = 16 * 1024;

/// The title and description `text` (a page, or its first chunk) states.
pub(crate) fn heading_of(text: &str) -> Heading {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut cut = text.len().min(LOOK);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let text = &text[..cut];
    let mut heading = Heading::default();
    let mut body = text;
    if let Some(front) = front_matter(text) {
        heading.title = field(front.block, "title");
        heading.description = field(front.block, "description");
        body = front.rest;
    }
    if heading.title.is_none() {
        heading.title = first_heading(body);
    }
    heading
}

/// A front matter block and the text after it.
struct Front<'a> {
    block: &'a str,
    rest: &'a str,
}

/// The YAML block between a first line `---` and the next `---` line.
fn front_matter(text: &str) -> Option<Front<'_>> {
    let after = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n"))?;
    let mut at = 0;
    for line in after.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(Front { block: &after[..at], rest: &after[at + line.len()..] });
        }
        at += line.len();
    }
    None
}

/// A top-level scalar of a YAML block (`key: value`, the value quoted or not).
fn field(block: &str, key: &str) -> Option<String> {
    let line = block.lines().find(|l| l.strip_prefix(key).is_some_and(|r| r.trim_start().starts_with(':')))?;
    let value = line[key.len()..].trim_start()[1..].trim();
    let unquoted = match value.as_bytes().first() {
        Some(b'"') if value.len() >= 2 && value.ends_with('"') => value[1..value.len() - 1].replace("\\\"", "\""),
        Some(b'\'') if value.len() >= 2 && value.ends_with('\'') => value[1..value.len() - 1].replace("''", "'"),
        _ => value.split(" #").next().unwrap_or(value).trim().to_string(),
    };
    (!unquoted.is_empty() && !matches!(unquoted.as_str(), "|" | ">" | "|-" | ">-")).then_some(unquoted)
}

/// The text of the first ATX heading (`# Title`) outside a code fence.
fn first_heading(body: &str) -> Option<String> {
    let mut fence: Option<&str> = None;
    for line in body.lines() {
        let trimmed = line.trim_start();
        for marker in ["```", "~~~"] {
            if trimmed.starts_with(marker) {
                fence = match fence {
                    Some(open) if open == marker => None,
                    None => Some(marker),
                    other => other,
                };
            }
        }
        if fence.is_some() {
            continue;
        }
        let hashes = trimmed.bytes().take_while(|&b| b == b'#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with([' ', '\t']) {
            let title = trimmed[hashes..].trim().trim_end_matches('#').trim();
            if !title.is_empty() {
                return Some(title.to_string());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_first_then_the_first_heading() {
        let page = "---\ntitle: \"Install the CLI\"\ndescription: Get started in a minute # note\nicon: rocket\n---\n\n# Ignored\n";
        let h = heading_of(page);
        assert_eq!(h.title.as_deref(), Some("Install the CLI"));
        assert_eq!(h.description.as_deref(), Some("Get started in a minute"));
        let h = heading_of("---\nsidebar: 2\n---\n```md\n# not this\n```\n## Rate limits ##\ntext\n");
        assert_eq!((h.title.as_deref(), h.description), (Some("Rate limits"), None));
        assert_eq!(heading_of("plain text\n#hashtag\n").title, None);
        assert_eq!(heading_of("---\ntitle: 'It''s here'\n---\n").title.as_deref(), Some("It's here"));
        assert_eq!(heading_of("---\ntitle: |\n  Multi\n---\n# Heading\n").title.as_deref(), Some("Heading"));
    }
}
