// Type declarations for chromafs: a read-only just-bash filesystem over a Chroma collection.
//
// Self-contained on purpose: nothing here imports just-bash's types (a host may bring a
// just-bash of its own, within the package's range). The filesystem, stat, dirent and command shapes mirror just-bash 3.4's
// `IFileSystem` and `CustomCommand` structurally, which is what lets
// `new Bash({ fs, customCommands: fs.commands() })` type-check without a shared import.

// ---------------------------------------------------------------------------------------
// Shapes shared with just-bash's IFileSystem (same names, structurally compatible)

/** Encodings `readFile` accepts; `binary`/`latin1` give one char per byte. */
export type BufferEncoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";

/** What the (rejected) write methods take, as just-bash passes it. */
export type FileContent = string | Uint8Array;

/** What a page states it is (`pageHeadings`): front matter `title:` (else its first heading) and `description:`. */
export interface PageHeading {
  title: string | null;
  description: string | null;
}

export interface ReadFileOptions {
  /** Defaults to UTF-8 (a leading BOM dropped, invalid bytes replaced, like TextDecoder). */
  encoding?: BufferEncoding | null;
}

export interface WriteFileOptions {
  encoding?: BufferEncoding;
}

export interface MkdirOptions {
  recursive?: boolean;
}

export interface RmOptions {
  recursive?: boolean;
  force?: boolean;
}

export interface CpOptions {
  recursive?: boolean;
}

/** What `stat` and `lstat` resolve to. */
export interface FsStat {
  isFile: boolean;
  isDirectory: boolean;
  /** The filesystem has no symlinks. */
  isSymbolicLink: false;
  mode: number;
  /** Page size in bytes; from the path tree when it records one, so `ls -l` reads no page. */
  size: number;
  /** From the path tree; the epoch when the tree records none. */
  mtime: Date;
  dev: number;
  ino: number;
}

/** What `readdirWithFileTypes` resolves to, one per visible child. */
export interface DirentEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: false;
}

// ---------------------------------------------------------------------------------------
// Options

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

// ---------------------------------------------------------------------------------------
// Results

/** Counters since `connect`, for hosts, tests and benchmarks. */
export interface ChromaFsStats {
  requests: number;
  /** Bytes of request bodies sent to Chroma. */
  bytesSent: number;
  bytesReceived: number;
  retries: number;
  failures: number;
  cacheHits: number;
  cacheMisses: number;
  cachedBytes: number;
  cachedPages: number;
  lazyFetches: number;
  /** Pages found in the shared cache. */
  sharedHits: number;
  /** Shared-cache lookups that found nothing usable. */
  sharedMisses: number;
  /** Shared-cache calls that failed (each treated as a miss). */
  sharedErrors: number;
  /** Pages found in the process tier: loaded by another session of this process and not fetched again. */
  processHits: number;
  /** Whether `connect` found the tree already decoded in this process. */
  treeFromCache: boolean;
  /** Files visible to this session. */
  files: number;
  /** Pages loaded by bulk prefetches. */
  prefetchedPages: number;
  /** The most recent search commands (newest last) and what each cost. */
  commands: SearchCommandStats[];
}

/** How one `grep`/`egrep`/`fgrep`/`rg`, `ls` or `find` was run and the Chroma requests it made. */
export interface SearchCommandStats {
  /** The command line, words joined by spaces. */
  command: string;
  /**
   * `narrow`: only candidate pages searched; `prefetch`: every page in scope loaded in
   * bulk; `memory`: every page it reads was in memory, Chroma was not asked; `delegate`:
   * no files read (listings, stdin, usage errors).
   */
  plan: "narrow" | "prefetch" | "memory" | "delegate";
  /** Files the command would read without narrowing. */
  scope: number;
  /** Files left after the coarse query. */
  candidates: number;
  /**
   * Files handed to the command: the candidates, less those the fine check ruled out (a
   * command answered in Rust whose candidates fit the cache reads them as they load, with
   * no check before: all of them).
   */
  searched: number;
  /** Chunk records the coarse query matched. */
  coarseMatches: number;
  coarseRequests: number;
  prefetchRequests: number;
  /** Why a search fell back to a prefetch. */
  note?: string;
  /** Answered in Rust rather than by just-bash's command. */
  native: boolean;
  /** Why just-bash's command printed it, when it ran there. */
  delegated?: string;
}

