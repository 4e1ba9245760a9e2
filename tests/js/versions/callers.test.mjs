// Versions for each caller of an MCP server: at the edge (answerMcp, one session per
// request) the bash tool's `version` runs the line on a session of that version, opened
// once and kept (a few at most) and freed with the request's session; over HTTP with
// tokens each caller's tools offer `version` as an enum of the versions that caller sees,
// never a hidden version's name, whichever caller asked before.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs } from "chromafs";
import { answerMcp, createMcpServer, serveHttp, tokenAuthorizer } from "chromafs/mcp";
import { chromaUrl } from "../helpers.mjs";
import { ingestVersioned } from "./ingested.mjs";

const COLLECTION = "versions-callers";
// Ten public versions (more than a session keeps sessions of) and a staff-only one.
const PUBLIC = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
const PAGES = {
  ...Object.fromEntries(PUBLIC.map((v) => [`${v}/setup.md`, `# Setup in ${v}\nInstall release ${v} with the installer.\n`])),
  "faq.md": "# FAQ\nEvery release installs the same way.\n",
  "beta/setup.md": "# Beta setup\nThe installer of the beta is secret.\n",
};
const TOKENS = { "alice-0123456789abcdef": [], "staff-0123456789abcdef": ["staff"] };

before(async () => {
  const r = await ingestVersioned(COLLECTION, PAGES, { versions: { "beta/**": "v99-beta" }, access: { "beta/**": { isPublic: false, groups: ["staff"] } } });
  assert.equal(r.status, 0, r.stderr);
});

/** One JSON-RPC request answered by answerMcp over a server of `fs`, as an edge function answers it. */
async function edge(fs, method, params) {
  const request = new Request("https://docs.example.com/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const response = await answerMcp(request, createMcpServer(fs, { docs: "the docs" }));
  assert.equal(response.status, 200);
  return (await response.json()).result;
}
const text = (result) => result.content.map((c) => c.text).join("");

test("at the edge, bash's version runs the line over that version, on a session kept for the next call", async () => {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION });
  try {
    const tools = (await edge(fs, "tools/list", {})).tools;
    const bash = tools.find((t) => t.name === "bash");
    assert.deepEqual(bash.inputSchema.properties.version.enum, PUBLIC, "the versions this session sees, never the hidden one");
    assert.deepEqual(tools.find((t) => t.name === "search").inputSchema.properties.version.enum, PUBLIC);
    const v3 = await edge(fs, "tools/call", { name: "bash", arguments: { command: "ls / && grep -rh installer /", version: "v3" } });
    assert.equal(v3.isError, false, JSON.stringify(v3));
    assert.equal(text(v3), "faq.md\nv3\nInstall release v3 with the installer.\n");
    const all = await edge(fs, "tools/call", { name: "bash", arguments: { command: "ls / | wc -l" } });
    assert.equal(text(all).trim(), "11", "without a version, every version the session sees");
    const search = await edge(fs, "tools/call", { name: "search", arguments: { query: "install release installer", version: "v7" } });
    assert.deepEqual(search.structuredContent.results.map((h) => h.version ?? null).filter(Boolean), ["v7"]);
    const hidden = await edge(fs, "tools/call", { name: "bash", arguments: { command: "ls /", version: "v99-beta" } });
    assert.equal(hidden.isError, true);
    assert.doesNotMatch(text(hidden), /secret/);
    // The session of a version is opened once, kept for the next call, and a few at most.
    const first = await fs.ofVersion("v3");
    assert.equal(await fs.ofVersion("v3"), first, "the call's session of v3 is kept");
    for (const v of PUBLIC.filter((v) => v !== "v3")) await fs.ofVersion(v);
    assert.notEqual(await fs.ofVersion("v3"), first, "more versions than are kept: the least recently used was freed");
    assert.throws(() => first.readdir("/"), "a freed session is not used again");
    await assert.rejects(fs.ofVersion("v99-beta"), (e) => e.code === "EINVAL" && e.message.endsWith(`the versions are ${PUBLIC.join(", ")}`));
    // A call holds its session: letting it go (more versions used) frees it once released.
    const held = await fs.leaseVersion("v3");
    const rival = fs.leaseVersion("v3");
    for (const v of PUBLIC.filter((v) => v !== "v3")) await fs.ofVersion(v);
    assert.equal((await rival).fs, held.fs, "two calls of one version share its session");
    assert.ok((await held.fs.readdir("/")).length > 0, "a session let go of while leased still answers");
    held.release();
    held.release(); // a second release changes nothing
    assert.ok((await held.fs.readdir("/")).length > 0, "and while another lease holds it");
    (await rival).release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.throws(() => held.fs.readdir("/"), "freed once the last lease is released");
    assert.notEqual(await fs.ofVersion("v3"), held.fs, "a version let go of is opened anew");
    await assert.rejects(fs.leaseVersion("v99-beta"), (e) => e.code === "EINVAL");
  } finally {
    fs.free();
  }
  const staff = await ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION, groups: ["staff"] });
  try {
    const bash = (await edge(staff, "tools/list", {})).tools.find((t) => t.name === "bash");
    assert.deepEqual(bash.inputSchema.properties.version.enum, [...PUBLIC, "v99-beta"]);
    const beta = await edge(staff, "tools/call", { name: "bash", arguments: { command: "cat /beta/setup.md", version: "v99-beta" } });
    assert.equal(text(beta), "# Beta setup\nThe installer of the beta is secret.\n");
  } finally {
    staff.free();
  }
  const scoped = await ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION, version: "v2" });
  try {
    assert.equal(await scoped.ofVersion("v2"), scoped, "a session scoped to v2 is its own session of v2");
    const own = await scoped.leaseVersion("v2");
    assert.equal(own.fs, scoped, "and its lease of v2 holds itself");
    own.release();
    assert.ok((await scoped.readdir("/")).length > 0, "releasing it frees nothing");
    await assert.rejects(scoped.ofVersion("v3"), (e) => e.code === "EINVAL" && /the versions are v2$/.test(e.message));
  } finally {
    scoped.free();
  }
});

