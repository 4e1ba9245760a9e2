// The MCP revision 2026-07-28 against the real server: no `initialize`, no session, each
// request naming its revision and the client's capabilities in `_meta`, and `server/discover`
// to learn the server. The v2 client pinned to that revision over streamable HTTP (the Node
// server, with and without worker threads, and `answerMcp` as an edge function runs it) and
// over stdio (the CLI); then the messages themselves, as that revision's client sends them,
// over HTTP and over stdio: what each answer carries, and what the server refuses and how.
// A 2025 client on the same endpoint is served as before (mcp-clients.test.mjs has every
// client generation).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs, ingest } from "chromafs";
import { answerMcp, createMcpServer, serveHttp, tokenAuthorizer } from "chromafs/mcp";
import { ROOT, chromaUrl } from "../helpers.mjs";

const PAGES = { "index.md": "# Acme\nStart here.\n", "guides/keys.md": "Rotate keys yearly.\n", "guides/café.md": "Un café.\n", "internal/oncall.md": "Page the rota.\n" };
const COLLECTION = "mcp-modern";
const VERSION = "2026-07-28";
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const TOKENS = { "staff-secret-token": ["staff"] };
let pooled, inThread;

before(async () => {
  const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content }));
  await ingest({ url: chromaUrl(), collection: COLLECTION, files, access: { "internal/**": { isPublic: false, groups: ["staff"] } } });
  const options = { authorize: tokenAuthorizer(TOKENS), docs: "the Acme docs" };
  pooled = await serveHttp({ url: chromaUrl(), collection: COLLECTION }, { ...options, workers: 1 });
  inThread = await serveHttp({ url: chromaUrl(), collection: COLLECTION }, { ...options, workers: 0 });
});
after(async () => {
  await pooled?.close();
  await inThread?.close();
});

const cliArgs = () => [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--collection", COLLECTION, "--docs", "the Acme docs"];
const pinned = () => new Client({ name: "t", version: "1" }, { versionNegotiation: { mode: { pin: VERSION } } });
const text = (r) => r.content.map((c) => c.text).join("");

/** A fetch that records what each request sent: its method, its headers. */
function recording(into, fetchFn = fetch) {
  return (url, init) => {
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : null;
    into.push({ method: body?.method, headers: new Headers(init?.headers), meta: body?.params?._meta });
    return fetchFn(url, init);
  };
}

/** What a 2026-07-28 client sees of the docs: the checks every transport shares. */
async function readsTheDocs(client, { staff }) {
  assert.equal(client.getNegotiatedProtocolVersion(), VERSION);
  assert.equal(client.getProtocolEra(), "modern");
  assert.match(client.getInstructions(), /This server reads the Acme docs/);
  assert.deepEqual(client.getServerCapabilities(), { tools: {}, resources: {} });
  assert.equal(client.getServerVersion().name, "chromafs");
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => [t.name, t.title]),
    [
      ["bash", "Read-only shell over the Acme docs"],
      ["search", "Search the Acme docs"],
    ],
  );
  const ls = await client.callTool({ name: "bash", arguments: { command: "ls /" } });
  assert.equal(text(ls), staff ? "guides\nindex.md\ninternal\ntmp\n" : "guides\nindex.md\ntmp\n");
  assert.equal(ls.isError, false);
  const found = await client.callTool({ name: "search", arguments: { query: "rotate keys" } });
  assert.equal(found.structuredContent.results[0].path, "/guides/keys.md");
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "chromafs://docs/guides/keys.md"));
  assert.equal(resources.some((r) => r.uri === "chromafs://docs/internal/oncall.md"), staff);
  const { contents } = await client.readResource({ uri: "chromafs://docs/guides/caf%C3%A9.md" });
  assert.equal(contents[0].text, PAGES["guides/café.md"]);
  // A page the caller may not see is not there, in this revision's words.
  const hidden = client.readResource({ uri: "chromafs://docs/internal/oncall.md" });
  if (staff) assert.equal((await hidden).contents[0].text, PAGES["internal/oncall.md"]);
  else await assert.rejects(hidden, (e) => e.code === -32602);
}

for (const [where, server] of [
  ["the Node server (worker threads)", () => pooled],
  ["the Node server (workers: 0)", () => inThread],
]) {
  test(`the v2 client pinned to 2026-07-28 over HTTP, ${where}: discovers, calls bash and search, reads a page, never initializes`, async () => {
    const sent = [];
    const client = pinned();
    await client.connect(new StreamableHTTPClientTransport(new URL(server().url), { requestInit: { headers: { authorization: "Bearer staff-secret-token" } }, fetch: recording(sent) }));
    try {
      await readsTheDocs(client, { staff: true });
    } finally {
      await client.close();
    }
    const methods = sent.map((s) => s.method).filter(Boolean);
    assert.equal(methods[0], "server/discover");
    assert.ok(!methods.includes("initialize") && !methods.includes("notifications/initialized"), methods.join(" "));
    for (const s of sent.filter((x) => x.method)) {
      assert.equal(s.headers.get("mcp-protocol-version"), VERSION);
      assert.equal(s.headers.get("mcp-method"), s.method);
      assert.equal(s.headers.get("mcp-session-id"), null);
    }
  });
}

