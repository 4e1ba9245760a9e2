//! Finding a literal in a text whatever the case of its ASCII letters, without folding the
//! text first.
//!
//! A case-insensitive check of a page could lowercase the page and search the copy, but a
//! search that only asks whether a page holds a word pays for a copy of every page it
//! reads. Instead the search looks for the literal's least common byte in either case
//! (memchr's two-byte search) and compares the bytes around each hit, as ripgrep's
//! literal searcher picks a rare byte to scan for.

/// A literal to find with ASCII letters matched in either case (other bytes as they are).
#[derive(Clone, Debug)]
pub(crate) struct Caseless {
    /// ASCII-lowercased.
    needle: Vec<u8>,
    /// Where in `needle` its least common byte is.
    rare: usize,
}

impl Caseless {
    pub(crate) fn new(literal: &str) -> Caseless {
        let needle = literal.as_bytes().to_ascii_lowercase();
        let rare = (0..needle.len()).min_by_key(|&i| commonness(needle[i])).unwrap_or(0);
        Caseless { needle, rare }
    }

    /// Whether `text` holds the literal in some mix of cases (every text holds an empty one).
    pub(crate) fn is_in(&self, text: &[u8]) -> bool {
        self.needle.is_empty() || self.starts(text).next().is_some()
    }

    /// Where the literal starts in `text`, in order (occurrences may overlap); none for an
    /// empty literal.
    pub(crate) fn starts<'a>(&'a self, text: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
        let (n, r) = (self.needle.len(), self.rare);
        let b = self.needle.get(r).copied().unwrap_or(0);
        let hits = memchr::memchr2_iter(b, b.to_ascii_uppercase(), text).filter(move |_| n > 0);
        hits.filter(move |&at| {
            at >= r && at - r + n <= text.len() && text[at - r..at - r + n].eq_ignore_ascii_case(&self.needle)
        })
        .map(move |at| at - r)
    }

    pub(crate) fn len(&self) -> usize {
        self.needle.len()
    }
}

/// How often a byte appears in documentation, roughly: letters in English's order, then
/// white space and the commonest punctuation above everything; rarer bytes score lower.
fn commonness(b: u8) -> u8 {
    const LETTERS: &[u8] = b"zqxjkvbpygfwmucldrhsnioate";
    match b {
        b' ' | b'\n' | b'e' | b't' => 255,
        b'a'..=b'z' => 100 + LETTERS.iter().position(|&l| l == b).unwrap_or(0) as u8 * 5,
        b'.' | b',' | b'/' | b'-' | b'_' | b'"' | b'<' | b'>' | b'=' | b'`' => 150,
        b'0'..=b'9' => 90,
        _ => 50,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(literal: &str, text: &str) -> bool {
        Caseless::new(literal).is_in(text.as_bytes())
    }

    #[test]
    fn letters_match_in_either_case_and_other_bytes_as_they_are() {
        assert!(found("oauth", "Sign in with OAuth 2.0"));
        assert!(found("OAUTH", "an oauth token"));
        assert!(found("api_key", "set API_KEY first"));
        assert!(!found("api_key", "set API-KEY first"));
        assert!(found("café", "CAFé"), "bytes beyond ASCII compare exactly");
        assert!(!found("café", "CAFÉ"), "as grep -i's fold of ASCII only would not");
        assert!(!found("oauth", "oaut"), "a hit too near the end is not a match");
        assert!(found("h", "H"));
        assert!(found("xyz", "xyxyXYZ"));
        assert!(!found("xyz", ""));
        assert!(found("", ""), "an empty literal is in every text");
    }

    #[test]
    fn every_start_in_order() {
        let starts = |l: &str, t: &str| Caseless::new(l).starts(t.as_bytes()).collect::<Vec<_>>();
        assert_eq!(starts("aa", "AaAa"), [0, 1, 2], "overlapping");
        assert_eq!(starts("oauth", "OAuth, oauth and OAUTH"), [0, 7, 17]);
        assert_eq!(starts("", "abc"), Vec::<usize>::new());
        assert_eq!(starts("xyz", "xy"), Vec::<usize>::new());
    }

    #[test]
    fn agrees_with_searching_a_lowercased_copy() {
        let texts = ["The OAuth flow", "Zebra zone ZZ", "k8s Kubernetes", "a-b_c.d", "ñandú Ñ"];
        let literals = ["oauth", "zz", "ZONE", "s k", "-B_", "ñ", "nd", "kubernetes!"];
        for t in texts {
            for l in literals {
                let want = t.to_ascii_lowercase().contains(&l.to_ascii_lowercase());
                assert_eq!(found(l, t), want, "{l:?} in {t:?}");
            }
        }
    }
}
