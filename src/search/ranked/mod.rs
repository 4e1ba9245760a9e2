//! Ranked search: the pages that best answer a question, beside grep's exact matches.
//!
//! An agent that starts from a user's question often cannot guess the string grep needs.
//! A ranked search takes the question as words and, when the session has an embedder, as
//! a vector, and fuses two rankings over the same collection ([`chunks`], [`score`]): the
//! nearest neighbours of the question's embedding, for the words a page uses instead of
//! the user's, and BM25 over the chunks at hand, so identifiers, error codes and option
//! names rank first even where embeddings miss them. Pages are ranked by their best chunk
//! and shown with that chunk's lines ([`hits`]), so the agent can read them with `sed -n`,
//! and grep takes it from there.
//!
//! With an embedder, the chunks BM25 scores are the nearest ones and those holding the
//! question's identifiers: only identifiers are asked of Chroma's full-text filter, which
//! single-node Chroma answers by scanning its full-text table (slower the larger the
//! collection), while plain words are already in the nearest chunks. A question in plain
//! words is one request; with identifiers two, three when that answer came back full.
//! Without an embedder every word is asked of the filter, and again without the commonest
//! when the first answer was full. (Pages without `start_line` add one bulk read.)
//!
//! Where Chroma's answers would depend on hidden text (chunks without access, a session
//! with hidden pages), the search reads its scope and ranks by words alone ([`scan`]).
//! Where they may depend on it in order only, the order is decided here: the nearest
//! chunks by their distances ([`nearest`]: exactly, for a scope that fits one answer, as
//! Chroma's approximate index cannot promise), and every tie, in distance or in score, by
//! chunk id.

mod chunks;
pub(crate) mod command;
pub(crate) mod elsewhere;
mod fields;
mod floor;
mod hits;
pub(crate) mod lang;
mod nearest;
mod scan;
mod score;
mod script;
mod words;

use crate::base::embed::{Embedder, Embedding};
use crate::base::sync::join_all;
use crate::base::sync::LocalFuture;
use crate::chroma::ChromaError;
use crate::pages::store::PrefetchError;
use crate::search::view::SessionView;
use chunks::{Chunk, Reach};
pub(crate) use hits::Hit;
use std::fmt;

/// Neighbours asked for per page shown, when Chroma scopes them by access (most pages
/// have several chunks near a question), and when it cannot (the listing drops hidden ones).
const NEIGHBOURS_PER_HIT: usize = 5;
const NEIGHBOURS_PER_HIT_UNSCOPED: usize = 15;
const MIN_NEIGHBOURS: usize = 50;

/// What to search for.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    pub text: String,
    /// Pages to show.
    pub k: usize,
    /// The directory searched, normalised (`/` for everything).
    pub dir: String,
    pub mode: Mode,
    /// The language the pages must be in (`--lang`), checked by [`lang::parse`]; without
    /// it, the pages in the question's language rank first (but for the default language).
    pub lang: Option<String>,
    /// The version of the docs searched (`--version`), with the pages of none: checked
    /// against the session's when the search runs ([`Filesystem::version_listing`]).
    ///
    /// [`Filesystem::version_listing`]: crate::fs::Filesystem::version_listing
    pub version: Option<String>,
}

/// Which rankings a search fuses: both (the default), or one alone (to compare them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Mode {
    #[default]
    Hybrid,
    Lexical,
    Dense,
}

/// Why a ranked search has no answer. Never "no results": the caller shows it.
#[derive(Debug)]
pub(crate) enum RankError {
    /// The query has nothing to search for.
    Empty,
    Embed(String),
    /// The session's embedder is not the collection's model.
    Mismatch(String),
    Chroma(ChromaError),
    Load(PrefetchError),
    /// A page of the scope could not be read ([`scan`]).
    Scan(scan::ScanError),
    /// Nearest neighbours were asked for where Chroma cannot leave hidden pages out.
    Unscoped,
    /// No version of that name: the versions there are.
    Version(String),
}

