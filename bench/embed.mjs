// The built-in embedding model's costs: install size, load time, ms per query, and ingest's
// throughput (chunks a second) side by side with a native runtime of the same model on the
// same machine: this crate's own code (candle) compiled for the host, run by
// `cargo run --release --example native` in embed/. Chunks are derived from the corpus,
// never stored here; every throughput row embeds the same chunks, and its vectors are
// compared with the module's one-thread vectors (the smallest cosine). Where
// multilingual-e5-small is installed, its size, load time, query time and throughput
// beside the default model's.
//   node bench/embed.mjs [--corpus DIR] [--chunks N] [--no-native]
// Writes bench/results/embed/all.json and prints Markdown tables.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { cores, createEmbedder, MODEL } from "chromafs/embed";
import { readDocs, CORPUS, ROOT } from "../support/files.mjs";
import { arg, startResult } from "../support/results.mjs";

const dirSize = (d) => readdirSync(d, { withFileTypes: true }).reduce((s, e) => s + (e.isDirectory() ? dirSize(path.join(d, e.name)) : statSync(path.join(d, e.name)).size), 0);
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const corpus = arg("--corpus", CORPUS);
const count = Number(arg("--chunks", "64"));
const modelDir = path.join(ROOT, ".models", MODEL);
const cos = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const FILES = ["model.safetensors", "config.json", "tokenizer.json"];

const run = startResult("embed", {
  settings: {
    chunks: `${count} chunks of ~1,500 bytes (each read as its first two windows of 200 tokens), batches of 16`,
    runs: "queries: 20; each throughput row embeds the chunks once, after 32 of them a thread (V8 optimises a module's code once it has run a while)",
    native: "candle 0.9 for x86-64 (its AVX2/FMA kernels), the embed crate's own code, RAYON_NUM_THREADS set per row",
  },
});
const docs = (await readDocs(corpus)).slice(0, 400).map((f) => f.content.toString("utf8"));
// ~1,500-byte chunks, as ingest's line-aligned chunking would cut them.
const chunks = [];
for (const d of docs) for (let i = 0; i < d.length && chunks.length < count; i += 1500) chunks.push(d.slice(i, i + 1500));
const queries = ["how do I rotate my API keys", "custom domain DNS records", "what does a 401 mean", "search analytics"];

/**
 * Chunks a second for `embedder`, and its vectors. Two batches a thread first: V8 runs a
 * new module's code unoptimised until it has run a while (and a fresh worker's too), which a
 * long ingest amortises and a short measurement must not count.
 */
async function throughput(embedder, threads = 1) {
  await embedder.embed(chunks.slice(0, 32 * threads));
  const start = performance.now();
  const vectors = await embedder.embed(chunks);
  return { perSecond: chunks.length / ((performance.now() - start) / 1000), vectors };
}

/**
 * What `model` costs in the module: loading it, a query, and chunks a second in this
 * thread (`single`) and on a worker thread a core (`many`, as `ingest --embed` runs it).
 */
async function costs(model) {
  let start = performance.now();
  const e = await createEmbedder({ model });
  const load = performance.now() - start;
  await e.embedQuery(["warm up"]);
  start = performance.now();
  for (let r = 0; r < 5; r++) for (const q of queries) await e.embedQuery([q]);
  const perQuery = (performance.now() - start) / (5 * queries.length);
  const single = await throughput(e);
  const pooled = await createEmbedder({ model, threads: "auto" });
  const many = await throughput(pooled, pooled.threads);
  await pooled.close();
  return { load, perQuery, single, many, threads: pooled.threads };
}

