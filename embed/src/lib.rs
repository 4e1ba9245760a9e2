//! Sentence embeddings with all-MiniLM-L6-v2, for chromafs in Node.
//!
//! A ranked search embeds its query, and `chromafs ingest --embed` embeds every chunk, with
//! the model that embedded the collection. This crate runs sentence-transformers'
//! all-MiniLM-L6-v2 (BERT, 6 layers, 384 dimensions) with Hugging Face's candle and
//! tokenizers, compiled to WebAssembly so that Node, Deno and Bun run it with no native
//! binary. It is its own module, loaded only by `chromafs/embed`: the filesystem module
//! that ships to edge runtimes stays small.
//!
//! The weights, tokenizer and configuration are read from the files the model's
//! distribution holds (`model.safetensors`, `tokenizer.json`, `config.json`); this crate
//! never fetches anything. An embedding is what sentence-transformers computes for this
//! model: the token vectors of the last layer, averaged over the text's tokens (mean
//! pooling, padding left out), then scaled to unit length. Texts longer than the model's
//! 256 tokens are cut there, as sentence-transformers cuts them.

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, Tokenizer, TruncationParams};
use wasm_bindgen::prelude::*;

/// The most tokens the model reads of one text (`max_seq_length` of the model).
pub const MAX_TOKENS: usize = 256;

/// The model, loaded.
#[wasm_bindgen]
pub struct Model {
    bert: BertModel,
    tokenizer: Tokenizer,
    dimension: usize,
}

/// Why the model cannot load or run.
#[derive(Debug)]
pub struct EmbedError(String);

impl std::fmt::Display for EmbedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EmbedError {}

fn fail(what: &str) -> impl Fn(&dyn std::fmt::Display) -> EmbedError + '_ {
    move |e| EmbedError(format!("{what}: {e}"))
}

impl Model {
    /// Loads the model from its files' bytes.
    pub fn load(weights: Vec<u8>, config: &str, tokenizer: &[u8]) -> Result<Model, EmbedError> {
        let config: Config = serde_json::from_str(config).map_err(|e| fail("config.json")(&e))?;
        let dimension = config.hidden_size;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| fail("model.safetensors")(&e))?;
        let bert = BertModel::load(vb, &config).map_err(|e| fail("model.safetensors")(&e))?;
        let mut tokenizer = Tokenizer::from_bytes(tokenizer).map_err(|e| fail("tokenizer.json")(&e))?;
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
            .map_err(|e| fail("tokenizer.json")(&e))?;
        tokenizer.with_padding(Some(PaddingParams::default()));
        Ok(Model { bert, tokenizer, dimension })
    }

    /// One unit-length vector per text, in order.
    pub fn embed_texts(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let run = fail("embedding");
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| run(&e))?;
        let column = |f: &dyn Fn(&tokenizers::Encoding) -> &[u32]| -> Result<Tensor, EmbedError> {
            let rows: Vec<Tensor> = encodings
                .iter()
                .map(|e| Tensor::new(f(e), &Device::Cpu))
                .collect::<Result<_, _>>()
                .map_err(|e| run(&e))?;
            Tensor::stack(&rows, 0).map_err(|e| run(&e))
        };
        let ids = column(&|e| e.get_ids())?;
        let types = column(&|e| e.get_type_ids())?;
        let mask = column(&|e| e.get_attention_mask())?;
        let hidden = self.bert.forward(&ids, &types, Some(&mask)).map_err(|e| run(&e))?;
        pool(&hidden, &mask).map_err(|e| run(&e))
    }

    pub fn dimension(&self) -> usize {
        self.dimension
    }
}

/// Mean pooling over the tokens the mask keeps, then L2 normalisation.
fn pool(hidden: &Tensor, mask: &Tensor) -> candle_core::Result<Vec<Vec<f32>>> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    let counts = mask.sum(1)?;
    let mean = summed.broadcast_div(&counts)?;
    let norms = mean.sqr()?.sum_keepdim(1)?.sqrt()?;
    mean.broadcast_div(&norms)?.to_vec2::<f32>()
}

#[wasm_bindgen]
impl Model {
    /// Loads the model from the bytes of `model.safetensors`, the text of `config.json`
    /// and the bytes of `tokenizer.json`.
    #[wasm_bindgen(constructor)]
    pub fn new(weights: Vec<u8>, config: &str, tokenizer: &[u8]) -> Result<Model, JsError> {
        Model::load(weights, config, tokenizer).map_err(|e| JsError::new(&e.0))
    }

    /// The vectors of `texts`, flattened: `texts.length × dimension` numbers.
    pub fn embed(&self, texts: Vec<String>) -> Result<Vec<f32>, JsError> {
        let vectors = self.embed_texts(&texts).map_err(|e| JsError::new(&e.0))?;
        Ok(vectors.concat())
    }

    /// The length of every vector (384).
    #[wasm_bindgen(getter, js_name = dimension)]
    pub fn dimension_js(&self) -> usize {
        self.dimension
    }
}
