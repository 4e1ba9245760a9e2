// Connect at scale: cold, warm (the freshness check) and within treeMaxAgeMs, over the real
// 1,142-page corpus and a deterministic 10,000-page set derived from it:
//   node bench/scale.mjs --url URL [--sizes 1142,10000]
// Prints a Markdown table: p50 wall time, Chroma requests and bytes received per operation.
import { ChromaFs, ingest } from "chromafs";
import { DEFAULT_CORPUS, readCorpus, syntheticCorpus } from "./corpus.mjs";
import { corpusPresent } from "../tests/js/helpers.mjs";

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const url = arg("--url", process.env.CHROMAFS_BENCH_URL);
if (!url) throw new Error("pass --url or set CHROMAFS_BENCH_URL");
if (!corpusPresent()) process.exit(1);
const sizes = arg("--sizes", "1142,10000").split(",").map(Number);

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];

async function measure(size, name, runs, fn) {
  const times = [];
  let cost;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    cost = await fn();
    times.push(performance.now() - t0);
  }
  rows.push({ size, name, ms: p50(times), ...cost, runs });
}

const base = await readCorpus(DEFAULT_CORPUS);
for (const size of sizes) {
  const { files, access } = size === base.length ? { files: base, access: {} } : syntheticCorpus(base, { pages: size });
  const collection = `scale-${size}`;
  const t0 = performance.now();
  const s = await ingest({ url, collection, files, access });
  rows.push({ size, name: `ingest: ${s.chunks} chunks, tree ${s.treeBytes} B in ${s.treeShards} shards`, ms: performance.now() - t0, requests: s.requests, bytes: "", runs: 1 });
  const cost = (fs) => ({ requests: fs.stats().requests, bytes: fs.stats().bytesReceived });
  await measure(size, "connect, cold (collection + manifest and shards)", 5, async () => {
    ChromaFs.forgetTrees();
    return cost(await ChromaFs.connect({ url, collection }));
  });
  await measure(size, "connect, warm (tree in the process, freshness check)", 20, async () => cost(await ChromaFs.connect({ url, collection, groups: ["x"] })));
  await measure(size, "connect, warm within `treeMaxAgeMs`", 20, async () => cost(await ChromaFs.connect({ url, collection, groups: ["y"], treeMaxAgeMs: 60000 })));
}

console.log("| pages | operation | p50 ms | requests | bytes received | runs |\n|---:|---|---:|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.size} | ${r.name.replaceAll("|", "\\|")} | ${r.ms.toFixed(1)} | ${r.requests} | ${r.bytes} | ${r.runs} |`);
