// What hostile and heavy use costs an MCP server, with its default limits and without them,
// with calls in worker threads (the default) and in the server's own thread (`workers: 0`).
// Every server is a process of its own, called by the MCP SDK's client over streamable HTTP.
//   node bench/mcp-limits.mjs [--callers N] [--only calls|runaway|load (printed, not saved)]
// Three tables:
// - calls: one hostile call each (the server's peak memory, the call's time and requests);
// - runaway: a call that computes or allocates without yielding, beside another client that
//   calls `echo` every 50 ms: how long the runaway took, and how long the other client waited;
// - load: 100 callers with tokens of their own, five `bash` calls each, all at once.
// Writes bench/results/mcp-limits/all.json and prints Markdown tables. Linux only (/proc).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ROOT } from "../support/files.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { startProxy } from "../support/proxy.mjs";
import { arg, markdownTable, startResult } from "../support/results.mjs";

// The child: one MCP server with the options given as JSON, its URL on stdout.
if (process.argv[2] === "--child") {
  const { serveHttp, tokenAuthorizer } = await import("chromafs/mcp");
  const [url, given] = [process.argv[3], JSON.parse(process.argv[4])];
  const { tokens, ...options } = given;
  const server = await serveHttp({ url, collection: "mcp-limits" }, { ...options, ...(tokens ? { authorize: tokenAuthorizer(tokens) } : {}) });
  console.log(server.url);
  await new Promise(() => {});
}

const ONLY = arg("--only", null);
const CALLERS = Number(arg("--callers", "100"));

// Limits as loose as just-bash's normal profile and no budget of chromafs's own: what a
// server without them would spend.
const UNBOUNDED = {
  callTimeoutMs: 3_600_000,
  maxRequests: 1e9,
  maxCommandChars: 1e9,
  maxQueryChars: 1e9,
  executionLimits: { maxStringLength: 64 << 20, maxOutputSize: 256 << 20, maxLoopIterations: 1e5, maxCommandCount: 1e5, maxExecutionTimeMs: 3_600_000, maxLiveBytes: 512 << 20 },
};

const CASES = [
  ["a variable doubled until something stops it", "bash", { command: "x=aaaaaaaa; while true; do x=$x$x; done" }],
  ["a page printed 5,000 times", "bash", { command: "for i in $(seq 1 5000); do cat /big.md; done | wc -c" }],
  ["every page read one by one (800 pages)", "bash", { command: "for f in /many/*.md; do cat $f; done | wc -l" }],
  ["`sleep 45`, its client gone after 1 s", "bash", { command: "sleep 45" }, 1000],
  ["a search of 120,000 words", "search", { query: "rotate key ".repeat(60_000) }],
  // Memory outside the JavaScript heap, which a worker's heap limit does not bound.
  ["sqlite3 keeping 380 blobs of 1 MB", "bash", { command: "sqlite3 :memory: 'create table t(b); with recursive c(i) as (select 1 union all select i+1 from c where i < 380) insert into t select randomblob(1000000) from c; select count(*) from t;'" }],
  ["9 MB through gzip and back, 20 times", "bash", { command: "a=$(printf '%09000000d' 1); for i in $(seq 1 20); do echo \"$a\" | gzip | gunzip | wc -c; done | tail -1" }],
];

const RUNAWAYS = [
  ["a glob matched against an 8 MB string, twice", ["a=$(printf '%08000000d' 1); [[ $a == *y* ]]; [[ $a == *y* ]]; echo done"]],
  ["a 9 MB string made, four calls at once", Array(4).fill("a=$(printf '%09000000d' 1); echo ${#a}")],
  // Yields to its own promises only: in the server's thread it would hold every caller for minutes.
  ["a loop of 9,000 awaited globs over 64 KB", ["a=x; for i in $(seq 1 16); do a=$a$a; done; for i in $(seq 1 9000); do [[ $a == *y* ]]; done; echo finished"], { workersOnly: true }],
];

const LOAD_COMMANDS = ["ls /", "cat /many/p001.md", "grep -rn rotate /many | head -5", "find / -name '*.md' | wc -l", "head -3 /big.md"];

const peakKiB = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x) => `${Math.round(x).toLocaleString("en-US")} ms`;

