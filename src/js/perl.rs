//! The `perl` module's entry point: grep `-P` patterns compiled by [`crate::perl`], for
//! the core module's searches (see `setPerlEngine` there).

use crate::perl;
use crate::search::pattern::perl::{Backtracker, Options, Refusal};
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

/// A compiled grep `-P` pattern.
#[wasm_bindgen]
pub struct PerlRegex(perl::Compiled);

#[wasm_bindgen]
impl PerlRegex {
    /// Compiles `pattern` as grep `-P` with `-i`, `-w`, `-x` as given; throws
    /// `{ invalid: message }` in PCRE's words or `{ unsupported: reason }`.
    #[wasm_bindgen(constructor)]
    pub fn new(pattern: &str, ignore_case: bool, word: bool, line: bool) -> Result<PerlRegex, JsValue> {
        perl::compile(pattern, Options { ignore_case, word, line }).map(PerlRegex).map_err(|r| {
            let thrown = Object::new();
            let (key, message) = match r {
                Refusal::Invalid(m) => ("invalid", m),
                Refusal::Unsupported(m) => ("unsupported", m),
            };
            let _ = Reflect::set(&thrown, &key.into(), &message.into());
            thrown.into()
        })
    }

    /// The first match in `line` at or after byte `start`, as `[start, end]` in bytes;
    /// `undefined` for none. Throws when the backtracking limit is reached.
    pub fn find(&self, line: &str, start: u32) -> Result<Option<Vec<u32>>, JsValue> {
        let start = (start as usize).min(line.len());
        if !line.is_char_boundary(start) {
            return Ok(None);
        }
        match self.0.find_at(line, start) {
            Ok(found) => Ok(found.map(|m| vec![m.start as u32, m.end as u32])),
            Err(_) => Err(JsValue::from_str("exceeded the backtracking limit")),
        }
    }
}
