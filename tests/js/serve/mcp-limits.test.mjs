// The MCP server under hostile and changing conditions, with the SDK's own client over
// streamable HTTP: a re-ingest reaches clients at their next call; one call cannot take the
// server down (wall time, its client leaving, Chroma requests, just-bash's limits, calls in
// flight); the spec's Origin and Host rule; results that keep their exit code and do not
// show the addresses behind the server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs, ingest } from "chromafs";
import { answerMcp, createMcpServer, serveHttp, tokenAuthorizer, MAX_OUTPUT } from "chromafs/mcp";
import { chromaUrl } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

const PAGES = {
  "index.md": "# Acme\nStart here.\n",
  "guides/keys.md": "Rotate the signing key every month.\n",
  "guides/plan.md": "The launch plan, for everyone.\n",
  ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`many/p${String(i).padStart(2, "0")}.md`, `page ${i}\n`])),
  "big.md": "a line of the big page, repeated many times over\n".repeat(2000),
};
const files = (pages) => Object.entries(pages).map(([p, content]) => ({ path: p, content }));
const TOKENS = { "alice-0123456789abcdef": [], "bob-0123456789abcdef00": [] };
let front;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "mcp-limits", files: files(PAGES) });
  front = await startProxy(chromaUrl());
});
after(() => front.close());

const text = (r) => r.content.map((c) => c.text).join("");

async function serve(options = {}, collection = "mcp-limits") {
  return serveHttp({ url: front.url, collection }, { authorize: tokenAuthorizer(TOKENS), ...options });
}

async function client(url, token = "alice-0123456789abcdef") {
  const c = new Client({ name: "test", version: "1" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}

const bash = (c, command, options) => c.callTool({ name: "bash", arguments: { command } }, undefined, options);

test("a re-ingest reaches clients at their next call: a page made private is gone, a new page appears", async () => {
  await ingest({ url: chromaUrl(), collection: "mcp-reingest", files: files(PAGES) });
  const server = await serve({}, "mcp-reingest");
  const c = await client(server.url);
  try {
    assert.equal(text(await bash(c, "cat /guides/plan.md")), PAGES["guides/plan.md"]);
    assert.equal(text(await bash(c, "ls /guides; echo one >> /tmp/notes")), "keys.md\nplan.md\n");
    await ingest({
      url: chromaUrl(),
      collection: "mcp-reingest",
      files: files({ ...PAGES, "guides/new.md": "A page added later.\n" }),
      access: { "guides/plan.md": { isPublic: false, groups: ["staff"] } },
    });
    // The session that read the page still holds it; the call's check, beside the command,
    // finds the docs changed: the answer comes from a new session, and the line ran once.
    const cat = await bash(c, "echo two >> /tmp/notes; cat /guides/plan.md");
    assert.equal(text(cat), "cat: /guides/plan.md: No such file or directory\n[exit code 1]", "the same client, its next call");
    assert.equal(text(await bash(c, "ls /guides; cat /tmp/notes")), "keys.md\nnew.md\none\ntwo\n");
    const search = text(await c.callTool({ name: "search", arguments: { query: "launch plan" } }));
    assert.doesNotMatch(search, /plan\.md/);
    const fresh = await client(server.url, "bob-0123456789abcdef00");
    assert.equal(text(await bash(fresh, "cat /guides/new.md")), "A page added later.\n", "a new client too");
    await fresh.close();
  } finally {
    await c.close();
    await server.close();
  }
});

test("a call's wall time is bounded, and a call whose client left stops", async () => {
  const server = await serve({ limits: { callTimeoutMs: 800, callsInFlight: 1 } });
  const c = await client(server.url);
  try {
    const r = await bash(c, "sleep 30; echo never");
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /never/);
    assert.match(text(r), /\[the call ran out of time after 800 ms\]/);
    // A client that gives up: its call ends, so its one slot is free again at once.
    const leaving = new AbortController();
    const gone = bash(c, "sleep 30", { signal: leaving.signal }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 200));
    leaving.abort();
    await gone;
    await new Promise((r) => setTimeout(r, 200));
    const next = await bash(c, "echo next");
    assert.equal(text(next), "next\n", "the call that was left no longer holds the caller's slot");
  } finally {
    await c.close();
    await server.close();
  }
});

test("one call cannot spend more than its Chroma requests, its string length or its loop iterations", async () => {
  const server = await serve({ limits: { maxRequests: 5 } });
  const c = await client(server.url);
  try {
    const many = await bash(c, "cat /many/*.md | wc -l");
    assert.equal(many.isError, true);
    assert.match(text(many), /the command used its budget of 5 requests/);
    // Doubling a variable would take gigabytes; just-bash's string limit stops it.
    const doubling = await bash(c, "x=aaaaaaaa; while true; do x=$x$x; done; echo ${#x}");
    assert.match(text(doubling), /string length limit exceeded \(10485760 bytes\)\n\[exit code \d+\]$/);
    const loop = await bash(c, "i=0; while true; do i=$((i+1)); done");
    assert.match(text(loop), /too many (loop iterations|commands executed)/, text(loop));
    assert.equal(text(await bash(c, "cat /index.md")), PAGES["index.md"], "and the server goes on answering");
  } finally {
    await c.close();
    await server.close();
  }
});

