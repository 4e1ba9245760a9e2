// `chromafs ingest --embed openai:MODEL` through an embedding service, side by side with the
// same ingest without embeddings, in one run: the service is a local server speaking the
// OpenAI embeddings protocol (support/embedding-service.mjs) that answers each request in
// 150 ms and serves 8 at once (a 429 past that), a stand-in for a hosted service that can
// embed thousands of chunks a second, so it is not what limits the ingest. A third row
// runs the same ingest while the service answers every fourth request 429 with
// Retry-After, and checks that every page reads back whole (no chunk lost or written
// twice). Each row writes a fresh collection with the command-line tool, timed whole
// (reading the files, chunking, embedding, writing, the tree); rows alternate, and the
// median of the runs is kept. Chroma's own cost of writing a vector grows with its length
// (hundreds of numbers against the 32 of chromafs's hashing), so each length also has a row
// through a service that answers at once: the service row against it is what embedding
// costs once it overlaps writing.
//   node bench/embed-service.mjs [--corpus DIR] [--runs N] [--dimensions 384,1536]
// Uses ../shared/corpus/mintlify-docs when present, the generated corpus otherwise.
// Writes bench/results/embed-service/all.json and prints Markdown tables.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ChromaFs } from "chromafs";
import { CORPUS, ROOT, readDocs } from "../support/files.mjs";
import { generatedCorpus } from "../support/generated-corpus.mjs";
import { startEmbeddingService } from "../support/embedding-service.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { arg, startResult } from "../support/results.mjs";

const runs = Number(arg("--runs", "3"));
const dimensions = arg("--dimensions", "384,1536").split(",").map(Number);
const LATENCY_MS = 150;
const AT_ONCE = 8;
const KEY = "sk-bench-0123456789";
const MODEL = "text-embedding-3-small";

// The docs as a folder, as `chromafs ingest` reads them.
let dir = arg("--corpus", existsSync(CORPUS) ? CORPUS : null);
let temporary = null;
if (!dir) {
  temporary = mkdtempSync(path.join(os.tmpdir(), "chromafs-embed-service-"));
  for (const f of generatedCorpus()) {
    await mkdir(path.dirname(path.join(temporary, f.path)), { recursive: true });
    await writeFile(path.join(temporary, f.path), f.content);
  }
  dir = temporary;
}
const corpusName = dir === CORPUS ? "../shared/corpus/mintlify-docs" : dir === temporary ? "the generated corpus" : dir;

const chroma = await startOwnChroma("embed-service");
// The stand-in for a hosted service, and one that answers at once: what writing vectors of
// that length into Chroma costs, without the service's latency.
const services = {};
for (const d of dimensions) {
  services[d] = {
    slow: await startEmbeddingService({ key: KEY, dimension: d, latencyMs: LATENCY_MS, concurrency: AT_ONCE, retryAfter: "0.2" }),
    instant: await startEmbeddingService({ key: KEY, dimension: d }),
  };
}
const largest = Math.max(...dimensions);
const run = startResult("embed-service", {
  settings: {
    corpus: corpusName,
    service: `a local OpenAI-compatible server: ${LATENCY_MS} ms a request, ${AT_ONCE} at once (429 past that); and one that answers at once`,
    client: "the command-line tool's defaults: 4 requests at once, up to 300 chunks a request (one write batch)",
    runs: `${runs} of each row, alternating; the median`,
  },
});

