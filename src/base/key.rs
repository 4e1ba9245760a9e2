//! Cache keys built from names.
//!
//! Names come from places chromafs does not control — group names from the host's
//! identity provider, collection ids and tenants from a server, header values from
//! configuration — and any character may appear in them. A key that joins names with a
//! separator lets one name that holds the separator stand for two names (`"a\u{1f}b"`
//! versus `["a", "b"]`), and a cache keyed that way hands one session's view to another.
//! [`Key`] writes each part with its length in front, so two different lists of parts
//! never give the same key.

use std::fmt::Write;

/// An injective encoding of a list of strings.
#[derive(Debug, Default, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Key(String);

impl Key {
    pub(crate) fn new() -> Self {
        Key::default()
    }

    /// Appends one part: its length in bytes, a colon, the part itself.
    pub(crate) fn part(mut self, part: &str) -> Self {
        let _ = write!(self.0, "{}:", part.len());
        self.0.push_str(part);
        self
    }

    /// Appends every part of a list, after the list's own length, so that two lists
    /// side by side split only one way.
    pub(crate) fn list<'a>(self, parts: impl ExactSizeIterator<Item = &'a str>) -> Self {
        let mut key = self.part(&parts.len().to_string());
        for p in parts {
            key = key.part(p);
        }
        key
    }

    pub(crate) fn into_string(self) -> String {
        self.0
    }
}

/// A key of the given parts, in order.
pub(crate) fn of<'a>(parts: impl IntoIterator<Item = &'a str>) -> String {
    parts.into_iter().fold(Key::new(), Key::part).into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_inside_names_do_not_merge_or_split_parts() {
        let lists: [&[&str]; 8] = [
            &["admin", "zzz"],
            &["admin\u{1f}zzz"],
            &["admin:", "zzz"],
            &["admin", ":zzz"],
            &["5:admin"],
            &["", "admin", "zzz"],
            &["adminzzz"],
            &["admin", "zzz", ""],
        ];
        let keys: Vec<String> = lists.iter().map(|l| of(l.iter().copied())).collect();
        for (i, a) in keys.iter().enumerate() {
            for (j, b) in keys.iter().enumerate() {
                assert_eq!(i == j, a == b, "{:?} and {:?}", lists[i], lists[j]);
            }
        }
    }

    #[test]
    fn lists_side_by_side_split_one_way() {
        let a = Key::new().list(["x", "y"].into_iter()).list([].into_iter()).into_string();
        let b = Key::new().list(["x"].into_iter()).list(["y"].into_iter()).into_string();
        assert_ne!(a, b);
    }

    #[test]
    fn generated_lists_of_awkward_names_never_share_a_key() {
        let alphabet = ["", "a", ":", "1", "1:", "\u{1f}", "\u{1e}", "é", "0:"];
        let mut seen = std::collections::HashMap::new();
        let mut seed = 7u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let n = (seed >> 60) as usize % 4;
            let parts: Vec<String> = (0..n)
                .map(|i| {
                    let s = seed.rotate_left(13 * i as u32 + 5);
                    (0..(s % 3)).map(|k| alphabet[((s >> (8 * k)) % alphabet.len() as u64) as usize]).collect()
                })
                .collect();
            let key = Key::new().list(parts.iter().map(String::as_str)).into_string();
            if let Some(prev) = seen.insert(key.clone(), parts.clone()) {
                assert_eq!(prev, parts, "two lists share the key {key:?}");
            }
        }
        assert!(seen.len() > 200, "only {} distinct lists generated", seen.len());
    }
}
