// What `ChromaFs.connect` and the embedders take.

import type { Embedder } from "./results.cjs";
import type { SharedContentCache } from "./helpers.cjs";

/**
 * The subset of `fetch` chromafs calls: `(url, { method, headers, body?, signal })`. It must
 * return a real `Promise` that resolves to a `Response`; the global `fetch` fits.
 */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: any },
) => Promise<unknown>;

/** Bytes for a page: text is taken as UTF-8. */
export type PageContent = string | Uint8Array | ArrayBuffer;

/** A URL to fetch on first read, or a function whose result becomes the content. */
export type LazyFileSource = string | (() => PageContent | Promise<PageContent>);

/** How to reach Chroma; shared by `ChromaFs.connect` and `ingest`. */
export interface ChromaClientOptions {
  /**
   * Absolute http(s) URL of the Chroma server, e.g. `http://127.0.0.1:8000`, without a user
   * name or password (pass credentials with `token` or `headers`).
   */
  url: string;
  /** Defaults to `default_tenant`. */
  tenant?: string;
  /** Defaults to `default_database`. */
  database?: string;
  /** Sent as `x-chroma-token` (Chroma Cloud API keys). */
  token?: string;
  /** Extra headers on every request (auth proxies, tracing). */
  headers?: Record<string, string>;
  /** Per-request timeout; defaults to 10000, clamped to 1..600000. */
  timeoutMs?: number;
  /** Requests in flight at once; defaults to 10 (Chroma Cloud's read limit). */
  maxConcurrency?: number;
  /** Retries on 429/5xx and dropped connections, with backoff; defaults to 3, at most 10. */
  retries?: number;
  /**
   * Where predicates one query may use (each value of a `$in` counts as one); defaults to 8,
   * Chroma Cloud's quota, which every server takes. A self-hosted Chroma has no such quota: a
   * larger value (300, say) reads the pages of a collection another tool wrote in far fewer
   * requests. Clamped to 1..1000. Keep 8 for Chroma Cloud, which refuses more.
   */
  maxWherePredicates?: number;
  /** Replaces the global `fetch` (proxies, tests, runtimes that bind `fetch`). */
  fetch?: FetchLike;
}

/** Metadata field names and the tree record id; must match what was ingested. */
export interface CollectionLayoutOptions {
  /** Metadata field holding a chunk's page path; defaults to `page_slug`. */
  slugField?: string;
  /** Metadata field holding a chunk's position in its page; defaults to `chunk_index`. */
  chunkIndexField?: string;
  /** Id of the record holding the path tree; defaults to `__path_tree__`. */
  treeId?: string;
}

