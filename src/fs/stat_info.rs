//! What `stat` answers, for pages, directories and scratch files alike.
//!
//! Its own module so that the scratch directory, which answers `stat` for its files,
//! does not import the filesystem that holds it.

/// File metadata, as `stat` reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StatInfo {
    pub is_file: bool,
    pub is_dir: bool,
    pub mode: u32,
    pub size: u64,
    pub mtime_ms: f64,
    pub ino: u64,
}
