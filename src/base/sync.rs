//! Concurrency on a single-threaded executor: running futures side by side, and a
//! semaphore that caps how many requests are in flight.
//!
//! WebAssembly hosts run one event loop, so nothing here is `Send`; these are the whole
//! of the async machinery chromafs needs, kept small enough to reason about. The
//! semaphore is fair (first come, first served) and cancellation-safe: a waiter that is
//! dropped before its turn leaves the queue and passes any wake-up on, so a permit is
//! never stranded while others wait.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// A boxed future of this thread (nothing here is `Send`).
pub(crate) type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Polls every future until all are done; outputs come back in input order.
pub(crate) async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, out) in futures.iter_mut().zip(outputs.iter_mut()) {
            if out.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *out = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().map(|o| o.expect("every future completed")).collect()
}

/// Polls every future until all are done, or until one fails: its error comes back
/// at once and the others are dropped where they stand.
pub(crate) async fn try_join_all<F: Future<Output = Result<(), E>>, E>(futures: Vec<F>) -> Result<(), E> {
    let mut futures: Vec<Option<Pin<Box<F>>>> = futures.into_iter().map(|f| Some(Box::pin(f))).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for slot in futures.iter_mut() {
            let Some(f) = slot else { continue };
            match f.as_mut().poll(cx) {
                Poll::Ready(Ok(())) => *slot = None,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => pending = true,
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(Ok(()))
        }
    })
    .await
}

/// Runs `work` beside `load`, which it depends on: the work's output once both are done,
/// or the load's error as soon as it fails (the work, waiting on what did not load, is
/// dropped where it stands).
pub(crate) async fn beside<T, E>(
    work: impl Future<Output = T>,
    load: impl Future<Output = Result<(), E>>,
) -> Result<T, E> {
    let (mut work, mut load) = (std::pin::pin!(work), std::pin::pin!(load));
    let (mut output, mut loaded) = (None, false);
    std::future::poll_fn(|cx| {
        if !loaded {
            match load.as_mut().poll(cx) {
                Poll::Ready(Ok(())) => loaded = true,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {}
            }
        }
        if output.is_none() {
            if let Poll::Ready(v) = work.as_mut().poll(cx) {
                output = Some(v);
            }
        }
        match (loaded, output.take()) {
            (true, Some(v)) => Poll::Ready(Ok(v)),
            (_, v) => {
                output = v;
                Poll::Pending
            }
        }
    })
    .await
}

/// Which of two futures finished first.
pub(crate) enum First<A, B> {
    Left(A),
    Right(B),
}

/// Polls both futures until one is done; the other is dropped where it stands.
pub(crate) async fn first<A: Future, B: Future>(a: A, b: B) -> First<A::Output, B::Output> {
    let (mut a, mut b) = (std::pin::pin!(a), std::pin::pin!(b));
    std::future::poll_fn(|cx| {
        if let Poll::Ready(v) = a.as_mut().poll(cx) {
            return Poll::Ready(First::Left(v));
        }
        b.as_mut().poll(cx).map(First::Right)
    })
    .await
}

#[derive(Default)]
struct State {
    permits: usize,
    next_id: u64,
    /// Waiters in arrival order, each with the waker of its latest poll.
    queue: VecDeque<(u64, Waker)>,
}

/// A counting semaphore for a single-threaded executor.
#[derive(Default)]
pub(crate) struct Semaphore {
    state: RefCell<State>,
}

impl std::fmt::Debug for Semaphore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Semaphore").field("permits", &self.state.borrow().permits).finish()
    }
}

/// One permit; released when dropped.
pub(crate) struct Permit<'a>(&'a Semaphore);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let next = {
            let mut s = self.0.state.borrow_mut();
            s.permits += 1;
            s.queue.front().map(|(_, w)| w.clone())
        };
        if let Some(w) = next {
            w.wake();
        }
    }
}

impl Semaphore {
    pub(crate) fn new(permits: usize) -> Self {
        Semaphore { state: RefCell::new(State { permits: permits.max(1), ..State::default() }) }
    }

