//! What one command may spend: requests, time, and whether it was abandoned.
//!
//! An agent's tool call needs a deadline, and an edge runtime caps the subrequests one
//! invocation may make (Cloudflare Workers: 50 on the free plan). A command — one `grep`,
//! or a whole command line when the host brackets it — opens a budget with
//! [`Budget::begin_within`] and closes it with [`Budget::end`]; commands run inside it (`xargs`
//! running `cat`) share it. Every request the session sends, to Chroma or to a lazy
//! file's URL, goes through [`Budgeted`], which refuses it once the budget is spent, the
//! deadline has passed or the command was aborted, and cuts its timeout to what is left
//! of the deadline. A refused request fails at once and is never retried, so a command
//! that hits its limit stops with that reason instead of a partial answer. Requests
//! outside any command (`connect`, a host's own `readFile`) are not limited.
//!
//! Several sessions shown as one shell (mounts) share one budget ([`Budget::join`]): a
//! command over all of them may send what one command may, not that much per session.

use crate::base::sync::LocalFuture;
use crate::chroma::transport::{HttpRequest, HttpResponse, Refusal, Transport, TransportError};
use std::cell::RefCell;
use std::rc::Rc;

/// The host's limits per command; `None` is unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Limits {
    pub max_requests: Option<u64>,
    pub timeout_ms: Option<u32>,
}

impl Limits {
    /// The tighter of two limits, each part on its own.
    fn within(self, other: Limits) -> Limits {
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            max_requests: min(self.max_requests, other.max_requests),
            timeout_ms: min(self.timeout_ms.map(u64::from), other.timeout_ms.map(u64::from)).map(|t| t as u32),
        }
    }
}

#[derive(Default)]
struct Open {
    depth: u32,
    requests: u64,
    /// The session's limits, tightened by what the outermost command asked for.
    limits: Limits,
    /// When the outermost command began.
    started: f64,
    deadline: Option<f64>,
    aborted: bool,
}

/// The running command and the count of commands: what sessions sharing a budget share.
#[derive(Default)]
struct State {
    open: RefCell<Open>,
    commands: RefCell<u64>,
}

/// One session's command budget.
pub(crate) struct Budget {
    limits: Limits,
    state: RefCell<Rc<State>>,
}

impl Budget {
    pub(crate) fn new(limits: Limits) -> Self {
        Budget { limits, state: RefCell::default() }
    }

    fn state(&self) -> Rc<State> {
        self.state.borrow().clone()
    }

    /// From now on this budget is `other`'s: a command open on either is open on both, and
    /// their requests count together, held to the limits of the session that opened it.
    pub(crate) fn join(&self, other: &Budget) {
        let shared = other.state();
        *self.state.borrow_mut() = shared;
    }

    /// Opens a command's budget at `now`, or joins the one already open.
    #[cfg(test)]
    pub(crate) fn begin(&self, now: f64) {
        self.begin_within(now, Limits::default());
    }

    /// Opens a command's budget at `now`, or joins the one already open; the command is
    /// held to `tighter` as well as to the session's limits (a server bounds each call it
    /// answers whatever the session allows).
    pub(crate) fn begin_within(&self, now: f64, tighter: Limits) {
        let state = self.state();
        let mut open = state.open.borrow_mut();
        if open.depth == 0 {
            let limits = self.limits.within(tighter);
            *open = Open {
                depth: 0,
                requests: 0,
                limits,
                started: now,
                deadline: limits.timeout_ms.map(|ms| now + ms as f64),
                aborted: false,
            };
            *state.commands.borrow_mut() += 1;
        }
        open.depth += 1;
    }

    pub(crate) fn end(&self) {
        let state = self.state();
        let mut open = state.open.borrow_mut();
        open.depth = open.depth.saturating_sub(1);
    }

    /// Stops the open command: its requests not yet sent are refused.
    pub(crate) fn abort(&self) {
        let state = self.state();
        let mut open = state.open.borrow_mut();
        if open.depth > 0 {
            open.aborted = true;
        }
    }

    /// Whether a command is running (outside one, nothing is limited).
    pub(crate) fn in_command(&self) -> bool {
        self.state().open.borrow().depth > 0
    }

    /// When the running command began; `now` outside one (each read is its own moment).
    pub(crate) fn started(&self, now: f64) -> f64 {
        let state = self.state();
        let open = state.open.borrow();
        if open.depth > 0 {
            open.started
        } else {
            now
        }
    }

