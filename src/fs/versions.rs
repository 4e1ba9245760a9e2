//! Which versions of the docs a session sees, and the listing of one of them.

use super::Filesystem;
use crate::tree::access::Groups;
use crate::tree::decode::{PathTree, TreeError};
use crate::tree::listing::Listing;
use crate::tree::load::LoadedTree;
use crate::tree::versions;
use std::rc::Rc;

/// Why `version` is not a version of the pages of `tree` that `groups` may see, when it
/// is not one.
pub(super) fn unseen(tree: &PathTree, groups: &Groups, version: &str) -> Option<String> {
    let names = tree.versions_seen_by(groups);
    (!names.iter().any(|n| n == version)).then(|| versions::unknown(version, &names))
}

/// Whether a session opened with `opts` may be scoped to `version`: `Ok(None)` when it is
/// a version of the pages it may see (or there is no `version`), else why not; but a mount
/// among several (`mountAt`) that has no page of `version` is opened all the same,
/// showing its pages of no version (all of them, for a mount without versions), as the
/// version's scope is across the mounts: `Ok(Some(the versions it has))`, so that the
/// mounts can tell a version none of them has (see `fs.versions()`'s `mountVersions`).
pub(super) fn scope_of(
    tree: &PathTree,
    opts: &crate::options::Options,
    version: Option<&str>,
) -> Result<Option<Vec<String>>, String> {
    match version.and_then(|v| unseen(tree, &opts.groups, v)) {
        None => Ok(None),
        Some(_) if opts.mount_at.is_some() => Ok(Some(tree.versions_seen_by(&opts.groups))),
        Some(why) => Err(why),
    }
}

/// The listing of the pages `groups` may see (of `version` and of none, when given), with
/// the host's own files `extra`: a listing with the host's files is one session's alone;
/// the others are built once per tree and shared.
pub(super) fn listing_of(
    tree: &LoadedTree,
    groups: &Groups,
    version: Option<&str>,
    extra: &[String],
) -> Result<Rc<Listing>, TreeError> {
    match extra.is_empty() {
        true => tree.listing(groups, version),
        false => Listing::new(&tree.tree, groups, version, extra).map(Rc::new),
    }
}

/// The versions a session may choose among (see [`crate::tree::versions`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Versions {
    /// The versions of the pages it may see, oldest first.
    #[serde(rename = "versions")]
    pub names: Vec<String>,
    /// The one it is scoped to, else the one the writer named (when the session sees it),
    /// else the newest.
    pub default: Option<String>,
    /// Whether the session is scoped to `default` (the `version` option).
    pub scoped: bool,
    /// A mount scoped to a version it has no page of: the versions it has (see [`scope_of`]).
    #[serde(rename = "mountVersions", skip_serializing_if = "Option::is_none")]
    pub mount_versions: Option<Vec<String>>,
}

impl Filesystem {
    /// The versions this session may choose among: those of the pages its groups may see,
    /// or only its own when it is scoped to one.
    pub(crate) fn versions(&self) -> Versions {
        if let Some(v) = &self.version {
            let mount_versions = self.mount_versions.clone();
            return Versions { names: vec![v.clone()], default: Some(v.clone()), scoped: true, mount_versions };
        }
        let names = self.tree.tree.versions_seen_by(&self.groups);
        let default = self.tree.tree.default_version_of(&names).map(str::to_string);
        Versions { names, default, scoped: false, mount_versions: None }
    }

