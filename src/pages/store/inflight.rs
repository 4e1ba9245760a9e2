//! Reads in flight: concurrent readers of one page share one load.
//!
//! The first reader of a key leads: it gets a [`Leader`] and does the work; readers that
//! arrive meanwhile get a [`Follower`] and wait for the leader's result. A leader that is
//! dropped before it finishes (its command was abandoned, its future cancelled) releases
//! its followers on the way out: they learn the flight was abandoned and try again
//! themselves, so no reader ever waits on work nobody is doing.

use crate::base::hash::PathMap;
use std::cell::{Cell, RefCell};
use std::hash::Hash;
use std::rc::Rc;
use std::task::{Poll, Waker};

struct Flight<V> {
    result: RefCell<Option<V>>,
    abandoned: Cell<bool>,
    waiters: RefCell<Vec<Waker>>,
}

impl<V> Flight<V> {
    fn wake_all(&self) {
        let waiters = std::mem::take(&mut *self.waiters.borrow_mut());
        waiters.into_iter().for_each(Waker::wake);
    }
}

/// The flights in progress, by key.
pub(crate) struct Flights<K, V> {
    map: RefCell<PathMap<K, Rc<Flight<V>>>>,
}

impl<K, V> Default for Flights<K, V> {
    fn default() -> Self {
        Flights { map: RefCell::new(PathMap::default()) }
    }
}

/// What a reader of a key does: lead the load, or follow one in progress.
pub(crate) enum Ticket<'a, K: Hash + Eq + Clone, V: Clone> {
    Lead(Leader<'a, K, V>),
    Follow(Follower<V>),
}

impl<K: Hash + Eq + Clone, V: Clone> Flights<K, V> {
    pub(crate) fn start(&self, key: &K) -> Ticket<'_, K, V> {
        if let Some(flight) = self.map.borrow().get(key) {
            return Ticket::Follow(Follower(flight.clone()));
        }
        let flight =
            Rc::new(Flight { result: RefCell::new(None), abandoned: Cell::new(false), waiters: RefCell::default() });
        self.map.borrow_mut().insert(key.clone(), flight.clone());
        Ticket::Lead(Leader { flights: self, key: key.clone(), flight, done: false })
    }

    #[cfg(test)]
    /// Loads in progress.
    pub(crate) fn len(&self) -> usize {
        self.map.borrow().len()
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a load of `key` is in flight.
    pub(crate) fn is_loading(&self, key: &K) -> bool {
        self.map.borrow().contains_key(key)
    }

    fn end(&self, key: &K, flight: &Rc<Flight<V>>) {
        let mut map = self.map.borrow_mut();
        if map.get(key).is_some_and(|f| Rc::ptr_eq(f, flight)) {
            map.remove(key);
        }
    }
}

/// The reader doing the load; it must [`finish`](Leader::finish) or be dropped.
pub(crate) struct Leader<'a, K: Hash + Eq + Clone, V: Clone> {
    flights: &'a Flights<K, V>,
    key: K,
    flight: Rc<Flight<V>>,
    done: bool,
}

impl<K: Hash + Eq + Clone, V: Clone> Leader<'_, K, V> {
    /// Hands the result to every follower.
    pub(crate) fn finish(mut self, value: V) {
        self.done = true;
        self.flights.end(&self.key, &self.flight);
        *self.flight.result.borrow_mut() = Some(value);
        self.flight.wake_all();
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Drop for Leader<'_, K, V> {
    fn drop(&mut self) {
        if !self.done {
            self.flights.end(&self.key, &self.flight);
            self.flight.abandoned.set(true);
            self.flight.wake_all();
        }
    }
}

/// A reader waiting for a leader.
pub(crate) struct Follower<V>(Rc<Flight<V>>);

impl<V: Clone> Follower<V> {
    /// The leader's result, or `None` when the leader gave up (start again).
    pub(crate) async fn wait(self) -> Option<V> {
        std::future::poll_fn(|cx| {
            if let Some(v) = &*self.0.result.borrow() {
                return Poll::Ready(Some(v.clone()));
            }
            if self.0.abandoned.get() {
                return Poll::Ready(None);
            }
            self.0.waiters.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Executor, Latch};

    #[test]
    fn followers_get_the_leaders_result() {
        let flights: Rc<Flights<&str, u32>> = Rc::default();
        let latch = Latch::new();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let mut ex = Executor::new();
        for _ in 0..3 {
            let (flights, latch, seen) = (flights.clone(), latch.clone(), seen.clone());
            ex.spawn(async move {
                let v = match flights.start(&"a") {
                    Ticket::Lead(l) => {
                        latch.wait().await;
                        l.finish(7);
                        7
                    }
                    Ticket::Follow(f) => f.wait().await.unwrap(),
                };
                seen.borrow_mut().push(v);
            });
        }
        assert_eq!(ex.run_until_stalled(), 3);
        assert_eq!(flights.len(), 1);
        latch.open();
        assert_eq!(ex.run_until_stalled(), 0);
        assert_eq!(*seen.borrow(), [7, 7, 7]);
        assert!(flights.is_empty());
    }

    #[test]
    fn an_abandoned_leader_releases_its_followers() {
        let flights: Rc<Flights<&str, u32>> = Rc::default();
        let never = Latch::new();
        let outcome = Rc::new(RefCell::new(None));
        let mut ex = Executor::new();
        let leader = {
            let (flights, never) = (flights.clone(), never.clone());
            ex.spawn(async move {
                if let Ticket::Lead(_l) = flights.start(&"a") {
                    never.wait().await;
                }
            })
        };
        {
            let (flights, outcome) = (flights.clone(), outcome.clone());
            ex.spawn(async move {
                if let Ticket::Follow(f) = flights.start(&"a") {
                    *outcome.borrow_mut() = Some(f.wait().await);
                }
            });
        }
        assert_eq!(ex.run_until_stalled(), 2);
        ex.cancel(leader);
        assert_eq!(ex.run_until_stalled(), 0, "the follower is not left waiting");
        assert_eq!(*outcome.borrow(), Some(None), "told the flight was abandoned");
        assert!(flights.is_empty(), "and the next reader leads a new flight");
        assert!(matches!(flights.start(&"a"), Ticket::Lead(_)));
    }
}
