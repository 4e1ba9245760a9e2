// The shared content cache behind the in-memory one, on a real redis-server: a second
// session (cold in-memory cache) reads what the first fetched with no Chroma content
// request; a broken shared cache costs nothing but its hits.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest, redisCache } from "chromafs";
import { chromaUrl, newBash } from "../helpers.mjs";
import { redisMissing, startRedis } from "../../../support/redis.mjs";

// These tests watch the host's shared cache: pages shared by the sessions of this process would
// answer in Chroma's place (the process tier is tested in process-tier.test.mjs).
ChromaFs.setProcessCacheBytes(0);

let redis, client;

// Without a Redis server these tests are skipped, and the run's summary says why.
const skip = redisMissing;
if (skip) console.error(`\n!!! ${skip} !!!\n`);
const it = (name, fn) => test(name, { skip }, fn);

before(async () => {
  if (skip) return;
  redis = await startRedis();
  client = redis.client;
  const pages = Array.from({ length: 20 }, (_, i) => ({ path: `guide/p${i}.md`, content: `page ${i}\n${i % 3 ? "" : "shared needle\n"}` }));
  await ingest({ url: chromaUrl(), collection: "shared-cache", files: [...pages, { path: "é.md", content: "accentué\n" }] });
});

after(() => redis?.stop());

// The tree's freshness check is not what these tests count: connect skips it.
const connect = (cache) => ChromaFs.connect({ url: chromaUrl(), collection: "shared-cache", sharedCache: cache, treeMaxAgeMs: 600000 });

it("a page fetched by one session is read by the next without asking Chroma", async () => {
  const cache = redisCache(client, { prefix: "t1:" });
  await connect(cache); // load the tree
  const first = await connect(cache);
  assert.equal(await first.readFile("/guide/p1.md"), "page 1\n");
  assert.equal(first.stats().requests, 1);
  assert.equal(first.stats().sharedMisses, 1);
  const second = await connect(cache);
  assert.equal(await second.readFile("/guide/p1.md"), "page 1\n");
  assert.equal(await second.readFile("/é.md"), "accentué\n");
  assert.equal(second.stats().requests, 1, "only é.md was fetched");
  assert.equal(second.stats().sharedHits, 1);
  const keys = await client.keys("t1:*");
  assert.ok(keys.every((k) => k.startsWith("t1:chromafs:")), keys.join());
  assert.equal(keys.length, 2);
});

it("searches share their prefetched pages too", async () => {
  const cache = redisCache(client, { prefix: "t2:", ttlSeconds: 60 });
  const a = await connect(cache);
  const r1 = await newBash(a, { customCommands: a.commands() }).exec("grep -rl 'shared needle' /");
  assert.equal(r1.stdout.split("\n").filter(Boolean).length, 7);
  assert.equal(a.stats().commands.at(-1).prefetchRequests, 1);
  const b = await connect(cache);
  const r2 = await newBash(b, { customCommands: b.commands() }).exec("grep -rl 'shared needle' /");
  assert.equal(r2.stdout, r1.stdout);
  assert.equal(b.stats().commands.at(-1).prefetchRequests, 0, "the candidates came from Redis");
  assert.equal(b.stats().requests, 1, "just the coarse query (the process tier is off here: nothing else is shared)");
  assert.ok((await client.ttl((await client.keys("t2:*"))[0])) > 0);
});

it("a failing shared cache is only a miss", async () => {
  const broken = { get: async () => { throw new Error("down"); }, set: () => Promise.reject(new Error("down")) };
  const fs = await connect(broken);
  assert.equal(await fs.readFile("/guide/p2.md"), "page 2\n");
  assert.equal(fs.stats().sharedErrors, 2);
  const wrong = { get: async () => "a stale or foreign value of another length", set: async () => {} };
  const fs2 = await connect(wrong);
  assert.equal(await fs2.readFile("/guide/p2.md"), "page 2\n", "a value whose size disagrees with the tree is ignored");
  await assert.rejects(ChromaFs.connect({ url: chromaUrl(), collection: "shared-cache", sharedCache: { get() {} } }), {
    code: "EINVAL",
    message: "option sharedCache must have get(key) and set(key, value) methods",
  });
});

it("a page a re-ingest made private is not read from the shared cache by a session opened before", async () => {
  const files = [{ path: "plan.md", content: "the plan\n" }, { path: "other.md", content: "other\n" }];
  await ingest({ url: chromaUrl(), collection: "shared-revoked", files });
  const cache = redisCache(client, { prefix: "t4:" });
  const open = () => ChromaFs.connect({ url: chromaUrl(), collection: "shared-revoked", sharedCache: cache });
  const [a, b] = [await open(), await open()];
  assert.equal(await a.readFile("/plan.md"), "the plan\n");
  assert.equal((await client.keys("t4:*")).length, 1, "the page is in the shared cache");
  await ingest({ url: chromaUrl(), collection: "shared-revoked", files, access: { "plan.md": { isPublic: false, groups: ["staff"] } } });
  await assert.rejects(b.readFile("/plan.md"), /is not readable by this session any more/);
  assert.equal(b.stats().sharedHits, 0);
});