    /// What is left of the running command's time at `now`, with its limit, when it has one.
    pub(crate) fn time_left(&self, now: f64) -> Option<(f64, u32)> {
        let state = self.state();
        let open = state.open.borrow();
        let deadline = open.deadline.filter(|_| open.depth > 0)?;
        Some(((deadline - now).max(0.0), open.limits.timeout_ms.unwrap_or(0)))
    }

    /// Requests the running command may still send, when it is limited.
    pub(crate) fn requests_left(&self) -> Option<u64> {
        let state = self.state();
        let open = state.open.borrow();
        let most = open.limits.max_requests.filter(|_| open.depth > 0)?;
        Some(most.saturating_sub(open.requests))
    }

    /// Commands begun so far (a new one lets a tripped breaker probe at once).
    pub(crate) fn commands(&self) -> u64 {
        *self.state().commands.borrow()
    }

    /// Takes one request from the open budget; the timeout it may wait, or why not.
    fn take(&self, now: f64, timeout_ms: u32) -> Result<u32, Refusal> {
        let state = self.state();
        let mut open = state.open.borrow_mut();
        if open.depth == 0 {
            return Ok(timeout_ms);
        }
        if open.aborted {
            return Err(Refusal::Aborted);
        }
        let mut timeout = timeout_ms;
        if let (Some(deadline), Some(ms)) = (open.deadline, open.limits.timeout_ms) {
            if now >= deadline {
                return Err(Refusal::Deadline(ms));
            }
            timeout = timeout.min((deadline - now).ceil() as u32).max(1);
        }
        if let Some(max) = open.limits.max_requests {
            if open.requests >= max {
                return Err(Refusal::Spent(max));
            }
        }
        open.requests += 1;
        Ok(timeout)
    }

    /// Why a request that timed out at `now` failed: the deadline, when it has passed.
    fn past_deadline(&self, now: f64) -> Option<Refusal> {
        let state = self.state();
        let open = state.open.borrow();
        let passed = open.depth > 0 && open.deadline.is_some_and(|d| now >= d);
        passed.then(|| Refusal::Deadline(open.limits.timeout_ms.unwrap_or(0)))
    }
}

/// A [`Transport`] that sends only what the open command's [`Budget`] allows.
pub(crate) struct Budgeted {
    inner: Rc<dyn Transport>,
    budget: Rc<Budget>,
}

impl Budgeted {
    pub(crate) fn new(inner: Rc<dyn Transport>, budget: Rc<Budget>) -> Self {
        Budgeted { inner, budget }
    }
}

