// The official MCP conformance suite (@modelcontextprotocol/conformance) against the real
// `chromafs mcp --http`. Most of its scenarios test the suite's own fixture server (tools
// named test_*, resources test://…, prompts); the generic ones must pass on any server, and
// this one passes exactly those: the handshake, ping, the tool list, the resource list and
// the Origin/Host rule. What the others gave is printed.
//
// The suite needs Node 22 or later: scripts/setup.sh installs one from the npm registry into
// .tools/node22 (CHROMAFS_NODE22 names another).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ingest } from "chromafs";
import { NO_NODE22, ROOT, chromaUrl, node22 } from "../helpers.mjs";

/** The scenarios every server must pass. */
const GENERIC = ["dns-rebinding-protection", "ping", "resources-list", "server-initialize", "tools-list"];

let server, url, out;

before(async () => {
  await ingest({
    url: chromaUrl(),
    collection: "mcp-conformance",
    files: [
      { path: "index.md", content: "# Acme\nStart here.\n" },
      { path: "internal/oncall.md", content: "Page the rota.\n" },
    ],
    access: { "internal/**": { isPublic: false, groups: ["staff"] } },
  });
  server = spawn(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--http", "0", "--url", chromaUrl(), "--collection", "mcp-conformance"], { stdio: ["ignore", "pipe", "pipe"] });
  url = await new Promise((resolve, reject) => {
    let said = "";
    const read = (chunk) => {
      said += chunk;
      const found = /(http:\/\/\S+\/mcp)/.exec(said);
      if (found) resolve(found[1]);
    };
    server.stdout.on("data", read);
    server.stderr.on("data", read);
    server.once("exit", (code) => reject(new Error(`chromafs mcp --http exited with ${code}: ${said}`)));
  });
  out = mkdtempSync(path.join(os.tmpdir(), "chromafs-conformance-"));
});
after(() => {
  server?.kill();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Each scenario's checks, by scenario, from the suite's output directory. */
function results(dir) {
  const byScenario = new Map();
  for (const entry of readdirSync(dir)) {
    const [, scenario] = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry) ?? [];
    const file = path.join(dir, entry, "checks.json");
    if (scenario && existsSync(file)) byScenario.set(scenario, JSON.parse(readFileSync(file, "utf8")));
  }
  return byScenario;
}

test("the conformance suite's generic scenarios pass against chromafs mcp --http", async (t) => {
  const node = node22();
  assert.ok(node, `the conformance suite: ${NO_NODE22}`);
  const cli = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  const log = await new Promise((resolve) => {
    const run = spawn(node, [cli, "server", "--url", url, "-o", out], { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    run.stdout.on("data", (c) => (text += c));
    run.stderr.on("data", (c) => (text += c));
    // It exits 1 while any fixture scenario fails: the checks below are what counts.
    run.once("exit", () => resolve(text));
  });
  const byScenario = results(out);
  assert.ok(byScenario.size >= GENERIC.length, `the suite ran: ${log.slice(-2000)}`);
  const passed = (checks) => checks.length > 0 && checks.every((c) => c.status === "SUCCESS" || c.status === "INFO");
  for (const scenario of GENERIC) {
    const checks = byScenario.get(scenario);
    assert.ok(checks, `${scenario} ran`);
    assert.ok(passed(checks), `${scenario}: ${JSON.stringify(checks.filter((c) => c.status !== "SUCCESS"), null, 1)}`);
  }
  const listed = (checks) => checks.find((c) => c.id === "resources-list")?.details?.resources ?? [];
  assert.deepEqual(listed(byScenario.get("resources-list")), ["chromafs://docs/index.md"], "the anonymous caller's one page");
  const rest = [...byScenario].filter(([s]) => !GENERIC.includes(s)).sort(([a], [b]) => (a < b ? -1 : 1));
  t.diagnostic(`the suite's fixture scenarios: ${rest.map(([s, checks]) => `${s} ${passed(checks) ? "passes" : "fails"}`).join(", ")}`);
});
