// End to end: the bundle `wrangler deploy --dry-run` produces, run in workerd (Miniflare)
// against a real Chroma. Uses $CHROMAFS_TEST_URL when set, else starts Chroma 1.5.9 itself.
//   timeout 600 node --test --test-timeout=300000 test.mjs
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ingest, openAiEmbedder } from "chromafs";
import { SignJWT } from "jose";
import { startIdentityProvider } from "../../support/identity-provider.mjs";
import { startEmbeddingService } from "../../support/embedding-service.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHROMA_SH = path.resolve(HERE, "../../scripts/chroma.sh");
const DIST = path.join(HERE, "dist");
const COLLECTION = `cf-worker-example-${process.pid}-${Date.now()}`;

const QUICKSTART = "# Quickstart\n\nCall the API with an access_token header.\nThat is all.\n";
const BILLING = "# Billing\n\nThe invoice run uses the ledger secret LEDGER-7731.\n";
// Enough pages that reading each one would show in the request count.
const FILLER = Array.from({ length: 60 }, (_, i) => ({
  path: `reference/page-${String(i).padStart(2, "0")}.md`,
  content: `# Page ${i}\n\nNothing to see here, line ${i}.\n`,
}));
const FILES = [
  { path: "index.md", content: "# Docs\n\nStart with guides/quickstart.md.\n" },
  { path: "guides/quickstart.md", content: QUICKSTART },
  { path: "guides/auth.md", content: "# Auth\n\nTokens expire; refresh the access_token hourly.\n" },
  { path: "internal/billing.md", content: BILLING },
  ...FILLER,
];

// The MCP endpoint's bearer tokens and the groups each one has.
const TOKENS = { "public-token-0001-abcd": [], "admin-token-0002-abcd": ["admin"] };

let chromaUrl = process.env.CHROMAFS_TEST_URL;
let port;
let dataDir;
const cacheDir = mkdtempSync(path.join(tmpdir(), "chromafs-cf-cache-"));
let mf;

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

/** workerd running the bundled worker, as Cloudflare would (no nodejs_compat). */
const worker = (url, extra = {}) =>
  new Miniflare({
    modules: true,
    scriptPath: path.join(DIST, "worker.js"),
    modulesRules: [
      { type: "ESModule", include: ["**/*.js", "**/*.mjs"] },
      { type: "CompiledWasm", include: ["**/*.wasm"] },
    ],
    compatibilityDate: "2026-04-01",
    cf: false,
    port: 0,
    bindings: { CHROMA_URL: url, CHROMA_COLLECTION: COLLECTION, MCP_TOKENS: JSON.stringify(TOKENS) },
    ...extra,
  });

/**
 * The worker whose cache is on disk, so that a second one (a new isolate) sees what the
 * first cached, as the isolates of one data centre share its cache.
 */
const mainWorker = () => worker(chromaUrl, { cachePersist: cacheDir });

before(async () => {
  if (!chromaUrl) {
    port = await freePort();
    dataDir = mkdtempSync(path.join(tmpdir(), "chromafs-cf-worker-"));
    execFileSync("bash", [CHROMA_SH, "start", String(port), dataDir], { stdio: "inherit" });
    chromaUrl = `http://127.0.0.1:${port}`;
  }
  await ingest({
    url: chromaUrl,
    collection: COLLECTION,
    files: FILES,
    access: { "internal/**": { isPublic: false, groups: ["admin"] } },
  });

  // The exact bundle Cloudflare would receive: the worker script plus the wasm module.
  execFileSync(path.join(HERE, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", DIST], {
    cwd: HERE,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "inherit", "inherit"],
  });

  mf = mainWorker();
  await mf.ready;
});

/** Deletes `collection` from the Chroma under test (one this file created). */
const dropCollection = (collection) =>
  fetch(`${chromaUrl}/api/v2/tenants/default_tenant/databases/default_database/collections/${collection}`, { method: "DELETE" }).catch(() => {});

