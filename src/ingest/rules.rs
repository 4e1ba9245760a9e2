//! Access rules: which pages an ingest marks public, and which groups see the others; and
//! version rules: which version of the docs a page belongs to.
//!
//! Rules map path globs to `isPublic`/`groups`; the last matching rule wins, and a page
//! no rule matches gets the default (public, unless the host asks for private). Version
//! rules map globs to a version's name the same way; a page no rule matches belongs to
//! the version its top folder names (`v2/…`, `1.4/…`) when the host asks for that
//! (`versionFolders`), else to none, which is every version. Globs
//! work on `/`-separated slugs: `*` and `?` stay within a segment, `**` spans any number
//! of segments. A rule that matches no page is a mistake that would leave pages public
//! (`"/internal/**"` never matches: slugs have no leading `/`), so it fails the ingest
//! before anything is written.

use crate::base::glob::Glob;
use crate::base::json;
use crate::tree::access::Access;

/// Pages whose slug matches `glob` get `access`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AccessRule {
    pub glob: String,
    pub access: Access,
    /// The glob, read once.
    matcher: Glob,
}

impl AccessRule {
    pub(crate) fn new(glob: String, access: Access) -> Self {
        AccessRule { matcher: Glob::path(&glob), glob, access }
    }

    fn matches(&self, slug: &str) -> bool {
        self.matcher.matches(slug).unwrap_or(false)
    }
}

/// Parses `{"internal/**": {"isPublic": false, "groups": ["admin"]}, …}`, keeping order
/// (the last matching rule wins) and refusing a glob written twice.
pub(crate) fn parse_access_rules(text: &str) -> Result<Vec<AccessRule>, String> {
    let members = json::ordered_object(text).map_err(|e| format!("access rules: {e}"))?;
    members
        .into_iter()
        .map(|(glob, v)| {
            let obj = v.as_object().ok_or_else(|| format!("access rule {glob:?}: expected an object"))?;
            let access = Access::from_fields(obj).map_err(|e| format!("access rule {glob:?}: {e}"))?;
            Ok(AccessRule::new(glob, access))
        })
        .collect()
}

/// The rules of one ingest and the access of pages no rule matches.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rules {
    pub list: Vec<AccessRule>,
    pub default: Access,
    pub versions: VersionRules,
}

/// No rules: every page public.
impl Default for Rules {
    fn default() -> Self {
        Rules::new(Vec::new(), false)
    }
}

impl Rules {
    pub(crate) fn new(list: Vec<AccessRule>, default_private: bool) -> Self {
        let default = Access { is_public: !default_private, groups: Vec::new() };
        Rules { list, default, versions: VersionRules::default() }
    }

    /// A page's access, and which rule decided it (`None`: the default).
    pub(crate) fn access(&self, slug: &str) -> (&Access, Option<usize>) {
        match self.list.iter().rposition(|r| r.matches(slug)) {
            Some(i) => (&self.list[i].access, Some(i)),
            None => (&self.default, None),
        }
    }

    /// Fails on the first rule that matched no page (`matched[i]` pages for rule `i`).
    pub(crate) fn check_used(&self, matched: &[usize]) -> Result<(), String> {
        check_used("access rule", self.list.iter().map(|r| r.glob.as_str()), matched)
    }

    /// The version rules beside these access rules.
    pub(crate) fn with_versions(self, versions: VersionRules) -> Self {
        Rules { versions, ..self }
    }
}

/// Fails on the first of the `what`s `globs` that matched no page (`matched[i]` pages for
/// the `i`th).
fn check_used<'g>(what: &str, mut globs: impl Iterator<Item = &'g str>, matched: &[usize]) -> Result<(), String> {
    let Some(glob) = matched.iter().position(|n| *n == 0).and_then(|i| globs.nth(i)) else { return Ok(()) };
    Err(match glob.strip_prefix('/') {
        Some(rest) => {
            format!("{what} {glob:?} matches no page: globs are relative to the docs folder, did you mean {rest:?}?")
        }
        None => format!("{what} {glob:?} matches no page: fix the glob or remove the rule (nothing was written)"),
    })
}

/// Pages whose slug matches `glob` belong to `version`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VersionRule {
    pub glob: String,
    pub version: String,
    matcher: Glob,
}

/// Which version of the docs each page belongs to (see the module's documentation).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct VersionRules {
    pub list: Vec<VersionRule>,
    /// A page no rule matches belongs to the version its top folder names.
    pub folders: bool,
}

/// Parses `{"v1/**": "v1", "legacy/**": "0.9"}`, keeping order (the last matching rule
/// wins) and refusing a glob written twice or a name no version may have.
pub(crate) fn parse_version_rules(text: &str) -> Result<Vec<VersionRule>, String> {
    let members = json::ordered_object(text).map_err(|e| format!("version rules: {e}"))?;
    members
        .into_iter()
        .map(|(glob, v)| {
            let version = v.as_str().ok_or_else(|| format!("version rule {glob:?}: expected a version's name"))?;
            crate::tree::versions::check(version).map_err(|e| format!("version rule {glob:?}: {e}"))?;
            Ok(VersionRule { matcher: Glob::path(&glob), glob, version: version.to_string() })
        })
        .collect()
}

impl VersionRules {
    /// A page's version, and which rule decided it (`None`: the folder, or no version).
    pub(crate) fn version<'s>(&'s self, slug: &'s str) -> (Option<&'s str>, Option<usize>) {
        if let Some(i) = self.list.iter().rposition(|r| r.matcher.matches(slug).unwrap_or(false)) {
            return (Some(&self.list[i].version), Some(i));
        }
        let folder = slug.split_once('/').map(|(top, _)| top).filter(|top| self.folders && names_version(top));
        (folder, None)
    }

    /// Fails on the first rule that matched no page (`matched[i]` pages for rule `i`).
    pub(crate) fn check_used(&self, matched: &[usize]) -> Result<(), String> {
        check_used("version rule", self.list.iter().map(|r| r.glob.as_str()), matched)
    }
}