const { load, perQuery, single: base, many, threads } = await costs(MODEL);
const agreement = (vectors) => Math.min(...vectors.map((v, i) => cos(v, base.vectors[i]))).toFixed(6);
const rows = [["WebAssembly, 1 thread (a search's embedder; ingest's before)", base.perSecond.toFixed(2), "1.0×", "—"]];
rows.push([`WebAssembly, ${threads} worker threads (\`ingest --embed\`)`, many.perSecond.toFixed(2), `${(many.perSecond / base.perSecond).toFixed(1)}×`, agreement(many.vectors)]);
let nativeBest = null;
if (!process.argv.includes("--no-native")) {
  for (const threads of [...new Set([1, cores()])]) {
    const n = native(threads);
    nativeBest = Math.max(nativeBest ?? 0, n.perSecond);
    rows.push([`native candle, ${threads} thread${threads === 1 ? "" : "s"}`, n.perSecond.toFixed(2), `${(n.perSecond / base.perSecond).toFixed(1)}×`, agreement(n.vectors)]);
  }
}

/** The native example on the same chunks, with `threads` rayon threads. */
function native(threads) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "chromafs-embed-"));
  try {
    writeFileSync(path.join(dir, "texts.json"), JSON.stringify(chunks));
    const cargo = ["run", "--quiet", "--release", "--example", "native", "--manifest-path", path.join(ROOT, "embed/Cargo.toml"), "--"];
    const out = execFileSync("cargo", [...cargo, modelDir, path.join(dir, "texts.json"), "16", path.join(dir, "vectors.json")], {
      env: { ...process.env, RAYON_NUM_THREADS: String(threads) },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const { texts, ms } = JSON.parse(out.trim().split("\n").pop());
    return { perSecond: texts / (ms / 1000), vectors: JSON.parse(readFileSync(path.join(dir, "vectors.json"), "utf8")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const wasm = statSync(path.join(ROOT, "pkg/dist/embed/chromafs_embed_bg.wasm")).size;
run.table("embed", ["", "measured"], [
  ["model", MODEL],
  ["weights, tokenizer, config (unpacked)", mb(dirSize(modelDir))],
  ["embedding module (wasm)", mb(wasm)],
  ["load (read files, build model)", `${load.toFixed(0)} ms`],
  ["one query (~8 words)", `${perQuery.toFixed(1)} ms`],
  ["100 chunks of ~1,500 bytes, 1 thread", `${(100_000 / base.perSecond).toFixed(0)} ms`],
]);
run.table("throughput", ["runtime", "chunks/s:", "vs 1 thread:", "smallest cosine vs 1 thread:"], rows);
// The multilingual model beside the default: what choosing it costs.
const E5 = "multilingual-e5-small";
const e5Dir = path.join(ROOT, ".models", E5);
if (existsSync(path.join(e5Dir, "model.safetensors"))) {
  const e5 = await costs(E5);
  const files = (d) => FILES.reduce((n, f) => n + statSync(path.join(d, f)).size, 0);
  run.table("models", ["", `${MODEL}:`, `${E5}:`], [
    ["weights, tokenizer, config (unpacked)", mb(files(modelDir)), mb(files(e5Dir))],
    ["load (read files, build model)", `${load.toFixed(0)} ms`, `${e5.load.toFixed(0)} ms`],
    ["one query (~8 words)", `${perQuery.toFixed(1)} ms`, `${e5.perQuery.toFixed(1)} ms`],
    ["chunks/s, 1 thread", base.perSecond.toFixed(2), e5.single.perSecond.toFixed(2)],
    [`chunks/s, ${threads} worker threads (\`ingest --embed\`)`, many.perSecond.toFixed(2), e5.many.perSecond.toFixed(2)],
  ]);
  run.fact("e5ChunksPerSecondIngest", +e5.many.perSecond.toFixed(2));
}
run.fact("loadMs", Math.round(load));
run.fact("queryMs", +perQuery.toFixed(1));
run.fact("per100Ms", Math.round(100_000 / base.perSecond));
run.fact("chunksPerSecond", +base.perSecond.toFixed(2));
run.fact("chunksPerSecondIngest", +many.perSecond.toFixed(2));
if (nativeBest !== null) run.fact("chunksPerSecondNative", +nativeBest.toFixed(2));
run.save();
