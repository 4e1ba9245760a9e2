// The embedding function a collection records (Chroma's clients store it in the
// collection's configuration; `fs.info().collectionEmbedding` shows what chromafs read),
// turned into an embedder a search can use — or the reason it cannot, in words an
// operator can act on.
//
// The record is data from the database, not the operator's word, and two of its fields
// say where a key would go: `api_base`, the address a question (with the key) is sent to,
// and `api_key_env_var`, the variable the key is read from. So an address is used only
// when it is the provider's own or the host allows its origin (`allowOrigins`; the
// command line's `--embed-url`), and a variable is read only when it is one of the
// provider's documented names or one the host names (`keyEnv`; `--embed-key-env`):
// otherwise a hostile record could name CHROMAFS_TOKEN and have it sent to its server.

import { openAiEmbedder, originOf, KEY_VARIABLES, OPENAI } from "./service.js";

/** Chroma's names for functions that speak the OpenAI embeddings protocol. */
const OPENAI_NAMES = ["openai"];

/**
 * `{ embedder, note? }` for the function `recorded` (`fs.info().collectionEmbedding`) when
 * chromafs can call it, else `{ missing, refusedOrigin? }`. `manifest` is the model
 * chromafs's ingest recorded (`fs.info().embedding`), which must agree. `how`: the host's
 * `collectionEmbedding` option — `allowOrigins`, `keyEnv`, `env`, `fetch`, `timeoutMs`.
 */
function recordedEmbedder(recorded, manifest, how = {}, recipeModule) {
  const { allowOrigins = [], keyEnv = [], env, fetch, timeoutMs } = how;
  const name = recorded.name;
  if (!OPENAI_NAMES.includes(name)) {
    return { missing: `the collection's embedding function is '${name}', and chromafs calls OpenAI-compatible services ('openai') only` };
  }
  if (!recorded.model) return { missing: "the collection's embedding function names no model" };
  if (recorded.apiType && recorded.apiType !== "openai") {
    return { missing: `the collection's embedding function is Azure OpenAI's older API (api_type ${recorded.apiType}), which chromafs does not call` };
  }
  if (manifest && manifest.model !== recorded.model) {
    return { missing: `the chunks were embedded with ${manifest.model} (the path tree's manifest), not the collection's ${recorded.model}` };
  }
  const url = recorded.apiBase ?? OPENAI;
  const origin = originOf(url);
  if (!origin) return { missing: "the collection's api_base is not an http(s) URL without credentials, query or fragment" };
  const allowed = new Set(allowOrigins.map((o) => originOf(o) ?? o));
  if (origin !== new URL(OPENAI).origin && !allowed.has(origin)) {
    return { missing: `the collection's api_base ${origin} is not allowed: allow it with --embed-url ${origin}`, refusedOrigin: origin };
  }
  const variables = [...KEY_VARIABLES, ...keyEnv];
  const variable = recorded.apiKeyEnvVar;
  const readable = variable && variables.includes(variable);
  const note = variable && !readable ? `the collection names the key variable ${variable}, which is not read (allow it with --embed-key-env ${variable})` : undefined;
  const source = env ?? globalThis.process?.env ?? {};
  const names = [...(readable ? [variable] : []), ...keyEnv];
  const found = [...names, ...KEY_VARIABLES].find((n) => typeof source[n] === "string" && source[n].trim());
  if (!found && variable) {
    return { missing: `no key: set ${[...new Set([...names, ...KEY_VARIABLES])].join(" or ")}`, note };
  }
  const options = { url, model: recorded.model, apiKeyEnv: names, timeoutMs };
  if (env !== undefined) options.env = env;
  if (fetch !== undefined) options.fetch = fetch;
  if (recorded.dimensions != null) options.dimensions = recorded.dimensions;
  if (recorded.organizationId) options.headers = { "openai-organization": recorded.organizationId };
  try {
    return { embedder: openAiEmbedder(options, recipeModule), note };
  } catch (e) {
    return { missing: e.message, note };
  }
}

/** `object` without the fields that are undefined. */
const defined = (object) => Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));

/**
 * What a session of a collection searches with when its configuration records an embedding
 * function (`info.collectionEmbedding`; `info` is the session's `info()`): `{ embedder?,
 * status }`, the embedder when the host gave no `embed` of its own and chromafs can call
 * the function, and `status`, what `info().collectionEmbedding` then adds: `used` and,
 * when not, what is `missing`. `null` when the collection records none. `options` are
 * `connect`'s; their `collectionEmbedding` says how (false: never).
 */
function recordedChoice(info, options, recipeModule) {
  const recorded = info.collectionEmbedding;
  if (!recorded) return null;
  const how = options?.collectionEmbedding;
  if (options?.embed !== undefined) return { status: { used: false, missing: "the session has an embed function of its own" } };
  if (how === false) return { status: { used: false, missing: "collectionEmbedding is false" } };
  const found = recordedEmbedder(recorded, info.embedding, how ?? {}, recipeModule);
  if (!found.embedder) return { status: defined({ used: false, missing: found.missing, refusedOrigin: found.refusedOrigin, note: found.note }) };
  return { embedder: found.embedder, status: defined({ used: true, url: found.embedder.url, note: found.note }) };
}

export { recordedChoice };
