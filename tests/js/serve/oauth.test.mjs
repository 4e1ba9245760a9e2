// The MCP server as an OAuth 2.1 resource server, with real parts: an OpenID provider
// (node-oidc-provider) on 127.0.0.1 issuing JWT access tokens with a groups claim, the MCP
// SDK's client over streamable HTTP, and Chroma. Two users never see each other's pages;
// every token that is not valid for this server gets 401 pointing at the RFC 9728 metadata;
// a key rotation at the provider is picked up; checked tokens cost no call to the provider.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SignJWT, exportSPKI, generateKeyPair } from "jose";
import { ingest } from "chromafs";
import { serveHttp } from "chromafs/mcp";
import { ROOT, chromaUrl, freePort } from "../helpers.mjs";
import { startIdentityProvider } from "../../../support/identity-provider.mjs";

const PAGES = {
  "index.md": "# Acme docs\nStart here.\n",
  "guides/install.mdx": "# Install\nRun the installer, then sign in.\n",
  "staff/rota.md": "# On-call\nThe escalation rota code is ROTA-5521.\n",
  "billing/ledger.md": "# Ledger\nThe ledger secret is LEDGER-4410.\n",
};
const ACCESS = { "staff/**": { isPublic: false, groups: ["staff"] }, "billing/**": { isPublic: false, groups: ["billing"] } };
// alice's groups are an array, bob's one space-separated string: both shapes a provider uses.
const USERS = { alice: ["staff"], bob: "billing ops", carol: [] };
const ALICE_ONLY = /staff|rota|ROTA-5521/i;
const BOB_ONLY = /billing|ledger|LEDGER-4410/i;

let idp, server, resource;

before(async () => {
  const files = Object.entries(PAGES).map(([path, content]) => ({ path, content }));
  await ingest({ url: chromaUrl(), collection: "oauth", files, access: ACCESS });
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  idp = await startIdentityProvider({ users: USERS, audience: resource });
  server = await serveHttp({ url: chromaUrl(), collection: "oauth" }, { port, oauth: { issuer: idp.issuer, keyCooldownMs: 300 }, baseUrl: "https://docs.acme.test" });
});
after(async () => {
  await server?.close();
  await idp?.close();
});

const text = (r) => r.content.map((c) => c.text).join("");
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

/** A raw MCP initialize request, as a client's first request, with `headers`. */
function initialize(headers = {}, url = server.url) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(INITIALIZE),
  });
}

async function client(token) {
  const c = new Client({ name: "test", version: "1" });
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  return c;
}

/** A token signed with `key` (the provider's own by default) carrying `claims` over valid ones. */
async function signed(claims = {}, { key = idp.keys[0], alg = "ES256", header = {} } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: idp.issuer, aud: resource, sub: "mallory", groups: ["staff", "billing"], iat: now, exp: now + 600, ...claims };
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
  return new SignJWT(payload).setProtectedHeader({ alg, kid: key.kid, typ: "at+jwt", ...header }).sign(key.privateKey);
}

const b64url = (value) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

test("the protected-resource metadata says who issues tokens for this server, at both well-known paths", async () => {
  const origin = new URL(resource).origin;
  for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
    const res = await fetch(origin + path);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get("content-type"), /application\/json/);
    const doc = await res.json();
    assert.equal(doc.resource, resource, path);
    assert.deepEqual(doc.authorization_servers, [idp.issuer], path);
    assert.deepEqual(doc.bearer_methods_supported, ["header"], path);
  }
  // A client finds it the way the MCP authorization rules say: from the 401's header.
  const res = await initialize({ authorization: "Bearer not.a.token" });
  assert.equal(res.status, 401);
  const pointer = /resource_metadata="([^"]+)"/.exec(res.headers.get("www-authenticate"))?.[1];
  assert.equal(pointer, `${origin}/.well-known/oauth-protected-resource/mcp`);
  assert.equal((await (await fetch(pointer)).json()).resource, resource);
});

