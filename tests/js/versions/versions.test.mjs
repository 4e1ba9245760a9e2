// Versions of the docs, where users meet them: `chromafs ingest` marking pages by folder and
// by rule, a session scoped to one version (the library, the CLI's exec, the MCP server over
// stdio), `search --version` and the MCP search tool's `version`, each hit naming its version;
// a version that does not exist is an error naming those that do, never another version's
// pages; a version whose pages are all hidden is never named to those who cannot see them.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Bash } from "just-bash";
import { ChromaFs, safeExec } from "chromafs";
import { ROOT, chromaUrl, chromafsCli, tempDir, writeTree } from "../helpers.mjs";

const COLLECTION = "versions-cli";
const PAGES = {
  "v1/auth.md": "# Auth in v1\nSend the token in the X-Token header.\n",
  "v2/auth.md": "# Auth in v2\nSend the token as a bearer token.\n",
  "v10/auth.md": "# Auth in v10\nTokens are gone: sign requests.\n",
  "legacy/auth.md": "# Legacy auth\nThe token was a query parameter.\n",
  "changelog.md": "# Changelog\nv2 moved the token into the Authorization header.\n",
  "beta/auth.md": "# Beta auth\nThe token is a passkey now.\n",
};
const dir = tempDir("versions");
let ingested;

before(async () => {
  await writeTree(dir, PAGES);
  const rules = tempDir("versions-rules");
  await writeFile(path.join(rules, "versions.json"), JSON.stringify({ "legacy/**": "0.9", "beta/**": "v11-beta" }));
  await writeFile(path.join(rules, "access.json"), JSON.stringify({ "beta/**": { isPublic: false, groups: ["staff"] } }));
  ingested = await chromafsCli(
    "ingest", dir, "--url", chromaUrl(), "--collection", COLLECTION, "--version-folders",
    "--versions", path.join(rules, "versions.json"), "--access", path.join(rules, "access.json"),
  );
});

const connect = (options = {}) => ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION, ...options });
const exec = async (fs, line) => safeExec(new Bash({ fs, cwd: "/", customCommands: fs.commands() }), line);

test("ingest marks pages by rule and by folder, and says how many each version has", () => {
  assert.equal(ingested.status, 0, ingested.stderr);
  assert.match(ingested.stdout, /\nversions: 0\.9 \(1 page\), v1 \(1 page\), v2 \(1 page\), v10 \(1 page\), v11-beta \(1 page\); the other pages belong to every version\n/);
});

test("a session scoped to a version sees that version's pages and those of none, in every command", async () => {
  const fs = await connect({ version: "v2" });
  try {
    assert.deepEqual(fs.versions(), { versions: ["v2"], default: "v2", scoped: true });
    assert.equal((await exec(fs, "ls /")).stdout, "changelog.md\nv2\n");
    const grep = await exec(fs, "grep -rl token /");
    assert.equal(grep.stdout, "/changelog.md\n/v2/auth.md\n");
    const cat = await exec(fs, "cat /v1/auth.md");
    assert.equal(cat.exitCode, 1);
    assert.equal(cat.stderr, "cat: /v1/auth.md: No such file or directory\n", "another version's page is absent, as a page never there");
    assert.equal((await exec(fs, "find / -type f | wc -l")).stdout.trim(), "2");
  } finally {
    fs.free();
  }
});