impl fmt::Display for RankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankError::Empty => f.write_str("the query has no words to search for"),
            RankError::Embed(why) => write!(f, "the embedding function failed: {why}"),
            RankError::Mismatch(why) => write!(f, "{why}: embed queries with the collection's model"),
            RankError::Chroma(e) => write!(f, "{e}"),
            RankError::Load(e) => write!(f, "{e}"),
            RankError::Scan(e) => write!(f, "{e}"),
            RankError::Version(why) => f.write_str(why),
            RankError::Unscoped => f.write_str(
                "nearest neighbours would include pages this session may not see: this collection's chunks carry no access (chromafs annotate writes it)",
            ),
        }
    }
}

/// A ranking of chunks (and their distances, for nearest neighbours), or why there is none.
type Ranked = Result<(Vec<Chunk>, Vec<f64>), ChromaError>;

/// [`search`] for a session, recorded in its `fs.stats()` as the command `args`; a search
/// of one version that finds nothing says which other versions' pages answer
/// ([`elsewhere`]).
pub(crate) async fn recorded(
    fs: &crate::fs::Filesystem,
    embedder: Option<&dyn Embedder>,
    q: &Query,
    args: &[String],
) -> Result<elsewhere::Found, RankError> {
    let mut cs = crate::fs::stats::CommandStats::new("search", args);
    let before = fs.requests();
    let view = SessionView::new(fs, None);
    let found = match q.version.as_deref().map(|v| fs.version_listing(v)).transpose() {
        Err(why) => Err(RankError::Version(why)),
        Ok(None) => search(view, embedder, q).await.map(|hits| elsewhere::Found { hits, ..Default::default() }),
        Ok(Some(listing)) => match (search(view.over(&listing), embedder, q).await, q.version.as_deref()) {
            (Ok(hits), Some(v)) if hits.is_empty() && elsewhere::worth_asking(fs, v) => {
                elsewhere::other_versions(fs, embedder, q, v).await.map(|e| elsewhere::Found { hits, elsewhere: e })
            }
            (found, _) => found.map(|hits| elsewhere::Found { hits, ..Default::default() }),
        },
    };
    cs.coarse_requests = fs.requests() - before;
    cs.native = true;
    if let Err(e) = &found {
        cs.note = Some(format!("stopped: {e}"));
    }
    fs.record(cs);
    found
}

