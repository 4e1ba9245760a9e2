// Each generation of the official MCP client against the real server, over stdio (the CLI)
// and streamable HTTP: the v1 SDK's client (the other suites' own) and the v2 client
// (@modelcontextprotocol/client), as it connects by default (2025-11-25's `initialize`),
// negotiating its protocol revision (it asks `server/discover` first, and this server speaks
// 2026-07-28) and pinned to 2026-07-28; and the MCP Inspector's command line. Every one sees
// the same instructions, tools, resources and answers. mcp-modern.test.mjs has 2026-07-28's
// own rules.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { ingest } from "chromafs";
import { serveHttp, tokenAuthorizer } from "chromafs/mcp";
import { NO_NODE22, ROOT, chromaUrl, node22 } from "../helpers.mjs";

const PAGES = { "index.md": "# Acme\nStart here.\n", "guides/keys.md": "Rotate keys yearly.\n", "internal/oncall.md": "Page the rota.\n" };
let http;

before(async () => {
  const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content }));
  await ingest({ url: chromaUrl(), collection: "mcp-clients", files, access: { "internal/**": { isPublic: false, groups: ["staff"] } } });
  http = await serveHttp({ url: chromaUrl(), collection: "mcp-clients" }, { authorize: tokenAuthorizer({ "staff-secret-token": ["staff"] }), docs: "the Acme docs" });
});
after(() => http?.close());

const cliArgs = () => [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--collection", "mcp-clients", "--docs", "the Acme docs"];

/** The clients, each a way to connect: `[name, connect(transport kind, token?)]`. */
const CLIENTS = [
  ["v1 SDK client", (kind, token) => connectWith(new ClientV1({ name: "t", version: "1" }), kind === "stdio" ? new StdioV1({ command: process.execPath, args: cliArgs(), stderr: "pipe" }) : new HttpV1(new URL(http.url), headers(token)))],
  ...["legacy", "auto", { pin: "2026-07-28" }].map((mode) => [
    `v2 client (${typeof mode === "string" ? mode : `pinned to ${mode.pin}`})`,
    (kind, token) =>
      connectWith(new ClientV2({ name: "t", version: "1" }, { versionNegotiation: { mode } }), kind === "stdio" ? new StdioV2({ command: process.execPath, args: cliArgs(), stderr: "pipe" }) : new HttpV2(new URL(http.url), headers(token))),
  ]),
];
const headers = (token) => ({ requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } });
async function connectWith(client, transport) {
  await client.connect(transport);
  return client;
}

for (const [name, connect] of CLIENTS) {
  for (const kind of ["stdio", "http"]) {
    test(`${name} over ${kind}: instructions, titled tools, a command, the pages as resources`, async () => {
      const client = await connect(kind, kind === "http" ? "staff-secret-token" : undefined);
      try {
        const revision = name === "v1 SDK client" || name.includes("(legacy)") ? "2025-11-25" : "2026-07-28";
        if (typeof client.getNegotiatedProtocolVersion === "function") assert.equal(client.getNegotiatedProtocolVersion(), revision);
        assert.match(client.getInstructions(), /This server reads the Acme docs/);
        assert.equal(client.getServerCapabilities().tools.listChanged, undefined);
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((t) => [t.name, t.title]),
          [
            ["bash", "Read-only shell over the Acme docs"],
            ["search", "Search the Acme docs"],
          ],
        );
        const ls = await client.callTool({ name: "bash", arguments: { command: "ls /" } });
        assert.equal(ls.content[0].text, kind === "http" ? "guides\nindex.md\ninternal\ntmp\n" : "guides\nindex.md\ntmp\n");
        const { resources } = await client.listResources();
        assert.deepEqual(
          resources.map((r) => r.uri),
          ["chromafs://docs/guides/keys.md", "chromafs://docs/index.md", ...(kind === "http" ? ["chromafs://docs/internal/oncall.md"] : [])],
        );
        const { contents } = await client.readResource({ uri: "chromafs://docs/guides/keys.md" });
        assert.equal(contents[0].text, PAGES["guides/keys.md"]);
      } finally {
        await client.close();
      }
    });
  }
}

/** The Inspector's command line (`mcp-inspector --cli`) with `args`: its JSON answer. */
async function inspector(...args) {
  const node = node22();
  assert.ok(node, `the MCP Inspector: ${NO_NODE22}`);
  const cli = path.join(ROOT, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
  const { stdout } = await promisify(execFile)(node, [cli, ...args], { cwd: ROOT, timeout: 120_000 });
  return JSON.parse(stdout);
}

for (const kind of ["stdio", "http"]) {
  test(`the MCP Inspector's command line over ${kind}: titled tools, a command, the pages as resources`, async () => {
    const target = kind === "stdio" ? [process.execPath, ...cliArgs()] : [http.url, "--header", "Authorization: Bearer staff-secret-token"];
    const { tools } = await inspector("--cli", ...target, "--method", "tools/list");
    assert.deepEqual(
      tools.map((t) => t.title),
      ["Read-only shell over the Acme docs", "Search the Acme docs"],
    );
    const ls = await inspector("--cli", ...target, "--method", "tools/call", "--tool-name", "bash", "--tool-arg", "command=ls /");
    assert.equal(ls.content[0].text, kind === "http" ? "guides\nindex.md\ninternal\ntmp\n" : "guides\nindex.md\ntmp\n");
    const { resources } = await inspector("--cli", ...target, "--method", "resources/list");
    assert.equal(resources.length, kind === "http" ? 3 : 2);
    const { contents } = await inspector("--cli", ...target, "--method", "resources/read", "--uri", "chromafs://docs/guides/keys.md");
    assert.equal(contents[0].text, PAGES["guides/keys.md"]);
  });
}