test("calls in flight are limited per caller; other callers are not held up", async () => {
  const server = await serve({ limits: { callsInFlight: 2, callTimeoutMs: 5000 } });
  const [a1, a2, a3, b] = await Promise.all([client(server.url), client(server.url), client(server.url), client(server.url, "bob-0123456789abcdef00")]);
  try {
    const slow = [bash(a1, "sleep 1; echo one"), bash(a2, "sleep 1; echo two")];
    await new Promise((r) => setTimeout(r, 150));
    const refused = await bash(a3, "echo three");
    assert.equal(refused.isError, true);
    assert.match(text(refused), /2 calls are already running for this client/);
    assert.equal(text(await bash(b, "echo other")), "other\n");
    assert.deepEqual((await Promise.all(slow)).map(text), ["one\n", "two\n"]);
    assert.equal(text(await bash(a3, "echo three")), "three\n");
  } finally {
    await Promise.all([a1, a2, a3, b].map((c) => c.close()));
    await server.close();
  }
});

test("a command or query past its length is refused as invalid, and a long search counts its first words", async () => {
  const server = await serve();
  const c = await client(server.url);
  try {
    const long = await bash(c, "echo " + "x".repeat(20_000));
    assert.equal(long.isError, true);
    assert.match(text(long), /16384|too_big|at most/i);
    const query = await c.callTool({ name: "search", arguments: { query: "rotate ".repeat(500) } });
    assert.equal(query.isError, true);
    const fs = await ChromaFs.connect({ url: front.url, collection: "mcp-limits" });
    const words = "rotate signing key " + "filler ".repeat(120_000);
    const [all, first] = [await fs.search(words, { k: 3 }), await fs.search(words.split(" ").slice(0, 64).join(" "), { k: 3 })];
    assert.deepEqual(all, first, "what follows the first 64 words is not read");
    assert.equal(all[0].path, "/guides/keys.md");
    fs.free();
  } finally {
    await c.close();
    await server.close();
  }
});

test("output past the cap keeps its exit code; results do not show the addresses behind the server", async () => {
  const server = await serve();
  const c = await client(server.url);
  const logged = [];
  const consoleError = console.error;
  try {
    const r = await bash(c, "cat /big.md; false");
    const t = text(r);
    assert.match(t, /\[output cut at 30,000 characters: narrow the command/);
    assert.ok(t.endsWith("\n[exit code 1]"), t.slice(-200));
    assert.ok(t.length < MAX_OUTPUT + 300);
    console.error = (...args) => logged.push(args.join(" "));
    front.state.down = true;
    const down = await bash(c, "cat /guides/keys.md");
    assert.equal(down.isError, true);
    assert.match(text(down), /Input\/output error/);
    assert.doesNotMatch(text(down), /127\.0\.0\.1|ECONNREFUSED|ECONNRESET|socket|:\d{4,5}\b/, text(down));
    assert.match(text(down), /the cause is in the server's log/);
    assert.ok(logged.some((l) => /127\.0\.0\.1/.test(l)), "the operator's log has it");
  } finally {
    console.error = consoleError;
    front.reset();
    await c.close();
    await server.close();
  }
});

test("the spec's endpoint rule: a foreign Origin, or a foreign Host on loopback, gets 403", async () => {
  const server = await serve({ allowOrigins: ["https://app.example.com"] });
  const port = new URL(server.url).port;
  const post = (headers) =>
    fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
  try {
    const evil = await post({ origin: "http://evil.example" });
    assert.equal(evil.status, 403);
    assert.match(await evil.text(), /Origin/);
    const { request } = await import("node:http");
    const rebound = await new Promise((resolve, reject) => {
      const req = request(server.url, { method: "POST", headers: { host: `evil.example:${port}`, "content-type": "application/json", accept: "application/json, text/event-stream" } }, resolve);
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    });
    assert.equal(rebound.statusCode, 403, "DNS rebinding: a foreign Host on loopback");
    for (const origin of ["https://app.example.com", `http://127.0.0.1:${port}`, `http://localhost:${port}`, undefined]) {
      const ok = await post(origin ? { origin } : {});
      assert.equal(ok.status, 200, `${origin}`);
    }
  } finally {
    await server.close();
  }
  // answerMcp, as an edge function uses it.
  const fs = await ChromaFs.connect({ url: front.url, collection: "mcp-limits" });
  const ask = (origin) =>
    answerMcp(
      new Request("https://docs.acme.example/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(origin ? { origin } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      }),
      createMcpServer(fs),
      { allowOrigins: ["https://app.example.com"] },
    );
  assert.equal((await ask("http://evil.example")).status, 403);
  assert.equal((await ask("https://docs.acme.example")).status, 200, "its own origin");
  const allowed = await ask("https://app.example.com");
  assert.equal(allowed.status, 200);
  assert.equal(allowed.headers.get("access-control-allow-origin"), "https://app.example.com");
  assert.equal((await ask()).status, 200);
  const preflight = await answerMcp(
    new Request("https://docs.acme.example/mcp", { method: "OPTIONS", headers: { origin: "https://app.example.com", "access-control-request-method": "POST" } }),
    createMcpServer(fs),
    { allowOrigins: ["https://app.example.com"] },
  );
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example.com");
  fs.free();
});

/** A raw HTTP/1.1 request over a socket, so that headers can repeat: the status line's code. */
async function rawStatus(url, head) {
  const { connect } = await import("node:net");
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(head));
    let got = "";
    socket.on("data", (b) => (got += b));
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1])));
    socket.on("error", reject);
  });
}

