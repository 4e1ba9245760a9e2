use super::*;
use crate::chroma::{Client, ClientConfig};
use crate::pages::grams::build::{build, Built, Page, Previous};
use crate::pages::grams::fold::fold;
use crate::pages::grams::manifest::Manifest;
use crate::testing::{block_on, chroma::URL, FakeChroma};
use crate::tree::access::{Access, Groups};
use crate::tree::schema::Schema;
use serde_json::{json, Value};

struct Site {
    chroma: FakeChroma,
    texts: Vec<(String, Access, String)>,
    built: Built,
}

fn access(public: bool, groups: &[&str]) -> Access {
    Access { is_public: public, groups: groups.iter().map(|g| g.to_string()).collect() }
}

/// A record of the index as the ingest writes it.
fn put(chroma: &FakeChroma, id: &str, text: &str) {
    chroma.put("docs", id, None, Value::Object(crate::pages::grams::shard::metadata_of(text)));
}

fn written(chroma: &FakeChroma, built: &Built) {
    for (id, text) in &built.records {
        put(chroma, id, text);
    }
}

impl Site {
    fn new(texts: Vec<(String, Access, String)>) -> Site {
        let chroma = FakeChroma::new();
        let pages: Vec<Page> = texts.iter().map(|(slug, access, text)| Page { slug, access, text }).collect();
        let built = build(&pages, None);
        written(&chroma, &built);
        Site { chroma, texts, built }
    }

    /// An ingest of `texts` after this one: `changed` pages have new text.
    fn again(&mut self, texts: Vec<(String, Access, String)>, changed: &[&str]) {
        let prev = Previous {
            manifest: self.built.manifest.clone(),
            pages: self.texts.iter().map(|(s, a, _)| (s.clone(), (self.built.numbers[s], a.clone()))).collect(),
            changed: changed.iter().map(|s| s.to_string()).collect(),
        };
        let pages: Vec<Page> = texts.iter().map(|(slug, access, text)| Page { slug, access, text }).collect();
        self.built = build(&pages, Some(&prev));
        written(&self.chroma, &self.built);
        self.texts = texts;
    }

    /// The pages a session of `groups` finds for `query`, by slug.
    fn find(&self, groups: &[&str], query: &GramQuery) -> Vec<String> {
        let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(self.chroma.clone())));
        let collection = Collection::new(client, self.chroma.collection("docs"), Schema::default(), None);
        let manifest: &Manifest = &self.built.manifest;
        let groups = Groups::new(groups.iter().copied());
        let classes: Vec<Vec<Segment>> = manifest.visible(&groups).map(|c| c.segments.clone()).collect();
        let (query, pages) = (query.clone(), manifest.pages);
        let found = block_on(async move {
            let refs: Vec<&[Segment]> = classes.iter().map(Vec::as_slice).collect();
            lookup(&collection, &RefCell::default(), &refs, &query, pages).await
        })
        .unwrap();
        let by_number: HashMap<u32, &str> = self.built.numbers.iter().map(|(s, n)| (*n, s.as_str())).collect();
        let mut slugs: Vec<String> = found.iter().map(|n| by_number[n].to_string()).collect();
        slugs.sort();
        slugs
    }

    /// What a scan finds: the visible pages holding every literal, in any case.
    fn scan(&self, groups: &[&str], literals: &[&str]) -> Vec<String> {
        let groups = Groups::new(groups.iter().copied());
        let mut out: Vec<String> = self
            .texts
            .iter()
            .filter(|(_, a, text)| groups.can_see(a) && literals.iter().all(|l| fold(text).contains(&fold(l))))
            .map(|(s, _, _)| s.clone())
            .collect();
        out.sort();
        out
    }
}

fn corpus(n: usize) -> Vec<(String, Access, String)> {
    (0..n)
        .map(|i| {
            let a = if i % 10 == 3 { access(false, &["staff"]) } else { access(true, &[]) };
            let secret = if i % 10 == 3 { " SECRET-ROTA" } else { "" };
            (format!("docs/p{i:04}.md"), a, format!("Page {i}: the Topic{} and Word{}{secret}\n", i % 37, i % 101))
        })
        .collect()
}

#[test]
fn the_index_finds_what_a_scan_finds_and_no_hidden_page() {
    let site = Site::new(corpus(600));
    for literals in [&["topic12"][..], &["TOPIC12", "word5"], &["secret-rota"], &["Page 42:"]] {
        let query = GramQuery::all(literals.iter().map(|l| GramQuery::literal(l)).collect());
        for groups in [&[][..], &["staff"]] {
            let found = site.find(groups, &query);
            let scanned = site.scan(groups, literals);
            for s in &scanned {
                assert!(found.contains(s), "{literals:?} {groups:?}: {s} missed");
            }
            let visible: Vec<&String> = site
                .texts
                .iter()
                .filter(|(_, a, _)| Groups::new(groups.iter().copied()).can_see(a))
                .map(|(s, _, _)| s)
                .collect();
            assert!(found.iter().all(|s| visible.contains(&s)), "{literals:?} {groups:?}: a hidden page found");
        }
    }
    assert!(site.find(&[], &GramQuery::literal("secret-rota")).is_empty());
}