after(async () => {
  // Miniflare keeps the process alive (and can hang it) unless disposed.
  if (mf) await mf.dispose();
  rmSync(cacheDir, { recursive: true, force: true });
  if (port) {
    execFileSync("bash", [CHROMA_SH, "stop", String(port)], { stdio: "inherit" });
    rmSync(dataDir, { recursive: true, force: true });
  } else if (chromaUrl) {
    await dropCollection(COLLECTION);
  }
});

async function post(body) {
  const res = await mf.dispatchFetch("http://worker/exec", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function exec(command, groups) {
  const { status, body } = await post(groups === undefined ? { command } : { command, groups });
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

// First on purpose: it needs an isolate that has not loaded the tree yet.
test("the path tree is loaded once per isolate, not once per request", async (t) => {
  const first = await exec("ls /");
  const second = await exec("ls /");
  t.diagnostic(`connect requests: first ${first.connectRequests}, second ${second.connectRequests}`);
  assert.equal(first.stdout, "guides\nindex.md\nreference\n");
  assert.equal(second.stdout, first.stdout);
  assert.equal(first.connectRequests, 2, "the collection, then the tree");
  assert.equal(second.connectRequests, 1, "the tree is in the isolate: one check that it is current");
  assert.equal(first.requests + second.requests, 0, "ls is answered from memory");
});

test("ls, cat and find", async () => {
  const r = await exec("cat /guides/quickstart.md");
  assert.equal(r.stdout, QUICKSTART);
  assert.equal(r.exitCode, 0);
  assert.equal(r.stderr, "");
  const n = await exec("find /reference -type f | wc -l");
  assert.equal(n.stdout.trim(), String(FILLER.length));
  const missing = await exec("cat /nope.md");
  assert.equal(missing.exitCode, 1);
  assert.match(missing.stderr, /No such file or directory/);
});

test("grep -r finds text in a handful of requests", async (t) => {
  const r = await exec("grep -rn access_token /");
  t.diagnostic(`grep requests: ${r.requests}`);
  assert.equal(r.exitCode, 0);
  assert.equal(
    r.stdout,
    // As GNU grep names files under the operand "/".
    "/guides/auth.md:3:Tokens expire; refresh the access_token hourly.\n" +
      "/guides/quickstart.md:3:Call the API with an access_token header.\n",
  );
  // 63 visible pages; the search asks Chroma which can match, then loads only those.
  assert.ok(r.requests <= 4, `grep made ${r.requests} requests`);
});

test("grep -P's lookaround and \\K are answered by the engine bundled with the Worker", async () => {
  const r = await exec("grep -rhoP 'refresh the \\K\\w+(?= hourly)' /guides");
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.stdout, "access_token\n");
});

test("a page is read again from the isolate's memory, and by a new isolate from the Cache API", async () => {
  const first = await exec("cat /reference/page-07.md");
  assert.equal(first.exitCode, 0, first.stderr);
  assert.equal(first.requests, 1, "one content request: the tree is already in the isolate");
  // A page another session kept is served once the tree is confirmed current for this
  // command: one small request (the check a connect makes), none for the page.
  const again = await exec("cat /reference/page-07.md");
  assert.equal(again.stdout, first.stdout);
  assert.equal(again.requests, 1, "one request: the tree is still current");
  assert.deepEqual([again.processHits, again.sharedHits], [1, 0], "answered from the isolate's memory");

  // A new isolate has nothing in memory; the data centre's cache still holds the page.
  await mf.dispose();
  mf = mainWorker();
  await mf.ready;
  const other = await exec("cat /reference/page-07.md");
  assert.equal(other.stdout, first.stdout);
  assert.equal(other.connectRequests, 2, "a new isolate loads the tree");
  assert.equal(other.requests, 1, "one request: the tree is still current");
  assert.deepEqual([other.processHits, other.sharedHits], [0, 1], "answered from the Cache API");
});

test("the admin page exists only for the admin group", async () => {
  const anon = await exec("cat /internal/billing.md");
  assert.equal(anon.exitCode, 1);
  assert.equal(anon.stdout, "");
  assert.match(anon.stderr, /internal\/billing\.md: No such file or directory/);
  assert.equal((await exec("ls /", ["support"])).stdout, "guides\nindex.md\nreference\n");
  const hidden = await exec("grep -r LEDGER /");
  assert.equal(hidden.exitCode, 1);
  assert.equal(hidden.stdout, "");

  const admin = await exec("cat /internal/billing.md", ["admin"]);
  assert.equal(admin.exitCode, 0);
  assert.equal(admin.stdout, BILLING);
  assert.equal((await exec("ls /", ["admin"])).stdout, "guides\nindex.md\ninternal\nreference\n");
  assert.equal((await exec("grep -rl LEDGER /internal", ["admin"])).stdout, "/internal/billing.md\n");
});

test("a command over the free plan's 50 subrequests stops cleanly; with a larger budget it succeeds", async () => {
  const broad = "find /reference -type f | xargs cat | wc -l";
  const capped = await exec(broad);
  assert.notEqual(capped.exitCode, 0);
  assert.match(capped.stderr, /Input\/output error \(the command used its budget of 50 requests \(maxRequestsPerCommand\)\)/);
  assert.ok(capped.requests <= 50, `${capped.requests} requests`);
  const paid = worker(chromaUrl, { bindings: { CHROMA_URL: chromaUrl, CHROMA_COLLECTION: COLLECTION, MAX_REQUESTS_PER_COMMAND: "1000" } });
  try {
    const res = await paid.dispatchFetch("http://worker/exec", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ command: broad }) });
    const r = await res.json();
    assert.deepEqual([r.stdout, r.exitCode, r.stderr], [`${FILLER.length * 3}\n`, 0, ""]);
  } finally {
    await paid.dispose();
  }
});

