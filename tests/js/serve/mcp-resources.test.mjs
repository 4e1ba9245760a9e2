// The docs' pages as MCP resources, with the MCP SDK's own client over stdio (the CLI, as an
// agent launches it) and over streamable HTTP (bearer tokens with groups): a URI template per
// mount, the caller's pages listed a page at a time with cursors, a page read as `cat` reads
// it; a hidden page is never listed, read or counted, and never changes a cursor. Also what
// the server declares: instructions, tool titles, and no capability it cannot honour.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs, ingest } from "chromafs";
import { serveHttp, tokenAuthorizer } from "chromafs/mcp";
import { ROOT, chromaUrl } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

// 130 public pages and hidden ones among them (in the first hundred, and in a section of their
// own), so that a list takes two pages and a hidden page sits where a cursor could move.
const PUBLIC = {
  "index.md": "---\ntitle: Acme docs\n---\n# Acme\nStart here.\n",
  "auth/rotate-api_keys.mdx": "# Rotating keys\nRotate them yearly.\n",
  "api/spec.json": '{"openapi":"3.1.0"}\n',
  "notes.txt": "plain text\n",
  ...Object.fromEntries(Array.from({ length: 126 }, (_, i) => [`many/p${String(i).padStart(3, "0")}.md`, `page ${i}\n`])),
};
const HIDDEN = {
  "many/p050-secret.md": "the escalation rota\n",
  "internal/oncall.md": "Page the escalation rota.\n",
};
const ACCESS = { "internal/**": { isPublic: false, groups: ["staff"] }, "many/*-secret.md": { isPublic: false, groups: ["staff"] } };
const TOKENS = { "staff-secret-token": ["staff"], "public-token-0123456": [] };
const files = (pages) => Object.entries(pages).map(([p, content]) => ({ path: p, content }));
let http;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "mcp-resources", files: files({ ...PUBLIC, ...HIDDEN }), access: ACCESS });
  await ingest({ url: chromaUrl(), collection: "mcp-resources-public", files: files(PUBLIC) });
  http = await serveHttp({ url: chromaUrl(), collection: "mcp-resources" }, { authorize: tokenAuthorizer(TOKENS), docs: "the Acme docs" });
});
after(async () => {
  await http?.close();
});

async function httpClient(token) {
  const client = new Client({ name: "test", version: "1" });
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
  return client;
}

async function stdioClient(...args) {
  const client = new Client({ name: "test", version: "1" });
  const cli = path.join(ROOT, "pkg/bin/chromafs.mjs");
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--url", chromaUrl(), ...args], stderr: "pipe" }));
  return client;
}

/** Every page of a client's list, following cursors: the answers as they came. */
async function listAll(client) {
  const answers = [];
  let cursor;
  do {
    const answer = await client.listResources(cursor === undefined ? {} : { cursor });
    answers.push(answer);
    cursor = answer.nextCursor;
  } while (cursor !== undefined && answers.length < 10);
  return answers;
}

const names = (answers) => answers.flatMap((a) => a.resources.map((r) => r.name));
const sorted = (xs) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The error a read rejects with, as a client sees it. */
const readError = (client, uri) => client.readResource({ uri }).then(() => assert.fail(`${uri} was read`), (e) => ({ code: e.code, message: e.message.replace(uri, "URI") }));

test("over stdio: the server says how to use its tools, titles them, and declares only what it does", async () => {
  const client = await stdioClient("--collection", "mcp-resources");
  try {
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps.tools, {}, "the tool list never changes, so no listChanged");
    assert.deepEqual(caps.resources, {}, "resources, without subscriptions or list changes");
    assert.equal(caps.prompts, undefined);
    const instructions = client.getInstructions();
    assert.match(instructions, /the mcp-resources docs/);
    assert.match(instructions, /call search with a question/);
    assert.match(instructions, /grep -rn or rg in bash/);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.title]),
      [
        ["bash", "Read-only shell over the mcp-resources docs"],
        ["search", "Search the mcp-resources docs"],
      ],
    );
  } finally {
    await client.close();
  }
});

test("over stdio: a template, the pages a page at a time, each read as cat reads it", async () => {
  const client = await stdioClient("--collection", "mcp-resources");
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "mcp-resources" });
  try {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ["chromafs://docs/{+path}"],
    );
    const answers = await listAll(client);
    assert.deepEqual(
      answers.map((a) => a.resources.length),
      [100, 30],
    );
    assert.deepEqual(names(answers), sorted(Object.keys(PUBLIC).map((p) => `/${p}`)), "every public page once, in path order, none hidden");
    const byName = Object.fromEntries(answers.flatMap((a) => a.resources).map((r) => [r.name, r]));
    assert.deepEqual(byName["/auth/rotate-api_keys.mdx"], { uri: "chromafs://docs/auth/rotate-api_keys.mdx", name: "/auth/rotate-api_keys.mdx", title: "Rotating keys", mimeType: "text/markdown" });
    assert.equal(byName["/api/spec.json"].mimeType, "application/json");
    assert.equal(byName["/notes.txt"].mimeType, "text/plain");
    // What a page says it is (front matter, else its first heading), else its file name.
    assert.equal(byName["/index.md"].title, "Acme docs");
    assert.equal(byName["/notes.txt"].title, "Notes");
    assert.equal(byName["/many/p120.md"].title, "P120");
    for (const name of ["/index.md", "/auth/rotate-api_keys.mdx", "/api/spec.json"]) {
      const { contents } = await client.readResource({ uri: byName[name].uri });
      assert.deepEqual(contents, [{ uri: byName[name].uri, mimeType: byName[name].mimeType, text: await fs.readFile(name, "utf8") }]);
    }
    // Not pages: a directory, the scratch directory, another host, a path that climbs out.
    const missing = await readError(client, "chromafs://docs/nope.md");
    assert.deepEqual(missing, { code: -32002, message: "MCP error -32002: Resource not found" });
    for (const uri of ["chromafs://docs/auth", "chromafs://docs/tmp", "chromafs://docs/dev/null", "chromafs://other/index.md", "chromafs://docs/../index.md", "file:///etc/passwd"]) {
      assert.deepEqual(await readError(client, uri), missing, uri);
    }
    await assert.rejects(client.listResources({ cursor: "not a cursor!" }), (e) => e.code === -32602);
  } finally {
    await client.close();
  }
});

