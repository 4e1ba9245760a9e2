// A question only another version of the docs answers: `search --version V` that finds no
// page of V (nor of no version) says which versions' pages answer it, through the library
// (`fs.search()`'s `otherVersions`), the CLI's exec (stderr, exit 1, nothing on stdout) and
// the MCP search tool (its text and its structured `otherVersions`), over stdio and HTTP;
// never naming a page its caller may not see, and never for a session scoped to one version.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Bash } from "just-bash";
import { ChromaFs, safeExec } from "chromafs";
import { ROOT, chromaUrl, chromafsCli } from "../helpers.mjs";
import { ingestVersioned } from "./ingested.mjs";

const COLLECTION = "versions-elsewhere";
const PAGES = {
  "v1/auth.md": "# Auth in v1\nSend the token in the X-Token header.\n",
  "v2/auth.md": "# Auth in v2\nSend the token as a bearer token.\n",
  "v2/webhooks.md": "# Webhooks\nVerify webhook signatures with the signing secret.\n",
  "v3/webhooks.md": "# Webhooks in v3\nWebhook signatures are verified with a rotating signing secret.\n",
  "changelog.md": "# Changelog\nv2 moved the token into the Authorization header.\n",
  "beta/webhooks.md": "# Beta webhooks\nWebhook signatures use a signing secret per endpoint.\n",
};
const QUESTION = "verify webhook signatures signing secret";
let ingested;

before(async () => {
  ingested = await ingestVersioned(COLLECTION, PAGES, { versions: { "beta/**": "v4-beta" }, access: { "beta/**": { isPublic: false, groups: ["staff"] } } });
});

const connect = (options = {}) => ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION, ...options });
const named = (hits) => hits.map((h) => [h.path, h.version ?? null]).sort();

test("fs.search(): no page of v1 answers, so the array is empty and otherVersions names v2's and v3's pages", async () => {
  assert.equal(ingested.status, 0, ingested.stderr);
  const fs = await connect();
  const staff = await connect({ groups: ["staff"] });
  const scoped = await connect({ version: "v1" });
  try {
    const none = await fs.search(QUESTION, { version: "v1" });
    assert.equal(none.length, 0, JSON.stringify(none));
    assert.deepEqual(named(none.otherVersions), [["/v2/webhooks.md", "v2"], ["/v3/webhooks.md", "v3"]], "never the hidden beta page");
    assert.ok(none.otherVersions.every((h) => h.startLine >= 1 && typeof h.snippet === "string"), "each is a hit to read");
    const found = await fs.search(QUESTION, { version: "v2" });
    assert.deepEqual(named(found), [["/v2/webhooks.md", "v2"]]);
    assert.equal(found.otherVersions, undefined, "a version that answers names no other");
    const nothing = await fs.search("kubernetes helm chart", { version: "v1" });
    assert.deepEqual([nothing.length, nothing.otherVersions], [0, undefined], "no version answers: none named");
    const all = await staff.search(QUESTION, { version: "v1" });
    assert.deepEqual(named(all.otherVersions), [["/beta/webhooks.md", "v4-beta"], ["/v2/webhooks.md", "v2"], ["/v3/webhooks.md", "v3"]], "staff see the beta version");
    const own = await scoped.search(QUESTION, { version: "v1" });
    assert.deepEqual([own.length, own.otherVersions], [0, undefined], "a session scoped to v1 sees no other version");
    await assert.rejects(fs.search(QUESTION, { version: "v9" }), (e) => e.code === "EINVAL" && /the versions are v1, v2, v3$/.test(e.message));
    await assert.rejects(fs.search(QUESTION, { version: "v4-beta" }), (e) => e.code === "EINVAL" && !/beta"?,/.test(e.message));
  } finally {
    fs.free();
    staff.free();
    scoped.free();
  }
});

test("the search command in a shell: nothing on stdout, exit 1, and stderr names the other versions' pages", async () => {
  const fs = await connect();
  try {
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    const r = await safeExec(bash, `search --version v1 ${QUESTION}`);
    assert.deepEqual([r.stdout, r.exitCode], ["", 1]);
    assert.match(r.stderr, /^search: no page of version v1 answers the query; pages of other versions do: \/v[23]\/webhooks\.md \(version v[23]\), \/v[23]\/webhooks\.md \(version v[23]\)\n$/);
    const json = await safeExec(bash, `search --json --version v1 ${QUESTION} || echo "exit $?"`);
    assert.equal(json.stdout, "exit 1\n");
    const usual = await safeExec(bash, "search --version v1 kubernetes helm chart");
    assert.deepEqual([usual.stdout, usual.stderr, usual.exitCode], ["", "search: no page answers the query\n", 1]);
  } finally {
    fs.free();
  }
});

test("the CLI's exec says it too, and a caller that may not see a version is not told of it", async () => {
  const args = ["--url", chromaUrl(), "--collection", COLLECTION];
  const pub = await chromafsCli("exec", `search --version v1 ${QUESTION}`, ...args);
  assert.deepEqual([pub.status, pub.stdout], [1, ""]);
  assert.match(pub.stderr, /^search: no page of version v1 answers the query; pages of other versions do: .*\/v2\/webhooks\.md \(version v2\)/);
  assert.doesNotMatch(pub.stderr, /beta/);
  const staff = await chromafsCli("exec", `search --version v3 ${QUESTION} -n 1`, ...args, "--groups", "staff");
  assert.equal(staff.status, 0, staff.stderr);
  assert.match(staff.stdout, /^\/v3\/webhooks\.md:\d+-\d+\n/);
  const scoped = await chromafsCli("exec", `search --version v1 ${QUESTION}`, ...args, "--docs-version", "v1");
  assert.deepEqual([scoped.status, scoped.stdout, scoped.stderr], [1, "", "search: no page answers the query\n"], "scoped to v1: no other version to name");
  const missing = await chromafsCli("exec", `search --version v7 ${QUESTION}`, ...args);
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, 'search: version "v7" does not exist; the versions are v1, v2, v3\n');
});

