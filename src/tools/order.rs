//! Whether `comm` and `join` check that their inputs are sorted, as coreutils does.

/// `--check-order`, `--nocheck-order`, or neither.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// Once a line has had no pair: a warning, and status 1 at the end.
    Default,
    /// `--check-order`: the first line out of order ends the run.
    Enabled,
    Disabled,
}

impl Check {
    /// Whether lines are checked now, `unpaired` saying whether one has had no pair yet.
    pub(crate) fn checking(self, unpaired: bool) -> bool {
        self == Check::Enabled || (self == Check::Default && unpaired)
    }
}
