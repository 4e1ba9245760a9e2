//! The vocabulary every layer shares, with no knowledge of Chroma or of documentation.
//!
//! The POSIX character classes of a byte ([`ctype`]), the one reader of bracket
//! expressions ([`bracket`]), C's one-letter escapes ([`cescape`]), Node-style errors ([`error`]), the embedding function's
//! contract ([`embed`]), the one reader of GNU command lines ([`getopt`]), path
//! normalisation as just-bash does it ([`path`]), GNU's quoting of names ([`quote`]), the
//! one glob matcher ([`glob`]), strict JSON reading ([`json`]), a fast hash for path-keyed
//! maps ([`hash`]), injective keys built from names ([`key`]), one compiled stable sort
//! ([`sort`]), concurrency on a single-threaded executor ([`sync`]), the long texts
//! commands print, stored deflated ([`texts`]), fast UTF-8 validation ([`utf8`]), GNU's version order
//! ([`vercmp`]), and the columns a character takes on a terminal ([`width`]).
//! Nothing here imports another layer, so every layer may import it.

pub(crate) mod bracket;
pub(crate) mod cescape;
pub(crate) mod ctype;
pub(crate) mod embed;
pub(crate) mod error;
pub(crate) mod getopt;
pub(crate) mod glob;
pub(crate) mod hash;
pub(crate) mod json;
pub(crate) mod key;
pub(crate) mod path;
pub(crate) mod quote;
pub(crate) mod sort;
pub(crate) mod sync;
pub(crate) mod texts;
pub(crate) mod utf8;
pub(crate) mod vercmp;
pub(crate) mod width;
