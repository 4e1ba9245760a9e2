// What a connect costs as the docs grow, side by side with loading the same files into
// just-bash's InMemoryFs:
//   node bench/connect.mjs [--sizes 1142,10000,50000] [--runs 7] [--latency 40]
// A connect reads only the collection and its path tree, never a page, so each size is
// written with its pages cut to their first lines (the tree is the same as for the whole
// pages). Each size gets a Chroma of its own, written through the Chroma Cloud quota proxy
// and read through it at loopback speed and with latency added. "Cold" forgets the kept
// tree before each connect; "warm" keeps it and checks that it is fresh. Writes
// bench/results/connect/all.json and prints a Markdown table.
import { ChromaFs, ingest } from "chromafs";
import { DEFAULT_CORPUS, readCorpus, syntheticCorpus, visibleTo } from "./corpus/corpus.mjs";
import { corpusPresent } from "../support/files.mjs";
import { medianMs, startOwnChroma } from "../support/own-chroma.mjs";
import { referenceFs } from "../support/reference.mjs";
import { startCloudProxy } from "../support/proxy.mjs";
import { arg, kib, startResult } from "../support/results.mjs";

if (!corpusPresent()) process.exit(1);
const SIZES = arg("--sizes", "1142,10000,50000").split(",").map(Number);
const RUNS = Number(arg("--runs", "7"));
const LATENCY = Number(arg("--latency", "40"));

async function measure(base, size, rows) {
  const { files, access } = syntheticCorpus(base, { pages: size, tiny: true });
  const server = await startOwnChroma(`connect-${size}`);
  const near = await startCloudProxy(server.url);
  const far = await startCloudProxy(server.url, { latencyMs: LATENCY });
  try {
    const written = await ingest({ url: near.url, collection: "docs", files, access });
    const tree = `${written.treeShards} shards, ${kib(written.treeBytes)}`;
    for (const [proxy, how] of [[near, "loopback"], [far, `+${LATENCY} ms per request`]]) {
      const opts = { url: proxy.url, collection: "docs" };
      const before = proxy.stats();
      ChromaFs.forgetTrees();
      const cold = await medianMs(RUNS, async () => (ChromaFs.forgetTrees(), ChromaFs.connect(opts)));
      const requests = (proxy.stats().requests - before.requests) / RUNS;
      const warm = await medianMs(RUNS, () => ChromaFs.connect(opts));
      rows.push([size, tree, how, cold.toFixed(0), requests, warm.toFixed(0)]);
      run.fact(`${size} ${how === "loopback" ? "loopback" : "latency"}`, { cold: Math.round(cold), warm: Math.round(warm), requests });
    }
    const visible = files.filter((f) => visibleTo(access, [])(f.path));
    const mem = await medianMs(Math.min(RUNS, 3), () => referenceFs(visible));
    rows.push([size, `${visible.length} files`, "just-bash InMemoryFs, files written into it", mem.toFixed(0), "", ""]);
    run.fact(`${size} InMemoryFs`, Math.round(mem));
  } finally {
    await near.close();
    await far.close();
    server.stop();
  }
}

const run = startResult("connect", {
  settings: { runs: `${RUNS}, p50 (the InMemoryFs: ${Math.min(RUNS, 3)})`, latency: `loopback, and ${LATENCY} ms added per request by a proxy`, options: "defaults" },
});
const base = await readCorpus(DEFAULT_CORPUS);
const rows = [];
for (const size of SIZES) await measure(base, size, rows);
run.table("connect", ["pages", "tree", "how", "cold connect ms:", "requests:", "warm connect ms (freshness check):"], rows);
run.save();