test("the versions a session is told of are those of the pages it may see", async () => {
  const pub = await connect();
  const staff = await connect({ groups: ["staff"] });
  try {
    assert.deepEqual(pub.versions(), { versions: ["0.9", "v1", "v2", "v10"], default: "v10", scoped: false });
    assert.deepEqual(staff.versions().versions, ["0.9", "v1", "v2", "v10", "v11-beta"]);
  } finally {
    pub.free();
    staff.free();
  }
  await assert.rejects(connect({ version: "v9" }), (e) => e.code === "EINVAL" && /version "v9" does not exist; the versions are 0\.9, v1, v2, v10$/.test(e.message));
  await assert.rejects(connect({ version: "v11-beta" }), (e) => !/beta",|, v11-beta/.test(e.message) && /the versions are 0\.9, v1, v2, v10$/.test(e.message), "a hidden version is not named");
  const beta = await connect({ version: "v11-beta", groups: ["staff"] });
  assert.equal((await exec(beta, "ls /beta")).stdout, "auth.md\n");
  beta.free();
});

test("search --version keeps that version and the pages of none, and each hit names its version", async () => {
  const fs = await connect();
  try {
    const hits = await fs.search("send the token", { version: "v1", mode: "lexical" });
    assert.deepEqual(hits.map((h) => [h.path, h.version]).sort(), [["/changelog.md", undefined], ["/v1/auth.md", "v1"]]);
    const all = await fs.search("token", { k: 10, mode: "lexical" });
    assert.ok(all.some((h) => h.version === "v10") && all.some((h) => h.version === undefined), JSON.stringify(all));
    await assert.rejects(fs.search("token", { version: "v3" }), (e) => e.code === "EINVAL" && /the versions are 0\.9, v1, v2, v10/.test(e.message));
    const line = await exec(fs, "search --version 0.9 --json token");
    assert.equal(line.exitCode, 0, line.stderr);
    const found = line.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(found.map((h) => [h.path, h.version ?? null]).sort(), [["/changelog.md", null], ["/legacy/auth.md", "0.9"]]);
    const missing = await exec(fs, "search --version v3 token");
    assert.deepEqual([missing.exitCode, missing.stdout], [2, ""]);
    assert.equal(missing.stderr, 'search: version "v3" does not exist; the versions are 0.9, v1, v2, v10\n');
  } finally {
    fs.free();
  }
});

test("the CLI's exec is scoped by --docs-version, and says which versions exist", async () => {
  const r = await chromafsCli("exec", "grep -rh token /", "--url", chromaUrl(), "--collection", COLLECTION, "--docs-version", "v1");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "v2 moved the token into the Authorization header.\nSend the token in the X-Token header.\n");
  const bad = await chromafsCli("exec", "ls", "--url", chromaUrl(), "--collection", COLLECTION, "--docs-version", "nope");
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /version "nope" does not exist; the versions are 0\.9, v1, v2, v10\n$/);
});

test("the MCP server over stdio: the search tool takes a version, and the server may be scoped to one", async () => {
  const cli = path.join(ROOT, "pkg/bin/chromafs.mjs");
  const open = async (...args) => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--url", chromaUrl(), "--collection", COLLECTION, ...args], stderr: "pipe" }));
    return client;
  };
  const client = await open();
  try {
    const tools = (await client.listTools()).tools;
    assert.ok(tools.find((t) => t.name === "search").inputSchema.properties.version, "search takes a version");
    const r = await client.callTool({ name: "search", arguments: { query: "send the token header", version: "v2" } });
    assert.equal(r.isError, false, JSON.stringify(r));
    const versions = r.structuredContent.results.map((h) => h.version ?? null);
    assert.ok(versions.includes("v2") && versions.every((v) => v === "v2" || v === null), JSON.stringify(r.structuredContent));
    assert.match(r.content[0].text, /\/v2\/auth\.md:\d+-\d+ \(version v2\)/);
    const bad = await client.callTool({ name: "search", arguments: { query: "token", version: "v3" } });
    assert.equal(bad.isError, true);
    // Over stdio the tool's schema lists the versions: the SDK refuses another, naming them.
    assert.match(bad.content.map((c) => c.text).join(""), /Expected '0\.9' \| 'v1' \| 'v2' \| 'v10', received 'v3'/);
  } finally {
    await client.close();
  }
  const scoped = await open("--docs-version", "v10");
  try {
    const r = await scoped.callTool({ name: "bash", arguments: { command: "ls / && grep -rli token /" } });
    assert.equal(r.isError, false, JSON.stringify(r));
    assert.match(r.content[0].text, /^changelog\.md\ntmp\nv10\n\/changelog\.md\n\/v10\/auth\.md\n/, "the scratch /tmp beside one version");
  } finally {
    await scoped.close();
  }
});