function cli(args, env = {}) {
  return new Promise((resolve, reject) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/API_KEY/.test(k)));
    execFile(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), ...args], { env: { ...base, ...env }, maxBuffer: 1 << 24 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${args.join(" ")}: ${stderr || error.message}`)) : resolve({ stdout, stderr }),
    );
  });
}

const drop = (name) => fetch(`${chroma.url}/api/v2/tenants/default_tenant/databases/default_database/collections/${name}`, { method: "DELETE" });

/** One ingest into a fresh collection (through `service`, if given): seconds and chunks. */
async function ingest(name, service) {
  await drop(name);
  const args = ["ingest", dir, "--url", chroma.url, "--collection", name];
  if (service) args.push("--embed", `openai:${MODEL}`, "--embed-url", service.url, "--embed-key-env", "BENCH_EMBED_KEY");
  const t0 = performance.now();
  const { stdout } = await cli(args, { BENCH_EMBED_KEY: KEY });
  const seconds = (performance.now() - t0) / 1000;
  const chunks = Number(/as (\d+) chunks/.exec(stdout)[1]);
  return { seconds, chunks };
}

/** Every page of `name` reads back as the file it came from. */
async function whole(name) {
  const docs = await readDocs(dir);
  const fs = await ChromaFs.connect({ url: chroma.url, collection: name, collectionEmbedding: false });
  let bad = 0;
  for (const d of docs) {
    const text = await fs.readFile(`/${d.path}`).catch(() => null);
    if (text !== null && text !== d.content.toString("utf8")) bad += 1;
  }
  const stats = await fetch(`${chroma.url}/api/v2/tenants/default_tenant/databases/default_database/collections/${name}`).then((r) => r.json());
  const count = await fetch(`${chroma.url}/api/v2/tenants/default_tenant/databases/default_database/collections/${stats.id}/count`).then((r) => r.json());
  fs.free();
  return { bad, records: count };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = { plain: [], limited: [] };
for (const d of dimensions) (rows[`instant${d}`] = []), (rows[`slow${d}`] = []);
let limitedCheck = null;
let refused = 0;
const limitedService = services[largest].slow;
try {
  // A first ingest warms the files into the page cache and Chroma's process.
  await ingest("warm-up", null);
  for (let i = 0; i < runs; i++) {
    rows.plain.push(await ingest("plain", null));
    for (const d of dimensions) {
      rows[`instant${d}`].push(await ingest(`instant-${d}`, services[d].instant));
      services[d].slow.reset();
      rows[`slow${d}`].push(await ingest(`slow-${d}`, services[d].slow));
      refused += services[d].slow.stats().refused;
    }
    limitedService.reset();
    // Every fourth request refused with Retry-After, beside the service's own limit.
    limitedService.failEvery(4, { status: 429, retryAfter: "0.2", message: "Rate limit reached" });
    rows.limited.push(await ingest("limited", limitedService));
    limitedCheck = { ...(await whole("limited")), requests: limitedService.requests.length, plain: (await whole("plain")).records };
    limitedService.reset();
  }
} finally {
  for (const s of Object.values(services)) await Promise.all([s.slow.close(), s.instant.close()]);
  chroma.stop();
  if (temporary) rmSync(temporary, { recursive: true, force: true });
}

const rate = (r) => r.chunks / r.seconds;
const best = Object.fromEntries(Object.entries(rows).map(([k, list]) => [k, { chunks: list[0].chunks, seconds: median(list.map((r) => r.seconds)) }]));
const plainRate = rate(best.plain);
const row = (what, r, against) => [what, r.chunks, r.seconds.toFixed(1), rate(r).toFixed(0), (rate(r) / plainRate).toFixed(2), against === undefined ? "" : (rate(r) / rate(against)).toFixed(2)];
const table = [row("without embeddings (chromafs's hashing, 32 numbers)", best.plain)];
for (const d of dimensions) {
  table.push(row(`a service that answers at once, ${d} numbers`, best[`instant${d}`]));
  table.push(row(`the service (${LATENCY_MS} ms a request, ${AT_ONCE} at once), ${d} numbers`, best[`slow${d}`], best[`instant${d}`]));
}
table.push(row(`the same, ${largest} numbers, every fourth request answered 429 with Retry-After`, best.limited, best[`instant${largest}`]));
run.table("ingest", ["\`chromafs ingest\`", "chunks:", "seconds:", "chunks/s:", "vs without:", "vs at once:"], table);
run.table("limited", ["under 429s", "measured"], [
  ["pages that read back other than their file", String(limitedCheck.bad)],
  ["records in the collection (chunks, tree and its shards)", `${limitedCheck.records} (without embeddings: ${limitedCheck.plain})`],
  ["requests the service received in the last run (refusals included)", String(limitedCheck.requests)],
]);
const smallest = Math.min(...dimensions);
run.fact("plainChunksPerSecond", Math.round(plainRate));
for (const d of dimensions) {
  run.fact(`service${d}ChunksPerSecond`, Math.round(rate(best[`slow${d}`])));
  run.fact(`instant${d}ChunksPerSecond`, Math.round(rate(best[`instant${d}`])));
  run.fact(`ratio${d}`, +(rate(best[`slow${d}`]) / plainRate).toFixed(2));
  run.fact(`overlap${d}`, +(rate(best[`slow${d}`]) / rate(best[`instant${d}`])).toFixed(2));
}
run.fact("smallest", smallest);
run.fact("largest", largest);
run.fact("limitedChunksPerSecond", Math.round(rate(best.limited)));
run.fact("limitedBadPages", limitedCheck.bad);
run.fact("limitedRecords", limitedCheck.records);
run.fact("plainRecords", limitedCheck.plain);
run.fact("chunks", best.plain.chunks);
run.fact("serviceRefusals", refused);
run.save();
