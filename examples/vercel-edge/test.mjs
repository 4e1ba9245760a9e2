// End-to-end test of the edge function: bundle it (build.mjs), write a small collection
// into a real Chroma with chromafs's `ingest`, run the bundle in Vercel's `edge-runtime`
// (edge-host.mjs) and call it over HTTP.
//
//   node --test --test-timeout=120000 test.mjs
//
// Starts Chroma 1.5.9 with ../../scripts/chroma.sh on a free port, unless CHROMAFS_TEST_URL
// names a server to use instead.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ingest } from "chromafs";
import { build, functionDir } from "./build.mjs";
import { startEdgeFunction } from "./edge-host.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const chromaScript = join(here, "../../scripts/chroma.sh");
const collection = `vercel-edge-${process.pid}-${Date.now()}`;

const AUTH_PAGE = "# Authentication\n\nSend the access_token header with every request.\nTokens expire after one hour.\n";
const SECRET_PAGE = "# Internal runbook\n\nRotate the access_token signing key: hunter2-rotation.\n";
const FILLER_PAGES = 40;

function docs() {
  const files = [
    { path: "index.md", content: "# Docs\n\nWelcome. Start with guide/quickstart.md.\n" },
    { path: "guide/quickstart.md", content: "# Quickstart\n\nInstall the CLI, then log in.\n" },
    { path: "guide/auth.md", content: AUTH_PAGE },
    { path: "api/reference.md", content: "# API reference\n\nGET /v1/items lists items.\n" },
    { path: "internal/secret.md", content: SECRET_PAGE },
  ];
  for (let i = 0; i < FILLER_PAGES; i++) {
    const n = String(i).padStart(2, "0");
    files.push({ path: `guide/topics/topic-${n}.md`, content: `# Topic ${n}\n\nNothing to see in topic ${n}.\n` });
  }
  return files;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let chroma; // { port, dir } when this test started the server
function stopChroma() {
  if (!chroma) return;
  const { port, dir } = chroma;
  chroma = undefined;
  try {
    execFileSync("bash", [chromaScript, "stop", String(port)], { stdio: "inherit" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
// Also when the outer `timeout` ends the run.
process.once("exit", stopChroma);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    stopChroma();
    process.exit(128 + (signal === "SIGINT" ? 2 : 15));
  });
}

let chromaUrl;
let edge; // the running function: { url, runtime, bindings, close }
let bundle; // build summary

/** POSTs `body` (an object, or a string sent as is) to the function. */
async function call(body, { method = "POST", headers = { "content-type": "application/json" } } = {}) {
  const response = await fetch(new URL("/api/exec", edge.url), {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Runs a command through the function and returns `{stdout, stderr, exitCode, requests}`. */
async function exec(command, groups) {
  const r = await call(groups === undefined ? { command } : { command, groups });
  assert.equal(r.status, 200, `HTTP ${r.status} for ${JSON.stringify(command)}: ${r.text}`);
  return r.json;
}

before(async () => {
  bundle = await build({ log: false });
  let url = process.env.CHROMAFS_TEST_URL;
  if (!url) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "chromafs-vercel-edge-"));
    chroma = { port, dir };
    execFileSync("bash", [chromaScript, "start", String(port), dir], { stdio: "inherit" });
    url = `http://127.0.0.1:${port}`;
  }
  const summary = await ingest({
    url,
    collection,
    files: docs(),
    access: { "internal/**": { isPublic: false, groups: ["admin"] } },
  });
  assert.equal(summary.restrictedPages, 1);
  chromaUrl = url;
  edge = await startEdgeFunction({ functionDir, env: { CHROMA_URL: url, CHROMA_COLLECTION: collection } });
  // First request in this isolate: resolves the collection and loads the path tree.
  const first = await exec("true");
  assert.equal(first.exitCode, 0);
  const sizes = bundle.files.map((f) => `${f.name} ${f.bytes} B (${f.gzip} B gzip)`).join(", ");
  console.log(`# bundle: ${sizes}; total ${bundle.totalBytes} B (${bundle.totalGzip} B gzip)`);
});

after(async () => {
  await edge?.close();
  stopChroma();
});

describe("the bundle", () => {
  test("imports the wasm modules (the filesystem, the tools) as `?module` bindings and nothing from node:", () => {
    const code = readFileSync(join(functionDir, "index.js"), "utf8");
    assert.match(code, /from\s*"\.\/chromafs_core_bg\.wasm\?module"/);
    assert.match(code, /from\s*"\.\/chromafs_tools_bg\.wasm\?module"/);
    assert.doesNotMatch(code, /from\s*"node:/);
    assert.equal(edge.bindings.length, 2);
    const vc = JSON.parse(readFileSync(join(functionDir, ".vc-config.json"), "utf8"));
    assert.equal(vc.runtime, "edge");
    assert.equal(vc.entrypoint, "index.js");
  });
});

describe("the edge runtime", () => {
  test("has no DecompressionStream or CompressionStream", () => {
    assert.equal(edge.runtime.evaluate("typeof DecompressionStream"), "undefined");
    assert.equal(edge.runtime.evaluate("typeof CompressionStream"), "undefined");
  });

  test("refuses to compile wasm from bytes and code from strings", async () => {
    const bytes = "new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])"; // an empty module
    assert.throws(() => edge.runtime.evaluate(`new WebAssembly.Module(${bytes})`), /Wasm code generation disallowed by embedder/);
    await assert.rejects(edge.runtime.evaluate(`WebAssembly.compile(${bytes})`), /Wasm code generation disallowed by embedder/);
    assert.throws(() => edge.runtime.evaluate(`eval("1")`), /Code generation from strings disallowed/);
  });

  test("gzip fails with a message; the rest of the shell is unaffected", async () => {
    const r = await exec("echo hi | gzip > /dev/null; echo after");
    assert.equal(r.stderr, "gzip: zlib is not available in the edge runtime\n");
    assert.equal(r.stdout, "after\n");
  });
});

describe("commands", () => {
  test("ls / lists the public tree", async () => {
    const r = await exec("ls /");
    assert.deepEqual(r, { stdout: "api\nguide\nindex.md\n", stderr: "", exitCode: 0, requests: 0 });
  });

  test("cat prints a page exactly", async () => {
    const r = await exec("cat /guide/auth.md");
    assert.equal(r.stdout, AUTH_PAGE);
    assert.equal(r.exitCode, 0);
    assert.ok(r.requests <= 1, `cat made ${r.requests} requests`);
  });

  test("grep -r is pushed down to Chroma: a few requests for many pages", async (t) => {
    const r = await exec("grep -rn access_token /");
    t.diagnostic(`grep -rn over ${FILLER_PAGES + 4} visible pages: ${r.requests} Chroma requests`);
    assert.equal(r.stdout, "/guide/auth.md:3:Send the access_token header with every request.\n");
    assert.equal(r.exitCode, 0);
    assert.ok(r.requests >= 1 && r.requests <= 3, `grep made ${r.requests} requests over ${FILLER_PAGES + 4} pages`);
  });

  test("find and wc see the same tree", async () => {
    const r = await exec("find /guide -name '*.md' | wc -l");
    assert.equal(r.stdout.trim(), String(FILLER_PAGES + 2));
  });

  test("concurrent requests share the isolate", async () => {
    const results = await Promise.all([
      exec("cat /index.md"),
      exec("ls /guide"),
      exec("grep -c items /api/reference.md"),
      exec("cat /internal/secret.md", ["admin"]),
      exec("cat /internal/secret.md"),
    ]);
    assert.equal(results[0].stdout, "# Docs\n\nWelcome. Start with guide/quickstart.md.\n");
    assert.equal(results[1].stdout, "auth.md\nquickstart.md\ntopics\n");
    assert.equal(results[2].stdout, "1\n");
    assert.equal(results[3].stdout, SECRET_PAGE);
    assert.equal(results[4].exitCode, 1);
  });
});

describe("access control", () => {
  test("a restricted page does not exist without the group", async () => {
    for (const groups of [undefined, [], ["billing"]]) {
      const ls = await exec("ls /", groups);
      assert.equal(ls.stdout, "api\nguide\nindex.md\n");
      const cat = await exec("cat /internal/secret.md", groups);
      assert.deepEqual([cat.stdout, cat.stderr, cat.exitCode], ["", "cat: /internal/secret.md: No such file or directory\n", 1]);
      const grep = await exec("grep -rl hunter2 /", groups);
      assert.deepEqual([grep.stdout, grep.exitCode], ["", 1]);
      const find = await exec("find / -path '*internal*'", groups);
      assert.equal(find.stdout, "");
    }
  });

  test("the group makes it visible", async () => {
    const ls = await exec("ls /", ["admin"]);
    assert.equal(ls.stdout, "api\nguide\nindex.md\ninternal\n");
    const cat = await exec("cat /internal/secret.md", ["admin"]);
    assert.equal(cat.stdout, SECRET_PAGE);
    const grep = await exec("grep -rn access_token /", ["admin"]);
    assert.equal(
      grep.stdout,
      "/guide/auth.md:3:Send the access_token header with every request.\n" +
        "/internal/secret.md:3:Rotate the access_token signing key: hunter2-rotation.\n",
    );
  });
});

describe("read-only", () => {
  test("a redirection into the docs fails like bash on a read-only mount", async () => {
    const r = await exec("echo x > /a.md");
    assert.deepEqual(r, { stdout: "", stderr: "bash: /a.md: Read-only file system\n", exitCode: 1, requests: 0 });
  });

  test("rm and mkdir fail; /dev/null accepts writes", async () => {
    const rm = await exec("rm /index.md");
    assert.equal(rm.exitCode, 1);
    assert.match(rm.stderr, /^rm: .*(Read-only file system|EROFS)/);
    const mkdir = await exec("mkdir /new");
    assert.equal(mkdir.exitCode, 1);
    assert.match(mkdir.stderr, /^mkdir: .*(Read-only file system|EROFS)/);
    assert.equal((await exec("cat /index.md")).exitCode, 0);
    const devNull = await exec("cat /index.md > /dev/null && echo ok");
    assert.equal(devNull.stdout, "ok\n");
  });
});

describe("input validation", () => {
  test("methods other than POST get 405 with Allow: POST", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const r = await call(method === "GET" ? undefined : { command: "ls" }, { method });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get("allow"), "POST");
      assert.match(r.json.error, /POST/);
    }
  });

  test("malformed bodies get 400 with a reason", async () => {
    const cases = [
      ["not json", /valid JSON/],
      ["", /valid JSON/],
      ["[]", /JSON object/],
      ["null", /JSON object/],
      [{}, /command/],
      [{ command: "" }, /command/],
      [{ command: "   " }, /command/],
      [{ command: 42 }, /command/],
      [{ command: "x".repeat(16 * 1024 + 1) }, /at most 16384 bytes/],
      [{ command: "ls", groups: "admin" }, /groups/],
      [{ command: "ls", groups: [1] }, /group/],
      [{ command: "ls", groups: [""] }, /group/],
      [{ command: "ls", groups: Array.from({ length: 65 }, (_, i) => `g${i}`) }, /groups/],
    ];
    for (const [body, reason] of cases) {
      const r = await call(body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 60)} → ${r.status} ${r.text.slice(0, 200)}`);
      assert.equal(r.headers.get("content-type"), "application/json; charset=utf-8");
      assert.match(r.json.error, reason);
    }
  });
});

describe("configuration errors", () => {
  test("missing settings give 500, an unknown collection 502", async () => {
    const cases = [
      [{}, 500, /CHROMA_URL and CHROMA_COLLECTION/],
      [{ CHROMA_URL: chromaUrl, CHROMA_COLLECTION: `${collection}-missing` }, 502, /cannot open the docs/],
    ];
    for (const [env, status, reason] of cases) {
      const other = await startEdgeFunction({ functionDir, env });
      try {
        const r = await fetch(new URL("/api/exec", other.url), { method: "POST", body: JSON.stringify({ command: "ls /" }) });
        assert.equal(r.status, status);
        assert.match((await r.json()).error, reason);
      } finally {
        await other.close();
      }
    }
  });
});

describe("wasm binding from the host's realm", () => {
  // `vercel dev` compiles `?module` imports in Node's realm and passes them in unchanged;
  // to start there, chromafs's edge entry has to accept a module that is not `instanceof`
  // the function realm's WebAssembly.Module. Skipped (not failed) while it does not.
  test("the function starts and answers", async (t) => {
    let other;
    try {
      other = await startEdgeFunction({
        functionDir,
        env: { CHROMA_URL: "http://127.0.0.1:9", CHROMA_COLLECTION: collection },
        wasmRealm: "host",
      });
    } catch (error) {
      if (/Wasm code generation disallowed by embedder/.test(String(error && error.message))) {
        t.skip("chromafs's edge entry needs a WebAssembly.Module of the function's own realm (see README)");
        return;
      }
      throw error;
    }
    try {
      const r = await fetch(new URL("/api/exec", other.url), { method: "GET" });
      assert.equal(r.status, 405);
    } finally {
      await other.close();
    }
  });
});