test("the MCP server over HTTP: the search tool's version, in the worker that runs the call", async () => {
  const { serveHttp } = await import("chromafs/mcp");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const versions = { names: ["0.9", "v1", "v2", "v10"], default: "v10", exact: false };
  const http = await serveHttp({ url: chromaUrl(), collection: COLLECTION }, { docs: "the versioned docs", versions });
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const r = await client.callTool({ name: "search", arguments: { query: "token query parameter", version: "0.9" } });
    assert.equal(r.isError, false, JSON.stringify(r));
    const found = r.structuredContent.results.map((h) => [h.path, h.version ?? null]).sort();
    assert.deepEqual(found, [["/changelog.md", null], ["/legacy/auth.md", "0.9"]]);
    const hidden = await client.callTool({ name: "search", arguments: { query: "passkey", version: "v11-beta" } });
    assert.equal(hidden.isError, true, "an anonymous caller cannot choose a version of hidden pages");
    assert.doesNotMatch(hidden.content.map((c) => c.text).join(""), /passkey|beta\/auth/);
    const bash = await client.callTool({ name: "bash", arguments: { command: "ls /", version: "0.9" } });
    assert.equal(bash.isError, false, JSON.stringify(bash));
    assert.equal(bash.content[0].text, "changelog.md\nlegacy\ntmp\n");
    const none = await client.callTool({ name: "bash", arguments: { command: "ls /", version: "v11-beta" } });
    assert.equal(none.isError, true);
    // The caller's tools offer the versions it sees: the SDK refuses another, naming them.
    assert.match(none.content[0].text, /Expected '0\.9' \| 'v1' \| 'v2' \| 'v10', received 'v11-beta'/);
    const base = new URL(http.url).origin;
    const legacy = await fetch(`${base}/llms.txt?version=0.9`);
    assert.equal(legacy.status, 200);
    const text = await legacy.text();
    assert.match(text, /^# The versioned docs, version 0\.9\n/);
    assert.match(text, /Legacy auth/);
    assert.match(text, /Changelog/);
    assert.doesNotMatch(text, /Auth in v/);
    const hiddenVersion = await fetch(`${base}/llms-full.txt?version=v11-beta`);
    assert.equal(hiddenVersion.status, 404);
    assert.equal(await hiddenVersion.text(), 'version "v11-beta" does not exist; the versions are 0.9, v1, v2, v10\n');
  } finally {
    await client.close();
    await http.close();
  }
});

test("chromafs llms-txt writes every version's files beside the whole docs', and one version's with --docs-version", async () => {
  const { readFile, readdir } = await import("node:fs/promises");
  const out = path.join(tempDir("versions-llms"), "out");
  const r = await chromafsCli("llms-txt", "--url", chromaUrl(), "--collection", COLLECTION, "--out", out);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual((await readdir(out)).sort(), ["0.9", "llms-full.txt", "llms.txt", "v1", "v10", "v2"], "no folder for a hidden version");
  const all = await readFile(path.join(out, "llms.txt"), "utf8");
  assert.match(all, /\/v1\/auth\.md/);
  assert.doesNotMatch(all, /beta/);
  const v2 = await readFile(path.join(out, "v2", "llms.txt"), "utf8");
  assert.match(v2, /version v2/);
  assert.match(v2, /Auth in v2/);
  assert.match(v2, /Changelog/, "the pages of no version are in every version's files");
  assert.doesNotMatch(v2, /Auth in v1|Legacy|v10/);
  const one = path.join(tempDir("versions-llms1"), "out");
  const only = await chromafsCli("llms-txt", "--url", chromaUrl(), "--collection", COLLECTION, "--out", one, "--docs-version", "v1");
  assert.equal(only.status, 0, only.stderr);
  assert.deepEqual((await readdir(one)).sort(), ["llms-full.txt", "llms.txt"]);
  assert.doesNotMatch(await readFile(path.join(one, "llms-full.txt"), "utf8"), /Auth in v2/);
});

