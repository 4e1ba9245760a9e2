// `chromafs annotate`: a collection written by another tool gets access and directories
// on its chunks, in place; searches are then scoped inside Chroma, with the same output,
// until the other tool rewrites its tree.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { ChromaFs } from "chromafs";
import { ROOT, assertWithinQuotas, chromaUrl, cloudChroma, newBash, reference, sameOutput } from "../helpers.mjs";
import { chroma, startProxy } from "../../../support/proxy.mjs";

const PAGES = {
  "index.md": { text: "welcome\nthe token is in the guides\n", access: { isPublic: true } },
  "guides/setup.md": { text: "setup\nuse the token here\n", access: { isPublic: true } },
  "guides/deep/more.md": { text: "more token text\n", access: { isPublic: true } },
  "internal/keys.md": { text: "the admin token\n", access: { isPublic: false, groups: ["admin"] } },
};
let cloud, front, id;

async function writeTree(extra = {}) {
  const tree = Object.fromEntries(Object.entries({ ...PAGES, ...extra }).map(([slug, p]) => [slug, p.access]));
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: ["__path_tree__"], embeddings: [[0, 0]], documents: [JSON.stringify(tree)], metadatas: [{ chromafs: "path-tree", line_aligned: true }],
  });
}

before(async () => {
  cloud = await cloudChroma();
  front = await startProxy(cloud.url); // to read what the searches ask
  await chroma(chromaUrl(), "DELETE", "/collections/other-tool").catch(() => {});
  ({ id } = await chroma(chromaUrl(), "POST", "/collections", { name: "other-tool", get_or_create: true }));
  // Another tool's layout: its own ids, one chunk per line, nothing but slug and index.
  const records = Object.entries(PAGES).flatMap(([slug, p], n) =>
    p.text.split(/(?<=\n)/).map((line, i) => ({ id: `doc-${n}-${i}`, line, slug, i })),
  );
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: records.map((r) => r.id), embeddings: records.map(() => [1, 0]), documents: records.map((r) => r.line),
    metadatas: records.map((r) => ({ page_slug: r.slug, chunk_index: r.i })),
  });
  await writeTree();
});
after(() => Promise.all([front.close(), cloud.close()]));

// Asynchronous: the quota proxy lives in this process and must keep answering.
const cli = (...args) =>
  new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), "annotate", "--url", cloud.url, "--collection", "other-tool", ...args], (error, stdout, stderr) =>
      resolve({ status: error ? error.code : 0, stdout, stderr }),
    );
  });

async function searchLikeTheReference(groups, grepIndex = true) {
  const fs = await ChromaFs.connect({ url: front.url, collection: "other-tool", groups, grepIndex });
  const files = Object.entries(PAGES)
    .filter(([, p]) => p.access.isPublic || (p.access.groups ?? []).some((g) => groups.includes(g)))
    .map(([slug, p]) => ({ path: slug, content: Buffer.from(p.text), mtime: 0 }));
  const ref = await reference(files);
  const ours = newBash(fs, { customCommands: fs.commands() });
  // The directory search comes first: once a session holds every page a search reads, it
  // is answered from memory and Chroma is not asked.
  for (const cmd of ["grep -rl token /guides", "grep -rn token /", "rg -n token /guides/deep", "grep -rc token /"]) {
    await sameOutput(ours, ref, cmd, fs);
  }
  ref.remove();
  return fs;
}

test("annotating makes searches scoped inside Chroma, with the same output", async () => {
  const before = await searchLikeTheReference([]);
  assert.equal(before.info().chunkAccess, false);
  let r = await cli("--grep-index");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "annotated 6 chunks of collection other-tool: 6 written, 0 already right; grep index: 2 records, 2 written; 7 requests\n");
  front.reset();
  // Without the grep index: Chroma's text filter, scoped by directory and access.
  const fs = await searchLikeTheReference([], false);
  assert.equal(fs.info().chunkAccess, true);
  const searches = front.state.requests.map((q) => q.body).filter((b) => b.includes("where_document"));
  assert.ok(searches.some((b) => b.includes('{"dirs":{"$contains":"guides"}}')), searches.join("\n"));
  assert.ok(searches.every((b) => b.includes('{"isPublic":true}')), "scoped by access inside Chroma");
  // With it: no text filter at all.
  front.reset();
  const indexed = await searchLikeTheReference([]);
  assert.deepEqual(indexed.info().grepIndex, { used: true, why: null });
  assert.ok(front.state.requests.every((q) => !q.body.includes("where_document")));
  assert.ok(indexed.stats().commands.some((c) => c.index), JSON.stringify(indexed.stats().commands));
  await searchLikeTheReference(["admin"]);
  r = await cli("--grep-index");
  assert.equal(r.stdout, "annotated 6 chunks of collection other-tool: 0 written, 6 already right; grep index: 2 records; 5 requests\n", "resumable: nothing left to do");
});