export interface ConnectOptions extends ChromaClientOptions, CollectionLayoutOptions {
  /** Name of the Chroma collection holding the docs. */
  collection: string;
  /** RBAC groups of this session: restricted pages outside them are invisible. */
  groups?: readonly string[];
  /**
   * See only this version of the docs (pages whose tree entry says `version`) and the pages
   * of no version; other versions' pages are absent, as if never there. Connecting rejects
   * with EINVAL naming the versions there are when the session sees no page of it. With
   * mounts, it applies to every mount (a mount's own options may say otherwise): a mount
   * without versions shows all its pages, a mount whose versions are others shows its pages
   * of no version (its `versions().mountVersions` names its own), and a version no mount
   * has rejects with EINVAL naming each mount's versions.
   */
  version?: string;
  /** Appended to paths whose last segment has no extension, e.g. `.mdx`. */
  extension?: string;
  /** Shows every page under this top-level directory (`/docs`): one mount among several (see `ChromaFs.connectMounts`). */
  mountAt?: string;
  /** Budget of the in-memory page cache; defaults to 64 MiB. */
  cacheBytes?: number;
  /**
   * Budget of the process tier, the pages shared by every session of this process (or
   * isolate) that reads the same tree with the same credentials; defaults to 64 MiB. It is
   * one budget for the whole process: the value of the latest `connect` that gives one
   * applies. `0` turns the tier off.
   */
  processCacheBytes?: number;
  /**
   * By default every `connect` checks a process-cached path tree with one small request
   * and reloads it when it changed, so a page made private by a re-ingest is gone for
   * every new session. With `treeMaxAgeMs`, a tree checked less than this long ago is
   * used without the request: a revoked page can stay visible to new sessions this long.
   */
  treeMaxAgeMs?: number;
  /**
   * Requests one command may send, to Chroma and to lazy URLs; unlimited by default.
   * A command is one custom command from `commands()`, or a whole command line run with
   * `safeExec`. Past it, reads fail with EIO "the command used its budget of N requests
   * (maxRequestsPerCommand)" and the command reports it (Cloudflare Workers' free plan
   * allows 50 subrequests per request).
   */
  maxRequestsPerCommand?: number;
  /** How long one command may wait on requests, in ms; unlimited by default. */
  commandTimeoutMs?: number;
  /**
   * A cache shared with other sessions, processes or workers, consulted behind the
   * in-memory one (see `redisCache`, `workersCache`). Failures count as misses.
   */
  sharedCache?: SharedContentCache;
  /** Extra read-only files (absolute path → source), loaded on first read. */
  lazyFiles?: Record<string, LazyFileSource>;
  /**
   * Origins (`https://cdn.example.com`) that lazy-file URLs named by the path tree may be
   * fetched from. Unset: any `https:` URL except loopback, link-local and private
   * addresses. URLs passed in `lazyFiles` are the host's own and are not checked against
   * it. No URL may hold a user name or password.
   */
  lazyOrigins?: readonly string[];
  /**
   * The most bytes a lazy file may have when the path tree gives no `size` for it (with a
   * `size`, that is the limit), and for `lazyFiles`; defaults to 32 MiB. A longer answer is
   * aborted as soon as it passes the limit: EIO naming it.
   */
  lazyMaxBytes?: number;
  /**
   * A writable top-level directory for this session only (`"/tmp"`), held in memory beside
   * the read-only docs; it must not be a path in the docs. Searches over `/` include it.
   */
  scratch?: string;
  /** The most bytes of file content the scratch directory holds; defaults to 16 MiB (ENOSPC past it). */
  scratchBytes?: number;
  /**
   * Whether `grep`, `egrep`, `fgrep`, `rg`, `ls`, `find`, `tree` and `du` may be answered in
   * Rust when their output is modelled exactly (default `true`). The output is just-bash's
   * either way; `false` runs every command in just-bash, for comparison.
   */
  nativeCommands?: boolean;
  /**
   * On a collection whose chunks carry no access (written by another tool and not
   * annotated), a session that has hidden pages reads a search's scope instead of asking
   * Chroma which pages match, since Chroma's answer — its size, how many requests it
   * takes — would depend on text only hidden pages hold (`"hide"`, the default).
   * `"accept"` asks anyway: faster, but a search's cost then tells the session something
   * about hidden text. `chromafs annotate` makes the question safe to ask.
   */
  searchHiddenTextCost?: "hide" | "accept";
  /**
   * Whether greps read the collection's grep index, when `chromafs ingest` or
   * `chromafs annotate` wrote one (`fs.info().grepIndex` says whether they do). `false`:
   * they ask Chroma which pages match, as on a collection without one. Default `true`.
   */
  grepIndex?: boolean;
  /**
   * `"log"`: a network failure's cause (an address, a resolver's answer) is written to the
   * host's console, the operator's log, and messages say only that Chroma could not be
   * reached. Default `"show"`. The MCP server uses `"log"`.
   */
  networkErrors?: "show" | "log";
  /**
   * Embeds texts for ranked search (`search`, `fs.search()`): the same model that embedded
   * the collection, one vector per text. Without it, ranked search uses the query's words
   * alone (BM25 over the chunks that contain them).
   */
  embed?: Embedder;
  /** The name of the model `embed` runs, checked against the one the collection's manifest records. */
  embedModel?: string;
  /**
   * What the session may do with the embedding function Chroma's clients recorded in the
   * collection (`fs.info().collectionEmbedding`), when `embed` is not given: an
   * OpenAI-compatible service is called for questions when its address is the provider's
   * own or one of `allowOrigins`, with the key read from `OPENAI_API_KEY`,
   * `CHROMA_OPENAI_API_KEY`, the variable the record names if it is one of those or of
   * `keyEnv`, or `keyEnv`'s. `false`: never. Default `{}`.
   */
  collectionEmbedding?: false | CollectionEmbeddingOptions;
}

/** What a session may do with the embedding function a collection records. */
export interface CollectionEmbeddingOptions {
  /** Origins (`http://vllm.internal:8000`) a recorded `api_base` may be at, besides the provider's own. */
  allowOrigins?: string[];
  /** More environment variables a key may be read from (a recorded `api_key_env_var` among them). */
  keyEnv?: string[];
  /** Where variables are read (default `process.env` where there is one; a Worker passes its `env`). */
  env?: Record<string, string | undefined>;
  /** The `fetch` the service is called with (default the global one). */
  fetch?: FetchLike;
  /** How long one request to the service may take (default 60,000 ms). */
  timeoutMs?: number;
}

