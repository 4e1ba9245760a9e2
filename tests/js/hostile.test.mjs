// Bad input and misbehaving servers: access rules that match nothing, a cache far smaller
// than a search, a server that ignores `offset`, a tree built to exhaust memory. Each is
// a clear error or the right answer, promptly; never a hang.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChromaFs, ingest } from "chromafs";
import { ROOT, chromaUrl, newBash } from "./helpers.mjs";
import { startProxy, chroma, collectionId } from "./proxy.mjs";

let proxy;
before(async () => {
  proxy = await startProxy(chromaUrl());
});
after(() => proxy.close());

test("an access rule that matches no page stops the ingest before anything is written", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "chromafs-rules-"));
  try {
    mkdirSync(path.join(dir, "internal"));
    writeFileSync(path.join(dir, "index.md"), "home\n");
    writeFileSync(path.join(dir, "internal/keys.md"), "keys\n");
    writeFileSync(path.join(dir, "access.json"), JSON.stringify({ "/internal/**": { isPublic: false, groups: ["admin"] } }));
    const cli = (...args) => spawnSync(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), "ingest", dir, "--url", chromaUrl(), ...args], { encoding: "utf8" });
    const r = cli("--collection", "rules-unmatched", "--access", path.join(dir, "access.json"));
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `chromafs: access rule "/internal/**" matches no page: globs are relative to the docs folder, did you mean "internal/**"?\n`);
    const lookup = await fetch(`${chromaUrl()}/api/v2/tenants/default_tenant/databases/default_database/collections/rules-unmatched`);
    assert.equal(lookup.status, 404, "nothing was written, not even the collection");
    const ok = cli("--collection", "rules-private", "--default-private");
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /\(0 public, 3 restricted\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("6,000 pages through a 1 MiB cache: the search completes with the right answer", { timeout: 300000 }, async () => {
  const files = Array.from({ length: 6000 }, (_, i) => ({ path: `p/${String(i).padStart(4, "0")}.md`, content: `page ${i}${i % 100 ? "" : " zzz"}\n` }));
  await ingest({ url: chromaUrl(), collection: "small-cache", files });
  for (const cacheBytes of [1 << 20, 1000, 0]) {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "small-cache", cacheBytes });
    const bash = newBash(fs, { customCommands: fs.commands() });
    const r = await bash.exec("grep -rc zzz / | wc -l; grep -rl zzz / | wc -l");
    assert.equal(r.stdout, "6000\n60\n", `cacheBytes ${cacheBytes}`);
    assert.ok(fs.stats().cachedBytes <= cacheBytes);
  }
});

test("a server that ignores offset: pages read by id are right, a paginated read is an error naming the cause", async () => {
  const BIG = Array.from({ length: 700 }, (_, i) => `line ${String(i).padStart(4, "0")} of a long page, padded....\n`).join("");
  await ingest({ url: chromaUrl(), collection: "no-offset", files: [{ path: "big.md", content: BIG }], chunkBytes: 64 });
  const ignoreOffset = (body) => {
    const b = JSON.parse(body);
    delete b.offset;
    return JSON.stringify(b);
  };
  proxy.state.rewrite = ignoreOffset;
  try {
    const byId = await ChromaFs.connect({ url: proxy.url, collection: "no-offset" });
    assert.equal(await byId.readFile("/big.md"), BIG, "chunk ids need no offset");
    // The same chunks under a tree written by another tool: read by slug, page by page.
    const id = await collectionId(chromaUrl(), "no-offset");
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], documents: [JSON.stringify({ "big.md": { isPublic: true } })], metadatas: [{ chromafs: "path-tree" }],
    });
    const bySlug = await ChromaFs.connect({ url: proxy.url, collection: "no-offset", timeoutMs: 2000 });
    const t0 = Date.now();
    await assert.rejects(bySlug.readFile("/big.md"), {
      code: "EIO",
      message: `EIO: i/o error, open '/big.md': unexpected answer from Chroma to page "big.md": record "big.md#0" came back twice (the server ignores offset or repeats records)`,
    });
    assert.ok(Date.now() - t0 < 2000, `${Date.now() - t0} ms`);
    proxy.state.rewrite = null;
    assert.equal(await bySlug.readFile("/big.md"), BIG, "a well-behaved server reads it");
  } finally {
    proxy.reset();
  }
});

test("a hostile tree fails connect at once, naming the limit", async () => {
  await ingest({ url: chromaUrl(), collection: "hostile-tree", files: [{ path: "a.md", content: "a\n" }] });
  const id = await collectionId(chromaUrl(), "hostile-tree");
  const setTree = (tree) =>
    chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], documents: [JSON.stringify(tree)], metadatas: [{ chromafs: "path-tree" }],
    });
  for (const [key, limit] of [
    [Array(50000).fill("d").join("/"), "path longer than 4096 bytes"],
    [Array(300).fill("d").join("/"), "path deeper than 256 levels"],
  ]) {
    await setTree({ [key]: { isPublic: true } });
    ChromaFs.forgetTrees();
    const t0 = Date.now();
    await assert.rejects(ChromaFs.connect({ url: chromaUrl(), collection: "hostile-tree" }), (e) => {
      assert.equal(e.code, "EIO");
      assert.match(e.message, new RegExp(`^EIO: i/o error, connect 'hostile-tree': corrupt path tree: entry "d/d/d[d/]*"…: ${limit}$`));
      return true;
    });
    assert.ok(Date.now() - t0 < 1000, `${Date.now() - t0} ms`);
  }
});
