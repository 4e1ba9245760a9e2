//! What the package's shell around just-bash asks of a session: whether a redirection
//! would open before its command runs, the scratch directory's content saved and restored
//! between a server's calls, and globs matched as bash matches them.

use super::convert::{fs_error, invalid, to_bytes};
use super::ChromaFs;
use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl ChromaFs {
    /// Whether a file name matches a glob as bash's pathname expansion matches one
    /// segment: `*`, `?`, bracket sets, backslash escapes (not a leading `.`: the caller
    /// leaves dotfiles out). Throws for a glob this matcher does not model.
    #[wasm_bindgen(js_name = globMatches)]
    pub fn glob_matches(glob: &str, name: &str) -> Result<bool, JsValue> {
        let g = crate::base::glob::Glob::fnmatch(glob, false).map_err(|e| invalid(e.0))?;
        Ok(g.matches(name).unwrap_or(false))
    }

    /// Why opening `path` to write would fail, as `{ code, message }` (`code` an errno
    /// name: EROFS, ENOENT, ENOTDIR, EISDIR), or `null` when it would open. Nothing is
    /// written.
    #[wasm_bindgen(js_name = writeError)]
    pub fn write_error(&self, path: String) -> JsValue {
        match self.inner.write_error(&path) {
            Ok(()) => JsValue::NULL,
            Err(e) => fs_error(e),
        }
    }

    /// The scratch directory's whole content as bytes (`restoreScratch` reads them back),
    /// or `undefined` when the session has none.
    #[wasm_bindgen(js_name = saveScratch)]
    pub fn save_scratch(&self) -> Option<Uint8Array> {
        self.inner.save_scratch().map(|b| Uint8Array::from(&b[..]))
    }

    /// Replaces the scratch directory's content with what `saveScratch` gave (`null`:
    /// empty, and what process substitutions left in `/dev/fd` dropped: a server does this
    /// between callers, with a scratch directory or without). Bytes that do not read back
    /// are refused (EINVAL) and change nothing.
    #[wasm_bindgen(js_name = restoreScratch)]
    pub fn restore_scratch(&self, saved: JsValue) -> Result<(), JsValue> {
        let bytes = match saved.is_null() || saved.is_undefined() {
            true => None,
            false => Some(
                to_bytes(&saved).ok_or_else(|| invalid("restoreScratch takes the bytes saveScratch gave, or null"))?,
            ),
        };
        self.inner.restore_scratch(bytes.as_deref()).map_err(fs_error)
    }
}
