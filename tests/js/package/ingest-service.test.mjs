// `chromafs ingest --embed openai:MODEL` through a real HTTP server speaking the OpenAI
// embeddings protocol: every chunk written once with its vector, through a service that
// answers 429 with Retry-After and 5xx; a run stopped by the service is resumed by the next
// without embedding again what it wrote; the choice recorded in the collection as Chroma's
// own clients record it, and used by `exec` without being named again.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { ChromaFs } from "chromafs";
import { ROOT, chromaUrl, writeTree } from "../helpers.mjs";
import { startEmbeddingService } from "../../../support/embedding-service.mjs";

const KEY = "sk-ingest-0123456789";
const DIR = path.join(os.tmpdir(), `chromafs-ingest-service-${process.pid}`);
// 20 pages of 60 lines: 850 chunks at 64 bytes a chunk, three write batches.
const PAGES = Object.fromEntries(
  Array.from({ length: 20 }, (_, p) => [`section-${p % 4}/page-${p}.md`, Array.from({ length: 60 }, (_, l) => `line ${l} of page ${p} about topic${p}\n`).join("")]),
);
let service;

before(async () => {
  service = await startEmbeddingService({ key: KEY, concurrency: 8 });
  await writeTree(DIR, PAGES);
});
after(async () => {
  await service.close();
  await rm(DIR, { recursive: true, force: true });
});

function cli(args, env = {}) {
  return new Promise((resolve) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/API_KEY/.test(k)));
    execFile(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), ...args], { env: { ...base, ...env } }, (error, stdout, stderr) =>
      resolve({ status: error ? error.code : 0, stdout, stderr }),
    );
  });
}

const ingestArgs = (collection) => ["ingest", DIR, "--url", chromaUrl(), "--collection", collection, "--chunk-bytes", "64", "--embed", "openai:text-embedding-3-small", "--embed-url", service.url, "--embed-key-env", "MY_EMBED_KEY"];

async function dropCollection(name) {
  await fetch(`${chromaUrl()}/api/v2/tenants/default_tenant/databases/default_database/collections/${name}`, { method: "DELETE" });
}

/** Every page as chromafs reads it back equals the file: no chunk lost, none twice. */
async function assertWhole(collection) {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection, collectionEmbedding: false });
  try {
    for (const [p, text] of Object.entries(PAGES)) assert.equal(await fs.readFile(`/${p}`), text, p);
  } finally {
    fs.free();
  }
}

test("under 429s with Retry-After and 5xx, every chunk is embedded and written once", async () => {
  await dropCollection("ingest-service");
  service.reset();
  service.fail({ status: 429, retryAfter: "0" }, 3);
  service.fail({ status: 503 });
  service.fail({ status: 429, retryAfter: "0.05" }, 2);
  const r = await cli(ingestArgs("ingest-service"), { MY_EMBED_KEY: KEY });
  assert.equal(r.status, 0, r.stderr);
  const [, chunks] = /as (\d+) chunks/.exec(r.stdout);
  assert.ok(Number(chunks) > 600, r.stdout);
  const embedded = service.requests.filter((q) => q.auth === `Bearer ${KEY}`);
  const answered = embedded.slice(6);
  assert.equal(answered.reduce((n, q) => n + q.inputs, 0), Number(chunks), "each chunk embedded once, after the failures");
  assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY));
  assert.match(r.stderr, /embedded \d+ chunks in .* at once to http:\/\/127\.0\.0\.1/);
  await assertWhole("ingest-service");
  const collection = await fetch(`${chromaUrl()}/api/v2/tenants/default_tenant/databases/default_database/collections/ingest-service`).then((x) => x.json());
  assert.deepEqual(collection.configuration_json.embedding_function, {
    type: "known",
    name: "openai",
    config: { api_base: service.url, api_key_env_var: "MY_EMBED_KEY", model_name: "text-embedding-3-small" },
  });
  // exec reads that record: the operator allows the address and names the variable.
  service.reset();
  const e = await cli(["exec", "search -n 1 topic7 line", "--url", chromaUrl(), "--collection", "ingest-service", "--embed-url", service.url, "--embed-key-env", "MY_EMBED_KEY"], { MY_EMBED_KEY: KEY });
  assert.equal(e.status, 0, e.stderr);
  assert.match(e.stdout, /^\/section-3\/page-7\.md:/);
  assert.equal(service.asked("topic7 line"), 1);
});

test("a run the service stopped is resumed by the next, which embeds only what was not written", async () => {
  await dropCollection("ingest-resumed");
  service.reset();
  // Two answers, then a 401 for every request (not tried again): the run stops.
  service.failAfter(2, { status: 401, message: "key revoked" });
  const stopped = await cli(ingestArgs("ingest-resumed"), { MY_EMBED_KEY: KEY });
  service.reset();
  assert.equal(stopped.status, 1);
  assert.match(stopped.stderr, /^chromafs: embedding failed: .*answered 401: key revoked/m);
  const again = await cli(ingestArgs("ingest-resumed"), { MY_EMBED_KEY: KEY });
  assert.equal(again.status, 0, again.stderr);
  const [, total] = /as (\d+) chunks/.exec(again.stdout);
  const [, unchanged] = /unchanged since the last run: (\d+) of/.exec(again.stdout);
  assert.ok(Number(unchanged) >= 300, `the first run wrote what it embedded: ${again.stdout}`);
  assert.equal(service.requests.reduce((n, q) => n + q.inputs, 0), Number(total) - Number(unchanged), "only what was not written is embedded");
  await assertWhole("ingest-resumed");
});

test("the command line names what is wrong with a service's options, and never takes a key", async () => {
  const at = ["--url", chromaUrl(), "--collection", "ingest-options"];
  let r = await cli(["ingest", DIR, ...at, "--embed", "openai:text-embedding-3-small"]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^chromafs: no key for https:\/\/api\.openai\.com: set OPENAI_API_KEY or CHROMA_OPENAI_API_KEY\n$/);
  r = await cli(["ingest", DIR, ...at, "--embed-url", service.url]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--embed-url applies to --embed openai:MODEL/);
  r = await cli(["ingest", DIR, ...at, "--embed", "openai:m", "--embed-url", service.url, "--embed-key-env", "A=B"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--embed-key-env must name an environment variable/);
  r = await cli(["ingest", DIR, ...at, "--embed", "openai:m", "--embed-url", service.url, "--embed-dimensions", "0"]);
  assert.equal(r.status, 2);
  r = await cli(["exec", "ls", ...at, "--embed", "multilingual-e5-small"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--embed takes openai:MODEL here/);
  r = await cli(["exec", "ls", ...at, "--embed-url", "http://user:pw@127.0.0.1:9/v1"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--embed-url must be an http\(s\) URL without query, fragment or credentials/);
  r = await cli(["ingest", DIR, ...at, "--api-key", "sk-x"]);
  assert.equal(r.status, 2, "there is no option for a key");
});
