//! grep `-P`'s backtracking engine as the host hands it over: a function that compiles a
//! pattern into an object with `find(line, start)` (the package's `perl` module's
//! `PerlRegex`). See [`crate::search::pattern::perl`].
//!
//! `compile(pattern, ignoreCase, word, line)` returns the object or throws
//! `{ invalid: message }` (PCRE's words) or `{ unsupported: reason }`; `find` returns
//! `[start, end]` in bytes of the line, `undefined` for no match, and throws when the
//! backtracking limit is reached.

use super::convert::get;
use crate::search::pattern::perl::{self, Backtracker, Compiler, Exceeded, Options, Refusal};
use js_sys::{Function, Reflect};
use std::ops::Range;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

struct JsCompiler(Function);

struct JsBacktracker {
    regex: JsValue,
    find: Function,
}

impl Compiler for JsCompiler {
    fn compile(&self, pattern: &str, o: Options) -> Result<Rc<dyn Backtracker>, Refusal> {
        let args: [JsValue; 4] = [pattern.into(), o.ignore_case.into(), o.word.into(), o.line.into()];
        let regex = self.0.apply(&JsValue::UNDEFINED, &args.iter().collect()).map_err(|e| {
            let said = |key: &str| get(&e, key).and_then(|v| v.as_string());
            match (said("invalid"), said("unsupported")) {
                (Some(m), _) => Refusal::Invalid(m),
                (None, Some(m)) => Refusal::Unsupported(m),
                (None, None) => Refusal::Unsupported("the Perl engine failed".into()),
            }
        })?;
        let find = Reflect::get(&regex, &"find".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| Refusal::Unsupported("the Perl engine's pattern has no find".into()))?;
        Ok(Rc::new(JsBacktracker { regex, find }))
    }
}

impl Backtracker for JsBacktracker {
    fn find_at(&self, line: &str, start: usize) -> Result<Option<Range<usize>>, Exceeded> {
        let found = self.find.call2(&self.regex, &line.into(), &(start as u32).into()).map_err(|_| Exceeded)?;
        if found.is_undefined() || found.is_null() {
            return Ok(None);
        }
        let at = |i: u32| Reflect::get_u32(&found, i).ok().and_then(|v| v.as_f64()).map(|v| v as usize);
        match (at(0), at(1)) {
            (Some(s), Some(e)) if s <= e && e <= line.len() && line.is_char_boundary(s) && line.is_char_boundary(e) => {
                Ok(Some(s..e))
            }
            _ => Err(Exceeded),
        }
    }
}

/// Hands grep `-P` its backtracking engine: `compile(pattern, ignoreCase, word, line)`
/// (see the module's documentation). Searches from then on use it for patterns beyond
/// the core's engine.
#[wasm_bindgen(js_name = setPerlEngine)]
pub fn set_perl_engine(compile: Function) {
    perl::install(Rc::new(JsCompiler(compile)));
}
