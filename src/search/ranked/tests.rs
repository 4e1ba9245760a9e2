//! Ranked search over an in-memory Chroma: what ranks first, what is never shown, what
//! it costs, and what a failure looks like.

use super::*;
use crate::base::sync::LocalFuture;
use crate::chroma::transport::{HttpResponse, Transport};
use crate::fs::Filesystem;
use crate::options::Options;
use crate::testing::{block_on, chroma::URL, FakeChroma};
use crate::tree::access::Groups;
use serde_json::json;
use std::rc::Rc;

/// Topics a text is about, as a tiny embedding: one dimension per topic, by the words a
/// page or a question uses. Stands in for a model: paraphrases share a vector, not words.
const TOPICS: &[&[&str]] = &[
    &["credential", "secret", "token", "renew", "key"],
    &["invoice", "billing", "payment", "charge"],
    &["color", "theme", "font", "palette"],
];

struct Topics;

fn topic_vector(text: &str) -> Vec<f32> {
    let lower = text.to_ascii_lowercase();
    let mut v: Vec<f32> = TOPICS.iter().map(|t| t.iter().filter(|w| lower.contains(*w)).count() as f32).collect();
    v.push(0.1);
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter().map(|x| x / n).collect()
}

impl Embedder for Topics {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(async move { Ok(texts.iter().map(|t| topic_vector(t)).collect()) })
    }
}

struct Broken;

impl Embedder for Broken {
    fn embed(&self, _: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(async { Err("the model is not loaded".to_string()) })
    }
}

const PAGES: &[(&str, &str)] = &[
    ("guides/keys.md", "# Access\n\nCreate a credential in the dashboard.\nRenew a secret every 90 days.\n"),
    ("guides/billing.md", "# Billing\n\nEvery invoice lists each charge.\nPayment is due monthly.\n"),
    ("guides/theme.md", "# Look\n\nPick a color palette and a font.\n"),
    ("api/errors.md", "# Errors\n\nE401 means the token expired.\nE500 is ours.\n"),
    ("internal/rotation.md", "# Rotation runbook\n\nRenew every secret credential token key now.\nE401 rotate\n"),
];

/// The pages above as chromafs's ingest writes them, `internal/` for the admin group.
fn ingested() -> FakeChroma {
    let chroma = FakeChroma::new();
    let access = r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}}"#;
    crate::testing::ingest(&chroma, PAGES, access, 4096, Rc::new(Topics));
    chroma
}

/// The same pages as another tool writes them: slug and index on chunks, no access.
fn foreign() -> FakeChroma {
    foreign_with(&[])
}

/// [`foreign`] with more pages, hidden from the public (`(slug, chunks)`).
fn foreign_with(hidden: &[(&str, &[&str])]) -> FakeChroma {
    let chroma = FakeChroma::new();
    let mut pages: Vec<(&str, &[&str], serde_json::Value)> = PAGES
        .iter()
        .map(|(p, c)| {
            let access =
                if p.starts_with("internal/") { json!({"groups": ["admin"]}) } else { json!({"isPublic": true}) };
            (*p, std::slice::from_ref(c), access)
        })
        .collect();
    pages.extend(hidden.iter().map(|(p, chunks)| (*p, *chunks, json!({"groups": ["admin"]}))));
    chroma.pages("docs", &pages, json!({}));
    for (p, c) in PAGES {
        let v: Vec<f64> = topic_vector(c).iter().map(|x| *x as f64).collect();
        chroma.embed("docs", &format!("{p}#0"), &v);
    }
    chroma
}

fn session(chroma: &FakeChroma, groups: &[&str]) -> Rc<Filesystem> {
    let mut o = Options::new(URL, "docs");
    o.groups = Groups::new(groups.iter().copied());
    let t: Rc<dyn Transport> = Rc::new(chroma.clone());
    Rc::new(block_on(async move { Filesystem::connect(o, t, 0.0).await }).unwrap())
}

