// One call cannot stall the others: a Node MCP server runs each call in a worker thread that
// can be stopped. With the SDK's own client over streamable HTTP and a real Chroma: a command
// that computes for seconds without yielding ends at its deadline while another client is
// answered; a caller who shared a worker with it is answered anyway; a command that outgrows
// its worker's heap ends with "ran out of memory" and the server goes on. Orders, not times:
// each test checks what was answered before what.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ingest } from "chromafs";
import { serveHttp } from "chromafs/mcp";
import { ROOT, chromaUrl, tempDir } from "../helpers.mjs";

const PAGES = { "index.md": "# Acme\nStart here.\n", "guides/keys.md": "Rotate the signing key every month.\n" };

before(async () => {
  await ingest({ url: chromaUrl(), collection: "mcp-isolation", files: Object.entries(PAGES).map(([path, content]) => ({ path, content })) });
});

const text = (r) => r.content.map((c) => c.text).join("");

async function client(url) {
  const c = new Client({ name: "test", version: "1" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

const bash = (c, command) => c.callTool({ name: "bash", arguments: { command } }, undefined, { timeout: 120_000 });

/** A glob matched against an 8 MB string, twice: seconds of computing that never yields. */
const RUNAWAY = "a=$(printf '%08000000d' 1); [[ $a == *y* ]]; [[ $a == *y* ]]; echo finished";

/**
 * A loop that yields, but only to its own promises: each `[[ ]]` is awaited, so the worker's
 * timers and the pool's messages never get a turn, for minutes.
 */
const AWAITING = "a=x; for i in $(seq 1 16); do a=$a$a; done; for i in $(seq 1 9000); do [[ $a == *y* ]]; done; echo finished";

/** `promise`, and the order in which it settled among those `order` records. */
function noted(promise, order, name) {
  return promise.then((r) => {
    order.push(name);
    return r;
  });
}

test("a command that computes without yielding ends at its deadline, and another client is answered meanwhile", async () => {
  const server = await serveHttp({ url: chromaUrl(), collection: "mcp-isolation" }, { limits: { callTimeoutMs: 2000 } });
  const [a, b] = await Promise.all([client(server.url), client(server.url)]);
  try {
    const order = [];
    const runaway = noted(bash(a, RUNAWAY), order, "runaway");
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 3; i++) assert.equal(text(await noted(bash(b, `echo other ${i}`), order, `other ${i}`)), `other ${i}\n`);
    const r = await runaway;
    assert.deepEqual(order, ["other 0", "other 1", "other 2", "runaway"], "the other client's calls were answered first");
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /finished/);
    assert.match(text(r), /\[the call ran out of time after 2,000 ms\]/);
    assert.equal(text(await bash(a, "cat /guides/keys.md")), PAGES["guides/keys.md"], "the caller's next call works");
  } finally {
    await Promise.all([a.close(), b.close()]);
    await server.close();
  }
});

test("a call that shared its worker with a runaway command is answered anyway", async () => {
  // One worker: the victim's call is on it when the runaway starts.
  const server = await serveHttp({ url: chromaUrl(), collection: "mcp-isolation" }, { workers: 1, limits: { callTimeoutMs: 3000 } });
  const [a, b] = await Promise.all([client(server.url), client(server.url)]);
  try {
    assert.equal(text(await bash(b, "echo warm")), "warm\n");
    const order = [];
    const victim = noted(bash(b, "sleep 1; cat /index.md"), order, "victim");
    await new Promise((r) => setTimeout(r, 100));
    const runaway = noted(bash(a, RUNAWAY), order, "runaway");
    const [v, r] = await Promise.all([victim, runaway]);
    assert.equal(text(v), PAGES["index.md"]);
    assert.equal(v.isError, false);
    assert.deepEqual(order, ["victim", "runaway"]);
    assert.match(text(r), /\[the call ran out of time after 3,000 ms\]/);
    const stats = server.stats();
    assert.ok(stats.stalled >= 1 && stats.moved >= 1, JSON.stringify(stats));
  } finally {
    await Promise.all([a.close(), b.close()]);
    await server.close();
  }
});

test("a loop that yields only to its own promises ends at its deadline: its worker is stopped, and other callers are answered meanwhile and after", async () => {
  const server = await serveHttp({ url: chromaUrl(), collection: "mcp-isolation" }, { workers: 2, limits: { callTimeoutMs: 2000 } });
  const clients = await Promise.all([0, 1, 2].map(() => client(server.url)));
  const [a, ...others] = clients;
  try {
    await Promise.all(others.map((c) => bash(c, "echo warm")));
    const order = [];
    const runaway = noted(bash(a, AWAITING), order, "runaway");
    await new Promise((r) => setTimeout(r, 400));
    // Calls of other callers while it runs: none waits on the runaway's worker.
    for (let i = 0; i < 4; i++) {
      const c = others[i % others.length];
      assert.equal(text(await noted(bash(c, `echo other ${i}`), order, `other ${i}`)), `other ${i}\n`);
    }
    const r = await runaway;
    assert.deepEqual(order, ["other 0", "other 1", "other 2", "other 3", "runaway"]);
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /finished/);
    assert.match(text(r), /\[the call ran out of time after 2,000 ms\]/);
    const stats = server.stats();
    assert.ok(stats.stalled >= 1 && stats.stopped >= 1, `the worker was seen stalled and stopped: ${JSON.stringify(stats)}`);
    // After it, every caller's calls are answered, the runaway's own caller's too.
    const after = await Promise.all(clients.map((c, i) => bash(c, `echo after ${i}`)));
    assert.deepEqual(after.map(text), clients.map((_, i) => `after ${i}\n`));
    assert.ok(after.every((x) => !x.isError));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  }
});

