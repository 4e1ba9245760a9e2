// Answers too long to hold: a lazy URL or a Chroma origin streaming a gigabyte, a lazy file
// longer than its tree says, a page with far more chunks in Chroma than its tree declares.
// Each is an EIO naming the limit, within a few requests and a few seconds, and memory
// stays bounded: the answer is never read past its limit.
//
// The hostile servers are node:http servers on 127.0.0.1 that write their gigabyte a chunk
// at a time, waiting for each to drain, and stop when the client hangs up.
// CHROMAFS_BIG_BODY sets the size they stream (default 1 GiB).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl, newBash } from "../helpers.mjs";
import { startProxy, listen, streamBytes, chroma, collectionId } from "../../../support/proxy.mjs";

const BIG = Number(process.env.CHROMAFS_BIG_BODY ?? 2 ** 30);
const MiB = 2 ** 20;
/** What a test may add to the process's memory while a gigabyte streams at it. */
const MEMORY_BOUND = 300 * MiB;

let proxy;
let lazyServer;
const served = []; // bytes each lazy answer wrote before the client hung up
before(async () => {
  proxy = await startProxy(chromaUrl());
  lazyServer = await listen(
    http.createServer(async (req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      served.push(await streamBytes(res, BIG));
    }),
  );
});
after(async () => {
  await proxy.close();
  await lazyServer.close();
});

/** The peak growth of the process's memory while `work` runs, sampled every 10 ms. */
async function peakMemory(work) {
  const base = process.memoryUsage();
  const peak = { rss: 0, arrayBuffers: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss - base.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers - base.arrayBuffers);
  };
  const timer = setInterval(sample, 10);
  try {
    const result = await work();
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

function logPeak(what, peak) {
  console.log(`# ${what}: memory peak +${(peak.rss / MiB).toFixed(1)} MiB rss, +${(peak.arrayBuffers / MiB).toFixed(1)} MiB arrayBuffers (body streamed: ${BIG} bytes)`);
}

/** A collection written by hand: `records` and a plain JSON tree. */
async function seed(name, records, tree) {
  await chroma(chromaUrl(), "DELETE", `/collections/${name}`).catch(() => {});
  await chroma(chromaUrl(), "POST", "/collections", { name, get_or_create: true });
  const id = await collectionId(chromaUrl(), name);
  await putTree(id, tree);
  for (let i = 0; i < records.length; i += 1000) {
    const batch = records.slice(i, i + 1000);
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: batch.map((r) => r.id),
      embeddings: batch.map(() => [0, 0, 1]),
      documents: batch.map((r) => r.document),
      metadatas: batch.map((r) => r.metadata),
    });
  }
  return id;
}

async function putTree(id, tree) {
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: ["__path_tree__"], embeddings: [[0, 0, 1]], documents: [JSON.stringify(tree)], metadatas: [{ kind: "tree" }],
  });
}

test("a lazy URL streaming a gigabyte: cat fails at lazyMaxBytes, promptly, memory bounded", { timeout: 60000 }, async () => {
  const url = `${lazyServer.url}/spec.json`;
  await seed("bodies-lazy", [], { "a.md": { isPublic: true, size: 0 }, "spec.json": { isPublic: true, url } });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "bodies-lazy", lazyOrigins: [lazyServer.url] });
  const bash = newBash(fs, { customCommands: fs.commands() });
  const t0 = Date.now();
  const { result: r, peak } = await peakMemory(() => bash.exec("cat /spec.json"));
  logPeak("lazy URL without a size", peak);
  assert.equal(r.exitCode, 1);
  assert.equal(r.stderr, `cat: /spec.json: Input/output error (GET ${url} answered more than 33554432 bytes (lazyMaxBytes))\n`);
  assert.ok(Date.now() - t0 < 10000, `${Date.now() - t0} ms`);
  assert.ok(peak.rss < MEMORY_BOUND, `rss grew ${peak.rss} bytes`);
  assert.equal(fs.stats().cachedPages, 0, "nothing kept");
  // The host can set its own cap.
  const small = await ChromaFs.connect({ url: chromaUrl(), collection: "bodies-lazy", lazyOrigins: [lazyServer.url], lazyMaxBytes: 100000 });
  await assert.rejects(small.readFile("/spec.json"), { code: "EIO", message: `EIO: i/o error, open '/spec.json': GET ${url} answered more than 100000 bytes (lazyMaxBytes)` });
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(served.every((n) => n < 64 * MiB), `the server stopped early: ${served}`);
});

test("a lazy file whose tree says 10 bytes answering a gigabyte: EIO at once", { timeout: 60000 }, async () => {
  const url = `${lazyServer.url}/small.json`;
  await seed("bodies-lazy-size", [], { "small.json": { isPublic: true, url, size: 10 } });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "bodies-lazy-size", lazyOrigins: [lazyServer.url] });
  const t0 = Date.now();
  const { peak } = await peakMemory(() =>
    assert.rejects(fs.readFile("/small.json"), {
      code: "EIO",
      message: `EIO: i/o error, open '/small.json': GET ${url} answered more than 10 bytes (the size the path tree declares)`,
    }),
  );
  logPeak("lazy URL declared 10 bytes", peak);
  assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
  assert.ok(peak.rss < MEMORY_BOUND, `rss grew ${peak.rss} bytes`);
  // The host's own lazyFiles are held to the cap too.
  const own = await ChromaFs.connect({ url: chromaUrl(), collection: "bodies-lazy-size", lazyFiles: { "/own.json": url }, lazyMaxBytes: 1000 });
  await assert.rejects(own.readFile("/own.json"), { code: "EIO", message: `EIO: i/o error, open '/own.json': GET ${url} answered more than 1000 bytes (lazyMaxBytes)` });
});

