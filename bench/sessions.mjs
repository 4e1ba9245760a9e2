// Many sessions in one Node process: 100 agents at once, each running a mix of commands
// over the 1,142-page corpus, with two page-cache sizes. Reports p50/p99 latency per
// command, the process's peak RSS, and the most bytes the sessions' caches held at once
// (bounded by sessions × cacheBytes).
//   node bench/sessions.mjs --url http://127.0.0.1:PORT [--sessions 100]
// Writes bench/results/sessions/all.json and prints a Markdown table.
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { DEFAULT_CORPUS, readCorpus } from "./corpus/corpus.mjs";
import { corpusPresent } from "../support/files.mjs";
import { arg, startResult } from "../support/results.mjs";

const URL_ = arg("--url");
const SESSIONS = Number(arg("--sessions", "100"));
if (!URL_ || !corpusPresent()) {
  console.error("usage: node bench/sessions.mjs --url http://127.0.0.1:PORT [--sessions 100]");
  process.exit(2);
}

const files = await readCorpus(DEFAULT_CORPUS);
const collection = "bench-sessions";
await ingest({ url: URL_, collection, files });
const pages = files.map((f) => `/${f.path}`);
const dirs = [...new Set(files.map((f) => `/${f.path.split("/")[0]}`).filter((d) => !d.includes(".")))];

// A deterministic mix per session: listings, reads, searches, pipelines.
function commands(i) {
  const page = (k) => pages[(i * 37 + k * 101) % pages.length];
  const dir = (k) => dirs[(i + k) % dirs.length];
  return [
    "ls /",
    `cat ${page(0)} | wc -l`,
    `grep -rn access_token ${dir(0)} | head -5`,
    `head -n 20 ${page(1)}`,
    `find ${dir(1)} -name '*.mdx' | wc -l`,
    `grep -rl Mintlify ${dir(2)} | wc -l`,
    `rg -n 'api key' ${dir(3)} | head -3`,
    `wc -c ${page(2)} ${page(3)}`,
    "grep -rn HubSpot / | head",
    `cat ${page(4)} > /tmp/p; grep -c the /tmp/p`,
  ];
}

const p = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

async function run(cacheBytes) {
  ChromaFs.forgetTrees();
  global.gc?.();
  let peak = process.memoryUsage().rss;
  let cachedPeak = 0;
  const sessions = [];
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    cachedPeak = Math.max(cachedPeak, sessions.reduce((n, fs) => n + fs.stats().cachedBytes, 0));
  }, 20);
  const times = [];
  const causes = new Set();
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const groups = i % 3 === 0 ? [] : [`team-${i % 5}`];
      const fs = await ChromaFs.connect({ url: URL_, collection, groups, cacheBytes, scratch: "/tmp" });
      sessions.push(fs);
      const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
      for (const cmd of commands(i)) {
        const s = performance.now();
        const r = await safeExec(bash, cmd);
        times.push(performance.now() - s);
        if (/Input\/output error/.test(r.stderr)) {
          failures++;
          causes.add(r.stderr.match(/Input\/output error \((.*?)\)?$/m)?.[1]?.replace(/"[^"]*"/g, "…").slice(0, 120));
        }
      }
    }),
  );
  const wall = performance.now() - t0;
  clearInterval(sample);
  for (const fs of sessions) fs.free();
  for (const cause of causes) console.error(`  I/O error: ${cause}`);
  const mib = (n) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  rows.push([SESSIONS, mib(cacheBytes), times.length, p(times, 0.5).toFixed(0), p(times, 0.99).toFixed(0), `${(wall / 1000).toFixed(1)} s`, mib(peak), `${mib(cachedPeak)} (≤ ${mib(SESSIONS * cacheBytes)})`, failures]);
}

const result = startResult("sessions", {
  command: `node bench/sessions.mjs --url URL --sessions ${SESSIONS}`,
  settings: { pages: "1,142", options: "defaults but cacheBytes (process tier 64 MiB)", "cached at once": "sampled every 20 ms", runs: "1" },
});
const rows = [];
await run(1 << 20);
await run(8 << 20);
result.table("sessions", ["sessions:", "cacheBytes:", "commands:", "p50 ms:", "p99 ms:", "wall:", "peak RSS:", "cached at once:", "I/O errors:"], rows);
result.save();
