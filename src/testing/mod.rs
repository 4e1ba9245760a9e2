//! Native test support: a tiny executor and an in-memory Chroma behind a [`Transport`].
//!
//! The executor runs tasks until none can make progress and reports how many are still
//! waiting, so a test can tell "finished" from "stuck" (a lost wake-up, a read waiting on
//! a flight nobody will finish) without timers. [`FakeChroma`] answers the subset of the
//! HTTP API chromafs uses, logs every request and can fail or hold any of them.
//!
//! [`Transport`]: crate::chroma::transport::Transport

pub(crate) mod chroma;
mod claims;
mod layers;

pub(crate) use chroma::FakeChroma;

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

struct Task {
    future: Pin<Box<dyn Future<Output = ()>>>,
    woken: Arc<Flag>,
}

/// A task handle, for [`Executor::cancel`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct TaskId(usize);

/// Runs spawned futures on this thread until they finish or stall.
#[derive(Default)]
pub(crate) struct Executor {
    tasks: Vec<Option<Task>>,
}

impl Executor {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn spawn(&mut self, future: impl Future<Output = ()> + 'static) -> TaskId {
        let woken = Arc::new(Flag(AtomicBool::new(true)));
        self.tasks.push(Some(Task { future: Box::pin(future), woken }));
        TaskId(self.tasks.len() - 1)
    }

    /// Drops a task's future where it stands, as an abandoned command would be.
    pub(crate) fn cancel(&mut self, id: TaskId) {
        self.tasks[id.0] = None;
    }

    /// Polls woken tasks until none is woken; returns how many are still pending.
    pub(crate) fn run_until_stalled(&mut self) -> usize {
        loop {
            let mut progressed = false;
            for slot in self.tasks.iter_mut() {
                let Some(task) = slot else { continue };
                if !task.woken.0.swap(false, Ordering::SeqCst) {
                    continue;
                }
                progressed = true;
                let waker = Waker::from(task.woken.clone());
                if task.future.as_mut().poll(&mut Context::from_waker(&waker)).is_ready() {
                    *slot = None;
                }
            }
            if !progressed {
                return self.tasks.iter().filter(|t| t.is_some()).count();
            }
        }
    }
}

/// Runs one future to completion; panics if it stalls (waits for something that can
/// never happen).
pub(crate) fn block_on<T: 'static>(future: impl Future<Output = T> + 'static) -> T {
    let out = Rc::new(RefCell::new(None));
    let mut ex = Executor::new();
    let slot = out.clone();
    ex.spawn(async move {
        *slot.borrow_mut() = Some(future.await);
    });
    let pending = ex.run_until_stalled();
    assert_eq!(pending, 0, "the future stalled: it waits for a wake-up that never comes");
    let value = out.borrow_mut().take().expect("finished");
    value
}

/// Polls a future once, with a waker that does nothing: whether it is ready now.
pub(crate) fn poll_once<F: Future + ?Sized>(future: Pin<&mut F>) -> Poll<F::Output> {
    future.poll(&mut Context::from_waker(Waker::noop()))
}

/// A gate that futures wait on until a test opens it.
#[derive(Clone, Default)]
pub(crate) struct Latch(Rc<RefCell<(bool, Vec<Waker>)>>);

impl Latch {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn open(&self) {
        let wakers = {
            let mut s = self.0.borrow_mut();
            s.0 = true;
            std::mem::take(&mut s.1)
        };
        wakers.into_iter().for_each(Waker::wake);
    }

    pub(crate) async fn wait(&self) {
        std::future::poll_fn(|cx| {
            let mut s = self.0.borrow_mut();
            if s.0 {
                Poll::Ready(())
            } else {
                s.1.push(cx.waker().clone());
                Poll::Pending
            }
        })
        .await
    }
}

/// Writes `pages` (path, text) into collection `docs` as chromafs's ingest does, with the
/// access rules `access` (JSON) and chunks of at most `chunk_bytes`, embedded by `embedder`.
pub(crate) fn ingest(
    chroma: &FakeChroma,
    pages: &[(&str, &str)],
    access: &str,
    chunk_bytes: usize,
    embedder: Rc<dyn crate::base::embed::Embedder>,
) {
    use crate::ingest::{self, parse_access_rules, Rules, SourceFile};
    let files: Vec<SourceFile> = pages
        .iter()
        .map(|(p, c)| SourceFile { path: p.to_string(), content: c.as_bytes().to_vec(), mtime: None })
        .collect();
    let rules = Rules::new(parse_access_rules(access).unwrap(), false);
    let plan = ingest::plan(&files, &rules, chunk_bytes, "__path_tree__").unwrap();
    write_plan(chroma, plan, embedder).unwrap();
}

/// One ingest run of `plan` into collection `docs`, embedded by `embedder`: its summary, or
/// why it failed.
pub(crate) fn write_plan(
    chroma: &FakeChroma,
    plan: crate::ingest::Plan,
    embedder: Rc<dyn crate::base::embed::Embedder>,
) -> Result<crate::ingest::Summary, String> {
    let client = crate::chroma::Client::new(crate::chroma::ClientConfig::new(chroma::URL), Rc::new(chroma.clone()));
    block_on(async move {
        let schema = crate::tree::schema::Schema::default();
        let opts = crate::ingest::WriteOptions {
            collection: "docs",
            schema: &schema,
            plain_tree: false,
            lease: Default::default(),
        };
        crate::ingest::write(&client, &plan, &opts, &*embedder).await
    })
}
