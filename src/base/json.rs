//! Strict JSON reading for documents whose every key matters.
//!
//! serde_json keeps the last of two equal keys silently; in a path tree or a set of access
//! rules that would hide a mistake (or an attack), so [`ordered_object`] refuses them and
//! keeps the order the author wrote. [`whole_number`] is the one rule for counts, sizes
//! and indexes, which some producers write as floats (`3.0`).

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;

struct Ordered<T>(Vec<(String, T)>);

impl<'de, T: de::Deserialize<'de>> serde::Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: de::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key_seed(Key)? {
                    out.push((key, map.next_value()?));
                }
                Ok(Ordered(out))
            }
            // serde's defaults for the rest format what they got, floats included, which
            // costs the wasm module 20 KB: anything but an object gets this one message.
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Ordered<T>, E> {
                Err(not_an_object())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Ordered<T>, E> {
                Err(not_an_object())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Ordered<T>, E> {
                Err(not_an_object())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Ordered<T>, E> {
                Err(not_an_object())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Ordered<T>, E> {
                Err(not_an_object())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Ordered<T>, E> {
                Err(not_an_object())
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Ordered<T>, A::Error> {
                Err(not_an_object())
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

fn not_an_object<E: de::Error>() -> E {
    E::custom("expected a JSON object")
}

/// An object key, read without serde's `String` visitor (see `visit_bool` above).
struct Key;

impl<'de> Visitor<'de> for Key {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<String, E> {
        Ok(s.to_string())
    }
}

impl<'de> de::DeserializeSeed<'de> for Key {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(Key)
    }
}

/// The members of a top-level JSON object, in order; duplicate keys and trailing text
/// are errors (serde_json's message: `duplicate key "a" at line 1 column 9`).
pub(crate) fn ordered_object(text: &str) -> Result<Vec<(String, Value)>, serde_json::Error> {
    ordered_members(text)
}

/// [`ordered_object`] with each value read straight into `T`: a large document (a path
/// tree of 50,000 entries) then never becomes a map of JSON values first.
pub(crate) fn ordered_members<T: de::DeserializeOwned>(text: &str) -> Result<Vec<(String, T)>, serde_json::Error> {
    let members = all_members(text)?;
    // Sorted, equal keys are neighbours: no hashing or copying of every key.
    let mut keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
    crate::base::sort::sort(&mut keys);
    if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
        return Err(de::Error::custom(format!("duplicate key {:?}", w[0])));
    }
    Ok(members)
}

/// The members of a top-level JSON object, in order, equal keys included: for a reader
/// that judges each member on its own (a path tree sets both of two equal keys aside).
pub(crate) fn all_members<T: de::DeserializeOwned>(text: &str) -> Result<Vec<(String, T)>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let Ordered(members) = serde::Deserialize::deserialize(&mut de)?;
    de.end()?;
    Ok(members)
}

/// A non-negative whole number, written as an integer or as an integral float.
pub(crate) fn whole_number(v: &Value) -> Option<u64> {
    let n = v.as_number()?;
    match (n.as_u64(), n.as_f64()) {
        (Some(u), _) => Some(u),
        (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 9.0e15 => Some(f as u64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_keep_order_and_refuse_duplicates() {
        let m = ordered_object(r#"{"b": 1, "a": {"x": 2}}"#).unwrap();
        assert_eq!(m, vec![("b".to_string(), json!(1)), ("a".to_string(), json!({"x": 2}))]);
        assert!(ordered_object(r#"{"a": 1, "a": 2}"#).unwrap_err().to_string().starts_with("duplicate key \"a\""));
        assert!(ordered_object("[1]").is_err());
        assert!(ordered_object("{} trailing").is_err());
    }

    #[test]
    fn whole_numbers() {
        assert_eq!(whole_number(&json!(3)), Some(3));
        assert_eq!(whole_number(&json!(3.0)), Some(3));
        for bad in [json!(-1), json!(1.5), json!("3"), json!(null), json!(1e300)] {
            assert_eq!(whole_number(&bad), None, "{bad}");
        }
    }
}
