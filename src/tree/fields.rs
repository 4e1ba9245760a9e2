//! One tree entry's fields as they were written, before they are checked.
//!
//! A path tree of 50,000 pages is 50,000 small objects. Read as `serde_json::Value`s each
//! becomes a map with a key string per field, which is most of what a cold connect spends
//! decoding; [`Fields`] keeps only the fields an entry can have, each as the JSON value it
//! was (so the checks in [`crate::tree::decode`] keep their precise messages), and skips
//! the rest without building them. Like a JSON object read by serde_json, the last of two
//! equal fields wins.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// The fields of one entry; `None` where the field is absent.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    /// Whether the entry was a JSON object at all.
    pub object: bool,
    pub is_public: Option<Value>,
    pub groups: Option<Value>,
    pub size: Option<Value>,
    pub mtime: Option<Value>,
    pub chunks: Option<Value>,
    pub url: Option<Value>,
    /// The page's number in the grep index (`n`).
    pub number: Option<Value>,
    pub version: Option<Value>,
}

impl<'de> de::Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tree entry")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut out = Fields { object: true, ..Fields::default() };
        while let Some(key) = map.next_key::<Name>()? {
            let slot = match key {
                Name::IsPublic => &mut out.is_public,
                Name::Groups => &mut out.groups,
                Name::Size => &mut out.size,
                Name::Mtime => &mut out.mtime,
                Name::Chunks => &mut out.chunks,
                Name::Url => &mut out.url,
                Name::Number => &mut out.number,
                Name::Version => &mut out.version,
                Name::Other => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = Some(map.next_value()?);
        }
        Ok(out)
    }
    // Anything but an object is read through and reported by the checks, naming the entry.
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Fields, E> {
        Ok(Fields::default())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Fields, E> {
        Ok(Fields::default())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Fields, E> {
        Ok(Fields::default())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Fields, E> {
        Ok(Fields::default())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Fields, E> {
        Ok(Fields::default())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Fields, E> {
        Ok(Fields::default())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Fields, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Fields::default())
    }
}

/// A field name, matched without allocating.
enum Name {
    IsPublic,
    Groups,
    Size,
    Mtime,
    Chunks,
    Url,
    Number,
    Version,
    Other,
}

impl<'de> de::Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(NameVisitor)
    }
}

struct NameVisitor;

impl<'de> Visitor<'de> for NameVisitor {
    type Value = Name;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Name, E> {
        Ok(match s {
            "isPublic" => Name::IsPublic,
            "groups" => Name::Groups,
            "size" => Name::Size,
            "mtime" => Name::Mtime,
            "chunks" => Name::Chunks,
            "url" => Name::Url,
            "n" => Name::Number,
            "version" => Name::Version,
            _ => Name::Other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Fields {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn keeps_the_known_fields_as_written_and_skips_the_rest() {
        let f = read(r#"{"isPublic": true, "groups": ["a"], "title": {"deep": [1, 2]}, "size": 3.0, "url": null}"#);
        assert!(f.object);
        assert_eq!(f.is_public, Some(json!(true)));
        assert_eq!(f.groups, Some(json!(["a"])));
        assert_eq!(f.size, Some(json!(3.0)));
        assert_eq!(f.url, Some(Value::Null), "null is kept apart from absent");
        assert_eq!((f.mtime, f.chunks), (None, None));
    }

    #[test]
    fn the_last_of_two_equal_fields_wins_as_in_a_json_object() {
        assert_eq!(read(r#"{"isPublic": false, "isPublic": true}"#).is_public, Some(json!(true)));
    }

    #[test]
    fn other_values_are_read_through_as_not_objects() {
        for text in ["true", "3", "-3", "1.5", "\"x\"", "null", "[1, {\"a\": 2}]"] {
            assert!(!read(text).object, "{text}");
        }
        assert!(serde_json::from_str::<Fields>("{\"a\": ").is_err(), "broken JSON is still an error");
    }
}