/// The `k` pages that best answer `q` among those the session sees, best first.
pub(crate) async fn search(
    view: SessionView<'_>,
    embedder: Option<&dyn Embedder>,
    q: &Query,
) -> Result<Vec<Hit>, RankError> {
    // What follows the query's first words is not read (a pasted log costs what a question costs).
    let text = words::bounded(&q.text);
    // A contraction's pieces are stopwords in an English question only (see [`words::terms`]).
    let english = lang::detect(text).is_none_or(|l| l == lang::DEFAULT_LANGUAGE);
    let terms = words::terms(text, english);
    if terms.is_empty() || q.k == 0 {
        return if terms.is_empty() { Err(RankError::Empty) } else { Ok(Vec::new()) };
    }
    let language = lang::preference(q.lang.as_deref(), text);
    if view.unscoped() {
        if q.mode == Mode::Dense {
            return Err(RankError::Unscoped);
        }
        let (best, coverage, identifier) = scan::best(view, &q.dir, &terms, q.k).await.map_err(RankError::Scan)?;
        if !(floor::Evidence { coverage, similarity: None, identifier }).answers(floor_of(
            view,
            language.as_ref(),
            true,
        )) {
            return Ok(Vec::new());
        }
        let pool: Vec<Chunk> = best.iter().map(|(c, _)| c.clone()).collect();
        let mut shown: Vec<(&Chunk, f64)> = pool.iter().zip(&best).map(|(c, (_, s))| (c, *s)).collect();
        if let Some(p) = language.as_ref().filter(|p| p.only) {
            shown.retain(|(c, _)| c.lang == p.lang);
        }
        return hits::hits(view, &shown, &pool, &terms).await;
    }
    let embedding =
        match (embedder, q.mode) {
            (_, Mode::Lexical) => None,
            (Some(e), _) => {
                let embedded = view.before_deadline(embed_query(e, text, view.embedding(), view.dimension())).await;
                Some(embedded.unwrap_or_else(|ms| {
                    Err(RankError::Embed(format!("no answer within {ms} ms (commandTimeoutMs)")))
                })?)
            }
            (None, Mode::Dense) => return Err(RankError::Embed("a dense search needs an embedding function".into())),
            (None, _) => None,
        };
    let reach = Reach { view, dir: &q.dir };
    let per_hit = if reach.scoped() { NEIGHBOURS_PER_HIT } else { NEIGHBOURS_PER_HIT_UNSCOPED };
    let hybrid = embedding.is_some() && q.mode == Mode::Hybrid;
    let asked: Vec<String> = match q.mode {
        Mode::Dense => Vec::new(),
        _ if hybrid => terms.iter().filter(|t| words::is_identifier(t) || words::is_camel(t, text)).cloned().collect(),
        _ => terms.clone(),
    };
    // Chinese, Japanese and Korean words reach the full-text filter as pieces of three
    // characters, and are asked for even with an embedder: a model may not read them.
    let probes = if q.mode == Mode::Dense { Vec::new() } else { script::probes(text, chunks::FILTER_PROBES) };
    // The words re-score the neighbours in a hybrid search: twice as many to choose from.
    let neighbours = ((if hybrid { 2 } else { 1 }) * q.k * per_hit).clamp(MIN_NEIGHBOURS, crate::chroma::MAX_PAGE);
    let containing = async { reach.containing(&asked, &probes, text).await.map(|c| (c, Vec::new())) };
    let mut asks: Vec<LocalFuture<'_, Ranked>> = vec![Box::pin(containing)];
    if let Some(v) = embedding {
        asks.push(Box::pin(nearest::nearest(&reach, v, neighbours)));
    }
    let mut answers = join_all(asks).await.into_iter();
    let (lexical, _) = answers.next().expect("asked").map_err(RankError::Chroma)?;
    let (dense, distances) = match answers.next().transpose().map_err(RankError::Chroma)? {
        Some((d, n)) => (Some(d), Some(n)),
        None => (None, None),
    };
    let total = chunks_searched(view, &q.dir) as f64;
    let mut all: Vec<Chunk> = lexical;
    let mut seen: std::collections::HashSet<String> = all.iter().map(|c| c.id.clone()).collect();
    all.extend(dense.iter().flatten().filter(|c| seen.insert(c.id.clone())).cloned());
    // In id order, so that what breaks a tie between equal scores is the chunks' ids,
    // never the order Chroma's answers came in.
    crate::base::sort::sort_by(&mut all, |a, b| a.id.cmp(&b.id));
    let kept = |c: &Chunk| language.as_ref().is_none_or(|p| !p.only || c.lang == p.lang);
    all.retain(kept);
    let (dense, distances): (Option<Vec<Chunk>>, Vec<f64>) = match dense {
        Some(d) => {
            let (d, n): (Vec<Chunk>, Vec<f64>) =
                d.into_iter().zip(distances.unwrap_or_default()).filter(|(c, _)| kept(c)).unzip();
            (Some(d), n)
        }
        None => (None, Vec::new()),
    };
    let pool: &[Chunk] = if q.mode == Mode::Dense { &[] } else { &all };
    // Every chunk found is counted: the words are evidence that a page answers (`floor`)
    // even where they do not rank (`mode: "dense"`, whose chunks are the nearest alone).
    let titles = fields::titles(&all);
    let weights = fields::WEIGHTS;
    let counted: Vec<score::Counted> = all
        .iter()
        .map(|c| fields::counted(c, titles.get(c.path.as_str()).map(String::as_str), &terms, weights))
        .collect();
    let evidence = floor::Evidence {
        coverage: floor::coverage(&counted, terms.len(), total),
        similarity: distances.first().filter(|d| d.is_finite()).map(|d| floor::similarity(view.space(), *d)),
        identifier: floor::identifier_held(&counted, &terms),
    };
    if !evidence.answers(floor_of(view, language.as_ref(), evidence.similarity.is_none())) {
        return Ok(Vec::new());
    }
    let ranked_by_words: &[score::Counted] = if pool.is_empty() { &[] } else { &counted };
    let by_words: Vec<&str> =
        score::bm25_counted(ranked_by_words, terms.len(), total).into_iter().map(|(i, _)| all[i].id.as_str()).collect();
    let mut rankings = vec![by_words];
    if let Some(dense) = &dense {
        rankings.push(dense.iter().map(|c| c.id.as_str()).collect());
    }
    let mut fused = score::fuse(&rankings);
    score::identifiers_first(&mut fused, &all, &terms);
    if let Some(p) = language.as_ref().filter(|p| p.only || p.lang != lang::DEFAULT_LANGUAGE) {
        score::language_first(&mut fused, &all, p.lang, terms.len());
    }
    let best = hits::best_pages(&all, &fused, q.k);
    hits::hits(view, &best, &all, &terms).await
}