/** A command's output, as just-bash's commands return it. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** `"bytes"` when `stdout` holds bytes that are not UTF-8 text, one character a byte (`tree -S`), as just-bash reads it. */
  stdoutKind?: "bytes";
}

/** The `search` command's output, and when the search ran, each hit as printed, best first. */
export interface SearchCommandOutput extends CommandOutput {
  /** When the search ran: each hit as printed, best first. */
  blocks?: string[];
  /** When the search ran: each hit as `fs.search()` returns it, best first. */
  hits?: SearchHit[];
  /** A search of one version (`--version`) that found nothing: the best pages of other versions that answer, as `fs.search()`'s `otherVersions`. */
  otherVersions?: SearchHit[];
}

/** What failed while a command ran (see `beginCommand`). */
export interface CommandReport {
  /** Failed reads no inner command has reported yet, oldest first (at most 1,000). */
  unreported: { path: string; cause: string }[];
  /** Every failed read since the command began. */
  total: number;
}

/** Tree-level facts about the connected collection. */
export interface ChromaFsInfo {
  collectionId: string;
  /** A hash of the tree's content; changes whenever the docs are re-ingested. */
  treeVersion: string;
  /** Files visible to this session. */
  files: number;
  /**
   * The session's groups that no page it sees names (a group spelled wrong, or one the docs do
   * not use). A page naming one of them would be visible, so this tells nothing of the others.
   */
  unusedGroups: string[];
  /** Every chunk holds whole lines, so a search can match chunk by chunk. */
  lineAligned: boolean;
  /** Every chunk carries its page's access, so reads and searches are scoped inside Chroma. */
  chunkAccess: boolean;
  /** Pages are asked for by their chunks' ids (the tree, or an annotation, counts every page's chunks). */
  readById: boolean;
  /**
   * For the operator: this session's searches read every visible page of their scope instead
   * of asking Chroma which may match, because the collection's chunks carry no access and the
   * session cannot see every page (asking would let hidden text change what a search costs).
   * `chromafs annotate` makes such a collection cheap to search. A host should not pass this on
   * to an agent: it says that pages exist which the session cannot see.
   */
  searchesReadScope: boolean;
  /**
   * Whether greps choose their pages from the collection's grep index (`used`), and why
   * not when they do not (no index, a format this version does not read, `grepIndex: false`).
   * A search whose pattern has no three bytes of literal text asks Chroma whatever this says.
   */
  grepIndex: { used: boolean; why: string | null };
  /**
   * The tree record's Chroma metadata (e.g. `pages`), as stored: the whole collection's,
   * whatever this session may see (`pages` counts hidden pages too). For the host, not
   * an agent: `files` is what the session sees.
   */
  treeMetadata: Record<string, unknown>;
  /**
   * The model and dimension that embedded the chunks, when the tree's manifest records them,
   * and the embedder's `method` when it named one.
   */
  embedding: { model: string; dimension: number; method?: string } | null;
  /**
   * The embedding function Chroma's clients recorded in the collection's configuration, with
   * whether this session's searches embed questions with it (`used`) and, when not, why
   * (`missing`; `refusedOrigin` when its address is not allowed); `note`: what of the
   * record was not read. Null when the collection records none.
   */
  collectionEmbedding: {
    name: string;
    model: string | null;
    apiBase: string | null;
    apiKeyEnvVar: string | null;
    dimensions: number | null;
    apiType: string | null;
    organizationId: string | null;
    url: string | null;
    used?: boolean;
    missing?: string;
    refusedOrigin?: string;
    note?: string;
  } | null;
  /** The length of the collection's vectors, as Chroma said when the tree was loaded; null before any record. */
  collectionDimension: number | null;
  /**
   * What is wrong with the tree entries this session could see, one escaped line each
   * (`corrupt path tree: entry "a\nb.md": path contains the control character '\n'`): pages
   * whose entry has a field that cannot be right (reading them is EIO with this message),
   * and entries no listing shows (a key that cannot be a path, two keys naming one path).
   * Entries whose access cannot be read are hidden from every session and named nowhere.
   */
  brokenPages: string[];
}

