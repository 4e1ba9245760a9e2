//! Running a search: plan → coarse query → page store → fine check → the command.
//!
//! The runner composes the pieces the way ripgrep's core composes matcher, searcher and
//! printer: [`plan`](mod@plan) decides what the command reads, the
//! grep index or the [`coarse`](crate::search::coarse) query says which of those pages may
//! match ([`candidates`]), the page
//! store loads the candidates in bulk, the matcher's fine check drops pages that cannot
//! match after all, and the [`native`](crate::search::native) grep — or, outside what it models,
//! just-bash's own command run by the host over the files that are left — does the
//! matching and printing. Every step may only keep too much, never
//! too little, so the output is the command's output over the whole scope.
//!
//! The command line is parsed once, into a [`Job`] every step reads; the native command
//! is prepared once from it, over the whole scope, and a narrowing hands it the files
//! that are left rather than a new command line. Arguments are spelled again only for a
//! command handed back to just-bash.

use crate::base::hash::PathSet;
use crate::commands::walk::Policy;
use crate::commands::Place;
use crate::commands::Printed;
use crate::fs::stats::{CommandStats, PlanKind};
use crate::fs::DEV_NULL;
use crate::pages::store::{PageRef, PrefetchError, Source, Within};
use crate::search::job::{Job, Parsed};
use crate::search::native::early_stop::EarlyStop;
use crate::search::native::{pattern_files, Native};
#[cfg(test)]
use crate::search::plan::MAX_PATTERN_BYTES;
use crate::search::plan::{self, refusal, Context, Narrowing, Plan};
use crate::search::view::{common_dir, SessionView};
use crate::search::walk::{walk, Target};
#[cfg(test)]
use candidates::UNSCOPED_NOTE;

/// What a search narrowed by the grep index says when it reads its candidates as the command does.
const INDEX_WIDE_NOTE: &str =
    "the grep index kept more pages than the cache holds: read ahead as the command reads, and checked there";

/// A load the search could not do without: where, and why.
struct Failed {
    path: String,
    error: PrefetchError,
}

/// What to do with a search command.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// Run it with these arguments (the original ones unless the search was narrowed).
    Run(Vec<String>),
    /// The pages it needs cannot be loaded: it must not run on what happens to be in
    /// memory, and the failure is in the session's journal for the command to report.
    Failed,
    /// Do not run it, for this reason.
    Refused(String),
    /// Answered here: what the command prints.
    Printed(Printed),
}

/// A search's result, and what the session records about it.
pub(crate) struct Searched {
    pub(crate) outcome: Outcome,
    /// What the command cost, for `view.stats()`.
    pub(crate) stats: CommandStats,
    /// The load it could not do without (with [`Outcome::Failed`]), for the journal.
    pub(crate) failure: Option<(String, PrefetchError)>,
}

/// How a search command is run, beside its command line.
#[derive(Debug, Clone)]
pub(crate) struct Invocation {
    /// Its standard input is empty.
    pub(crate) stdin_empty: bool,
    /// It reads this filesystem itself (not a host's filesystem that mounts it
    /// elsewhere): only then can it be answered here.
    pub(crate) own_fs: bool,
    /// Its output's reader takes only this many lines (`| head -n N`).
    pub(crate) lines_wanted: Option<usize>,
    /// Its standard input, when the host passed it (a command given none reads nothing).
    pub(crate) stdin: Option<String>,
    /// The file its standard output goes to, when the host knows it.
    pub(crate) stdout_file: Option<String>,
}

/// The arguments of an rg handed to just-bash because of an option it is always handed
/// over for (`-U` with a pattern that can match a line break, `--pre`), told what ripgrep
/// does unasked with its output not a terminal: `-s` first (just-bash's rg ignores case
/// for a lower-case pattern), and `-N` first unless line numbers are asked for (just-bash's
/// rg numbers lines); a later `-i`, `-S` or `-n` still wins, in both. Any other rg goes to
/// just-bash as typed, and prints just-bash's answer.
fn as_ripgrep(job: &Job, mut args: Vec<String>) -> Vec<String> {
    let Parsed::Rg(r) = &job.parsed else { return args };
    if !(r.spans_lines(&job.patterns) || r.preprocessor) {
        return args;
    }
    if !(r.output.explicit_line_numbers || r.output.column || r.output.vimgrep) {
        args.insert(0, "-N".into());
    }
    args.insert(0, "-s".into());
    args
}

