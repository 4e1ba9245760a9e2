//! How often a search parses its arguments, walks its scope and compiles its pattern:
//! counted in tests only, so that a test can hold the pipeline to doing each once.
//!
//! The stages of a search hand each other one parsed [`Job`](crate::search::job::Job); redoing
//! a stage's work is invisible in the output and only shows up as time, so these counts
//! are what keeps it from creeping back.

use std::cell::Cell;

/// What is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Command lines parsed (grep's or rg's parser run).
    pub parses: u32,
    /// Operands walked (grep's or rg's directory walk started).
    pub walks: u32,
    /// Native grep/rg engines compiled.
    pub engines: u32,
    /// Coarse filters and fine checks compiled.
    pub matchers: u32,
}

thread_local! {
    static TALLY: Cell<Tally> = Cell::new(Tally::default());
}

/// Adds to this thread's tally.
pub(crate) fn bump(f: impl FnOnce(&mut Tally)) {
    TALLY.with(|t| {
        let mut now = t.get();
        f(&mut now);
        t.set(now);
    });
}

/// This thread's tally, which starts again from zero.
pub(crate) fn take() -> Tally {
    TALLY.with(|t| t.take())
}
