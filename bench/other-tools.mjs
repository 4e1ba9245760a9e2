// Collections written by other tools: chunks with `page_slug` and `chunk_index` only, cut
// anywhere, and one tree record listing the pages (no chunk counts, no directories, no
// access on the chunks). chromafs reads their pages by slug, a `$in` of slugs per request;
// this measures what broad searches cost with Chroma Cloud's 8 where predicates (the
// default) and with `maxWherePredicates: 300`, which a self-hosted Chroma accepts.
//   node bench/other-tools.mjs --url http://127.0.0.1:PORT [--sizes 1142,10000] [--latency 0,40]
// Each command runs in a new session, the process tier off, so each is a first search.
// Writes bench/results/other-tools/SIZE.json and prints a Markdown table per size.
import { performance } from "node:perf_hooks";
import { Bash } from "just-bash";
import { ChromaFs, safeExec } from "chromafs";
import { writeOtherTool } from "../support/other-tool.mjs";
import { startProxy } from "../support/proxy.mjs";
import { DEFAULT_CORPUS, readCorpus, syntheticCorpus } from "./corpus/corpus.mjs";
import { arg, startResult } from "../support/results.mjs";

const url = arg("--url");
if (!url) throw new Error("usage: node bench/other-tools.mjs --url http://127.0.0.1:PORT [--sizes 1142,10000] [--latency 0,40]");
const sizes = arg("--sizes", "1142").split(",").map(Number);
const latencies = arg("--latency", "0,40").split(",").map(Number);
const COMMANDS = ["grep -rn Mintlify / | wc -l", "grep -rni oauth / | wc -l", "grep -rn HubSpot / | wc -l"];
const CHUNK = 1500; // code points, cut anywhere, as many splitters do

async function search(front, collection, command, extra) {
  const fs = await ChromaFs.connect({ url: front, collection, ...extra });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const before = fs.stats().requests;
  const t = performance.now();
  const r = await safeExec(bash, command);
  const ms = performance.now() - t;
  const requests = fs.stats().requests - before;
  fs.free();
  return { out: r.stdout.trim(), exitCode: r.exitCode, ms, requests };
}

ChromaFs.setProcessCacheBytes(0);
const base = await readCorpus(DEFAULT_CORPUS);
for (const pages of sizes) {
  const run = startResult(`other-tools-${pages}`, {
    command: `node bench/other-tools.mjs --url URL --sizes ${pages} --latency ${latencies.join(",")}`,
    settings: { chunks: `${CHUNK} code points, cut anywhere`, sessions: "a new session per command, the process tier off", options: "defaults but maxWherePredicates (page cache 64 MiB)", runs: "1" },
  });
  const rows = [];
  const files = pages === base.length ? base : syntheticCorpus(base, { pages, privateFraction: 0 }).files;
  const collection = `bench-other-tools-${pages}`;
  await writeOtherTool(url, collection, files, { chunkLength: () => CHUNK, entry: () => ({ isPublic: true }) });
  // What reading the whole set costs at the least: every chunk, 300 records an answer.
  const chunks = files.reduce((n, f) => n + Math.ceil([...f.content.toString("utf8")].length / CHUNK), 0);
  run.fact("chunks", chunks);
  run.fact("leastAnswers", Math.ceil(chunks / 300));
  for (const latencyMs of latencies) {
    const proxy = latencyMs ? await startProxy(url, { latencyMs }) : null;
    const front = proxy ? proxy.url : url;
    for (const command of COMMANDS) {
      const narrow = await search(front, collection, command, {});
      const wide = await search(front, collection, command, { maxWherePredicates: 300 });
      if (narrow.out !== wide.out || narrow.exitCode !== wide.exitCode) throw new Error(`${command}: outputs differ`);
      const cell = (r) => `${Math.round(r.ms)} ms, ${r.requests} requests`;
      rows.push([pages, `${latencyMs} ms`, `\`${command}\``, narrow.out, cell(narrow), cell(wide)]);
      run.fact(`${latencyMs} ${command}`, { narrow: { ms: Math.round(narrow.ms), requests: narrow.requests }, wide: { ms: Math.round(wide.ms), requests: wide.requests } });
    }
    if (proxy) await proxy.close();
  }
  run.table("searches", ["pages:", "added per request:", "command", "lines:", "maxWherePredicates 8:", "maxWherePredicates 300:"], rows);
  run.save();
}