/**
 * An embedding function, or an object with one and the model's name (as `chromafs/embed`
 * makes). `method` says how passages become vectors; ingest records it, and embeds every
 * chunk again when a later ingest's embedder names another. `embedQuery`, when given, is
 * what a search embeds its question with (`embed` otherwise): for models that read a
 * question apart from a passage.
 */
export type EmbedFunction = (texts: string[]) => Promise<ReadonlyArray<ArrayLike<number>>> | ReadonlyArray<ArrayLike<number>>;
export type Embedder =
  | EmbedFunction
  | {
      embed: EmbedFunction;
      embedQuery?: EmbedFunction;
      model?: string;
      method?: string;
      dimension?: number | undefined;
      /** Calls of `embed` an ingest may have in flight at once (default 1). */
      concurrency?: number;
      /** How Chroma's clients name the function; ingest records it in the collection's configuration. */
      chromaFunction?: { name: string; config: Record<string, unknown> };
    };

/** What bash prints for a command; structurally just-bash's `ExecResult`. */
export interface CommandResultLike {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A just-bash custom command (structurally its `Command`), for `customCommands`. */
export interface CustomCommandLike {
  name: string;
  trusted?: boolean;
  /** `ctx` is just-bash's command context; typed loosely so just-bash need not be installed. */
  execute(args: string[], ctx: unknown): Promise<CommandResultLike>;
}

// ---------------------------------------------------------------------------------------
// ChromaFs

/**
 * A read-only just-bash filesystem over a Chroma collection. Writes reject with `EROFS`
 * except in the `scratch` directory and to `/dev/null`; errors carry `code`, `syscall`
 * and `path` like Node's.
 */
/** `ChromaFs.connectMounts`'s options: `connect`'s, and the mounts. */
export interface MountsOptions extends Omit<ConnectOptions, "collection" | "mountAt"> {
  /** Each top-level directory and its collection, or the options of that mount. */
  mounts: Record<string, string | (Partial<ConnectOptions> & { collection: string })>;
}

/**
 * Collections mounted as top-level directories of one just-bash filesystem. A command
 * inside one mount is that mount's (searches pushed down to its collection); one that
 * reaches several runs as just-bash's own over all of them; `search` interleaves the
 * mounts' rankings. Paths outside every mount (the scratch directory) belong to the first.
 */
export interface MountedFs
  extends Pick<
    ChromaFs,
    | "readFile" | "readFileBuffer" | "writeFile" | "appendFile" | "exists" | "stat" | "lstat" | "mkdir" | "readdir"
    | "readdirWithFileTypes" | "rm" | "cp" | "mv" | "resolvePath" | "getAllPaths" | "chmod" | "symlink" | "link"
    | "readlink" | "realpath" | "utimes" | "writeError" | "saveScratch" | "restoreScratch"
  > {
  /** just-bash custom commands over the mounts (pass as `customCommands`). */
  commands(): CustomCommandLike[];
  search(query: string, options?: SearchOptions): Promise<SearchHits>;
  searchCommand(args: string[], cwd: string): Promise<SearchCommandOutput>;
  /** Each mount's statistics by directory, and their requests and visible files summed. */
  stats(): { requests: number; files: number; mounts: Record<string, ChromaFsStats> };
  /** Each mount's `info()` by directory. */
  info(): { mounts: Record<string, ChromaFsInfo> };
  beginCommand(limits?: { maxRequests?: number; timeoutMs?: number }): number[];
  endCommand(marks: number[]): CommandReport;
  abortCommand(): void;
  isCurrent(): Promise<boolean>;
  /** Each mount's `pageTitles` for its own pages; a path in no mount has none. */
  pageTitles(paths: string[]): Promise<(string | null)[]>;
  /** Each mount's `pageHeadings` for its own pages; a path in no mount has none. */
  pageHeadings(paths: string[]): Promise<PageHeading[]>;
  /** Each mount's `planReads` for its own pages. */
  planReads(paths: string[]): void;
  /** The same mounts scoped to `version` (see ChromaFs's `ofVersion`). */
  ofVersion(version: string): Promise<MountedFs>;
  /** The same mounts scoped to `version`, held for a call (see ChromaFs's `leaseVersion`). */
  leaseVersion(version: string): Promise<VersionLease<MountedFs>>;
  free(): void;
}

export declare class ChromaFs {
  private constructor();