/// Plans and prepares one search command, and answers it here when its output is
/// modelled exactly.
pub(crate) async fn run(view: SessionView<'_>, name: &str, args: Vec<String>, cwd: &str, how: Invocation) -> Searched {
    let Invocation { stdin_empty, own_fs, .. } = how;
    let stdin = how.stdin;
    let mut cs = CommandStats::new(name, &args);
    if !own_fs {
        // Its paths are the host's: this listing cannot say what they hold.
        cs.delegated = Some("the command reads another filesystem".into());
        let refused = refusal(&args);
        let outcome = refused.map_or(Outcome::Run(args), Outcome::Refused);
        return Searched { outcome, stats: cs, failure: None };
    }
    let mut job = Job::parse(name, args, cwd);
    job.stdin = stdin;
    job.stdout_file = how.stdout_file.map(|f| crate::base::path::normalize(&f));
    if view.native_commands() {
        if let Err(printed) = pattern_files::read_first(view, &mut job).await {
            cs.native = true;
            return Searched { outcome: Outcome::Printed(printed), stats: cs, failure: None };
        }
    }
    // Prepared once, over the whole scope: a narrowing only takes files away from it.
    let native = (view.native_commands() && refusal(&job.args).is_none())
        .then(|| Native::prepare(&job, view.place(&job.cwd), stdin_empty).map_err(|why| why.0));
    // Only a command answered here can stop early; just-bash's runs to the end.
    let wanted = how.lines_wanted.filter(|_| matches!(native, Some(Ok(_))));
    if let Some(Ok(grep)) = &native {
        if let Some(answered) = before_planning(view, grep, wanted, &mut cs).await {
            let (outcome, failure) = match answered {
                Ok(printed) => (Outcome::Printed(printed), None),
                Err(failure) => (Outcome::Failed, Some(failure)),
            };
            return Searched { outcome, stats: cs, failure };
        }
    }
    let answered_here = matches!(native, Some(Ok(_)));
    let (outcome, failure) = match prepare(view, &job, stdin_empty, wanted, answered_here, &mut cs).await {
        Ok(read) => {
            let native = native.unwrap_or_else(|| Err("native commands are off".into()));
            match answer(view, &job, native, read, wanted, &mut cs).await {
                Ok(outcome) => (outcome, None),
                Err(f) => (Outcome::Failed, Some((f.path, f.error))),
            }
        }
        Err(Stop::Refused(why)) => (Outcome::Refused(why), None),
        Err(Stop::Failed(f)) => (Outcome::Failed, Some((f.path, f.error))),
    };
    let outcome = match outcome {
        Outcome::Run(args) if view.native_commands() => Outcome::Run(as_ripgrep(&job, args)),
        other => other,
    };
    Searched { outcome, stats: cs, failure }
}

/// A search answered before it is planned: from memory, (for `head`) from its first
/// pages, or from its scope read whole; or the load it could not do without.
async fn before_planning(
    view: SessionView<'_>,
    grep: &Native,
    wanted: Option<usize>,
    cs: &mut CommandStats,
) -> Option<Result<Printed, (String, PrefetchError)>> {
    if let Some(lines) = wanted {
        // The first pages first: a common word fills `head` from a small load.
        if let Some(printed) = head_in_memory(view, grep, lines, cs).await {
            return Some(Ok(printed));
        }
        if let Some(printed) = first_pages(view, grep, lines, cs).await {
            return Some(Ok(printed));
        }
    }
    // The pages it reads, looked up once for both of what follows.
    let pages: Vec<PageRef> = grep.paths().filter_map(|p| view.page(p)).collect();
    if wanted.is_none() {
        if let Some(printed) = in_memory(view, grep, &pages, cs).await {
            return Some(Ok(printed));
        }
    }
    whole::read_whole(view, grep, &pages, wanted, cs).await
}

/// Why a prepared search does not run.
enum Stop {
    Refused(String),
    Failed(Failed),
}

