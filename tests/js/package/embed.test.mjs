// chromafs/embed: the real all-MiniLM-L6-v2 model (installed by scripts/model.sh from PyPI),
// checked against an independent JavaScript implementation of the same model, and used end
// to end: `ingest --embed`, the model recorded in the manifest, the CLI picking it up, and
// a ranked search that finds a page by meaning where its words differ.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ChromaFs, ingest } from "chromafs";
import { createEmbedder, MODEL, modelDirs } from "chromafs/embed";
import { ROOT, chromaUrl, chromafsCli, writeTree } from "../helpers.mjs";
import { referenceModel } from "../../../support/bert-reference.mjs";

let embedder;
before(async () => {
  embedder = await createEmbedder();
});

const cos = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

test("the model's vectors are the model's: the same as an independent implementation", async () => {
  const dir = modelDirs().find((d) => d);
  const reference = referenceModel(path.resolve(ROOT, ".models", MODEL));
  const sentences = ["how do i rotate my api keys?", "the weather in paris is mild in spring.", "e4012 means the token expired"];
  const ours = await embedder.embed(sentences);
  for (const [i, s] of sentences.entries()) {
    const theirs = reference.embed(s);
    assert.equal(ours[i].length, 384);
    assert.ok(cos(ours[i], theirs) > 0.9999, `${s}: cosine ${cos(ours[i], theirs)}`);
    for (let k = 0; k < 384; k++) assert.ok(Math.abs(ours[i][k] - theirs[k]) < 2e-4, `${s}[${k}]: ${ours[i][k]} vs ${theirs[k]}`);
  }
  void dir;
});

test("a passage longer than a window of 200 tokens: the mean of its first two windows, as an independent implementation computes it", async () => {
  const reference = referenceModel(path.resolve(ROOT, ".models", MODEL));
  // "paris" is one token: the first window holds exactly 198 of them between [CLS] and [SEP].
  const first = "paris ".repeat(198).trim();
  const answer = "to rotate an api key open settings then tokens and choose regenerate";
  const long = `${first} ${answer}`;
  const [ours, head, question] = await embedder.embed([long, first, "how do i rotate my api key"]);
  const theirs = reference.passage(long, 200, 2);
  assert.ok(cos(ours, theirs) > 0.9999, `cosine ${cos(ours, theirs)}`);
  assert.ok(cos(ours, head) < 0.95, `the second window counts: cosine ${cos(ours, head)} with the first alone`);
  assert.ok(cos(ours, question) > cos(head, question) + 0.1, "a question about the end of the passage finds it");
  // A third window is not read: the passage is its first two windows.
  const two = `${first} ${"tokens ".repeat(198).trim()}`;
  const [a, b] = await embedder.embed([two, `${two} ${answer}`]);
  assert.ok(cos(a, b) > 0.9999, `cosine ${cos(a, b)}`);
  assert.match(embedder.method, /2 windows of 200 tokens/);
});

test("unit length, order kept, batches and long texts", async () => {
  const texts = ["a", "Password reset steps", "x ".repeat(2000), "", "日本語のテキスト"];
  const all = await embedder.embed(texts);
  assert.equal(all.length, texts.length);
  for (const v of all) assert.ok(Math.abs(cos(v, v) - 1) < 1e-4);
  // To the bit: a chunk's vector, and so its distance to a question, may not depend on
  // the other chunks embedded with it (a hidden page's among them).
  for (const [i, t] of texts.entries()) {
    assert.deepEqual(Array.from((await embedder.embed([t]))[0]), Array.from(all[i]), `text ${i} alone and in a batch`);
  }
  const [x, y] = await embedder.embed(["Old keys stop working at once.", "Old keys stop working at once."]);
  assert.deepEqual(Array.from(x), Array.from(y), "one text twice, one vector");
  assert.deepEqual(await embedder.embed([]), []);
  await assert.rejects(embedder.embed("not an array"), TypeError);
  const [a, b, c] = await embedder.embed(["How do I change my password?", "Steps to reset an account password", "Bake the bread for forty minutes"]);
  assert.ok(cos(a, b) > cos(a, c) + 0.3, `paraphrase ${cos(a, b)} vs other ${cos(a, c)}`);
});

