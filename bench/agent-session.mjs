// What a conversation costs: the commands an assistant runs while answering questions
// about the docs, run as one session, side by side with the alternatives, in one run:
//   node bench/agent-session.mjs [--sizes 1142,10000] [--latency 40] [--check]
// (add 50000 to --sizes for the largest set; writing it takes several minutes).
// For each size a Chroma of its own is written through the Chroma Cloud quota proxy. Then:
// - chromafs: a first session (nothing in the process: no tree, no page) and a second
//   session in the same process (a new conversation), each running the whole script
//   through safeExec as an agent's tool does, at loopback speed and with latency added per
//   request;
// - just-bash over an InMemoryFs: the files written into it, then the script;
// - a sandbox: the files copied to a directory on disk, then the script in GNU bash, one
//   process per command as an agent's tool runs them.
// Each chromafs run is on two collections holding the same pages: one written by `ingest`,
// and one another tool wrote (chunks of 1,500 code points carrying only `page_slug` and
// `chunk_index`, ids SLUG#INDEX, one tree record) and `annotate` then marked
// (`--shapes ingested,annotated` picks).
// Totals are wall time and requests (counted by the proxy). With --check, each command's
// output through chromafs is compared with just-bash's over the InMemoryFs and differences
// are counted (0 expected). Default options throughout (the process tier at its 64 MiB).
// Writes bench/results/agent-session/SIZE.json and prints a Markdown table per size.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChromaFs, annotate, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { DEFAULT_CORPUS, otherToolEntry, readCorpus, syntheticCorpus, visibleTo, writeCorpus } from "./corpus/corpus.mjs";
import { corpusPresent } from "../support/files.mjs";
import { writeOtherTool } from "../support/other-tool.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { referenceFs } from "../support/reference.mjs";
import { startCloudProxy } from "../support/proxy.mjs";
import { arg, commandLine, kib, startResult } from "../support/results.mjs";

if (!corpusPresent()) process.exit(1);
const SIZES = arg("--sizes", "1142,10000").split(",").map(Number);
const LATENCY = Number(arg("--latency", "40"));
const CHECK = process.argv.includes("--check");
const SHAPES = arg("--shapes", "ingested,annotated").split(",");
const SHAPE_NAMES = { ingested: "ingested", annotated: "other tool, annotated" };
for (const shape of SHAPES) if (!SHAPE_NAMES[shape]) throw new Error(`--shapes: ${shape}? (ingested, annotated)`);

/**
 * About forty commands of an assistant answering three questions (how do I deploy, how
 * do I authenticate API calls, what analytics are there), with paths relative to the docs'
 * root (`p`: the directory holding one copy of the docs) so that GNU bash runs the same
 * lines in a copy on disk.
 */
function script(p) {
  const d = p || ".";
  return [
    `ls ${d}`,
    `ls ${p}deploy`,
    `find ${d} -maxdepth 1 -type d | sort | head -30`,
    `find ${d} -name '*.mdx' | head -20`,
    `find ${p}api -name '*.mdx' | wc -l`,
    `grep -rn 'deploy' ${d} | head -20`,
    `grep -rli 'vercel' ${d} | head`,
    `cat ${p}quickstart.mdx | head -60`,
    `sed -n '1,40p' ${p}deploy/ci.mdx`,
    `wc -l ${p}deploy/*.mdx`,
    `grep -n '^#' ${p}deploy/ci.mdx`,
    `rg -n 'mint dev' ${d} | head -20`,
    `grep -rl 'preview deployment' ${d} | head -5`,
    `for f in $(grep -rl 'custom domain' ${d} | head -3); do echo "== $f"; head -15 "$f"; done`,
    `grep -rniE 'api[_ -]?key' ${d} | head -20`,
    `grep -rli oauth ${d} | head`,
    `rg -i 'authorization: bearer' ${d} | head -10`,
    `grep -rl 'Authorization' ${d} | xargs grep -n 'Bearer' | head -20`,
    `ls ${p}api`,
    `cat ${p}api/introduction.mdx`,
    `grep -rc 'api' ${p}api | grep -v ':0$' | head`,
    `rg -l 'openapi' ${d} | head`,
    `grep -rn 'HubSpot' ${d}`,
    `tree -L 1 ${p}api`,
    `grep -rli 'analytics' ${d} | wc -l`,
    `ls ${p}analytics`,
    `grep -rn 'Google Analytics' ${d} | head -10`,
    `rg -il 'posthog|segment|mixpanel' ${d} | head`,
    `grep -rlE 'gtag|measurementId' ${d} | head -5`,
    `head -40 ${p}integrations/analytics/google-analytics.mdx`,
    `grep -n 'tracking' ${p}integrations/analytics/google-analytics.mdx | head`,
    `find ${p}integrations -name '*.mdx' | head -30`,
    `grep -rn 'webhook' ${d} | head -10`,
    `grep -rL 'title:' ${p}deploy | head`,
    `du -sh ${p}deploy`,
    `grep -rn 'Mintlify' ${d} | head -20`,
    `rg -c 'Mintlify' ${p}deploy | head`,
    `grep -rn 'rate limit' ${d} | head -5`,
    `cat ${p}deploy/ci.mdx | wc -l`,
    `grep -rli 'sso' ${d} | head -5`,
  ];
}