    /// The session's listing narrowed to `version` and the unversioned pages, or why no
    /// version of that name is among [`Filesystem::versions`]; but a mount among several
    /// searches its pages of no version for a version it does not have, as [`scope_of`]
    /// opens it (the mounts say when none of them has it).
    pub(crate) fn version_listing(&self, version: &str) -> Result<Rc<Listing>, String> {
        // Scoped already: the session's own listing, and no other version.
        if let Some(own) = &self.version {
            return match own == version {
                true => Ok(self.listing.clone()),
                false => Err(versions::unknown(version, std::slice::from_ref(own))),
            };
        }
        if let Some(why) = unseen(&self.tree.tree, &self.groups, version).filter(|_| !self.mounted) {
            return Err(why);
        }
        // The host's files belong to every version.
        let extra: Vec<String> = self.lazy.keys().cloned().collect();
        listing_of(&self.tree, &self.groups, Some(version), &extra).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use crate::chroma::transport::Transport;
    use crate::fs::Filesystem;
    use crate::options::Options;
    use crate::search::ranked::{self, Mode, Query, RankError};
    use crate::testing::{block_on, chroma::URL, FakeChroma};
    use crate::tree::access::Groups;
    use serde_json::json;
    use std::rc::Rc;

    fn docs() -> FakeChroma {
        let chroma = FakeChroma::new();
        chroma.pages(
            "docs",
            &[
                ("v1/keys.md", &["rotate the key with keys rotate\n"], json!({"isPublic": true, "version": "v1"})),
                ("v2/keys.md", &["rotate the key with key rotate\n"], json!({"isPublic": true, "version": "v2"})),
                ("faq.md", &["can I rotate a key? yes\n"], json!({"isPublic": true})),
                ("beta/keys.md", &["rotate keys in beta\n"], json!({"groups": ["staff"], "version": "v3-beta"})),
                (
                    "v2/hooks.md",
                    &["verify webhook signatures with the signing secret\n"],
                    json!({"isPublic": true, "version": "v2"}),
                ),
                (
                    "beta/hooks.md",
                    &["verify webhook signatures in beta\n"],
                    json!({"groups": ["staff"], "version": "v3-beta"}),
                ),
            ],
            json!({"line_aligned": true}),
        );
        chroma
    }

    fn open(chroma: &FakeChroma, groups: &[&str], version: Option<&str>) -> Result<Rc<Filesystem>, String> {
        let mut o = Options::new(URL, "docs");
        o.groups = Groups::new(groups.iter().copied());
        o.version = version.map(str::to_string);
        let t: Rc<dyn Transport> = Rc::new(chroma.clone());
        block_on(async move { Filesystem::connect(o, t, 0.0).await }).map(Rc::new).map_err(|e| e.to_string())
    }

    fn search(fs: &Rc<Filesystem>, version: Option<&str>) -> Result<Vec<(String, Option<String>)>, RankError> {
        let found = ask(fs, "rotate key", version)?;
        assert!(found.elsewhere.is_empty());
        let mut found: Vec<_> = found.hits.into_iter().map(|h| (h.path, h.version)).collect();
        found.sort();
        Ok(found)
    }

    fn ask(fs: &Rc<Filesystem>, text: &str, version: Option<&str>) -> Result<ranked::elsewhere::Found, RankError> {
        let q = Query {
            text: text.into(),
            k: 10,
            dir: "/".into(),
            mode: Mode::Lexical,
            lang: None,
            version: version.map(str::to_string),
        };
        let fs = fs.clone();
        block_on(async move { ranked::recorded(&fs, None, &q, &[]).await })
    }

    fn paths(hits: &[crate::search::ranked::Hit]) -> Vec<(&str, Option<&str>)> {
        hits.iter().map(|h| (h.path.as_str(), h.version.as_deref())).collect()
    }

    #[test]
    fn a_question_only_another_version_answers_names_its_pages() {
        let chroma = docs();
        let fs = open(&chroma, &[], None).unwrap();
        let found = ask(&fs, "verify webhook signatures", Some("v1")).unwrap();
        assert!(found.hits.is_empty(), "no page of v1 answers: {:?}", paths(&found.hits));
        assert_eq!(paths(&found.elsewhere), [("/v2/hooks.md", Some("v2"))], "never the hidden beta page");
        let found = ask(&fs, "verify webhook signatures", Some("v2")).unwrap();
        assert_eq!((paths(&found.hits), found.elsewhere.len()), (vec![("/v2/hooks.md", Some("v2"))], 0));
        let staff = open(&chroma, &["staff"], None).unwrap();
        let found = ask(&staff, "verify webhook signatures", Some("v1")).unwrap();
        let mut named = paths(&found.elsewhere);
        named.sort();
        assert_eq!(
            named,
            [("/beta/hooks.md", Some("v3-beta")), ("/v2/hooks.md", Some("v2"))],
            "a version its caller sees"
        );
        let nothing = ask(&fs, "kubernetes helm chart", Some("v1")).unwrap();
        assert_eq!((nothing.hits.len(), nothing.elsewhere.len()), (0, 0), "no version answers: nothing to name");
        let scoped = open(&chroma, &[], Some("v1")).unwrap();
        let found = ask(&scoped, "verify webhook signatures", Some("v1")).unwrap();
        assert_eq!((found.hits.len(), found.elsewhere.len()), (0, 0), "a session scoped to v1 sees no other version");
        assert!(matches!(ask(&fs, "verify webhook signatures", Some("v9")), Err(RankError::Version(_))));
    }

    #[test]
    fn a_mount_without_the_version_shows_its_pages_of_none() {
        let chroma = docs();
        let mut o = Options::new(URL, "docs");
        o.version = Some("v9".into());
        o.mount_at = Some("/api".into());
        let t: Rc<dyn Transport> = Rc::new(chroma.clone());
        let fs = block_on(async move { Filesystem::connect(o, t, 0.0).await }).unwrap();
        assert_eq!(fs.listing().all_paths(), ["/", "/api", "/api/faq.md"], "the pages of no version");
        let v = fs.versions();
        assert_eq!(
            (v.scoped, v.mount_versions),
            (true, Some(vec!["v1".into(), "v2".into()])),
            "never the hidden v3-beta"
        );
        assert_eq!(open(&chroma, &[], Some("v2")).unwrap().versions().mount_versions, None);
        let mut o = Options::new(URL, "docs");
        o.mount_at = Some("/api".into());
        let t: Rc<dyn Transport> = Rc::new(chroma.clone());
        let fs = Rc::new(block_on(async move { Filesystem::connect(o, t, 0.0).await }).unwrap());
        let found = ask(&fs, "can I rotate a key", Some("v9")).unwrap();
        assert_eq!(
            paths(&found.hits),
            [("/api/faq.md", None)],
            "search --version v9 in a mount without it: its pages of none"
        );
    }

    #[test]
    fn the_other_versions_are_asked_once_and_only_when_a_version_has_no_answer() {
        let chroma = docs();
        let fs = open(&chroma, &[], None).unwrap();
        let requests = |text: &str| {
            let before = fs.requests();
            ask(&fs, text, Some("v1")).unwrap();
            fs.requests() - before
        };
        let answered = requests("rotate key");
        let elsewhere = requests("verify webhook signatures");
        let unversioned = {
            let before = fs.requests();
            ask(&fs, "verify webhook signatures", None).unwrap();
            fs.requests() - before
        };
        assert_eq!(elsewhere, answered + unversioned, "one search of the whole view more, no other request");
    }

    fn owned(pairs: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
        pairs.iter().map(|(p, v)| (p.to_string(), v.map(str::to_string))).collect()
    }

    #[test]
    fn a_session_is_told_the_versions_of_the_pages_it_sees() {
        let chroma = docs();
        let public = open(&chroma, &[], None).unwrap();
        let v = public.versions();
        assert_eq!((v.names, v.default.as_deref(), v.scoped), (vec!["v1".into(), "v2".into()], Some("v2"), false));
        let staff = open(&chroma, &["staff"], None).unwrap().versions();
        assert_eq!(staff.names, ["v1", "v2", "v3-beta"]);
        let scoped = open(&chroma, &[], Some("v1")).unwrap().versions();
        assert_eq!((scoped.names, scoped.scoped), (vec!["v1".to_string()], true));
    }

    #[test]
    fn a_scoped_session_sees_its_version_and_the_pages_of_none() {
        let chroma = docs();
        let fs = open(&chroma, &[], Some("v1")).unwrap();
        assert_eq!(fs.listing().all_paths(), ["/", "/faq.md", "/v1", "/v1/keys.md"]);
        assert_eq!(search(&fs, None).unwrap(), owned(&[("/faq.md", None), ("/v1/keys.md", Some("v1"))]));
        assert_eq!(search(&fs, Some("v1")).unwrap().len(), 2);
        let other = search(&fs, Some("v2")).unwrap_err().to_string();
        assert_eq!(other, "version \"v2\" does not exist; the versions are v1", "a scoped session knows its own");
    }

    #[test]
    fn a_version_that_does_not_exist_is_an_error_naming_those_that_do() {
        let chroma = docs();
        let e = open(&chroma, &[], Some("v9")).err().unwrap();
        assert!(e.ends_with("version \"v9\" does not exist; the versions are v1, v2"), "{e}");
        let e = open(&chroma, &[], Some("v3-beta")).err().unwrap();
        assert!(!e.contains("beta\","), "a version of hidden pages only is no version to the public: {e}");
        assert!(e.ends_with("the versions are v1, v2"), "{e}");
        assert!(open(&chroma, &["staff"], Some("v3-beta")).is_ok());
    }

    #[test]
    fn search_by_version_keeps_that_version_and_the_pages_of_none() {
        let chroma = docs();
        let fs = open(&chroma, &[], None).unwrap();
        assert_eq!(search(&fs, None).unwrap().len(), 3, "every version without --version");
        assert_eq!(search(&fs, Some("v2")).unwrap(), owned(&[("/faq.md", None), ("/v2/keys.md", Some("v2"))]));
        let e = search(&fs, Some("v3-beta")).unwrap_err();
        assert!(matches!(e, RankError::Version(_)), "{e}");
        assert_eq!(e.to_string(), "version \"v3-beta\" does not exist; the versions are v1, v2");
    }

    #[test]
    fn the_default_is_the_one_the_ingest_was_told_when_the_session_sees_it() {
        use crate::ingest::{self, Rules, SourceFile, VersionRules};
        let page = |path: &str| SourceFile { path: path.into(), content: b"text\n".to_vec(), mtime: None };
        let files = [page("v1/a.md"), page("v2/a.md"), page("next/a.md")];
        let rules = |default: Option<&str>| {
            let list = ingest::parse_version_rules(r#"{"next/**": "next"}"#).unwrap();
            Rules::default().with_versions(VersionRules { list, folders: true, default: default.map(str::to_string) })
        };
        let e = ingest::plan(&files, &rules(Some("v3")), 4096, "__path_tree__").unwrap_err();
        assert_eq!(e, "default version \"v3\" is the version of no page (nothing was written)");
        let chroma = FakeChroma::new();
        let plan = ingest::plan(&files, &rules(Some("v1")), 4096, "__path_tree__").unwrap();
        crate::testing::write_plan(&chroma, plan, Rc::new(ingest::DefaultEmbedder)).unwrap();
        let v = open(&chroma, &[], None).unwrap().versions();
        assert_eq!((v.names, v.default.as_deref()), (vec!["next".into(), "v1".into(), "v2".into()], Some("v1")));
        let chroma = FakeChroma::new();
        let plan = ingest::plan(&files, &rules(None), 4096, "__path_tree__").unwrap();
        crate::testing::write_plan(&chroma, plan, Rc::new(ingest::DefaultEmbedder)).unwrap();
        assert_eq!(open(&chroma, &[], None).unwrap().versions().default.as_deref(), Some("v2"), "else the newest");
    }
}