async function server(url, options) {
  const child = spawn(process.execPath, [path.join(ROOT, "bench/mcp-limits.mjs"), "--child", url, JSON.stringify(options)], { stdio: ["ignore", "pipe", "inherit"] });
  const endpoint = await new Promise((resolve) => child.stdout.once("data", (b) => resolve(String(b).trim())));
  return { child, endpoint };
}

async function client(endpoint, token) {
  const c = new Client({ name: "bench", version: "1" });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await c.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit }));
  return c;
}

const call = (c, tool, args, signal) => c.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: 3_600_000 });

async function measure(url, front, limits, [, tool, args, leaveAfterMs]) {
  const { child, endpoint } = await server(url, { limits });
  const c = await client(endpoint);
  const before = peakKiB(child.pid);
  const sent = front.requests.length;
  const leaving = new AbortController();
  if (leaveAfterMs) setTimeout(() => leaving.abort(), leaveAfterMs);
  const t0 = performance.now();
  let outcome;
  try {
    const r = await call(c, tool, args, leaving.signal);
    const lines = r.content.map((x) => x.text).join("").split("\n").filter(Boolean);
    outcome = `${lines[0].slice(0, 70)}${lines.length > 1 ? ` … ${lines.at(-1)}` : ""}`;
  } catch (e) {
    outcome = `the client gave up (${e.message.includes("abort") ? "aborted" : e.message.slice(0, 40)})`;
  }
  // A call whose client left is over when the server stops sending requests and settles:
  // measure how long it goes on by waiting for a later call to be answered.
  if (leaveAfterMs) {
    const t1 = performance.now();
    await call(c, "bash", { command: "echo after" });
    outcome += `; next call answered ${Math.round(performance.now() - t1)} ms later`;
  }
  const took = performance.now() - t0;
  const peak = peakKiB(child.pid);
  await c.close();
  child.kill();
  return { ms: took, growthMiB: (peak - before) / 1024, peakMiB: peak / 1024, requests: front.requests.length - sent, outcome };
}

async function hostileCalls(run, url, front) {
  const rows = [];
  for (const c of CASES) {
    const bounded = await measure(url, front, {}, c);
    const loose = await measure(url, front, UNBOUNDED, c);
    const f = (m) => [`${Math.round(m.growthMiB)} MiB`, ms(m.ms), m.requests, m.outcome];
    rows.push([c[0], ...f(bounded), ...f(loose)]);
    run.fact(`${CASES.indexOf(c)}-bounded-MiB`, Math.round(bounded.growthMiB));
    // The server's whole resident memory at its peak (two workers, 512 MiB heaps each).
    run.fact(`${CASES.indexOf(c)}-bounded-peakMiB`, Math.round(bounded.peakMiB));
  }
  run.table("calls", ["call", "memory:", "time:", "requests:", "result", "memory without limits:", "time:", "requests:", "result"], rows);
}