test("writes fail as on a read-only filesystem", async () => {
  const r = await exec("echo x > /a.md");
  assert.equal(r.stderr, "bash: /a.md: Read-only file system\n");
  assert.equal(r.exitCode, 1);
  assert.equal((await exec("echo quiet > /dev/null && echo ok")).stdout, "ok\n");
});

test("bad requests get 400, 405 and 404", async () => {
  const bad = [
    ["{not json", 400],
    [{}, 400],
    [{ command: "" }, 400],
    [{ command: 42 }, 400],
    [{ command: "ls", groups: "admin" }, 400],
    [{ command: "ls", groups: [1] }, 400],
  ];
  for (const [body, status] of bad) {
    const r = await post(body);
    assert.equal(r.status, status, JSON.stringify(body));
    assert.equal(typeof r.body.error, "string");
  }
  const get = await mf.dispatchFetch("http://worker/exec");
  assert.equal(get.status, 405);
  await get.arrayBuffer();
  const other = await mf.dispatchFetch("http://worker/other", { method: "POST", body: "{}" });
  assert.equal(other.status, 404);
  await other.arrayBuffer();
});

test("an unreachable Chroma is a 502 with a generic message; the cause is logged", async () => {
  const logs = [];
  const down = worker(`http://127.0.0.1:${await freePort()}`, {
    handleStructuredLogs: ({ message }) => {
      logs.push(message);
    },
  });
  try {
    const res = await down.dispatchFetch("http://worker/exec", { method: "POST", body: '{"command":"ls"}' });
    assert.equal(res.status, 502);
    assert.deepEqual(await res.json(), { error: "the docs database is unavailable" });
    assert.ok(logs.some((m) => m.includes("cannot reach Chroma")), logs.join("\n"));
  } finally {
    await down.dispose();
  }
});

