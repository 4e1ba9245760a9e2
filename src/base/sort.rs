//! Stable sorting through one compiled copy of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element and the comparator, and every distinct pair
//! compiles its own driftsort (about 4 KB of wasm each). The module ships to edge runtimes,
//! so sorts here order indices with a comparator behind `dyn` (one instance for the whole
//! crate) and then move the elements into place along the permutation's cycles. The cost is
//! an indirect call per comparison, nothing next to comparing two paths.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`, as `slice::sort_by` does.
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let items: &[T] = v;
        permutation(items.len(), &mut |a, b| cmp(&items[a], &items[b]))
    };
    apply(v, order);
}

/// Sorts `v` stably by a key, as `slice::sort_by_key` does.
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` stably in ascending order, as `slice::sort` does.
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The order of `0..n` that `cmp` sorts into: `order[i]` is the index that belongs at `i`.
fn permutation(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Moves `v[order[i]]` to `i` for every `i`, one cycle of the permutation at a time.
fn apply<T>(v: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..v.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = std::mem::replace(&mut order[at], DONE);
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library() {
        let mut seed = 7u64;
        for len in 0..60 {
            let mut v: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 59) as u8, i)
                })
                .collect();
            let mut expected = v.clone();
            expected.sort_by_key(|p| p.0);
            sort_by_key(&mut v, |p| p.0);
            assert_eq!(v, expected, "stable order of {len} elements");
        }
    }

    #[test]
    fn sorts_owned_strings_in_place() {
        let mut v: Vec<String> = ["b", "c", "a", "b"].iter().map(|s| s.to_string()).collect();
        sort(&mut v);
        assert_eq!(v, ["a", "b", "b", "c"]);
        sort_by(&mut v, |a, b| b.cmp(a));
        assert_eq!(v, ["c", "b", "b", "a"]);
    }
}