/** A runaway (one or several calls at once) beside a client calling `echo` every 50 ms. */
async function runaway(url, options, commands) {
  const { child, endpoint } = await server(url, options);
  const clients = await Promise.all([...commands.map(() => client(endpoint)), client(endpoint)]);
  const other = clients.at(-1);
  await call(other, "bash", { command: "echo warm" });
  const t0 = performance.now();
  const runs = commands.map((command, i) =>
    call(clients[i], "bash", { command })
      .then((r) => r.content.map((x) => x.text).join(""))
      .catch((e) => `failed: ${e.message}`)
      .then((text) => ({ text, ms: performance.now() - t0 })),
  );
  let done = false;
  Promise.all(runs).then(() => (done = true));
  const waits = [];
  while (!done) {
    const t = performance.now();
    await call(other, "bash", { command: "echo other" }).catch(() => null);
    waits.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  const results = await Promise.all(runs);
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  child.kill();
  const last = results.reduce((a, b) => (b.ms > a.ms ? b : a));
  const said = last.text.split("\n").filter(Boolean).at(-2) ?? last.text.trim();
  return { ms: last.ms, said: said.slice(0, 60), p50: quantile(waits, 0.5), max: Math.max(...waits), n: waits.length };
}

async function runaways(run, url) {
  const rows = [];
  for (const [what, commands, { workersOnly = false } = {}] of RUNAWAYS) {
    for (const [where, workers] of [["worker threads", undefined], ["the server's thread", 0]]) {
      if (workersOnly && workers === 0) continue;
      const r = await runaway(url, { limits: { callTimeoutMs: 3000 }, workers }, commands);
      rows.push([what, where, ms(r.ms), r.said, ms(r.p50), ms(r.max), r.n]);
      const key = `runaway-${RUNAWAYS.findIndex((x) => x[0] === what)}-${workers === 0 ? "thread" : "workers"}`;
      run.fact(`${key}-maxWaitMs`, Math.round(r.max));
      // A runaway's worker is stopped as its call is answered (pool.mjs): the time it took is when its worker was free.
      run.fact(`${key}-tookMs`, Math.round(r.ms));
    }
  }
  run.table("runaway", ["runaway call (deadline 3 s)", "calls run in", "runaway took:", "its last line", "other client's call, p50:", "max:", "calls:"], rows);
}

/** `CALLERS` clients with tokens of their own, five calls each, all at once. */
async function load(url, workers) {
  const tokens = Object.fromEntries(Array.from({ length: CALLERS }, (_, i) => [`caller-${String(i).padStart(4, "0")}-0123456789abcdef`, []]));
  const { child, endpoint } = await server(url, { tokens, workers });
  const clients = await Promise.all(Object.keys(tokens).map((t) => client(endpoint, t)));
  await Promise.all(clients.slice(0, 4).map((c) => call(c, "bash", { command: "echo warm" })));
  const latencies = [];
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c, i) => {
      for (let k = 0; k < LOAD_COMMANDS.length; k++) {
        const t = performance.now();
        const r = await call(c, "bash", { command: LOAD_COMMANDS[(i + k) % LOAD_COMMANDS.length] }).catch(() => null);
        latencies.push(performance.now() - t);
        if (!r || r.isError) errors += 1;
      }
    }),
  );
  const wall = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  child.kill();
  return { perSecond: latencies.length / (wall / 1000), p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), errors, calls: latencies.length };
}

async function loads(run, url) {
  const rows = [];
  for (const [where, workers] of [["worker threads", undefined], ["the server's thread", 0]]) {
    const r = await load(url, workers);
    rows.push([where, r.calls, r.perSecond.toFixed(0), ms(r.p50), ms(r.p99), r.errors]);
    const key = workers === 0 ? "thread" : "workers";
    run.fact(`load-${key}-perSecond`, Math.round(r.perSecond));
    run.fact(`load-${key}-p99Ms`, Math.round(r.p99));
  }
  run.table("load", [`${CALLERS} callers, 5 calls each, at once`, "calls:", "calls/s:", "p50:", "p99:", "errors:"], rows);
}

const run = startResult("mcp-limits", {
  settings: {
    server: "chromafs mcp over streamable HTTP, a process of its own per row, the MCP SDK's client",
    memory: "growth of the server process's peak resident memory (VmHWM) during the call",
    "without limits": "just-bash's normal profile, no call timeout, no request budget, no length limits",
    runaway: "server with a 3 s call deadline; another client calls `echo` every 50 ms until the runaway is answered",
    load: `${CALLERS} callers with bearer tokens of their own, each running ${LOAD_COMMANDS.map((c) => `\`${c}\``).join(", ")} in turn`,
  },
});
const chroma = await startOwnChroma("mcp-limits");
try {
  const { ingest } = await import("chromafs");
  const files = [
    { path: "big.md", content: "a line of the big page, repeated many times over\n".repeat(2000) },
    ...Array.from({ length: 800 }, (_, i) => ({ path: `many/p${String(i).padStart(3, "0")}.md`, content: `page ${i}: rotate the key\n` })),
  ];
  await ingest({ url: chroma.url, collection: "mcp-limits", files });
  const front = await startProxy(chroma.url);
  if (!ONLY || ONLY === "calls") await hostileCalls(run, front.url, front);
  if (!ONLY || ONLY === "runaway") await runaways(run, front.url);
  if (!ONLY || ONLY === "load") await loads(run, front.url);
  // A part alone is printed, not saved: the report reads every table from one run.
  if (!ONLY) run.save();
  else for (const table of Object.values(run.result.tables)) console.log(`${markdownTable(table)}\n`);
  await front.close();
} finally {
  chroma.stop();
}