test("the v2 client pinned to 2026-07-28 over stdio (the CLI): discovers, calls bash and search, reads a page", async () => {
  const client = pinned();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: cliArgs(), stderr: "pipe" }));
  try {
    await readsTheDocs(client, { staff: false });
  } finally {
    await client.close();
  }
});

test("answerMcp, as an edge function runs it, serves the pinned v2 client and a 2025 client alike", async () => {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION, scratch: "/tmp" });
  try {
    const handler = (url, init) => answerMcp(new Request(url, init), createMcpServer(fs, { docs: "the Acme docs" }));
    const sent = [];
    const modern = pinned();
    await modern.connect(new StreamableHTTPClientTransport(new URL("https://docs.acme.example/mcp"), { fetch: recording(sent, handler) }));
    await readsTheDocs(modern, { staff: false });
    await modern.close();
    assert.ok(!sent.some((s) => s.method === "initialize"));
    const legacy = new ClientV1({ name: "t", version: "1" });
    await legacy.connect(new HttpV1(new URL("https://docs.acme.example/mcp"), { fetch: handler }));
    assert.equal(text(await legacy.callTool({ name: "bash", arguments: { command: "cat /index.md" } })), PAGES["index.md"]);
    await legacy.close();
  } finally {
    fs.free();
  }
});

/** The envelope a 2026-07-28 request carries. */
const envelope = (extra = {}) => ({ "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {}, ...extra });
const request = (id, method, params = {}, meta = envelope()) => ({ jsonrpc: "2.0", id, method, params: { ...params, ...(meta ? { _meta: meta } : {}) } });
/** The headers that mirror a request's body. */
function mirrored(message) {
  const name = message.params?.name ?? message.params?.uri;
  const plain = typeof name === "string" && /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(name);
  return {
    "mcp-protocol-version": VERSION,
    "mcp-method": message.method,
    ...(name === undefined ? {} : { "mcp-name": plain ? name : `=?base64?${Buffer.from(name).toString("base64")}?=` }),
  };
}

/** POSTs `message` to the pooled server with `headers` (the mirrored ones unless given): `{ status, body }`. */
async function post(message, headers = Array.isArray(message) ? {} : mirrored(message)) {
  const res = await fetch(pooled.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(message) });
  const raw = await res.text();
  return { status: res.status, body: raw ? JSON.parse(raw) : null, headers: res.headers };
}

test("2026-07-28 over HTTP, message by message: each answer as that revision spells it", async () => {
  const discover = await post(request(1, "server/discover"));
  assert.equal(discover.status, 200);
  assert.equal(discover.headers.get("mcp-session-id"), null);
  const found = discover.body.result;
  assert.deepEqual(found.supportedVersions, [VERSION]);
  assert.deepEqual(found.capabilities, { tools: {}, resources: {} });
  assert.equal(found.resultType, "complete");
  assert.deepEqual(found._meta[SERVER_INFO], { name: "chromafs", version: "0.1.0" });
  assert.match(found.instructions, /the Acme docs/);
  assert.equal(found.cacheScope, "public");
  assert.ok(found.ttlMs > 0);

  const list = (await post(request(2, "tools/list"))).body.result;
  assert.deepEqual([list.resultType, list.cacheScope, list.tools.length], ["complete", "public", 2]);
  const call = await post(request(3, "tools/call", { name: "bash", arguments: { command: "cat /guides/keys.md" } }));
  assert.equal(call.status, 200);
  assert.equal(call.body.result.content[0].text, PAGES["guides/keys.md"]);
  assert.equal(call.body.result.resultType, "complete");
  assert.equal(call.body.result.ttlMs, undefined, "a tool call is not cacheable");
  const read = (await post(request(4, "resources/read", { uri: "chromafs://docs/guides/caf%C3%A9.md" }))).body.result;
  assert.deepEqual([read.resultType, read.cacheScope, read.contents[0].text], ["complete", "private", PAGES["guides/café.md"]]);
  const templates = (await post(request(5, "resources/templates/list"))).body.result;
  assert.equal(templates.resourceTemplates[0].uriTemplate, "chromafs://docs/{+path}");
  // A page that is not there: invalid params (2025's -32002 is not this revision's).
  const missing = await post(request(6, "resources/read", { uri: "chromafs://docs/nope.md" }));
  assert.deepEqual([missing.status, missing.body.error.code], [200, -32602]);
  // Invalid arguments are a tool error, as in 2025-11-25.
  const invalid = (await post(request(7, "tools/call", { name: "bash", arguments: {} }))).body.result;
  assert.equal(invalid.isError, true);
  assert.equal(invalid.resultType, "complete");
  // A notification: accepted, nothing to answer.
  const note = await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99, _meta: envelope() } }, { "mcp-protocol-version": VERSION, "mcp-method": "notifications/cancelled" });
  assert.deepEqual([note.status, note.body], [202, null]);
});