fn ask(
    fs: &Rc<Filesystem>,
    embedder: Option<Rc<dyn Embedder>>,
    text: &str,
    k: usize,
    dir: &str,
) -> Result<Vec<Hit>, RankError> {
    let (fs, q) =
        (fs.clone(), Query { text: text.into(), k, dir: dir.into(), mode: Mode::Hybrid, lang: None, version: None });
    block_on(async move { search(SessionView::new(&fs, None), embedder.as_deref(), &q).await })
}

fn paths(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.path.as_str()).collect()
}

#[test]
fn an_exact_identifier_ranks_its_page_first_with_the_lines_that_hold_it() {
    let chroma = ingested();
    let fs = session(&chroma, &[]);
    chroma.clear_log();
    let hits = ask(&fs, Some(Rc::new(Topics)), "what does E401 mean", 3, "/").unwrap();
    assert_eq!(hits[0].path, "/api/errors.md");
    let (start, end) = hits[0].lines.unwrap();
    assert_eq!((start, end), (1, 4), "the page's one chunk spans its four lines");
    assert_eq!(hits[0].snippet, Some((Some(3), "E401 means the token expired.".to_string())));
    assert!(chroma.requests().len() <= 3, "{} requests", chroma.requests().len());
}

#[test]
fn with_an_embedder_only_identifiers_are_asked_of_the_full_text_index() {
    let chroma = ingested();
    let fs = session(&chroma, &[]);
    chroma.clear_log();
    ask(&fs, Some(Rc::new(Topics)), "how do I renew a secret", 3, "/").unwrap();
    let asked = chroma.requests();
    assert_eq!(asked.len(), 1, "plain words rank the nearest chunks: {asked:?}");
    chroma.clear_log();
    ask(&fs, Some(Rc::new(Topics)), "how do I renew a secret after E401", 3, "/").unwrap();
    assert_eq!(chroma.requests().len(), 2, "an identifier is asked of the full-text index too");
    chroma.clear_log();
    ask(&fs, None, "how do I renew a secret", 3, "/").unwrap();
    assert!(format!("{:?}", chroma.requests()).contains("renew"), "without an embedder every word is asked");
}

#[test]
fn a_long_question_asks_within_cloud_full_text_limit_and_still_reaches_its_later_words() {
    let chroma = ingested();
    let fs = session(&chroma, &[]);
    chroma.clear_log();
    let hits = ask(&fs, None, "credential dashboard palette payment invoice rotate renew", 5, "/").unwrap();
    let gets = chroma.gets();
    assert_eq!(gets.len(), 2, "{gets:?}");
    for get in &gets {
        let leaves = crate::search::pattern::filter::count_leaves(&get["where_document"]);
        assert!(leaves <= 7, "{leaves} full-text predicates in {get}");
    }
    assert!(gets[1]["where_document"].to_string().contains("palette"), "the words that did not fit are asked next");
    // Seven topics' words: no chunk holds enough of the question to answer it (`floor`).
    assert!(hits.is_empty(), "{:?}", paths(&hits));
}

#[test]
fn a_chunk_holding_the_identifier_outranks_any_resemblance() {
    let chroma = ingested();
    let fs = session(&chroma, &["admin"]);
    // The runbook is nearer (every credential word) but only the errors page explains E500.
    let hits = ask(&fs, Some(Rc::new(Topics)), "renew secret credential token key E500", 2, "/").unwrap();
    assert_eq!(hits[0].path, "/api/errors.md", "{hits:?}");
    assert!(hits[0].score > hits[1].score, "scores stay in rank order: {hits:?}");
}

#[test]
fn a_paraphrase_finds_its_page_through_the_embedding() {
    let chroma = ingested();
    let fs = session(&chroma, &[]);
    let hits = ask(&fs, Some(Rc::new(Topics)), "where do I pay what I owe, the invoice", 1, "/").unwrap();
    assert_eq!(paths(&hits), ["/guides/billing.md"]);
    let hits = ask(&fs, Some(Rc::new(Topics)), "how can my palette change", 2, "/").unwrap();
    assert_eq!(hits[0].path, "/guides/theme.md", "no word in common but the topic: {hits:?}");
    let lexical = ask(&fs, None, "how can my palette change", 5, "/").unwrap();
    assert!(lexical.is_empty(), "without an embedder, half the question's words: no page answers");
    let lexical = ask(&fs, None, "how can my color palette be picked", 5, "/").unwrap();
    assert_eq!(paths(&lexical), ["/guides/theme.md"], "without an embedder: words alone");
}

