//! grep `-P`'s backtracking engine: fancy-regex over patterns [`spell`]ed with PCRE's
//! meaning. It is the package's `perl` module, loaded the first time a `-P` pattern may
//! need what the core's engine does not do (see [`crate::search::pattern::perl`]), and
//! the engine of the native tests.
//!
//! A match that backtracks more than [`BACKTRACK_LIMIT`] steps gives up with
//! [`Exceeded`], as PCRE's match limit does in GNU grep: a hostile pattern costs bounded
//! time per line, never a hang.

mod spell;

use crate::search::pattern::perl::{Backtracker, Exceeded, Options, Refusal};
use fancy_regex::{CompileError, Error, ParseError, RegexBuilder, RuntimeError};
use std::ops::Range;

/// The steps one search of a line may backtrack (fancy-regex's default, a tenth of PCRE's
/// 10,000,000 match calls, which cost more each).
pub(crate) const BACKTRACK_LIMIT: usize = 1_000_000;

/// A compiled pattern.
pub(crate) struct Compiled(fancy_regex::Regex);

/// Compiles `pattern` as grep `-P` with `o` would.
pub(crate) fn compile(pattern: &str, o: Options) -> Result<Compiled, Refusal> {
    let spelled = spell::spell(pattern, o)?;
    RegexBuilder::new(&spelled)
        .case_insensitive(o.ignore_case)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
        .map(Compiled)
        .map_err(|e| refusal(&spelled, &e))
}

impl Backtracker for Compiled {
    fn find_at(&self, line: &str, start: usize) -> Result<Option<Range<usize>>, Exceeded> {
        match self.0.find_from_pos(line, start) {
            Ok(found) => Ok(found.map(|m| m.range())),
            Err(_) => Err(Exceeded),
        }
    }
}

/// PCRE's words for what fancy-regex refuses in `spelled` and PCRE refuses too; anything
/// else is a pattern PCRE would take.
fn refusal(spelled: &str, e: &Error) -> Refusal {
    let invalid = |m: &str| Refusal::Invalid(m.to_string());
    match e {
        Error::ParseError(_, ParseError::UnclosedOpenParen) => invalid("missing closing parenthesis"),
        Error::ParseError(at, ParseError::GeneralParseError(_)) if spelled.as_bytes().get(*at) == Some(&b')') => {
            invalid("unmatched closing parenthesis")
        }
        Error::CompileError(c) => match c.as_ref() {
            CompileError::LookBehindNotConst | CompileError::VariableLookBehindRequiresFeature => {
                invalid("lookbehind assertion is not fixed length")
            }
            CompileError::InvalidBackref(_) => invalid("reference to non-existent subpattern"),
            CompileError::InnerError(inner) if format!("{inner:?}").contains("ClassRangeInvalid") => {
                invalid("range out of order in character class")
            }
            other => Refusal::Unsupported(format!("the Perl engine: {other}")),
        },
        Error::RuntimeError(RuntimeError::BacktrackLimitExceeded) => Refusal::Unsupported("backtracking".into()),
        other => Refusal::Unsupported(format!("the Perl engine: {other}")),
    }
}

#[cfg(test)]
mod tests;
