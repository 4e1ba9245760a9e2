//! The scratch directory at the boundary: a redirection's check before a command runs,
//! and the directory's content saved and restored between a server's calls.

use super::convert::{fs_error, invalid, to_bytes};
use super::ChromaFs;
use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl ChromaFs {
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
    /// empty). Bytes that do not read back are refused (EINVAL) and change nothing.
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
