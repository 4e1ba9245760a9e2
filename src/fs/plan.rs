//! Pages a host is about to read one after another (the MCP server's llms-full.txt): named
//! to the page store as the running command's plan, so that reading them costs what a
//! search's bulk load costs — their chunks by id, 300 to a request and at most ten in
//! flight, a window at a time (see `pages::store::readahead`) — and not a request a page.
//! A path that names no page the session sees (hidden, absent, a directory) is left out,
//! and so never named in a request. The plan ends with the command.

use crate::fs::Filesystem;

impl Filesystem {
    /// The running command will read `paths` in this order: each miss loads the page and
    /// those after it in one window.
    pub(crate) fn plan_page_reads(&self, paths: &[String]) {
        let pages = paths
            .iter()
            .filter_map(|p| super::check_path(p, "open").ok())
            .filter_map(|norm| self.page(&norm))
            .collect();
        self.store().plan_reads(pages);
    }
}

#[cfg(test)]
mod tests {
    use crate::chroma::transport::Transport;
    use crate::fs::Filesystem;
    use crate::options::Options;
    use crate::testing::{block_on, chroma::URL, FakeChroma};
    use crate::tree::access::Groups;
    use std::rc::Rc;

    fn corpus(n: usize) -> FakeChroma {
        let chroma = FakeChroma::new();
        let texts: Vec<(String, String)> =
            (0..n).map(|i| (format!("p/{i:03}.md"), format!("# Page {i}\nline\n"))).collect();
        let mut pages: Vec<(&str, &str)> = texts.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        pages.push(("internal/secret.md", "# The launch code\n"));
        let access = r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}}"#;
        crate::testing::ingest(&chroma, &pages, access, 4096, Rc::new(crate::ingest::DefaultEmbedder));
        chroma
    }

    fn connect(chroma: &FakeChroma) -> Rc<Filesystem> {
        let mut o = Options::new(URL, "docs");
        o.groups = Groups::new(std::iter::empty::<&str>());
        let transport: Rc<dyn Transport> = Rc::new(chroma.clone());
        Rc::new(block_on(async move { Filesystem::connect(o, transport, 0.0).await }).unwrap())
    }

    #[test]
    fn planned_pages_load_in_bulk_not_one_request_each() {
        let chroma = corpus(40);
        let fs = connect(&chroma);
        let mut paths: Vec<String> = (0..40).map(|i| format!("/p/{i:03}.md")).collect();
        paths.insert(3, "/internal/secret.md".into());
        chroma.clear_log();
        let mark = fs.begin_command();
        fs.plan_page_reads(&paths);
        let reader = fs.clone();
        let read = block_on(async move {
            let mut texts = Vec::new();
            for p in &paths {
                texts.push(reader.read(p).await.ok().map(|b| String::from_utf8(b.to_vec()).unwrap()));
            }
            texts
        });
        fs.end_command(mark);
        assert_eq!(read[3], None, "a hidden page reads as an absent one");
        assert_eq!(read[0].as_deref(), Some("# Page 0\nline\n"));
        assert_eq!(read.iter().flatten().count(), 40);
        let gets = chroma.gets();
        assert_eq!(gets.len(), 1, "forty pages of one chunk each are one request");
        assert!(!gets.iter().any(|g| g.to_string().contains("internal")), "no request names the hidden page");
    }
}