test("a Chroma origin answering one page read with a gigabyte: EIO naming the limit, memory bounded, the next read works", { timeout: 60000 }, async () => {
  const content = Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(3, "0")} of a page in many chunks\n`).join("");
  await ingest({ url: chromaUrl(), collection: "bodies-chroma", files: [{ path: "big.md", content }], chunkBytes: 64 });
  const fs = await ChromaFs.connect({ url: proxy.url, collection: "bodies-chroma" });
  let streamed = null;
  proxy.state.handle = (req, body, res) => {
    if (streamed || !req.url.endsWith("/get") || !body.includes('"big.md#0"')) return false;
    res.writeHead(200, { "content-type": "application/json" });
    streamed = streamBytes(res, BIG, '{"ids":["');
    return true;
  };
  try {
    const t0 = Date.now();
    const { peak } = await peakMemory(() =>
      assert.rejects(fs.readFile("/big.md"), {
        code: "EIO",
        message: `EIO: i/o error, open '/big.md': Chroma answered page "big.md" with more than 36864000 bytes (the most an answer of 300 records may take)`,
      }),
    );
    logPeak("Chroma page read", peak);
    assert.ok(Date.now() - t0 < 10000, `${Date.now() - t0} ms`);
    assert.ok(peak.rss < MEMORY_BOUND, `rss grew ${peak.rss} bytes`);
    assert.ok((await streamed) < 64 * MiB, "the proxy stopped writing soon after the limit");
    assert.equal(fs.stats().retries, 0, "an answer too long is not retried");
    assert.equal(await fs.readFile("/big.md"), content, "nothing cached, the breaker closed: the next read works");
  } finally {
    proxy.reset();
  }
});

test("a page with far more chunks than its tree declares fails within a few requests, for cat and searches alike", { timeout: 60000 }, async () => {
  const chunk = (slug, i, doc) => ({ id: `${slug}#${i}`, document: doc, metadata: { page_slug: slug, chunk_index: i } });
  const records = [chunk("a.md", 0, "x a\n"), ...Array.from({ length: 5000 }, (_, i) => chunk("big.md", i, "x\n"))];
  const id = await seed("bodies-chunks", records, { "a.md": { isPublic: true, size: 4, chunks: 1 }, "big.md": { isPublic: true, size: 2, chunks: 1 } });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "bodies-chunks" });
  const bash = newBash(fs, { customCommands: fs.commands() });
  const declared = `unexpected answer from Chroma to page "big.md": more records than 1 (the chunk count the path tree declares)`;
  for (const cmd of ["cat /big.md", "grep -c x /big.md", "grep -r x /", "rg -c x /"]) {
    const before = fs.stats().requests;
    const t0 = Date.now();
    const r = await bash.exec(cmd);
    const sent = fs.stats().requests - before;
    assert.notEqual(r.exitCode, 0, cmd);
    assert.ok(r.stderr.includes(declared), `${cmd}: ${r.stderr}`);
    assert.ok(sent <= 4, `${cmd}: ${sent} requests`);
    assert.ok(Date.now() - t0 < 5000, `${cmd}: ${Date.now() - t0} ms`);
  }
  // No chunk count: one chunk a byte of the declared size, else 4,096 chunks.
  await putTree(id, { "a.md": { isPublic: true }, "big.md": { isPublic: true, size: 2 } });
  const sized = await ChromaFs.connect({ url: chromaUrl(), collection: "bodies-chunks" });
  let before = sized.stats().requests;
  await assert.rejects(sized.readFile("/big.md"), {
    code: "EIO",
    message: `EIO: i/o error, open '/big.md': unexpected answer from Chroma to page "big.md": more records than 2 (one a byte of the size the path tree declares)`,
  });
  assert.equal(sized.stats().requests - before, 1);
  await putTree(id, { "a.md": { isPublic: true }, "big.md": { isPublic: true } });
  const bare = await ChromaFs.connect({ url: chromaUrl(), collection: "bodies-chunks" });
  const bareBash = newBash(bare, { customCommands: bare.commands() });
  before = bare.stats().requests;
  const r = await bareBash.exec("grep -c x /big.md");
  assert.notEqual(r.exitCode, 0);
  assert.ok(r.stderr.includes(`page "big.md": more records than 4096 (the most for a page whose chunk count the path tree does not give)`), r.stderr);
  assert.ok(bare.stats().requests - before <= 15, `${bare.stats().requests - before} requests: ceil(4097 / 300)`);
  assert.equal((await bareBash.exec("cat /a.md")).stdout, "x a\n", "other pages read as ever");
});