test("the endpoint rules: a repeated Host is 400, allowed browser origins get CORS, the public URL keeps its scheme", async () => {
  const server = await serve({ allowOrigins: ["https://app.example.com"], publicUrl: "https://docs.acme.example/mcp" });
  const { host } = new URL(server.url);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  const request = (hosts) =>
    `POST /mcp HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join("")}Content-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
  const send = (method, headers = {}) => fetch(server.url, { method, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: method === "POST" ? body : undefined });
  try {
    assert.equal(await rawStatus(server.url, request([host])), 200);
    assert.equal(await rawStatus(server.url, request([host, "evil.example"])), 400, "RFC 9112: a repeated Host");
    assert.equal(await rawStatus(server.url, request([host, host])), 400);
    // A browser page of an allowed origin: its preflight is answered, and its answers readable.
    const pre = await send("OPTIONS", { origin: "https://app.example.com", "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization, mcp-protocol-version" });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), "https://app.example.com");
    assert.match(pre.headers.get("access-control-allow-methods"), /POST/);
    for (const h of ["authorization", "content-type", "mcp-protocol-version", "mcp-session-id"]) assert.match(pre.headers.get("access-control-allow-headers"), new RegExp(h));
    const posted = await send("POST", { origin: "https://app.example.com" });
    assert.equal(posted.status, 200);
    assert.equal(posted.headers.get("access-control-allow-origin"), "https://app.example.com");
    assert.match(posted.headers.get("access-control-expose-headers"), /mcp-session-id/);
    // Any other origin: refused, and nothing that would let a browser read it.
    const foreign = await send("OPTIONS", { origin: "https://evil.example", "access-control-request-method": "POST" });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.headers.get("access-control-allow-origin"), null);
    assert.equal((await send("POST")).headers.get("access-control-allow-origin"), null, "no Origin, no CORS");
    // Behind https://docs.acme.example, its http:// origin is another origin.
    assert.equal((await send("POST", { origin: "https://docs.acme.example" })).status, 200);
    assert.equal((await send("POST", { origin: "http://docs.acme.example" })).status, 403);
  } finally {
    await server.close();
  }
});

test("a tokens map must be an object of real tokens", () => {
  assert.throws(() => tokenAuthorizer([["admin"]]), /must be a JSON object/);
  assert.throws(() => tokenAuthorizer({ x: ["admin"] }), /at least 16 characters/);
  assert.throws(() => tokenAuthorizer({ "a long enough token": ["admin"] }), /a character a bearer token cannot/);
  assert.throws(() => tokenAuthorizer({ "a-long-enough-token": "admin" }), /array of group names/);
  assert.throws(() => tokenAuthorizer(null), /must be a JSON object/);
});

test("the bash tool has no sqlite3, whose memory no worker's heap limit bounds; the other commands are there, in both server shapes", async () => {
  const server = await serve();
  const c = await client(server.url);
  const here = createMcpServer(await ChromaFs.connect({ url: chromaUrl(), collection: "mcp-limits" }));
  try {
    const r = await bash(c, "sqlite3 :memory: 'select randomblob(1000000)' | wc -c; echo rc=${PIPESTATUS[0]}");
    assert.match(text(r), /bash: sqlite3: not available on this server/);
    assert.match(text(r), /rc=127/);
    assert.equal(text(await bash(c, "jq -n '1+1'; grep -c Rotate /guides/keys.md; echo a,b | cut -d, -f2")), "2\n1\nb\n");
    const [serverSide, clientSide] = (await import("@modelcontextprotocol/sdk/inMemory.js")).InMemoryTransport.createLinkedPair();
    await here.connect(serverSide);
    const local = new Client({ name: "test", version: "1" });
    await local.connect(clientSide);
    assert.match(text(await local.callTool({ name: "bash", arguments: { command: "sqlite3 :memory: 'select 1'" } })), /bash: sqlite3: not available on this server/);
    await local.close();
  } finally {
    await c.close();
    await server.close();
    await here.close();
  }
});
