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
//! pooling, padding left out), then scaled to unit length.
//!
//! The model reads at most 256 tokens, about a kilobyte of English, and ingest's chunks
//! run to four. Cutting a chunk there, as sentence-transformers does, leaves the rest of
//! it out of its vector, and a page whose answer sits below its opening paragraphs is not
//! found by meaning. A text is therefore read as consecutive windows of [`WINDOW_TOKENS`]
//! (each with the model's own start and end tokens), the first [`WINDOWS`] of them, and
//! its vector is the mean of the windows' vectors, scaled to unit length again. A text of
//! one window, such as a search question, gets exactly the vector sentence-transformers
//! gives it, so a collection embedded before this is searched with the same query vectors.
//!
//! Why these numbers: on the project's 68 questions over 1,142 real pages, with hybrid
//! ranking, cutting at 256 tokens put the right page first for 72 % of them; two windows
//! of 256, 72 %; four of 128, 74 %; two of 200, 78 % (and 91 % in the first five, against
//! 87 %). Every window of a chunk (of 900 characters), not just the first two, did worse
//! in the first five (85 %): a chunk's opening, where a page says what it is about, then
//! weighs less.

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{Encoding, Tokenizer, TruncationParams};
use wasm_bindgen::prelude::*;

/// The tokens of one window, the model's start and end tokens included (the model reads
/// at most 256).
pub const WINDOW_TOKENS: usize = 200;

/// The most windows read of one text.
pub const WINDOWS: usize = 2;

/// How this crate turns a passage into one vector, as ingest records it beside each
/// chunk: when it changes, a re-ingest embeds every chunk again.
pub const METHOD: &str = "mean of the first 2 windows of 200 tokens";

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
            .with_truncation(Some(TruncationParams { max_length: WINDOW_TOKENS, ..Default::default() }))
            .map_err(|e| fail("tokenizer.json")(&e))?;
        tokenizer.with_padding(None);
        Ok(Model { bert, tokenizer, dimension })
    }

    /// One unit-length vector per text, in order: each a function of its text alone.
    ///
    /// Each window runs through the model by itself. Run together, windows are padded to
    /// the longest and computed as one matrix, and a vector's last bits then depend on the
    /// texts beside it (about 1e-7 a number): a chunk's vector, and so its distance to a
    /// question, would depend on which other chunks (hidden pages' among them) were
    /// embedded in its batch, and chunks of the same text would no longer tie. Alone, a
    /// window costs no more: it carries no padding.
    pub fn embed_texts(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| fail("embedding")(&e))?;
        let mut sums = vec![vec![0f32; self.dimension]; texts.len()];
        let mut counts = vec![0usize; texts.len()];
        // The windows in their place in their text: first windows, then second ones.
        for (i, window) in windows(encodings).into_iter().flatten() {
            let v = self.forward(&window)?;
            sums[i].iter_mut().zip(&v).for_each(|(s, x)| *s += x);
            counts[i] += 1;
        }
        Ok(mean(sums, &counts))
    }

    /// The model over one window: its unit vector.
    fn forward(&self, window: &Encoding) -> Result<Vec<f32>, EmbedError> {
        let run = fail("embedding");
        let row = |f: &dyn Fn(&Encoding) -> &[u32]| -> Result<Tensor, EmbedError> {
            Tensor::new(f(window), &Device::Cpu).and_then(|t| t.unsqueeze(0)).map_err(|e| run(&e))
        };
        let ids = row(&|e| e.get_ids())?;
        let types = row(&|e| e.get_type_ids())?;
        let mask = row(&|e| e.get_attention_mask())?;
        let hidden = self.bert.forward(&ids, &types, Some(&mask)).map_err(|e| run(&e))?;
        let mut pooled = pool(&hidden, &mask).map_err(|e| run(&e))?;
        Ok(pooled.swap_remove(0))
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

/// Each text's first [`WINDOWS`] windows (the tokenizer's cut, then what overflowed),
/// grouped by their place in the text: group `k` holds the `k`-th window of every text
/// that has one, with the index of that text.
fn windows(encodings: Vec<Encoding>) -> [Vec<(usize, Encoding)>; WINDOWS] {
    let mut groups: [Vec<(usize, Encoding)>; WINDOWS] = Default::default();
    for (i, mut first) in encodings.into_iter().enumerate() {
        let rest = first.take_overflowing();
        for (group, window) in groups.iter_mut().zip(std::iter::once(first).chain(rest)) {
            group.push((i, window));
        }
    }
    groups
}

/// Each text's mean vector from the sum of its windows' unit vectors, scaled to unit
/// length. A text of one window keeps its vector as it is.
fn mean(mut sums: Vec<Vec<f32>>, counts: &[usize]) -> Vec<Vec<f32>> {
    for (sum, &n) in sums.iter_mut().zip(counts) {
        if n > 1 {
            let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
            if norm > 0.0 {
                sum.iter_mut().for_each(|x| *x /= norm);
            }
        }
    }
    sums
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

    /// How a passage becomes one vector ([`METHOD`]).
    #[wasm_bindgen(getter)]
    pub fn method(&self) -> String {
        METHOD.to_string()
    }
}