    /// Waits for a permit, in arrival order.
    pub(crate) fn acquire(&self) -> Acquire<'_> {
        Acquire { sem: self, id: None, done: false }
    }

    /// A permit now, if one is free and nobody is waiting for it.
    pub(crate) fn try_acquire(&self) -> Option<Permit<'_>> {
        let mut s = self.state.borrow_mut();
        if s.permits == 0 || !s.queue.is_empty() {
            return None;
        }
        s.permits -= 1;
        Some(Permit(self))
    }

    #[cfg(test)]
    /// Permits free right now.
    fn available(&self) -> usize {
        self.state.borrow().permits
    }
}

/// The future of [`Semaphore::acquire`].
pub(crate) struct Acquire<'a> {
    sem: &'a Semaphore,
    id: Option<u64>,
    done: bool,
}

impl<'a> Future for Acquire<'a> {
    type Output = Permit<'a>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit<'a>> {
        let this = self.get_mut();
        let mut wake_next = None;
        let ready = {
            let mut s = this.sem.state.borrow_mut();
            let my_turn = match this.id {
                None => s.queue.is_empty(),
                Some(id) => s.queue.front().is_some_and(|(front, _)| *front == id),
            };
            if my_turn && s.permits > 0 {
                s.permits -= 1;
                if this.id.is_some() {
                    s.queue.pop_front();
                }
                if s.permits > 0 {
                    wake_next = s.queue.front().map(|(_, w)| w.clone());
                }
                true
            } else {
                match this.id {
                    Some(id) => {
                        if let Some(entry) = s.queue.iter_mut().find(|(i, _)| *i == id) {
                            entry.1 = cx.waker().clone();
                        }
                    }
                    None => {
                        let id = s.next_id;
                        s.next_id += 1;
                        s.queue.push_back((id, cx.waker().clone()));
                        this.id = Some(id);
                    }
                }
                false
            }
        };
        if let Some(w) = wake_next {
            w.wake();
        }
        if ready {
            this.done = true;
            Poll::Ready(Permit(this.sem))
        } else {
            Poll::Pending
        }
    }
}