/** An MCP client (the SDK's) connected to the worker's /mcp, with a bearer token or none. */
async function mcpClient(token, instance = mf) {
  const url = new URL("/mcp", await instance.ready);
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const client = new Client({ name: "worker-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

const text = (result) => result.content.map((c) => c.text).join("");
const bash = (client, command) => client.callTool({ name: "bash", arguments: { command } });

test("over MCP: the tools are bash and search, and bash prints what /exec prints", async () => {
  const client = await mcpClient();
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["bash", "search"]);
    for (const command of ["grep -rn access_token /", "ls /reference | head -3", "cat /guides/quickstart.md", "find / -name 'auth*'", "wc -l /index.md"]) {
      const direct = await exec(command);
      assert.deepEqual([direct.exitCode, direct.stderr], [0, ""], command);
      const r = await bash(client, command);
      assert.equal(r.isError, false, command);
      assert.equal(text(r), direct.stdout, command);
    }
    const found = await client.callTool({ name: "search", arguments: { query: "refresh the access token", k: 3 } });
    assert.equal(found.isError, false, text(found));
    assert.match(text(found), /^\/guides\/auth\.md:\d+-\d+/m);
  } finally {
    await client.close();
  }
});

test("over MCP, versions of the docs: the tools offer the versions, and bash's and search's version see that version and the pages of none", async () => {
  const collection = `${COLLECTION}-versions`;
  await ingest({
    url: chromaUrl,
    collection,
    versionFolders: true,
    files: [
      { path: "v1/setup.md", content: "# Setup v1\n\nRun setup-legacy to install.\n" },
      { path: "v2/setup.md", content: "# Setup v2\n\nRun setup with the new installer.\n" },
      { path: "faq.md", content: "# FAQ\n\nThe installer needs no account.\n" },
    ],
  });
  const versioned = worker(chromaUrl, { bindings: { CHROMA_URL: chromaUrl, CHROMA_COLLECTION: collection, MCP_TOKENS: JSON.stringify(TOKENS) } });
  try {
    const client = await mcpClient(undefined, versioned);
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) assert.deepEqual(tool.inputSchema.properties.version.enum, ["v1", "v2"], tool.name);
      const call = (command, version) => client.callTool({ name: "bash", arguments: { command, version } });
      assert.equal(text(await call("find / -type f | sort", "v1")), "/faq.md\n/v1/setup.md\n");
      assert.equal(text(await call("grep -rl installer /", "v2")), "/faq.md\n/v2/setup.md\n");
      assert.equal(text(await call("find / -type f | sort")), "/faq.md\n/v1/setup.md\n/v2/setup.md\n", "without a version, every version");
      const unknown = await call("ls /", "v3");
      assert.equal(unknown.isError, true);
      assert.match(text(unknown), /Expected 'v1' \| 'v2', received 'v3'/, "a version not offered is refused, naming those that are");
      const found = await client.callTool({ name: "search", arguments: { query: "install setup", version: "v1" } });
      assert.equal(found.isError, false, text(found));
      assert.ok(found.structuredContent.results.some((r) => r.path === "/v1/setup.md" && r.version === "v1"), text(found));
      assert.ok(found.structuredContent.results.every((r) => r.path !== "/v2/setup.md"), text(found));
    } finally {
      await client.close();
    }
  } finally {
    await versioned.dispose();
    await dropCollection(collection);
  }
});

