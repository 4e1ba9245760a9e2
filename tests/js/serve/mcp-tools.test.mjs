// What an MCP client reads about the tools and gets back from them, with the SDK's own
// client: the tools in a fixed order with full annotations, the `search` tool's structured
// results (checked by the client against the tool's outputSchema) with each page's public
// URL, `search --json` with the URL in the bash tool, every protocol revision the SDK
// serves, and the command line's checks of its sign-in and source options.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { ChromaFs, ingest } from "chromafs";
import { pageUrl, serveHttp } from "chromafs/mcp";
import { ROOT, chromaUrl } from "../helpers.mjs";

const PAGES = {
  "index.mdx": "# Acme\nStart with the install guide.\n",
  "guides/index.md": "# Guides\nEvery guide, in order.\n",
  "guides/install.mdx": "# Install\nRun the installer with the --prefix option.\nThen sign in.\n",
  "api specs/v2.json": '{"openapi": "3.1.0", "info": {"title": "Widgets API"}}\n',
  "fr/demarrage.md": "# Démarrage\nOuvrez le tableau de bord.\n",
};
const BASE = "https://docs.acme.test/v1";
const CLI = path.join(ROOT, "pkg/bin/chromafs.mjs");
let withBase, plain;

before(async () => {
  const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content }));
  await ingest({ url: chromaUrl(), collection: "mcp-tools", files });
  withBase = await serveHttp({ url: chromaUrl(), collection: "mcp-tools" }, { baseUrl: BASE });
  plain = await serveHttp({ url: chromaUrl(), collection: "mcp-tools" }, { toolPrefix: "docs_" });
});
after(async () => {
  await withBase.close();
  await plain.close();
});

const text = (r) => r.content.map((c) => c.text).join("");

