// Searches on the three shapes of collection users have, side by side in one run:
// - written by `chromafs ingest` (a manifest, chunk ids, counts, access and directories on
//   every chunk);
// - written by another tool (chunks of 1,500 code points with `page_slug` and `chunk_index`
//   only, ids SLUG#INDEX, one tree record without counts), 95 % of pages public;
// - that same collection after `chromafs annotate` (which counts every page's chunks, so
//   pages are read by id).
// Each command runs cold (a new session, the process tier off; a first session per grep
// index column, searching a word in no page, warms the module's code) as a public session,
// on the ingested and annotated shapes through their grep index (the median of three runs,
// and what Chroma alone takes to answer the same requests, replayed from this process) and
// once without it (`grepIndex: false`: Chroma's own text filter), beside just-bash over an
// InMemoryFs (the median of three runs) holding
// the visible pages and GNU grep over a copy on tmpfs laid out in byte order; every output
// through chromafs must equal GNU grep's. Then the grep index itself: its bytes beside the
// text's, what building it cost the ingest, and what a one-page edit re-ingested writes.
// Then a second conversation: the commands once in one session and again in a new session
// of the same process (the process tier on), with the requests each sent.
// Above 10,000 pages only the grep index's runs are made (ingested and annotated): without
// it single-node Chroma scans every record, and a scan the client gave up on goes on in the
// server and delays the next session's connect; the unannotated shape reads its scope whole.
//   node bench/shapes.mjs [--sizes 10000] [--latency 0]
// Writes bench/results/shapes/SIZE.json and prints a Markdown table per size.
import { spawnSync } from "node:child_process";
import { Bash } from "just-bash";
import { ChromaFs, annotate, ingest, safeExec } from "chromafs";
import { DEFAULT_CORPUS, otherToolEntry, readCorpus, syntheticCorpus, visibleTo } from "./corpus/corpus.mjs";
import { corpusPresent } from "../support/files.mjs";
import { writeOtherTool } from "../support/other-tool.mjs";
import { medianMs, startOwnChroma } from "../support/own-chroma.mjs";
import { startProxy } from "../support/proxy.mjs";
import { referenceFs } from "../support/reference.mjs";
import { arg, commandLine, startResult } from "../support/results.mjs";
import { layCopy } from "../support/gnu-reference.mjs";

if (!corpusPresent()) process.exit(1);
const SIZES = arg("--sizes", "10000").split(",").map(Number);
const LATENCY = Number(arg("--latency", "0"));
const CHUNK = 1500;

// [what, command, GNU grep's arguments in the copy's root]
const COMMANDS = [
  ["a word in most pages", "grep -rn Mintlify /", ["-rn", "Mintlify", "."]],
  ["case-insensitive", "grep -rni oauth /", ["-rni", "oauth", "."]],
  ["a regex with literals", "grep -rnE 'api[_-]key' /", ["-rnE", "api[_-]key", "."]],
  ["two patterns", "grep -rn -e SAML -e OIDC /", ["-rn", "-e", "SAML", "-e", "OIDC", "."]],
  ["a rare word", "grep -rn HubSpot /", ["-rn", "HubSpot", "."]],
];