/// A search answered natively without asking Chroma anything, when every page it reads
/// is in memory already: reading them here costs less than the coarse query's round trip.
async fn in_memory(view: SessionView<'_>, grep: &Native, pages: &[PageRef], cs: &mut CommandStats) -> Option<Printed> {
    if !pages.iter().all(|p| view.store().is_cached(&p.key)) {
        return None;
    }
    let printed = grep.run(view, None).await?;
    cs.scope = pages.len() as u64;
    cs.plan = PlanKind::Memory;
    cs.native = true;
    cs.note = Some("every page it reads was in memory: Chroma was not asked".into());
    Some(printed)
}

/// A search whose reader takes only its first `lines`, answered without asking Chroma
/// anything when the pages holding those lines are in memory.
async fn head_in_memory(view: SessionView<'_>, grep: &Native, lines: usize, cs: &mut CommandStats) -> Option<Printed> {
    let printed = from_memory(view, grep, lines).await?;
    cs.native = true;
    cs.plan = PlanKind::Memory;
    cs.note = Some("its output goes to `head`, and the pages holding the lines it takes were in memory".into());
    Some(printed)
}

/// A search whose reader takes only its first `lines`, answered from its first pages
/// when they hold those lines, after one bulk load of the pages
/// its walk reads first (a common word is answered without asking Chroma which pages
/// match; for a rare one this costs a request before the coarse query).
async fn first_pages(view: SessionView<'_>, grep: &Native, lines: usize, cs: &mut CommandStats) -> Option<Printed> {
    // Pages in the walk's order until they hold the first window's chunks.
    let mut chunks = 0;
    let first: Vec<PageRef> = grep
        .paths()
        .filter_map(|p| view.page(p))
        .take_while(|page| {
            let room = chunks < first_window(lines);
            chunks += chunk_count(page).unwrap_or(1);
            room
        })
        .collect();
    let before = view.requests();
    let loaded = view.store().prefetch(&first).await;
    cs.prefetch_requests = view.requests() - before;
    loaded.ok()?;
    let printed = from_memory(view, grep, lines).await?;
    cs.native = true;
    cs.plan = PlanKind::Prefetch;
    cs.scope = first.len() as u64;
    cs.note = Some("its output goes to `head`: the lines it takes were in the first pages the command reads, loaded together; Chroma was not asked which pages match".into());
    Some(printed)
}

/// The command over the pages in memory, when they hold the lines its reader takes (or
/// all it reads).
async fn from_memory(view: SessionView<'_>, grep: &Native, lines: usize) -> Option<Printed> {
    let mut taken = EarlyStop::from_memory(lines);
    let printed = grep.run_taken(view, Some(&mut taken)).await;
    printed.filter(|_| !taken.ran_out())
}

/// What a prepared search reads: its scope as typed, or the files a narrowing kept (and,
/// when the command reads them as they load, the load).
enum Reads {
    AsTyped,
    Narrowed { n: Box<Narrowing>, kept: PathSet<String>, loading: Option<Loading> },
}

/// Candidates the command reads as they load, unchecked: each page as soon as the request
/// holding it is answered, so its matching and printing run while Chroma answers for the
/// rest (see [`fine::Sizes::read_as_loaded`]).
struct Loading {
    pages: Vec<PageRef>,
    scope: Option<Within>,
    /// Where a failed load is reported ([`shown`]).
    shown: String,
}

impl Reads {
    /// The command line for just-bash: the arguments as typed, or the narrowed ones.
    fn spelled(self, job: &Job, place: Place) -> Vec<String> {
        match self {
            Reads::AsTyped => job.args.clone(),
            Reads::Narrowed { n, kept, .. } => narrowed_args(job, place, &n, &kept),
        }
    }
}

/// The command answered natively (over the files it reads), or the arguments to run it
/// with in just-bash; or the load it read beside, which failed.
async fn answer(
    view: SessionView<'_>,
    job: &Job,
    native: Result<Native, String>,
    mut read: Reads,
    wanted: Option<usize>,
    cs: &mut CommandStats,
) -> Result<Outcome, Failed> {
    let grep = match (native, &read) {
        (Ok(grep), Reads::Narrowed { kept, .. }) => Ok(grep.only(kept)),
        (native, _) => native,
    };
    let loading = match &mut read {
        Reads::Narrowed { loading, .. } => loading.take(),
        Reads::AsTyped => None,
    };
    let why = match grep {
        Ok(grep) => match run_beside(view, &grep, wanted, loading, cs).await? {
            Some(printed) => {
                cs.native = true;
                return Ok(Outcome::Printed(printed));
            }
            None => "a page holds text the command cannot answer exactly here (case folding beyond ASCII, \
                     characters beyond ASCII where the pattern's classes are the locale's, a named binary \
                     file, or text that is not UTF-8)"
                .to_string(),
        },
        Err(why) => why,
    };
    cs.delegated = Some(why);
    Ok(Outcome::Run(read.spelled(job, view.place(&job.cwd))))
}