test("worker threads give the same vectors, in order, as the model in this thread", async () => {
  const texts = ["short", "Password reset steps for your account", "x ".repeat(600), "", "日本語のテキストです", "a b c d e f g"];
  const one = await embedder.embed(texts);
  let batches = 0;
  const pooled = await createEmbedder({ threads: 2, batchSize: 2, onBatch: (n) => (batches += n) });
  try {
    assert.equal(pooled.threads, 2);
    assert.equal(pooled.method, embedder.method);
    const [many, again] = await Promise.all([pooled.embed(texts), pooled.embed(texts.slice(0, 2))]);
    assert.equal(many.length, texts.length);
    for (const [i, v] of many.entries()) assert.deepEqual(Array.from(v), Array.from(one[i]), `text ${i}`);
    assert.deepEqual(Array.from(again[1]), Array.from(one[1]));
    assert.equal(batches, texts.length + 2, "every text is counted once");
  } finally {
    await pooled.close();
  }
});

test("a missing model is a clear error that says how to install it", async () => {
  await assert.rejects(createEmbedder({ modelDir: "/nonexistent/model" }), /ENOENT|no such file/);
  const saved = process.env.CHROMAFS_MODEL_DIR;
  process.env.CHROMAFS_MODEL_DIR = "/nonexistent/model";
  try {
    const dirs = modelDirs();
    assert.equal(dirs[0], "/nonexistent/model");
  } finally {
    if (saved === undefined) delete process.env.CHROMAFS_MODEL_DIR;
    else process.env.CHROMAFS_MODEL_DIR = saved;
  }
});

const PAGES = {
  "auth/credentials.md": "# Credentials\n\nTo renew a secret, open Settings, then Tokens, and choose Regenerate.\nThe old secret stops working at once.\n",
  "billing/invoices.md": "# Invoices\n\nEvery invoice lists each charge for the month.\n",
  "look/theme.md": "# Theme\n\nPick a palette and a typeface for your site.\n",
};

test("ingest --embed, the manifest's model, and a search that finds a page by meaning", async () => {
  const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content }));
  await ingest({ url: chromaUrl(), collection: "embedded", files, embed: embedder });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded", embed: embedder });
  assert.deepEqual(fs.info().embedding, { model: MODEL, dimension: 384, method: embedder.method });
  // No word of the question is in the page: only the meaning connects them (near enough
  // for the relevance floor: "how do I replace a leaked password with a new one" lies at 0.24, and is told that
  // no page answers).
  const hits = await fs.search("how do I replace a leaked password with a new one", { k: 1 });
  assert.deepEqual(hits.map((h) => h.path), ["/auth/credentials.md"]);
  const words = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded" });
  assert.notDeepEqual((await words.search("how do I replace a leaked password with a new one", { k: 1 }).catch(() => [])).map((h) => h.path), ["/auth/credentials.md"]);
  const other = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded", embed: { embed: embedder.embed, model: "another-model" } });
  await assert.rejects(other.search("colors"), /embedded with "all-MiniLM-L6-v2" and this session embeds with "another-model"/);
});

test("the CLI ingests with --embed and its shell searches with the model by itself", async () => {
  const cli = chromafsCli;
  const dir = path.join(ROOT, "tests/js/fixtures-embed");
  // A collection of its own: the first ingest embeds every chunk, whatever ran before.
  const name = `embedded-cli-${process.pid}-${Date.now()}`;
  const { rm } = await import("node:fs/promises");
  await writeTree(dir, PAGES);
  try {
    const ing = await cli("ingest", dir, "--url", chromaUrl(), "--collection", name, "--embed");
    assert.equal(ing.status, 0, ing.stderr);
    assert.match(ing.stderr, /^chromafs: embedded 3 chunks in \d+ s \([\d.]+ chunks\/s, \d+ threads?\)$/m, "one line, not a terminal");
    const again = await cli("ingest", dir, "--url", chromaUrl(), "--collection", name, "--embed");
    assert.match(again.stderr, /^chromafs: embedded 0 chunks /m, "unchanged pages are not embedded again");
    // As an earlier release of the embedder wrote it: the same model, no method named.
    const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content }));
    await ingest({ url: chromaUrl(), collection: name, files, embed: { model: MODEL, embed: (t) => embedder.embed(t) } });
    const upgraded = await cli("ingest", dir, "--url", chromaUrl(), "--collection", name, "--embed");
    assert.match(upgraded.stderr, /^chromafs: embedded 3 chunks /m, "chunks embedded another way are embedded again");
    const r = await cli("exec", "search -l -n 1 how do I replace a leaked password with a new one", "--url", chromaUrl(), "--collection", name);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "/auth/credentials.md\n");
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: name });
    assert.deepEqual(fs.info().embedding, { model: MODEL, dimension: 384, method: embedder.method }, "the manifest records the method");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