for (const workers of [0, 1]) {
  test(`over HTTP with tokens (${workers ? "in a worker" : "in the server's thread"}), each caller's tools offer the versions it sees`, async () => {
    const versions = { names: PUBLIC, default: "v10", exact: false };
    const http = await serveHttp({ url: chromaUrl(), collection: COLLECTION }, { authorize: tokenAuthorizer(TOKENS), versions, workers });
    const open = async (token) => {
      const client = new Client({ name: "test", version: "1" });
      const headers = token ? { authorization: `Bearer ${token}` } : {};
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
      return client;
    };
    const offered = async (client) => {
      const tools = (await client.listTools()).tools;
      return ["bash", "search"].map((name) => tools.find((t) => t.name === name).inputSchema.properties.version.enum);
    };
    const alice = await open("alice-0123456789abcdef");
    const staff = await open("staff-0123456789abcdef");
    const anonymous = await open(null);
    try {
      // Asked in turn, so that a definition made for one caller could be served to the next.
      assert.deepEqual(await offered(staff), [[...PUBLIC, "v99-beta"], [...PUBLIC, "v99-beta"]]);
      assert.deepEqual(await offered(alice), [PUBLIC, PUBLIC], "never the hidden version's name");
      assert.deepEqual(await offered(staff), [[...PUBLIC, "v99-beta"], [...PUBLIC, "v99-beta"]]);
      assert.deepEqual(await offered(anonymous), [PUBLIC, PUBLIC]);
      const refused = await alice.callTool({ name: "bash", arguments: { command: "ls /", version: "v99-beta" } });
      assert.equal(refused.isError, true);
      assert.doesNotMatch(text(refused), /secret|beta\/setup/);
      const beta = await staff.callTool({ name: "bash", arguments: { command: "ls /", version: "v99-beta" } });
      assert.equal(beta.isError, false, JSON.stringify(beta));
      assert.match(text(beta), /^beta\nfaq\.md\n/);
    } finally {
      await Promise.all([alice.close(), staff.close(), anonymous.close()]);
      await http.close();
    }
  });
}

test("over HTTP with tokens, a server that cannot reach Chroma still lists its tools, with the server's versions as examples", async () => {
  const { freePort } = await import("../helpers.mjs");
  const down = `http://127.0.0.1:${await freePort()}`;
  const versions = { names: PUBLIC, default: "v10", exact: false };
  const http = await serveHttp({ url: down, collection: COLLECTION }, { authorize: tokenAuthorizer(TOKENS), versions, workers: 0 });
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: "Bearer alice-0123456789abcdef" } } }));
    const search = (await client.listTools()).tools.find((t) => t.name === "search");
    assert.equal(search.inputSchema.properties.version.enum, undefined);
    assert.match(search.inputSchema.properties.version.description, /the versions: v1, v2, .*v10 \(the newest: v10\), and others a caller may see/);
    const r = await client.callTool({ name: "search", arguments: { query: "install", version: "v1" } });
    assert.equal(r.isError, true, "the call says the docs are out of reach");
  } finally {
    await client.close();
    await http.close();
  }
});
