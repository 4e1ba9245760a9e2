// The Chroma client and the caches, observed from outside: pagination, concurrency,
// headers, the per-process tree cache, the content LRU, lazy files and options.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl, newBash } from "../helpers.mjs";
import { startProxy, chroma, collectionId } from "../../../support/proxy.mjs";

// These tests watch what each session sends: pages shared by the sessions of this process would
// answer in Chroma's place (the process tier is tested in process-tier.test.mjs).
ChromaFs.setProcessCacheBytes(0);

let proxy;
// Lines of 37 bytes: with 64-byte chunks, one line per chunk.
const BIG = Array.from({ length: 700 }, (_, i) => `line ${String(i).padStart(4, "0")} of a long page, padded....\n`).join("");
const MANY = Array.from({ length: 60 }, (_, i) => ({ path: `many/p${String(i).padStart(2, "0")}.md`, content: `page ${i}\nneedle ${i % 7}\n` }));

before(async () => {
  await ingest({ url: chromaUrl(), collection: "client", files: [{ path: "big.md", content: BIG }, ...MANY], chunkBytes: 64 });
  proxy = await startProxy(chromaUrl());
});
after(() => proxy.close());

test("a page of more than 300 chunks is fetched by id, at most 300 ids a request, all at once", async () => {
  const fs = await ChromaFs.connect({ url: proxy.url, collection: "client" });
  proxy.reset();
  // Answers held a little, so requests sent together are seen together on a busy machine.
  proxy.state.delayMs = 20;
  assert.equal(await fs.readFile("/big.md"), BIG);
  proxy.state.delayMs = 0;
  const gets = proxy.state.requests.filter((r) => r.url.endsWith("/get"));
  assert.ok(BIG.split("\n")[0].length + 1 > 32, "two lines never share a 64-byte chunk");
  // 700 chunks: requests for 300, 300 and 100 ids, in flight together.
  assert.deepEqual(gets.map((g) => JSON.parse(g.body).ids.length).sort(), [100, 300, 300]);
  assert.ok(gets.every((g) => JSON.parse(g.body).offset === undefined), "no sequential offset walk");
  assert.equal(proxy.state.maxInFlight, 3);
  assert.equal(fs.stats().cacheMisses, 1);
  assert.equal(await fs.readFile("/big.md"), BIG);
  assert.equal(fs.stats().cacheHits, 1);
  assert.equal(proxy.state.requests.length, gets.length, "a cached page costs nothing");
});

test("never more than maxConcurrency requests in flight", async () => {
  for (const limit of [10, 3]) {
    const fs = await ChromaFs.connect({ url: proxy.url, collection: "client", maxConcurrency: limit });
    proxy.reset();
    proxy.state.delayMs = 20;
    const r = await newBash(fs).exec("grep -rc needle /many | wc -l");
    assert.equal(r.stdout.trim(), "60");
    assert.equal(proxy.state.requests.length, 60);
    assert.equal(proxy.state.maxInFlight, limit);
  }
  proxy.reset();
});

test("concurrent reads of one page share one request", async () => {
  const fs = await ChromaFs.connect({ url: proxy.url, collection: "client" });
  proxy.reset();
  proxy.state.delayMs = 50;
  const texts = await Promise.all(Array.from({ length: 8 }, () => fs.readFile("/many/p01.md")));
  assert.ok(texts.every((t) => t === "page 1\nneedle 1\n"));
  assert.equal(proxy.state.requests.length, 1);
  proxy.reset();
});

test("the tree is loaded once per process; later sessions check it with one small request", async () => {
  ChromaFs.forgetTrees();
  proxy.reset();
  const first = await ChromaFs.connect({ url: proxy.url, collection: "client" });
  assert.equal(first.stats().requests, 2, "collection id + tree record");
  assert.equal(first.stats().treeFromCache, false);
  proxy.reset();
  const second = await ChromaFs.connect({ url: proxy.url, collection: "client", groups: ["x"] });
  assert.equal(second.stats().requests, 1);
  assert.equal(second.stats().treeFromCache, true);
  const check = JSON.parse(proxy.state.requests[0].body);
  assert.deepEqual(check.ids, ["__path_tree__", "__path_tree__@annotations"], "the tree's manifest, not the tree");
  proxy.reset();
  const relaxed = await ChromaFs.connect({ url: proxy.url, collection: "client", treeMaxAgeMs: 60000 });
  assert.equal(relaxed.stats().requests, 0, "checked less than treeMaxAgeMs ago: no request");
  assert.equal(relaxed.stats().treeFromCache, true);
  assert.equal(first.info().treeVersion, second.info().treeVersion);
  assert.equal(first.info().lineAligned, true);
  assert.equal(first.info().chunkAccess, true);
});