test("2026-07-28 over HTTP: what the revision refuses, with its codes and statuses", async () => {
  const refused = async (message, headers, status, code) => {
    const answer = await post(message, headers);
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, code, JSON.stringify(answer.body));
    return answer.body;
  };
  const list = request(1, "tools/list");
  // Methods the revision removed, or the server does not declare: not found, 404.
  for (const method of ["ping", "initialize", "logging/setLevel", "prompts/list", "subscriptions/listen"]) {
    await refused(request(1, method), mirrored({ method }), 404, -32601);
  }
  // A version it does not speak: -32022 with the ones it does.
  const old = await refused(request(1, "tools/list", {}, envelope({ "io.modelcontextprotocol/protocolVersion": "2099-01-01" })), { ...mirrored(list), "mcp-protocol-version": "2099-01-01" }, 400, -32022);
  assert.deepEqual(old.error.data, { supported: [VERSION], requested: "2099-01-01" });
  // The envelope incomplete: invalid params.
  const { "io.modelcontextprotocol/clientCapabilities": _, ...noCapabilities } = envelope();
  await refused(request(1, "tools/list", {}, noCapabilities), mirrored(list), 400, -32602);
  await refused(request(1, "tools/list", {}, null), mirrored(list), 400, -32602);
  // Headers that do not mirror the body.
  const call = request(2, "tools/call", { name: "bash", arguments: { command: "ls" } });
  const { "mcp-protocol-version": _v, ...noVersion } = mirrored(call);
  await refused(call, noVersion, 400, -32020);
  const { "mcp-method": _m, ...noMethod } = mirrored(call);
  await refused(call, noMethod, 400, -32020);
  const { "mcp-name": _n, ...noName } = mirrored(call);
  await refused(call, noName, 400, -32020);
  await refused(call, { ...mirrored(call), "mcp-name": "search" }, 400, -32020);
  await refused(call, { ...mirrored(call), "mcp-method": "tools/list" }, 400, -32020);
  await refused(call, { ...mirrored(call), "mcp-protocol-version": "2025-11-25" }, 400, -32020);
  await refused(request(3, "resources/read", { uri: "chromafs://docs/guides/caf%C3%A9.md" }), { ...mirrored(list), "mcp-method": "resources/read", "mcp-name": "=?base64?not base64?=" }, 400, -32020);
  // An initialize under this revision's header, and a batch of this revision's requests.
  await refused({ jsonrpc: "2.0", id: 4, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }, { "mcp-protocol-version": VERSION }, 400, -32020);
  await refused([list, request(2, "tools/list")], {}, 400, -32600);
  // No session to open or end.
  for (const method of ["GET", "DELETE"]) assert.equal((await fetch(pooled.url, { method, headers: { "mcp-protocol-version": VERSION } })).status, 405);
});

/** The CLI over stdio, spoken to line by line: `ask(message)` resolves with the answer to its id. */
function stdioServer() {
  const child = spawn(process.execPath, cliArgs(), { stdio: ["pipe", "pipe", "pipe"] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    waiting.get(JSON.stringify(message.id))?.(message);
  });
  return {
    ask: (message) =>
      new Promise((resolve) => {
        waiting.set(JSON.stringify(message.id), resolve);
        child.stdin.write(`${JSON.stringify(message)}\n`);
      }),
    close: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.stdin.end();
      }),
  };
}

test("2026-07-28 over stdio, message by message: discover first, no initialize, then the tools and a page", async () => {
  const server = stdioServer();
  try {
    const discover = (await server.ask(request(1, "server/discover"))).result;
    assert.deepEqual(discover.supportedVersions, [VERSION]);
    assert.deepEqual(discover.capabilities, { tools: {}, resources: {} });
    assert.equal(discover.resultType, "complete");
    const call = (await server.ask(request(2, "tools/call", { name: "bash", arguments: { command: "cat /guides/keys.md" } }))).result;
    assert.deepEqual([call.content[0].text, call.resultType, call._meta[SERVER_INFO].name], [PAGES["guides/keys.md"], "complete", "chromafs"]);
    const found = (await server.ask(request(3, "tools/call", { name: "search", arguments: { query: "rotate keys" } }))).result;
    assert.equal(found.structuredContent.results[0].path, "/guides/keys.md");
    const read = (await server.ask(request(4, "resources/read", { uri: "chromafs://docs/index.md" }))).result;
    assert.deepEqual([read.contents[0].text, read.cacheScope], [PAGES["index.md"], "private"]);
    assert.equal((await server.ask(request(5, "resources/read", { uri: "chromafs://docs/internal/oncall.md" }))).error.code, -32602);
    assert.equal((await server.ask(request(6, "ping"))).error.code, -32601);
    assert.equal((await server.ask(request(7, "tools/list", {}, envelope({ "io.modelcontextprotocol/protocolVersion": "2025-11-25" })))).error.code, -32022);
    // A 2025 request on the same process is answered as 2025 answers it.
    const legacy = (await server.ask({ jsonrpc: "2.0", id: 8, method: "tools/list", params: {} })).result;
    assert.equal(legacy.resultType, undefined);
    assert.equal(legacy.tools.length, 2);
  } finally {
    await server.close();
  }
});
