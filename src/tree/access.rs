//! Access control: who may see which page.
//!
//! A session carries a set of groups. A page is visible when its [`Access`] says
//! `isPublic: true`, or when its `groups` share a member with the session's. Anything
//! else — a missing `isPublic`, an empty group list, a malformed entry — is invisible:
//! the rules fail closed. Invisible pages are not "forbidden", they do not exist for the
//! session; the path tree is pruned with [`Groups::can_see`] before any listing is built
//! (see [`crate::tree::listing`]), and content queries only ever name visible pages.

use crate::tree::schema;
use serde_json::{json, Map, Value};

/// Who may see a page: the `isPublic` and `groups` fields of a tree entry or an access rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Access {
    pub is_public: bool,
    pub groups: Vec<String>,
}

impl Access {
    /// Reads the fields from an entry; a missing or null `isPublic` means private.
    pub(crate) fn from_fields(obj: &Map<String, Value>) -> Result<Access, &'static str> {
        Access::from_values(obj.get("isPublic"), obj.get("groups"))
    }

    /// [`Access::from_fields`] given the two fields' values.
    pub(crate) fn from_values(is_public: Option<&Value>, groups: Option<&Value>) -> Result<Access, &'static str> {
        let is_public = match is_public {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err("isPublic must be true or false"),
        };
        const GROUPS: &str = "groups must be an array of strings";
        let groups = match groups {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => {
                items.iter().map(|g| g.as_str().map(str::to_string)).collect::<Option<Vec<_>>>().ok_or(GROUPS)?
            }
            Some(_) => return Err(GROUPS),
        };
        Ok(Access { is_public, groups })
    }
}

/// The groups of one session, sorted and each once (a sorted list rather than a set: a
/// session has a handful, and a set type would add its own code to the module).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Groups(Vec<String>);

impl Groups {
    pub(crate) fn new<I, S>(groups: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut list: Vec<String> = groups.into_iter().map(Into::into).filter(|g: &String| !g.is_empty()).collect();
        crate::base::sort::sort(&mut list);
        list.dedup();
        Groups(list)
    }

    /// Whether a page with this access is visible to the session.
    pub(crate) fn can_see(&self, access: &Access) -> bool {
        access.is_public || access.groups.iter().any(|g| self.0.contains(g))
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }

    /// A key for caches of per-group-set views: two different group sets never share
    /// one, whatever characters their names hold ([`crate::base::key`]).
    pub(crate) fn key(&self) -> String {
        crate::base::key::Key::new().list(self.0.iter().map(String::as_str)).into_string()
    }
}

/// A session's access as Chroma `where` clauses, for collections whose chunks carry
/// `isPublic` and `groups`: a query scoped by it cannot return a chunk the session may not
/// see, whatever tree the session holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SessionAccess {
    groups: Vec<String>,
}

impl SessionAccess {
    /// Groups per clause: with a slug condition and `isPublic`, a clause stays within
    /// Chroma Cloud's 8 where predicates.
    const GROUPS_PER_CLAUSE: usize = 6;

    pub(crate) fn new(groups: &Groups) -> Self {
        SessionAccess { groups: groups.iter().map(str::to_string).collect() }
    }

    /// Where predicates the largest clause counts (`isPublic` and its groups).
    pub(crate) fn predicates(&self) -> usize {
        1 + self.groups.len().min(Self::GROUPS_PER_CLAUSE)
    }

    /// Whether a chunk's metadata admits the session: the same test as [`SessionAccess::clauses`],
    /// for answers fetched without them.
    pub(crate) fn admits(&self, metadata: Option<&Map<String, Value>>) -> bool {
        let Some(m) = metadata else { return false };
        if m.get(schema::IS_PUBLIC) == Some(&Value::Bool(true)) {
            return true;
        }
        let groups = m.get(schema::GROUPS).and_then(Value::as_array);
        groups.is_some_and(|gs| gs.iter().any(|g| g.as_str().is_some_and(|g| self.groups.iter().any(|s| s == g))))
    }

