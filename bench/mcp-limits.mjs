// What one hostile tool call costs an MCP server, with its default limits and without them:
// the server's peak memory (its process's high-water mark of resident memory), the call's
// wall time, and the Chroma requests it sent. Each case runs in a server process of its own,
// called by the MCP SDK's client over streamable HTTP.
//   node bench/mcp-limits.mjs
// Writes bench/results/mcp-limits/all.json and prints a Markdown table. Linux only (/proc).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ROOT } from "../support/files.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { startProxy } from "../support/proxy.mjs";
import { startResult } from "../support/results.mjs";

// The child: one MCP server with the limits given as JSON, its URL on stdout.
if (process.argv[2] === "--child") {
  const { serveHttp } = await import("chromafs/mcp");
  const [url, limits] = [process.argv[3], JSON.parse(process.argv[4])];
  const server = await serveHttp({ url, collection: "mcp-limits" }, { limits });
  console.log(server.url);
  await new Promise(() => {});
}

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
];

const peakKiB = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);

async function server(url, limits) {
  const child = spawn(process.execPath, [path.join(ROOT, "bench/mcp-limits.mjs"), "--child", url, JSON.stringify(limits)], { stdio: ["ignore", "pipe", "inherit"] });
  const endpoint = await new Promise((resolve) => child.stdout.once("data", (b) => resolve(String(b).trim())));
  return { child, endpoint };
}

async function measure(url, front, limits, [, tool, args, leaveAfterMs]) {
  const { child, endpoint } = await server(url, limits);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  const before = peakKiB(child.pid);
  const sent = front.requests.length;
  const leaving = new AbortController();
  if (leaveAfterMs) setTimeout(() => leaving.abort(), leaveAfterMs);
  const t0 = performance.now();
  let outcome;
  try {
    const r = await client.callTool({ name: tool, arguments: args }, undefined, { signal: leaving.signal, timeout: 3_600_000 });
    const lines = r.content.map((c) => c.text).join("").split("\n").filter(Boolean);
    outcome = `${lines[0].slice(0, 70)}${lines.length > 1 ? ` … ${lines.at(-1)}` : ""}`;
  } catch (e) {
    outcome = `the client gave up (${e.message.includes("abort") ? "aborted" : e.message.slice(0, 40)})`;
  }
  // A call whose client left is over when the server stops sending requests and settles:
  // measure how long it goes on by waiting for a later call to be answered.
  if (leaveAfterMs) {
    const t1 = performance.now();
    await client.callTool({ name: "bash", arguments: { command: "echo after" } });
    outcome += `; next call answered ${Math.round(performance.now() - t1)} ms later`;
  }
  const ms = performance.now() - t0;
  const peak = peakKiB(child.pid);
  await client.close();
  child.kill();
  return { ms, growthMiB: (peak - before) / 1024, requests: front.requests.length - sent, outcome };
}

const run = startResult("mcp-limits", {
  settings: {
    server: "chromafs mcp over streamable HTTP, one process per case, the MCP SDK's client",
    memory: "growth of the server process's peak resident memory (VmHWM) during the call",
    "without limits": "just-bash's normal profile, no call timeout, no request budget, no length limits",
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
  const rows = [];
  for (const c of CASES) {
    const bounded = await measure(front.url, front, {}, c);
    const loose = await measure(front.url, front, UNBOUNDED, c);
    const f = (m) => [`${Math.round(m.growthMiB)} MiB`, `${Math.round(m.ms).toLocaleString("en-US")} ms`, m.requests, m.outcome];
    rows.push([c[0], ...f(bounded), ...f(loose)]);
    run.fact(`${CASES.indexOf(c)}-bounded-MiB`, Math.round(bounded.growthMiB));
  }
  run.table("calls", ["call", "memory:", "time:", "requests:", "result", "memory without limits:", "time:", "requests:", "result"], rows);
  run.save();
  await front.close();
} finally {
  chroma.stop();
}
