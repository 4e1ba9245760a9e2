// Searches on the three shapes of collection users have, side by side in one run:
// - written by `chromafs ingest` (a manifest, chunk ids, counts, access and directories on
//   every chunk);
// - written by another tool (chunks of 1,500 code points with `page_slug` and `chunk_index`
//   only, ids SLUG#INDEX, one tree record without counts), 95 % of pages public;
// - that same collection after `chromafs annotate` (which counts every page's chunks, so
//   pages are read by id).
// Each command runs cold (a new session, the process tier off) as a public session, beside
// just-bash over an InMemoryFs holding the visible pages and GNU grep over a copy on disk;
// every output through chromafs must equal the InMemoryFs one. Then a second conversation:
// the commands once in one session and again in a new session of the same process (the
// process tier on), with the requests each sent.
//   node bench/shapes.mjs [--sizes 10000] [--latency 0]
// Writes bench/results/shapes/SIZE.json and prints a Markdown table per size.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Bash } from "just-bash";
import { ChromaFs, annotate, ingest, safeExec } from "chromafs";
import { DEFAULT_CORPUS, otherToolEntry, readCorpus, syntheticCorpus, visibleTo, writeCorpus } from "./corpus/corpus.mjs";
import { corpusPresent } from "../support/files.mjs";
import { writeOtherTool } from "../support/other-tool.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { startProxy } from "../support/proxy.mjs";
import { referenceFs } from "../support/reference.mjs";
import { arg, commandLine, startResult } from "../support/results.mjs";

if (!corpusPresent()) process.exit(1);
const SIZES = arg("--sizes", "10000").split(",").map(Number);
const LATENCY = Number(arg("--latency", "0"));
const CHUNK = 1500;

// [what, command, GNU grep's arguments in the copy's root]
const COMMANDS = [
  ["a word in most pages", "grep -rn Mintlify /", ["-rn", "Mintlify", "."]],
  ["case-insensitive", "grep -rni oauth /", ["-rni", "oauth", "."]],
  ["a regex with literals", "grep -rnE 'api[_-]key' /", ["-rnE", "api[_-]key", "."]],
  ["a rare word", "grep -rn HubSpot /", ["-rn", "HubSpot", "."]],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** One command in a session of its own: wall time (connect included), requests, output. */
async function cold(url, collection, command) {
  const before = process.memoryUsage().rss;
  const { ms, value } = await timed(async () => {
    const fs = await ChromaFs.connect({ url, collection });
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    const r = await safeExec(bash, command);
    const requests = fs.stats().requests;
    fs.free();
    return { r, requests };
  });
  return { ms, requests: value.requests, out: value.r.stdout, exitCode: value.r.exitCode, rssMiB: (process.memoryUsage().rss - before) / 2 ** 20 };
}

/** The commands in a first session, then in a second of the same process: requests of each. */
async function conversations(url, collection) {
  ChromaFs.setProcessCacheBytes(64 << 20);
  const requests = [];
  for (let i = 0; i < 2; i++) {
    const fs = await ChromaFs.connect({ url, collection });
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    for (const [, command] of COMMANDS) await safeExec(bash, command);
    requests.push(fs.stats().requests);
    fs.free();
  }
  ChromaFs.setProcessCacheBytes(0);
  return requests;
}

async function writeShapes(url, size, files, access) {
  const entry = otherToolEntry(access);
  const t = {};
  t.ingested = (await timed(() => ingest({ url, collection: `shape-ingested-${size}`, files, access }))).ms;
  t.other = (await timed(() => writeOtherTool(url, `shape-other-${size}`, files, { chunkLength: () => CHUNK, entry }))).ms;
  await writeOtherTool(url, `shape-annotated-${size}`, files, { chunkLength: () => CHUNK, entry });
  const { ms, value } = await timed(() => annotate({ url, collection: `shape-annotated-${size}` }));
  t.annotate = ms;
  return { times: t, annotated: value };
}

async function measure(base, size) {
  const { files, access } = size === base.length ? { files: base, access: { "v001/**": { isPublic: true } } } : syntheticCorpus(base, { pages: size });
  const run = startResult(`shapes-${size}`, {
    command: commandLine().replace(/--sizes \S+/, "").replace(/$/, ` --sizes ${size}`).replace(/  +/g, " "),
    settings: {
      pages: `${size}, ${files.filter((f) => visibleTo(access, [])(f.path)).length} visible to the public session`,
      "other tool's chunks": `${CHUNK} code points, cut anywhere, ids SLUG#INDEX`,
      sessions: "public, default options; cold: a new session per command, the process tier off",
      latency: LATENCY ? `${LATENCY} ms added per request` : "loopback",
    },
  });
  const server = await startOwnChroma(`shapes-${size}`);
  const proxy = LATENCY ? await startProxy(server.url, { latencyMs: LATENCY }) : null;
  const url = proxy ? proxy.url : server.url;
  const copy = mkdtempSync(path.join(os.tmpdir(), `chromafs-shapes-${size}-`));
  try {
    const { times, annotated } = await writeShapes(server.url, size, files, access);
    run.fact("written", { ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)])), annotatedChunks: annotated.chunks });
    const visible = files.filter((f) => visibleTo(access, [])(f.path));
    await writeCorpus(visible, copy);
    const mem = new Bash({ fs: await referenceFs(visible), cwd: "/" });
    ChromaFs.setProcessCacheBytes(0);
    const rows = [];
    for (const [what, command, gnu] of COMMANDS) {
      const gnuMs = median([0, 1, 2].map(() => timedSync(() => spawnSync("grep", gnu, { cwd: copy, stdio: "ignore" }))));
      const reference = await timed(() => safeExec(mem, command));
      const cells = [];
      for (const shape of ["ingested", "other", "annotated"]) {
        const r = await cold(url, `shape-${shape}-${size}`, command);
        if (r.out !== reference.value.stdout || r.exitCode !== reference.value.exitCode) throw new Error(`${shape}: ${command}: the output differs from just-bash's over an InMemoryFs`);
        cells.push(`${Math.round(r.ms).toLocaleString("en-US")} ms, ${r.requests} req (${(r.ms / gnuMs).toFixed(1)}× GNU)`);
        run.fact(`${shape} ${command}`, { ms: Math.round(r.ms), requests: r.requests, rssMiB: Math.round(r.rssMiB) });
      }
      const lines = reference.value.stdout.split("\n").length - 1;
      rows.push([`\`${command}\` (${what}, ${lines} lines)`, ...cells, `${Math.round(reference.ms)} ms`, `${Math.round(gnuMs)} ms`]);
      run.fact(`reference ${command}`, { inMemoryFs: Math.round(reference.ms), gnu: Math.round(gnuMs), lines });
      process.stderr.write(`${size} ${what} done\n`);
    }
    run.table("cold", ["command", "chromafs ingest:", "another tool:", "another tool, annotated:", "just-bash, InMemoryFs:", "GNU grep, local copy:"], rows);
    const second = [];
    for (const shape of ["ingested", "other", "annotated"]) {
      const [first, again] = await conversations(url, `shape-${shape}-${size}`);
      second.push([shape, first, again, `${Math.round((100 * again) / Math.max(first, 1))} %`]);
      run.fact(`conversations ${shape}`, { first, second: again });
    }
    run.table("conversations", ["collection", "first session, requests:", "second session, requests:", "second / first:"], second);
    run.save();
  } finally {
    rmSync(copy, { recursive: true, force: true });
    await proxy?.close();
    server.stop();
  }
}

function timedSync(fn) {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const base = await readCorpus(DEFAULT_CORPUS);
for (const size of SIZES) await measure(base, size);
