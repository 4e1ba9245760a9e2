// The built-in embedding model's costs: install size, load time, ms per query and per 100
// chunks of real docs (chunks derived from the corpus, never stored here).
//   node bench/embed.mjs [--corpus DIR]
// Writes bench/results/embed.json and prints a Markdown table.
import { statSync, readdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createEmbedder, MODEL } from "chromafs/embed";
import { readDocs, CORPUS, ROOT } from "../support/files.mjs";
import { startResult } from "../support/results.mjs";

const dirSize = (d) => readdirSync(d, { withFileTypes: true }).reduce((s, e) => s + (e.isDirectory() ? dirSize(path.join(d, e.name)) : statSync(path.join(d, e.name)).size), 0);
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const corpus = process.argv.includes("--corpus") ? process.argv[process.argv.indexOf("--corpus") + 1] : CORPUS;

const run = startResult("embed", { settings: { threads: "one (the module is single-threaded)", runs: "queries: 20, then 100 chunks once" } });
const t0 = performance.now();
const e = await createEmbedder();
const load = performance.now() - t0;
const docs = (await readDocs(corpus)).slice(0, 200).map((f) => f.content.toString("utf8"));
// ~1,500-byte chunks, as ingest's line-aligned chunking would cut them.
const chunks = [];
for (const d of docs) for (let i = 0; i < d.length && chunks.length < 100; i += 1500) chunks.push(d.slice(i, i + 1500));
await e.embed(["warm up"]);
const queries = ["how do I rotate my API keys", "custom domain DNS records", "what does a 401 mean", "search analytics"];
let t = performance.now();
for (let r = 0; r < 5; r++) for (const q of queries) await e.embed([q]);
const perQuery = (performance.now() - t) / (5 * queries.length);
t = performance.now();
await e.embed(chunks.slice(0, 100));
const per100 = performance.now() - t;
const wasm = statSync(path.join(ROOT, "pkg/dist/embed/chromafs_embed_bg.wasm")).size;
const rows = [
  ["model", MODEL],
  ["weights, tokenizer, config (unpacked)", mb(dirSize(path.join(ROOT, ".models", MODEL)))],
  ["embedding module (wasm)", mb(wasm)],
  ["load (read files, build model)", `${load.toFixed(0)} ms`],
  ["one query (~8 words)", `${perQuery.toFixed(1)} ms`],
  [`100 chunks of ~1,500 bytes (${chunks.length} taken)`, `${per100.toFixed(0)} ms`],
];
run.table("embed", ["", "measured"], rows);
run.fact("loadMs", Math.round(load));
run.fact("queryMs", +perQuery.toFixed(1));
run.fact("per100Ms", Math.round(per100));
run.save();