/// The native command, beside the load of the pages it reads when there is one: a load
/// that fails fails the command, whatever it printed.
async fn run_beside(
    view: SessionView<'_>,
    grep: &Native,
    wanted: Option<usize>,
    loading: Option<Loading>,
    cs: &mut CommandStats,
) -> Result<Option<Printed>, Failed> {
    let Some(Loading { pages, scope, shown }) = loading else { return Ok(grep.run(view, wanted).await) };
    let before = view.requests();
    let load = view.store().begin_prefetch(&pages, scope.as_ref()).finish();
    let printed = crate::base::sync::beside(grep.run(view, wanted), load).await;
    cs.prefetch_requests = view.requests() - before;
    printed.map_err(|error| Failed { path: shown, error })
}

/// Plans the command and loads what it reads, or says why it does not run.
async fn prepare(
    view: SessionView<'_>,
    job: &Job,
    stdin_empty: bool,
    wanted: Option<usize>,
    answered_here: bool,
    cs: &mut CommandStats,
) -> Result<Reads, Stop> {
    let place = view.place(&job.cwd);
    let cx = Context { listing: place.listing, scratch: place.scratch, chunking: view.chunking() };
    let read = match plan(view, job, cx, stdin_empty).await {
        Plan::Refuse(why) => {
            cs.note = Some(format!("refused: {why}"));
            return Err(Stop::Refused(why));
        }
        Plan::Delegate | Plan::ReadPatternFiles(_) => Ok(Reads::AsTyped),
        Plan::Prefetch { files, .. } if wanted.is_some() => {
            cs.scope = files.len() as u64;
            read_in_order(view, files.iter().map(String::as_str), wanted.unwrap_or(0), cs);
            Ok(Reads::AsTyped)
        }
        Plan::Prefetch { files, why } => {
            cs.scope = files.len() as u64;
            prefetch(view, &files, why, cs).await.map(|()| Reads::AsTyped)
        }
        Plan::Narrow(n) => match narrow(view, &n, wanted, answered_here, cs).await {
            Ok(Some((kept, loading))) => Ok(Reads::Narrowed { n: Box::new(n), kept, loading }),
            Ok(None) => Ok(Reads::AsTyped),
            Err(f) => Err(f),
        },
    };
    read.map_err(|f| {
        cs.note = Some(format!("stopped: {}", f.error));
        Stop::Failed(f)
    })
}

/// The path a failed load is reported under: the file, or the directory holding them all.
fn shown<'a>(paths: impl Iterator<Item = &'a str>) -> String {
    let paths: Vec<&str> = paths.collect();
    match paths[..] {
        [one] => one.to_string(),
        _ => format!("/{}", common_dir(paths.into_iter())),
    }
}

/// The plan, with `-f` pattern files read when the command has them.
async fn plan(view: SessionView<'_>, job: &Job, cx: Context<'_>, stdin_empty: bool) -> Plan {
    let first = plan::plan(job, cx, stdin_empty, None);
    let Plan::ReadPatternFiles(files) = &first else { return first };
    let mut contents = Vec::new();
    for f in files {
        match view.read_named(&job.cwd, f).await {
            Ok(text) => contents.push(text),
            // grep reports the unreadable file itself, before reading anything else.
            Err(_) => return Plan::Delegate,
        }
    }
    plan::plan(job, cx, stdin_empty, Some(&contents))
}

async fn prefetch(view: SessionView<'_>, files: &[String], why: String, cs: &mut CommandStats) -> Result<(), Failed> {
    cs.plan = PlanKind::Prefetch;
    cs.note = Some(why);
    let named: Vec<(&str, PageRef)> = files.iter().filter_map(|f| Some((f.as_str(), view.page(f)?))).collect();
    let before = view.requests();
    let scope = scope_of(view, named.iter().map(|(path, page)| (*path, page)));
    let pages: Vec<PageRef> = named.into_iter().map(|(_, page)| page).collect();
    let loaded = view.store().prefetch_in(&pages, scope.as_ref()).await;
    cs.prefetch_requests = view.requests() - before;
    view.store().plan_reads(pages);
    loaded.map_err(|error| Failed { path: shown(files.iter().map(String::as_str)), error })
}