    /// Clauses that together admit exactly the chunks the session may see; more than one
    /// when the session has more groups than fit one query.
    pub(crate) fn clauses(&self) -> Vec<Value> {
        let public = json!({ schema::IS_PUBLIC: true });
        if self.groups.is_empty() {
            return vec![public];
        }
        self.groups
            .chunks(Self::GROUPS_PER_CLAUSE)
            .map(|some| {
                let mut any: Vec<Value> = vec![public.clone()];
                any.extend(some.iter().map(|g| json!({ schema::GROUPS: { "$contains": g } })));
                json!({ "$or": any })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn a(is_public: bool, v: &[&str]) -> Access {
        Access { is_public, groups: v.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn public_pages_are_visible_to_everyone() {
        assert!(Groups::default().can_see(&a(true, &[])));
        assert!(Groups::new(["x"]).can_see(&a(true, &["admin"])));
    }

    #[test]
    fn private_pages_need_a_shared_group() {
        let billing = Groups::new(["billing"]);
        assert!(billing.can_see(&a(false, &["admin", "billing"])));
        assert!(!billing.can_see(&a(false, &["admin"])));
        assert!(!Groups::default().can_see(&a(false, &["admin"])));
    }

    #[test]
    fn fails_closed() {
        // No groups on the page and not public: nobody sees it.
        assert!(!Groups::new(["admin", "billing"]).can_see(&a(false, &[])));
        // An empty group name never matches an empty-named page group.
        assert!(!Groups::new([""]).can_see(&a(false, &[""])));
    }

    #[test]
    fn fields_are_read_strictly() {
        let read = |v: Value| Access::from_fields(v.as_object().unwrap());
        assert_eq!(read(json!({"isPublic": true})), Ok(a(true, &[])));
        assert_eq!(read(json!({"groups": ["x"]})), Ok(a(false, &["x"])), "no isPublic: private");
        assert_eq!(read(json!({"isPublic": null, "groups": null})), Ok(a(false, &[])));
        assert_eq!(read(json!({"isPublic": "yes"})), Err("isPublic must be true or false"));
        assert_eq!(read(json!({"groups": "admin"})), Err("groups must be an array of strings"));
        assert_eq!(read(json!({"groups": [1]})), Err("groups must be an array of strings"));
    }

    #[test]
    fn scopes_fit_the_predicate_quota() {
        assert_eq!(SessionAccess::new(&Groups::default()).clauses(), vec![json!({"isPublic": true})]);
        assert_eq!(
            SessionAccess::new(&Groups::new(["billing"])).clauses(),
            vec![json!({"$or": [{"isPublic": true}, {"groups": {"$contains": "billing"}}]})]
        );
        let many = SessionAccess::new(&Groups::new((0..14).map(|i| format!("g{i:02}")))).clauses();
        assert_eq!(many.len(), 3, "14 groups: 6 + 6 + 2");
        assert!(many.iter().all(|c| c["$or"].as_array().unwrap().len() <= 1 + SessionAccess::GROUPS_PER_CLAUSE));
    }

    #[test]
    fn admitting_a_chunk_by_its_metadata_follows_the_clauses() {
        let scope = SessionAccess::new(&Groups::new(["billing"]));
        let meta = |v: Value| v.as_object().cloned();
        assert!(scope.admits(meta(json!({"isPublic": true})).as_ref()));
        assert!(scope.admits(meta(json!({"isPublic": false, "groups": ["admin", "billing"]})).as_ref()));
        assert!(!scope.admits(meta(json!({"isPublic": false, "groups": ["admin"]})).as_ref()));
        assert!(
            !scope.admits(meta(json!({"isPublic": "true", "groups": "billing"})).as_ref()),
            "only the written types count"
        );
        assert!(!scope.admits(meta(json!({"groups": [""]})).as_ref()));
        assert!(!scope.admits(None), "no metadata: not admitted");
        assert!(
            !SessionAccess::new(&Groups::default()).admits(meta(json!({"isPublic": false, "groups": [""]})).as_ref())
        );
    }

    #[test]
    fn key_is_order_independent() {
        assert_eq!(Groups::new(["b", "a"]).key(), Groups::new(["a", "b", "a"]).key());
    }
}
