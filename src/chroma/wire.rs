//! The JSON Chroma's HTTP API takes and gives: request bodies serialised with serde, and
//! answers read from `serde_json::Value` by hand ([`FromJson`]). serde's derived visitors
//! would read them in fewer lines, but their error paths format floats, which costs the
//! wasm module 20 KB.

use crate::base::embed::Space;
use crate::chroma::recorded::RecordedFunction;
use serde::Serialize;
use serde_json::{Map, Value};

/// `POST …/get` body.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct GetRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<String>>,
    #[serde(rename = "where", skip_serializing_if = "Option::is_none")]
    pub where_: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub where_document: Option<Value>,
    pub include: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
}

/// An answer read from JSON by hand (see the module doc).
pub(crate) trait FromJson: Sized {
    /// `None` when the JSON does not have the expected shape.
    fn from_json(v: Value) -> Option<Self>;
}

impl FromJson for u64 {
    fn from_json(v: Value) -> Option<Self> {
        v.as_u64()
    }
}

/// A field that may be absent or `null`, else a list of `T` or `null`.
fn nullable_list<T>(v: Option<Value>, item: impl Fn(Value) -> Option<T>) -> Option<Option<Vec<Option<T>>>> {
    match v {
        None | Some(Value::Null) => Some(None),
        Some(Value::Array(a)) => a
            .into_iter()
            .map(|x| if x.is_null() { Some(None) } else { item(x).map(Some) })
            .collect::<Option<Vec<_>>>()
            .map(Some),
        Some(_) => None,
    }
}

fn string(v: Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s),
        _ => None,
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct GetResponse {
    pub ids: Vec<String>,
    pub documents: Option<Vec<Option<String>>>,
    pub metadatas: Option<Vec<Option<Map<String, Value>>>>,
    /// The records' vectors, when asked for (`include: ["embeddings"]`).
    pub embeddings: Option<Vec<Option<Vec<f32>>>>,
}

impl FromJson for GetResponse {
    fn from_json(v: Value) -> Option<Self> {
        let Value::Object(mut o) = v else { return None };
        let ids = match o.remove("ids")? {
            Value::Array(a) => a.into_iter().map(string).collect::<Option<Vec<_>>>()?,
            _ => return None,
        };
        let documents = nullable_list(o.remove("documents"), string)?;
        let metadatas = nullable_list(o.remove("metadatas"), |m| match m {
            Value::Object(m) => Some(m),
            _ => None,
        })?;
        let embeddings = nullable_list(o.remove("embeddings"), vector)?;
        // One entry per record in every list, so that records can be moved between answers.
        let n = ids.len();
        if documents.as_ref().is_some_and(|d| d.len() != n)
            || metadatas.as_ref().is_some_and(|m| m.len() != n)
            || embeddings.as_ref().is_some_and(|e| e.len() != n)
        {
            return None;
        }
        Some(GetResponse { ids, documents, metadatas, embeddings })
    }
}

/// A vector: an array of finite numbers.
fn vector(v: Value) -> Option<Vec<f32>> {
    let Value::Array(a) = v else { return None };
    a.iter().map(|x| x.as_f64().map(|f| f as f32).filter(|f| f.is_finite())).collect()
}

impl GetResponse {
    pub(crate) fn extend(&mut self, other: GetResponse) {
        self.ids.extend(other.ids);
        if let Some(d) = other.documents {
            self.documents.get_or_insert_with(Vec::new).extend(d);
        }
        if let Some(m) = other.metadatas {
            self.metadatas.get_or_insert_with(Vec::new).extend(m);
        }
        if let Some(e) = other.embeddings {
            self.embeddings.get_or_insert_with(Vec::new).extend(e);
        }
    }

    /// Keeps only the records `keep` says yes to (by index), in order, moving nothing else.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&GetResponse, usize) -> bool) {
        let kept: Vec<bool> = (0..self.ids.len()).map(|i| keep(self, i)).collect();
        if kept.iter().all(|&k| k) {
            return;
        }
        fn only<T>(v: &mut Vec<T>, kept: &[bool]) {
            let mut kept = kept.iter();
            v.retain(|_| kept.next() == Some(&true));
        }
        only(&mut self.ids, &kept);
        if let Some(d) = self.documents.as_mut() {
            only(d, &kept);
        }
        if let Some(m) = self.metadatas.as_mut() {
            only(m, &kept);
        }
        if let Some(e) = self.embeddings.as_mut() {
            only(e, &kept);
        }
    }

    /// Moves records `records` (by index, in that order) into an answer of their own:
    /// their documents, metadata and vectors are `None` here afterwards.
    pub(crate) fn take_records(&mut self, records: &[usize]) -> GetResponse {
        fn take<T>(list: &mut Option<Vec<Option<T>>>, records: &[usize]) -> Option<Vec<Option<T>>> {
            list.as_mut().map(|list| records.iter().map(|&i| list[i].take()).collect())
        }
        GetResponse {
            ids: records.iter().map(|&i| self.ids[i].clone()).collect(),
            documents: take(&mut self.documents, records),
            metadatas: take(&mut self.metadatas, records),
            embeddings: take(&mut self.embeddings, records),
        }
    }

    pub(crate) fn document(&self, i: usize) -> Option<&str> {
        self.documents.as_ref()?.get(i)?.as_deref()
    }

    /// Moves record `i`'s document out of the answer (it is `None` there afterwards).
    pub(crate) fn take_document(&mut self, i: usize) -> Option<String> {
        self.documents.as_mut()?.get_mut(i)?.take()
    }

    pub(crate) fn embedding(&self, i: usize) -> Option<&[f32]> {
        self.embeddings.as_ref()?.get(i)?.as_deref()
    }

    pub(crate) fn metadata(&self, i: usize) -> Option<&Map<String, Value>> {
        self.metadatas.as_ref()?.get(i)?.as_ref()
    }
}

