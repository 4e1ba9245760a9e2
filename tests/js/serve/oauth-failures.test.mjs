// Sign-in as the identity provider meant it, and a server that survives the provider failing:
// a real OpenID provider (node-oidc-provider) on 127.0.0.1 whose answers a test can replace
// (500s, a provider gone, one that never answers, a key set of many megabytes), the MCP
// server as its resource server, and Chroma. Groups are read as the provider wrote them;
// one subject is one caller; the provider is asked at most once per cool-down whatever
// tokens arrive; kept keys serve while it is down; no request waits on a provider that hangs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SignJWT } from "jose";
import { ingest } from "chromafs";
import { serveHttp } from "chromafs/mcp";
import { chromaUrl, freePort } from "../helpers.mjs";
import { signingKey, startIdentityProvider } from "../../../support/identity-provider.mjs";

const PAGES = { "index.md": "# Acme\n", "eng/build.md": "ENG-ONLY build notes\n", "admin/keys.md": "ADMIN-ONLY key ceremony\n" };
const ACCESS = { "eng/**": { isPublic: false, groups: ["eng"] }, "admin/**": { isPublic: false, groups: ["admin"] } };

before(async () => {
  await ingest({ url: chromaUrl(), collection: "oauth-failures", files: Object.entries(PAGES).map(([path, content]) => ({ path, content })), access: ACCESS });
});

/** A provider, and a server whose tokens it issues, with `oauth` options over its issuer. */
async function setUp(oauth = {}, options = {}) {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const idp = await startIdentityProvider({ users: { alice: ["eng"] }, audience: resource });
  const server = await serveHttp({ url: chromaUrl(), collection: "oauth-failures" }, { port, oauth: { issuer: idp.issuer, ...oauth }, ...options });
  return { idp, server, resource };
}

async function tearDown({ idp, server }) {
  await server.close();
  await idp.close();
}

/** A token signed with `key` (the provider's own by default) for `resource`, over valid claims. */
async function signed(idp, resource, claims = {}, key = idp.keys[0]) {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: idp.issuer, aud: resource, sub: "mallory", iat: now, exp: now + 600, ...claims };
  return new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "at+jwt" }).sign(key.privateKey);
}

const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
const initialize = (url, token) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }, body: INITIALIZE });