test("the content cache is an LRU bounded by cacheBytes", async () => {
  const fs = await ChromaFs.connect({ url: proxy.url, collection: "client", cacheBytes: 40 });
  for (const i of ["00", "01", "02", "03"]) await fs.readFile(`/many/p${i}.md`);
  const s = fs.stats();
  assert.ok(s.cachedBytes <= 40, JSON.stringify(s));
  assert.equal(s.cachedPages, 2);
  proxy.reset();
  await fs.readFile("/many/p03.md");
  assert.equal(proxy.state.requests.length, 0, "recent pages stay");
  await fs.readFile("/many/p00.md");
  assert.equal(proxy.state.requests.length, 1, "old pages were evicted");
  const none = await ChromaFs.connect({ url: proxy.url, collection: "client", cacheBytes: 0 });
  await none.readFile("/many/p00.md");
  assert.equal(none.stats().cachedBytes, 0);
});

test("token and extra headers go to Chroma", async () => {
  ChromaFs.forgetTrees();
  proxy.reset();
  const fs = await ChromaFs.connect({ url: proxy.url, collection: "client", token: "ck-secret", headers: { "x-team": "docs" } });
  await fs.readFile("/many/p05.md");
  assert.ok(proxy.state.requests.length >= 3);
  for (const r of proxy.state.requests) {
    assert.equal(r.headers["x-chroma-token"], "ck-secret");
    assert.equal(r.headers["x-team"], "docs");
  }
});

test("tenant, database, custom field names, tree id and extension", async () => {
  const url = chromaUrl();
  const db = `db_${process.pid}`;
  await fetch(`${url}/api/v2/tenants/default_tenant/databases`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: db }),
  });
  const common = { url, database: db, collection: "custom", slugField: "page", chunkIndexField: "n", treeId: "tree" };
  await ingest({ ...common, files: [{ path: "guides/intro", content: "hi\n" }, { path: "Makefile.json", content: "{}\n" }], plainTree: true });
  const fs = await ChromaFs.connect({ ...common, extension: ".mdx" });
  const r = await newBash(fs).exec("find / -type f; cat /guides/intro.mdx");
  assert.equal(r.stdout, "/Makefile.json\n/guides/intro.mdx\nhi\n");
  await assert.rejects(ChromaFs.connect({ ...common, database: "default_database" }), /collection "custom" does not exist/);
});

test("lazy files: tree urls and lazyFiles, loaded on first read, failures are EIO", async () => {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    assert.equal(req.headers["x-chroma-token"], undefined, "Chroma's token never goes to a lazy file's server");
    if (req.url === "/spec.json") res.end('{"openapi":"3.1.0"}\n');
    else res.writeHead(404).end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    await ingest({ url: chromaUrl(), collection: "lazy", files: [{ path: "index.md", content: "home\n" }] });
    const lid = await collectionId(chromaUrl(), "lazy");
    await chroma(chromaUrl(), "POST", `/collections/${lid}/upsert`, {
      ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], metadatas: [{ chromafs: "path-tree" }],
      documents: [JSON.stringify({
        "index.md": { isPublic: true, size: 5 },
        "specs/v2.json": { isPublic: true, url: `${base}/spec.json` },
        "specs/gone.json": { isPublic: true, url: `${base}/gone.json` },
      })],
    });
    ChromaFs.forgetTrees();
    const untrusted = await ChromaFs.connect({ url: chromaUrl(), collection: "lazy" });
    await assert.rejects(untrusted.readFile("/specs/v2.json"), {
      code: "EIO",
      message: `EIO: i/o error, open '/specs/v2.json': GET ${base}/spec.json refused: ${base} is not https: (set lazyOrigins to allow it)`,
    });
    assert.equal(hits, 0, "a tree's URL outside lazyOrigins is never fetched");
    const fs = await ChromaFs.connect({
      url: chromaUrl(), token: "ck-secret", collection: "lazy", lazyOrigins: [base],
      lazyFiles: { "/extra/notes.txt": async () => "from the host\n", "/extra/bytes.bin": () => new Uint8Array([104, 105, 10]) },
    });
    const bash = newBash(fs);
    assert.equal(hits, 0, "nothing is fetched before a read");
    let r = await bash.exec("ls /specs /extra; cat /specs/v2.json /extra/notes.txt /extra/bytes.bin; wc -c /specs/v2.json");
    assert.equal(r.stdout, "/specs:\ngone.json\nv2.json\n\n/extra:\nbytes.bin\nnotes.txt\n" + '{"openapi":"3.1.0"}\nfrom the host\nhi\n20 /specs/v2.json\n');
    assert.equal(hits, 1);
    await assert.rejects(fs.readFile("/specs/gone.json"), {
      code: "EIO", message: `EIO: i/o error, open '/specs/gone.json': GET ${base}/gone.json answered HTTP 404`,
    });
    r = await bash.exec("cat /specs/v2.json");
    assert.equal(hits, 2, "a loaded lazy file is cached");
  } finally {
    server.close();
  }
});