#[test]
fn a_search_reads_its_records_in_one_round_of_requests_of_visible_classes_only() {
    let site = Site::new(corpus(600));
    site.chroma.clear_log();
    site.find(&[], &GramQuery::literal("zebra-unique"));
    let gets = site.chroma.gets();
    assert_eq!(gets.len(), 1, "one request");
    let ids: Vec<&str> = gets[0]["ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let staff = site.built.manifest.class(&access(false, &["staff"])).unwrap();
    assert!(
        ids.iter().all(|id| !id.starts_with(&segment_prefix(&staff.segments[0].id))),
        "no record of a hidden class is asked for"
    );
}

#[test]
fn after_edits_moves_and_removals_the_index_still_finds_what_a_scan_finds() {
    let mut site = Site::new(corpus(400));
    let mut texts = site.texts.clone();
    texts[10].2 = "rewritten: ZEBRA quokka\n".into();
    texts[20].1 = access(false, &["staff"]);
    texts[21].2 = "moved and rewritten: zebra\n".into();
    texts[21].1 = access(false, &["staff"]);
    texts.remove(30);
    texts.push(("docs/new.md".into(), access(true, &[]), "a new page about zebras\n".into()));
    let changed = ["docs/p0010.md", "docs/p0021.md", "docs/new.md"];
    site.again(texts, &changed);
    for groups in [&[][..], &["staff"]] {
        let visible = site.scan(groups, &[]);
        for literal in ["zebra", "topic20", "page 30:", "quokka", "Word21"] {
            // A prefilter: every page a scan finds, and only visible pages.
            let found = site.find(groups, &GramQuery::literal(literal));
            let scanned = site.scan(groups, &[literal]);
            assert!(scanned.iter().all(|s| found.contains(s)), "{literal} {groups:?}: {scanned:?} in {found:?}");
            assert!(found.iter().all(|s| visible.contains(s)), "{literal} {groups:?}: {found:?}");
        }
        let rewritten = site.find(groups, &GramQuery::literal("quokka"));
        assert_eq!(rewritten, site.scan(groups, &["quokka"]), "a word only a rewritten page holds: {groups:?}");
    }
}

#[test]
fn a_record_the_manifest_names_that_is_gone_or_torn_is_an_error_not_an_empty_list() {
    let site = Site::new(corpus(600));
    let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(site.chroma.clone())));
    let collection = Collection::new(client, site.chroma.collection("docs"), Schema::default(), None);
    let public = site.built.manifest.class(&access(true, &[])).unwrap().segments.clone();
    let query = GramQuery::literal("topic12");
    let ask = |collection: &Collection| {
        let (segments, query, pages) = (public.clone(), query.clone(), site.built.manifest.pages);
        let collection = collection.clone();
        block_on(async move { lookup(&collection, &RefCell::default(), &[segments.as_slice()], &query, pages).await })
    };
    let wanted: Vec<String> = ask(&collection).map(|_| site.chroma.gets()).unwrap().last().unwrap()["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    // Another collection's copy: what this process kept of the first is not used there.
    let other = FakeChroma::new();
    for (id, text) in &site.built.records {
        if id != &wanted[0] {
            put(&other, id, text);
        }
    }
    let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(other.clone())));
    let gone = Collection::new(client.clone(), other.collection("docs"), Schema::default(), None);
    assert_eq!(ask(&gone), Err(LookupError::Missing(wanted[0].clone())));
    assert_eq!(ask(&gone), Err(LookupError::Missing(wanted[0].clone())), "a record not there is remembered so");
    let third = FakeChroma::new();
    for (id, text) in &site.built.records {
        put(&third, id, if id == &wanted[0] { "not base64!" } else { text });
    }
    // The text of the old layout, where it was the record's document.
    let fourth = FakeChroma::new();
    for (id, text) in &site.built.records {
        fourth.put("docs", id, Some(text), json!({"chromafs": "grep-index"}));
    }
    let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(fourth.clone())));
    let documents = Collection::new(client, fourth.collection("docs"), Schema::default(), None);
    assert_eq!(ask(&documents), Err(LookupError::Torn(wanted[0].clone())));
    let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(third.clone())));
    let torn = Collection::new(client, third.collection("docs"), Schema::default(), None);
    assert_eq!(ask(&torn), Err(LookupError::Torn(wanted[0].clone())));
}

#[test]
fn a_session_reads_each_record_once_whether_it_is_there_or_not() {
    let site = Site::new(corpus(600));
    let client = Rc::new(Client::new(ClientConfig::new(URL), Rc::new(site.chroma.clone())));
    let collection = Collection::new(client, site.chroma.collection("docs"), Schema::default(), None);
    let public = site.built.manifest.class(&access(true, &[])).unwrap().segments.clone();
    let kept: Rc<RefCell<Kept>> = Rc::default();
    let ask = |literal: &str| {
        let (segments, query, pages) = (public.clone(), GramQuery::literal(literal), site.built.manifest.pages);
        let (collection, kept) = (collection.clone(), kept.clone());
        block_on(async move { lookup(&collection, &kept, &[segments.as_slice()], &query, pages).await }).unwrap()
    };
    let before = site.chroma.gets().len();
    let first = ask("topic12");
    let after_first = site.chroma.gets().len();
    assert!(after_first > before, "the first search reads the index");
    assert_eq!(ask("topic12"), first);
    assert_eq!(site.chroma.gets().len(), after_first, "the same search again asks Chroma nothing");
}
