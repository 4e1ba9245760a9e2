// The process tier: two sessions in one process run the same commands; what does the
// second one ask Chroma for, with the tier off (processCacheBytes 0), at its default size
// and at 256 MiB?
//   node bench/process-tier.mjs [--sizes 1142,10000]
// Each size gets a Chroma of its own. Writes bench/results/process-tier/SIZE.json and prints
// a Markdown table per size.
import { performance } from "node:perf_hooks";
import { Bash } from "just-bash";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { DEFAULT_CORPUS, readCorpus, syntheticCorpus } from "./corpus/corpus.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { arg, commandLine, startResult } from "../support/results.mjs";

const SIZES = arg("--sizes", "1142,10000").split(",").map(Number);
const BATTERY = ["grep -rni oauth /", "grep -rnE 'api[_-]key' /", "grep -rn Mintlify / | head -20", "grep -rn HubSpot /", "cat /quickstart.mdx | wc -l", "rg -l webhook /"];

async function session(url) {
  const fs = await ChromaFs.connect({ url, collection: "docs" });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const t = performance.now();
  for (const c of BATTERY) await safeExec(bash, c);
  const s = fs.stats();
  fs.free();
  return { requests: s.requests, ms: Math.round(performance.now() - t), processHits: s.processHits, loaded: s.prefetchedPages + s.cacheMisses };
}

const base = await readCorpus(DEFAULT_CORPUS);
for (const size of SIZES) {
  const run = startResult(`process-tier-${size}`, {
    command: commandLine().replace(/--sizes \S+/, "").replace(/$/, ` --sizes ${size}`).replace(/  +/g, " "),
    settings: { battery: BATTERY.map((c) => `\`${c}\``).join(", "), options: "defaults but the tier's size (page cache 64 MiB a session)", runs: "1" },
  });
  const { files, access } = size === base.length ? { files: base, access: {} } : syntheticCorpus(base, { pages: size });
  const server = await startOwnChroma(`tier-${size}`);
  const rows = [];
  try {
    await ingest({ url: server.url, collection: "docs", files, access });
    for (const [label, bytes] of [["off", 0], ["64 MiB (the default)", 64 << 20], ["256 MiB", 256 << 20]]) {
      ChromaFs.forgetTrees();
      ChromaFs.setProcessCacheBytes(0);
      ChromaFs.setProcessCacheBytes(bytes);
      const first = await session(server.url);
      const second = await session(server.url);
      rows.push([label, first.requests, first.ms, first.loaded, second.requests, second.ms, second.loaded, second.processHits]);
      run.fact(label.split(" ")[0], { first, second });
    }
  } finally {
    server.stop();
  }
  ChromaFs.setProcessCacheBytes(64 << 20);
  run.table(
    "tier",
    ["process tier", "first session: requests:", "ms:", "pages loaded:", "second session: requests:", "ms:", "pages loaded:", "pages from the tier:"],
    rows,
  );
  run.save();
}