/** The search tool's answer for a question of v1: its text says so, its structure names the others. */
function assertOtherVersions(r, expected) {
  assert.equal(r.isError, false, JSON.stringify(r));
  assert.deepEqual(r.structuredContent.results, []);
  assert.deepEqual(named(r.structuredContent.otherVersions), expected);
  const text = r.content.map((c) => c.text).join("");
  assert.match(text, /^No page of version v1 answers this query\. Pages of other versions do:\n\/v[23]\/webhooks\.md:\d+-\d+ \(version v[23]\)\n/);
  assert.doesNotMatch(text, /beta/);
}

test("the MCP search tool over stdio: plain text and structured otherVersions", async () => {
  const client = new Client({ name: "test", version: "1" });
  const cli = path.join(ROOT, "pkg/bin/chromafs.mjs");
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--url", chromaUrl(), "--collection", COLLECTION], stderr: "pipe" }));
  try {
    const search = (await client.listTools()).tools.find((t) => t.name === "search");
    assert.ok(search.outputSchema.properties.otherVersions, "the output schema declares otherVersions");
    const r = await client.callTool({ name: "search", arguments: { query: QUESTION, version: "v1" } });
    assertOtherVersions(r, [["/v2/webhooks.md", "v2"], ["/v3/webhooks.md", "v3"]]);
    const answered = await client.callTool({ name: "search", arguments: { query: QUESTION, version: "v3" } });
    assert.equal(answered.structuredContent.otherVersions, undefined);
    assert.equal(answered.structuredContent.results[0].path, "/v3/webhooks.md");
  } finally {
    await client.close();
  }
});

test("the MCP search tool over HTTP: the same, computed in the worker that runs the call", async () => {
  const { serveHttp } = await import("chromafs/mcp");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const http = await serveHttp({ url: chromaUrl(), collection: COLLECTION }, { docs: "the versioned docs" });
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const r = await client.callTool({ name: "search", arguments: { query: QUESTION, version: "v1" } });
    assertOtherVersions(r, [["/v2/webhooks.md", "v2"], ["/v3/webhooks.md", "v3"]]);
    const bash = await client.callTool({ name: "bash", arguments: { command: `search --version v1 ${QUESTION}; echo "exit $?"` } });
    assert.match(bash.content[0].text, /search: no page of version v1 answers the query; pages of other versions do: /);
    assert.match(bash.content[0].text, /exit 1/);
  } finally {
    await client.close();
    await http.close();
  }
});
