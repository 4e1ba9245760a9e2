// openAiEmbedder against a real HTTP server speaking the OpenAI embeddings protocol
// (support/embedding-service.mjs): requests as large as the service takes, several at once,
// 429 and 5xx tried again as the service says, and every way a service fails — a hang, a
// huge body, garbage, the wrong dimension, a number that is not finite, a redirect — an
// error with a code and one short line, never a wrong vector, and never the key.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { openAiEmbedder } from "chromafs";
import { startEmbeddingService, wordVector } from "../../../support/embedding-service.mjs";

const KEY = "sk-test-0123456789abcdef";
const service = await startEmbeddingService({ key: KEY, concurrency: 64 });
after(() => service.close());

const env = { TEST_EMBED_KEY: KEY };
const make = (options = {}) => openAiEmbedder({ url: service.url, model: "text-embedding-3-small", apiKeyEnv: "TEST_EMBED_KEY", env, ...options });

test("vectors come back in order, one per text, as the service computed them", async () => {
  service.reset();
  const texts = ["rotate api keys", "install the cli", "", "日本語"];
  const got = await make().embed(texts);
  assert.equal(got.length, 4);
  for (const [i, t] of texts.entries()) {
    assert.ok(got[i] instanceof Float32Array);
    const want = wordVector(t === "" ? " " : t);
    assert.ok(want.every((x, k) => Math.abs(x - got[i][k]) < 1e-6), `text ${i}`);
  }
  assert.equal(service.requests.length, 1);
  assert.equal(service.requests[0].auth, `Bearer ${KEY}`);
});

test("requests are as large as the service takes, by inputs and by tokens, several at once", async () => {
  // A service that takes its time, so that requests overlap.
  const slow = await startEmbeddingService({ latencyMs: 50 });
  try {
    const texts = Array.from({ length: 40 }, (_, i) => `text number ${i} `.repeat(10));
    const got = await openAiEmbedder({ url: slow.url, model: "m", batchSize: 4, concurrency: 3 }).embed(texts);
    assert.equal(got.length, 40);
    assert.equal(slow.requests.length, 10);
    assert.ok(slow.requests.every((r) => r.inputs <= 4));
    assert.equal(slow.stats().peak, 3, "three requests at once, never more");
  } finally {
    await slow.close();
  }
  service.reset();
  // A token is at least a byte: 1,000 bytes a request holds at most 1,000 tokens.
  const long = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(300, "x"));
  await make({ maxRequestTokens: 1000 }).embed(long);
  assert.ok(service.requests.every((r) => r.texts.reduce((n, t) => n + Buffer.byteLength(t), 0) <= 1000));
  assert.equal(service.requests.length, 4);
  service.reset();
  // A text past what one input may hold is embedded by its beginning.
  const [v] = await make({ maxInputTokens: 16 }).embed(["é".repeat(100)]);
  assert.equal(Buffer.byteLength(service.requests[0].texts[0]), 16);
  assert.equal(v.length, 256);
});

test("429 and 5xx are tried again as Retry-After says; other failures are not", async () => {
  service.reset();
  service.fail({ status: 429, retryAfter: "0" }, 2);
  service.fail({ status: 503 });
  const [v] = await make().embed(["a question"]);
  assert.equal(v.length, 256);
  assert.equal(service.requests.length, 4, "three failures, then the answer");
  service.reset();
  // Retry-After in seconds alone (no retry-after-ms): the batch is sent again no sooner.
  service.fail({ status: 429, retryAfter: "1" });
  await make().embed(["a batch"]);
  assert.equal(service.requests.length, 2);
  const waited = service.requests[1].at - service.requests[0].at;
  assert.ok(waited >= 950, `sent again after ${Math.round(waited)} ms, not the second Retry-After asked`);
  service.reset();
  service.fail({ status: 400, message: "bad request" }, 5);
  await assert.rejects(make().embed(["x"]), (e) => e.code === "EIO" && /answered 400: bad request/.test(e.message));
  assert.equal(service.requests.length, 1, "a 400 is not tried again");
  service.reset();
  service.fail({ status: 503, retryAfter: "0.01" }, 1000);
  await assert.rejects(make({ retryMs: 200 }).embed(["x"]), (e) => e.code === "EIO" && /answered 503/.test(e.message) && /gave up after \d+ tries/.test(e.message));
  assert.ok(service.requests.length >= 2, "it tried again before giving up");
  service.reset();
});

test("a service that hangs, answers too much, or answers garbage fails with a code, never a wrong vector", async () => {
  const e = make({ timeoutMs: 300, retryMs: 1 });
  service.reset();
  service.fail({ kind: "hang" });
  await assert.rejects(e.embed(["x"]), (err) => err.code === "ETIMEDOUT" && /no answer within 300 ms/.test(err.message));
  service.reset();
  service.fail({ kind: "huge", bytes: 64 << 20 });
  await assert.rejects(make().embed(["x"]), (err) => err.code === "EIO" && /more than the \d+ bytes its vectors can take/.test(err.message));
  service.fail({ kind: "garbage" });
  await assert.rejects(make().embed(["x"]), (err) => err.code === "EIO" && /not JSON: <html>not json<\/html>/.test(err.message));
  service.fail({ kind: "dimension", dimension: 32 });
  await assert.rejects(make({ dimensions: 64 }).embed(["x"]), (err) => err.code === "EIO" && /32 numbers where 64 were expected/.test(err.message));
  const once = make();
  await once.embed(["x"]);
  service.fail({ kind: "dimension", dimension: 32 });
  await assert.rejects(once.embed(["y"]), /32 numbers where 256 were expected/, "every answer as long as the first");
  service.fail({ kind: "count" });
  await assert.rejects(make().embed(["a", "b"]), /answered 1 vectors for 2 texts/);
  service.fail({ kind: "nan" });
  await assert.rejects(make().embed(["a"]), /not finite/);
  service.reset();
});

