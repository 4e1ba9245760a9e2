// A collection a company already has: written by Chroma's own client with Chroma's own
// OpenAI embedding function, which it records in the collection. chromafs reads that
// record at connect and searches with the same service — only at an address the host
// allows, and with a key read from a variable on the allow list — and says in
// `fs.info()` why when it cannot. chromafs's own ingest records its service the same way.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest, openAiEmbedder } from "chromafs";
import { chromaUrl } from "../helpers.mjs";
import { startEmbeddingService } from "../../../support/embedding-service.mjs";
import { writeWithChromaClient } from "../../../support/chroma-client.mjs";

const KEY = "sk-recorded-0123456789";
const PAGES = {
  "guides/rotate.md": "# Rotating keys\nOpen settings, then tokens, and choose regenerate to rotate a key.\n",
  "guides/install.md": "# Install\nRun the installer with the prefix option.\n",
  "reference/limits.md": "# Limits\nRequests are limited per minute and per day.\n",
};
const QUESTION = "how do I rotate a key";
let service;
const env = { CHROMA_OPENAI_API_KEY: KEY };

async function configure(name, embeddingFunction) {
  const base = `${chromaUrl()}/api/v2/tenants/default_tenant/databases/default_database/collections`;
  const { id } = await fetch(`${base}/${name}`).then((r) => r.json());
  const res = await fetch(`${base}/${id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ new_configuration: { embedding_function: embeddingFunction } }) });
  assert.equal(res.status, 200);
  // The record is read with the tree, which this process keeps: the next connect reads both again.
  ChromaFs.forgetTrees();
}

/** Writes `name` with Chroma's client, which reads the key from this process's environment. */
async function written(name) {
  process.env.CHROMA_OPENAI_API_KEY = KEY;
  try {
    return await writeWithChromaClient({ url: chromaUrl(), name, pages: PAGES, apiBase: service.url });
  } finally {
    delete process.env.CHROMA_OPENAI_API_KEY;
  }
}

before(async () => {
  service = await startEmbeddingService({ key: KEY });
  const configuration = await written("recorded-docs");
  assert.deepEqual(configuration.embedding_function, {
    type: "known",
    name: "openai",
    config: { api_base: service.url, api_key_env_var: "CHROMA_OPENAI_API_KEY", model_name: "text-embedding-3-small" },
  });
  await written("recorded-hostile");
});
after(() => service.close());

test("the collection's own service embeds the question when the host allows its address", async () => {
  service.reset();
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-docs", collectionEmbedding: { allowOrigins: [service.origin], env } });
  const info = fs.info().collectionEmbedding;
  assert.equal(info.used, true);
  assert.equal(info.name, "openai");
  assert.equal(info.model, "text-embedding-3-small");
  assert.equal(info.apiBase, service.url);
  assert.equal(info.apiKeyEnvVar, "CHROMA_OPENAI_API_KEY");
  assert.equal(fs.info().collectionDimension, 256);
  const question = `${QUESTION} first`;
  const dense = await fs.search(question, { mode: "dense", k: 1 });
  assert.equal(dense[0].path, "/guides/rotate.md", "found by its vector");
  const hybrid = await fs.search(question, { k: 2 });
  assert.equal(hybrid[0].path, "/guides/rotate.md");
  assert.equal(service.asked(question), 1, "one request the first time, none the second");
  assert.ok(service.requests.every((r) => r.auth === `Bearer ${KEY}`));
  fs.free();
});

test("an address the host does not allow receives nothing: the search ranks by words and says why", async () => {
  service.reset();
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-docs", collectionEmbedding: { env } });
  const info = fs.info().collectionEmbedding;
  assert.equal(info.used, false);
  assert.equal(info.refusedOrigin, service.origin);
  assert.match(info.missing, /api_base http:\/\/127\.0\.0\.1:\d+ is not allowed: allow it with --embed-url/);
  const hits = await fs.search(QUESTION, { k: 1 });
  assert.equal(hits[0].path, "/guides/rotate.md", "words still find it");
  await assert.rejects(fs.search(QUESTION, { mode: "dense" }), /needs an embedding function/);
  assert.equal(service.requests.length, 0);
  fs.free();
  const off = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-docs", collectionEmbedding: false });
  assert.equal(off.info().collectionEmbedding.used, false);
  off.free();
});

test("a recorded key variable off the allow list is never read, nor sent", async () => {
  await configure("recorded-hostile", { type: "known", name: "openai", config: { model_name: "text-embedding-3-small", api_key_env_var: "CHROMAFS_TOKEN", api_base: service.url } });
  const secret = "chroma-token-never-sent";
  service.reset();
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-hostile", collectionEmbedding: { allowOrigins: [service.origin], env: { CHROMAFS_TOKEN: secret } } });
  assert.equal(fs.info().collectionEmbedding.used, false);
  assert.match(fs.info().collectionEmbedding.missing, /^no key: set OPENAI_API_KEY or CHROMA_OPENAI_API_KEY$/);
  assert.match(fs.info().collectionEmbedding.note, /names the key variable CHROMAFS_TOKEN, which is not read \(allow it with --embed-key-env CHROMAFS_TOKEN\)/);
  fs.free();
  const withKey = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-hostile", collectionEmbedding: { allowOrigins: [service.origin], env: { CHROMAFS_TOKEN: secret, OPENAI_API_KEY: KEY } } });
  assert.equal(withKey.info().collectionEmbedding.used, true, "the provider's own variable is read");
  await withKey.search(`${QUESTION} hostile`, { k: 1 });
  assert.ok(service.requests.length > 0);
  assert.ok(service.requests.every((r) => r.auth === `Bearer ${KEY}` && !JSON.stringify(r).includes(secret)));
  withKey.free();
});

test("what chromafs cannot call is named: another provider, another model than the chunks'", async () => {
  await configure("recorded-hostile", { type: "known", name: "cohere", config: { model_name: "embed-english-v3.0", api_key_env_var: "COHERE_API_KEY" } });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-hostile", collectionEmbedding: { env } });
  assert.match(fs.info().collectionEmbedding.missing, /'cohere', and chromafs calls OpenAI-compatible services \('openai'\) only/);
  fs.free();
  // chromafs's ingest embedded the chunks with its built-in hashing, whatever the record says.
  await ingest({ url: chromaUrl(), collection: "recorded-ingested", files: Object.entries(PAGES).map(([path, content]) => ({ path, content })) });
  await configure("recorded-ingested", { type: "known", name: "openai", config: { model_name: "text-embedding-3-small", api_key_env_var: "CHROMA_OPENAI_API_KEY" } });
  const ingested = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-ingested", collectionEmbedding: { env } });
  assert.match(ingested.info().collectionEmbedding.missing, /embedded with chromafs-hash \(the path tree's manifest\), not the collection's text-embedding-3-small/);
  ingested.free();
});

test("a service whose vectors are not as long as the collection's is an error, never a ranking", async () => {
  await configure("recorded-hostile", { type: "known", name: "openai", config: { model_name: "text-embedding-3-small", api_key_env_var: "CHROMA_OPENAI_API_KEY", api_base: service.url, dimensions: 32 } });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-hostile", collectionEmbedding: { allowOrigins: [service.origin], env } });
  assert.equal(fs.info().collectionEmbedding.used, true);
  await assert.rejects(fs.search(`${QUESTION} shorter`), (e) => e.code === "EIO" && /vectors have 256 dimensions and this session's have 32/.test(e.message));
  fs.free();
});

test("chromafs's ingest through a service records it as Chroma's clients do, and searches with it", async () => {
  service.reset();
  const embed = openAiEmbedder({ url: service.url, model: "text-embedding-3-small", env });
  const files = Object.entries(PAGES).map(([path, content]) => ({ path, content }));
  const base = `${chromaUrl()}/api/v2/tenants/default_tenant/databases/default_database/collections`;
  await fetch(`${base}/recorded-by-ingest`, { method: "DELETE" });
  const summary = await ingest({ url: chromaUrl(), collection: "recorded-by-ingest", files, embed });
  assert.equal(summary.chunksWritten, 3);
  const collection = await fetch(`${base}/recorded-by-ingest`).then((r) => r.json());
  assert.deepEqual(collection.configuration_json.embedding_function, {
    type: "known",
    name: "openai",
    config: { api_base: service.url, api_key_env_var: "CHROMA_OPENAI_API_KEY", model_name: "text-embedding-3-small" },
  });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "recorded-by-ingest", collectionEmbedding: { allowOrigins: [service.url], env } });
  assert.deepEqual(fs.info().embedding, { model: "text-embedding-3-small", dimension: 256 });
  assert.equal(fs.info().collectionEmbedding.used, true);
  const [hit] = await fs.search(`${QUESTION} again`, { mode: "dense", k: 1 });
  assert.equal(hit.path, "/guides/rotate.md");
  fs.free();
});
