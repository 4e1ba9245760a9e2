// chromafs/mcp with the MCP SDK's own client, over stdio (the CLI, as an agent launches it)
// and over streamable HTTP: the tools, the same text as safeExec, access by bearer token,
// EROFS, the output cap, a failing Chroma as a tool error, several clients at once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Bash } from "just-bash";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { serveHttp, tokenAuthorizer, MAX_OUTPUT } from "chromafs/mcp";
import { ROOT, chromaUrl } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

const PAGES = {
  "index.md": "# Acme\nStart here.\n",
  "auth/tokens.md": "Send the access_token header.\nTokens expire after an hour.\n",
  "big.md": "a line of the big page, repeated many times over\n".repeat(2000),
  "internal/oncall.md": "Page the escalation rota.\n",
};
const TOKENS = { "staff-secret-token": ["staff"], "public-token-0123456": [] };
let http, front;

before(async () => {
  const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content }));
  await ingest({ url: chromaUrl(), collection: "mcp", files, access: { "internal/**": { isPublic: false, groups: ["staff"] } } });
  front = await startProxy(chromaUrl());
  http = await serveHttp({ url: front.url, collection: "mcp" }, { authorize: tokenAuthorizer(TOKENS), toolPrefix: "docs_", docs: "the Acme docs" });
});
after(async () => {
  await http.close();
  await front.close();
});

const text = (r) => r.content.map((c) => c.text).join("");

async function httpClient(token) {
  const client = new Client({ name: "test", version: "1" });
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
  return client;
}

test("over stdio: the tools, and bash answers exactly what safeExec answers", async () => {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--collection", "mcp", "--tool-prefix", "docs_"],
      stderr: "pipe",
    }),
  );
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["docs_bash", "docs_search"]);
    const bashTool = tools.find((t) => t.name === "docs_bash");
    assert.match(bashTool.description, /read-only bash shell/);
    assert.match(bashTool.description, /Only \/tmp is writable/);
    assert.match(bashTool.description, /Your working directory and \/tmp carry over from one call to the next/);
    // The reference: one shell over the same docs whose directory and /tmp last from line to line.
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "mcp", scratch: "/tmp" });
    let cwd = "/";
    const lines = [
      "ls /",
      "grep -rn access_token /",
      "cat /auth/tokens.md | wc -l",
      "cat /nope.md",
      "cd /auth && ls",
      "pwd",
      "grep -l expire * > /tmp/hits; echo one; echo x > tokens.md; echo two",
      "cat /tmp/hits; cd ..; pwd",
      "find / -name '*.md' | sort",
      "echo a >> /tmp/hits; wc -l < /tmp/hits; echo b > /tmp/no/such; ls /tmp",
    ];
    for (const command of lines) {
      const r = await client.callTool({ name: "docs_bash", arguments: { command } });
      const ref = await safeExec(new Bash({ fs, cwd, customCommands: fs.commands() }), command);
      cwd = ref.env.PWD;
      let want = ref.stdout + ref.stderr + (ref.exitCode ? `[exit code ${ref.exitCode}]` : "");
      if (!want) want = "(no output)";
      assert.equal(text(r), want, command);
      assert.equal(r.isError, false, command);
    }
    assert.equal(cwd, "/", "the lines went down and back up");
    const w = await client.callTool({ name: "docs_bash", arguments: { command: "echo hi > /notes.md" } });
    assert.equal(text(w), "bash: /notes.md: Read-only file system\n[exit code 1]");
    const hidden = await client.callTool({ name: "docs_bash", arguments: { command: "cat /internal/oncall.md" } });
    assert.match(text(hidden), /No such file or directory/);
  } finally {
    await client.close();
  }
});

test("over HTTP: a token's groups decide what exists, in every tool", async () => {
  const staff = await httpClient("staff-secret-token");
  const pub = await httpClient("public-token-0123456");
  const anon = await httpClient();
  try {
    const ls = async (c) => text(await c.callTool({ name: "docs_bash", arguments: { command: "ls /" } }));
    assert.equal(await ls(staff), "auth\nbig.md\nindex.md\ninternal\ntmp\n");
    assert.equal(await ls(pub), "auth\nbig.md\nindex.md\ntmp\n");
    assert.equal(await ls(anon), "auth\nbig.md\nindex.md\ntmp\n");
    const search = async (c) => text(await c.callTool({ name: "docs_search", arguments: { query: "escalation rota", k: 5 } }));
    assert.match(await search(staff), /^\/internal\/oncall\.md:1-1\n/);
    assert.doesNotMatch(await search(pub), /internal|oncall|escalation/);
    const wrong = await httpClient("staff-secret-tokeX");
    assert.equal(await ls(wrong), "auth\nbig.md\nindex.md\ntmp\n", "an unknown token is public");
    await wrong.close();
  } finally {
    await Promise.all([staff.close(), pub.close(), anon.close()]);
  }
});

test("output over the cap is cut with a line that says so; several clients at once", async () => {
  const clients = await Promise.all([1, 2, 3].map(() => httpClient("public-token-0123456")));
  try {
    const results = await Promise.all(clients.map((c) => c.callTool({ name: "docs_bash", arguments: { command: "cat /big.md" } })));
    for (const r of results) {
      const t = text(r);
      assert.ok(t.length > MAX_OUTPUT && t.length < MAX_OUTPUT + 300, `${t.length}`);
      assert.match(t, /\[output cut at 30,000 characters: narrow the command/);
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});

test("a failing Chroma is a tool error, not a protocol error; --require-token refuses", async () => {
  const c = await httpClient("staff-secret-token");
  try {
    front.state.failWhen = () => 500;
    const r = await c.callTool({ name: "docs_bash", arguments: { command: "cat /auth/tokens.md" } });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /Input\/output error/);
    const s = await c.callTool({ name: "docs_search", arguments: { query: "tokens expire" } });
    assert.equal(s.isError, true, text(s));
  } finally {
    front.state.failWhen = null;
    await c.close();
  }
  const strict = await serveHttp({ url: chromaUrl(), collection: "mcp" }, { authorize: tokenAuthorizer(TOKENS), requireToken: true });
  try {
    const res = await fetch(strict.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    assert.equal(res.status, 401);
    assert.doesNotMatch(await res.text(), /secret/);
  } finally {
    await strict.close();
  }
});