test("the key goes to the service's origin only: a redirect is not followed", async () => {
  const elsewhere = await startEmbeddingService();
  try {
    service.reset();
    service.fail({ kind: "redirect", location: `${elsewhere.url}/embeddings` });
    await assert.rejects(make().embed(["x"]), (e) => e.code === "EIO" && /redirected the request elsewhere: not followed/.test(e.message));
    assert.equal(elsewhere.requests.length, 0);
  } finally {
    await elsewhere.close();
  }
});

test("what a service says is one short line, with the key and anything like one redacted", async () => {
  service.reset();
  service.fail({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}\n\u001b[31mBearer ${KEY}\nsk-other-secret-value-123 ${"x".repeat(400)}` } } });
  const err = await make().embed(["x"]).catch((e) => e);
  assert.equal(err.code, "EIO");
  assert.ok(!err.message.includes(KEY) && !err.message.includes("sk-other"), err.message);
  assert.match(err.message, /\[redacted\]/);
  assert.ok(!/[\n\u001b]/.test(err.message), "control characters are escaped");
  assert.ok(err.message.length < 300, `${err.message.length} characters`);
});

test("the key is read from the variables named, then OpenAI's own; OpenAI itself is never asked without one", () => {
  assert.throws(() => openAiEmbedder({ model: "m", env: {} }), (e) => e.code === "EINVAL" && /no key for https:\/\/api\.openai\.com: set OPENAI_API_KEY or CHROMA_OPENAI_API_KEY/.test(e.message));
  assert.throws(() => openAiEmbedder({ model: "m", apiKeyEnv: "MINE", env: {} }), /set MINE or OPENAI_API_KEY/);
  assert.doesNotThrow(() => openAiEmbedder({ model: "m", env: { CHROMA_OPENAI_API_KEY: "k" } }));
  // A local service needs no key.
  assert.doesNotThrow(() => openAiEmbedder({ url: service.url, model: "m", env: {} }));
  assert.throws(() => openAiEmbedder({ url: "ftp://x", model: "m" }), TypeError);
  assert.throws(() => openAiEmbedder({ url: "https://user:pw@x.example/v1", model: "m" }), /without query, fragment or credentials/);
  assert.throws(() => openAiEmbedder({ url: service.url, model: "" }), TypeError);
  assert.throws(() => openAiEmbedder({ url: service.url, model: "m", apiKeyEnv: "A=B" }), TypeError);
  assert.throws(() => openAiEmbedder({ url: service.url, model: "m", concurrency: 0 }), TypeError);
});

test("a question costs one request the first time and none the second, however many ask at once", async () => {
  service.reset();
  const question = `how do I rotate keys ${Math.random()}`;
  const a = make();
  const [x, y] = await Promise.all([a.embedQuery([question]), a.embedQuery([question])]);
  assert.equal(service.asked(question), 1);
  const [z] = await make().embedQuery([question]);
  assert.equal(service.asked(question), 1, "a second embedder of the same service and model shares the cache");
  assert.deepEqual([...x[0]], [...y[0]]);
  assert.deepEqual([...x[0]], [...z]);
  await make({ model: "another-model" }).embedQuery([question]);
  assert.equal(service.asked(question), 2, "another model is asked");
});

test("an MCP server's workers build the same embedder, reading the key from their own environment", () => {
  const e = make();
  const recipe = e[Symbol.for("chromafs.recipe")];
  assert.equal(recipe.name, "openAiEmbedder");
  assert.match(recipe.module, /node\.mjs$/);
  assert.equal(recipe.options.apiKeyEnv, "TEST_EMBED_KEY");
  assert.equal(recipe.options.env, undefined);
  // A key the host gave as a value (here: an environment of its own) travels as one.
  assert.equal(recipe.options.apiKey, KEY);
  process.env.TEST_EMBED_KEY_OF_PROCESS = KEY;
  try {
    const own = openAiEmbedder({ url: service.url, model: "m", apiKeyEnv: "TEST_EMBED_KEY_OF_PROCESS" });
    const r = own[Symbol.for("chromafs.recipe")];
    assert.equal(r.options.apiKey, undefined, "never the value of the process's variable");
    assert.ok(!JSON.stringify(r.options).includes(KEY));
  } finally {
    delete process.env.TEST_EMBED_KEY_OF_PROCESS;
  }
  assert.deepEqual(e.chromaFunction, { name: "openai", config: { model_name: "text-embedding-3-small", api_key_env_var: "TEST_EMBED_KEY", api_base: service.url } });
});
