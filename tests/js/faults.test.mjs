// Faults: a server that stops, errors, throttles or stalls, a corrupt tree, a missing
// chunk. Each gives a clear EIO error, nothing crashes, and the session recovers.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChromaFs, ingest } from "chromafs";
import { ROOT, assertWithinQuotas, chromaUrl, cloudChroma, freePort, newBash } from "./helpers.mjs";
import { startProxy, chroma, collectionId } from "./proxy.mjs";

const files = [
  { path: "a.md", content: "alpha line\n" },
  { path: "b.md", content: "bravo line\n" },
  { path: "c.md", content: "charlie line\n" },
  { path: "long.md", content: "x".repeat(50) + "\n" + "y".repeat(50) + "\n" + "z".repeat(50) + "\n" },
];
let proxy, cloud;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "faults", files, chunkBytes: 64 });
  // Faults are injected in front of a Chroma that enforces Chroma Cloud's quotas.
  cloud = await cloudChroma();
  proxy = await startProxy(cloud.url);
});
after(() => Promise.all([proxy.close(), cloud.close()]));

const connect = (extra = {}) => ChromaFs.connect({ url: proxy.url, collection: "faults", ...extra });

test("a 500 is retried; a persistent one is EIO naming the status and Chroma's message", async () => {
  const fs = await connect();
  proxy.state.failures = [500, 503];
  assert.equal(await fs.readFile("/a.md"), "alpha line\n");
  assert.equal(fs.stats().retries, 2);
  proxy.state.failWhen = () => 500;
  await assert.rejects(fs.readFile("/b.md"), (e) => {
    assert.equal(e.code, "EIO");
    assert.equal(e.message, `EIO: i/o error, open '/b.md': Chroma answered HTTP 500 to page "b.md": injected 500`);
    return true;
  });
  const bash = newBash(fs);
  const r = await bash.exec("cat /b.md; echo rc=$?");
  assert.equal(r.stdout, "rc=1\n");
  proxy.reset();
  assert.equal((await bash.exec("cat /b.md")).stdout, "bravo line\n", "works again once the server is healthy");
});

test("429 honours Retry-After", async () => {
  const fs = await connect();
  proxy.state.failures = [429];
  proxy.state.retryAfter = 0.3;
  const t0 = Date.now();
  assert.equal(await fs.readFile("/c.md"), "charlie line\n");
  assert.ok(Date.now() - t0 >= 290, "waited as asked");
  proxy.reset();
});

test("client errors are not retried", async () => {
  const fs = await connect();
  proxy.reset();
  proxy.state.failWhen = () => 400;
  await assert.rejects(fs.readFile("/a.md"), /HTTP 400 to page "a.md": injected 400/);
  assert.equal(fs.stats().retries, 0);
  assert.equal(proxy.state.requests.length, 1);
  proxy.reset();
});

test("a slow server times out with a clear error, and is not retried", async () => {
  const fs = await connect({ timeoutMs: 200 });
  proxy.state.delayMs = 1500;
  const t0 = Date.now();
  await assert.rejects(fs.readFile("/c.md"), (e) => {
    assert.equal(e.code, "EIO");
    assert.match(e.message, /^EIO: i\/o error, open '\/c.md': Chroma did not answer page "c.md" within 200 ms$/);
    return true;
  });
  assert.ok(Date.now() - t0 < 1200);
  proxy.reset();
});

test("a missing chunk, a duplicate or a changed page is EIO, never stitched", async () => {
  ChromaFs.forgetTrees();
  const fs = await connect();
  const id = await collectionId(chromaUrl(), "faults");
  const chunk = await chroma(chromaUrl(), "POST", `/collections/${id}/get`, { ids: ["long.md#1"], include: ["documents", "metadatas", "embeddings"] });
  await chroma(chromaUrl(), "POST", `/collections/${id}/delete`, { ids: ["long.md#1"] });
  try {
    // The read carries the session's access, so a missing chunk may also be a page made
    // private since: the error says so, and never shows stitched text.
    const changed = "(the docs may have changed since this session connected: reconnect)";
    await assert.rejects(fs.readFile("/long.md"), { code: "EIO", message: `EIO: i/o error, open '/long.md': page "long.md": chunk 1 is missing ${changed}` });
    const r = await newBash(fs).exec("cat /long.md; wc -l /a.md");
    assert.equal(r.exitCode, 0, "the last command still runs");
    assert.equal(r.stdout, "1 /a.md\n");
    // A stray duplicate of chunk 0 under another id never reaches a page read by chunk id.
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["long.md#1", "stray"],
      embeddings: [chunk.embeddings[0], chunk.embeddings[0]],
      documents: [chunk.documents[0], "x".repeat(50) + "\n"],
      metadatas: [chunk.metadatas[0], { ...chunk.metadatas[0], chunk_index: 0 }],
    });
    assert.equal(await fs.readFile("/long.md"), files[3].content);
    await chroma(chromaUrl(), "POST", `/collections/${id}/delete`, { ids: ["stray"] });
    // Content that no longer matches the tree's size.
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["long.md#1"], embeddings: [chunk.embeddings[0]], documents: ["short\n"], metadatas: [chunk.metadatas[0]],
    });
    // A new session: the page read above is in this one's memory.
    await assert.rejects((await connect()).readFile("/long.md"), /the chunks hold 108 bytes but the path tree says 153/);
  } finally {
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["long.md#1"], embeddings: chunk.embeddings, documents: chunk.documents, metadatas: chunk.metadatas,
    });
  }
  assert.equal(await fs.readFile("/long.md"), files[3].content, "repaired data reads again");
});

