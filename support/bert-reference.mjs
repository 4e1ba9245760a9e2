// An independent reference for the embedding model's tests: all-MiniLM-L6-v2 computed in
// plain JavaScript from the same files, written from the BERT architecture (no shared code
// with the WebAssembly model), for short lower-case ASCII sentences. Slow (a second a
// sentence) and exact to float rounding: what the tests compare the real model against.
import { readFileSync } from "node:fs";
import path from "node:path";

/** Tensors of a safetensors file by name: `{ shape, data: Float32Array }` (F32 only). */
function safetensors(file) {
  const buf = readFileSync(file);
  const headerLen = Number(buf.readBigUInt64LE(0));
  const header = JSON.parse(buf.subarray(8, 8 + headerLen).toString("utf8"));
  const base = 8 + headerLen;
  const out = {};
  for (const [name, t] of Object.entries(header)) {
    if (name === "__metadata__" || t.dtype !== "F32") continue;
    const [start, end] = t.data_offsets;
    const bytes = buf.subarray(base + start, base + end);
    out[name] = { shape: t.shape, data: new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)) };
  }
  return out;
}

/** BERT's uncased WordPiece for lower-case ASCII text: words and punctuation, then pieces. */
function wordpiece(text, vocab) {
  const ids = [vocab["[CLS]"]];
  for (const word of text.toLowerCase().match(/[a-z0-9]+|[^\sa-z0-9]/g) ?? []) {
    let start = 0;
    const pieces = [];
    while (start < word.length) {
      let end = word.length;
      let found = null;
      while (end > start) {
        const piece = (start > 0 ? "##" : "") + word.slice(start, end);
        if (piece in vocab) {
          found = vocab[piece];
          break;
        }
        end -= 1;
      }
      if (found === null) {
        pieces.length = 0;
        pieces.push(vocab["[UNK]"]);
        break;
      }
      pieces.push(found);
      start = end;
    }
    ids.push(...pieces);
  }
  ids.push(vocab["[SEP]"]);
  return ids;
}

// erf to within 1.2e-7 (Numerical Recipes' erfc with Chebyshev fitting).
function erf(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
        t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - r : r - 1;
}

/** `x` (n × in) times a Linear layer's weight (out × in), plus its bias: n × out. */
function linear(x, n, w, b) {
  const [out, inn] = w.shape;
  const y = new Float64Array(n * out);
  for (let i = 0; i < n; i++) {
    for (let o = 0; o < out; o++) {
      let s = b.data[o];
      const row = o * inn;
      for (let k = 0; k < inn; k++) s += x[i * inn + k] * w.data[row + k];
      y[i * out + o] = s;
    }
  }
  return y;
}

function layerNorm(x, n, d, w, b, eps = 1e-12) {
  for (let i = 0; i < n; i++) {
    let mean = 0;
    for (let k = 0; k < d; k++) mean += x[i * d + k];
    mean /= d;
    let v = 0;
    for (let k = 0; k < d; k++) v += (x[i * d + k] - mean) ** 2;
    const inv = 1 / Math.sqrt(v / d + eps);
    for (let k = 0; k < d; k++) x[i * d + k] = (x[i * d + k] - mean) * inv * w.data[k] + b.data[k];
  }
  return x;
}

/**
 * A loaded reference model: `embed(text)` → a unit-length Float64Array; `passage(text, max,
 * windows)` → the same for a text read as up to `windows` windows of `max` tokens (each with
 * its own [CLS] and [SEP]), the windows' vectors averaged and scaled to unit length.
 */
export function referenceModel(dir) {
  const t = safetensors(path.join(dir, "model.safetensors"));
  const config = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8"));
  const vocab = JSON.parse(readFileSync(path.join(dir, "tokenizer.json"), "utf8")).model.vocab;
  const d = config.hidden_size;
  const heads = config.num_attention_heads;
  const hd = d / heads;
  return {
    tokens: (text) => wordpiece(text, vocab),
    embed(text) {
      return this.ids(wordpiece(text, vocab));
    },
    passage(text, max, windows) {
      const inner = wordpiece(text, vocab).slice(1, -1);
      const sum = new Float64Array(d);
      for (let w = 0; w < windows && (w === 0 || w * (max - 2) < inner.length); w++) {
        const ids = [vocab["[CLS]"], ...inner.slice(w * (max - 2), (w + 1) * (max - 2)), vocab["[SEP]"]];
        this.ids(ids).forEach((x, k) => (sum[k] += x));
      }
      const norm = Math.hypot(...sum);
      return sum.map((x) => x / norm);
    },
    ids(ids) {
      const n = ids.length;
      let x = new Float64Array(n * d);
      const word = t["embeddings.word_embeddings.weight"].data;
      const pos = t["embeddings.position_embeddings.weight"].data;
      const type = t["embeddings.token_type_embeddings.weight"].data;
      for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) x[i * d + k] = word[ids[i] * d + k] + pos[i * d + k] + type[k];
      layerNorm(x, n, d, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"]);
      for (let l = 0; l < config.num_hidden_layers; l++) {
        const p = `encoder.layer.${l}.`;
        const q = linear(x, n, t[p + "attention.self.query.weight"], t[p + "attention.self.query.bias"]);
        const k = linear(x, n, t[p + "attention.self.key.weight"], t[p + "attention.self.key.bias"]);
        const v = linear(x, n, t[p + "attention.self.value.weight"], t[p + "attention.self.value.bias"]);
        const ctx = new Float64Array(n * d);
        for (let h = 0; h < heads; h++) {
          for (let i = 0; i < n; i++) {
            const scores = new Float64Array(n);
            let max = -Infinity;
            for (let j = 0; j < n; j++) {
              let s = 0;
              for (let c = 0; c < hd; c++) s += q[i * d + h * hd + c] * k[j * d + h * hd + c];
              scores[j] = s / Math.sqrt(hd);
              max = Math.max(max, scores[j]);
            }
            let sum = 0;
            for (let j = 0; j < n; j++) sum += scores[j] = Math.exp(scores[j] - max);
            for (let j = 0; j < n; j++) for (let c = 0; c < hd; c++) ctx[i * d + h * hd + c] += (scores[j] / sum) * v[j * d + h * hd + c];
          }
        }
        const attn = linear(ctx, n, t[p + "attention.output.dense.weight"], t[p + "attention.output.dense.bias"]);
        for (let i = 0; i < n * d; i++) attn[i] += x[i];
        x = layerNorm(attn, n, d, t[p + "attention.output.LayerNorm.weight"], t[p + "attention.output.LayerNorm.bias"]);
        const inter = linear(x, n, t[p + "intermediate.dense.weight"], t[p + "intermediate.dense.bias"]);
        for (let i = 0; i < inter.length; i++) inter[i] = 0.5 * inter[i] * (1 + erf(inter[i] / Math.SQRT2));
        const out = linear(inter, n, t[p + "output.dense.weight"], t[p + "output.dense.bias"]);
        for (let i = 0; i < n * d; i++) out[i] += x[i];
        x = layerNorm(out, n, d, t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"]);
      }
      const mean = new Float64Array(d);
      for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) mean[c] += x[i * d + c] / n;
      const norm = Math.hypot(...mean);
      return mean.map((m) => m / norm);
    },
  };
}
