//! A fast hash for maps keyed by paths.
//!
//! A listing of 50,000 pages looks up every ancestor of every page while it is built, and
//! std's SipHash spends more time per short path than the rest of that work. Its keys are
//! no defence here either: on `wasm32-unknown-unknown` std has no source of randomness and
//! seeds every map alike. [`PathHasher`] multiplies and rotates eight bytes at a time, as
//! rustc's own maps do; the paths come from the tree the collection's writer chose, which
//! is validated (length, depth, count) before any map is built.

use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` hashed with [`PathHasher`].
pub(crate) type PathMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<PathHasher>>;

/// A `HashSet` hashed with [`PathHasher`]: the pages of a search, by slug or path.
pub(crate) type PathSet<K> = std::collections::HashSet<K, BuildHasherDefault<PathHasher>>;

/// Multiply-rotate hashing, eight bytes per step.
#[derive(Default, Clone, Copy)]
pub(crate) struct PathHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl PathHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for PathHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
        // The length tells a zero-padded tail from real zero bytes.
        self.add(bytes.len() as u64);
    }
    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    fn hash(s: &str) -> u64 {
        BuildHasherDefault::<PathHasher>::default().hash_one(s)
    }

    #[test]
    fn paths_that_differ_anywhere_hash_apart() {
        let paths: Vec<String> =
            (0..20_000).map(|i| format!("/v{:03}/section-{}/page-{i}.mdx", i % 7, i % 13)).collect();
        let mut hashes: Vec<u64> = paths.iter().map(|p| hash(p)).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), paths.len());
        // Zero bytes are not padding.
        assert_ne!(hash("ab"), hash("ab\0"));
        assert_ne!(hash("ab"), hash("ab\0\0\0\0\0\0\0\0"));
        let mut map = PathMap::default();
        map.insert("/a".to_string(), 1);
        assert_eq!(map.get("/a"), Some(&1));
    }
}
