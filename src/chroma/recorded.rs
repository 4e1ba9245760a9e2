//! The embedding function a collection records: which service embedded its records.
//!
//! Chroma's clients (1.x) store the function they were given in the collection itself,
//! as `configuration_json.embedding_function = {"type": "known", "name": "openai",
//! "config": {"model_name": …, "api_key_env_var": …, "api_base": …}}`, and build it again
//! from that when the collection is opened. chromafs reads the same record when it
//! resolves a collection, so a search can embed its question with the model that embedded
//! the chunks. What it reads is data from the database, not the operator's word: only the
//! fields a service embedder needs are kept, each bounded, and the host decides whether a
//! recorded address may receive a key (see `pkg/src/recorded.js`).

use serde_json::{Map, Value};

/// The longest text a field may hold (a model's name, an address, a variable's name).
const MAX_FIELD_CHARS: usize = 2048;

/// A function Chroma's clients know by name, with what its configuration says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct RecordedFunction {
    /// Chroma's name for it: `openai`, `ollama`, `huggingface_server`, `cohere`…
    pub name: String,
    /// `model_name`.
    pub model: Option<String>,
    /// `api_base`: where the service is, when not the provider's own.
    pub api_base: Option<String>,
    /// `api_key_env_var`: the environment variable the key is read from.
    pub api_key_env_var: Option<String>,
    /// `dimensions`, when the model was asked for vectors of that length.
    pub dimensions: Option<u64>,
    /// `api_type` (`azure` for Azure OpenAI's older API).
    pub api_type: Option<String>,
    /// `organization_id`.
    pub organization_id: Option<String>,
    /// `url` (the address Ollama's and TEI's functions record).
    pub url: Option<String>,
}

impl RecordedFunction {
    /// The function of a collection's `configuration_json`, when it records a known one.
    /// Anything else — none, `legacy`, `unknown`, a shape Chroma does not write — is none:
    /// the collection then says nothing about its model.
    pub(crate) fn from_configuration(configuration: Option<&Value>) -> Option<RecordedFunction> {
        let f = configuration?.get("embedding_function")?.as_object()?;
        if f.get("type")?.as_str()? != "known" {
            return None;
        }
        let name = bounded(f.get("name"))?;
        let empty = Map::new();
        let config = f.get("config").and_then(Value::as_object).unwrap_or(&empty);
        let text = |key: &str| bounded(config.get(key));
        Some(RecordedFunction {
            name,
            model: text("model_name").or_else(|| text("model")),
            api_base: text("api_base"),
            api_key_env_var: text("api_key_env_var"),
            dimensions: config.get("dimensions").and_then(Value::as_u64).filter(|d| (1..=65_536).contains(d)),
            api_type: text("api_type"),
            organization_id: text("organization_id"),
            url: text("url"),
        })
    }
}

impl RecordedFunction {
    /// Whether `function` (`{"name", "config"}`, as an embedder names itself) is this one:
    /// the same name, model, address and dimensions.
    pub(crate) fn same(&self, function: &Value) -> bool {
        let config = &function["config"];
        let text = |key: &str| config.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        function["name"].as_str() == Some(self.name.as_str())
            && text("model_name") == self.model.as_deref()
            && text("api_base") == self.api_base.as_deref()
            && text("api_key_env_var") == self.api_key_env_var.as_deref()
            && config.get("dimensions").and_then(Value::as_u64) == self.dimensions
    }
}

/// A non-empty string of at most [`MAX_FIELD_CHARS`] characters.
fn bounded(v: Option<&Value>) -> Option<String> {
    let s = v?.as_str()?.trim();
    (!s.is_empty() && s.chars().count() <= MAX_FIELD_CHARS).then(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_known_function_is_read_with_its_configuration() {
        let c = json!({"hnsw": {"space": "l2"}, "embedding_function": {"type": "known", "name": "openai", "config": {
            "model_name": "text-embedding-3-small", "api_key_env_var": "CHROMA_OPENAI_API_KEY",
            "api_base": "http://127.0.0.1:9/v1", "dimensions": 512, "organization_id": null, "default_headers": {"x": "y"},
        }}});
        let f = RecordedFunction::from_configuration(Some(&c)).unwrap();
        assert_eq!(f.name, "openai");
        assert_eq!(f.model.as_deref(), Some("text-embedding-3-small"));
        assert_eq!(f.api_key_env_var.as_deref(), Some("CHROMA_OPENAI_API_KEY"));
        assert_eq!(f.api_base.as_deref(), Some("http://127.0.0.1:9/v1"));
        assert_eq!((f.dimensions, f.organization_id), (Some(512), None));
    }

    #[test]
    fn anything_else_records_no_function() {
        for c in [
            json!({"embedding_function": null}),
            json!({"embedding_function": {"type": "legacy"}}),
            json!({"embedding_function": {"type": "unknown"}}),
            json!({"embedding_function": {"type": "known"}}),
            json!({"embedding_function": {"type": "known", "name": ""}}),
            json!({"embedding_function": {"type": "known", "name": 3}}),
            json!({"embedding_function": "openai"}),
            json!({}),
            json!([]),
        ] {
            assert_eq!(RecordedFunction::from_configuration(Some(&c)), None, "{c}");
        }
        assert_eq!(RecordedFunction::from_configuration(None), None);
    }

    #[test]
    fn fields_are_bounded() {
        let long = "x".repeat(MAX_FIELD_CHARS + 1);
        let c = json!({"embedding_function": {"type": "known", "name": "openai", "config": {
            "model_name": long, "api_base": 7, "dimensions": -1,
        }}});
        let f = RecordedFunction::from_configuration(Some(&c)).unwrap();
        assert_eq!((f.model, f.api_base, f.dimensions), (None, None, None));
        let c = json!({"embedding_function": {"type": "known", "name": long}});
        assert_eq!(RecordedFunction::from_configuration(Some(&c)), None);
    }
}