test("over MCP 2026-07-28: server/discover, then a call and a page, with no initialize and no session", async () => {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const ask = async (id, method, params = {}, name) => {
    const res = await mf.dispatchFetch("http://worker/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer admin-token-0002-abcd",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...(name ? { "mcp-name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }),
    });
    assert.equal(res.headers.get("mcp-session-id"), null);
    return { status: res.status, body: await res.json() };
  };
  const discover = await ask(1, "server/discover");
  assert.equal(discover.status, 200);
  assert.deepEqual(discover.body.result.supportedVersions, ["2026-07-28"]);
  assert.deepEqual(discover.body.result.capabilities, { tools: {}, resources: {} });
  assert.equal(discover.body.result._meta["io.modelcontextprotocol/serverInfo"].name, "chromafs");
  const call = await ask(2, "tools/call", { name: "bash", arguments: { command: "cat /internal/billing.md" } }, "bash");
  assert.deepEqual([call.body.result.content[0].text, call.body.result.resultType], [BILLING, "complete"]);
  const read = await ask(3, "resources/read", { uri: "chromafs://docs/guides/quickstart.md" }, "chromafs://docs/guides/quickstart.md");
  assert.deepEqual([read.body.result.contents[0].text, read.body.result.cacheScope], [QUICKSTART, "private"]);
  const ping = await ask(4, "ping");
  assert.deepEqual([ping.status, ping.body.error.code], [404, -32601]);
});

test("over MCP the bearer token decides which pages exist, in every tool and resource", async () => {
  const anonymous = await mcpClient();
  const wrong = await mcpClient("admin-token-0003-abcd");
  const pub = await mcpClient("public-token-0001-abcd");
  const admin = await mcpClient("admin-token-0002-abcd");
  try {
    for (const client of [anonymous, wrong, pub]) {
      const cat = text(await bash(client, "cat /internal/billing.md"));
      assert.match(cat, /internal\/billing\.md: No such file or directory\n\[exit code 1\]$/);
      assert.doesNotMatch(cat, /LEDGER/);
      assert.equal(text(await bash(client, "grep -rl LEDGER / ; ls /")), "guides\nindex.md\nreference\n");
      const found = text(await client.callTool({ name: "search", arguments: { query: "invoice ledger secret" } }));
      assert.doesNotMatch(found, /internal|LEDGER/);
      // The pages as resources: the same, and a hidden page as missing as one never there.
      const { resources } = await client.listResources();
      assert.ok(resources.length > 0 && !resources.some((r) => /internal/.test(r.uri)));
      const notFound = (uri) => client.readResource({ uri }).then(() => "read", (e) => `${e.code} ${e.message}`);
      assert.equal(await notFound("chromafs://docs/internal/billing.md"), await notFound("chromafs://docs/internal/gone.md"));
    }
    const listed = (await admin.listResources()).resources.map((r) => r.uri);
    assert.ok(listed.includes("chromafs://docs/internal/billing.md"));
    assert.match((await admin.readResource({ uri: "chromafs://docs/internal/billing.md" })).contents[0].text, /LEDGER-7731/);
    assert.match(text(await bash(admin, "cat /internal/billing.md")), /LEDGER-7731/);
    const found = text(await admin.callTool({ name: "search", arguments: { query: "invoice ledger secret" } }));
    assert.match(found, /^\/internal\/billing\.md:/m);
  } finally {
    await Promise.all([anonymous, wrong, pub, admin].map((c) => c.close()));
  }
});

test("over MCP a call over the subrequest budget and a write are tool results, not protocol errors", async () => {
  // A new isolate: the pages earlier tests read are in the first one's memory.
  const fresh = worker(chromaUrl);
  const client = await mcpClient("public-token-0001-abcd", fresh);
  try {
    const capped = await bash(client, "find /reference -type f | xargs cat | wc -l");
    assert.equal(capped.isError, true, text(capped));
    assert.match(text(capped), /the command used its budget of 50 requests \(maxRequestsPerCommand\)/);
    const write = await bash(client, "echo x > /a.md");
    assert.equal(text(write), "bash: /a.md: Read-only file system\n[exit code 1]");
    // The session is fine afterwards.
    assert.equal(text(await bash(client, "head -1 /index.md")), "# Docs\n");
  } finally {
    await client.close();
    await fresh.dispose();
  }
});

test("with REQUIRE_TOKEN an MCP request without a known token is a 401", async () => {
  const strict = worker(chromaUrl, {
    bindings: { CHROMA_URL: chromaUrl, CHROMA_COLLECTION: COLLECTION, MCP_TOKENS: JSON.stringify(TOKENS), REQUIRE_TOKEN: "true" },
  });
  try {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const ask = (headers) =>
      strict.dispatchFetch("http://worker/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(init),
      });
    for (const headers of [{}, { authorization: "Bearer nope" }]) {
      const res = await ask(headers);
      assert.equal(res.status, 401);
      await res.arrayBuffer();
    }
    const ok = await ask({ authorization: "Bearer admin-token-0002-abcd" });
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).result.serverInfo.name, "chromafs");
  } finally {
    await strict.dispose();
  }
});

