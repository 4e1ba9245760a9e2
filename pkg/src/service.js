// An embedding service that speaks the OpenAI embeddings protocol — OpenAI, Azure OpenAI's
// v1 API, vLLM, Ollama, LM Studio, LiteLLM, Hugging Face TEI — as an embedder for ranked
// search and ingest: `POST {url}/embeddings` with `{ model, input, dimensions? }`, through
// plain `fetch`, so it runs in every runtime the package does. Vectors are asked for as
// base64 (`encoding_format`), a quarter of the bytes of their numbers in JSON; a service
// that answers numbers anyway is read as well.
//
// What a service costs is round trips and rate limits, so: texts go in requests as large as
// the service takes (inputs, and tokens counted conservatively as UTF-8 bytes, which a
// byte-level tokenizer never exceeds), several requests at once (`concurrency`), a 429 or
// 5xx is tried again after its Retry-After or a jittered backoff until `retryMs` has gone,
// and a question asked again is answered from a bounded cache of the process (one per
// thread) without a request.
//
// And what a service answers is never trusted: a body is read up to what the vectors asked
// for can take, every vector must be there once with the same number of finite numbers,
// and what the service says when it fails is shown as one short line, with the key (and
// anything shaped like one) redacted. The key goes to the endpoint's origin only: a
// redirect is not followed.

import { boundedBody, httpUrl } from "./http.js";

const OPENAI = "https://api.openai.com/v1";
/** The variables OpenAI's and Chroma's clients read the key from, in the order they do. */
const KEY_VARIABLES = ["OPENAI_API_KEY", "CHROMA_OPENAI_API_KEY"];
const MESSAGE_CHARS = 200;
/** Past this many numbers a vector is not an embedding (the largest models have a few thousand). */
const MAX_DIMENSION = 65536;
/** What a number of a vector may take in JSON (`-0.0123456789012345678,`), and an answer's own overhead. */
const BYTES_PER_NUMBER = 28;
const ANSWER_OVERHEAD = 64 << 10;
/** Vectors up to this long are read without `dimensions` being said. */
const ASSUMED_DIMENSION = 4096;
const BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 20_000;

/**
 * Questions embedded in this process (this thread): the same endpoint, model, dimensions
 * and text are not asked again. Bounded by entries and by bytes; least recently used first out.
 */
const questions = { map: new Map(), bytes: 0, maxEntries: 2000, maxBytes: 32 << 20 };

function remember(key, vector) {
  const size = key.length * 2 + vector.length * 4;
  if (size > questions.maxBytes) return;
  const old = questions.map.get(key);
  if (old) questions.bytes -= old.size;
  questions.map.delete(key);
  questions.map.set(key, { vector, size });
  questions.bytes += size;
  for (const [k, v] of questions.map) {
    if (questions.map.size <= questions.maxEntries && questions.bytes <= questions.maxBytes) break;
    questions.map.delete(k);
    questions.bytes -= v.size;
  }
}

function recall(key) {
  const hit = questions.map.get(key);
  if (!hit) return undefined;
  questions.map.delete(key);
  questions.map.set(key, hit);
  return hit.vector;
}

/** The origin an embedding service's URL sends to (as `fetch` resolves it), or null when it is not one. */
function originOf(text) {
  try {
    return httpUrl(text, "url").origin;
  } catch {
    return null;
  }
}

/** `text` fit to show: secrets replaced, anything shaped like a key too, one line of at most 200 characters. */
function shown(text, secrets) {
  let s = String(text);
  for (const secret of secrets) {
    if (secret.length < 3) continue;
    s = s.split(secret).join("[redacted]");
    const json = JSON.stringify(secret).slice(1, -1);
    if (json !== secret) s = s.split(json).join("[redacted]");
  }
  s = s.replace(/\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, "[redacted]").replace(/(bearer\s+)[^\s"',;]+/gi, "$1[redacted]");
  // eslint-disable-next-line no-control-regex
  s = s.trim().replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === "\n" ? "\\n" : c === "\t" ? "\\t" : c === "\r" ? "\\r" : `\\u{${c.charCodeAt(0).toString(16)}}`));
  return s.length > MESSAGE_CHARS ? `${s.slice(0, MESSAGE_CHARS)}…` : s;
}

/** An Error of the service, with an errno-style code (EIO: the service failed; ETIMEDOUT; EINVAL: its answer is not one). */
function failure(code, message) {
  return Object.assign(new Error(message), { code });
}