test("chromafs ingest reads a Mintlify docs.json's versions: a page listed under one belongs to it", async () => {
  const site = tempDir("versions-mintlify");
  const nav = {
    navigation: {
      versions: [
        { version: "2.0.0", tabs: [{ tab: "Docs", groups: [{ group: "Start", pages: ["v2/overview", { group: "More", pages: ["shared/faq", "v2/deep/auth"] }] }] }] },
        { version: "1.0.0", default: true, groups: [{ group: "Start", pages: ["v1/overview", "shared/faq"] }] },
      ],
    },
  };
  await writeTree(site, {
    "docs.json": JSON.stringify(nav),
    "v1/overview.mdx": "# Overview 1\nthe token\n",
    "v2/overview.mdx": "# Overview 2\nthe token\n",
    "v2/deep/auth.md": "# Auth 2\nthe token\n",
    "shared/faq.mdx": "# FAQ\nthe token\n",
    "unlisted.md": "the token\n",
  });
  const r = await chromafsCli("ingest", site, "--url", chromaUrl(), "--collection", "versions-mintlify");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /docs\.json: 3 pages of 2 versions/);
  assert.match(r.stdout, /\nversions: 1\.0\.0 \(1 page\), 2\.0\.0 \(2 pages\); the other pages belong to every version; default 1\.0\.0\n/);
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "versions-mintlify", version: "2.0.0" });
  const all = await ChromaFs.connect({ url: chromaUrl(), collection: "versions-mintlify" });
  assert.deepEqual(all.versions(), { versions: ["1.0.0", "2.0.0"], default: "1.0.0", scoped: false }, "docs.json's default, not the newest");
  all.free();
  const first = await chromafsCli("ingest", site, "--url", chromaUrl(), "--collection", "versions-mintlify", "--default-version", "2.0.0");
  assert.equal(first.status, 0, first.stderr);
  const again = await ChromaFs.connect({ url: chromaUrl(), collection: "versions-mintlify" });
  assert.equal(again.versions().default, "2.0.0", "--default-version names another; the tree is written again");
  again.free();
  const none = await chromafsCli("ingest", site, "--url", chromaUrl(), "--collection", "versions-mintlify", "--default-version", "3.0");
  assert.equal(none.status, 1);
  assert.match(none.stderr, /default version "3\.0" is the version of no page \(nothing was written\)/);
  try {
    assert.equal((await exec(fs, "grep -rl token /")).stdout, "/shared/faq.mdx\n/unlisted.md\n/v2/deep/auth.md\n/v2/overview.mdx\n");
  } finally {
    fs.free();
  }
});

test("over stdio the search tool offers the client's versions and the instructions name them", async () => {
  const cli = path.join(ROOT, "pkg/bin/chromafs.mjs");
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--url", chromaUrl(), "--collection", COLLECTION, "--groups", "staff"], stderr: "pipe" }));
  try {
    const search = (await client.listTools()).tools.find((t) => t.name === "search");
    assert.deepEqual(search.inputSchema.properties.version.enum, ["0.9", "v1", "v2", "v10", "v11-beta"]);
    assert.match(client.getInstructions(), /The docs have versions \(0\.9, v1, v2, v10, v11-beta; the newest is v11-beta\)/);
    const bash = (await client.listTools()).tools.find((t) => t.name === "bash");
    assert.deepEqual(bash.inputSchema.properties.version.enum, ["0.9", "v1", "v2", "v10", "v11-beta"], "bash takes a version too");
    const r = await client.callTool({ name: "bash", arguments: { command: "ls / && grep -rli token /", version: "v11-beta" } });
    assert.equal(r.isError, false, JSON.stringify(r));
    assert.equal(r.content[0].text, "beta\nchangelog.md\ntmp\n/beta/auth.md\n/changelog.md\n");
    const all = await client.callTool({ name: "bash", arguments: { command: "ls /" } });
    assert.equal(all.content[0].text, "beta\nchangelog.md\nlegacy\ntmp\nv1\nv10\nv2\n", "without a version, every version");
  } finally {
    await client.close();
  }
  const pub = new Client({ name: "test", version: "1" });
  await pub.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--url", chromaUrl(), "--collection", COLLECTION], stderr: "pipe" }));
  try {
    const search = (await pub.listTools()).tools.find((t) => t.name === "search");
    assert.deepEqual(search.inputSchema.properties.version.enum, ["0.9", "v1", "v2", "v10"], "a hidden version is not offered");
  } finally {
    await pub.close();
  }
  const bad = await chromafsCli("mcp", "--url", chromaUrl(), "--collection", COLLECTION, "--docs-version", "v11-beta");
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /version "v11-beta" does not exist; the versions are 0\.9, v1, v2, v10\n$/);
});