/// What a search whose reader takes only its first lines does instead of loading its
/// pages first: the command reads them in its order, in windows that grow, and stops
/// when it has the lines.
fn read_in_order<'a>(view: SessionView<'_>, files: impl Iterator<Item = &'a str>, lines: usize, cs: &mut CommandStats) {
    cs.note = Some(STOPS_EARLY_NOTE.into());
    view.store().plan_reads_growing(files.filter_map(|f| view.page(f)).collect(), first_window(lines));
}

/// The chunks of a first window for `lines`: a page that may match prints a line or
/// more, so a few chunks for each line wanted (later windows double).
fn first_window(lines: usize) -> u64 {
    (lines as u64).saturating_mul(FIRST_CHUNKS_PER_LINE).clamp(MIN_FIRST_CHUNKS, crate::chroma::MAX_PAGE as u64)
}

/// The first window of a search that stops early: chunks per line wanted, and at least.
const FIRST_CHUNKS_PER_LINE: u64 = 4;
const MIN_FIRST_CHUNKS: u64 = 16;

/// Why a search loaded only some of its pages.
const STOPS_EARLY_NOTE: &str =
    "its output goes to `head`: pages read in order, in windows that grow, until the command had the lines `head` takes";

/// Runs a narrowed search's coarse query, prefetch and fine check: the paths of the
/// files that are left, or `None` for "run the command as typed" (its files have been
/// prefetched). With `wanted` lines, the candidates are not loaded here: the command reads
/// them in its order (see [`read_in_order`]). A command `answered_here` may read its
/// candidates as they load instead ([`Loading`]). Files of the scratch directory are no
/// pages: the command reads and checks each of them itself.
async fn narrow(
    view: SessionView<'_>,
    n: &Narrowing,
    wanted: Option<usize>,
    answered_here: bool,
    cs: &mut CommandStats,
) -> Result<Option<(PathSet<String>, Option<Loading>)>, Failed> {
    let scratch: Vec<String> = n
        .targets
        .iter()
        .filter_map(|t| match t {
            Target::File { path, .. } if view.in_scratch(path) => Some(path.clone()),
            _ => None,
        })
        .collect();
    let narrowed = narrow_pages(view, n, wanted, answered_here, cs).await?;
    Ok(narrowed.map(|(mut kept, loading)| {
        kept.extend(scratch);
        (kept, loading)
    }))
}

/// [`narrow`] for the pages.
async fn narrow_pages(
    view: SessionView<'_>,
    n: &Narrowing,
    wanted: Option<usize>,
    answered_here: bool,
    cs: &mut CommandStats,
) -> Result<Option<(PathSet<String>, Option<Loading>)>, Failed> {
    cs.plan = PlanKind::Narrow;
    let files: Vec<(&str, PageRef)> = n
        .targets
        .iter()
        .filter_map(|t| match t {
            Target::File { path, .. } => Some((path.as_str(), view.page(path)?)),
            Target::Keep(_) | Target::NotDir(_) => None,
        })
        .collect();
    cs.scope = files.len() as u64;
    let hits = match candidates::which_pages(view, &files, n, cs).await {
        Ok(hits) => hits,
        Err(e) => {
            let all: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
            prefetch(view, &all, format!("coarse query failed: {e}"), cs).await?;
            return Ok(None);
        }
    };
    // Pages in Chroma are filtered there; lazy files can only be read.
    let candidates: Vec<&(&str, PageRef)> =
        files.iter().filter(|(_, p)| hits.as_ref().is_none_or(|hits| hits.holds(p))).collect();
    cs.candidates = candidates.len() as u64;
    let paths = |kept: &[&(&str, PageRef)]| kept.iter().map(|(path, _)| path.to_string()).collect();
    if let Some(lines) = wanted {
        // The candidates are the files in the narrowing's order.
        read_in_order(view, candidates.iter().map(|(path, _)| *path), lines, cs);
        return Ok(Some((paths(&candidates), None)));
    }
    let order = |kept: &[&(&str, PageRef)]| kept.iter().map(|(_, p)| p.clone()).collect::<Vec<PageRef>>();
    let sizes = fine::Sizes::of(view, &candidates);
    if answered_here && sizes.read_as_loaded() {
        cs.searched = candidates.len() as u64;
        let pages = order(&candidates);
        view.store().plan_reads(pages.clone());
        let scope = scope_of(view, candidates.iter().map(|(path, page)| (*path, page)));
        let shown = shown(candidates.iter().map(|(path, _)| *path));
        return Ok(Some((paths(&candidates), Some(Loading { pages, scope, shown }))));
    }
    let before = view.requests();
    // Candidates only roughly known (the index's, or a whole scope) may be left for the
    // command to check as it reads them ahead of itself (see `fine`).
    let checked = fine::keep(view, &candidates, sizes, &n.matcher, hits.is_none() || cs.index).await?;
    if checked.unchecked {
        read_ahead_note(view, cs);
    }
    cs.prefetch_requests = view.requests() - before;
    // The files kept, in the narrowing's order (the candidates'), each with its page.
    cs.searched = checked.kept.len() as u64;
    view.store().plan_reads(order(&checked.kept));
    Ok(Some((paths(&checked.kept), None)))
}

