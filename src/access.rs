//! Access control: who may see which page.
//!
//! A session carries a set of groups. A page is visible when its tree entry says
//! `isPublic: true`, or when its `groups` share a member with the session's. Anything
//! else — a missing `isPublic`, an empty group list, a malformed entry — is invisible:
//! the rules fail closed. Invisible pages are not "forbidden", they do not exist for the
//! session; the path tree is pruned with [`Groups::can_see`] before any listing is built,
//! and every content query is scoped to the visible slugs (see `fs`).

use std::collections::BTreeSet;

/// The groups of one session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Groups(BTreeSet<String>);

impl Groups {
    pub fn new<I, S>(groups: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Groups(groups.into_iter().map(Into::into).filter(|g: &String| !g.is_empty()).collect())
    }

    /// Whether a page with these access fields is visible to the session.
    pub fn can_see(&self, is_public: bool, page_groups: &[String]) -> bool {
        is_public || page_groups.iter().any(|g| self.0.contains(g))
    }

    /// A stable key for caches of per-group-set views.
    pub fn key(&self) -> String {
        self.0.iter().map(String::as_str).collect::<Vec<_>>().join("\u{1f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn public_pages_are_visible_to_everyone() {
        assert!(Groups::default().can_see(true, &[]));
        assert!(Groups::new(["x"]).can_see(true, &g(&["admin"])));
    }

    #[test]
    fn private_pages_need_a_shared_group() {
        let billing = Groups::new(["billing"]);
        assert!(billing.can_see(false, &g(&["admin", "billing"])));
        assert!(!billing.can_see(false, &g(&["admin"])));
        assert!(!Groups::default().can_see(false, &g(&["admin"])));
    }

    #[test]
    fn fails_closed() {
        // No groups on the page and not public: nobody sees it.
        assert!(!Groups::new(["admin", "billing"]).can_see(false, &[]));
        // An empty group name never matches an empty-named page group.
        assert!(!Groups::new([""]).can_see(false, &g(&[""])));
    }

    #[test]
    fn key_is_order_independent() {
        assert_eq!(Groups::new(["b", "a"]).key(), Groups::new(["a", "b", "a"]).key());
    }
}