test("a chunk the other tool rewrites in place, tree untouched: without --grep-index every grep finds its new text; with it, after annotate runs again", async () => {
  const rewrite = (line) => chroma(chromaUrl(), "POST", `/collections/${id}/update`, { ids: ["doc-1-1"], embeddings: [[1, 0]], documents: [line] });
  const greps = async () => {
    const fs = await ChromaFs.connect({ url: cloud.url, collection: "other-tool" });
    const bash = newBash(fs, { customCommands: fs.commands() });
    const out = [];
    for (const cmd of ["grep -rn zebra /", "grep -rli ZEBRA /guides", "rg -n zebra /"]) out.push((await bash.exec(cmd)).stdout);
    return { fs, out };
  };
  try {
    let r = await cli();
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /; grep index: 0 records(, \d+ of an older index removed)?; /, "without --grep-index no index is kept");
    await rewrite("use the zebra token here\n");
    let { fs, out } = await greps();
    assert.deepEqual(fs.info().grepIndex.used, false);
    assert.deepEqual(out, ["/guides/setup.md:2:use the zebra token here\n", "/guides/setup.md\n", "/guides/setup.md:2:use the zebra token here\n"]);
    // With the index, a rewrite behind its back is found once annotate runs again.
    r = await cli("--grep-index");
    await rewrite("use the quagga token here\n");
    await cli("--grep-index");
    await rewrite("use the zebra token here\n");
    r = await cli("--grep-index");
    assert.match(r.stdout, /grep index: 2 records, \d+ written/);
    ({ fs, out } = await greps());
    assert.deepEqual(fs.info().grepIndex.used, true);
    assert.deepEqual(out, ["/guides/setup.md:2:use the zebra token here\n", "/guides/setup.md\n", "/guides/setup.md:2:use the zebra token here\n"]);
  } finally {
    await rewrite("use the token here\n");
    await cli("--grep-index");
  }
});

test("a tree rewritten by the other tool is not trusted with the old annotations", async () => {
  await cli();
  assert.equal((await ChromaFs.connect({ url: cloud.url, collection: "other-tool" })).info().chunkAccess, true);
  await writeTree({ "new.md": { text: "", access: { isPublic: true } } });
  const fs = await ChromaFs.connect({ url: cloud.url, collection: "other-tool" });
  assert.equal(fs.info().chunkAccess, false, "annotations name the tree they were written for");
  await writeTree();
});

test("chunks the other tool named as ingest does are read by id once annotated", async () => {
  // The same pages, the other tool naming chunks SLUG#INDEX.
  await chroma(chromaUrl(), "DELETE", "/collections/other-tool-ids").catch(() => {});
  const { id: ids } = await chroma(chromaUrl(), "POST", "/collections", { name: "other-tool-ids", get_or_create: true });
  const records = Object.entries(PAGES).flatMap(([slug, p]) => p.text.split(/(?<=\n)/).map((line, i) => ({ line, slug, i })));
  const tree = Object.fromEntries(Object.entries(PAGES).map(([slug, p]) => [slug, p.access]));
  await chroma(chromaUrl(), "POST", `/collections/${ids}/upsert`, {
    ids: [...records.map((r) => `${r.slug}#${r.i}`), "__path_tree__"],
    embeddings: [...records.map(() => [1, 0]), [0, 0]],
    documents: [...records.map((r) => r.line), JSON.stringify(tree)],
    metadatas: [...records.map((r) => ({ page_slug: r.slug, chunk_index: r.i })), { chromafs: "path-tree" }],
  });
  const r = await new Promise((resolve) =>
    execFile(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), "annotate", "--url", cloud.url, "--collection", "other-tool-ids"], (error, stdout) => resolve({ error, stdout })),
  );
  assert.equal(r.error, null);
  assert.match(r.stdout, /every page's chunks counted: pages are read by id/);
  front.reset();
  const fs = await ChromaFs.connect({ url: front.url, collection: "other-tool-ids" });
  assert.deepEqual([fs.info().chunkAccess, fs.info().readById], [true, true]);
  const files = Object.entries(PAGES)
    .filter(([, p]) => p.access.isPublic)
    .map(([slug, p]) => ({ path: slug, content: Buffer.from(p.text), mtime: 0 }));
  const ref = await reference(files);
  const ours = newBash(fs, { customCommands: fs.commands() });
  for (const cmd of ["grep -rn token /", "cat /guides/setup.md /index.md", "cat /internal/keys.md"]) {
    await sameOutput(ours, ref, cmd, fs);
  }
  ref.remove();
  const reads = front.state.requests.map((q) => q.body).filter((b) => b.includes('"ids"') && b.includes("#0"));
  assert.ok(reads.some((b) => b.includes('"guides/setup.md#0"')), reads.join("\n"));
  assert.ok(front.state.requests.every((q) => !q.body.includes("internal/keys.md#")), "the hidden page is never asked for");
});

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