/** The prefix of `text` of at most `bytes` UTF-8 bytes, cut at a character. */
function prefixBytes(text, bytes, encoder) {
  if (text.length <= bytes / 3) return text;
  const encoded = encoder.encode(text);
  if (encoded.length <= bytes) return text;
  let end = bytes;
  while (end > 0 && (encoded[end] & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(encoded.subarray(0, end));
}

/** Seconds or an HTTP date from Retry-After (or milliseconds from OpenAI's retry-after-ms), in ms. */
function retryAfterMs(headers) {
  const given = headers.get("retry-after-ms");
  const ms = given == null || given.trim() === "" ? NaN : Number(given);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const text = headers.get("retry-after");
  if (text == null || text.trim() === "") return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** The body of `res`, at most `limit` bytes (past it, an EIO, and the rest is not read). */
function readLimited(res, limit, where) {
  return boundedBody(res, limit, (size, declared) =>
    failure("EIO", `${where}: the answer is ${declared ? `${size} bytes, ` : ""}more than the ${limit} bytes its vectors can take`),
  );
}

/** The little-endian 32-bit floats of base64 `text` (what `encoding_format: "base64"` answers), or null. */
function fromBase64(text) {
  if (text.length > ((MAX_DIMENSION * 4 + 2) / 3) * 4 + 4) return null;
  let bytes;
  try {
    const binary = atob(text);
    bytes = new Uint8Array(binary.length);
    for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
  } catch {
    return null;
  }
  if (bytes.length % 4 !== 0) return null;
  if (LITTLE_ENDIAN) return new Float32Array(bytes.buffer);
  const view = new DataView(bytes.buffer);
  return Float32Array.from({ length: bytes.length / 4 }, (_, k) => view.getFloat32(k * 4, true));
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A counting semaphore: `run(f, signal)` runs `f` once fewer than `n` others run; a wait
 * that `signal` aborts ends at once with `stopped()`, its place given up.
 */
function gate(n, stopped) {
  let free = n;
  const waiting = [];
  return async (f, signal) => {
    if (signal?.aborted) throw stopped();
    if (free > 0) free -= 1;
    else {
      await new Promise((resolve, reject) => {
        const onAbort = () => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(stopped());
        };
        const entry = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        waiting.push(entry);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
    try {
      return await f();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

const positive = (value, name, { max = Infinity, whole = true } = {}) => {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !(value > 0) || value > max || (whole && !Number.isInteger(value))) {
    throw new TypeError(`option ${name} must be a positive ${whole ? "whole " : ""}number${max < Infinity ? ` of at most ${max}` : ""}`);
  }
  return value;
};

/**
 * The key for `url`: `apiKey` as given; else the first variable of `apiKeyEnv` (a name or
 * names) that is set in `env`, then OpenAI's and Chroma's own names. Undefined when none is.
 */
function keyFrom({ apiKey, apiKeyEnv, env }) {
  if (apiKey !== undefined) {
    if (typeof apiKey !== "string" || !apiKey.trim()) throw new TypeError("option apiKey must be a non-empty string");
    return { key: apiKey.trim() };
  }
  const named = apiKeyEnv === undefined ? [] : Array.isArray(apiKeyEnv) ? apiKeyEnv : [apiKeyEnv];
  if (named.some((n) => typeof n !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n))) throw new TypeError("option apiKeyEnv must name environment variables");
  const source = env ?? globalThis.process?.env ?? {};
  for (const name of [...named, ...KEY_VARIABLES]) {
    const value = source[name];
    if (typeof value === "string" && value.trim()) return { key: value.trim(), variable: name };
  }
  return { key: undefined, variable: named[0] };
}

/**
 * An embedder over an OpenAI-compatible service: `{ model, url, origin, dimension,
 * concurrency, chromaFunction, embed(texts), embedQuery(texts) }`, for `ChromaFs.connect`'s
 * and `ingest`'s `embed`. See docs/reference/embedder.md for every option. `recipeModule`
 * (the package's Node entry) lets an MCP server's worker threads build the same embedder.
 */
function openAiEmbedder(options = {}, recipeModule) {
  const {
    url = OPENAI,
    model,
    dimensions,
    headers = {},
    batchSize = 2048,
    maxInputTokens = 8192,
    maxRequestTokens = 300_000,
    concurrency = 4,
    timeoutMs = 60_000,
    retryMs = 60_000,
    onBatch,
    fetch: fetchFn = globalThis.fetch,
  } = options;
  if (typeof model !== "string" || !model.trim()) throw new TypeError("option model must name the service's model");
  const base = httpUrl(url, "option url");
  positive(dimensions, "dimensions", { max: MAX_DIMENSION });
  positive(batchSize, "batchSize");
  positive(maxInputTokens, "maxInputTokens");
  positive(maxRequestTokens, "maxRequestTokens");
  positive(concurrency, "concurrency", { max: 64 });
  positive(timeoutMs, "timeoutMs");
  positive(retryMs, "retryMs", { whole: false });
  if (typeof fetchFn !== "function") throw new TypeError("option fetch must be a function (no global fetch here)");
  if (headers === null || typeof headers !== "object") throw new TypeError("option headers must be an object of strings");
  for (const [k, v] of Object.entries(headers)) if (typeof v !== "string") throw new TypeError(`option headers: ${k} must be a string`);
  const { key, variable } = keyFrom(options);
  const endpoint = `${base.href.replace(/\/+$/, "")}/embeddings`;
  const origin = new URL(endpoint).origin;
  if (!key && origin === new URL(OPENAI).origin) {
    throw failure("EINVAL", `no key for ${origin}: set ${[...new Set([...(variable ? [variable] : []), ...KEY_VARIABLES])].join(" or ")}`);
  }
  const secrets = [key, ...Object.values(headers)].filter(Boolean);
  const where = `the embedding service at ${origin}`;
  const encoder = new TextEncoder();
  // A call that stopped (its deadline, its client gone) ends its requests and its waits.
  const stopped = () => failure("ECANCELED", `${where}: the call that asked was stopped`);
  const slot = gate(concurrency, stopped);
  const inFlight = new Map();
  let dimension = dimensions;

  const requestHeaders = { ...headers, "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) };

  /** The vectors of one request's texts, tried again on 429 and 5xx until `retryMs` has gone. */
  async function request(texts, signal) {
    const asked = { model, input: texts, encoding_format: "base64" };
    const body = JSON.stringify(dimensions === undefined ? asked : { ...asked, dimensions });
    const limit = ANSWER_OVERHEAD + texts.length * (dimension ?? ASSUMED_DIMENSION) * BYTES_PER_NUMBER;
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      let res;
      let why;
      let wait;
      try {
        res = await fetchFn(endpoint, { method: "POST", headers: requestHeaders, body, redirect: "manual", signal: eitherSignal(AbortSignal.timeout(timeoutMs), signal) });
      } catch (e) {
        if (signal?.aborted) throw stopped();
        const timedOut = e?.name === "TimeoutError" || e?.name === "AbortError";
        why = timedOut ? failure("ETIMEDOUT", `${where}: no answer within ${timeoutMs} ms`) : failure("EIO", `${where}: ${shown(e?.cause?.message ?? e?.message ?? e, secrets)}`);
      }
      if (res) {
        if (res.ok) return vectors(res, texts.length, limit);
        const text = await readLimited(res, 64 << 10, where).then((b) => new TextDecoder().decode(b), () => "");
        let said = text;
        try {
          said = JSON.parse(text)?.error?.message ?? text;
        } catch {
          // Not JSON: the text itself.
        }
        if (res.status >= 300 && res.status < 400 || res.type === "opaqueredirect") {
          throw failure("EIO", `${where} redirected the request elsewhere: not followed (its key goes to ${origin} only)`);
        }
        const retryable = res.status === 429 || res.status === 408 || res.status >= 500;
        why = failure("EIO", `${where} answered ${res.status}${said ? `: ${shown(said, secrets)}` : ""}`);
        if (!retryable) throw why;
        wait = retryAfterMs(res.headers);
      }
      const backoff = Math.min(MAX_BACKOFF_MS, BACKOFF_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
      const pause = Math.max(wait ?? 0, wait === undefined ? backoff : 0);
      if (Date.now() - started + pause > retryMs) {
        throw Object.assign(why, { message: `${why.message} (gave up after ${attempt + 1} tries in ${Math.round((Date.now() - started) / 1000)} s)` });
      }
      await pauseFor(pause, signal, stopped);
    }
  }

  /** The vectors of a 2xx answer, checked, in the order of the texts. */
  async function vectors(res, count, limit) {
    const bytes = await readLimited(res, limit, where);
    let answer;
    try {
      answer = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw failure("EIO", `${where} answered something that is not JSON: ${shown(new TextDecoder().decode(bytes.subarray(0, 300)), secrets)}`);
    }
    const data = answer?.data;
    if (!Array.isArray(data) || data.length !== count) {
      throw failure("EIO", `${where} answered ${Array.isArray(data) ? `${data.length} vectors` : "no vectors"} for ${count} texts`);
    }
    const out = new Array(count);
    for (const d of data) {
      const i = d?.index;
      const v = d?.embedding;
      if (!Number.isInteger(i) || i < 0 || i >= count || out[i]) throw failure("EIO", `${where} answered a vector for no text (index ${shown(JSON.stringify(i) ?? "none", secrets)})`);
      const f = typeof v === "string" ? fromBase64(v) : Array.isArray(v) && v.length <= MAX_DIMENSION ? Float32Array.from(v, (x) => (typeof x === "number" ? x : NaN)) : null;
      if (!f || f.length === 0 || f.length > MAX_DIMENSION) throw failure("EIO", `${where} answered an embedding that is not an array of numbers`);
      dimension ??= f.length;
      if (f.length !== dimension) throw failure("EIO", `${where} answered a vector of ${f.length} numbers where ${dimension} were expected`);
      if (!f.every(Number.isFinite)) throw failure("EIO", `${where} answered an embedding with a number that is not finite`);
      out[i] = f;
    }
    return out;
  }

  /** The texts' indexes in requests: at most `batchSize` inputs and `maxRequestTokens` bytes each. */
  function requests(texts) {
    const out = [];
    let current = [];
    let tokens = 0;
    texts.forEach((t, i) => {
      const cost = Math.min(encoder.encode(t).length, maxInputTokens) + 1;
      if (current.length && (current.length >= batchSize || tokens + cost > maxRequestTokens)) {
        out.push(current);
        current = [];
        tokens = 0;
      }
      current.push(i);
      tokens += cost;
    });
    if (current.length) out.push(current);
    return out;
  }

  /** The texts' vectors; `signal` (the call that asks) stops its requests and waits. */
  async function embed(texts, { signal } = {}) {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) throw new TypeError("embed takes an array of strings");
    // A text past what the service reads at once is embedded by its beginning.
    const cut = texts.map((t) => prefixBytes(t, maxInputTokens, encoder));
    // An empty input is refused by some services: one space reads as nothing.
    const sent = cut.map((t) => (t === "" ? " " : t));
    const out = new Array(texts.length);
    await Promise.all(
      requests(sent).map((order) =>
        slot(async () => {
          const got = await request(order.map((i) => sent[i]), signal);
          order.forEach((i, j) => (out[i] = got[j]));
          onBatch?.(order.length);
        }, signal),
      ),
    );
    return out;
  }

  const cacheKey = (text) => `${endpoint}\u0000${model}\u0000${dimensions ?? ""}\u0000${text}`;

  /**
   * Questions: from the process's cache, else asked once however many ask at the same time.
   * A caller whose `signal` aborts stops waiting at once; the request itself stops when
   * every caller waiting on it has.
   */
  async function embedQuery(texts, { signal } = {}) {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) throw new TypeError("embedQuery takes an array of strings");
    return Promise.all(
      texts.map(async (t) => {
        const k = cacheKey(t);
        const hit = recall(k);
        if (hit) return hit;
        let shared = inFlight.get(k);
        if (!shared) {
          const controller = new AbortController();
          shared = { waiting: 0, controller, vector: embed([t], { signal: controller.signal }).then(([v]) => (remember(k, v), v)) };
          inFlight.set(k, shared);
          shared.vector.finally(() => inFlight.get(k) === shared && inFlight.delete(k)).catch(() => {});
        }
        return waitOn(shared, signal, stopped);
      }),
    );
  }

  const config = { model_name: model, api_key_env_var: variable ?? "OPENAI_API_KEY" };
  if (base.href.replace(/\/+$/, "") !== OPENAI) config.api_base = base.href.replace(/\/+$/, "");
  if (dimensions !== undefined) config.dimensions = dimensions;
  const embedder = {
    model,
    url: base.href.replace(/\/+$/, ""),
    origin,
    get dimension() {
      return dimension;
    },
    concurrency,
    /** How Chroma's own clients name this function in a collection's configuration. */
    chromaFunction: { name: "openai", config },
    embed,
    embedQuery,
    close() {},
  };
  if (recipeModule) {
    // A worker thread builds its own, and reads the process's environment itself: the key
    // travels by its variable's name, and as a value only when the host gave it as one.
    const { fetch: _fetch, onBatch: _onBatch, env, ...rest } = options;
    const given = env !== undefined && env !== globalThis.process?.env && variable !== undefined && key !== undefined;
    const recipe = { module: recipeModule, name: "openAiEmbedder", options: given ? { ...rest, apiKey: key } : rest };
    Object.defineProperty(embedder, Symbol.for("chromafs.recipe"), { value: recipe });
  }
  return embedder;
}

/** A signal that aborts with the first of `a` and `b` (either may be missing). */
function eitherSignal(a, b) {
  if (!b) return a;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([a, b]);
  const controller = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) controller.abort();
    else s.addEventListener("abort", () => controller.abort(), { once: true });
  }
  return controller.signal;
}

/** Waits `ms`, or less when `signal` aborts (then `stopped()` is thrown). */
function pauseFor(ms, signal, stopped) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(stopped());
    const onAbort = () => {
      clearTimeout(timer);
      reject(stopped());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** One caller's wait on a request several share: the request stops once none waits on it. */
function waitOn(shared, signal, stopped) {
  if (!signal) {
    shared.waiting += 1;
    return shared.vector;
  }
  if (signal.aborted) return Promise.reject(stopped());
  shared.waiting += 1;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(stopped());
      if (--shared.waiting === 0) shared.controller.abort();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    shared.vector.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e) => (signal.removeEventListener("abort", onAbort), reject(e)),
    );
  });
}

export { openAiEmbedder, originOf, shown, KEY_VARIABLES, OPENAI };
