// The process tier: two sessions in one process run the same commands; what does the
// second one ask Chroma for, with the tier (default) and without it (processCacheBytes 0)?
//   node bench/process-tier.mjs --url http://127.0.0.1:PORT
import { performance } from "node:perf_hooks";
import { Bash } from "just-bash";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { DEFAULT_CORPUS, readCorpus } from "./corpus.mjs";

const url = process.argv[process.argv.indexOf("--url") + 1];
const files = await readCorpus(DEFAULT_CORPUS);
await ingest({ url, collection: "bench-tier", files });
const BATTERY = ["grep -rni oauth /", "grep -rnE 'api[_-]key' /", "grep -rn Mintlify / | head -20", "grep -rn HubSpot /", "cat /quickstart.mdx | wc -l", "rg -l webhook /"];

async function session(bytes) {
  const fs = await ChromaFs.connect({ url, collection: "bench-tier", processCacheBytes: bytes, cacheBytes: 64 << 20 });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const before = fs.stats().requests;
  const t = performance.now();
  for (const c of BATTERY) await safeExec(bash, c);
  return { requests: fs.stats().requests - before, ms: Math.round(performance.now() - t), processHits: fs.stats().processHits };
}

for (const [label, bytes] of [["off (processCacheBytes: 0)", 0], ["on (256 MiB)", 256 << 20]]) {
  ChromaFs.setProcessCacheBytes(bytes);
  const first = await session(bytes);
  const second = await session(bytes);
  console.log(`tier ${label.padEnd(26)} first session: ${first.requests} requests, ${first.ms} ms; second: ${second.requests} requests, ${second.ms} ms, ${second.processHits} pages from the tier`);
}
