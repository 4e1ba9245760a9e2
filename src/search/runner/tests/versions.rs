//! A session scoped to one version of the docs: grep sees that version's pages and those
//! of none, asks Chroma as any session does, and drops the other versions' hits.

use super::*;
use crate::ingest::{self, parse_version_rules, Rules, SourceFile, VersionRules};

/// Three versions of a guide, a changelog of none, and a hidden page of v2, as chromafs's
/// ingest writes them (versions from the top folders, the changelog by a rule of none).
pub(super) fn versioned() -> FakeChroma {
    let chroma = FakeChroma::new();
    let page = |path: &str, text: &str| SourceFile { path: path.into(), content: text.into(), mtime: None };
    let files = [
        page("v1/guide.md", "v1: set the token in the header\n"),
        page("v2/guide.md", "v2: set the token in the config\n"),
        page("v10/guide.md", "v10: the token is gone\n"),
        page("changelog.md", "token moved in v2\n"),
        page("v2/internal.md", "the admin token of v2\n"),
    ];
    let versions = VersionRules { list: parse_version_rules("{}").unwrap(), folders: true };
    let access = crate::ingest::parse_access_rules(r#"{"v2/internal.md": {"groups": ["admin"]}}"#).unwrap();
    let rules = Rules::new(access, false).with_versions(versions);
    let plan = ingest::plan(&files, &rules, 4096, "__path_tree__").unwrap();
    assert_eq!(plan.version_pages, [("v1".into(), 1), ("v2".into(), 2), ("v10".into(), 1)]);
    crate::testing::write_plan(&chroma, plan, Rc::new(ingest::DefaultEmbedder)).unwrap();
    chroma
}

#[test]
fn grep_in_a_version_sees_its_pages_and_those_of_none() {
    let chroma = versioned();
    let fs = connect_with(&chroma, |o| {
        o.native_commands = true;
        o.version = Some("v2".into());
    });
    chroma.clear_log();
    let (out, cs) = answer(&fs, &["grep", "-rn", "token", "/"]);
    assert_eq!(
        out,
        printed("/changelog.md:1:token moved in v2\n/v2/guide.md:1:v2: set the token in the config\n", "", 0)
    );
    assert_eq!(cs.coarse_requests, 1, "asked of Chroma as any search: other versions are no secret");
    let (out, _) = answer(&fs, &["grep", "-rc", "token", "/v1"]);
    assert_eq!(out, printed("", "grep: /v1: No such file or directory\n", 2));
    let admin = connect_with(&chroma, |o| {
        o.native_commands = true;
        o.version = Some("v2".into());
        o.groups = Groups::new(["admin"]);
    });
    let (out, _) = answer(&admin, &["grep", "-rl", "token", "/"]);
    assert_eq!(out, printed("/changelog.md\n/v2/guide.md\n/v2/internal.md\n", "", 0));
}