  /** Opens a session: loads the path tree (or reuses this process's copy) and applies `groups`. */
  static connect(options: ConnectOptions): Promise<ChromaFs>;
  /**
   * Sets the byte budget of the process tier, the pages shared by the sessions of this
   * process that read the same tree with the same credentials (64 MiB by default); `0`
   * turns it off. The same as `connect`'s `processCacheBytes`.
   */
  static setProcessCacheBytes(bytes: number): void;
  /** Forgets the path trees this process has cached, so the next `connect` reloads. */
  static forgetTrees(): void;
  /**
   * A grep, egrep or fgrep typed in `cwd` over mounted collections (`mounts`: their names,
   * `docs` for `/docs`; `home`: the one holding paths outside them; `root`: the names in
   * `/`), as one grep per mount whose outputs joined are its output, in order; `null` when
   * it is not split so (context lines, an operand that is stdin, one mount reached). Read
   * by the parser the search itself uses.
   */
  static splitSearch(
    name: "grep" | "egrep" | "fgrep",
    args: string[],
    cwd: string,
    mounts: string[],
    home: string,
    root: string[],
  ): { mount: string; args: string[] }[] | null;
  /**
   * Whether a file name matches a glob as one segment of bash's pathname expansion
   * (`*`, `?`, bracket sets, backslash escapes; the caller leaves dotfiles out); throws
   * for a glob it does not model. The package's shell expands globs ending in a slash with it.
   */
  static globMatches(glob: string, name: string): boolean;
  /**
   * Reads a `search` command line run in `cwd` (the parser the command itself uses):
   * whether it asks for its help or is a usage error, the number of pages it shows (the
   * command's default without `-n`), and the directory it searches.
   */
  static readSearchLine(args: string[], cwd: string): { help: boolean; usage: boolean; k: number; dir: string | null };
  /**
   * Several collections in one filesystem, each as a top-level directory:
   * `connectMounts({ url, groups, mounts: { "/docs": "docs", "/api": { collection: "api-v2", embed } } })`.
   * The other options apply to every mount; a mount's object overrides them for it.
   */
  static connectMounts(options: MountsOptions): Promise<MountedFs>;

  readFile(path: string, options?: ReadFileOptions | BufferEncoding): Promise<string>;
  readFileBuffer(path: string): Promise<Uint8Array>;
  /**
   * The file as a latin1 byte string (one char per byte). A plain `string` at runtime; the
   * type parameter lets it satisfy just-bash's branded `ByteString` without importing it.
   */
  readFileBytes<T = string>(path: string): Promise<T>;
  /** Writes into the `scratch` directory; `/dev/null` discards; anywhere else rejects with `EROFS`. */
  writeFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void>;
  /** Appends in the `scratch` directory; `/dev/null` discards; anywhere else rejects with `EROFS`. */
  appendFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void>;
  /** Answered from the path tree, never rejects. */
  exists(path: string): Promise<boolean>;
  stat(path: string): Promise<FsStat>;
  /** Same as `stat`: there are no symlinks. */
  lstat(path: string): Promise<FsStat>;
  /** In the `scratch` directory only; elsewhere rejects with `EROFS`. */
  mkdir(path: string, options?: MkdirOptions): Promise<void>;
  readdir(path: string): Promise<string[]>;
  readdirWithFileTypes(path: string): Promise<DirentEntry[]>;
  /** In the `scratch` directory only; elsewhere rejects with `EROFS`. */
  rm(path: string, options?: RmOptions): Promise<void>;
  /** Into the `scratch` directory (from anywhere the session can read); elsewhere rejects with `EROFS`. */
  cp(src: string, dest: string, options?: CpOptions): Promise<void>;
  /** Within the `scratch` directory only; elsewhere rejects with `EROFS`. */
  mv(src: string, dest: string): Promise<void>;
  /** Synchronous, as just-bash requires. */
  resolvePath(base: string, path: string): string;
  /** Every visible path (files and directories), for glob matching. */
  getAllPaths(): string[];
  /** In the `scratch` directory only; elsewhere rejects with `EROFS`. */
  chmod(path: string, mode: number): Promise<void>;
  /** Rejects with `EROFS`. */
  symlink(target: string, linkPath: string): Promise<void>;
  /** Rejects with `EROFS`. */
  link(existingPath: string, newPath: string): Promise<void>;
  /** Rejects: there are no symlinks. */
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  /**
   * In the `scratch` directory only: sets the modification time to `mtime` (`atime` is not
   * kept), `ENOENT` for a missing path; elsewhere rejects with `EROFS`.
   */
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;