/** Options of `openAiEmbedder()`. */
export interface OpenAiEmbedderOptions {
  /** The service's base URL, to which `/embeddings` is added (default `https://api.openai.com/v1`). */
  url?: string;
  /** The model, as the service names it. */
  model: string;
  /** The key, as a value; prefer `apiKeyEnv`. */
  apiKey?: string;
  /** The environment variable(s) the key is read from, before `OPENAI_API_KEY` and `CHROMA_OPENAI_API_KEY`. */
  apiKeyEnv?: string | string[];
  /** Where variables are read (default `process.env` where there is one). */
  env?: Record<string, string | undefined>;
  /** Asks the service for vectors of this many numbers (`text-embedding-3-*` and others take it). */
  dimensions?: number;
  /** More headers for every request (a gateway's own, say); their values are never shown in a message. */
  headers?: Record<string, string>;
  /** Texts a request may hold (default 2,048, OpenAI's limit). */
  batchSize?: number;
  /** Tokens one text may hold, counted as UTF-8 bytes; a longer text is embedded by its beginning (default 8,192). */
  maxInputTokens?: number;
  /** Tokens a request may hold, counted as UTF-8 bytes (default 300,000). */
  maxRequestTokens?: number;
  /** Requests in flight at once; ingest embeds that many batches ahead of the one it writes (default 4). */
  concurrency?: number;
  /** How long one request may take before it fails with ETIMEDOUT (default 60,000 ms). */
  timeoutMs?: number;
  /** How long 429s and 5xx are tried again, after Retry-After or a jittered backoff (default 60,000 ms). */
  retryMs?: number;
  /** Called after each request with the number of texts it embedded. */
  onBatch?: (n: number) => void;
  /** The `fetch` to call the service with (default the global one). */
  fetch?: FetchLike;
}

/** An embedder over an OpenAI-compatible service: pass it as `embed` to `ChromaFs.connect` or `ingest`. */
export interface ServiceEmbedder {
  readonly model: string;
  /** The base URL it calls. */
  readonly url: string;
  /** Where its requests, and its key, go. */
  readonly origin: string;
  /** The length of its vectors, once it has answered (or `dimensions`, if given). */
  readonly dimension: number | undefined;
  readonly concurrency: number;
  /** How Chroma's own clients name it in a collection's configuration; ingest records it there. */
  readonly chromaFunction: { name: "openai"; config: Record<string, unknown> };
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Questions: from this process's cache when asked before, else one request. */
  embedQuery(texts: string[]): Promise<Float32Array[]>;
  close(): void;
}

/**
 * An embedder that calls an OpenAI-compatible `POST {url}/embeddings` (OpenAI, Azure OpenAI's
 * v1 API, vLLM, Ollama, LM Studio, LiteLLM, TEI) with `fetch`, in every runtime. Throws a
 * TypeError for options that cannot be right, and an EINVAL error when OpenAI itself would
 * be called without a key.
 */
export declare function openAiEmbedder(options: OpenAiEmbedderOptions): ServiceEmbedder;

/** Options of `fs.search()`. */
export interface SearchOptions {
  /** Pages to return, 1 to 100 (default 10). */
  k?: number;
  /** Search only pages under this directory (resolved against `cwd`). */
  path?: string;
  /** The directory `path` is relative to (default `/`). */
  cwd?: string;
  /** `"hybrid"` (default): words and meaning fused; `"lexical"` or `"dense"`: one ranking alone. */
  mode?: "hybrid" | "lexical" | "dense";
  /** Search only pages in this language (a code: `en`, `fr`, `ja`, `zh-cn`…). */
  lang?: string;
  /** Search only this version of the docs and the pages of no version (EINVAL naming the versions for one that does not exist). */
  version?: string;
}

/** One page found by `fs.search()`, best first. */
export interface SearchHit {
  path: string;
  /** The lines of the page's best-matching chunk (`sed -n 'startLine,endLinep' path`); null when unknown. */
  startLine: number | null;
  endLine: number | null;
  /** Reciprocal-rank fusion score of the page's best chunk (higher is better). */
  score: number;
  /** The chunk's line holding the most of the query's words. */
  snippet: string | null;
  /** What the page says it is: its front matter's `title:`, else its first heading; null when it states neither or the search did not read the page's start (no request is spent on titles). */
  title: string | null;
  /** The version of the docs the page belongs to, when it belongs to one. */
  version?: string;
}

/**
 * What `fs.search()` returns: the pages found, best first; a search of one `version` that
 * found none, by a session that sees other versions, names in `otherVersions` the best
 * pages of other versions that answer the same question (at most 3, each with its
 * `version`), when there are some.
 */
export type SearchHits = SearchHit[] & { otherVersions?: SearchHit[] };
/** A session of one version held for a call (`leaseVersion`): free it with `release()`, never with `free()`. */
export interface VersionLease<T> {
  fs: T;
  release(): void;
}

/** The versions of the docs a session may choose among (`fs.versions()`). */
export interface DocsVersions {
  /** The versions of the pages the session may see, oldest first (`v2` before `v10`); only its own when it is scoped to one. */
  versions: string[];
  /** The version the session is scoped to, else the one the ingest named (`defaultVersion`), else the newest; null when the docs have none. */
  default: string | null;
  /** Whether the session was connected with `version`. */
  scoped: boolean;
  /** A mount scoped to a version it has no page of (it shows its pages of no version): the versions it has. */
  mountVersions?: string[];
}
