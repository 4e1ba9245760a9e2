// What one core of an MCP server answers: the server pinned to core 0 (`taskset -c 0`), the
// load generator and Chroma on core 1, a collection of 77 generated pages, the MCP SDK's
// clients. Beside the server's figures, the library's: the same commands on a warm session
// in a process pinned to core 0 as well, which is what a call cannot cost less than.
//   node bench/mcp-core.mjs [--rounds 40] [--callers 100] [--as NAME]
// Tables: the library's median per command; one caller's calls over streamable HTTP and over
// stdio (median and p99 per command); and `--callers` callers with tokens of their own, all
// at once: calls a second, p50, p99, for the mix and for light commands alone. Writes
// bench/results/mcp-core/all.json (or NAME's) and prints Markdown tables. Linux only (taskset).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "../support/files.mjs";
import { startOwnChroma } from "../support/own-chroma.mjs";
import { arg, markdownTable, startResult } from "../support/results.mjs";

const SELF = path.join(ROOT, "bench/mcp-core.mjs");
const COLLECTION = "mcp-core";

// The commands: a listing, greps, a page's start, a count.
const MIX = [
  "ls -R /",
  "grep -rn 'rotate the key' / | head -20",
  "grep -rli token /api | wc -l",
  "cat /guides/page-07.mdx | head -20",
  "find / -name '*.mdx' | wc -l",
];
// Light commands: what an agent does most between greps.
const LIGHT = ["cat /guides/page-03.mdx | head -5", "ls /"];

const SECTIONS = ["guides", "api", "reference", "concepts", "integrations", "changelog", "deploy"];
const WORDS = "the key token access request page docs server client rotate settings value returns section".split(" ");

/** 77 pages of about 40 lines, 11 in each of 7 sections. */
function pages() {
  return Array.from({ length: 77 }, (_, i) => {
    const section = SECTIONS[i % SECTIONS.length];
    const n = Math.floor(i / SECTIONS.length);
    const lines = [`---`, `title: ${section} page ${n}`, `---`, `# ${section} ${n}`];
    for (let l = 0; l < 36; l++) {
      const words = Array.from({ length: 10 }, (_, w) => WORDS[(i * 7 + l * 3 + w * 5) % WORDS.length]);
      lines.push(l % 9 === 4 ? `To rotate the key, open the settings of page ${n}.` : words.join(" "));
    }
    return { path: `${section}/page-${String(n).padStart(2, "0")}.mdx`, content: `${lines.join("\n")}\n` };
  });
}

/** The CPU time process `pid` has used, every thread, in ms (user + system, /proc). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const fixed = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

// The children: a server (HTTP or stdio) or the library's timing, each pinned by its parent.
if (process.argv[2] === "--http") {
  const { serveHttp, tokenAuthorizer } = await import("chromafs/mcp");
  const tokens = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`caller-${String(i).padStart(4, "0")}-0123456789abcdef`, []]));
  const server = await serveHttp({ url: process.argv[3], collection: COLLECTION }, { authorize: tokenAuthorizer(tokens) });
  console.log(server.url);
  // Ended by the benchmark: exit, so that a profile asked for is written.
  process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
  await new Promise(() => {});
} else if (process.argv[2] === "--stdio") {
  const { serveStdio } = await import("chromafs/mcp");
  await serveStdio({ url: process.argv[3], collection: COLLECTION }, { onClose: () => process.exit(0) });
  await new Promise(() => {});
} else if (process.argv[2] === "--library") {
  const { ChromaFs, safeExec } = await import("chromafs");
  const { Bash } = await import("just-bash");
  const fs = await ChromaFs.connect({ url: process.argv[3], collection: COLLECTION, cacheBytes: 8 << 20, scratch: "/tmp" });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const out = {};
  for (const command of MIX) {
    for (let i = 0; i < 5; i++) await safeExec(bash, command);
    const times = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      await safeExec(bash, command);
      times.push(performance.now() - t);
    }
    out[command] = quantile(times, 0.5);
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

const ROUNDS = Number(arg("--rounds", "40"));
const CALLERS = Number(arg("--callers", "100"));
const NAME = arg("--as", "mcp-core");
// `--only one-caller`: the one caller's table alone, printed, not saved.
const ONLY = arg("--only", null);
/** How long the idle server is watched. */
const IDLE_MS = 4000;
const token = (i) => `caller-${String(i).padStart(4, "0")}-0123456789abcdef`;
const pinned = (core, args) => ["taskset", ["-c", String(core), process.execPath, ...args]];
// Node flags for the servers alone (`--cpu-prof --cpu-prof-dir=DIR` to see where a call's time goes).
const SERVER_FLAGS = (process.env.MCP_CORE_SERVER_FLAGS ?? "").split(" ").filter(Boolean);