impl Drop for Acquire<'_> {
    fn drop(&mut self) {
        let (Some(id), false) = (self.id, self.done) else { return };
        let next = {
            let mut s = self.sem.state.borrow_mut();
            let was_front = s.queue.front().is_some_and(|(front, _)| *front == id);
            s.queue.retain(|(i, _)| *i != id);
            if was_front && s.permits > 0 {
                s.queue.front().map(|(_, w)| w.clone())
            } else {
                None
            }
        };
        if let Some(w) = next {
            w.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Executor, Latch};
    use std::cell::Cell;
    use std::rc::Rc;

    #[test]
    fn join_all_keeps_input_order() {
        let out = crate::testing::block_on(join_all((1..=3).map(|i| async move { i }).collect()));
        assert_eq!(out, vec![1, 2, 3]);
    }

    #[test]
    fn try_join_all_stops_at_the_first_failure() {
        let latch = Latch::new();
        let dropped = Rc::new(Cell::new(false));
        struct Flag(Rc<Cell<bool>>);
        impl Drop for Flag {
            fn drop(&mut self) {
                self.0.set(true);
            }
        }
        let (l, d) = (latch.clone(), dropped.clone());
        let waits: LocalFuture<'static, Result<(), &str>> = Box::pin(async move {
            let _flag = Flag(d);
            l.wait().await;
            Ok(())
        });
        let fails: LocalFuture<'static, Result<(), &str>> = Box::pin(async { Err("refused") });
        let out = crate::testing::block_on(try_join_all(vec![waits, fails]));
        assert_eq!(out, Err("refused"), "not held up by the one still waiting");
        assert!(dropped.get(), "the others are dropped");
        let ok: Vec<LocalFuture<'static, Result<(), ()>>> =
            vec![Box::pin(async { Ok(()) }), Box::pin(async { Ok(()) })];
        assert_eq!(crate::testing::block_on(try_join_all(ok)), Ok(()));
    }

    #[test]
    fn work_beside_its_load_ends_with_both_or_with_the_loads_failure() {
        let latch = Latch::new();
        let l = latch.clone();
        let mut ex = Executor::new();
        let out = Rc::new(Cell::new(None));
        let o = out.clone();
        ex.spawn(async move {
            // The work is done first; the load still runs to its end.
            let r = beside(async { 7 }, async move {
                l.wait().await;
                Ok::<(), ()>(())
            })
            .await;
            o.set(Some(r));
        });
        ex.run_until_stalled();
        assert_eq!(out.get(), None, "waits for the load");
        latch.open();
        ex.run_until_stalled();
        assert_eq!(out.get(), Some(Ok(7)));
        let never = Latch::new();
        let failed =
            crate::testing::block_on(beside(async move { never.wait().await }, async { Err::<(), _>("gone") }));
        assert_eq!(failed, Err("gone"), "work waiting on a failed load is dropped");
    }

    #[test]
    fn never_more_than_the_permits_in_flight() {
        let sem = Rc::new(Semaphore::new(2));
        let latch = Latch::new();
        let (active, peak) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
        let mut ex = Executor::new();
        for _ in 0..6 {
            let (sem, latch, active, peak) = (sem.clone(), latch.clone(), active.clone(), peak.clone());
            ex.spawn(async move {
                let _p = sem.acquire().await;
                active.set(active.get() + 1);
                peak.set(peak.get().max(active.get()));
                latch.wait().await;
                active.set(active.get() - 1);
            });
        }
        assert!(ex.run_until_stalled() > 0, "waiting on the latch");
        assert_eq!(peak.get(), 2);
        latch.open();
        assert_eq!(ex.run_until_stalled(), 0, "everyone finished");
        assert_eq!(sem.available(), 2);
    }

    #[test]
    fn a_dropped_waiter_does_not_strand_a_permit() {
        let sem = Rc::new(Semaphore::new(1));
        let finished = Rc::new(Cell::new(0));
        let mut ex = Executor::new();
        let held = {
            let latch = Latch::new();
            let sem2 = sem.clone();
            let l = latch.clone();
            ex.spawn(async move {
                let _p = sem2.acquire().await;
                l.wait().await;
            });
            latch
        };
        // A waiter that gives up (its future is dropped) before its turn.
        let quitter = ex.spawn({
            let sem = sem.clone();
            async move {
                let _p = sem.acquire().await;
            }
        });
        for _ in 0..3 {
            let (sem, finished) = (sem.clone(), finished.clone());
            ex.spawn(async move {
                let _p = sem.acquire().await;
                finished.set(finished.get() + 1);
            });
        }
        ex.run_until_stalled();
        ex.cancel(quitter);
        held.open();
        assert_eq!(ex.run_until_stalled(), 0, "no task is left waiting");
        assert_eq!(finished.get(), 3);
        assert_eq!(sem.available(), 1);
    }

    #[test]
    fn spurious_polls_do_not_queue_a_waiter_twice() {
        // join_all polls every child whenever one wakes: a waiter polled again must keep
        // its place, not add a second entry that would swallow a wake-up.
        let sem = Rc::new(Semaphore::new(1));
        let latch = Latch::new();
        let done = Rc::new(Cell::new(0));
        let mut ex = Executor::new();
        {
            let (sem, latch) = (sem.clone(), latch.clone());
            ex.spawn(async move {
                let _p = sem.acquire().await;
                latch.wait().await;
            });
        }
        {
            let (sem, done) = (sem.clone(), done.clone());
            ex.spawn(async move {
                let waiters: Vec<_> = (0..4)
                    .map(|_| {
                        let (sem, done) = (sem.clone(), done.clone());
                        async move {
                            let _p = sem.acquire().await;
                            done.set(done.get() + 1);
                        }
                    })
                    .collect();
                join_all(waiters).await;
            });
        }
        ex.run_until_stalled();
        latch.open();
        assert_eq!(ex.run_until_stalled(), 0);
        assert_eq!(done.get(), 4);
    }
}