async function client(url, token) {
  const c = new Client({ name: "test", version: "1" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}
const text = (r) => r.content.map((c) => c.text).join("");
const bash = (c, command) => c.callTool({ name: "bash", arguments: { command } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const jwksReads = (idp) => idp.paths.filter((p) => p.startsWith("/jwks")).length;

test("a string groups claim splits on ASCII spaces only: a tab or a no-break space is part of one name", async () => {
  const s = await setUp();
  try {
    const sees = async (groups) => {
      const c = await client(s.server.url, await signed(s.idp, s.resource, { groups }));
      const found = text(await bash(c, "find / -type f | sort"));
      await c.close();
      return found;
    };
    assert.equal(await sees("eng admin"), "/admin/keys.md\n/eng/build.md\n/index.md\n");
    for (const groups of ["eng\tadmin", "eng\u00a0admin", "eng\u2003admin", "eng\nadmin", ["eng\tadmin"]]) {
      assert.equal(await sees(groups), "/index.md\n", JSON.stringify(groups));
    }
    assert.equal(await sees(" eng "), "/eng/build.md\n/index.md\n");
  } finally {
    await tearDown(s);
  }
});

test("the tokens of one subject are one caller for the calls-in-flight limit", async () => {
  const s = await setUp({}, { limits: { callsInFlight: 2 } });
  const tokens = await Promise.all(Array.from({ length: 5 }, (_, i) => signed(s.idp, s.resource, { sub: "mallory", jti: `t${i}`, groups: ["eng"] })));
  const clients = await Promise.all(tokens.map((t) => client(s.server.url, t)));
  try {
    const answers = (await Promise.all(clients.map((c) => bash(c, "sleep 1; echo done")))).map(text);
    assert.equal(answers.filter((t) => t === "done\n").length, 2, answers.join("\n"));
    // Another subject is another caller.
    const other = await client(s.server.url, await signed(s.idp, s.resource, { sub: "trent" }));
    assert.equal(text(await bash(other, "echo mine")), "mine\n");
    await other.close();
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await tearDown(s);
  }
});

test("a key set answering 500: one read per cool-down whatever key ids arrive, and known keys still work", async () => {
  const s = await setUp({ keyCooldownMs: 1500 });
  try {
    const stranger = await signingKey();
    const good = await signed(s.idp, s.resource, { groups: ["eng"] });
    s.idp.fault = (req, res) => req.url.startsWith("/jwks") && (res.writeHead(500).end("down"), true);
    await sleep(1600);
    const before = jwksReads(s.idp);
    const unknown = await Promise.all(Array.from({ length: 40 }, (_, i) => signed(s.idp, s.resource, { jti: `u${i}` }, stranger)));
    const statuses = await Promise.all(unknown.map((t) => initialize(s.server.url, t).then((r) => r.status)));
    assert.deepEqual([...new Set(statuses)], [503], "cannot be checked now, not invalid");
    for (let i = 0; i < 10; i++) assert.equal((await initialize(s.server.url, await signed(s.idp, s.resource, { jti: `v${i}` }, stranger))).status, 503);
    assert.equal(jwksReads(s.idp) - before, 1, "one read for fifty tokens");
    assert.equal((await initialize(s.server.url, good)).status, 200, "the kept keys check known tokens");
  } finally {
    await tearDown(s);
  }
});

test("the provider gone after the keys' age: kept keys serve through the grace period, one read per cool-down", async () => {
  const s = await setUp({ keyMaxAgeMs: 200, keyCooldownMs: 700 });
  try {
    const token = await signed(s.idp, s.resource, { groups: ["eng"] });
    s.idp.fault = (req, res) => (res.destroy(), true);
    await sleep(300);
    const before = s.idp.requests;
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      assert.equal((await initialize(s.server.url, token)).status, 200);
      await sleep(50);
    }
    const windows = Math.ceil((Date.now() - started) / 700);
    assert.ok(s.idp.requests - before <= windows, `${s.idp.requests - before} reads in ${windows} cool-downs`);
    assert.ok(s.idp.requests - before >= 1, "it tried");
  } finally {
    await tearDown(s);
  }
});

test("the grace period ends: past it, tokens cannot be checked until the provider answers", async () => {
  const s = await setUp({ keyMaxAgeMs: 100, keyGraceMs: 200, keyCooldownMs: 0 });
  try {
    const token = await signed(s.idp, s.resource);
    s.idp.fault = (req, res) => (res.destroy(), true);
    await sleep(400);
    assert.equal((await initialize(s.server.url, token)).status, 503);
    s.idp.fault = null;
    assert.equal((await initialize(s.server.url, token)).status, 200, "the provider is back");
  } finally {
    await tearDown(s);
  }
});

test("a provider that never answers holds no request while the kept keys can check it", async () => {
  const s = await setUp({ keyMaxAgeMs: 100, keyCooldownMs: 0 });
  const held = [];
  try {
    const token = await signed(s.idp, s.resource);
    s.idp.fault = (req, res) => (held.push(res), true);
    await sleep(200);
    const answered = await Promise.all(Array.from({ length: 5 }, () => initialize(s.server.url, token).then((r) => r.status)));
    assert.deepEqual(answered, [200, 200, 200, 200, 200]);
    assert.ok(held.length >= 1 && held.every((r) => !r.writableEnded), "answered while the provider still held its read");
  } finally {
    for (const r of held) r.destroy();
    await tearDown(s);
  }
});

test("a key set of many megabytes is not read past a limit", async () => {
  const s = await setUp({ keyCooldownMs: 0 });
  let written = 0;
  const logged = [];
  const log = console.error;
  try {
    s.idp.fault = (req, res) => {
      if (!req.url.startsWith("/jwks")) return false;
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1 << 16, 0x20);
      res.write('{"keys":[');
      const more = () => {
        while (written < 64 << 20) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end("]}");
      };
      res.on("error", () => {});
      more();
      return true;
    };
    console.error = (...args) => logged.push(args.join(" "));
    const stranger = await signingKey();
    const res = await initialize(s.server.url, await signed(s.idp, s.resource, {}, stranger));
    assert.equal(res.status, 503);
    assert.ok(written < 16 << 20, `${written} bytes sent before the server stopped reading`);
    assert.ok(logged.some((l) => /more than the 1048576 bytes read/.test(l)), logged.join("\n"));
  } finally {
    console.error = log;
    await tearDown(s);
  }
});