test("two users with different groups never see each other's pages, in outputs, errors, listings or search", async () => {
  const alice = await client(await idp.token("alice"));
  const bob = await client(await idp.token("bob"));
  try {
    const run = async (c, command) => text(await c.callTool({ name: "bash", arguments: { command } }));
    assert.equal(await run(alice, "ls /"), "guides\nindex.md\nstaff\ntmp\n");
    assert.equal(await run(bob, "ls /"), "billing\nguides\nindex.md\ntmp\n");
    assert.equal(await run(alice, "cat /staff/rota.md"), PAGES["staff/rota.md"]);
    assert.equal(await run(bob, "cat /billing/ledger.md"), PAGES["billing/ledger.md"]);
    for (const [c, theirs, path] of [
      [alice, BOB_ONLY, "/billing/ledger.md"],
      [bob, ALICE_ONLY, "/staff/rota.md"],
    ]) {
      for (const command of ["ls -R /", "find / | sort", "grep -rn 'secret\\|code' /", "rg -n 4410 /; rg -n 5521 /", "du -a /", "tree /", "search --json ledger secret rota code"]) {
        assert.doesNotMatch(await run(c, command), theirs, command);
      }
      // A hidden page, and its directory, fail exactly as ones that never existed.
      const dir = path.replace(/\/[^/]+$/, "");
      assert.equal(await run(c, `cat ${path}`), `cat: ${path}: No such file or directory\n[exit code 1]`);
      assert.equal(await run(c, `ls ${dir}`), (await run(c, "ls /nowhere")).replace("/nowhere", dir));
      assert.equal(await run(c, `stat ${path}`), (await run(c, "stat /nowhere.md")).replace("/nowhere.md", path));
      const found = await c.callTool({ name: "search", arguments: { query: "ledger secret escalation rota code", k: 10 } });
      assert.doesNotMatch(text(found), theirs);
      assert.ok(found.structuredContent.results.every((r) => !theirs.test(r.path)), JSON.stringify(found.structuredContent));
    }
    const mine = await alice.callTool({ name: "search", arguments: { query: "escalation rota code" } });
    assert.equal(mine.structuredContent.results[0].path, "/staff/rota.md");
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
});

test("without a token: the public pages only", async () => {
  const anon = await client();
  try {
    assert.equal(text(await anon.callTool({ name: "bash", arguments: { command: "find / -type f | sort" } })), "/guides/install.mdx\n/index.md\n");
  } finally {
    await anon.close();
  }
});

test("a token that is not valid for this server gets 401 with WWW-Authenticate, whatever is wrong with it", async () => {
  const now = Math.floor(Date.now() / 1000);
  const stranger = await startIdentityProvider({ users: { alice: ["staff"] }, audience: resource });
  const { privateKey: otherKey } = await generateKeyPair("ES256");
  const pem = await exportSPKI(idp.keys[0].publicKey);
  const hmac = (secret) =>
    new SignJWT({ iss: idp.issuer, aud: resource, groups: ["staff"], exp: now + 600 }).setProtectedHeader({ alg: "HS256", kid: idp.keys[0].kid }).sign(new TextEncoder().encode(secret));
  // Each bad token, and the reason the 401 gives for it.
  const bad = {
    expired: [await signed({ iat: now - 900, exp: now - 120 }), "the token has expired"],
    "not yet valid": [await signed({ nbf: now + 300 }), "the token is not valid yet"],
    "without an expiry": [await signed({ exp: undefined }), "the token's exp claim is missing or not valid"],
    "for another audience (from the provider)": [await idp.token("alice", { resource: "https://other.example/mcp" }), "the token was issued for another audience"],
    "from another issuer, signed with the right key": [await signed({ iss: "https://login.evil.example" }), "the token was issued by another issuer"],
    "from another provider": [await stranger.token("alice"), "no key of the issuer matches the token"],
    "unsigned (alg none)": [
      `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ iss: idp.issuer, aud: resource, groups: ["staff"], exp: now + 600 })}.`,
      "the token's signature algorithm is not accepted (asymmetric algorithms only)",
    ],
    "HMAC keyed with the public key (PEM)": [await hmac(pem), "the token's signature algorithm is not accepted (asymmetric algorithms only)"],
    "HMAC keyed with the public key (JWK)": [await hmac(JSON.stringify(idp.keys[0].publicJwk)), "the token's signature algorithm is not accepted (asymmetric algorithms only)"],
    "signed by a key the issuer never published": [await signed({}, { key: { kid: "key-unknown", privateKey: otherKey } }), "no key of the issuer matches the token"],
    "signed by another key under a published kid": [await signed({}, { key: { kid: idp.keys[0].kid, privateKey: otherKey } }), "the token's signature is not valid"],
    "a groups claim of the wrong shape": [await signed({ groups: [1, 2] }), "the token's groups claim is neither a list of names nor a space-separated string"],
    "not a JWT": ["definitely-not-a-jwt", "the token is not a valid signed JWT"],
  };

  await stranger.close();
  // The control: the same hand-made token with nothing wrong is accepted, and so is one
  // that expired within the minute of clock skew.
  assert.equal((await initialize({ authorization: `Bearer ${await signed()}` })).status, 200);
  assert.equal((await initialize({ authorization: `Bearer ${await signed({ exp: now - 20 })}` })).status, 200);
  const pointer = `resource_metadata="${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp"`;
  for (const [what, [token, reason]] of Object.entries(bad)) {
    const res = await initialize({ authorization: `Bearer ${token}` });
    assert.equal(res.status, 401, what);
    const challenge = res.headers.get("www-authenticate");
    assert.equal(challenge, `Bearer ${pointer}, error="invalid_token", error_description="${reason}"`, what);
    const body = await res.text();
    assert.equal(JSON.parse(body).error.message, reason, what);
    assert.ok(!body.includes(token) && !challenge.includes(token), `${what}: the token is not echoed`);
  }
  const basic = await initialize({ authorization: "Basic YWxpY2U6c2VjcmV0" });
  assert.equal(basic.status, 401);
  // The SDK's client sees the refusal too, and no tool runs.
  await assert.rejects(client(bad.expired[0]));
});

test("--require-token: a request without a token gets 401 pointing at the metadata; with one it works", async () => {
  const port = await freePort();
  const strict = await serveHttp(
    { url: chromaUrl(), collection: "oauth" },
    { port, requireToken: true, oauth: { issuer: idp.issuer, audience: resource }, publicUrl: "https://docs.acme.test" },
  );
  try {
    assert.equal(strict.resource, "https://docs.acme.test/mcp");
    const res = await initialize({}, strict.url);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("www-authenticate"), 'Bearer resource_metadata="https://docs.acme.test/.well-known/oauth-protected-resource/mcp"');
    const doc = await (await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)).json();
    assert.equal(doc.resource, "https://docs.acme.test/mcp");
    assert.equal((await initialize({ authorization: `Bearer ${await idp.token("carol")}` }, strict.url)).status, 200);
    // The proxy's Host and Origin are the server's own.
    assert.equal((await initialize({ authorization: `Bearer ${await idp.token("carol")}`, origin: "https://docs.acme.test" }, strict.url)).status, 200);
  } finally {
    await strict.close();
  }
});

