//! Access rules: which pages an ingest marks public, and which groups see the others.
//!
//! Rules map path globs to `isPublic`/`groups`; the last matching rule wins, and a page
//! no rule matches gets the default (public, unless the host asks for private). Globs
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
}

/// No rules: every page public.
impl Default for Rules {
    fn default() -> Self {
        Rules::new(Vec::new(), false)
    }
}

impl Rules {
    pub(crate) fn new(list: Vec<AccessRule>, default_private: bool) -> Self {
        Rules { list, default: Access { is_public: !default_private, groups: Vec::new() } }
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
        let Some(unused) = self.list.iter().zip(matched).find(|(_, n)| **n == 0).map(|(r, _)| r) else { return Ok(()) };
        let glob = &unused.glob;
        Err(match glob.strip_prefix('/') {
            Some(rest) => format!(
                "access rule {glob:?} matches no page: globs are relative to the docs folder, did you mean {rest:?}?"
            ),
            None => {
                format!("access rule {glob:?} matches no page: fix the glob or remove the rule (nothing was written)")
            }
        })
    }
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
}
