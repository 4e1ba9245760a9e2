// An embedding service for the tests and benchmarks: a real HTTP server speaking the
// OpenAI embeddings protocol (`POST …/embeddings` with `{ model, input, dimensions? }`,
// answering `{ object: "list", data: [{ object, index, embedding }], model, usage }`), the
// way OpenAI, vLLM, Ollama, LiteLLM and TEI answer it, on 127.0.0.1.
//
// Vectors come as numbers, or as base64 when a request asks (`encoding_format: "base64"`,
// as OpenAI's own SDK does). Its vectors are deterministic: a text's words hashed into `dimension` signed buckets,
// scaled to unit length, so texts that share words are near each other and a search by
// meaning has something to find without a model. It keeps the rules a hosted service
// keeps — a bearer key when given one, at most `maxInputs` inputs a request, `concurrency`
// requests at once (past that, 429 with Retry-After), `latencyMs` per request — and a
// test can make its next answers fail in each way a service fails: a status with or
// without Retry-After, a hang, a body larger than any answer, text that is not JSON, the
// wrong dimension or count, numbers that are not finite, a redirect.
//   const service = await startEmbeddingService({ key: "sk-test", dimension: 256 });
//   service.url            // http://127.0.0.1:PORT/v1
//   service.requests       // [{ auth, model, inputs, dimensions }] as received
//   service.fail({ status: 429, retryAfter: "1" }, 2)   // the next two answers
//   await service.close();
import { createServer } from "node:http";

/** The default vectors' length. */
export const DIMENSION = 256;

/** FNV-1a over the UTF-16 code units of `s`: a word's bucket and sign. */
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A text's vector: its words hashed into `dimension` signed buckets, unit length. */
export function wordVector(text, dimension = DIMENSION) {
  const v = new Array(dimension).fill(0);
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) {
    // Short words (a, do, of) say little and would crowd the buckets.
    if (word.length < 3) continue;
    const h = hash(word);
    v[h % dimension] += h & 0x80000000 ? 1 : -1;
  }
  const norm = Math.hypot(...v);
  if (norm === 0) v[0] = 1;
  return norm === 0 ? v : v.map((x) => x / norm);
}

/** A vector as the request asked for it: numbers, or `base64` of its little-endian 32-bit floats. */
function encoded(vector, format) {
  if (format !== "base64") return vector;
  return Buffer.from(new Float32Array(vector).buffer).toString("base64");
}

/**
 * Starts the service. `key`: the bearer key it requires (none: any or no key). `dimension`:
 * its vectors' length, unless a request asks for `dimensions`. `latencyMs`: how long each
 * answer takes. `concurrency`: requests served at once; more get 429. `maxInputs`: inputs
 * a request may hold (OpenAI's 2,048). `models`: the model names it serves (any when not
 * given). `retryAfter`: what its own 429s say in Retry-After (seconds).
 */
