// `chromafs mcp` over a collection written by Chroma's own client with an OpenAI-compatible
// embedding function recorded, driven by the MCP SDK's client as an agent would: given
// only the key's environment variable and the operator's word for the service's address
// (`--embed-url`), the search tool embeds questions through the service (and a question
// asked again costs no request); without that word, nothing is sent there, the search
// ranks by words, and the operator is told why. A service named on the command line is
// built again by each worker thread, which reads the key from its own environment.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT, chromaUrl } from "../helpers.mjs";
import { startEmbeddingService } from "../../../support/embedding-service.mjs";
import { writeWithChromaClient } from "../../../support/chroma-client.mjs";

const KEY = "sk-mcp-recorded-0123456789";
const PAGES = {
  "guides/rotate.md": "# Rotating keys\nOpen settings, then tokens, and choose regenerate to rotate a key.\n",
  "guides/install.md": "# Install\nRun the installer with the prefix option.\n",
  "reference/limits.md": "# Limits\nRequests are limited per minute and per day.\n",
};
let service;

before(async () => {
  service = await startEmbeddingService({ key: KEY });
  process.env.CHROMA_OPENAI_API_KEY = KEY;
  try {
    await writeWithChromaClient({ url: chromaUrl(), name: "mcp-recorded", pages: PAGES, apiBase: service.url });
  } finally {
    delete process.env.CHROMA_OPENAI_API_KEY;
  }
});
after(() => service.close());

/** The environment of the server: this process's, without any key but `keys`. */
function environment(keys) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/API_KEY/.test(k)));
  return { ...env, ...keys };
}

/** The server over stdio with `args`, its stderr collected: `{ client, stderr() }`. */
async function server(args, env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--collection", "mcp-recorded", ...args],
    env,
    stderr: "pipe",
  });
  let said = "";
  transport.stderr.on("data", (d) => (said += d));
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => said };
}

test("given the key's variable and the service's address, the search tool embeds through the collection's own service", async () => {
  service.reset();
  // One worker: the questions it embedded are kept in that thread.
  const { client, stderr } = await server(["--embed-url", service.url, "--workers", "1"], environment({ CHROMA_OPENAI_API_KEY: KEY }));
  try {
    const question = "how do I rotate a key";
    const first = await client.callTool({ name: "search", arguments: { query: question, k: 2 } });
    assert.ok(!first.isError, JSON.stringify(first.content));
    assert.equal(first.structuredContent.results[0].path, "/guides/rotate.md");
    const again = await client.callTool({ name: "search", arguments: { query: question, k: 2 } });
    assert.deepEqual(again.structuredContent, first.structuredContent);
    assert.equal(service.asked(question), 1, "one request the first time, none the second");
    assert.ok(service.requests.every((r) => r.auth === `Bearer ${KEY}`));
    // The service's vectors are in play: a dense search answers through the bash tool.
    const dense = await client.callTool({ name: "bash", arguments: { command: "search --json -n 1 settings regenerate tokens" } });
    assert.match(dense.content[0].text, /"path":"\/guides\/rotate\.md"/);
    assert.equal(service.asked("settings regenerate tokens"), 1);
    assert.doesNotMatch(stderr(), /not used/);
  } finally {
    await client.close();
  }
});

test("without the operator's word for its address, the service receives nothing, and the operator is told", async () => {
  service.reset();
  const { client, stderr } = await server([], environment({ CHROMA_OPENAI_API_KEY: KEY }));
  try {
    const r = await client.callTool({ name: "search", arguments: { query: "how do I rotate a key", k: 1 } });
    assert.equal(r.structuredContent.results[0].path, "/guides/rotate.md", "words still find it");
    assert.equal(service.requests.length, 0);
    const said = stderr();
    assert.match(said, /the collection's embedding function is not used: search ranks by words only: the collection's api_base http:\/\/127\.0\.0\.1:\d+ is not allowed: allow it with --embed-url http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(said.match(/not used/g).length, 1, "said once");
    assert.ok(!said.includes(KEY));
  } finally {
    await client.close();
  }
});

test("without a key in its environment, the operator is told which variable to set", async () => {
  service.reset();
  const { client, stderr } = await server(["--embed-url", service.url], environment({}));
  try {
    await client.callTool({ name: "search", arguments: { query: "install prefix", k: 1 } });
    assert.equal(service.requests.length, 0);
    assert.match(stderr(), /search ranks by words only: no key: set CHROMA_OPENAI_API_KEY or OPENAI_API_KEY/);
  } finally {
    await client.close();
  }
});

test("--embed openai:MODEL names the service: each worker builds it again and reads the key from its own environment", async () => {
  service.reset();
  const args = ["--embed", "openai:text-embedding-3-small", "--embed-url", service.url, "--embed-key-env", "DOCS_EMBED_KEY", "--workers", "2"];
  const { client, stderr } = await server(args, environment({ DOCS_EMBED_KEY: KEY }));
  try {
    const calls = await Promise.all(["rotate a key", "installer prefix option", "limited per minute"].map((q) => client.callTool({ name: "search", arguments: { query: q, k: 1 } })));
    assert.deepEqual(calls.map((c) => c.structuredContent.results[0].path), ["/guides/rotate.md", "/guides/install.md", "/reference/limits.md"]);
    assert.ok(service.requests.length >= 3);
    assert.ok(service.requests.every((r) => r.auth === `Bearer ${KEY}`), "every worker sent the key it read itself");
    assert.ok(!stderr().includes(KEY));
  } finally {
    await client.close();
  }
});

test("a search stopped at its deadline aborts its embedding request: a hanging service holds no slot, the next search is answered once it recovers, and no answer shows its address", async () => {
  service.reset();
  // One worker, four requests at once to the service (its default): four hung questions
  // would hold every slot for the service's 60 s timeout.
  const { client, stderr } = await server(["--embed-url", service.url, "--workers", "1", "--call-timeout-ms", "1500"], environment({ CHROMA_OPENAI_API_KEY: KEY }));
  try {
    service.fail({ kind: "hang" }, 4);
    const stopped = await Promise.all(["rotate one key", "rotate two keys", "rotate three keys", "rotate four keys"].map((q) => client.callTool({ name: "search", arguments: { query: q, k: 1 } })));
    for (const r of stopped) {
      const said = r.content.map((c) => c.text).join("");
      assert.equal(r.isError, true, said);
      assert.doesNotMatch(said, new RegExp(`127\\.0\\.0\\.1|${service.port}|/v1`), "the service's address is not shown");
    }
    // The requests were given up with their calls, not left to the service's timeout.
    for (let i = 0; i < 100 && service.hanging() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(service.hanging(), 0, "no request to the service is still open");
    const next = await client.callTool({ name: "search", arguments: { query: "how do I rotate a key", k: 1 } });
    assert.equal(next.isError, false, JSON.stringify(next.content));
    assert.equal(next.structuredContent.results[0].path, "/guides/rotate.md");
    assert.match(stderr(), new RegExp(`the embedding service at ${service.origin.replace(/[.]/g, "\\.")}`), "the cause is in the operator's log");
  } finally {
    await client.close();
  }
});