#[derive(Debug, Clone)]
pub(crate) struct CollectionInfo {
    pub id: String,
    /// The embedding dimension, once records exist.
    pub dimension: Option<usize>,
    /// How its vector index measures distance, when the answer says so.
    pub space: Option<Space>,
    /// The embedding function Chroma's clients recorded in the collection's configuration.
    pub function: Option<RecordedFunction>,
}

impl FromJson for CollectionInfo {
    fn from_json(v: Value) -> Option<Self> {
        let Value::Object(mut o) = v else { return None };
        let dimension = match o.remove("dimension") {
            None | Some(Value::Null) => None,
            Some(d) => Some(usize::try_from(d.as_u64()?).ok()?),
        };
        // A collection always has a name; one without is not Chroma's answer.
        string(o.remove("name")?)?;
        let space = space_of(o.get("configuration_json"), o.get("schema"));
        let function = RecordedFunction::from_configuration(o.get("configuration_json"));
        Some(CollectionInfo { id: string(o.remove("id")?)?, dimension, space, function })
    }
}

/// The space a collection's vector index measures distance in: its configuration's HNSW
/// (or SPANN) `space`, else what its schema says of the embedding's index. `None` when
/// nothing says, or names a space Chroma does not define.
fn space_of(configuration: Option<&Value>, schema: Option<&Value>) -> Option<Space> {
    let named = |v: Option<&Value>, at: &str| v?.pointer(at).and_then(Value::as_str).and_then(Space::named);
    named(configuration, "/hnsw/space")
        .or_else(|| named(configuration, "/spann/space"))
        .or_else(|| named(schema, "/keys/#embedding/float_list/vector_index/config/space"))
}

/// `POST …/query` body: nearest neighbours of one embedding.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct QueryRequest {
    pub query_embeddings: Vec<Vec<f32>>,
    pub n_results: usize,
    #[serde(rename = "where", skip_serializing_if = "Option::is_none")]
    pub where_: Option<Value>,
    pub include: Vec<&'static str>,
}

/// The answer to a query of one embedding: its records, nearest first, and their distances.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueryResponse {
    pub records: GetResponse,
    pub distances: Vec<f64>,
}

/// The first list of a field that Chroma nests one level per query embedding.
fn first_of(v: Option<Value>) -> Option<Option<Value>> {
    match v {
        None | Some(Value::Null) => Some(None),
        Some(Value::Array(mut a)) if a.len() == 1 => Some(Some(a.swap_remove(0))),
        Some(Value::Array(a)) if a.is_empty() => Some(Some(Value::Array(Vec::new()))),
        Some(_) => None,
    }
}

impl FromJson for QueryResponse {
    fn from_json(v: Value) -> Option<Self> {
        let Value::Object(mut o) = v else { return None };
        let mut flat = serde_json::Map::new();
        for key in ["ids", "documents", "metadatas"] {
            if let Some(list) = first_of(o.remove(key))? {
                flat.insert(key.into(), list);
            }
        }
        let records = GetResponse::from_json(Value::Object(flat))?;
        let distances = match first_of(o.remove("distances"))? {
            None => Vec::new(),
            Some(Value::Array(d)) => d.iter().map(Value::as_f64).collect::<Option<Vec<_>>>()?,
            Some(_) => return None,
        };
        let n = records.ids.len();
        let fits = |len: Option<usize>| len.is_none_or(|l| l == n);
        if !fits(Some(distances.len()))
            || !fits(records.documents.as_ref().map(Vec::len))
            || !fits(records.metadatas.as_ref().map(Vec::len))
        {
            return None;
        }
        Some(QueryResponse { records, distances })
    }
}

