// Limits that know who is calling, with the SDK's client over streamable HTTP and a real
// Chroma: the calls in flight are counted per caller the server authenticated — one token
// however its header is spelled, made-up tokens as the anonymous caller of their address —
// a cancellation reaches only its own caller's call, and one call's request budget is one
// budget across every mount.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ingest } from "chromafs";
import { serveHttp, tokenAuthorizer } from "chromafs/mcp";
import { chromaUrl } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

const TOKEN = "alice-0123456789abcdef";
const TOKENS = { [TOKEN]: ["staff"], "bob-0123456789abcdef00": [] };
const PAGES = { "index.md": "# Acme\nStart here.\n", "staff/rota.md": "The rota code is ROTA-5521.\n" };
const ACCESS = { "staff/**": { isPublic: false, groups: ["staff"] } };
const MOUNTED = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`p${i}.md`, `page ${i}\n`]));
let front;

before(async () => {
  const files = (pages) => Object.entries(pages).map(([path, content]) => ({ path, content }));
  await ingest({ url: chromaUrl(), collection: "mcp-callers", files: files(PAGES), access: ACCESS });
  for (let m = 1; m <= 4; m++) await ingest({ url: chromaUrl(), collection: `mcp-callers-m${m}`, files: files(MOUNTED) });
  front = await startProxy(chromaUrl());
});
after(() => front.close());

const text = (r) => r.content.map((c) => c.text).join("");

