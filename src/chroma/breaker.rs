//! Failing fast while Chroma is down.
//!
//! A command over a thousand pages that finds the server down would otherwise wait out
//! retries, backoff and perhaps a timeout for every page in turn. Once a request fails in
//! a way that says the server cannot answer — no connection, a timeout, a 5xx after
//! retries — the breaker opens: the session's other requests fail at once with that
//! cause. It lets one request through to probe again after [`COOL_DOWN_MS`], or as soon
//! as the next command begins ([`Breaker::rearm`]), so the agent's next command works
//! the moment the server is back. Any HTTP answer that is not a 5xx closes it.
//!
//! A command often starts with several requests at once (a search's coarse queries, a
//! bulk load). While the probe is out, the others wait for its outcome instead of failing
//! with the old cause: when it succeeds they all go, when it fails they fail with what it
//! found. The probe holds a [`Permit`] of a one-slot semaphore, so a probe that is
//! dropped half-way (its command abandoned) still lets the waiters on.

use crate::base::sync::{Permit, Semaphore};
use std::cell::RefCell;

/// How long an open breaker refuses requests before letting one probe.
const COOL_DOWN_MS: f64 = 5_000.0;

#[derive(Debug, Clone, PartialEq)]
enum State {
    Closed,
    Open { since: f64, cause: String, rearmed: bool },
}

/// Whether a request may go.
pub(crate) enum Admit<'a> {
    Go,
    /// It goes alone, holding the probe's slot until it is done, and is not retried.
    Probe(Permit<'a>),
    /// A probe is out: wait for it ([`Breaker::settled`]) and ask again.
    Wait,
}

pub(crate) struct Breaker {
    state: RefCell<State>,
    /// Held by the one request probing an open breaker.
    probe: Semaphore,
}

impl Default for Breaker {
    fn default() -> Self {
        Breaker { state: RefCell::new(State::Closed), probe: Semaphore::new(1) }
    }
}

impl Breaker {
    /// May a request go at `now`? `Err` carries the failure that opened the breaker.
    pub(crate) fn admit(&self, now: f64) -> Result<Admit<'_>, String> {
        let state = self.state.borrow();
        let State::Open { since, cause, rearmed } = &*state else { return Ok(Admit::Go) };
        if !*rearmed && now - *since < COOL_DOWN_MS {
            return Err(cause.clone());
        }
        Ok(match self.probe.try_acquire() {
            Some(permit) => Admit::Probe(permit),
            None => Admit::Wait,
        })
    }

    /// Resolves once the probe out now is done (at once when there is none).
    pub(crate) async fn settled(&self) {
        drop(self.probe.acquire().await);
    }

    /// The server answered (anything but a 5xx).
    pub(crate) fn answered(&self) {
        *self.state.borrow_mut() = State::Closed;
    }

    /// A request gave up because the server could not answer.
    pub(crate) fn failed(&self, now: f64, cause: String) {
        *self.state.borrow_mut() = State::Open { since: now, cause, rearmed: false };
    }

    /// A new command begins: an open breaker lets its first request probe.
    pub(crate) fn rearm(&self) {
        if let State::Open { rearmed, .. } = &mut *self.state.borrow_mut() {
            *rearmed = true;
        }
    }

    #[cfg(test)]
    pub(crate) fn is_open(&self) -> bool {
        matches!(*self.state.borrow(), State::Open { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(a: Result<Admit<'_>, String>) -> Result<&'static str, String> {
        a.map(|a| match a {
            Admit::Go => "go",
            Admit::Probe(_) => "probe",
            Admit::Wait => "wait",
        })
    }

    #[test]
    fn opens_on_failure_and_probes_after_the_cool_down() {
        let b = Breaker::default();
        assert_eq!(name(b.admit(0.0)), Ok("go"));
        b.failed(10.0, "connect ECONNREFUSED".into());
        assert_eq!(name(b.admit(20.0)), Err("connect ECONNREFUSED".into()));
        let probe = b.admit(10.0 + COOL_DOWN_MS);
        assert_eq!(name(b.admit(10.0 + COOL_DOWN_MS)), Ok("wait"), "one probe at a time; the others wait for it");
        b.failed(6000.0, "timeout".into());
        drop(probe);
        assert_eq!(name(b.admit(6001.0)), Err("timeout".into()), "a failed probe opens it again");
        b.rearm();
        let probe = b.admit(6002.0);
        assert_eq!(name(probe), Ok("probe"), "a new command probes at once");
        b.answered();
        assert_eq!((name(b.admit(6003.0)), b.is_open()), (Ok("go"), false));
    }

    #[test]
    fn rearming_a_closed_breaker_changes_nothing() {
        let b = Breaker::default();
        b.rearm();
        assert_eq!(name(b.admit(0.0)), Ok("go"));
        b.failed(0.0, "x".into());
        assert!(b.admit(1.0).is_err(), "rearm is not remembered across an opening");
    }

    #[test]
    fn waiters_go_on_when_the_probe_is_done_or_dropped() {
        let b = Breaker::default();
        b.failed(0.0, "reset".into());
        b.rearm();
        let probe = b.admit(1.0).unwrap();
        let mut waiter = Box::pin(b.settled());
        assert!(crate::testing::poll_once(waiter.as_mut()).is_pending(), "the probe is out");
        drop(probe);
        assert!(crate::testing::poll_once(waiter.as_mut()).is_ready(), "a dropped probe lets the waiters on");
        assert_eq!(name(b.admit(2.0)), Ok("probe"), "and the next request probes in its place");
    }
}
