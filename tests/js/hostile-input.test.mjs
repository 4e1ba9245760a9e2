// Hostile input at scale: huge and malformed trees, pages of many chunks, patterns built
// to be slow, absurd paths. Each is the right answer or a clear error, promptly — never a
// hang, a crash or an answer that reads as "no match".
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { chromaUrl } from "./helpers.mjs";
import { chroma, collectionId } from "./proxy.mjs";

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

before(async () => {
  const files = [
    { path: "a.md", content: `${"a".repeat(40)}!\nhello world\n` },
    { path: "b.md", content: "nothing here\n" },
    // One page of 10,000 chunks (64-byte chunks, one line each).
    { path: "big.md", content: Array.from({ length: 10000 }, (_, i) => `line ${String(i).padStart(5, "0")} ${"x".repeat(50)}\n`).join("") },
  ];
  await ingest({ url: chromaUrl(), collection: "hostile-input", files, chunkBytes: 64 });
});

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

test("trees that are bombs or nonsense fail connect at once, naming why", async () => {
  for (const [what, document, reason] of [
    ["a gzip bomb", gzipSync(Buffer.alloc(129 << 20, 32)).toString("base64"), /gzip data inflates past 134217728 bytes/],
    ["a key of only slashes", JSON.stringify({ "///": { isPublic: true }, "a.md": { isPublic: true } }), /entry "\/\/\/": empty path segment/],
    ["10,000 levels", JSON.stringify({ [Array(10000).fill("d").join("/")]: { isPublic: true } }), /path (longer than 4096 bytes|deeper than 256 levels)/],
  ]) {
    await treeOnly("hostile-bomb", document);
    const t0 = Date.now();
    await assert.rejects(ChromaFs.connect({ url: chromaUrl(), collection: "hostile-bomb" }), (e) => {
      assert.equal(e.code, "EIO", what);
      assert.match(e.message, reason, what);
      return true;
    });
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
  assert.equal(r.stdout, `//a.md:1:${"a".repeat(40)}!\n`);
  r = await exec(`grep -r '${"x".repeat(100000)}' /`);
  assert.deepEqual([r.stdout, r.stderr, r.exitCode], ["", "grep: a pattern of 100000 bytes is longer than the 8192 this shell searches with\n", 2]);
  r = await exec(`rg -e '${"y".repeat(9000)}'`);
  assert.equal(r.exitCode, 2);
  const patterns = Array.from({ length: 10000 }, (_, i) => `word${i}`).join("\n");
  r = await exec(`printf '%s\\nhello\\n' '${patterns}' > /tmp/pats; grep -rlf /tmp/pats /`);
  assert.deepEqual([r.stdout, r.exitCode], ["//a.md\n//tmp/pats\n", 0], "-f with 10,000 patterns (the pattern file matches too)");
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
