//! Pages' titles for a list of them (the MCP server's resources): what each page's first
//! chunk says it is (its front matter's `title:`, else its first heading; see
//! [`heading_of`]), read for at most [`MAX_TITLES`] visible pages at a time in one request
//! by id. A page that cannot be read that way (a lazy file, a page whose tree records no
//! chunk count, a hidden or absent path) or that states no title has none here: the caller
//! names it by its file name.

use crate::base::error::FsError;
use crate::fs::Filesystem;
use crate::pages::heading::heading_of;
use crate::pages::store::Source;
use crate::tree::schema;
use std::collections::HashMap;

/// The most pages one call titles: their first chunks are one request's ids.
pub(crate) const MAX_TITLES: usize = 100;

impl Filesystem {
    /// The title each of `paths` states, in order (`None`: none stated, or not a page this
    /// session reads by id). At most [`MAX_TITLES`] paths; one request for all of them, none
    /// when no path names such a page.
    pub(crate) async fn titles(&self, paths: &[String]) -> Result<Vec<Option<String>>, FsError> {
        if paths.len() > MAX_TITLES {
            return Err(FsError::io("titles", "/", format!("at most {MAX_TITLES} pages a call, not {}", paths.len())));
        }
        // The first chunk's id of each visible page read by id, and which paths it titles.
        let mut wanted: HashMap<String, (String, Vec<usize>)> = HashMap::new();
        for (i, p) in paths.iter().enumerate() {
            let Some(page) = super::check_path(p, "open").ok().and_then(|norm| self.page(&norm)) else { continue };
            if let Source::Chunks { slug, count: Some(n), by_id: true, .. } = &page.source {
                if *n > 0 {
                    let id = schema::chunk_id(slug, 0);
                    wanted.entry(id).or_insert_with(|| (slug.to_string(), Vec::new())).1.push(i);
                }
            }
        }
        let mut titles = vec![None; paths.len()];
        if wanted.is_empty() {
            return Ok(titles);
        }
        let ids: Vec<String> = wanted.keys().cloned().collect();
        let answer =
            self.collection().get_by_ids(&ids, "page titles").await.map_err(|e| FsError::io("titles", "/", e))?;
        let schema = self.collection().schema();
        for (r, id) in answer.ids.iter().enumerate() {
            // Defence in depth: a record must be the first chunk of the page asked for.
            let Some((slug, at)) = wanted.get(id) else { continue };
            if schema.slug_of(&answer, r) != Some(slug.as_str()) {
                continue;
            }
            let title = answer.document(r).and_then(|text| heading_of(text).title);
            for &i in at {
                titles[i] = title.clone();
            }
        }
        Ok(titles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chroma::transport::Transport;
    use crate::options::Options;
    use crate::testing::{block_on, chroma::URL, FakeChroma};
    use crate::tree::access::Groups;
    use serde_json::json;
    use std::rc::Rc;

    /// Pages as chromafs's ingest writes them (chunk ids, counts and access on chunks).
    fn corpus() -> FakeChroma {
        let chroma = FakeChroma::new();
        let pages = [
            ("index.md", "---\ntitle: \"Welcome home\"\n---\n# Later\n"),
            ("guides/setup.md", "# Set it up\nsteps\n"),
            ("plain.txt", "no heading here\n"),
            ("internal/secret.md", "# The launch code\n"),
        ];
        let access = r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}}"#;
        crate::testing::ingest(&chroma, &pages, access, 4096, Rc::new(crate::ingest::DefaultEmbedder));
        chroma
    }

    fn connect(chroma: &FakeChroma, groups: &[&str]) -> Rc<Filesystem> {
        let mut o = Options::new(URL, "docs");
        o.groups = Groups::new(groups.iter().copied());
        let transport: Rc<dyn Transport> = Rc::new(chroma.clone());
        Rc::new(block_on(async move { Filesystem::connect(o, transport, 0.0).await }).unwrap())
    }

    fn titles(fs: &Rc<Filesystem>, paths: &[&str]) -> Result<Vec<Option<String>>, FsError> {
        let (fs, paths) = (fs.clone(), paths.iter().map(|p| p.to_string()).collect::<Vec<_>>());
        block_on(async move { fs.titles(&paths).await })
    }

    #[test]
    fn each_page_says_its_title_in_one_request() {
        let chroma = corpus();
        let fs = connect(&chroma, &[]);
        chroma.clear_log();
        let got = titles(&fs, &["/index.md", "/guides/setup.md", "/plain.txt", "/guides//setup.md"]).unwrap();
        let want = [Some("Welcome home"), Some("Set it up"), None, Some("Set it up")];
        assert_eq!(got, want.map(|t| t.map(String::from)));
        assert_eq!(chroma.requests().len(), 1, "the first chunks of every page, by id, at once");
    }

    #[test]
    fn a_hidden_page_is_titled_as_an_absent_one_and_never_asked_for() {
        let chroma = corpus();
        let fs = connect(&chroma, &[]);
        chroma.clear_log();
        assert_eq!(titles(&fs, &["/internal/secret.md", "/nope.md", "/guides", "/dev/null"]).unwrap(), vec![None; 4]);
        assert!(chroma.requests().is_empty(), "no request names a page the session cannot see");
        let admin = connect(&chroma, &["admin"]);
        assert_eq!(titles(&admin, &["/internal/secret.md"]).unwrap(), vec![Some("The launch code".to_string())]);
    }

    #[test]
    fn pages_another_tool_wrote_are_not_read_for_a_title() {
        let chroma = FakeChroma::new();
        chroma.pages("docs", &[("a.md", &["# A\n"], json!({"isPublic": true}))], json!({}));
        let fs = connect(&chroma, &[]);
        chroma.clear_log();
        assert_eq!(titles(&fs, &["/a.md"]).unwrap(), vec![None]);
        assert!(chroma.requests().is_empty(), "no chunk ids to ask for: the caller names the page by its file");
    }

    #[test]
    fn more_pages_than_one_request_holds_is_an_error() {
        let chroma = corpus();
        let fs = connect(&chroma, &[]);
        let many: Vec<&str> = vec!["/index.md"; MAX_TITLES + 1];
        let err = titles(&fs, &many).unwrap_err();
        assert!(err.to_string().contains("at most 100 pages a call"), "{err}");
    }
}