test("a foreign Origin gets 403, even with a valid token", async () => {
  const res = await initialize({ authorization: `Bearer ${await idp.token("alice")}`, origin: "http://evil.example" });
  assert.equal(res.status, 403);
  assert.doesNotMatch(await res.text(), /ROTA|staff/);
});

test("a key rotation at the provider is picked up; checked tokens cost no call to the provider", async () => {
  const before = await idp.token("alice");
  const alice = await client(before);
  const asked = () => idp.paths.filter((p) => !p.startsWith("/token")).length;
  const start = asked();
  for (let i = 0; i < 5; i++) assert.equal(text(await alice.callTool({ name: "bash", arguments: { command: "ls /staff" } })), "rota.md\n");
  assert.equal(asked(), start, "the keys are cached: no request to the provider per call");
  await alice.close();
  const kid = await idp.rotate();
  await new Promise((r) => setTimeout(r, 400)); // the key set's cool-down (300 ms here)
  const after = await idp.token("alice");
  assert.equal(JSON.parse(Buffer.from(after.split(".")[0], "base64url")).kid, kid);
  const rotated = await client(after);
  try {
    assert.equal(text(await rotated.callTool({ name: "bash", arguments: { command: "cat /staff/rota.md" } })), PAGES["staff/rota.md"]);
    assert.equal(asked(), start + 1, "one read of the key set, for the new key");
    // A token signed with the old key is still good while the provider publishes it.
    assert.equal((await initialize({ authorization: `Bearer ${before}` })).status, 200);
  } finally {
    await rotated.close();
  }
});

