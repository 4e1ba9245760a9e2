//! Typed reads of an options object, each failure an [`OptionError`] that names the
//! option.

use serde_json::{Map, Value};
use std::fmt;

/// An option that cannot be used; the message names it (`option url is required`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OptionError(pub String);

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OptionError {}

pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T, OptionError> {
    Err(OptionError(message.into()))
}

/// Typed reads of an options object; a missing or `null` member is absent.
pub(crate) struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    pub(crate) fn of(value: &'a Value, what: &str) -> Result<Self, OptionError> {
        match value.as_object() {
            Some(o) => Ok(Fields(o)),
            None => fail(format!("{what} expects an options object")),
        }
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, OptionError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => fail(format!("option {key} must be a string")),
        }
    }

    pub(crate) fn required(&self, key: &str) -> Result<String, OptionError> {
        self.string(key)?.ok_or_else(|| OptionError(format!("option {key} is required")))
    }

    pub(crate) fn number(&self, key: &str) -> Result<Option<f64>, OptionError> {
        match self.get(key).map(Value::as_f64) {
            None => Ok(None),
            Some(Some(n)) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
            Some(_) => fail(format!("option {key} must be a non-negative number")),
        }
    }

    pub(crate) fn strings(&self, key: &str) -> Result<Vec<String>, OptionError> {
        let bad = || OptionError(format!("option {key} must be an array of strings"));
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => {
                items.iter().map(|v| v.as_str().map(str::to_string)).collect::<Option<_>>().ok_or_else(bad)
            }
            Some(_) => Err(bad()),
        }
    }

    pub(crate) fn flag(&self, key: &str) -> bool {
        match self.get(key) {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Number(n)) => n.as_f64() != Some(0.0),
            Some(Value::String(s)) => !s.is_empty(),
            Some(_) => true,
        }
    }

    pub(crate) fn member(&self, key: &str) -> Option<&'a Value> {
        self.get(key)
    }
}