/// What a search says when the command reads its candidates ahead of itself, unchecked.
fn read_ahead_note(view: SessionView<'_>, cs: &mut CommandStats) {
    if cs.index {
        cs.note = Some(INDEX_WIDE_NOTE.into());
    } else if !view.unscoped() {
        cs.note =
            Some("the pattern matches most of a scope larger than the cache: read ahead as the command reads".into());
    }
}

/// A narrowed command line for just-bash: the arguments without the file operands, then
/// the operands kept as typed and the files that are left, in the walk's order.
fn narrowed_args(job: &Job, place: Place, n: &Narrowing, kept: &PathSet<String>) -> Vec<String> {
    // just-bash's grep without a file operand reads its standard input, even under -r.
    if matches!(job.parsed, Parsed::Grep(_)) && job.operands() == [""] {
        return job.args.clone();
    }
    let rest = job.without_operands();
    let mut out = rest.clone();
    // The files as just-bash's own walk visits and spells them (the narrowing's are the
    // real tools').
    let mut targets = Vec::new();
    for op in job.operands() {
        let policy = match &job.parsed {
            Parsed::Rg(_) => Policy::JUST_BASH_RG,
            Parsed::Grep(_) => Policy::JUST_BASH_GREP,
        };
        walk(place.into(), &job.cwd, op, policy, &mut targets);
    }
    for t in &targets {
        match t {
            Target::Keep(op) | Target::NotDir(op) => out.push(op.clone()),
            Target::File { shown, path } if kept.contains(path) => out.push(shown.clone()),
            Target::File { .. } => {}
        }
    }
    if out.len() == rest.len() || (n.keep_many && out.len() == rest.len() + 1) {
        // Nothing can match, so the command runs on an empty file (it still validates its
        // pattern and options); or rg, left with one file, must not print bare lines.
        out.push(DEV_NULL.to_string());
    }
    out
}

/// The scope a bulk load of `pages` (with their paths) lies in, when it reads more pages
/// by slug than one request names (see [`Within`]); pages read by id never read their scope.
fn scope_of<'a>(view: SessionView<'_>, pages: impl Iterator<Item = (&'a str, &'a PageRef)>) -> Option<Within> {
    let by_slug =
        |page: &PageRef| matches!(page.source, Source::Chunks { count, by_id, .. } if !(by_id && count.is_some()));
    let chunked: Vec<&str> = pages.filter(|(_, page)| by_slug(page)).map(|(path, _)| path).collect();
    let one_request = view.coarse()?.slugs_per_query();
    (chunked.len() > one_request).then(|| view.scope_of(chunked.into_iter())).flatten()
}

fn chunk_slug(page: &PageRef) -> Option<&str> {
    match &page.source {
        Source::Chunks { slug, .. } => Some(slug),
        Source::Lazy(_) | Source::Corrupt(_) => None,
    }
}

fn chunk_count(page: &PageRef) -> Option<u64> {
    match page.source {
        Source::Chunks { count, .. } => count,
        Source::Lazy(_) | Source::Corrupt(_) => None,
    }
}

mod candidates;
mod fine;
#[cfg(test)]
mod tests;
mod whole;
