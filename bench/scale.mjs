// chromafs at scale, side by side with the alternatives, in one run:
//   node bench/scale.mjs [--sizes 1142,10000] [--latency 40] [--runs 3]   (--sizes 50000: the largest set)
// For each size it starts a Chroma of its own (Chroma's local full-text filters scan every
// document of the server, so sizes must not share one), writes the set through a proxy
// that enforces Chroma Cloud's quotas, and measures connects and searches through it, at
// loopback speed and with Cloud-like latency added. Beside them: just-bash over an
// InMemoryFs preloaded with the same files, and GNU grep over a copy on disk.
// Writes bench/results/scale/SIZE.json and prints a Markdown table per size: p50 wall time,
// requests, bytes sent and received.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChromaFs, ingest } from "chromafs";
import { Bash } from "just-bash";
import { DEFAULT_CORPUS, readCorpus, syntheticCorpus, visibleTo, writeCorpus } from "./corpus/corpus.mjs";
import { corpusPresent } from "../support/files.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { referenceFs } from "../support/reference.mjs";
import { startCloudProxy } from "../support/proxy.mjs";
import { arg, commandLine, kib as kb, startResult } from "../support/results.mjs";

if (!corpusPresent()) process.exit(1);
const SIZES = arg("--sizes", "1142,10000").split(",").map(Number);
const LATENCY = Number(arg("--latency", "40"));
const RUNS = Number(arg("--runs", "3"));

const SEARCHES = [
  ["rare word", "grep -rn HubSpot /"],
  ["common word", "grep -rn Mintlify /"],
  ["case-insensitive", "grep -rni oauth /"],
  ["regex", "grep -rnE 'api[_-]key' /"],
];

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
const row = (size, what, how, ms, extra = {}) => rows.push({ size, what, how, ms, ...extra });

async function timed(runs, fn) {
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await fn(i);
    times.push(performance.now() - t0);
  }
  return { ms: p50(times), last };
}

/** A request-level view of what one operation cost, from the proxy in front of Chroma. */
async function through(proxy, fn) {
  const before = proxy.stats();
  const out = await fn();
  const after = proxy.stats();
  return { out, requests: after.requests - before.requests, sent: after.bytesSent - before.bytesSent, received: after.bytesReceived - before.bytesReceived, maxBody: proxy.requests.slice(before.requests).reduce((m, r) => Math.max(m, r.bodyBytes ?? 0), 0) };
}

async function benchSize(base, size) {
  const { files, access } = size === base.length ? { files: base, access: {} } : syntheticCorpus(base, { pages: size });
  const own = await startOwnChroma(`scale-${size}`);
  const chroma = own.url;
  const cloud = await startCloudProxy(chroma);
  const far = await startCloudProxy(chroma, { latencyMs: LATENCY });
  const collection = "docs";
  try {
    const t0 = performance.now();
    const s = await ingest({ url: cloud.url, collection, files, access });
    row(size, `ingest: ${s.chunks} chunks, tree ${kb(s.treeBytes)} in ${s.treeShards} shards`, "chromafs", performance.now() - t0, { requests: s.requests });

    for (const [proxy, how] of [[cloud, "chromafs"], [far, `chromafs, +${LATENCY} ms`]]) {
      const opts = { url: proxy.url, collection };
      let c = await timed(RUNS, () => through(proxy, async () => (ChromaFs.forgetTrees(), ChromaFs.connect(opts))));
      row(size, "connect, cold", how, c.ms, c.last);
      c = await timed(RUNS * 4, () => through(proxy, () => ChromaFs.connect({ ...opts, groups: ["support"] })));
      row(size, "connect, warm (freshness check)", how, c.ms, c.last);
      c = await timed(RUNS * 4, (i) => through(proxy, () => ChromaFs.connect({ ...opts, groups: [`new-${how}-${i}`] })));
      row(size, "connect, warm, a group set not seen before (builds its listing)", how, c.ms, c.last);
      for (const [what, cmd] of SEARCHES) {
        const r = await timed(RUNS, () =>
          through(proxy, async () => {
            const fs = await ChromaFs.connect({ ...opts, treeMaxAgeMs: 600000 });
            const out = await new Bash({ fs, cwd: "/", customCommands: fs.commands() }).exec(`${cmd} | wc -l`);
            return { lines: out.stdout.trim(), note: fs.stats().commands.at(-1).note };
          }),
        );
        row(size, `\`${cmd}\` (${what}, ${r.last.out.lines} lines)`, how, r.ms, r.last);
      }
    }

    const visible = files.filter((f) => visibleTo(access, [])(f.path));
    const mem = new Bash({ fs: await referenceFs(visible), cwd: "/" });
    for (const [what, cmd] of SEARCHES) {
      const r = await timed(Math.min(RUNS, 3), () => mem.exec(`${cmd} | wc -l`));
      row(size, `\`${cmd}\` (${what}, ${r.last.stdout.trim()} lines)`, "just-bash, InMemoryFs", r.ms);
    }
    const copy = mkdtempSync(path.join(os.tmpdir(), `chromafs-copy-${size}-`));
    try {
      await writeCorpus(visible, copy);
      for (const [what, cmd] of SEARCHES) {
        const argv = cmd.replace("grep ", "").replace(/ \/$/, "").match(/'[^']*'|\S+/g).map((a) => a.replace(/^'|'$/g, ""));
        const r = await timed(RUNS, () => spawnSync("grep", [...argv, "."], { cwd: copy, stdio: "ignore" }));
        row(size, `\`${cmd}\` (${what})`, "GNU grep, local copy", r.ms);
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
    row(size, `Chroma Cloud quota violations: ${cloud.violations.length + far.violations.length}`, "proxy", 0);
  } finally {
    await cloud.close();
    await far.close();
    own.stop();
  }
}

// Off, so that each search's session starts with no page at hand.
ChromaFs.setProcessCacheBytes(0);
const base = await readCorpus(DEFAULT_CORPUS);
for (const size of SIZES) {
  const run = startResult(`scale-${size}`, {
    command: commandLine().replace(/--sizes \S+/, "").replace(/$/, ` --sizes ${size}`).replace(/  +/g, " "),
    settings: {
      runs: `${RUNS}, p50 (connects warm: ${RUNS * 4}; just-bash over an InMemoryFs: ${Math.min(RUNS, 3)})`,
      searches: "a new session per run, the tree kept in the process (treeMaxAgeMs 10 min), the page cache cold (the process tier off)",
      options: "otherwise defaults (page cache 64 MiB)",
      latency: `loopback, and ${LATENCY} ms added per request by a proxy`,
    },
  });
  await benchSize(base, size);
  const mine = rows.filter((r) => r.size === size);
  run.table(
    "scale",
    ["pages:", "operation", "measured on", "p50 ms:", "requests:", "sent:", "received:", "largest body:"],
    mine.map((r) => [r.size, r.what, r.how, r.ms ? r.ms.toFixed(1) : "", r.requests ?? "", r.sent != null ? kb(r.sent) : "", r.received != null ? kb(r.received) : "", r.maxBody ? kb(r.maxBody) : ""]),
  );
  for (const r of mine) run.fact(`${r.how}: ${r.what}`, { ms: Math.round(r.ms), requests: r.requests });
  run.save();
}