async function client(url) {
  const c = new Client({ name: "test", version: "1" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

test("a page's public URL: the path under the base URL, extension dropped, index as its directory", () => {
  assert.equal(pageUrl("https://docs.acme.test/", "/guides/install.mdx"), "https://docs.acme.test/guides/install");
  assert.equal(pageUrl("https://docs.acme.test/v1/", "/guides/index.md"), "https://docs.acme.test/v1/guides");
  assert.equal(pageUrl("https://docs.acme.test/v1/", "/index.mdx"), "https://docs.acme.test/v1/");
  assert.equal(pageUrl("https://docs.acme.test/", "/api specs/v2.json"), "https://docs.acme.test/api%20specs/v2");
  assert.equal(pageUrl("https://docs.acme.test/", "/Makefile"), "https://docs.acme.test/Makefile");
  assert.equal(pageUrl("https://docs.acme.test/", "/notes/.env"), "https://docs.acme.test/notes/.env");
  // A name that would be a dot segment has no address: a URL parser reads it as a step up.
  for (const path of ["/guides/..md", "/guides/...md", "/..mdx", "/a/.md.md"]) {
    const url = pageUrl("https://docs.acme.test/site/", path);
    assert.ok(url === null || new URL(url).pathname.startsWith("/site/"), `${path} → ${url}`);
  }
  assert.equal(pageUrl("https://docs.acme.test/site/", "/guides/..md"), null);
  assert.equal(pageUrl("https://docs.acme.test/site/", "/guides/...md"), null);
});

test("the tools come in a fixed order, each with every annotation", async () => {
  for (const [url, names] of [
    [withBase.url, ["bash", "search"]],
    [plain.url, ["docs_bash", "docs_search"]],
  ]) {
    const c = await client(url);
    try {
      const { tools } = await c.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        names,
      );
      for (const t of tools) {
        assert.deepEqual(t.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, t.name);
      }
      const search = tools[1];
      assert.deepEqual(Object.keys(search.outputSchema.properties.results.items.properties), ["path", "title", "startLine", "endLine", "score", "snippet", "url", "version"]);
      // The default it tells is the search command's.
      assert.match(search.inputSchema.properties.k.description, new RegExp(`\\(default ${ChromaFs.readSearchLine([], "/").k}\\)$`));
    } finally {
      await c.close();
    }
  }
});

test("search: lang keeps to one language's pages; an unknown code is the caller's error", async () => {
  const c = await client(withBase.url);
  try {
    const fr = await c.callTool({ name: "search", arguments: { query: "tableau de bord", lang: "fr" } });
    assert.deepEqual(fr.structuredContent.results.map((h) => h.path), ["/fr/demarrage.md"]);
    const en = await c.callTool({ name: "search", arguments: { query: "tableau de bord", lang: "en" } });
    assert.deepEqual([en.isError, en.structuredContent.results], [false, []]);
    const bad = await c.callTool({ name: "search", arguments: { query: "tableau", lang: "klingon" } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /unknown language 'klingon'/);
  } finally {
    await c.close();
  }
});

test("search: structured results with each page's URL, and the same as text", async () => {
  const c = await client(withBase.url);
  try {
    const r = await c.callTool({ name: "search", arguments: { query: "installer --prefix option", k: 3 } });
    assert.equal(r.isError, false);
    const { results } = r.structuredContent;
    assert.equal(results[0].path, "/guides/install.mdx");
    assert.equal(results[0].url, "https://docs.acme.test/v1/guides/install");
    assert.equal(results[0].startLine, 1);
    assert.equal(results[0].title, "Install", "the page's title, from its first heading");
    assert.ok(results.every((h) => h.url === pageUrl(`${BASE}/`, h.path) && typeof h.score === "number"), JSON.stringify(results));
    const index = results.find((h) => h.path === "/guides/index.md");
    if (index) assert.equal(index.url, "https://docs.acme.test/v1/guides");
    for (const h of results) {
      assert.ok(text(r).includes(`${h.path}:${h.startLine}-${h.endLine}\n${h.title === null ? "" : `  title: ${h.title}\n`}`), text(r));
      assert.ok(text(r).includes(`  ${h.url}\n`), text(r));
    }
    const none = await c.callTool({ name: "search", arguments: { query: "zzqxv", path: "/guides" } });
    assert.deepEqual(none.structuredContent, { results: [] });
    assert.equal(none.isError, false);
    assert.equal(text(none), "search: no page answers the query\n[exit code 1]");
  } finally {
    await c.close();
  }
  const p = await client(plain.url);
  try {
    const r = await p.callTool({ name: "docs_search", arguments: { query: "installer --prefix option", k: 1 } });
    assert.deepEqual(r.structuredContent.results.map((h) => [h.path, h.url]), [["/guides/install.mdx", null]]);
  } finally {
    await p.close();
  }
});

test("search --json in the bash tool carries the URL; the other formats are unchanged", async () => {
  const c = await client(withBase.url);
  try {
    const json = text(await c.callTool({ name: "bash", arguments: { command: "search --json -n 2 installer prefix" } }));
    const first = JSON.parse(json.split("\n")[0]);
    assert.deepEqual(Object.keys(first), ["path", "startLine", "endLine", "score", "snippet", "title", "url"]);
    assert.equal(first.title, "Install");
    assert.equal(first.url, "https://docs.acme.test/v1/guides/install");
    const blocks = text(await c.callTool({ name: "bash", arguments: { command: "search -n 1 installer prefix" } }));
    assert.match(blocks, /^\/guides\/install\.mdx:1-\d+\n {2}title: Install\n {2}\d+: /);
    assert.doesNotMatch(blocks, /https:/);
    const piped = text(await c.callTool({ name: "bash", arguments: { command: "search --json -n 1 installer prefix | jq -r .url" } }));
    assert.equal(piped, "https://docs.acme.test/v1/guides/install\n");
  } finally {
    await c.close();
  }
});

test("every protocol revision the SDK serves is negotiated and answers tools/list", async () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    const post = (body, extra = {}) =>
      fetch(withBase.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    assert.equal(init.status, 200, version);
    assert.equal((await init.json()).result.protocolVersion, version);
    const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": version });
    assert.equal(list.status, 200, version);
    assert.deepEqual(
      (await list.json()).result.tools.map((t) => t.name),
      ["bash", "search"],
      version,
    );
  }
});

test("over stdio, --base-url gives the search tool's results their URLs", async () => {
  const c = new Client({ name: "test", version: "1" });
  const args = [CLI, "mcp", "--url", chromaUrl(), "--collection", "mcp-tools", "--base-url", "https://docs.acme.test"];
  await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
  try {
    const r = await c.callTool({ name: "search", arguments: { query: "installer --prefix option", k: 1 } });
    assert.equal(r.structuredContent.results[0].url, "https://docs.acme.test/guides/install");
  } finally {
    await c.close();
  }
});

test("over stdio, --mount serves several doc sets: bash and search across them, each page's URL from its mount's site", async () => {
  await ingest({ url: chromaUrl(), collection: "mcp-tools-api", files: [{ path: "v2/keys.md", content: "# Keys\nRotate a key with the installer --prefix option.\n" }] });
  const c = new Client({ name: "test", version: "1" });
  const args = [CLI, "mcp", "--url", chromaUrl(), "--mount", "/guide=mcp-tools@https://docs.acme.test", "--mount", "/api=mcp-tools-api@https://api.acme.test/ref"];
  await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
  try {
    const ls = await c.callTool({ name: "bash", arguments: { command: "ls / && grep -rln -- --prefix /" } });
    assert.equal(text(ls), "api\nguide\ntmp\n/api/v2/keys.md\n/guide/guides/install.mdx\n", "GNU grep names the files below / as /a");
    const r = await c.callTool({ name: "search", arguments: { query: "installer --prefix option", k: 2 } });
    assert.deepEqual(r.structuredContent.results.map((h) => h.url).sort(), ["https://api.acme.test/ref/v2/keys", "https://docs.acme.test/guides/install"]);
    const one = await c.callTool({ name: "search", arguments: { query: "installer --prefix option", path: "/api" } });
    assert.deepEqual(one.structuredContent.results.map((h) => h.path), ["/api/v2/keys.md"]);
  } finally {
    await c.close();
  }
});

/** Runs the CLI to its end: `{ code, stderr }`. */
function cli(args, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

test("the command line refuses sign-in and source options that cannot work, and says why", async () => {
  const conn = ["--url", chromaUrl(), "--collection", "mcp-tools"];
  const cases = [
    [["--audience", "https://x.test/mcp", "--http", "0"], 2, /--audience applies to --issuer/],
    [["--issuer", "https://login.test"], 2, /--issuer applies to --http/],
    [["--http", "0", "--issuer", "not a url"], 2, /--issuer must be an http\(s\) URL/],
    [["--http", "0", "--issuer", "https://login.test", "--tokens", "/nonexistent"], 2, /--tokens and --issuer/],
    [["--http", "0", "--public-url", "ftp://docs.test"], 2, /--public-url must be an http\(s\) URL/],
    [["--base-url", "https://docs.test/?a=1"], 2, /--base-url must be an http\(s\) URL without query/],
    [["--http", "0", "--issuer", "http://127.0.0.1:9"], 1, /--issuer: the issuer's metadata could not be read/],
  ];
  for (const [args, code, message] of cases) {
    const r = await cli(["mcp", ...conn, ...args]);
    assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
  }
  for (const mount of ["/..=mcp-tools", "/.=mcp-tools", "/../x=mcp-tools"]) {
    const r = await cli(["mcp", "--url", chromaUrl(), "--mount", mount]);
    assert.equal(r.code, 2, `${mount}: ${r.stderr}`);
    assert.match(r.stderr, /--mount/, mount);
    assert.doesNotMatch(r.stderr, /TypeError|at .*\.m?js:\d+/, `${mount}: no stack trace`);
  }
});
