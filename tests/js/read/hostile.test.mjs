// Hostile input and misbehaving servers: access rules that match nothing, a cache far
// smaller than a search, a server that ignores `offset`, trees that are huge, malformed or
// built to exhaust memory, pages of many chunks, patterns built to be slow, absurd paths.
// Each is the right answer or a clear error, promptly — never a hang, a crash or an answer
// that reads as "no match".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { ROOT, chromaUrl, newBash } from "../helpers.mjs";
import { startProxy, chroma, collectionId } from "../../../support/proxy.mjs";

let proxy;
before(async () => {
  proxy = await startProxy(chromaUrl());
  const files = [
    { path: "a.md", content: `${"a".repeat(40)}!\nhello world\n` },
    { path: "b.md", content: "nothing here\n" },
    // One page of 10,000 chunks (64-byte chunks, one line each).
    { path: "big.md", content: Array.from({ length: 10000 }, (_, i) => `line ${String(i).padStart(5, "0")} ${"x".repeat(50)}\n`).join("") },
  ];
  await ingest({ url: chromaUrl(), collection: "hostile-input", files, chunkBytes: 64 });
});
after(() => proxy.close());

const shell = async (collection, extra = {}) => {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection, scratch: "/tmp", ...extra });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  return { fs, exec: (cmd) => safeExec(bash, cmd) };
};

/** A collection whose tree record another tool wrote, as given. */
async function treeOnly(collection, document) {
  await ingest({ url: chromaUrl(), collection, files: [{ path: "a.md", content: "a\n" }] });
  const id = await collectionId(chromaUrl(), collection);
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], documents: [document], metadatas: [{ chromafs: "path-tree" }],
  });
  ChromaFs.forgetTrees();
}

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

test("a hostile tree entry is set aside at once, naming the limit; the rest connects", async () => {
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
    await setTree({ "a.md": { isPublic: true }, [key]: { isPublic: true } });
    ChromaFs.forgetTrees();
    const t0 = Date.now();
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "hostile-tree" });
    assert.ok(Date.now() - t0 < 1000, `${Date.now() - t0} ms`);
    const [problem] = fs.info().brokenPages;
    assert.match(problem, new RegExp(`^corrupt path tree: entry "d/d/d[d/]*"…: ${limit}$`));
    assert.deepEqual(fs.getAllPaths().filter((p) => p.endsWith(".md")), ["/a.md"]);
    assert.equal(await fs.readFile("/a.md"), "a\n");
  }
});

// Hostile input at scale, straight to Chroma.

test("a tree of 200,000 entries: connect, list and find work; a page with no chunks is an I/O error", { timeout: 120000 }, async () => {
  const tree = {};
  for (let d = 0; d < 200; d++) for (let f = 0; f < 1000; f++) tree[`d${d}/f${f}.md`] = { isPublic: true, size: 3 };
  await treeOnly("hostile-wide", gzipSync(JSON.stringify(tree)).toString("base64"));
  const { fs, exec } = await shell("hostile-wide");
  assert.equal(fs.stats().files, 200000);
  assert.equal((await exec("ls / | wc -l")).stdout, "201\n", "200 directories and the scratch directory");
  assert.equal((await exec("find /d7 -type f | wc -l")).stdout, "1000\n");
  const r = await exec("cat /d7/f1.md");
  assert.equal(r.exitCode, 1);
  assert.match(r.stderr, /^cat: \/d7\/f1.md: Input\/output error \(/);
});

test("trees that are bombs fail connect at once, naming why; nonsense entries are set aside at once", async () => {
  for (const [what, document, reason] of [
    ["a gzip bomb", gzipSync(Buffer.alloc(129 << 20, 32)).toString("base64"), /gzip data inflates past 134217728 bytes/],
    ["a key of only slashes", JSON.stringify({ "///": { isPublic: true }, "a.md": { isPublic: true } }), /entry "\/\/\/": empty path segment/],
    ["10,000 levels", JSON.stringify({ [Array(10000).fill("d").join("/")]: { isPublic: true } }), /path (longer than 4096 bytes|deeper than 256 levels)/],
  ]) {
    await treeOnly("hostile-bomb", document);
    const t0 = Date.now();
    const connected = ChromaFs.connect({ url: chromaUrl(), collection: "hostile-bomb" });
    if (what === "a gzip bomb") {
      await assert.rejects(connected, (e) => {
        assert.equal(e.code, "EIO", what);
        assert.match(e.message, reason, what);
        return true;
      });
    } else {
      const fs = await connected;
      assert.match(fs.info().brokenPages.join("\n"), reason, what);
      assert.ok(!fs.getAllPaths().some((p) => p.includes("/d/d/") || p === "/" + "///"), what);
    }
    assert.ok(Date.now() - t0 < 5000, `${what}: ${Date.now() - t0} ms`);
  }
});

test("a page of 10,000 chunks reads whole, in parallel requests of 300", async () => {
  const { fs, exec } = await shell("hostile-input");
  const before = fs.stats().requests;
  const r = await exec("wc -l /big.md; tail -1 /big.md");
  assert.equal(r.stdout, `10000 /big.md\nline 09999 ${"x".repeat(50)}\n`);
  assert.equal(fs.stats().requests - before, Math.ceil(10000 / 300));
  assert.equal((await exec("grep -c 'line 0999' /big.md")).stdout, "10\n");
});

test("patterns built to be slow: the right answer, or refused at once", async () => {
  const { exec } = await shell("hostile-input");
  let r = await exec("grep -rE '(a+)+$' /; echo rc=$?");
  assert.equal(r.stdout, "rc=1\n", "catastrophic backtracking is not a hang");
  r = await exec("grep -rnE '(a|aa)+!' /");
  assert.equal(r.stdout, `/a.md:1:${"a".repeat(40)}!\n`);
  r = await exec(`grep -r '${"x".repeat(100000)}' /`);
  assert.deepEqual([r.stdout, r.stderr, r.exitCode], ["", "grep: a pattern of 100000 bytes is longer than the 8192 this shell searches with\n", 2]);
  r = await exec(`rg -e '${"y".repeat(9000)}'`);
  assert.equal(r.exitCode, 2);
  const patterns = Array.from({ length: 10000 }, (_, i) => `word${i}`).join("\n");
  r = await exec(`printf '%s\\nhello\\n' '${patterns}' > /tmp/pats; grep -rlf /tmp/pats /`);
  assert.deepEqual([r.stdout, r.exitCode], ["/a.md\n/tmp/pats\n", 0], "-f with 10,000 patterns (the pattern file matches too)");
});

test("absurd paths are missing files, promptly", async () => {
  const { exec } = await shell("hostile-input");
  let r = await exec("cat $'/a\\x00b'; echo rc=$?");
  assert.match(r.stdout, /rc=1\n$/);
  const t0 = Date.now();
  r = await exec(`cat /${"d/".repeat(50000)}x; echo rc=$?`);
  assert.match(r.stderr, /No such file or directory/);
  assert.equal(r.stdout, "rc=1\n");
  r = await exec(`grep -r foo /${"d/".repeat(50000)}x; echo rc=$?`);
  assert.equal(r.stdout, "rc=2\n");
  assert.ok(Date.now() - t0 < 10000, `${Date.now() - t0} ms`);
});