/** Times `rounds` passes over `commands` on client `c`: the times per command. */
async function timed(c, commands, rounds) {
  const times = Object.fromEntries(commands.map((cmd) => [cmd, []]));
  for (let r = 0; r < rounds; r++) {
    for (const command of commands) {
      const t = performance.now();
      const answer = await c.callTool({ name: "bash", arguments: { command } });
      times[command].push(performance.now() - t);
      if (answer.isError) throw new Error(`${command}: ${answer.content[0].text}`);
    }
  }
  return times;
}

async function httpClient(endpoint, i) {
  const c = new Client({ name: "bench", version: "1" });
  await c.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: `Bearer ${token(i)}` } } }));
  return c;
}

/** `CALLERS` clients at once, each calling `commands` in turn `each` times; `pid` is the server's. */
async function load(endpoint, pid, commands, each, offset) {
  const clients = await Promise.all(Array.from({ length: CALLERS }, (_, i) => httpClient(endpoint, offset + i)));
  await Promise.all(clients.map((c) => c.callTool({ name: "bash", arguments: { command: "echo warm" } })));
  const latencies = [];
  let errors = 0;
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c, i) => {
      for (let k = 0; k < each; k++) {
        const t = performance.now();
        const r = await c.callTool({ name: "bash", arguments: { command: commands[(i + k) % commands.length] } }).catch(() => null);
        latencies.push(performance.now() - t);
        if (!r || r.isError) errors += 1;
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = (cpuMs(pid) - cpu0) / latencies.length;
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  return { cpu, perSecond: latencies.length / (wall / 1000), p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), errors, calls: latencies.length };
}