/// The floors a search in the language `language` prefers is held to, over the session's
/// collection, by its words alone (`words`) or beside the meaning (see [`floor::Floor`]).
fn floor_of(view: SessionView<'_>, language: Option<&lang::Preference>, words: bool) -> floor::Floor {
    floor::Floor::of(language.map(|p| p.lang), view.embedding().map(|e| e.model.as_str()), words)
}

/// The query's embedding: exactly one vector of finite numbers, from the model that
/// embedded the collection when its manifest says which (a ranking that compares two
/// models' vectors would look like an answer and mean nothing), as long as the
/// collection's own vectors (`dimension`, Chroma's figure) when the manifest says nothing.
async fn embed_query(
    embedder: &dyn Embedder,
    text: &str,
    collection: Option<&Embedding>,
    dimension: Option<usize>,
) -> Result<Vec<f32>, RankError> {
    if let (Some(c), Some(mine)) = (collection, embedder.model()) {
        if c.model != mine {
            return Err(RankError::Mismatch(format!(
                "the collection was embedded with {:?} and this session embeds with {mine:?}",
                c.model
            )));
        }
    }
    let mut vectors = embedder.embed_query(vec![text.to_string()]).await.map_err(RankError::Embed)?;
    let v = match (vectors.len(), vectors.first()) {
        (1, Some(v)) if !v.is_empty() && v.iter().all(|x| x.is_finite()) => vectors.swap_remove(0),
        (n, _) => {
            let why = format!("expected one vector of finite numbers for the query, got {n} vectors");
            return Err(RankError::Embed(why));
        }
    };
    match collection {
        Some(c) if c.dimension != v.len() => Err(RankError::Mismatch(format!(
            "the collection's vectors have {} dimensions ({:?}) and this session's have {}",
            c.dimension,
            c.model,
            v.len()
        ))),
        None if dimension.is_some_and(|d| d != v.len()) => Err(RankError::Mismatch(format!(
            "the collection's vectors have {} dimensions and this session's have {}",
            dimension.unwrap_or(0),
            v.len()
        ))),
        _ => Ok(v),
    }
}

/// How many chunks the visible pages under `dir` have (pages whose count the tree does
/// not give count as one): the collection size BM25 weighs a term's rarity against.
fn chunks_searched(view: SessionView<'_>, dir: &str) -> u64 {
    view.chunks_under(dir)
}

#[cfg(test)]
mod tests;
