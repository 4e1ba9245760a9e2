//! The same model on the host's own CPU, for comparison with the WebAssembly module.
//!
//! Reads a JSON array of texts, embeds them in batches with this crate's code compiled
//! for the host (candle's x86-64/aarch64 kernels, every core through rayon), and prints
//! one JSON line: how many texts, how long it took, and optionally writes the vectors so
//! a caller can check they agree with the module's.
//!   cargo run --release --example native -- MODEL_DIR TEXTS.json [BATCH] [VECTORS.json]

use chromafs_embed::Model;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, texts, rest @ ..] = args.as_slice() else {
        return Err("usage: native MODEL_DIR TEXTS.json [BATCH] [VECTORS.json]".into());
    };
    let batch: usize = rest.first().map_or(Ok(16), |b| b.parse())?;
    let read = |f: &str| std::fs::read(std::path::Path::new(dir).join(f));
    let started = Instant::now();
    let model =
        Model::load(read("model.safetensors")?, &String::from_utf8(read("config.json")?)?, &read("tokenizer.json")?)?;
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    let texts: Vec<String> = serde_json::from_slice(&std::fs::read(texts)?)?;
    model.embed_texts(&texts[..1])?;
    let started = Instant::now();
    let mut vectors = Vec::with_capacity(texts.len());
    for part in texts.chunks(batch.max(1)) {
        vectors.extend(model.embed_texts(part)?);
    }
    let ms = started.elapsed().as_secs_f64() * 1e3;
    if let Some(out) = rest.get(1) {
        std::fs::write(out, serde_json::to_string(&vectors)?)?;
    }
    println!("{{\"texts\":{},\"ms\":{ms:.1},\"loadMs\":{load_ms:.1}}}", texts.len());
    Ok(())
}
