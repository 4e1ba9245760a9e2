//! Where the collection is and how to reach it (`url`, `tenant`, `database`, credentials,
//! timeouts, retries), shared by `connect` and `ingest`; a command's own limits; the
//! collection's field names.

use super::fields::{fail, Fields, OptionError};
use crate::chroma::budget::Limits;
use crate::chroma::url::{self, Url, UrlError};
use crate::chroma::ClientConfig;
use crate::tree::schema::Schema;
use serde_json::Value;

/// Whether `fetch` can send a header: a name of token characters, a value of bytes with no
/// NUL, CR or LF. Checked here so that `fetch`'s own error, which quotes the value, never
/// shows a credential; the reason names what is wrong, never the value.
fn check_header(name: &str, value: &str) -> Result<(), &'static str> {
    let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(token) {
        return Err("is not a valid header name");
    }
    if value.chars().any(|c| matches!(c, '\0' | '\r' | '\n') || c as u32 > 0xff) {
        return Err(
            "has a value fetch cannot send (a line break, a NUL or a character above U+00FF); the value is not shown",
        );
    }
    Ok(())
}

/// Where the collection is and how to reach it: shared by `connect` and `ingest`.
/// `networkErrors`: `"log"` keeps the causes of network failures (addresses, the host's
/// words) out of messages and writes them to the host's console; `"show"`, the default,
/// puts them in messages.
pub(crate) fn network_errors_logged(f: &Fields) -> Result<bool, OptionError> {
    match f.string("networkErrors") {
        Ok(None) => Ok(false),
        Ok(Some(s)) if s == "show" => Ok(false),
        Ok(Some(s)) if s == "log" => Ok(true),
        _ => fail("option networkErrors must be \"show\" or \"log\""),
    }
}

pub(crate) fn client_config(f: &Fields) -> Result<ClientConfig, OptionError> {
    let raw = f.required("url")?;
    let url = match Url::parse(&raw) {
        Ok(u) => u,
        Err(UrlError::Userinfo) => {
            return fail("option url must not contain a user name or password (pass credentials with token or headers)")
        }
        Err(e) => return fail(format!("option url must be an absolute http(s) URL, got {} ({e})", url::redact(&raw))),
    };
    // The API's paths go after the base URL: a query there would become part of every path
    // (`/?api_key=…/api/v2/…`), and whatever it holds would be sent where it was not meant.
    if url.has_query() {
        return fail(format!(
            "option url must not have a query string, got {} (pass credentials with token or headers)",
            url.shown()
        ));
    }
    let mut c = ClientConfig::new(&url.to_string());
    if let Some(t) = f.string("tenant")? {
        c.tenant = t;
    }
    if let Some(d) = f.string("database")? {
        c.database = d;
    }
    if let Some(t) = f.string("token")? {
        check_header("x-chroma-token", &t).map_err(|why| OptionError(format!("option token {why}")))?;
        c.headers.push(("x-chroma-token".into(), t));
    }
    if let Some(h) = f.member("headers") {
        let Some(h) = h.as_object() else { return fail("option headers must be an object of strings") };
        for (k, v) in h {
            let v = v.as_str().ok_or_else(|| OptionError(format!("header {k} must be a string")))?;
            check_header(k, v).map_err(|why| {
                OptionError(format!("header {} {why}", crate::chroma::redact::excerpt(&format!("{k:?}"))))
            })?;
            c.headers.push((k.clone(), v.to_string()));
        }
    }
    if let Some(t) = f.number("timeoutMs")? {
        c.timeout_ms = t.clamp(1.0, 600_000.0) as u32;
    }
    if let Some(n) = f.number("maxConcurrency")? {
        c.max_concurrency = (n as usize).max(1);
    }
    if let Some(n) = f.number("retries")? {
        c.retries = (n as u32).min(10);
    }
    if let Some(n) = f.number("maxWherePredicates")? {
        c.where_predicates = (n as usize).clamp(1, crate::chroma::WHERE_PREDICATES_CEILING);
    }
    Ok(c)
}

/// The limits `beginCommand` may add for one command (`{ maxRequests, timeoutMs }`);
/// absent or `undefined` adds none.
pub(crate) fn command_limits(value: &Value) -> Result<Limits, OptionError> {
    if value.is_null() {
        return Ok(Limits::default());
    }
    let f = Fields::of(value, "beginCommand")?;
    Ok(Limits {
        max_requests: f.number("maxRequests")?.map(|n| n.max(1.0) as u64),
        timeout_ms: f.number("timeoutMs")?.map(|n| n.clamp(1.0, u32::MAX as f64) as u32),
    })
}

/// The collection's field names and tree id.
pub(crate) fn schema(f: &Fields) -> Result<Schema, OptionError> {
    let d = Schema::default();
    Ok(Schema {
        slug_field: f.string("slugField")?.unwrap_or(d.slug_field),
        chunk_index_field: f.string("chunkIndexField")?.unwrap_or(d.chunk_index_field),
        tree_id: f.string("treeId")?.unwrap_or(d.tree_id),
    })
}