/** GNU grep's output in the copy's root, as chromafs names files under the operand `/`. */
function gnuGrep(root, args) {
  const r = spawnSync("grep", args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: "C.UTF-8" } });
  return { stdout: r.stdout.replace(/^\.\//gm, "/"), exitCode: r.status };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/**
 * A `fetch` that notes when each request starts and when an answer of grep-index records
 * has been read: the time from the last such answer to the next request is the index
 * lookup's own computing (its records decoded, the formula evaluated, the candidates
 * planned), with no round trip in it. It keeps the requests sent after `mark()` (the
 * command's, connect's left out) for `chromaAlone`.
 */
function lookupClock() {
  const events = [];
  const sent = [];
  let marked = false;
  const fetchLike = async (url, init) => {
    const index = typeof init?.body === "string" && init.body.includes('"__grams__:');
    events.push({ start: performance.now(), index });
    if (marked) sent.push({ url: String(url), method: init?.method ?? "GET", headers: init?.headers, body: init?.body, index });
    const res = await fetch(url, init);
    if (!index) return res;
    const body = await res.arrayBuffer();
    events.push({ indexRead: performance.now() });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  const lookupMs = () => {
    const last = events.findLastIndex((e) => e.indexRead !== undefined);
    if (last < 0) return null;
    const next = events.slice(last + 1).find((e) => e.start !== undefined && !e.index);
    return next ? next.start - events[last].indexRead : null;
  };
  return { fetchLike, lookupMs, mark: () => (marked = true), sent };
}

/**
 * What Chroma alone takes to answer a command's requests, sent straight from this
 * process with nothing done with the answers but reading them: the grep index's round,
 * then the rest ten at a time (as many as chromafs has in flight). The median of three.
 */
async function chromaAlone(sent) {
  const send = (r) => fetch(r.url, { method: r.method, headers: r.headers, body: r.body }).then((res) => res.arrayBuffer());
  const once = async () => {
    const t = performance.now();
    await Promise.all(sent.filter((r) => r.index).map(send));
    const rest = sent.filter((r) => !r.index);
    let next = 0;
    await Promise.all(Array.from({ length: 10 }, async () => {
      while (next < rest.length) await send(rest[next++]);
    }));
    return performance.now() - t;
  };
  const times = [];
  for (let i = 0; i < 3; i++) times.push(await once());
  return median(times);
}

/** One command in a session of its own: wall time (connect included), requests, output. */
async function cold(url, collection, command, grepIndex = true) {
  const before = process.memoryUsage().rss;
  const clock = lookupClock();
  const { ms, value } = await timed(async () => {
    const fs = await ChromaFs.connect({ url, collection, grepIndex, fetch: clock.fetchLike });
    clock.mark();
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    const r = await safeExec(bash, command);
    const stats = fs.stats();
    fs.free();
    return { r, requests: stats.requests, last: stats.commands.at(-1) };
  });
  const { last } = value;
  return {
    ms, requests: value.requests, out: value.r.stdout, err: value.r.stderr, exitCode: value.r.exitCode, rssMiB: (process.memoryUsage().rss - before) / 2 ** 20,
    index: Boolean(last?.index), lookupRequests: last?.index ? last.coarseRequests : null,
    lookupMs: last?.index ? clock.lookupMs() : null, sent: clock.sent,
  };
}

/** `cold` three times: the run of median time (its requests and lookup with it). */
async function coldMedian(url, collection, command) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await cold(url, collection, command));
  return [...runs].sort((a, b) => a.ms - b.ms)[1];
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

/** Whether a size runs every shape, or only the grep index's runs (see the top). */
const everyShape = (size) => size <= 10000;

async function writeShapes(url, size, files, access) {
  const entry = otherToolEntry(access);
  const t = {};
  const ingested = await timed(() => ingest({ url, collection: `shape-ingested-${size}`, files, access }));
  t.ingested = ingested.ms;
  if (everyShape(size)) {
    t.other = (await timed(() => writeOtherTool(url, `shape-other-${size}`, files, { chunkLength: () => CHUNK, entry }))).ms;
  }
  await writeOtherTool(url, `shape-annotated-${size}`, files, { chunkLength: () => CHUNK, entry });
  const { ms, value } = await timed(() => annotate({ url, collection: `shape-annotated-${size}`, grepIndex: true }));
  t.annotate = ms;
  // One page edited, ingested again: what the index writes for it.
  const edited = files.map((f, i) => (i === Math.floor(files.length / 2) ? { ...f, content: `${f.content}\nOne line edited for the benchmark.\n` } : f));
  const again = await timed(() => ingest({ url, collection: `shape-ingested-${size}`, files: edited, access }));
  return { times: t, annotated: value, ingested: ingested.value, edit: { ...again.value, ms: again.ms } };
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
  try {
    const { times, annotated, ingested, edit } = await writeShapes(server.url, size, files, access);
    run.fact("written", { ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)])), annotatedChunks: annotated.chunks });
    const visible = files.filter((f) => visibleTo(access, [])(f.path));
    const textBytes = files.reduce((n, f) => n + Buffer.byteLength(f.content), 0);
    const index = {
      textBytes, records: ingested.grepIndex.records, bytes: ingested.grepIndex.bytes, buildMs: ingested.grepIndex.ms,
      ingestMs: Math.round(times.ingested), annotatedRecords: annotated.grepIndex.records, annotatedBytes: annotated.grepIndex.bytes,
      annotateIndexMs: annotated.grepIndex.ms, editWritten: edit.grepIndex.written, editRecords: edit.grepIndex.records,
    };
    run.fact("grep index", index);
    run.table("index", ["", "ingested:", "annotated:"], [
      ["records", index.records.toLocaleString("en-US"), index.annotatedRecords.toLocaleString("en-US")],
      ["bytes (base64) / the pages' text", `${(index.bytes / 2 ** 20).toFixed(1)} MiB, ${Math.round((100 * index.bytes) / textBytes)} %`, `${(index.annotatedBytes / 2 ** 20).toFixed(1)} MiB, ${Math.round((100 * index.annotatedBytes) / textBytes)} %`],
      ["building and writing it", `${index.buildMs.toLocaleString("en-US")} ms of a ${index.ingestMs.toLocaleString("en-US")} ms ingest (${Math.round((100 * index.buildMs) / Math.max(1, index.ingestMs - index.buildMs))} % added)`, `${index.annotateIndexMs.toLocaleString("en-US")} ms of the annotation`],
      ["one page edited, ingested again", `${index.editWritten} of ${index.editRecords.toLocaleString("en-US")} records written (${((100 * index.editWritten) / index.editRecords).toFixed(2)} %)`, "annotate indexes anew"],
    ]);
    const copy = layCopy(visible);
    const mem = new Bash({ fs: await referenceFs(visible), cwd: "/" });
    ChromaFs.setProcessCacheBytes(0);
    const rows = [];
    const aloneRows = [];
    const runs = [["ingested", true], ["ingested", false], ["other", false], ["annotated", true], ["annotated", false]]
      .filter(([shape, grepIndex]) => everyShape(size) || (grepIndex && shape !== "other"));
    try {
      // First a session per grep index column searching a word in no page: the process's
      // first commands pay for the module's code warming up, which is no command's cost.
      for (const [shape] of runs.filter(([, grepIndex]) => grepIndex)) await cold(url, `shape-${shape}-${size}`, "grep -rn chromafsWarmUp /");
      for (const [what, command, gnu] of COMMANDS) {
        const gnuMs = median([0, 1, 2].map(() => timedSync(() => spawnSync("grep", gnu, { cwd: copy.root, stdio: "ignore" }))));
        const expected = gnuGrep(copy.root, gnu);
        // just-bash over the InMemoryFs, as chromafs through the grep index: the median of three.
        const reference = { ms: await medianMs(3, () => safeExec(mem, command)) };
        const cells = [];
        const alone = [];
        for (const [shape, grepIndex] of runs) {
          // Through the grep index, the median of three cold runs; Chroma's own filter, one
          // (each takes seconds).
          const r = grepIndex ? await coldMedian(url, `shape-${shape}-${size}`, command) : await cold(url, `shape-${shape}-${size}`, command, false);
          const name = grepIndex || shape === "other" ? `${shape} ${command}` : `${shape} no index ${command}`;
          // Chroma's own filter may take longer than a request may wait: the command then fails
          // (an error, never a partial answer), and the cell says so.
          if (!grepIndex && r.exitCode === 2 && /did not answer a search within \d+ ms/.test(r.err)) {
            cells.push(`failed after ${Math.round(r.ms).toLocaleString("en-US")} ms: Chroma did not answer its filter in time`);
            run.fact(name, { ms: Math.round(r.ms), requests: r.requests, timedOut: true });
            continue;
          }
          if (r.out !== expected.stdout || r.exitCode !== expected.exitCode) {
            const lines = (t) => new Set(t.split("\n"));
            const [ours, gnus] = [lines(r.out), lines(expected.stdout)];
            const missing = [...gnus].filter((l) => !ours.has(l)).slice(0, 3);
            const extra = [...ours].filter((l) => !gnus.has(l)).slice(0, 3);
            throw new Error(`${shape}${grepIndex ? "" : " without its index"}: ${command}: the output differs from GNU grep's (exit ${r.exitCode}, GNU ${expected.exitCode}; stderr ${JSON.stringify(r.err.slice(0, 300))}; missing ${JSON.stringify(missing)}; extra ${JSON.stringify(extra)})`);
          }
          if (grepIndex && shape !== "other" && !r.index && what !== "a word in most pages") throw new Error(`${shape}: ${command}: the grep index was not used`);
          const lookup = r.index ? `, lookup ${r.lookupRequests} req${r.lookupMs === null ? "" : ` + ${Math.round(r.lookupMs)} ms`}` : "";
          cells.push(`${Math.round(r.ms).toLocaleString("en-US")} ms, ${r.requests} req${lookup} (${(r.ms / gnuMs).toFixed(1)}× GNU)`);
          const chromaMs = grepIndex && shape !== "other" ? await chromaAlone(r.sent) : null;
          if (chromaMs !== null) alone.push(`${Math.round(chromaMs).toLocaleString("en-US")} ms (${(chromaMs / gnuMs).toFixed(1)}× GNU); chromafs ${Math.round(r.ms).toLocaleString("en-US")} ms`);
          run.fact(name, { ms: Math.round(r.ms), requests: r.requests, rssMiB: Math.round(r.rssMiB), index: r.index, lookupRequests: r.lookupRequests, lookupMs: r.lookupMs === null ? null : Math.round(r.lookupMs), chromaAloneMs: chromaMs === null ? null : Math.round(chromaMs) });
        }
        const lines = expected.stdout.split("\n").length - 1;
        rows.push([`\`${command}\` (${what}, ${lines} lines)`, ...cells, `${Math.round(reference.ms)} ms`, `${Math.round(gnuMs)} ms`]);
        aloneRows.push([`\`${command}\``, ...alone, `${Math.round(gnuMs)} ms`]);
        run.fact(`reference ${command}`, { inMemoryFs: Math.round(reference.ms), gnu: Math.round(gnuMs), lines });
        process.stderr.write(`${size} ${what} done\n`);
      }
    } finally {
      copy.remove();
    }
    const heads = { "ingested,true": "chromafs ingest, its grep index:", "ingested,false": "chromafs ingest, Chroma's filter:", "other,false": "another tool:", "annotated,true": "annotated, its grep index:", "annotated,false": "annotated, Chroma's filter:" };
    run.table("cold", ["command", ...runs.map((r) => heads[r]), "just-bash, InMemoryFs:", "GNU grep, local copy:"], rows);
    run.table("chroma", ["command", "ingested, Chroma alone:", "annotated, Chroma alone:", "GNU grep, local copy:"], aloneRows);
    const second = [];
    for (const shape of ["ingested", "other", "annotated"].filter((s) => everyShape(size) || s !== "other")) {
      const [first, again] = await conversations(url, `shape-${shape}-${size}`);
      second.push([shape, first, again, `${Math.round((100 * again) / Math.max(first, 1))} %`]);
      run.fact(`conversations ${shape}`, { first, second: again });
    }
    run.table("conversations", ["collection", "first session, requests:", "second session, requests:", "second / first:"], second);
    run.save();
  } finally {
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