async function client(url, authorization) {
  const c = new Client({ name: "test", version: "1" });
  const headers = authorization === undefined ? {} : { authorization };
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

const bash = (c, command) => c.callTool({ name: "bash", arguments: { command } });
const serve = (options = {}) =>
  serveHttp({ url: chromaUrl(), collection: "mcp-callers" }, { authorize: tokenAuthorizer(TOKENS), limits: { callsInFlight: 2, callTimeoutMs: 20_000 }, ...options });

/** The answers to one slow call from each client, all sent at once. */
async function slowCalls(clients) {
  return (await Promise.all(clients.map((c) => bash(c, "sleep 1; cat /staff/rota.md 2>&1; echo done")))).map(text);
}

const refused = (t) => /calls are already running for this client/.test(t);

test("one token is one caller, however its Authorization header spells it", async () => {
  const server = await serve();
  const spellings = [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER ${TOKEN}`, `Bearer    ${TOKEN}`, `bEaReR ${TOKEN}`];
  const clients = await Promise.all(spellings.map((s) => client(server.url, s)));
  try {
    const answers = await slowCalls(clients);
    assert.equal(answers.filter((t) => t === `${PAGES["staff/rota.md"]}done\n`).length, 2, answers.join("\n"));
    assert.equal(answers.filter(refused).length, 3, answers.join("\n"));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  }
});

test("a resource read counts as a call in flight of its caller, as a tool call does", async () => {
  const server = await serve();
  const clients = await Promise.all([1, 2, 3].map(() => client(server.url, `Bearer ${TOKEN}`)));
  try {
    const slow = slowCalls(clients.slice(0, 2));
    await new Promise((r) => setTimeout(r, 400));
    await assert.rejects(clients[2].readResource({ uri: "chromafs://docs/staff/rota.md" }), /calls are already running for this client/);
    assert.equal((await slow).filter(refused).length, 0);
    const { contents } = await clients[2].readResource({ uri: "chromafs://docs/staff/rota.md" });
    assert.equal(contents[0].text, PAGES["staff/rota.md"]);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  }
});

test("made-up tokens on an open server are the anonymous caller of their address; a header that is no bearer token is refused", async () => {
  const server = await serve();
  const made = Array.from({ length: 8 }, (_, i) => `Bearer made-up-token-number-${i}-xyz`);
  // Spellings RFC 6750 refuses: read as no credentials, one token would be two callers.
  for (const h of [`Bearer\t${TOKEN}`, `Bearer ${TOKEN} extra`, `Bearer,${TOKEN}`, "Basic YWxpY2U6c2VjcmV0"]) {
    await assert.rejects(client(server.url, h), /401|not a bearer token/, h);
  }
  const clients = await Promise.all([...made, undefined].map((h) => client(server.url, h)));
  try {
    const answers = await slowCalls(clients);
    const served = answers.filter((t) => !refused(t));
    assert.equal(served.length, 2, answers.join("\n"));
    for (const t of served) assert.match(t, /No such file or directory\ndone\n$/, "the public pages only");
    // A real token is a caller of its own beside them.
    const alice = await client(server.url, `Bearer ${TOKEN}`);
    assert.equal(text(await bash(alice, "cat /staff/rota.md")), PAGES["staff/rota.md"]);
    await alice.close();
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  }
});

/** A raw JSON-RPC POST to the endpoint, as a stateless client sends each message. */
function post(url, message, authorization) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
  if (authorization) headers.authorization = authorization;
  return fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", ...message }) });
}

const callMessage = (id, command) => ({ id, method: "tools/call", params: { name: "bash", arguments: { command } } });
const cancelMessage = (requestId) => ({ method: "notifications/cancelled", params: { requestId, reason: "test" } });
const resultText = async (res) => (await res.json()).result.content.map((c) => c.text).join("");

test("a cancellation reaches only its own caller's call", async () => {
  const server = await serve();
  try {
    // Two anonymous callers at one address: nothing tells them apart, so neither can cancel.
    const call = post(server.url, callMessage(7, "sleep 1; echo survived"));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await post(server.url, cancelMessage(7))).status, 202);
    assert.equal(await resultText(await call), "survived\n");
    // Another token's cancellation does not reach alice's call either; alice's own does.
    const mine = post(server.url, callMessage(8, "sleep 1; echo survived"), `Bearer ${TOKEN}`);
    await new Promise((r) => setTimeout(r, 300));
    await post(server.url, cancelMessage(8), "Bearer bob-0123456789abcdef00");
    assert.equal(await resultText(await mine), "survived\n");
    const cancelled = post(server.url, callMessage(9, "sleep 5; echo survived"), `Bearer ${TOKEN}`);
    await new Promise((r) => setTimeout(r, 300));
    await post(server.url, cancelMessage(9), `bearer  ${TOKEN}`);
    const t = await resultText(await cancelled);
    assert.doesNotMatch(t, /survived/);
    assert.match(t, /\[the client went away\]/);
  } finally {
    await server.close();
  }
});

test("one call's request budget is one budget across every mount", async () => {
  const mounts = Object.fromEntries([1, 2, 3, 4].map((m) => [`/m${m}`, `mcp-callers-m${m}`]));
  // One worker, warmed by a first call, so that every request counted is the call's own.
  const server = await serveHttp({ url: front.url, mounts }, { limits: { maxRequests: 6 }, workers: 1 });
  const c = await client(server.url);
  try {
    assert.equal(text(await bash(c, "ls /")), "m1\nm2\nm3\nm4\ntmp\n");
    const every = Object.keys(mounts).flatMap((dir) => Object.keys(MOUNTED).map((p) => `${dir}/${p}`));
    const sent = front.requests.length;
    const r = await bash(c, `for f in ${every.join(" ")}; do cat $f; done | wc -l`);
    assert.equal(r.isError, true);
    assert.match(text(r), /the command used its budget of 6 requests/);
    assert.ok(front.requests.length - sent <= 6, `${front.requests.length - sent} requests sent`);
  } finally {
    await c.close();
    await server.close();
  }
});

test("a body that starts with a byte-order mark is counted as any other, and one the gate cannot read is refused, never run", async () => {
  const server = await serve();
  const post = (body, authorization) =>
    fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...(authorization ? { authorization } : {}) },
      body,
    });
  const call = (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "bash", arguments: { command: "sleep 1; echo ran" } } });
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  try {
    for (const authorization of [`Bearer ${TOKEN}`, undefined]) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => post(Buffer.concat([BOM, Buffer.from(call(i + 1))]), authorization).then((r) => r.json())),
      );
      const texts = answers.map((a) => a.result?.content?.map((c) => c.text).join("") ?? JSON.stringify(a));
      assert.equal(texts.filter((t) => t === "ran\n").length, 2, `${authorization ?? "anonymous"}: ${texts.join(" | ")}`);
      assert.equal(texts.filter(refused).length, 4, texts.join(" | "));
    }
    // Not UTF-8 (a UTF-16 body), or not JSON: refused as the SDK refuses what it cannot parse.
    for (const body of [Buffer.from(call(9), "utf16le"), Buffer.from(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call"`)]) {
      const r = await post(body, `Bearer ${TOKEN}`);
      assert.equal(r.status, 400);
      assert.equal((await r.json()).error.code, -32700);
    }
  } finally {
    await server.close();
  }
});