/// `POST …/upsert` body.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct UpsertRequest {
    pub ids: Vec<String>,
    pub embeddings: Vec<Vec<f32>>,
    /// Left out when empty: the records have no document.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<String>,
    pub metadatas: Vec<Map<String, Value>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_are_read_by_shape() {
        let r = GetResponse::from_json(json!({"ids": ["a"], "documents": null, "metadatas": [null], "include": []}))
            .unwrap();
        assert_eq!((r.ids, r.documents, r.metadatas), (vec!["a".to_string()], None, Some(vec![None])));
        for bad in [
            json!([]),
            json!({}),
            json!({"ids": [1]}),
            json!({"ids": [], "documents": "x"}),
            json!({"ids": ["a"], "metadatas": [3]}),
            json!({"ids": ["a", "b"], "documents": ["x"]}),
            json!({"ids": ["a"], "metadatas": [null, null]}),
        ] {
            assert!(GetResponse::from_json(bad.clone()).is_none(), "{bad}");
        }
        let c = CollectionInfo::from_json(json!({"id": "i", "name": "n", "dimension": null})).unwrap();
        assert_eq!((c.id.as_str(), c.dimension), ("i", None));
        assert_eq!(
            CollectionInfo::from_json(json!({"id": "i", "name": "n", "dimension": 384})).unwrap().dimension,
            Some(384)
        );
        assert!(CollectionInfo::from_json(json!({"id": "i", "name": "n", "dimension": -1})).is_none());
        let space = |v: Value| CollectionInfo::from_json(v).unwrap().space;
        assert_eq!(space(json!({"id": "i", "name": "n"})), None);
        assert_eq!(
            space(json!({"id": "i", "name": "n", "configuration_json": {"hnsw": {"space": "cosine"}}})),
            Some(Space::Cosine)
        );
        assert_eq!(
            space(json!({"id": "i", "name": "n", "configuration_json": {"hnsw": null, "spann": {"space": "ip"}}})),
            Some(Space::Ip)
        );
        let schema = json!({"keys": {"#embedding": {"float_list": {"vector_index": {"config": {"space": "l2"}}}}}});
        assert_eq!(space(json!({"id": "i", "name": "n", "schema": schema})), Some(Space::L2));
        assert_eq!(space(json!({"id": "i", "name": "n", "configuration_json": {"hnsw": {"space": "other"}}})), None);
        let r = GetResponse::from_json(json!({"ids": ["a", "b"], "embeddings": [[0.5, -1], null]})).unwrap();
        assert_eq!((r.embedding(0), r.embedding(1)), (Some(&[0.5f32, -1.0][..]), None));
        for bad in [json!({"ids": ["a"], "embeddings": [[0.5], [1]]}), json!({"ids": ["a"], "embeddings": [["x"]]})] {
            assert!(GetResponse::from_json(bad.clone()).is_none(), "{bad}");
        }
        assert_eq!(u64::from_json(json!(12)), Some(12));
    }

    #[test]
    fn records_are_kept_with_all_their_fields_and_in_order() {
        let mut r = GetResponse::from_json(json!({
            "ids": ["a", "b", "c"], "documents": ["x", null, "z"], "metadatas": [{"k": 1}, null, {"k": 3}],
        }))
        .unwrap();
        r.retain(|r, i| r.ids[i] != "b");
        assert_eq!(r.ids, ["a", "c"]);
        assert_eq!((r.document(0), r.document(1)), (Some("x"), Some("z")));
        assert_eq!(r.metadata(1), Some(&json!({"k": 3}).as_object().unwrap().clone()));
        r.retain(|_, _| false);
        assert!(r.ids.is_empty() && r.documents == Some(vec![]) && r.metadatas == Some(vec![]));
    }

    #[test]
    fn records_taken_out_come_with_their_fields_in_the_order_asked() {
        let mut r = GetResponse::from_json(json!({
            "ids": ["a", "b", "c"], "documents": ["x", "y", "z"], "metadatas": [{"k": 1}, null, {"k": 3}],
        }))
        .unwrap();
        let taken = r.take_records(&[2, 0]);
        assert_eq!(taken.ids, ["c", "a"]);
        assert_eq!((taken.document(0), taken.document(1)), (Some("z"), Some("x")));
        assert_eq!(taken.metadata(1), Some(&json!({"k": 1}).as_object().unwrap().clone()));
        assert_eq!(taken.embeddings, None, "a list the answer lacks stays absent");
        assert_eq!((r.ids.len(), r.document(0), r.document(1)), (3, None, Some("y")), "moved, not copied");
    }

    #[test]
    fn a_query_answer_is_the_first_list_of_each_field() {
        let q = QueryResponse::from_json(json!({
            "ids": [["a#0", "b#1"]], "documents": [["x", "y"]], "metadatas": [[{"k": 1}, null]],
            "distances": [[0.5, 1.25]], "embeddings": null, "include": ["documents"],
        }))
        .unwrap();
        assert_eq!(q.records.ids, ["a#0", "b#1"]);
        assert_eq!((q.records.document(1), q.distances), (Some("y"), vec![0.5, 1.25]));
        for bad in [
            json!({"ids": [["a"]], "distances": [[0.1, 0.2]]}),
            json!({"ids": [["a"], ["b"]], "distances": [[0.1], [0.2]]}),
            json!({"ids": ["a"], "distances": [0.1]}),
            json!({"ids": [["a"]], "distances": [["x"]]}),
        ] {
            assert!(QueryResponse::from_json(bad.clone()).is_none(), "{bad}");
        }
        assert!(QueryResponse::from_json(json!({"ids": [], "distances": []})).unwrap().records.ids.is_empty());
    }
}
