//! What a search reads from the session, and nothing more.
//!
//! A search walks its scope through the session's listing and scratch directory, loads and
//! checks pages through the page store, asks the collection which pages may match (when the
//! session may ask: see [`Filesystem::coarse_query_allowed`]), and counts the requests each
//! stage sent. That is the whole of its view of the filesystem, so a reader can follow a
//! search without knowing the filesystem, and the filesystem can change behind it. A search
//! records nothing in the session either: what it cost and which load failed come back in
//! its result ([`crate::search::runner::Searched`]) for the caller to record.

use crate::base::embed::{Embedding, Space};
use crate::base::error::FsError;
use crate::commands::Place;
use crate::fs::named::{read_named, Unreadable};
use crate::fs::scratch::Dirs;
use crate::fs::Filesystem;
use crate::pages::collection::Bound;
use crate::pages::collection::Collection;
use crate::pages::grams::manifest::Manifest;
use crate::pages::store::{PageRef, PageStore, Source, Within};
use crate::search::pattern::filter::Chunking;
use crate::tree::access::Groups;
use crate::tree::listing::{Listing, Node};
use std::rc::Rc;

/// A search's view of one session.
#[derive(Clone, Copy)]
pub(crate) struct SessionView<'a> {
    fs: &'a Filesystem,
    /// The pages searched: the session's listing, or one version's (`search --version`).
    listing: &'a Listing,
    /// The session's scratch directory as the command found it (`Filesystem::scratch_dirs`).
    scratch: Option<&'a Dirs>,
}

impl<'a> SessionView<'a> {
    pub(crate) fn new(fs: &'a Filesystem, scratch: Option<&'a Dirs>) -> Self {
        SessionView { fs, listing: fs.listing(), scratch }
    }

    /// The same view over `listing`, one version's pages of the session's
    /// ([`Filesystem::version_listing`]).
    pub(crate) fn over(self, listing: &'a Listing) -> Self {
        SessionView { listing, ..self }
    }

    /// Whether pages the session sees are left out of the view for their version: Chroma's
    /// answers then hold chunks the view drops.
    pub(crate) fn leaves_out_versions(&self) -> bool {
        self.listing.leaves_out_versions()
    }