test("chromafs mcp --issuer: the command line's resource server, with the groups in a claim of its own", async () => {
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  const roles = await startIdentityProvider({ users: { dana: "staff" }, audience, claim: "roles" });
  const args = ["mcp", "--url", chromaUrl(), "--collection", "oauth", "--http", String(port), "--issuer", roles.issuer, "--groups-claim", "roles", "--require-token"];
  const child = spawn(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), ...args], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    let stderr = "";
    await new Promise((resolve, reject) => {
      child.stderr.on("data", (d) => {
        stderr += d;
        if (stderr.includes("chromafs MCP server:")) resolve();
      });
      child.once("exit", () => reject(new Error(`the server stopped: ${stderr}`)));
    });
    assert.match(stderr, new RegExp(`OAuth resource ${audience}, tokens from ${roles.issuer}`));
    const anonymous = await initialize({}, audience);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`);
    const doc = await (await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource`)).json();
    assert.deepEqual([doc.resource, doc.authorization_servers], [audience, [roles.issuer]]);
    const dana = new Client({ name: "test", version: "1" });
    const token = await roles.token("dana");
    await dana.connect(new StreamableHTTPClientTransport(new URL(audience), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      assert.equal(text(await dana.callTool({ name: "bash", arguments: { command: "ls /" } })), "guides\nindex.md\nstaff\ntmp\n");
    } finally {
      await dana.close();
    }
    // A token of the other provider is refused here.
    assert.equal((await initialize({ authorization: `Bearer ${await idp.token("alice")}` }, audience)).status, 401);
    assert.ok(!stderr.includes(token), "no token in the server's log");
  } finally {
    child.kill();
    await roles.close();
  }
});

test("with the provider out of reach: cached keys still check tokens, an unknown key gets 503, never the public pages", async () => {
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  const gone = await startIdentityProvider({ users: { erin: ["staff"] }, audience });
  const served = await serveHttp({ url: chromaUrl(), collection: "oauth" }, { port, oauth: { issuer: gone.issuer, keyCooldownMs: 0 } });
  const logged = [];
  const log = console.error;
  console.error = (...args) => logged.push(args.join(" "));
  try {
    const token = await gone.token("erin");
    await gone.rotate();
    const unknown = await gone.token("erin");
    await gone.close();
    assert.equal((await initialize({ authorization: `Bearer ${token}` }, served.url)).status, 200, "the key is cached");
    const res = await initialize({ authorization: `Bearer ${unknown}` }, served.url);
    assert.equal(res.status, 503);
    assert.match(JSON.parse(await res.text()).error.message, /the token cannot be checked now/);
    assert.ok(logged.some((l) => l.includes("the issuer's keys could not be read")), logged.join("\n"));
    assert.ok(logged.every((l) => !l.includes(unknown.split(".")[2])), "no token in the log");
  } finally {
    console.error = log;
    await served.close();
  }
});

test("keys from --jwks, or from OAuth server metadata when there is no OpenID configuration; metadata for another issuer stops the server", async () => {
  const direct = await serveHttp({ url: chromaUrl(), collection: "oauth" }, { oauth: { issuer: idp.issuer, audience: resource, jwks: `${idp.issuer}/jwks` } });
  try {
    const seen = idp.paths.length;
    assert.equal((await initialize({ authorization: `Bearer ${await idp.token("alice")}` }, direct.url)).status, 200);
    assert.deepEqual(idp.paths.slice(seen).filter((p) => p.startsWith("/.well-known")), [], "no discovery with --jwks");
  } finally {
    await direct.close();
  }
  // An authorization server that publishes RFC 8414 metadata only, and one that names another issuer.
  let claimed;
  const as = createServer((req, res) => {
    if (req.url !== "/.well-known/oauth-authorization-server") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: claimed, jwks_uri: `${idp.issuer}/jwks` }));
  });
  await new Promise((r) => as.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${as.address().port}`;
  try {
    claimed = issuer;
    const viaOAuth = await serveHttp({ url: chromaUrl(), collection: "oauth" }, { oauth: { issuer, audience: resource } });
    try {
      assert.equal((await initialize({ authorization: `Bearer ${await signed({ iss: issuer })}` }, viaOAuth.url)).status, 200);
      assert.equal((await initialize({ authorization: `Bearer ${await signed()}` }, viaOAuth.url)).status, 401, "the provider's own issuer is another one here");
    } finally {
      await viaOAuth.close();
    }
    claimed = "https://login.evil.example";
    await assert.rejects(serveHttp({ url: chromaUrl(), collection: "oauth" }, { oauth: { issuer, audience: resource } }), /is for issuer "https:\/\/login\.evil\.example", not http/);
  } finally {
    await new Promise((r) => as.close(r));
  }
});
