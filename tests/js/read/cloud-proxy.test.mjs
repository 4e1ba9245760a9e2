// The test proxy with Chroma Cloud's quotas on (proxy.mjs, quotas.mjs): its counting rules
// without a server, its forwarding against a stub upstream, and its answers in front of a
// real Chroma.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { CLOUD_LIMITS, checkRequest, countWherePredicates } from "../../../support/quotas.mjs";
import { startCloudProxy } from "../../../support/proxy.mjs";

const DB = "/api/v2/tenants/default_tenant/databases/default_database";
const REC = `${DB}/collections/0d6ac0e2-3b7f-4d0c-9c3e-1a2b3c4d5e6f`;
const QUOTA = /^Quota exceeded: '.+' exceeded quota limit for action '.+': current usage of .+ exceeds limit of \d+$/;
const slugs = (n) => Array.from({ length: n }, (_, i) => `page-${i}`);
const get = (body) => checkRequest("POST", `${REC}/get`, { limit: 10, ...body });

describe("countWherePredicates", () => {
  test("a shorthand comparison is one predicate", () => {
    assert.equal(countWherePredicates({ a: 1 }), 1);
    assert.equal(countWherePredicates({ page_slug: "intro" }), 1);
  });

  test("every operator comparison is one predicate", () => {
    for (const op of ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$contains", "$not_contains"]) {
      assert.equal(countWherePredicates({ k: { [op]: 3 } }), 1, op);
    }
  });

  test("each value of $in / $nin is one predicate", () => {
    assert.equal(countWherePredicates({ page_slug: { $in: slugs(9) } }), 9);
    assert.equal(countWherePredicates({ page_slug: { $nin: slugs(2) } }), 2);
  });

  test("$and / $or add up their operands, at any depth", () => {
    const scoped = { $and: [{ dirs: { $contains: "api" } }, { $or: [{ isPublic: true }, { groups: { $contains: "billing" } }] }] };
    assert.equal(countWherePredicates(scoped), 3);
    assert.equal(countWherePredicates({ $or: [{ a: { $in: [1, 2, 3] } }, { $and: [{ b: 1 }, { c: { $gt: 2 } }] }] }), 5);
  });

  test("full-text filters and absent clauses count nothing", () => {
    assert.equal(countWherePredicates({ "#document": { $contains: "foo" } }), 0);
    assert.equal(countWherePredicates({ $and: [{ "#document": { $regex: "a+" } }, { a: 1 }] }), 1);
    assert.equal(countWherePredicates(null), 0);
    assert.equal(countWherePredicates(undefined), 0);
  });
});