    /// Where a command runs: the session's listing and scratch directory, and `cwd`.
    pub(crate) fn place(&self, cwd: &'a str) -> Place<'a> {
        Place { listing: self.listing, scratch: self.scratch, cwd }
    }

    /// Whether a normalised path is in the scratch directory.
    pub(crate) fn in_scratch(&self, path: &str) -> bool {
        self.scratch.is_some_and(|s| s.contains(path))
    }

    /// Whether searches may be answered in Rust (`nativeCommands`).
    pub(crate) fn native_commands(&self) -> bool {
        self.fs.native_commands()
    }

    /// How the collection's chunks split pages, for the coarse filter.
    pub(crate) fn chunking(&self) -> Chunking {
        if self.fs.tree().line_aligned() {
            Chunking::LineAligned
        } else {
            Chunking::Arbitrary
        }
    }

    /// Whether chunks carry their ancestor directories, so a query may be scoped by one.
    pub(crate) fn chunks_have_dirs(&self) -> bool {
        self.fs.tree().chunks.dirs
    }

    /// The directory chunks name in their `dirs` for a directory shown as `shown` (no
    /// leading slash): the same, but for the mount directory a session may show pages
    /// under (`mountAt`).
    pub(crate) fn chunk_dir(&self, shown: &str) -> String {
        let path = format!("/{shown}");
        self.fs.tree().unmounted(&path).trim_start_matches('/').to_string()
    }

    /// A visible path as the collection's pages are named, without the mount directory.
    pub(crate) fn unmounted<'p>(&self, path: &'p str) -> &'p str {
        self.fs.tree().unmounted(path)
    }

    /// The page behind a visible, normalised path.
    pub(crate) fn page(&self, path: &str) -> Option<PageRef> {
        self.fs.page(path)
    }

    pub(crate) fn store(&self) -> &'a PageStore {
        self.fs.store()
    }

    /// The collection to ask which pages may match; `None` when the answer could depend
    /// on text the session may not read.
    pub(crate) fn coarse(&self) -> Option<&'a Collection> {
        self.fs.coarse_query_allowed().then(|| self.fs.collection())
    }

    /// The collection, for a ranked search: it reads the session's access from it and
    /// checks every chunk it gets back itself.
    pub(crate) fn collection(&self) -> &'a Collection {
        self.fs.collection()
    }

    /// The grep index's records the session read.
    pub(crate) fn index_kept(&self) -> &'a std::cell::RefCell<crate::pages::grams::lookup::Kept> {
        self.fs.index_kept()
    }

    /// The visible path of the page whose chunks carry `slug`; `None` when the session
    /// does not see that page (or a host's own file has taken its path).
    pub(crate) fn path_of(&self, slug: &str) -> Option<&'a str> {
        let tree = self.fs.tree();
        let i = tree.entry_of(slug)?;
        let path = tree.tree.entries[i].path.as_str();
        match self.listing.get(path)? {
            Node::File(f) if f.entry == Some(i) => Some(path),
            _ => None,
        }
    }

    /// The version of the docs the visible page at `path` belongs to, when it has one.
    pub(crate) fn version_of(&self, path: &str) -> Option<&'a str> {
        match self.listing.get(path)? {
            Node::File(f) => self.fs.tree().tree.entries[f.entry?].version.as_deref(),
            Node::Dir(_) => None,
        }
    }

    /// The grep index the session's tree names, or why there is none to read.
    pub(crate) fn grep_index(&self) -> Result<Manifest, &'static str> {
        self.fs.grep_index()
    }

    /// The session's groups: which classes of the grep index it reads.
    pub(crate) fn groups(&self) -> &'a Groups {
        self.fs.groups()
    }

    /// How many pages the session sees in the whole collection.
    pub(crate) fn visible_pages(&self) -> usize {
        self.listing.file_count()
    }

    /// The visible files at or below `dir`, in listing order.
    pub(crate) fn files_under(&self, dir: &str) -> Vec<String> {
        self.listing.files_under(dir)
    }

    /// Whether Chroma's answers about chunks could depend on text the session may not
    /// read (chunks carry no access and the session has hidden pages), unless the host
    /// accepts that (`searchHiddenTextCost`).
    pub(crate) fn unscoped(&self) -> bool {
        !self.fs.coarse_query_allowed()
    }

    /// How many chunks the visible pages at or below `dir` have; a page whose count the
    /// tree does not give counts as one.
    pub(crate) fn chunks_under(&self, dir: &str) -> u64 {
        self.chunk_counts(dir).map(|n| n.unwrap_or(1)).sum()
    }

    /// How many chunks the visible pages at or below `dir` have, when the tree counts
    /// every one's.
    pub(crate) fn chunks_counted_under(&self, dir: &str) -> Option<u64> {
        self.chunk_counts(dir).sum()
    }

    /// The chunk count the tree gives each visible page at or below `dir`.
    fn chunk_counts<'s>(&'s self, dir: &'s str) -> impl Iterator<Item = Option<u64>> + 's {
        let entries = &self.fs.tree().tree.entries;
        let under = move |p: &str| dir == "/" || p.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'));
        self.listing.files().filter(move |(p, _)| under(p)).map(move |(_, f)| f.entry.and_then(|i| entries[i].chunks))
    }

    /// The scope holding `paths` (visible pages), for a bulk load that may read it whole:
    /// `None` where the session may not ask Chroma about chunks it cannot see (then a
    /// scope's records would count hidden text).
    /// `None` too where the view leaves out other versions' pages, whose chunks a scope
    /// would hold beside the visible ones.
    pub(crate) fn scope_of<'p>(&self, paths: impl Iterator<Item = &'p str>) -> Option<Within> {
        (self.fs.coarse_query_allowed() && !self.leaves_out_versions()).then_some(())?;
        let shown = self.chunks_have_dirs().then(|| common_dir(paths));
        let under = shown.as_ref().map_or("/".to_string(), |d| format!("/{d}"));
        let dir = shown.map(|d| self.chunk_dir(&d));
        let pages: Vec<PageRef> = self.files_under(&under).iter().filter_map(|p| self.page(p)).collect();
        let counts: Vec<(Option<u64>, Option<u64>)> = pages
            .iter()
            .filter_map(|p| match p.source {
                Source::Chunks { count, .. } => Some((count, p.size)),
                Source::Lazy(_) | Source::Corrupt(_) => None,
            })
            .collect();
        // Public pages' average: the text of pages the session may not see leaves no mark.
        let average = self.fs.tree().public_text.map(|t| t.chunks_per_page());
        let each = |count: Option<u64>| count.map(|n| n as f64).or(average);
        let chunks = counts.iter().map(|&(count, _)| each(count).unwrap_or(1.0).max(1.0)).sum::<f64>().ceil() as usize;
        let uncounted = counts.iter().filter(|(count, _)| each(*count).is_none()).count();
        let bound = Bound::sum(counts.iter().map(|&(count, size)| Bound::page(count, size)));
        Some(Within { dir, chunks, uncounted, bound })
    }

    /// The model that embedded the collection, when its tree's manifest records it.
    pub(crate) fn embedding(&self) -> Option<&'a Embedding> {
        self.fs.tree().embedding.as_ref()
    }

    /// How the collection's vector index measures distance, when Chroma says.
    pub(crate) fn space(&self) -> Option<Space> {
        self.fs.tree().space
    }

    /// The length of the collection's vectors, as Chroma said when the tree was loaded.
    pub(crate) fn dimension(&self) -> Option<usize> {
        self.fs.tree().dimension
    }

    /// Requests the running command may still send, when its budget limits them.
    pub(crate) fn requests_left(&self) -> Option<u64> {
        self.fs.requests_left()
    }

    /// Milliseconds on the session's clock.
    pub(crate) fn now_ms(&self) -> f64 {
        self.fs.now_ms()
    }

    /// Requests the session has sent so far.
    pub(crate) fn requests(&self) -> u64 {
        self.fs.requests()
    }

    /// `work`'s outcome, or the command's time limit when it passes first.
    pub(crate) async fn before_deadline<F: std::future::Future>(&self, work: F) -> Result<F::Output, u32> {
        self.fs.before_deadline(work).await
    }

    /// A file's bytes, read as any command reads it (pages, scratch files, `/dev/null`).
    pub(crate) async fn read(&self, path: &str) -> Result<Rc<[u8]>, FsError> {
        self.fs.read(path).await
    }

    /// The text of a file named on the command line (see [`crate::fs::named`]).
    pub(crate) async fn read_named(&self, cwd: &str, file: &str) -> Result<String, Unreadable> {
        read_named(self.fs, cwd, file).await
    }
}

/// The deepest directory holding every path, as chunks spell it in `dirs` (`""` for the
/// root, `api/v2` for `/api/v2`).
pub(crate) fn common_dir<'a>(paths: impl Iterator<Item = &'a str>) -> String {
    let mut common: Option<Vec<&str>> = None;
    for p in paths {
        let dir: Vec<&str> = crate::base::path::parent(p).split('/').filter(|s| !s.is_empty()).collect();
        common = Some(match common {
            None => dir,
            Some(c) => c.iter().zip(&dir).take_while(|(a, b)| a == b).map(|(a, _)| *a).collect(),
        });
    }
    common.unwrap_or_default().join("/")
}