impl Transport for Budgeted {
    fn send(&self, mut req: HttpRequest) -> LocalFuture<'static, Result<HttpResponse, TransportError>> {
        let (inner, budget) = (self.inner.clone(), self.budget.clone());
        Box::pin(async move {
            req.timeout_ms = budget.take(inner.now_ms(), req.timeout_ms).map_err(TransportError::NotSent)?;
            match inner.send(req).await {
                Err(TransportError::Timeout) => {
                    Err(budget.past_deadline(inner.now_ms()).map_or(TransportError::Timeout, TransportError::NotSent))
                }
                other => other,
            }
        })
    }

    fn sleep(&self, ms: u32) -> LocalFuture<'static, ()> {
        self.inner.sleep(ms)
    }

    fn now_ms(&self) -> f64 {
        self.inner.now_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{block_on, FakeChroma};

    fn budgeted(limits: Limits) -> (FakeChroma, Rc<Budget>, Budgeted) {
        let chroma = FakeChroma::new();
        let budget = Rc::new(Budget::new(limits));
        let t = Budgeted::new(Rc::new(chroma.clone()), budget.clone());
        (chroma, budget, t)
    }

    fn send(t: &Budgeted) -> Result<HttpResponse, TransportError> {
        block_on(t.send(HttpRequest::get("http://chroma.test/api/v2/heartbeat", 10_000, 1 << 20)))
    }

    #[test]
    fn requests_outside_a_command_are_not_limited() {
        let (chroma, _, t) = budgeted(Limits { max_requests: Some(1), timeout_ms: Some(1) });
        chroma.advance(100.0);
        for _ in 0..3 {
            assert!(send(&t).is_ok());
        }
    }

    #[test]
    fn a_command_stops_at_its_request_budget_and_nested_commands_share_it() {
        let (chroma, budget, t) = budgeted(Limits { max_requests: Some(2), timeout_ms: None });
        budget.begin(0.0);
        assert!(send(&t).is_ok());
        budget.begin(0.0);
        assert!(send(&t).is_ok());
        assert_eq!(send(&t), Err(TransportError::NotSent(Refusal::Spent(2))));
        budget.end();
        assert_eq!(send(&t), Err(TransportError::NotSent(Refusal::Spent(2))), "the inner command did not reset it");
        budget.end();
        budget.begin(0.0);
        assert!(send(&t).is_ok(), "the next command has a budget of its own");
        assert_eq!(chroma.requests().len(), 3, "refused requests are not sent");
        assert_eq!(budget.commands(), 2);
        assert_eq!(Refusal::Spent(2).to_string(), "the command used its budget of 2 requests (maxRequestsPerCommand)");
    }

    #[test]
    fn joined_budgets_are_one_budget_held_to_the_limits_of_the_session_that_opened_it() {
        let (chroma, first, a) = budgeted(Limits { max_requests: Some(3), timeout_ms: None });
        let second = Rc::new(Budget::new(Limits { max_requests: Some(100), timeout_ms: None }));
        second.join(&first);
        let b = Budgeted::new(Rc::new(chroma.clone()), second.clone());
        first.begin(0.0);
        second.begin(0.0);
        assert!(send(&a).is_ok());
        assert!(send(&b).is_ok());
        assert!(send(&b).is_ok());
        assert_eq!(send(&b), Err(TransportError::NotSent(Refusal::Spent(3))), "three in all, not three each");
        assert_eq!(send(&a), Err(TransportError::NotSent(Refusal::Spent(3))));
        second.abort();
        first.end();
        assert!(second.in_command(), "the command is open until both sessions end it");
        second.end();
        assert!(!first.in_command());
        assert_eq!(first.commands(), 1, "one command, begun twice");
        assert_eq!(chroma.requests().len(), 3);
    }

    #[test]
    fn the_deadline_cuts_timeouts_and_then_refuses() {
        let (chroma, budget, t) = budgeted(Limits { max_requests: None, timeout_ms: Some(500) });
        budget.begin(chroma.now_ms());
        chroma.advance(200.0);
        assert!(send(&t).is_ok());
        assert_eq!(chroma.requests()[0].timeout_ms, 300, "the request may wait only what is left");
        chroma.set_fault({
            let c = chroma.clone();
            move |_| {
                c.advance(300.0);
                Some(Err(TransportError::Timeout))
            }
        });
        assert_eq!(
            send(&t),
            Err(TransportError::NotSent(Refusal::Deadline(500))),
            "a timeout at the deadline is the deadline"
        );
        assert_eq!(send(&t), Err(TransportError::NotSent(Refusal::Deadline(500))));
        assert_eq!(chroma.requests().len(), 2);
    }

    #[test]
    fn a_command_may_be_held_tighter_than_the_session_never_looser() {
        let (chroma, budget, t) = budgeted(Limits { max_requests: Some(3), timeout_ms: None });
        budget.begin_within(0.0, Limits { max_requests: Some(1), timeout_ms: Some(100) });
        assert!(send(&t).is_ok());
        assert_eq!(send(&t), Err(TransportError::NotSent(Refusal::Spent(1))));
        budget.end();
        budget.begin_within(0.0, Limits { max_requests: Some(10), timeout_ms: None });
        for _ in 0..3 {
            assert!(send(&t).is_ok());
        }
        assert_eq!(send(&t), Err(TransportError::NotSent(Refusal::Spent(3))), "the session's own limit still holds");
        budget.end();
        assert_eq!(chroma.requests().len(), 4);
    }

    #[test]
    fn an_aborted_command_sends_nothing_more() {
        let (chroma, budget, t) = budgeted(Limits::default());
        budget.abort();
        budget.begin(0.0);
        assert!(send(&t).is_ok(), "an abort outside a command is ignored");
        budget.abort();
        assert_eq!(send(&t), Err(TransportError::NotSent(Refusal::Aborted)));
        budget.end();
        budget.begin(0.0);
        assert!(send(&t).is_ok());
        assert_eq!(chroma.requests().len(), 2);
    }
}