export async function startEmbeddingService({
  key,
  dimension = DIMENSION,
  latencyMs = 0,
  concurrency = Infinity,
  maxInputs = 2048,
  models,
  retryAfter = "0.05",
  host = "127.0.0.1",
} = {}) {
  const requests = [];
  const faults = [];
  const sockets = new Set();
  let failAfter = null;
  let failEvery = null;
  let inFlight = 0;
  let peak = 0;
  let refused = 0;
  let hanging = 0;

  const reply = (res, status, body, headers = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const error = (res, status, message, headers) => reply(res, status, { error: { message, type: "invalid_request_error" } }, headers);

  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    if (req.method !== "POST" || !/\/embeddings$/.test(new URL(req.url, "http://x").pathname)) return error(res, 404, `no route ${req.method} ${req.url}`);
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return error(res, 400, "the body is not JSON");
    }
    const inputs = typeof body.input === "string" ? [body.input] : body.input;
    const record = { auth: req.headers.authorization ?? null, model: body.model, inputs: Array.isArray(inputs) ? inputs.length : 0, dimensions: body.dimensions ?? null, texts: inputs, path: req.url, at: performance.now() };
    requests.push(record);
    if (key !== undefined && req.headers.authorization !== `Bearer ${key}`) return error(res, 401, "Incorrect API key provided");
    if (inFlight >= concurrency) {
      refused += 1;
      return error(res, 429, "Rate limit reached: too many requests at once", { "retry-after": retryAfter });
    }
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    try {
      if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
      const periodic = failEvery && requests.length % failEvery.n === 0 ? failEvery.fault : undefined;
      const fault = faults.shift() ?? periodic ?? (failAfter && requests.length > failAfter.n ? failAfter.fault : undefined);
      if (fault?.kind === "hang") {
        // Never answers; counted until the client gives up on it (or the server closes).
        hanging += 1;
        res.on("close", () => (hanging -= 1));
        return undefined;
      }
      if (fault) return answerFault(res, fault, inputs, body);
      if (models && !models.includes(body.model)) return error(res, 404, `The model \`${body.model}\` does not exist`);
      if (!Array.isArray(inputs) || !inputs.length || inputs.some((t) => typeof t !== "string")) return error(res, 400, "input must be a string or an array of strings");
      if (inputs.length > maxInputs) return error(res, 400, `at most ${maxInputs} inputs a request, got ${inputs.length}`);
      const n = Number.isInteger(body.dimensions) ? body.dimensions : dimension;
      const data = inputs.map((t, index) => ({ object: "embedding", index, embedding: encoded(wordVector(t, n), body.encoding_format) }));
      // Answered out of order, as the protocol allows: a client sorts by index.
      data.reverse();
      const tokens = inputs.reduce((s, t) => s + Math.ceil(Buffer.byteLength(t) / 4), 0);
      reply(res, 200, { object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
    } finally {
      inFlight -= 1;
    }
  });

  /** One injected answer. */
  function answerFault(res, fault, inputs, body) {
    const n = Array.isArray(inputs) ? inputs.length : 1;
    const vector = (index, dim, poison) => {
      const v = wordVector(String(inputs?.[index] ?? ""), dim);
      if (poison !== undefined && index === 0) v[0] = poison;
      return encoded(v, body.encoding_format);
    };
    const vectors = (count, dim, poison) => Array.from({ length: count }, (_, index) => ({ object: "embedding", index, embedding: vector(index, dim, poison) }));
    switch (fault.kind) {
      case "status": {
        const headers = fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter };
        return reply(res, fault.status, fault.body ?? { error: { message: fault.message ?? `injected ${fault.status}` } }, headers);
      }
      case "huge": {
        res.writeHead(200, { "content-type": "application/json" });
        const block = Buffer.alloc(1 << 16, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < fault.bytes) {
            sent += block.length;
            if (!res.write(block)) return res.once("drain", pump);
          }
          res.end();
        };
        res.on("error", () => {});
        return pump();
      }
      case "garbage":
        return reply(res, 200, fault.body ?? "<html>not json</html>", { "content-type": "text/html" });
      case "dimension":
        return reply(res, 200, { object: "list", data: vectors(n, fault.dimension), model: body.model });
      case "count":
        return reply(res, 200, { object: "list", data: vectors(Math.max(0, n - 1), dimension), model: body.model });
      case "nan": {
        // JSON has no NaN: as numbers, one too large for a double reads as Infinity.
        if (body.encoding_format === "base64") return reply(res, 200, { object: "list", data: vectors(n, dimension, NaN), model: body.model });
        const text = JSON.stringify({ object: "list", data: vectors(n, dimension, 12345) }).replace("12345", "1e999");
        return reply(res, 200, text);
      }
      case "redirect":
        res.writeHead(fault.status ?? 307, { location: fault.location });
        return res.end();
      default:
        throw new Error(`unknown fault ${fault.kind}`);
    }
  }

  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, host, resolve));
  const { port } = server.address();
  const origin = `http://${host}:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    port,
    requests,
    /** Requests that asked for embeddings of `text` (as one of their inputs). */
    asked: (text) => requests.filter((r) => Array.isArray(r.texts) ? r.texts.includes(text) : r.texts === text).length,
    /** The most requests it served at once, and how many it refused for being over `concurrency`. */
    stats: () => ({ peak, refused, requests: requests.length }),
    /** Requests held unanswered by a `hang` fault whose client has not given up on them. */
    hanging: () => hanging,
    /**
     * The next `times` answers fail as `fault` says: `{ status, retryAfter?, body? }`,
     * `{ kind: "hang" }`, `{ kind: "huge", bytes }`, `{ kind: "garbage", body? }`,
     * `{ kind: "dimension", dimension }`, `{ kind: "count" }`, `{ kind: "nan" }`,
     * `{ kind: "redirect", location, status? }`.
     */
    fail(fault, times = 1) {
      const f = fault.kind ? fault : { kind: "status", ...fault };
      for (let i = 0; i < times; i++) faults.push(f);
    },
    /** Every request after the first `n` it receives fails as `fault` says (see `fail`). */
    failAfter(n, fault) {
      failAfter = { n, fault: fault.kind ? fault : { kind: "status", ...fault } };
    },
    /** Every `n`th request it receives fails as `fault` says (see `fail`). */
    failEvery(n, fault) {
      failEvery = { n, fault: fault.kind ? fault : { kind: "status", ...fault } };
    },
    /** Forgets what it was asked and the faults not yet answered. */
    reset() {
      requests.length = 0;
      faults.length = 0;
      failAfter = null;
      failEvery = null;
      peak = 0;
      refused = 0;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