describe("checkRequest", () => {
  test("a request within every quota passes", () => {
    assert.equal(get({ where: { page_slug: { $in: slugs(8) } } }), null);
    assert.equal(get({ ids: slugs(300), limit: undefined }), null);
    assert.equal(checkRequest("GET", `${REC}/count`, undefined), null);
  });

  test("only record endpoints are metered", () => {
    assert.equal(checkRequest("POST", `${DB}/collections`, { name: "x".repeat(1000), get_or_create: true }), null);
    assert.equal(checkRequest("GET", `${REC}/get`, undefined), null);
  });

  test("more than 8 where predicates are refused, with Cloud's message", () => {
    const v = get({ where: { page_slug: { $in: slugs(9) } } });
    assert.equal(v.rule, "NumWherePredicates");
    assert.deepEqual([v.action, v.usage, v.limit], ["Get", 9, 8]);
    assert.equal(v.message, "Quota exceeded: 'Number of where clause predicates' exceeded quota limit for action 'Get': current usage of 9 exceeds limit of 8");
    assert.match(v.message, QUOTA);
    for (const op of ["query", "delete"]) {
      assert.equal(checkRequest("POST", `${REC}/${op}`, { where: { $or: slugs(9).map((s) => ({ page_slug: s })) } })?.rule, "NumWherePredicates", op);
    }
  });

  test("where_document does not count toward the where predicates", () => {
    const whereDocument = { $and: Array.from({ length: 8 }, (_, i) => ({ $contains: `w${i}` })) };
    assert.equal(get({ where: { page_slug: { $in: slugs(8) } }, where_document: whereDocument }), null);
  });

  test("more than 8 full-text predicates are refused, those inside where counted too", () => {
    const leaves = (n) => Array.from({ length: n }, (_, i) => ({ $contains: `w${i}` }));
    const v = get({ where_document: { $or: [{ $and: leaves(5) }, ...leaves(4)] } });
    assert.deepEqual([v.rule, v.usage, v.limit], ["NumWhereDocumentPredicates", 9, 8]);
    assert.equal(v.message, "Quota exceeded: 'Number of where document predicates' exceeded quota limit for action 'Get': current usage of 9 exceeds limit of 8");
    const inWhere = get({ where: { $and: [{ isPublic: true }, { "#document": { $regex: "x" } }] }, where_document: { $or: leaves(8) } });
    assert.equal(inWhere?.rule, "NumWhereDocumentPredicates");
    assert.equal(get({ where_document: { $or: leaves(8) } }), null);
  });

  test("a limit above 300 is refused", () => {
    const v = get({ limit: 301 });
    assert.deepEqual([v.rule, v.action, v.usage, v.limit], ["LimitValue", "Get", 301, 300]);
    assert.match(v.message, /'Limit value' exceeded quota limit for action 'Get': current usage of 301 exceeds limit of 300$/);
    assert.equal(get({ limit: 300 }), null);
  });

  test("a get without limit is refused unless it names at most 300 ids", () => {
    assert.equal(checkRequest("POST", `${REC}/get`, { where: { a: 1 } }).rule, "LimitValue");
    assert.equal(checkRequest("POST", `${REC}/get`, {}).rule, "LimitValue");
    assert.equal(checkRequest("POST", `${REC}/get`, { ids: slugs(300) }), null);
    assert.equal(checkRequest("POST", `${REC}/get`, { ids: slugs(301) }).rule, "NumQueryIDs");
  });

  test("more than 300 ids in a get are refused even with a limit", () => {
    const v = get({ ids: slugs(301), limit: 300 });
    assert.deepEqual([v.rule, v.usage, v.limit], ["NumQueryIDs", 301, 300]);
  });

  test("query results are capped like a get's limit", () => {
    const q = (n) => checkRequest("POST", `${REC}/query`, { query_embeddings: [[0.1, 0.2]], n_results: n });
    assert.equal(q(300), null);
    assert.deepEqual([q(301).rule, q(301).action], ["NumResults", "Query"]);
  });

  test("full-text strings are at most 256 bytes, counted in UTF-8, at any depth", () => {
    assert.equal(get({ where_document: { $contains: "x".repeat(256) } }), null);
    // 128 two-byte characters: 128 characters but 256 bytes, then one more.
    assert.equal(get({ where_document: { $contains: "é".repeat(128) } }), null);
    const v = get({ where_document: { $or: [{ $contains: "a" }, { $and: [{ $not_contains: "é".repeat(128) + "x" }] }] } });
    assert.deepEqual([v.rule, v.usage, v.limit], ["WhereDocumentValueLength", 257, 256]);
    assert.equal(get({ where_document: { $regex: "a".repeat(257) } }).rule, "RegexPatternLength");
    assert.equal(get({ where_document: { $not_regex: "a".repeat(257) } }).rule, "RegexPatternLength");
    // The same filter inside `where` is held to the same length.
    assert.equal(get({ where: { "#document": { $contains: "a".repeat(257) } } }).rule, "WhereDocumentValueLength");
  });

  test("a write holds at most 300 records", () => {
    const ids = slugs(301);
    for (const op of ["upsert", "add", "update", "delete"]) {
      const v = checkRequest("POST", `${REC}/${op}`, { ids });
      assert.deepEqual([v.rule, v.usage, v.limit], ["NumRecords", 301, 300], op);
      assert.equal(v.action, op[0].toUpperCase() + op.slice(1));
    }
    assert.equal(checkRequest("POST", `${REC}/upsert`, { ids: slugs(300) }), null);
  });

  test("documents are at most 16,384 bytes in UTF-8", () => {
    const write = (doc) => checkRequest("POST", `${REC}/upsert`, { ids: ["a"], embeddings: [[1]], documents: [doc] });
    assert.equal(write("x".repeat(16_384)), null);
    const v = write("é".repeat(8_193));
    assert.deepEqual([v.rule, v.action, v.usage, v.limit], ["DocumentSizeBytes", "Upsert", 16_386, 16_384]);
    assert.match(v.message, /^Quota exceeded: 'Document size \(bytes\)' exceeded quota limit for action 'Upsert'/);
  });

  test("metadata: at most 32 keys of 36 bytes, string values of 4,096 bytes", () => {
    const write = (meta) => checkRequest("POST", `${REC}/add`, { ids: ["a"], embeddings: [[1]], metadatas: [null, meta] });
    const keys = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    assert.equal(write(keys(32)), null);
    assert.equal(write(keys(33)).rule, "NumMetadataKeys");
    assert.equal(write({ ["k".repeat(36)]: 1 }), null);
    assert.equal(write({ ["k".repeat(37)]: 1 }).rule, "MetadataKeySizeBytes");
    assert.equal(write({ text: "v".repeat(4_096) }), null);
    assert.equal(write({ text: "v".repeat(4_097) }).rule, "MetadataValueSizeBytes");
    assert.equal(write({ groups: ["a".repeat(3_000), "b".repeat(3_000)] }).rule, "MetadataValueSizeBytes");
    assert.equal(checkRequest("POST", `${REC}/update`, { ids: ["a"], metadatas: [{ gone: null }] }), null);
  });

  test("ids are at most 128 bytes in any request", () => {
    const long = "i".repeat(129);
    for (const [op, body] of [
      ["get", { ids: [long], limit: 1 }],
      ["query", { ids: [long], query_embeddings: [[1]] }],
      ["delete", { ids: [long] }],
      ["upsert", { ids: [long], embeddings: [[1]] }],
    ]) {
      const v = checkRequest("POST", `${REC}/${op}`, body);
      assert.deepEqual([v.rule, v.usage, v.limit], ["IdSizeBytes", 129, 128], op);
    }
    assert.equal(get({ ids: ["i".repeat(128)] }), null);
  });

  test("read bodies are at most 64 KiB", () => {
    // The size is checked first: a read that large is refused for its size whatever else it breaks.
    const ids = Array.from({ length: 600 }, (_, i) => `${i}`.padStart(120, "x"));
    const v = get({ ids });
    assert.equal(v.rule, "RequestBodyBytes");
    assert.ok(v.usage > 65_536);
    // The size as sent counts, when the caller knows it.
    assert.equal(checkRequest("POST", `${REC}/get`, { limit: 1 }, {}, 70_000).rule, "RequestBodyBytes");
    assert.equal(checkRequest("POST", `${REC}/upsert`, { ids: ["a"] }, {}, 70_000), null);
  });

  test("limits can be overridden", () => {
    assert.equal(checkRequest("POST", `${REC}/get`, { limit: 10, where: { a: { $in: [1, 2, 3] } } }, { maxWherePredicates: 2 }).limit, 2);
    assert.equal(checkRequest("POST", `${REC}/get`, { limit: 500 }, { maxLimit: 1000 }), null);
    assert.equal(CLOUD_LIMITS.maxWherePredicates, 8);
  });
});