/// Embeds passages as [`Topics`] does and questions apart, as multilingual-e5-small does:
/// a question's topics only once it is read as one.
struct QuestionsApart;

impl Embedder for QuestionsApart {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(async move { Ok(texts.iter().map(|_| topic_vector("")).collect()) })
    }

    fn embed_query(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Topics.embed(texts)
    }
}

#[test]
fn a_question_is_embedded_as_a_question() {
    let chroma = ingested();
    let fs = session(&chroma, &[]);
    // No page writes "theme": only the question's own vector finds the page.
    let hits = ask(&fs, Some(Rc::new(QuestionsApart)), "how do I switch the theme", 1, "/").unwrap();
    assert_eq!(paths(&hits), ["/guides/theme.md"]);
}

#[test]
fn a_hidden_page_is_never_shown_even_where_it_would_rank_first() {
    for chroma in [ingested(), foreign()] {
        let public = session(&chroma, &[]);
        let admin = session(&chroma, &["admin"]);
        for q in ["renew secret credential token key", "rotate the secret token", "rotation runbook"] {
            let seen = ask(&admin, Some(Rc::new(Topics)), q, 10, "/").unwrap();
            assert_eq!(seen[0].path, "/internal/rotation.md", "{q}: the admin's best page");
            for embedder in [Some(Rc::new(Topics) as Rc<dyn Embedder>), None] {
                let hits = ask(&public, embedder, q, 10, "/").unwrap_or_default();
                assert!(!hits.iter().any(|h| h.path.starts_with("/internal")), "{q}: {hits:?}");
            }
        }
        let hits = ask(&public, None, "runbook", 10, "/").unwrap();
        assert!(hits.is_empty(), "a word only the hidden page holds finds nothing: {hits:?}");
    }
}

#[test]
fn scores_and_counts_do_not_depend_on_hidden_pages() {
    // The public session of a collection with the hidden page, and of one without it.
    let with = ingested();
    let without = FakeChroma::new();
    let public: Vec<(&str, &str)> = PAGES.iter().filter(|(p, _)| !p.starts_with("internal/")).copied().collect();
    crate::testing::ingest(&without, &public, "{}", 4096, Rc::new(Topics));
    for q in ["renew the secret key", "E401 token", "invoice"] {
        let a = ask(&session(&with, &[]), Some(Rc::new(Topics)), q, 10, "/").unwrap();
        let b = ask(&session(&without, &[]), Some(Rc::new(Topics)), q, 10, "/").unwrap();
        assert_eq!(a, b, "{q}");
    }
}

#[test]
fn without_access_on_chunks_what_a_search_costs_does_not_depend_on_hidden_text() {
    let words: Vec<String> = (0..350).map(|i| format!("renew the secret token, step {i}\n")).collect();
    let chunks: Vec<&str> = words.iter().map(String::as_str).collect();
    let [plain, loaded] = [foreign(), foreign_with(&[("internal/rotate-all.md", &chunks)])];
    let mut seen = Vec::new();
    for chroma in [&plain, &loaded] {
        let fs = session(chroma, &[]);
        chroma.clear_log();
        let hits = ask(&fs, Some(Rc::new(Topics)), "renew secret token", 5, "/").unwrap();
        let asked: Vec<String> = chroma.requests().iter().map(|r| r.body.clone().unwrap_or_default()).collect();
        assert!(!asked.iter().any(|b| b.contains("where_document") || b.contains("query_embeddings")), "{asked:?}");
        seen.push((hits, asked));
        let cold = session(chroma, &[]);
        let q = Query {
            text: "renew secret token".into(),
            k: 5,
            dir: "/".into(),
            mode: Mode::Hybrid,
            lang: None,
            version: None,
        };
        let out = block_on(async move {
            cold.begin_command_within(crate::chroma::budget::Limits { max_requests: Some(1), timeout_ms: None });
            search(SessionView::new(&cold, None), None, &q).await.map_err(|e| e.to_string())
        });
        seen.push((out.clone().unwrap_or_default(), vec![out.err().unwrap_or_default()]));
    }
    assert_eq!(seen[0], seen[2], "the same pages, in the same order, from the same requests");
    assert_eq!(seen[1], seen[3], "and the same outcome under a budget of one request");
    assert!(!seen[0].0.is_empty() && !seen[0].0.iter().any(|h| h.path.starts_with("/internal")));
    let admin = session(&loaded, &["admin"]);
    loaded.clear_log();
    let hits = ask(&admin, None, "renew secret token", 5, "/").unwrap();
    assert!(hits.iter().any(|h| h.path == "/internal/rotate-all.md"), "{hits:?}");
    let asked = loaded.requests().iter().filter_map(|r| r.body.clone()).collect::<String>();
    assert!(asked.contains("where_document"), "a session with no hidden pages asks Chroma as before");
}

