//! Failing fast while Chroma is down.
//!
//! A command over a thousand pages that finds the server down would otherwise wait out
//! retries, backoff and perhaps a timeout for every page in turn. Once a request fails in
//! a way that says the server cannot answer — no connection, a timeout, a 5xx after
//! retries — the breaker opens: the session's other requests fail at once with that
//! cause. It lets one request through to probe again after [`COOL_DOWN_MS`], or as soon
//! as the next command begins ([`Breaker::rearm`]), so the agent's next command works
//! the moment the server is back. Any HTTP answer that is not a 5xx closes it.

use std::cell::RefCell;

/// How long an open breaker refuses requests before letting one probe.
const COOL_DOWN_MS: f64 = 5_000.0;

#[derive(Debug, Clone, PartialEq)]
enum State {
    Closed,
    Open { since: f64, cause: String, rearmed: bool, probing: bool },
}

/// Whether a request may go; a probe goes alone and is not retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admit {
    Go,
    Probe,
}

pub(crate) struct Breaker {
    state: RefCell<State>,
}

impl Default for Breaker {
    fn default() -> Self {
        Breaker { state: RefCell::new(State::Closed) }
    }
}

impl Breaker {
    /// May a request go at `now`? `Err` carries the failure that opened the breaker.
    pub(crate) fn admit(&self, now: f64) -> Result<Admit, String> {
        let mut state = self.state.borrow_mut();
        match &mut *state {
            State::Closed => Ok(Admit::Go),
            State::Open { since, cause, rearmed, probing } => {
                if !*probing && (*rearmed || now - *since >= COOL_DOWN_MS) {
                    *probing = true;
                    Ok(Admit::Probe)
                } else {
                    Err(cause.clone())
                }
            }
        }
    }

    /// The server answered (anything but a 5xx).
    pub(crate) fn answered(&self) {
        *self.state.borrow_mut() = State::Closed;
    }

    /// A request gave up because the server could not answer.
    pub(crate) fn failed(&self, now: f64, cause: String) {
        *self.state.borrow_mut() = State::Open { since: now, cause, rearmed: false, probing: false };
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

    #[test]
    fn opens_on_failure_and_probes_after_the_cool_down() {
        let b = Breaker::default();
        assert_eq!(b.admit(0.0), Ok(Admit::Go));
        b.failed(10.0, "connect ECONNREFUSED".into());
        assert_eq!(b.admit(20.0), Err("connect ECONNREFUSED".into()));
        assert_eq!(b.admit(10.0 + COOL_DOWN_MS), Ok(Admit::Probe));
        assert_eq!(b.admit(10.0 + COOL_DOWN_MS), Err("connect ECONNREFUSED".into()), "one probe at a time");
        b.failed(6000.0, "timeout".into());
        assert_eq!(b.admit(6001.0), Err("timeout".into()), "a failed probe opens it again");
        b.rearm();
        assert_eq!(b.admit(6002.0), Ok(Admit::Probe), "a new command probes at once");
        b.answered();
        assert_eq!((b.admit(6003.0), b.is_open()), (Ok(Admit::Go), false));
    }

    #[test]
    fn rearming_a_closed_breaker_changes_nothing() {
        let b = Breaker::default();
        b.rearm();
        assert_eq!(b.admit(0.0), Ok(Admit::Go));
        b.failed(0.0, "x".into());
        assert!(b.admit(1.0).is_err(), "rearm is not remembered across an opening");
    }
}