/// Whether a folder's name is a version's: `v2`, `V1.4`, `2.0`, `1.x`, `v3.1.2`.
fn names_version(name: &str) -> bool {
    let rest = name.strip_prefix(['v', 'V']).unwrap_or(name);
    let mut parts = rest.split('.').peekable();
    let mut first = true;
    while let Some(p) = parts.next() {
        let last = parts.peek().is_none();
        let digits = !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if !(digits || (p == "x" && last && !first)) {
            return false;
        }
        first = false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob_match(glob: &str, path: &str) -> bool {
        AccessRule::new(glob.into(), Access { is_public: true, groups: Vec::new() }).matches(path)
    }

    #[test]
    fn globs() {
        assert!(glob_match("internal/**", "internal/a.md"));
        assert!(glob_match("internal/**", "internal/x/y/a.md"));
        assert!(!glob_match("internal/**", "internals/a.md"));
        assert!(glob_match("**/secret.md", "secret.md"));
        assert!(glob_match("**/secret.md", "a/b/secret.md"));
        assert!(glob_match("*.json", "openapi.json"));
        assert!(!glob_match("*.json", "api/openapi.json"));
        assert!(glob_match("api/*/v?.json", "api/specs/v2.json"));
        assert!(glob_match("**", "anything/at/all"));
        assert!(glob_match("docs/**/*.mdx", "docs/a.mdx"));
        assert!(glob_match("docs/**/*.mdx", "docs/x/y/a.mdx"));
        assert!(glob_match("ré?umé.md", "résumé.md"));
    }

    #[test]
    fn bad_access_rules_are_named() {
        assert!(parse_access_rules(r#"{"a/**": {"isPublic": "no"}}"#).unwrap_err().contains("\"a/**\""));
        assert!(parse_access_rules("[]").is_err());
        assert!(parse_access_rules("{} trailing").is_err());
        assert!(parse_access_rules(r#"{"a/**": {"isPublic": true}, "a/**": {"isPublic": false}}"#)
            .unwrap_err()
            .contains("duplicate key"));
    }

    #[test]
    fn the_last_matching_rule_wins_then_the_default() {
        let list = parse_access_rules(
            r#"{"internal/**": {"groups": ["admin"]}, "internal/billing/**": {"groups": ["billing"]}}"#,
        )
        .unwrap();
        let rules = Rules::new(list, false);
        assert_eq!(rules.access("internal/billing/a.md").1, Some(1));
        assert_eq!(rules.access("internal/x.md").0.groups, vec!["admin"]);
        assert_eq!(rules.access("index.md"), (&Access { is_public: true, groups: vec![] }, None));
        assert!(!Rules::new(Vec::new(), true).access("index.md").0.is_public, "--default-private");
    }

    #[test]
    fn a_rule_that_matches_nothing_is_an_error() {
        let rules = Rules::new(
            parse_access_rules(r#"{"/internal/**": {"groups": ["admin"]}, "docs/**": {"isPublic": true}}"#).unwrap(),
            false,
        );
        assert_eq!(rules.check_used(&[0, 3]).unwrap_err(), "access rule \"/internal/**\" matches no page: globs are relative to the docs folder, did you mean \"internal/**\"?");
        let rules = Rules::new(parse_access_rules(r#"{"nope/**": {"isPublic": true}}"#).unwrap(), false);
        assert_eq!(
            rules.check_used(&[0]).unwrap_err(),
            "access rule \"nope/**\" matches no page: fix the glob or remove the rule (nothing was written)"
        );
        assert_eq!(rules.check_used(&[1]), Ok(()));
    }

    #[test]
    fn versions_come_from_rules_then_folders() {
        let list = parse_version_rules(r#"{"legacy/**": "0.9", "legacy/new/**": "v1"}"#).unwrap();
        let rules = VersionRules { list, folders: true };
        assert_eq!(rules.version("legacy/a.md"), (Some("0.9"), Some(0)));
        assert_eq!(rules.version("legacy/new/a.md"), (Some("v1"), Some(1)));
        assert_eq!(rules.version("v2/guide.md"), (Some("v2"), None));
        assert_eq!(rules.version("1.x/guide.md"), (Some("1.x"), None));
        assert_eq!(rules.version("v2.md"), (None, None), "a page at the top is in no folder");
        assert_eq!(rules.version("guides/v2/a.md"), (None, None), "only the top folder counts");
        let plain = VersionRules { folders: false, ..rules.clone() };
        assert_eq!(plain.version("v2/guide.md"), (None, None));
        for name in ["v2", "V1.4", "2.0", "1.x", "v3.1.2", "10"] {
            assert!(names_version(name), "{name}");
        }
        for name in ["v", "vx", "x", "v1.", "guides", "v1-beta", ".1", "1..2", "x.1"] {
            assert!(!names_version(name), "{name}");
        }
        assert_eq!(
            plain.check_used(&[0, 1]).unwrap_err(),
            "version rule \"legacy/**\" matches no page: fix the glob or remove the rule (nothing was written)"
        );
        assert!(parse_version_rules(r#"{"a/**": 2}"#).unwrap_err().contains("expected a version's name"));
        assert!(parse_version_rules(r#"{"a/**": "a/b"}"#).unwrap_err().contains("without '/'"));
    }
}