#[test]
fn path_scopes_the_search() {
    for chroma in [ingested(), foreign()] {
        let fs = session(&chroma, &["admin"]);
        let hits = ask(&fs, Some(Rc::new(Topics)), "token", 10, "/guides").unwrap();
        assert!(!hits.is_empty() && hits.iter().all(|h| h.path.starts_with("/guides/")), "{hits:?}");
        let hits = ask(&fs, None, "E401", 10, "/api").unwrap();
        assert_eq!(paths(&hits), ["/api/errors.md"]);
    }
}

#[test]
fn collections_of_other_tools_get_lines_from_their_pages() {
    let chroma = foreign();
    let fs = session(&chroma, &[]);
    let hits = ask(&fs, None, "E401", 1, "/").unwrap();
    assert_eq!(hits[0].lines, Some((1, 4)));
    assert_eq!(hits[0].snippet.as_ref().unwrap().0, Some(3));
}

#[test]
fn a_failure_is_an_error_never_no_results() {
    let chroma = ingested();
    let fs = session(&chroma, &[]);
    assert!(matches!(ask(&fs, Some(Rc::new(Broken)), "token", 5, "/"), Err(RankError::Embed(_))));
    assert!(matches!(ask(&fs, None, "?!", 5, "/"), Err(RankError::Empty)));
    chroma.set_fault(|_| Some(Ok(HttpResponse::new(500, r#"{"error":"down"}"#.to_string()))));
    let err = ask(&fs, None, "token", 5, "/").unwrap_err();
    assert!(matches!(err, RankError::Chroma(_)), "{err:?}");
    assert!(err.to_string().contains("500"), "{err}");
}

struct Named(&'static str, usize);

impl Embedder for Named {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        let n = self.1;
        Box::pin(async move { Ok(texts.iter().map(|_| vec![1.0; n]).collect()) })
    }

    fn model(&self) -> Option<&str> {
        Some(self.0)
    }
}

#[test]
fn another_model_or_dimension_is_told_not_ranked() {
    let chroma = ingested();
    let fs = session(&chroma, &[]);
    assert_eq!(
        fs.tree().embedding,
        Some(crate::base::embed::Embedding { model: "custom".into(), dimension: 4, method: None }),
        "ingest records the model and dimension in the manifest"
    );
    chroma.clear_log();
    let err = ask(&fs, Some(Rc::new(Topics4Wide)), "token", 3, "/").unwrap_err();
    assert!(matches!(err, RankError::Mismatch(_)), "{err:?}");
    assert!(err.to_string().contains("4 dimensions"), "{err}");
    let err = ask(&fs, Some(Rc::new(Named("all-MiniLM-L6-v2", 4))), "token", 3, "/").unwrap_err();
    assert!(err.to_string().contains("\"custom\""), "{err}");
    assert!(chroma.requests().is_empty(), "nothing is asked with a vector that cannot be compared");
}

/// The topic embedding padded to another dimension.
struct Topics4Wide;

impl Embedder for Topics4Wide {
    fn embed(&self, texts: Vec<String>) -> LocalFuture<'_, Result<Vec<Vec<f32>>, String>> {
        Box::pin(async move { Ok(texts.iter().map(|t| [topic_vector(t), vec![0.0; 4]].concat()).collect()) })
    }
}

/// One page in five languages, as docs sites lay translations out, and a hidden one.
const TRANSLATED: &[(&str, &str)] = &[
    ("guides/database.md", "# Database\n\nSet the database connection in astro.config.mjs.\n"),
    (
        "fr/guides/database.md",
        "# Base de données\n\nDéfinissez la connexion à la base de données dans astro.config.mjs.\n",
    ),
    ("ja/guides/database.md", "# データベース\n\nデータベースの接続は astro.config.mjs で設定します。\n"),
    ("zh-cn/guides/database.md", "# 数据库\n\n在 astro.config.mjs 中配置数据库连接。\n"),
    ("ko/guides/database.md", "# 데이터베이스\n\n데이터베이스 연결은 astro.config.mjs 에서 설정합니다.\n"),
    ("ja/guides/theme.md", "# テーマ\n\n色とフォントを選びます。\n"),
    ("ja/internal/keys.md", "# 秘密\n\nデータベースの接続の秘密の鍵はここにあります。データベース接続。\n"),
];

fn translated() -> FakeChroma {
    let chroma = FakeChroma::new();
    let access = r#"{"ja/internal/**": {"isPublic": false, "groups": ["admin"]}}"#;
    crate::testing::ingest(&chroma, TRANSLATED, access, 4096, Rc::new(Topics));
    chroma
}

fn ask_in(fs: &Rc<Filesystem>, embedder: Option<Rc<dyn Embedder>>, text: &str, lang: Option<&str>) -> Vec<Hit> {
    let q = Query {
        text: text.into(),
        k: 10,
        dir: "/".into(),
        mode: Mode::Hybrid,
        lang: lang.map(str::to_string),
        version: None,
    };
    let fs = fs.clone();
    block_on(async move { search(SessionView::new(&fs, None), embedder.as_deref(), &q).await }).unwrap()
}

#[test]
fn a_question_finds_the_page_in_its_own_language_first() {
    let chroma = translated();
    let fs = session(&chroma, &[]);
    for embedder in [None, Some(Rc::new(Topics) as Rc<dyn Embedder>)] {
        for (q, first) in [
            ("データベースの接続を設定する方法", "/ja/guides/database.md"),
            ("如何配置数据库连接", "/zh-cn/guides/database.md"),
            ("데이터베이스 연결을 설정하려면", "/ko/guides/database.md"),
            ("Comment définir la connexion à la base de données dans astro.config.mjs ?", "/fr/guides/database.md"),
            ("How do I set the database connection in astro.config.mjs", "/guides/database.md"),
        ] {
            let hits = ask_in(&fs, embedder.clone(), q, None);
            assert_eq!(hits.first().map(|h| h.path.as_str()), Some(first), "{q}: {hits:?}");
            assert!(!hits.iter().any(|h| h.path.contains("/internal/")), "{q}: {hits:?}");
        }
    }
    let admin = session(&chroma, &["admin"]);
    let hits = ask_in(&admin, None, "データベースの接続の秘密", None);
    assert_eq!(hits[0].path, "/ja/internal/keys.md", "the admin sees it: {hits:?}");
}

#[test]
fn lang_keeps_to_the_pages_of_one_language() {
    let chroma = translated();
    let fs = session(&chroma, &[]);
    for embedder in [None, Some(Rc::new(Topics) as Rc<dyn Embedder>)] {
        // With an embedder every page is someone's neighbour: what counts is which.
        let hits = ask_in(&fs, embedder.clone(), "astro.config.mjs database", Some("ko"));
        assert_eq!(paths(&hits), ["/ko/guides/database.md"]);
        let hits = ask_in(&fs, embedder.clone(), "astro.config.mjs", Some("en"));
        assert_eq!(paths(&hits), ["/guides/database.md"], "unprefixed pages are the default language");
        let hits = ask_in(&fs, embedder, "データベース", Some("ja"));
        assert_eq!(hits[0].path, "/ja/guides/database.md");
        assert!(hits.iter().all(|h| h.path.starts_with("/ja/guides/")), "never the hidden page: {hits:?}");
    }
}

/// Twenty public pages, five of them saying one thing in the same words (equal vectors,
/// equal distances), and, when `hidden`, two hundred admin pages nearer every question.
fn crowded(hidden: bool) -> FakeChroma {
    let mut pages: Vec<(String, String)> = (0..20)
        .map(|i| {
            let text = match i % 4 {
                0 => "Renew a secret credential token from the dashboard.".to_string(),
                1 => format!("Invoice {i} lists each charge and payment."),
                2 => format!("Pick a color palette and a font, number {i}."),
                _ => format!("Page {i}: a key, an invoice and a theme."),
            };
            (format!("guides/p{i:02}.md"), format!("# Page {i}\n\n{text}\n"))
        })
        .collect();
    if hidden {
        let runbook = |i: usize| {
            (
                format!("internal/r{i:03}.md"),
                format!("# Runbook {i}\n\nRenew secret credential token key invoice color {i}.\n"),
            )
        };
        pages.extend((0..200).map(runbook));
    }
    let chroma = FakeChroma::new();
    let pages: Vec<(&str, &str)> = pages.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let access = if hidden { r#"{"internal/**": {"isPublic": false, "groups": ["admin"]}}"# } else { "{}" };
    crate::testing::ingest(&chroma, &pages, access, 4096, Rc::new(Topics));
    // Its index answers from the 64 records nearest to a question, hidden ones included.
    chroma.approximate("docs", 64);
    chroma
}

#[test]
fn the_nearest_chunks_depend_on_the_visible_ones_alone_not_on_the_index() {
    let (without, with) = (crowded(false), crowded(true));
    for text in ["renew the secret token", "invoice payment", "palette", "token invoice theme"] {
        for k in [1, 3, 10] {
            for mode in [Mode::Hybrid, Mode::Dense] {
                let q = Query { text: text.into(), k, dir: "/".into(), mode, lang: None, version: None };
                let run = |chroma: &FakeChroma| {
                    let (fs, q) = (session(chroma, &[]), q.clone());
                    chroma.clear_log();
                    let hits =
                        block_on(async move { search(SessionView::new(&fs, None), Some(&Topics), &q).await }).unwrap();
                    (hits, chroma.requests().len())
                };
                let (a, b) = (run(&without), run(&with));
                assert_eq!(a, b, "{text}, k {k}, {mode:?}: the same pages, scores and lines, at the same cost");
                assert!(!a.0.is_empty());
            }
        }
    }
    // The five pages of one sentence tie: they rank by id, whatever order an answer holds.
    let q = Query {
        text: "renew the secret token".into(),
        k: 5,
        dir: "/".into(),
        mode: Mode::Dense,
        lang: None,
        version: None,
    };
    let fs = session(&with, &[]);
    let hits = block_on(async move { search(SessionView::new(&fs, None), Some(&Topics), &q).await }).unwrap();
    assert_eq!(
        paths(&hits),
        ["/guides/p00.md", "/guides/p04.md", "/guides/p08.md", "/guides/p12.md", "/guides/p16.md"]
    );
}

#[test]
fn a_scope_too_large_to_read_whole_asks_the_index_for_more_than_it_keeps() {
    let texts: Vec<(String, String)> = (0..320)
        .map(|i| (format!("p{i:03}.md"), format!("Renew a secret, invoice {i}, palette {}.\n", i % 7)))
        .collect();
    let pages: Vec<(&str, &str)> = texts.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let chroma = FakeChroma::new();
    crate::testing::ingest(&chroma, &pages, "{}", 4096, Rc::new(Topics));
    let fs = session(&chroma, &[]);
    chroma.clear_log();
    let hits = ask(&fs, Some(Rc::new(Topics)), "renew the secret", 3, "/").unwrap();
    assert_eq!(hits.len(), 3);
    let asked: Vec<serde_json::Value> =
        chroma.requests().iter().filter_map(|r| serde_json::from_str(r.body.as_deref()?).ok()).collect();
    assert_eq!(asked.len(), 1, "one request: {asked:?}");
    assert_eq!(asked[0]["n_results"], 150, "three times the 50 neighbours kept");
}