test("a hidden page is never listed, read or counted, and never moves a cursor", async () => {
  const stdio = await stdioClient("--collection", "mcp-resources");
  const stdioPublic = await stdioClient("--collection", "mcp-resources-public");
  const staffStdio = await stdioClient("--collection", "mcp-resources", "--groups", "staff");
  const anon = await httpClient();
  const pub = await httpClient("public-token-0123456");
  const staff = await httpClient("staff-secret-token");
  try {
    // The same answers, cursors included, as over docs that never had the hidden pages.
    const reference = await listAll(stdioPublic);
    for (const [who, client] of [
      ["stdio", stdio],
      ["anonymous", anon],
      ["public token", pub],
    ]) {
      assert.deepEqual(await listAll(client), reference, who);
      for (const p of Object.keys(HIDDEN)) {
        assert.deepEqual(await readError(client, `chromafs://docs/${p}`), await readError(client, `chromafs://docs/${p.replace(/\.md$/, "-gone.md")}`), `${who}: ${p} is as missing as a page never there`);
      }
    }
    for (const client of [staff, staffStdio]) {
      const seen = names(await listAll(client));
      assert.deepEqual(seen, sorted([...Object.keys(PUBLIC), ...Object.keys(HIDDEN)].map((p) => `/${p}`)));
      const { contents } = await client.readResource({ uri: "chromafs://docs/internal/oncall.md" });
      assert.equal(contents[0].text, HIDDEN["internal/oncall.md"]);
    }
  } finally {
    await Promise.all([stdio, stdioPublic, staffStdio, anon, pub, staff].map((c) => c.close()));
  }
});

test("with mounts, a template per mount and each page under its mount's host", async () => {
  const client = await stdioClient("--mount", "/docs=mcp-resources", "--mount", "/public=mcp-resources-public");
  try {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ["chromafs://docs/{+path}", "chromafs://public/{+path}"],
    );
    const all = (await listAll(client)).flatMap((a) => a.resources);
    assert.equal(all.length, 2 * Object.keys(PUBLIC).length);
    assert.ok(!all.some((r) => /secret|internal/.test(r.uri)));
    const page = all.find((r) => r.name === "/public/auth/rotate-api_keys.mdx");
    assert.equal(page.uri, "chromafs://public/auth/rotate-api_keys.mdx");
    assert.equal(page.title, "Rotating keys", "each mount titles its own pages");
    const { contents } = await client.readResource({ uri: page.uri });
    assert.equal(contents[0].text, PUBLIC["auth/rotate-api_keys.mdx"]);
    assert.deepEqual(await readError(client, "chromafs://docs/internal/oncall.md"), await readError(client, "chromafs://docs/internal/gone.md"));
  } finally {
    await client.close();
  }
});

test("what a list or a read costs does not grow with the docs, and a hidden page costs what a missing one does", async () => {
  const front = await startProxy(chromaUrl(), { quotas: true });
  const server = await serveHttp({ url: front.url, collection: "mcp-resources" }, { workers: 1 });
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  try {
    await client.listResources(); // the worker's session opens
    const cost = async (ask) => {
      front.reset();
      await ask();
      return front.requests.map((r) => `${r.method} ${r.url.replace(/[0-9a-f-]{36}/g, "ID")}`);
    };
    const first = await cost(() => client.listResources());
    const { nextCursor } = await client.listResources();
    const second = await cost(() => client.listResources({ cursor: nextCursor }));
    assert.equal(first.length, 2, `the freshness check and the list's titles in one request: ${first.join("\n")}`);
    assert.deepEqual(second, first, "each page of the list costs the same");
    const hidden = await cost(() => client.readResource({ uri: "chromafs://docs/internal/oncall.md" }).catch(() => null));
    const missing = await cost(() => client.readResource({ uri: "chromafs://docs/internal/gone.md" }).catch(() => null));
    assert.deepEqual(hidden, missing);
    assert.deepEqual(hidden, first.slice(0, 1), "a page that is not there is answered from the listing, after the freshness check");
    const page = await cost(() => client.readResource({ uri: "chromafs://docs/many/p007.md" }));
    assert.ok(page.length <= 2, page.join("\n"));
    assert.deepEqual(front.violations, []);
  } finally {
    await client.close();
    await server.close();
    await front.close();
  }
});