// A stub upstream that records what it receives and answers after `holdMs`.
async function startStub(holdMs = 0) {
  const seen = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json", "x-upstream": "stub" });
        res.end(JSON.stringify({ ids: ["a"], echo: req.url }));
      }, holdMs);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe("startCloudProxy (stub upstream)", () => {
  test("forwards passing requests unchanged and answers with the upstream's reply", async () => {
    const stub = await startStub();
    const proxy = await startCloudProxy(stub.url);
    try {
      const body = JSON.stringify({ ids: ["a"], limit: 1 });
      const res = await fetch(`${proxy.url}${REC}/get?x=1`, { method: "POST", headers: { "content-type": "application/json", "x-chroma-token": "k" }, body });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("x-upstream"), "stub");
      assert.deepEqual(await res.json(), { ids: ["a"], echo: `${REC}/get?x=1` });
      assert.equal(stub.seen.length, 1);
      assert.deepEqual([stub.seen[0].method, stub.seen[0].url, stub.seen[0].body], ["POST", `${REC}/get?x=1`, body]);
      assert.equal(stub.seen[0].headers["x-chroma-token"], "k");
      assert.deepEqual(proxy.violations, []);
      assert.equal(proxy.requests.length, 1);
      assert.deepEqual([proxy.requests[0].status, proxy.requests[0].bodyBytes], [200, body.length]);
      const s = proxy.stats();
      assert.deepEqual([s.requests, s.bytesSent, s.maxInFlight], [1, body.length, 1]);
      assert.ok(s.bytesReceived > 0);
      proxy.reset();
      assert.deepEqual(proxy.stats(), { requests: 0, bytesSent: 0, bytesReceived: 0, maxInFlight: 0 });
    } finally {
      await proxy.close();
      await stub.close();
    }
  });

  test("a refused request never reaches the upstream", async () => {
    const stub = await startStub();
    const proxy = await startCloudProxy(stub.url, { maxLimit: 5 });
    try {
      const res = await fetch(`${proxy.url}${REC}/get`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ limit: 6 }) });
      assert.equal(res.status, 422);
      const err = await res.json();
      assert.equal(err.error, "ChromaError");
      assert.match(err.message, /'Limit value' exceeded quota limit for action 'Get': current usage of 6 exceeds limit of 5$/);
      assert.equal(stub.seen.length, 0);
      assert.equal(proxy.violations.length, 1);
      assert.deepEqual([proxy.violations[0].rule, proxy.violations[0].usage, proxy.violations[0].limit], ["LimitValue", 6, 5]);
      assert.equal(proxy.requests[0].status, 422);
    } finally {
      await proxy.close();
      await stub.close();
    }
  });

  test("an 11th concurrent read on a collection is refused; other collections and writes are not", async () => {
    const stub = await startStub(150);
    const proxy = await startCloudProxy(stub.url, { latencyMs: 20 });
    const post = (path, body) =>
      fetch(`${proxy.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    try {
      const other = `${DB}/collections/11111111-2222-4333-8444-555555555555`;
      const statuses = await Promise.all([
        ...Array.from({ length: 11 }, () => post(`${REC}/get`, { limit: 1 })),
        post(`${other}/query`, { query_embeddings: [[1]], n_results: 1 }),
        post(`${REC}/upsert`, { ids: ["a"], embeddings: [[1]] }),
      ]);
      assert.equal(statuses.filter((s) => s === 422).length, 1);
      assert.equal(proxy.violations.length, 1);
      assert.deepEqual([proxy.violations[0].rule, proxy.violations[0].usage, proxy.violations[0].limit], ["ConcurrentReads", 11, 10]);
      assert.equal(proxy.stats().maxInFlight, 13);
      // Once the reads are answered, the collection takes reads again.
      assert.equal(await post(`${REC}/get`, { limit: 1 }), 200);
      assert.ok(proxy.requests.every((r) => r.ms >= 20));
    } finally {
      await proxy.close();
      await stub.close();
    }
  });
});

const CHROMA = process.env.CHROMAFS_TEST_URL;
if (!CHROMA) console.error("\n!!! CHROMAFS_TEST_URL is not set: the Cloud-proxy test against a real Chroma is SKIPPED !!!\n");

describe("startCloudProxy (real Chroma)", { skip: CHROMA ? false : "CHROMAFS_TEST_URL is not set (run with `npm test`, or start Chroma with scripts/chroma.sh)" }, () => {
  let proxy;
  let id;
  const name = `cloud-proxy-${process.pid}-${Date.now()}`;
  const call = async (method, path, body) => {
    const res = await fetch(`${proxy.url}${DB}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };

  before(async () => {
    proxy = await startCloudProxy(CHROMA, { latencyMs: 5 });
    const created = await call("POST", "/collections", { name, get_or_create: true });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    id = created.json.id;
    const up = await call("POST", `/collections/${id}/upsert`, {
      ids: slugs(5).map((s) => `${s}#0`),
      embeddings: slugs(5).map((_, i) => [i, 1, 0]),
      documents: slugs(5).map((s) => `Body of ${s}.`),
      metadatas: slugs(5).map((s, i) => ({ page_slug: s, chunk_index: 0, groups: i % 2 ? ["billing"] : ["ops"] })),
    });
    assert.equal(up.status, 200, JSON.stringify(up.json));
  });

  after(async () => {
    if (!proxy) return;
    await call("DELETE", `/collections/${name}`);
    await proxy.close();
  });

  test("a get within the quotas is answered by Chroma", async () => {
    const res = await call("POST", `/collections/${id}/get`, {
      where: { $and: [{ page_slug: { $in: slugs(5) } }, { $or: [{ chunk_index: 0 }, { groups: { $contains: "billing" } }] }] },
      include: ["metadatas"],
      limit: 300,
    });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual([...res.json.ids].sort(), slugs(5).map((s) => `${s}#0`));
    const count = await call("GET", `/collections/${id}/count`);
    assert.deepEqual([count.status, count.json], [200, 5]);
    assert.deepEqual(proxy.violations, []);
  });

  test("a get with a 9-value $in gets Cloud's 422 and is recorded", async () => {
    const res = await call("POST", `/collections/${id}/get`, { where: { page_slug: { $in: slugs(9) } }, limit: 10 });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json, {
      error: "ChromaError",
      message: "Quota exceeded: 'Number of where clause predicates' exceeded quota limit for action 'Get': current usage of 9 exceeds limit of 8",
    });
    const v = proxy.violations.at(-1);
    assert.deepEqual([v.method, v.path, v.rule, v.usage, v.limit], ["POST", `${DB}/collections/${id}/get`, "NumWherePredicates", 9, 8]);
    assert.deepEqual(JSON.parse(v.body).where.page_slug.$in, slugs(9));
  });

  test("a get with limit 301 is refused", async () => {
    const before = proxy.violations.length;
    const res = await call("POST", `/collections/${id}/get`, { limit: 301 });
    assert.equal(res.status, 422);
    assert.match(res.json.message, /^Quota exceeded: 'Limit value' exceeded quota limit for action 'Get': current usage of 301 exceeds limit of 300$/);
    assert.equal(proxy.violations.length, before + 1);
    assert.equal(proxy.violations.at(-1).rule, "LimitValue");
    // Chroma itself would have answered: the refusal is the proxy's alone.
    assert.equal((await call("POST", `/collections/${id}/get`, { limit: 300 })).status, 200);
  });
});