// The load generator (and the Chroma it starts) on core 1, every thread of this process.
execFileSync("taskset", ["-a", "-p", "-c", "1", String(process.pid)], { stdio: "ignore" });
const run = startResult(NAME, {
  settings: {
    cores: "the server pinned to core 0 (taskset -c 0), the load generator and Chroma to core 1",
    pages: "77 generated pages of 40 lines in 7 sections",
    server: "serveHttp with default limits and workers, bearer tokens; serveStdio for stdio",
    "one caller": `${ROUNDS} rounds of the mix, one call at a time, after 2 rounds of warm-up`,
    library: "the same commands on one warm ChromaFs session in just-bash, a process pinned to core 0, median of 40 runs",
  },
});
const chroma = await startOwnChroma("mcp-core");
const children = [];
try {
  const { ingest } = await import("chromafs");
  await ingest({ url: chroma.url, collection: COLLECTION, files: pages() });

  const [lcmd, largs] = pinned(0, [SELF, "--library", chroma.url]);
  const library = JSON.parse(execFileSync(lcmd, largs, { encoding: "utf8" }).trim().split("\n").at(-1));

  const [hcmd, hargs] = pinned(0, [...SERVER_FLAGS, SELF, "--http", chroma.url]);
  const server = spawn(hcmd, hargs, { stdio: ["ignore", "pipe", "inherit"] });
  children.push(server);
  const endpoint = await new Promise((resolve) => server.stdout.once("data", (b) => resolve(String(b).trim())));

  // The server idle, once started and warm: what its threads spend when nobody calls.
  const one = await httpClient(endpoint, 199);
  await timed(one, MIX, 2);
  await new Promise((r) => setTimeout(r, 1000));
  const idle0 = cpuMs(server.pid);
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const idleCpu = ((cpuMs(server.pid) - idle0) * 1000) / IDLE_MS;
  const cpu0 = cpuMs(server.pid);
  const http = await timed(one, MIX, ROUNDS);
  const httpCpu = (cpuMs(server.pid) - cpu0) / (ROUNDS * MIX.length);
  await one.close();

  const [scmd, sargs] = pinned(0, [...SERVER_FLAGS, SELF, "--stdio", chroma.url]);
  const stdio = new Client({ name: "bench", version: "1" });
  const pipe = new StdioClientTransport({ command: scmd, args: sargs, stderr: "inherit" });
  await stdio.connect(pipe);
  await timed(stdio, MIX, 2);
  const scpu0 = cpuMs(pipe.pid);
  const overStdio = await timed(stdio, MIX, ROUNDS);
  const stdioCpu = (cpuMs(pipe.pid) - scpu0) / (ROUNDS * MIX.length);
  await stdio.close();

  const rows = MIX.map((command) => [
    `\`${command}\``,
    fixed(library[command]),
    fixed(quantile(http[command], 0.5)),
    fixed(quantile(http[command], 0.99)),
    fixed(quantile(overStdio[command], 0.5)),
    fixed(quantile(overStdio[command], 0.99)),
  ]);
  const all = (times) => Object.values(times).flat();
  const libraryMedian = quantile(Object.values(library), 0.5);
  rows.push(["the mix", fixed(libraryMedian), fixed(quantile(all(http), 0.5)), fixed(quantile(all(http), 0.99)), fixed(quantile(all(overStdio), 0.5)), fixed(quantile(all(overStdio), 0.99))]);
  rows.push(["server CPU a call, every thread", "", fixed(httpCpu), "", fixed(stdioCpu), ""]);
  run.table("one-caller", ["command", "library ms:", "HTTP p50 ms:", "HTTP p99 ms:", "stdio p50 ms:", "stdio p99 ms:"], rows);
  run.fact("libraryMs", Object.fromEntries(Object.entries(library).map(([k, v]) => [k, +v.toFixed(2)])));
  run.fact("httpP50Ms", +quantile(all(http), 0.5).toFixed(2));
  run.fact("httpP99Ms", +quantile(all(http), 0.99).toFixed(2));
  run.fact("stdioP50Ms", +quantile(all(overStdio), 0.5).toFixed(2));
  run.fact("httpCpuMsPerCall", +httpCpu.toFixed(2));
  run.table("idle", ["the HTTP server, warm, nobody calling", "CPU ms a second, every thread:"], [[`${IDLE_MS / 1000} s after a second's rest`, idleCpu.toFixed(1)]]);
  run.fact("idleCpuMsPerSecond", +idleCpu.toFixed(1));

  if (ONLY === "one-caller") {
    console.log(markdownTable(run.result.tables["one-caller"]));
    console.log(markdownTable(run.result.tables.idle));
    process.exitCode = 0;
  } else {
  const mixLoad = await load(endpoint, server.pid, MIX, 10, 0);
  const lightLoad = await load(endpoint, server.pid, LIGHT, 10, 0);
  const loadRow = (what, r) => [what, r.calls, r.perSecond.toFixed(0), fixed(r.p50), fixed(r.p99), r.errors, r.cpu.toFixed(2), (1000 / r.cpu).toFixed(0)];
  const cpuColumns = ["server CPU ms a call:", "calls/s a core gives:"];
  run.table("callers", [`${CALLERS} callers at once, 10 calls each`, "calls:", "calls/s:", "p50 ms:", "p99 ms:", "errors:", ...cpuColumns], [
    loadRow(`the mix (${MIX.map((c) => `\`${c}\``).join(", ")})`, mixLoad),
    loadRow(`light (${LIGHT.map((c) => `\`${c}\``).join(", ")})`, lightLoad),
  ]);
  run.fact("mixPerSecond", Math.round(mixLoad.perSecond));
  run.fact("lightPerSecond", Math.round(lightLoad.perSecond));
  run.fact("lightCpuMsPerCall", +lightLoad.cpu.toFixed(2));
  run.fact("mixCpuMsPerCall", +mixLoad.cpu.toFixed(2));
  run.fact("mixP50Ms", Math.round(mixLoad.p50));
  run.save();
  }
} finally {
  for (const c of children) c.kill();
  chroma.stop();
}