/** Writes collection `shape` through `proxy`: by ingest, or by another tool then annotated. */
async function write(shape, server, proxy, files, access) {
  if (shape === "ingested") return ingest({ url: proxy.url, collection: shape, files, access });
  // Straight to Chroma: the other tool's one tree record is larger than Cloud allows.
  await writeOtherTool(server.url, shape, files, { chunkLength: () => 1500, entry: otherToolEntry(access) });
  return annotate({ url: proxy.url, collection: shape, grepIndex: true });
}

async function session(url, collection, lines) {
  const fs = await ChromaFs.connect({ url, collection });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const outputs = [];
  for (const line of lines) outputs.push(await safeExec(bash, line));
  return { outputs, stats: fs.stats() };
}

/** A first and a second session through `proxy`, from a process that holds nothing yet. */
async function chromafsRuns(proxy, shape, how, lines, rows, size, run) {
  ChromaFs.forgetTrees();
  // Emptied, then back at its default size.
  ChromaFs.setProcessCacheBytes(0);
  ChromaFs.setProcessCacheBytes(64 << 20);
  const out = {};
  for (const which of ["first session", "second session, same process"]) {
    const before = proxy.stats();
    const t0 = performance.now();
    const s = await session(proxy.url, shape, lines);
    const ms = performance.now() - t0;
    const after = proxy.stats();
    const requests = after.requests - before.requests;
    rows.push([size, `chromafs (${SHAPE_NAMES[shape]}), ${how}`, which, ms.toFixed(0), requests, kib(after.bytesReceived - before.bytesReceived), `${s.stats.processHits} pages from the process`]);
    run.fact(`${shape} ${how === "loopback" ? "loopback" : "latency"} ${which.split(",")[0]}`, { ms: Math.round(ms), requests, processHits: s.stats.processHits });
    out[which] = s.outputs;
  }
  return out["first session"];
}

async function measure(base, size) {
  const rows = [];
  const run = startResult(`agent-session-${size}`, {
    command: commandLine().replace(/--sizes \S+/, "").replace(/$/, ` --sizes ${size}`).replace(/  +/g, " "),
    settings: { commands: String(script("").length), collections: SHAPES.map((s) => SHAPE_NAMES[s]).join("; "), options: "defaults (page cache 64 MiB a session, process tier 64 MiB)", latency: `loopback, and ${LATENCY} ms added per request by a proxy` },
  });
  const { files, access } = size === base.length ? { files: base, access: {} } : syntheticCorpus(base, { pages: size });
  const prefix = size === base.length ? "" : "v001/";
  const lines = script(prefix);
  const ours = {};
  let violations = 0;
  // A Chroma of its own for each collection: a local Chroma's text filters scan every
  // document of its database, so two collections in one would slow each other.
  for (const shape of SHAPES) {
    const server = await startOwnChroma(`agent-${size}-${shape}`);
    const near = await startCloudProxy(server.url);
    const far = await startCloudProxy(server.url, { latencyMs: LATENCY });
    try {
      await write(shape, server, near, files, access);
      ours[shape] = await chromafsRuns(near, shape, "loopback", lines, rows, size, run);
      await chromafsRuns(far, shape, `+${LATENCY} ms per request`, lines, rows, size, run);
      violations += near.violations.length + far.violations.length;
    } finally {
      await near.close();
      await far.close();
      server.stop();
    }
  }
  const visible = files.filter((f) => visibleTo(access, [])(f.path));
  let t0 = performance.now();
  const mem = new Bash({ fs: await referenceFs(visible), cwd: "/" });
  const loaded = performance.now() - t0;
  const theirs = [];
  for (const line of lines) theirs.push(await safeExec(mem, line));
  const memMs = performance.now() - t0;
  rows.push([size, "just-bash, InMemoryFs", "files written in, then the script", memMs.toFixed(0), "", "", `${loaded.toFixed(0)} ms writing the files`]);
  run.fact("InMemoryFs", { ms: Math.round(memMs), loading: Math.round(loaded) });

  const copy = mkdtempSync(path.join(os.tmpdir(), `chromafs-agent-copy-${size}-`));
  try {
    t0 = performance.now();
    await writeCorpus(visible, copy);
    const copied = performance.now() - t0;
    for (const line of lines) spawnSync("bash", ["-c", line], { cwd: copy, stdio: "ignore" });
    const sandboxMs = performance.now() - t0;
    rows.push([size, "sandbox: GNU bash, copy on disk", "files copied, then the script", sandboxMs.toFixed(0), "", "", `${copied.toFixed(0)} ms copying the files`]);
    run.fact("sandbox", { ms: Math.round(sandboxMs), copying: Math.round(copied) });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  if (CHECK) {
    for (const shape of SHAPES) {
      const got = ours[shape];
      const differ = lines.filter((line, i) => JSON.stringify([got[i].stdout, got[i].stderr, got[i].exitCode]) !== JSON.stringify([theirs[i].stdout, theirs[i].stderr, theirs[i].exitCode]));
      rows.push([size, `check (${SHAPE_NAMES[shape]})`, `${differ.length} of ${lines.length} commands differ from just-bash`, "", "", "", differ.join("; ")]);
      run.fact(`${shape} differ`, differ.length);
    }
  }
  rows.push([size, "proxy", `Chroma Cloud quota violations: ${violations}`, "", "", "", ""]);
  run.fact("quotaViolations", violations);
  run.table("session", ["pages:", "how", "run", "total ms:", "requests:", "received:", "note"], rows);
  run.save();
}

const base = await readCorpus(DEFAULT_CORPUS);
for (const size of SIZES) await measure(base, size);
