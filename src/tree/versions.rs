//! Versions of the docs: which pages a session scoped to one version sees.
//!
//! A page may belong to one version of the docs (`"version": "v2"` in its tree entry); a
//! page without one belongs to every version (a changelog, a glossary). A session scoped to
//! a version (the `version` option) sees that version's pages and the unversioned ones, as
//! if the others were never there; so does `search --version`. A version is no secret:
//! unlike a hidden page, a page of another version may answer Chroma's queries like any
//! visible one, and the listing leaves it out after (see
//! [`Listing::has_hidden_pages`](crate::tree::listing::Listing::has_hidden_pages)). Which
//! versions there are is read from the pages a session may see, so a version whose pages
//! are all hidden is not named to it.

use serde_json::Value;
use std::cmp::Ordering;

/// Bytes of a version's name.
const MAX_NAME_BYTES: usize = 64;

/// A tree entry's `version` field: absent or `null` for every version, else a name.
pub(crate) fn read(value: Option<&Value>) -> Result<Option<String>, &'static str> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => check(s).map(|()| Some(s.clone())),
        Some(_) => Err("version must be a string"),
    }
}

/// Checks a version's name: 1 to 64 bytes, no `/`, control character or space at either end.
pub(crate) fn check(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("version must not be empty");
    }
    if name.len() > MAX_NAME_BYTES {
        return Err("version is longer than 64 bytes");
    }
    if name.contains('/') || name.chars().any(char::is_control) || name.trim() != name {
        return Err("version must be a name without '/', control characters or spaces at either end");
    }
    Ok(())
}

/// Whether a page of version `page` shows in a view scoped to `scope` (`None`: every version).
pub(crate) fn shows(page: Option<&str>, scope: Option<&str>) -> bool {
    match (page, scope) {
        (Some(p), Some(s)) => p == s,
        _ => true,
    }
}

/// The versions `names` name, each once, oldest first (see [`natural_cmp`]).
pub(crate) fn ordered<'n>(names: impl Iterator<Item = &'n str>) -> Vec<String> {
    let mut names: Vec<&str> = names.collect();
    names.sort_unstable_by(|a, b| natural_cmp(a, b));
    names.dedup();
    names.into_iter().map(str::to_string).collect()
}

/// The version a session is told to use when it does not choose: the newest of `names`.
pub(crate) fn default_of(names: &[String]) -> Option<&str> {
    names.last().map(String::as_str)
}

/// Why `name` cannot be used: the versions the session sees, or that there are none.
pub(crate) fn unknown(name: &str, names: &[String]) -> String {
    match names.is_empty() {
        true => format!("version {name:?} does not exist: these docs have no versions"),
        false => format!("version {name:?} does not exist; the versions are {}", names.join(", ")),
    }
}

/// Names compared as people read versions: runs of digits as numbers (`v2` before `v10`,
/// `1.9` before `1.10`), the rest byte by byte; names that tie so are in byte order.
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        if x[i].is_ascii_digit() && y[j].is_ascii_digit() {
            let run = |s: &[u8], at: usize| at + s[at..].iter().take_while(|c| c.is_ascii_digit()).count();
            let (ei, ej) = (run(x, i), run(y, j));
            let (n, m) = (significant(&x[i..ei]), significant(&y[j..ej]));
            let by_value = n.len().cmp(&m.len()).then_with(|| n.cmp(m));
            if by_value != Ordering::Equal {
                return by_value;
            }
            (i, j) = (ei, ej);
        } else if x[i] != y[j] {
            return x[i].cmp(&y[j]);
        } else {
            (i, j) = (i + 1, j + 1);
        }
    }
    (x.len() - i).cmp(&(y.len() - j)).then_with(|| a.cmp(b))
}

/// A run of digits without its leading zeros (one kept for zero).
fn significant(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&c| c == b'0').count();
    &digits[zeros.min(digits.len() - 1)..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_checked() {
        assert_eq!(read(None), Ok(None));
        assert_eq!(read(Some(&Value::Null)), Ok(None));
        assert_eq!(read(Some(&json!("v2.1"))), Ok(Some("v2.1".into())));
        assert_eq!(read(Some(&json!(2))), Err("version must be a string"));
        assert_eq!(read(Some(&json!(""))), Err("version must not be empty"));
        assert!(read(Some(&json!("a/b"))).is_err());
        assert!(read(Some(&json!(" v1"))).is_err());
        assert!(read(Some(&json!("v\n1"))).is_err());
        assert!(read(Some(&json!("x".repeat(65)))).is_err());
        assert_eq!(read(Some(&json!("Latest (2026)"))), Ok(Some("Latest (2026)".into())));
    }

    #[test]
    fn a_scope_shows_its_version_and_the_unversioned_pages() {
        assert!(shows(None, Some("v1")));
        assert!(shows(Some("v1"), Some("v1")));
        assert!(!shows(Some("v2"), Some("v1")));
        assert!(shows(Some("v2"), None));
    }

    #[test]
    fn versions_are_ordered_as_people_read_them() {
        let mut v = ["v10", "v2", "v1.10", "v1.9", "v1", "1.0", "latest", "v02"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["1.0", "latest", "v1", "v1.9", "v1.10", "v02", "v2", "v10"]);
        assert_eq!(natural_cmp("v2", "v02"), Ordering::Greater, "equal numbers: byte order decides");
        assert_eq!(natural_cmp("v0", "v00"), Ordering::Less);
    }

    #[test]
    fn versions_are_named_each_once_in_order() {
        let names = ordered(["v3", "v1", "v3", "v2"].into_iter());
        assert_eq!(names, ["v1", "v2", "v3"]);
        assert_eq!(default_of(&names), Some("v3"));
        assert_eq!(
            unknown("v9", &["v1".into(), "v2".into()]),
            "version \"v9\" does not exist; the versions are v1, v2"
        );
        assert_eq!(unknown("v9", &[]), "version \"v9\" does not exist: these docs have no versions");
    }
}