test("over stdio with one worker, a loop that yields only to its own promises ends at its deadline and the next call is answered", async () => {
  const c = new Client({ name: "test", version: "1" });
  const args = [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--collection", "mcp-isolation", "--workers", "1", "--call-timeout-ms", "2000"];
  await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
  try {
    const order = [];
    const runaway = noted(bash(c, AWAITING), order, "runaway");
    await new Promise((r) => setTimeout(r, 400));
    // On the runaway's only worker when it started; moved to a new one when that stalls.
    const other = noted(bash(c, "cat /index.md"), order, "other");
    const [r, o] = await Promise.all([runaway, other]);
    assert.deepEqual(order, ["other", "runaway"]);
    assert.equal(text(o), PAGES["index.md"]);
    assert.match(text(r), /\[the call ran out of time after 2,000 ms\]/);
    // A wedged worker left "ready" would take it and run it out of time.
    assert.equal(text(await bash(c, "echo next")), "next\n");
  } finally {
    await c.close();
  }
});

test("a command that outgrows its worker's heap ends with 'ran out of memory', and the server goes on", async () => {
  const server = await serveHttp({ url: chromaUrl(), collection: "mcp-isolation" }, { limits: { memoryMiB: 96 } });
  const [a, b] = await Promise.all([client(server.url), client(server.url)]);
  try {
    // Sixty strings of 9 MB, each a copy under just-bash's string and output limits: 540 MB.
    const hungry = "a=$(printf '%09000000d' 1); for i in $(seq 1 60); do eval \"v$i=\\${a/0/$i}\"; done; echo kept";
    const r = await bash(a, hungry);
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /kept/);
    assert.match(text(r), /\[the call ran out of memory: a worker's heap holds 96 MiB\]/);
    assert.equal(text(await bash(b, "cat /index.md")), PAGES["index.md"]);
    assert.equal(text(await bash(a, "echo again")), "again\n");
    assert.ok(server.stats().outOfMemory >= 1);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await server.close();
  }
});

test("a host's own embedding function is called in the server's thread; a recipe that fails is refused with the cause in the log", async () => {
  const topics = [["key", "rotate", "signing"], ["start", "acme"]];
  const embed = async (texts) =>
    texts.map((t) => {
      const v = topics.map((words) => words.filter((w) => t.toLowerCase().includes(w)).length).concat([0.1]);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    });
  await ingest({ url: chromaUrl(), collection: "mcp-isolation-dense", files: Object.entries(PAGES).map(([path, content]) => ({ path, content })), embed });
  const threadsAsked = new Set();
  const { threadId } = await import("node:worker_threads");
  const counted = async (texts) => (threadsAsked.add(threadId), embed(texts));
  const server = await serveHttp({ url: chromaUrl(), collection: "mcp-isolation-dense", embed: counted });
  const c = await client(server.url);
  try {
    const found = await c.callTool({ name: "search", arguments: { query: "how do I rotate the signing key" } });
    assert.equal(found.isError, false, text(found));
    assert.equal(found.structuredContent.results[0].path, "/guides/keys.md");
    assert.deepEqual([...threadsAsked], [threadId], "the function ran here, in the main thread");
  } finally {
    await c.close();
    await server.close();
  }
  // A recipe (how a worker builds a value again) whose module throws: each call says why.
  const dir = tempDir("recipe");
  const file = path.join(dir, "broken.mjs");
  await writeFile(file, "export function make() { throw new Error('the model files are missing'); }\n");
  const broken = Object.defineProperty({}, Symbol.for("chromafs.recipe"), { value: { module: pathToFileURL(file).href, name: "make", options: {} } });
  const failing = await serveHttp({ url: chromaUrl(), collection: "mcp-isolation", embed: broken });
  const logged = [];
  const log = console.error;
  console.error = (...args) => logged.push(args.join(" "));
  try {
    for (let i = 0; i < 2; i++) {
      const refused = await client(failing.url).then(
        () => null,
        (e) => e,
      );
      assert.match(String(refused?.message), /worker threads could not start \(the cause is in the server's log\)/);
      assert.doesNotMatch(String(refused?.message), /model files|chromafs-recipe/, "the cause goes to the log only");
    }
    assert.ok(logged.some((l) => /could not start: the model files are missing/.test(l)), logged.join("\n"));
  } finally {
    console.error = log;
    await failing.close();
  }
});

/**
 * Runs `count` bash calls through `runTool` (`ownThread` as given) in a worker thread of its
 * own, then says whether JSON, Math and Reflect are frozen there and what the calls printed.
 */
async function callsInAThread(ownThread, count) {
  const { Worker } = await import("node:worker_threads");
  const code = `
    import { parentPort, workerData } from "node:worker_threads";
    const { runTool, holdDefense } = await import(workerData.tools);
    const { DefenseInDepthBox } = await import(workerData.justBash);
    const { scopedConnect, sessionPool } = await import(workerData.sessions);
    const { DEFAULT_LIMITS } = await import(workerData.limits);
    const { ChromaFs } = await import(workerData.chromafs);
    const sessions = sessionPool(scopedConnect(ChromaFs, { url: workerData.url, collection: "mcp-isolation" }));
    const before = Object.isFrozen(JSON);
    // As a pool's worker does (worker.mjs).
    if (workerData.ownThread) holdDefense(DefenseInDepthBox);
    const out = [];
    for (let i = 0; i < workerData.count; i++) {
      const r = await runTool({ lease: (v) => sessions.lease([], v) }, "bash", { command: "cat /guides/keys.md; echo " + i }, { limits: DEFAULT_LIMITS, ownThread: workerData.ownThread, deadline: Date.now() + 60000 });
      out.push(r.result.stdout);
    }
    // The guards still up after the calls (the constructor chain behind an accessor), and the
    // thread's own code, outside any line, not blocked by them.
    const guarded = typeof Object.getOwnPropertyDescriptor(Function.prototype, "constructor").get === "function";
    const ownCode = (function () {}).constructor("return 7")() === 7;
    parentPort.postMessage({ before, frozen: [JSON, Math, Reflect].map((o) => Object.isFrozen(o)), guarded, ownCode, out });
  `;
  const file = (f) => pathToFileURL(path.join(ROOT, "pkg/mcp", f)).href;
  const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    workerData: { tools: file("tools.mjs"), sessions: file("sessions.mjs"), limits: file("limits.mjs"), chromafs: import.meta.resolve("chromafs"), justBash: import.meta.resolve("just-bash"), url: chromaUrl(), ownThread, count },
  });
  try {
    return await new Promise((resolve, reject) => {
      w.once("message", resolve);
      w.once("error", reject);
    });
  } finally {
    await w.terminate();
  }
}

test("a thread that runs nothing but calls (a worker's) hardens itself for good: JSON, Math and Reflect frozen, the guards up between calls, every call still answered; a shared thread is left as it was", async () => {
  const expected = [0, 1, 2].map((i) => `Rotate the signing key every month.\n${i}\n`);
  assert.deepEqual(await callsInAThread(true, 3), { before: false, frozen: [true, true, true], guarded: true, ownCode: true, out: expected });
  assert.deepEqual(await callsInAThread(false, 3), { before: false, frozen: [false, false, false], guarded: false, ownCode: true, out: expected });
});

test("an idle worker is not taken for a stalled one: calls after pauses longer than a stall are answered where they were sent, none moved", async () => {
  const server = await serveHttp({ url: chromaUrl(), collection: "mcp-isolation" }, { workers: 1 });
  const c = await client(server.url);
  try {
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(text(await bash(c, `cat /guides/keys.md | head -1; echo ${i}`)), `Rotate the signing key every month.\n${i}\n`);
    }
    const stats = server.stats();
    assert.equal(stats.stalled, 0);
    assert.equal(stats.moved, 0);
    assert.equal(stats.started, 1);
  } finally {
    await c.close();
    await server.close();
  }
});