test("a corrupt or missing tree makes connect fail with the reason", async () => {
  await ingest({ url: chromaUrl(), collection: "faults-tree", files });
  const id = await collectionId(chromaUrl(), "faults-tree");
  const setTree = (doc) =>
    chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], documents: [doc], metadatas: [{ chromafs: "path-tree" }],
    });
  const open = () => {
    ChromaFs.forgetTrees();
    return ChromaFs.connect({ url: chromaUrl(), collection: "faults-tree" });
  };
  for (const [doc, message] of [
    ["H4sIAAAAAAAA/wMAAAAAAAAAAAA=!!", "corrupt path tree: neither JSON nor base64: invalid base64 character at offset 28"],
    ["aGVsbG8gd29ybGQ=", "corrupt path tree: not gzip data"],
    ['{"a.md": {"isPublic": true}, "a.md/b.md": {"isPublic": true}}', 'corrupt path tree: entry "a.md/b.md": lies below /a.md, which is the file "a.md"'],
    ['{"../etc/passwd": {"isPublic": true}}', `corrupt path tree: entry "../etc/passwd": '..' is not allowed in a path`],
    ['{"a.md": {"isPublic": true}, "a.md": {"isPublic": false}}', 'corrupt path tree: invalid JSON: duplicate key "a.md"'],
    ['{"a.md": {"isPublic": "yes"}}', 'corrupt path tree: entry "a.md": isPublic must be true or false'],
  ]) {
    await setTree(doc);
    await assert.rejects(open(), (e) => {
      assert.equal(e.code, "EIO");
      assert.ok(e.message.startsWith(`EIO: i/o error, connect 'faults-tree': ${message}`), `${e.message}\n≠ ${message}`);
      return true;
    });
  }
  await chroma(chromaUrl(), "POST", `/collections/${id}/delete`, { ids: ["__path_tree__"] });
  await assert.rejects(open(), { message: `EIO: i/o error, connect 'faults-tree': collection "faults-tree" has no path tree record "__path_tree__"` });
  await assert.rejects(ChromaFs.connect({ url: chromaUrl(), collection: "no-such-collection" }), {
    message: `EIO: i/o error, connect 'no-such-collection': collection "no-such-collection" does not exist`,
  });
});

test("a server stopped mid-session: EIO with the cause, then recovery once it is back", { timeout: 120000 }, async () => {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "chromafs-stop-"));
  const chromaSh = path.join(ROOT, "scripts/chroma.sh");
  const url = `http://127.0.0.1:${port}`;
  execFileSync("bash", [chromaSh, "start", String(port), dir], { stdio: "inherit" });
  try {
    await ingest({ url, collection: "stopping", files });
    const fs = await ChromaFs.connect({ url, collection: "stopping", retries: 1 });
    const bash = newBash(fs);
    assert.equal((await bash.exec("cat /a.md")).stdout, "alpha line\n");
    execFileSync("bash", [chromaSh, "stop", String(port)]);
    await assert.rejects(fs.readFile("/b.md"), (e) => {
      assert.equal(e.code, "EIO");
      assert.match(e.message, /^EIO: i\/o error, open '\/b.md': cannot reach Chroma for page "b.md": fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
      return true;
    });
    let r = await bash.exec("cat /a.md; cat /b.md; ls /");
    assert.equal(r.stdout, "alpha line\na.md\nb.md\nc.md\nlong.md\n", "cached pages and listings keep working");
    assert.equal(r.exitCode, 0);
    execFileSync("bash", [chromaSh, "start", String(port), dir], { stdio: "inherit" });
    r = await bash.exec("cat /b.md");
    assert.equal(r.stdout, "bravo line\n");
  } finally {
    execFileSync("bash", [chromaSh, "stop", String(port)]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