  /** Counters since `connect`. */
  /**
   * Why opening `path` to write would fail, as open(2) says it (an Error whose `code` is
   * EROFS, ENOENT, ENOTDIR or EISDIR), or null when it would open. Nothing is written:
   * `safeExec` asks it before a command whose output is redirected runs.
   */
  writeError(path: string): (Error & { code: string }) | null;
  /** The scratch directory's whole content as bytes, or undefined when the session has none. */
  saveScratch(): Uint8Array | undefined;
  /**
   * Replaces the scratch directory's content with bytes `saveScratch()` gave (null: empty,
   * and the files process substitutions left in /dev/fd dropped, with a scratch directory
   * or without one). Bytes that do not read back throw EINVAL and change nothing.
   */
  restoreScratch(saved: Uint8Array | null): void;
  stats(): ChromaFsStats;
  /** The collection id, tree version and tree metadata. */
  info(): ChromaFsInfo;
  /**
   * just-bash custom commands for this filesystem; pass as `customCommands`. The searches
   * (`grep`, `egrep`, `fgrep`, `rg`) ask Chroma which pages can match and load those in
   * bulk, then print the answer in Rust when its output is modelled exactly, or run
   * just-bash's own command over the loaded pages otherwise: the same output, in a handful
   * of requests. `ls`, `find`, `tree` and `du` are answered from the listing in Rust on the
   * same terms, with just-bash's command as the fallback. The other commands that read
   * files (`cat`, `head`, `wc`, `sed`, `xargs`…) run just-bash's own implementation. Every
   * one runs inside a command budget and reports the reads that failed:
   * `cat: /a.md: Input/output error (cause)`, a failing exit code (2 for searches), and
   * "output incomplete" when it printed something anyway.
   */
  commands(): CustomCommandLike[];
  /**
   * What the search commands above call: narrows a search command line and loads the
   * pages it will read; resolves to the command's output when it was answered in Rust,
   * to the arguments to run the original command with, or `null` when those pages cannot
   * be loaded (`endCommand` reports why); rejects when the command must not run at all,
   * such as a pattern over 8 KiB (just-bash's matchers take minutes on a 100 KiB one).
   * `ownFs`: the command reads this filesystem itself, not a host's filesystem around it;
   * `stdoutFile`: the file its standard output goes to, which grep refuses to read and rg skips.
   */
  planSearch(name: string, args: string[], cwd: string, stdinEmpty?: boolean, ownFs?: boolean, linesWanted?: number, stdin?: string, stdoutFile?: string): Promise<string[] | CommandOutput | null>;
  /**
   * What `ls`, `find`, `tree` and `du` above call: their output answered from the listing (and
   * the files the command reads first, such as `tree --fromfile`'s lists; `stdin` is standard
   * input's text), or `null` when just-bash's own command must run (`stats().commands` says why).
   */
  runCommand(name: string, args: string[], cwd: string, ownFs?: boolean, stdin?: string): Promise<CommandOutput | null>;
  /**
   * Starts a command: opens its request budget (`maxRequestsPerCommand`,
   * `commandTimeoutMs`) and collects the reads that fail while it runs. Commands begun
   * inside a running one share its budget. `limits` hold this command tighter than the
   * session's options, never looser (a server bounds each call it answers). Returns the
   * mark for `endCommand`.
   */
  beginCommand(limits?: { maxRequests?: number; timeoutMs?: number }): number;
  /**
   * Whether the tree this session was opened with is still the collection's, as of the
   * running command's start (or now, outside one): one small request, unless a check made
   * since then by any session of the process answers. A server that keeps sessions between
   * calls asks before each call and connects again when the docs changed. Rejects (EIO)
   * when the check cannot be made.
   */
  isCurrent(): Promise<boolean>;
  /**
   * The title each of `paths` (at most 100) states — its front matter's `title:`, else its
   * first Markdown heading — read from the pages' first chunks in one request by id; `null`
   * for a page that states none or is not read by id (a lazy file, a collection another
   * tool wrote), and for a path that is no visible page (no request names it).
   */
  pageTitles(paths: string[]): Promise<(string | null)[]>;
  /** The versions of the docs this session may choose among (no request). */
  versions(): DocsVersions;
  /**
   * `pageTitles` with each page's front matter `description:` beside its title, from the
   * same request: `{ title, description }`, each `null` where the page states none.
   */
  pageHeadings(paths: string[]): Promise<PageHeading[]>;
  /**
   * The running command (between `beginCommand` and `endCommand`) will read `paths` in this
   * order: a page read then loads with those after it, their chunks by id in bulk (300 to a
   * request, at most ten in flight), not a request a page. Paths that are no visible page
   * are left out.
   */
  planReads(paths: string[]): void;
  /** Ends a command: the reads that failed while it ran and that no inner command reported. */
  endCommand(mark: number): CommandReport;
  /** Stops the running command: its requests not yet sent are refused. */
  abortCommand(): void;
  /**
   * From now on this session's commands draw on `other`'s budget: a command open on either
   * is open on both, and their requests count together (how `connectMounts` makes several
   * sessions one shell).
   */
  shareBudget(other: ChromaFs): void;
  /**
   * The same session, searching with the embedder of `options` (`embed`, `embedModel`, as
   * `connect` reads them) instead of its own; no request is sent.
   */
  withEmbed(options: Pick<ConnectOptions, "embed" | "embedModel">): ChromaFs;
  /**
   * Ranked search: the pages that best answer `query` among those the session sees, best
   * first (hybrid BM25 and, with `embed`, nearest neighbours, fused by rank). Rejects with
   * EIO when Chroma or the embedding function fails, EINVAL for a query with no words.
   */
  search(query: string, options?: SearchOptions): Promise<SearchHits>;
  /** What the `search` command above calls: its output for `args`. */
  searchCommand(args: string[], cwd: string): Promise<SearchCommandOutput>;
  /**
   * This session's docs of `version` alone (and the pages of no version): a session
   * opened with this one's options and `version` the first time, kept for the next call (a
   * few versions at most, the least recently used freed first) and freed with this one;
   * do not free it yourself. Rejects with EINVAL, as `connect({ version })` does, for a
   * version this session does not see. A session scoped to `version` is its own.
   */
  ofVersion(version: string): Promise<ChromaFs>;
  /**
   * `ofVersion`'s session, held for a call: a session let go of meanwhile (more versions
   * used than are kept) is freed only once every lease of it is released. Resolves with
   * the session (this one, when it is scoped to `version`) and `release()`, to call once.
   */
  leaseVersion(version: string): Promise<VersionLease<ChromaFs>>;
  /** Releases the wasm-side session (and those `ofVersion` opened); the object is unusable afterwards. */
  free(): void;
}

// ---------------------------------------------------------------------------------------
// Ingest

/** One page to write; `path` is relative to the docs root (a leading `/` is ignored). */
export interface IngestFile {
  path: string;
  /** UTF-8 text; other bytes are rejected. */
  content: PageContent;
  /** Milliseconds since the epoch, shown by `ls -l` and `stat`. */
  mtime?: number;
}

/** Who may see the pages a glob matches; unmatched pages are public. */
export interface AccessRule {
  /** Defaults to false once a rule matches. */
  isPublic?: boolean;
  groups?: readonly string[];
}

export interface IngestOptions extends ChromaClientOptions, CollectionLayoutOptions {
  /** Created if missing; a re-run upserts and deletes records it did not write. */
  collection: string;
  files: readonly IngestFile[];
  /** Glob (relative to the docs root, e.g. `internal/**`) → rule, or that object as JSON text; the last matching rule wins. */
  access?: string | Record<string, AccessRule>;
  /** Glob → the version of the docs its pages belong to (`{"v1/**": "v1"}`), or that object as JSON text; the last matching glob wins. Pages no glob matches belong to every version. */
  versions?: string | Record<string, string>;
  /** A page no `versions` glob matches belongs to the version its top folder names, when that folder is named like one (`v2/`, `1.4/`, `v1.x/`). */
  versionFolders?: boolean;
  /** The version sessions are told to use when they do not choose (`versions().default`); some page must belong to it. Defaults to the newest. */
  defaultVersion?: string;
  /** Chunk size limit, split on line boundaries; defaults to 4096, clamped to 64..16384. */
  chunkBytes?: number;
  /** Embeds chunk texts, one vector per text; defaults to a small deterministic embedding. */
  embed?: Embedder;
  /** The model `embed` runs, recorded in the tree's manifest (`"custom"` when not given). */
  embedModel?: string;
  /** Store the tree as plain JSON instead of gzip+base64, e.g. to inspect it. */
  plainTree?: boolean;
  /** Access of pages no rule matches; defaults to `"public"`. */
  defaultAccess?: "public" | "private";
  /**
   * How long this run holds the collection unless it renews its lease (renewed while it
   * writes), 1000 to 86,400,000 ms; defaults to 60,000. Another ingest is refused while it
   * holds it, and one that was killed holds it no longer than this.
   */
  leaseMs?: number;
}

/** What an ingest wrote. */
export interface IngestSummary {
  collection: string;
  collectionId: string;
  pages: number;
  publicPages: number;
  restrictedPages: number;
  chunks: number;
  /** Total page bytes. */
  bytes: number;
  /** Stale records from earlier runs, deleted. */
  removedRecords: number;
  /** Chunks written and embedded by this run; a re-run writes only chunks whose text, place, access or model changed. */
  chunksWritten: number;
  /** Whether the tree was written (a re-run over unchanged docs leaves it as it is). */
  treeWritten: boolean;
  /** Size of the stored path tree: its manifest and shards. */
  treeBytes: number;
  /** Shard records the tree was split into (each under Chroma Cloud's 16 KiB cap). */
  treeShards: number;
  /** False when some line was longer than `chunkBytes` and had to be cut. */
  lineAligned: boolean;
  /** Pages each access rule decided, in rule order (a rule that matches none fails the ingest). */
  rules: { glob: string; pages: number }[];
  /** Pages of each version of the docs, oldest first (empty when the docs have no versions). */
  versions: { version: string; pages: number }[];
  /** The default version the tree names, when `defaultVersion` gave one. */
  defaultVersion?: string | null;
  /**
   * The grep index kept beside the chunks: its records after this run, those this run wrote
   * (a re-run writes only what changed) and their bytes, and records of index segments no
   * longer used, deleted (not counted in `removedRecords`).
   */
  grepIndex: { records: number; written: number; removed: number; bytes: number; ms: number };
  requests: number;
}

/**
 * Writes a folder's pages (already read by the host) into a collection. The writer is a
 * module of its own, loaded on the first call in Node and browsers; the Workers and edge
 * builds leave it out and reject with `ENOTSUP`.
 */
export declare function ingest(options: IngestOptions): Promise<IngestSummary>;

export interface AnnotateOptions extends ChromaClientOptions, CollectionLayoutOptions {
  collection: string;
  /**
   * Also write the grep index of the pages (default false; one an earlier run wrote is
   * deleted without it). Only for a collection whose writer changes the tree whenever it
   * writes chunks, or is followed by `annotate` each time: a chunk rewritten in place
   * behind the index is not seen through it.
   */
  grepIndex?: boolean;
}

/** What an annotation wrote. */
export interface AnnotateSummary {
  collection: string;
  /** Chunk records seen. */
  chunks: number;
  /** Chunks whose fields were written; the others were already right. */
  updated: number;
  /** Chunks of slugs the tree does not name, made private to nobody. */
  orphans: number;
  /** Every chunk is named SLUG#INDEX: every page's chunks were counted, and pages are read by id. */
  readById: boolean;
  /** The grep index of the pages, named in the annotations: its records, those written, those of an older index removed. */
  grepIndex: { records: number; written: number; removed: number; bytes: number; ms: number };
  requests: number;
}

/**
 * Writes each chunk's page access and ancestor directories onto a collection written by
 * another tool (in place, resumable), so its searches are scoped inside Chroma like those
 * of a collection `ingest` wrote. Valid until the other tool rewrites the tree.
 */
export declare function annotate(options: AnnotateOptions): Promise<AnnotateSummary>;

// ---------------------------------------------------------------------------------------
// Helpers around just-bash

/** What `safeExec` resolves to when `exec()` rejected. */
export interface SafeExecFailure {
  stdout: "";
  stderr: string;
  exitCode: 1;
  env: Record<string, string>;
}

/**
 * `bash.exec()` that never rejects and never hides a failed read. just-bash rejects
 * `exec()` when a top-level redirection fails (`echo x > /a.md` on a read-only
 * filesystem); this resolves with bash's error line on stderr and exit code 1 instead.
 * On a ChromaFs the command line is one command for `maxRequestsPerCommand`,
 * `commandTimeoutMs` and `options.signal`, and any read that failed in it is on stderr
 * with a failing exit code, even one no command reported (`wc -l < /a.md`).
 */
export declare function safeExec<R, O = undefined>(
  bash: { exec(command: string, options?: O): Promise<R> },
  command: string,
  options?: O,
): Promise<R | SafeExecFailure>;

/** The line bash would print for a filesystem error that escaped `exec()`. */
export declare function bashErrorLine(error: unknown): string;

/**
 * A content cache shared by many sessions: async get/set of page bytes under versioned
 * keys (`chromafs:<collection id>:<tree version>:<slug>`), so entries never go stale.
 */
export interface SharedContentCache {
  get(key: string): Promise<Uint8Array | string | null | undefined> | Uint8Array | string | null | undefined;
  set(key: string, value: Uint8Array): Promise<unknown> | unknown;
}

/** A Redis client as `redisCache` uses it (node-redis and ioredis both fit). */
export interface RedisLike {
  get(key: string): Promise<string | Uint8Array | null>;
  set(key: string, value: string, ...options: any[]): Promise<unknown>;
}

/** A shared cache over Redis; `ttlSeconds` only bounds memory, keys are versioned. */
export declare function redisCache(client: RedisLike, options?: { prefix?: string; ttlSeconds?: number }): SharedContentCache;

/** The part of the Workers Cache API that `workersCache` uses (`caches.default`). */
export interface CacheLike {
  match(request: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | undefined | null>;
  put(request: string, response: any): Promise<void>;
}

/** A shared cache over the Workers Cache API. */
export declare function workersCache(cache: CacheLike, options?: { origin?: string; ttlSeconds?: number }): SharedContentCache;

/**
 * A ready tool description for an agent: what the shell is, that it is read-only (but for
 * the `scratch` directory, when given), what works best.
 */
export declare function toolDescription(options?: { docs?: string; scratch?: string; keptMinutes?: number }): string;

/** A bash-tool sandbox over a just-bash `Bash`: commands never reject, writes fail as read-only. */
export declare function bashToolSandbox(bash: { exec(command: string, options?: any): Promise<{ stdout: string; stderr: string; exitCode: number }>; fs: { readFile(path: string): Promise<string> } }): {
  executeCommand(command: string): Promise<{ stdout: string; stderr: string; exitCode: number }>;
  readFile(path: string): Promise<string>;
  writeFiles(files: { path: string; content: string | Uint8Array }[]): Promise<void>;
};