test("with OAUTH_ISSUER the worker is an OAuth resource server: the provider's tokens decide the groups", async () => {
  const idp = await startIdentityProvider({ users: { ada: ["admin"], bo: "support ops" }, audience: "set below" });
  const signedIn = worker(chromaUrl, {
    bindings: { CHROMA_URL: chromaUrl, CHROMA_COLLECTION: COLLECTION, OAUTH_ISSUER: idp.issuer, REQUIRE_TOKEN: "true", BASE_URL: "https://docs.acme.test" },
  });
  try {
    const resource = new URL("/mcp", await signedIn.ready).href;
    idp.audience = resource;
    const metadataUrl = new URL("/.well-known/oauth-protected-resource/mcp", resource).href;
    const metadata = await (await fetch(metadataUrl)).json();
    assert.deepEqual([metadata.resource, metadata.authorization_servers, metadata.bearer_methods_supported], [resource, [idp.issuer], ["header"]]);
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    const ask = (headers) => fetch(resource, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: init });
    const anonymous = await ask({});
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), `Bearer resource_metadata="${metadataUrl}"`);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ iss: idp.issuer, aud: resource, groups: ["admin"], exp: now - 300 })
      .setProtectedHeader({ alg: "ES256", kid: idp.keys[0].kid })
      .sign(idp.keys[0].privateKey);
    const refused = await ask({ authorization: `Bearer ${expired}` });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get("www-authenticate"), /error="invalid_token", error_description="the token has expired"/);
    const ada = await mcpClient(await idp.token("ada"), signedIn);
    const bo = await mcpClient(await idp.token("bo"), signedIn);
    try {
      assert.match(text(await bash(ada, "cat /internal/billing.md")), /LEDGER-7731/);
      assert.match(text(await bash(bo, "cat /internal/billing.md")), /No such file or directory/);
      const found = await ada.callTool({ name: "search", arguments: { query: "invoice ledger secret", k: 1 } });
      assert.deepEqual(found.structuredContent.results.map((r) => [r.path, r.url]), [["/internal/billing.md", "https://docs.acme.test/internal/billing"]]);
    } finally {
      await Promise.all([ada.close(), bo.close()]);
    }
  } finally {
    await signedIn.dispose();
    await idp.close();
  }
});

test("search embeds questions through the collection's embedding service, the key from the Worker's secret", async () => {
  const KEY = "sk-worker-0123456789";
  const service = await startEmbeddingService({ key: KEY });
  const collection = `${COLLECTION}-embedded`;
  const embed = openAiEmbedder({ url: service.url, model: "text-embedding-3-small", apiKey: KEY });
  await ingest({ url: chromaUrl, collection, files: FILES.filter((f) => !f.path.startsWith("internal/")), embed });
  const bindings = { CHROMA_URL: chromaUrl, CHROMA_COLLECTION: collection, EMBED_URL: service.origin, OPENAI_API_KEY: KEY };
  const embedded = worker(chromaUrl, { bindings });
  try {
    service.reset();
    const client = await mcpClient(undefined, embedded);
    try {
      const question = "refresh the access token hourly";
      const found = await client.callTool({ name: "search", arguments: { query: question, k: 1 } });
      assert.equal(found.isError, false, text(found));
      assert.equal(found.structuredContent.results[0].path, "/guides/auth.md");
      await client.callTool({ name: "search", arguments: { query: question, k: 1 } });
      assert.equal(service.asked(question), 1, "the question is embedded once, then kept in the isolate");
      assert.ok(service.requests.every((r) => r.auth === `Bearer ${KEY}`));
    } finally {
      await client.close();
    }
    // The service named by EMBED_MODEL instead of the collection's record: the same vectors.
    const named = worker(chromaUrl, { bindings: { ...bindings, EMBED_MODEL: "text-embedding-3-small", EMBED_URL: service.url } });
    try {
      const c = await mcpClient(undefined, named);
      const dense = await bash(c, "search -n 1 --json access token expire");
      assert.match(text(dense), /"path":"\/guides\/auth\.md"/);
      await c.close();
    } finally {
      await named.dispose();
    }
  } finally {
    await embedded.dispose();
    await service.close();
    await dropCollection(collection);
  }
});
