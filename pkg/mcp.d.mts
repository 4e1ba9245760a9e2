// Types for chromafs/mcp: the docs as a Model Context Protocol server. `serveStdio` and
// `serveHttp` are Node's; the rest runs in any runtime (Workers, Deno, Bun, edge functions).
import type { IncomingMessage } from "node:http";
import type { ChromaFs, ConnectOptions, MountsOptions, SearchHit } from "./index.mjs";

type McpServer = import("@modelcontextprotocol/sdk/server/mcp.js").McpServer;

/** The most characters a tool result holds. */
export declare const MAX_OUTPUT: 30000;
/** The shortest bearer token `tokenAuthorizer` accepts. */
export declare const MIN_TOKEN_CHARS: 16;

/** What one tool call may spend. */
export interface McpLimits {
  /** Wall time of one call in ms (default 30,000); a call also stops when its client goes away. */
  callTimeoutMs?: number;
  /** Chroma requests one call may send, across every mount (default 200). */
  maxRequests?: number;
  /** Calls one caller may have in flight (default 4); the next is a tool error until one ends. */
  callsInFlight?: number;
  /** Characters of a `bash` command line (default 16,384) and of a `search` query (default 1,000). */
  maxCommandChars?: number;
  maxQueryChars?: number;
  /**
   * The JavaScript heap of a worker thread calls run in (Node's servers), in MiB (default
   * 512, at least 64): the calls it runs at once share it, and a worker that outgrows it is
   * stopped (the call that was running ends "ran out of memory").
   */
  memoryMiB?: number;
  /** just-bash's execution limits, over its "hardened" profile (output size, string length, loops…). */
  executionLimits?: Record<string, number>;
}

/** The limits a server applies unless told otherwise. */
export declare const DEFAULT_LIMITS: Readonly<Required<McpLimits>>;

/** Calls in flight per caller, shared by the servers of one endpoint (`callGate(max)`). */
export interface CallGate {
  readonly max: number;
  enter(caller: string): (() => void) | null;
}
export declare function callGate(max?: number): CallGate;

/** A session for one call, from a pool: released when the call ends (`stale`: the docs changed). */
export interface SessionLease {
  fs: ChromaFs;
  pooled: boolean;
  release(stale?: boolean): void;
}
/** Sessions kept between calls, per group set; see `sessionPool`. */
export interface SessionPool {
  /** An idle session of `groups` (and of `version` of the docs, when given), or a new one. */
  lease(groups: string[], version?: string): Promise<SessionLease>;
  close(): void;
}
/**
 * Sessions kept between calls, one group set each: a call leases one (checked against the
 * collection's tree and replaced when the docs changed) and releases it when it ends.
 */
export declare function sessionPool(
  connect: (groups: string[], version?: string) => Promise<ChromaFs>,
  options?: { idlePerGroups?: number; maxIdle?: number },
): SessionPool;

export interface McpOptions {
  /** Prefix of the tool names: `docs_` gives `docs_bash` and `docs_search`. */
  toolPrefix?: string;
  /** What the docs are, for the tools' descriptions and titles and the server's instructions (e.g. "the Acme API docs"). */
  docs?: string;
  /** The server's name in the MCP handshake (default "chromafs"). */
  name?: string;
  /**
   * The docs' versions, as a session's `versions()` gives them: the server's instructions
   * name them and the search tool's `version` offers them, as the only choices when
   * `exact` (every caller sees just these), else as examples.
   */
  versions?: { names: string[]; default: string | null; scoped?: boolean; exact?: boolean } | null;
  /** What one call may spend (see DEFAULT_LIMITS). */
  limits?: McpLimits;
  /** Calls in flight per caller, shared across servers (one server per request over HTTP). */
  gate?: CallGate;
  /** Who is calling, for `gate` and `registry` (default "default"): `admit`'s `caller.key`. */
  caller?: string;
  /** Running calls shared across servers, so a client's cancellation reaches its call. */
  registry?: CallRegistry;
  /**
   * Whether a cancellation sent in another request may stop this caller's calls (default
   * true); false for an anonymous caller, whom nothing tells apart from others at its address.
   */
  cancellable?: boolean;
  /**
   * Runs a call somewhere other than on `session` in this thread (Node's servers: a worker
   * thread), resolving with its outcome.
   */
  runner?: (call: { tool: "bash" | "search"; args: Record<string, unknown>; signal: AbortSignal; shell: ShellState | null }) => Promise<CallOutcome>;
  /**
   * Keeps a caller's shell (its working directory and scratch directory) from one call to
   * the next, for callers that are not anonymous (see `shellStore`). Without it, every call
   * starts in `/` with an empty scratch directory.
   */
  shells?: ShellStore;
  /** The sessions' scratch directory (their `scratch` option), named in the bash tool's description. */
  scratch?: string | null;
  /**
   * The docs' public site (http or https): search results carry each page's `url` (see
   * `pageUrl`), in the `search` tool's structured results and in `search --json`. For
   * several mounted doc sets, a function from a page's path to its address (or null):
   * `mountedSites({ "/docs": "https://docs.example.com" })`.
   */
  baseUrl?: string | ((path: string) => string | null);
}

/** What a caller's shell keeps between calls: where it was, and its scratch directory's bytes (`ChromaFs.saveScratch`). */
export interface ShellState {
  cwd: string;
  scratch?: Uint8Array;
}
/** Callers' shells, kept for `idleMs` after each one's last call. */
export interface ShellStore {
  get(caller: string): ShellState | null | Promise<ShellState | null>;
  put(caller: string, state: ShellState | null): void | Promise<void>;
  /** In this process: how many callers' shells, and their bytes (null for a shared cache's). */
  stats(): { callers: number | null; bytes: number | null };
  readonly idleMs: number;
}
/** How long a caller's shell is kept after its last call by default: 30 minutes. */
export declare const SHELL_IDLE_MS: number;
/**
 * A store of callers' shells in this process: each kept `idleMs` (default SHELL_IDLE_MS)
 * after its caller's last call; past `maxBytes` (default 256 MiB) or `maxCallers` (10,000)
 * together, the least recently used go first. With `shared` (a `sharedCache`: `get(key)`,
 * `set(key, bytes)`), the shells live there instead, keyed by the caller and `scope` (the
 * docs), so every process using the cache finds them; one older than `idleMs` reads as none.
 */
export declare function shellStore(options?: {
  idleMs?: number;
  maxBytes?: number;
  maxCallers?: number;
  now?: () => number;
  shared?: { get(key: string): unknown; set(key: string, bytes: Uint8Array): unknown };
  scope?: string;
}): ShellStore;

/** What one call came to, wherever it ran. */
export interface CallOutcome {
  result: { stdout: string; stderr: string; exitCode: number };
  /** The tool failed (a `search` the caller got wrong). */
  isError: boolean;
  /** The `search` tool's `{ results }`, and `otherVersions` when a search of one version found none but other versions' pages answer. */
  structured?: { results: SearchResult[]; otherVersions?: SearchResult[] };
  /** A read failed somewhere in the call (Chroma down, a budget spent). */
  failed: boolean;
  /** Why the call was ended without its answer, shown after its output. */
  note?: string;
  /** A bash call's shell as the line left it, to keep for the caller. */
  shell?: ShellState;
}

/** What `authorize` may answer: the groups alone, or the groups and who was authenticated. */
export type Authorized = string[] | { groups: string[]; caller?: string };

/** One page the `search` tool found: its `structuredContent` is `{ results: SearchResult[], otherVersions?: SearchResult[] }`. */
export interface SearchResult extends SearchHit {
  /** The page's public address, when the server has a base URL; else null. */
  url: string | null;
}
/**
 * The public address of the page at `path` under `base`: the path appended to the base
 * URL, its extension dropped, a page named `index` as its directory
 * (`/guides/index.md` → `BASE/guides`, `/guides/install.mdx` → `BASE/guides/install`);
 * null for a page whose name would be `.` or `..` once its extension is dropped.
 */
export declare function pageUrl(base: string, path: string): string | null;
/** Each mount's site (`{ "/docs": "https://docs.example.com" }`) as `baseUrl`'s rule: a page under a mount is that site's page at its path inside the mount. */
export declare function mountedSites(sites: Record<string, string>): (path: string) => string | null;

/** Options of `jwtAuthorizer`. */
export interface JwtAuthorizerOptions {
  /** The issuer tokens must name (`iss`); its metadata gives the signing keys unless `jwks` is set. */
  issuer: string;
  /** The audience tokens must name (`aud`): this server's public URL, ending in /mcp. */
  audience: string | string[];
  /** The key set's URL, when the issuer's metadata does not give it. */
  jwks?: string;
  /** The claim holding the groups: an array of names or one space-separated string (default "groups"). */
  groupsClaim?: string;
  /** Least time between two reads of the key set, whether the last succeeded or failed (default 30,000 ms). */
  keyCooldownMs?: number;
  /** How long a key set read is used before it is read again, in the background (default 600,000 ms). */
  keyMaxAgeMs?: number;
  /**
   * How long past `keyMaxAgeMs` the last key set read still checks tokens while the
   * provider cannot be read (default 3,600,000 ms; 0: refuse at once).
   */
  keyGraceMs?: number;
  /** The fetch the keys are read with (default: the global one). */
  fetch?: typeof fetch;
}
/** `authorize(request)` for OAuth access tokens; see `jwtAuthorizer`. */
export interface JwtAuthorizer {
  (request: Request | IncomingMessage): Promise<{ groups: string[]; caller?: string } | null>;
  /** Reads the issuer's keys now (throws TokenCheckUnavailable when they are out of reach). */
  ready(): Promise<void>;
  readonly issuer: string;
}
/**
 * `authorize` for OAuth 2.1 access tokens (JWTs) from `issuer`, with WebCrypto (Workers,
 * edge functions, Node, Deno, Bun): the groups of the request's bearer token and its caller
 * (issuer and subject, else client), `null` when it has none; throws TokenRejected (answer 401) for a token that is not valid for this server
 * (signature by one of the issuer's keys with an asymmetric algorithm, `iss`, `aud`, `exp`
 * and `nbf` with 60 s of skew), TokenCheckUnavailable (answer 503) when the keys cannot be
 * read. Keys are cached, and read again for a token signed with an unknown key.
 */
export declare function jwtAuthorizer(options: JwtAuthorizerOptions): JwtAuthorizer;
/** A token that is not valid for this server; its message names what is wrong, never the token. */
export declare class TokenRejected extends Error {}
/** A token that could not be checked: the issuer's keys are out of reach. */
export declare class TokenCheckUnavailable extends Error {}
/** RFC 9728 protected-resource metadata for `resource` (the endpoint's public URL). */
export declare function protectedResourceMetadata(options: { resource: string; issuer: string }): {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: string[];
  resource_name: string;
};
/** Where `resource`'s metadata is: `ORIGIN/.well-known/oauth-protected-resource/PATH`. */
export declare function metadataUrl(resource: string): string;
/** The `WWW-Authenticate` value of a 401 (pointing at the metadata when `resource` is given). */
export declare function bearerChallenge(resource: string | null, rejected?: Error | null): string;
/** Who a request comes from, for the per-caller limits: an injective key, and whether it is anonymous. */
export interface Caller {
  key: string;
  /** No credentials, or credentials an open server does not know: the caller is the address. */
  anonymous: boolean;
}
/**
 * Who may make `request`: `{ groups, caller }`, or the refusal to answer with (`status` 401
 * with `WWW-Authenticate`, or 503; `message`; `headers`). For an endpoint of one's own.
 * `address` is the request's network address, which names an anonymous caller.
 */
export declare function admit(
  request: Request | IncomingMessage,
  options: { authorize: (req: any) => Authorized | null | Promise<Authorized | null>; requireToken?: boolean; resource?: string | null; address?: string },
): Promise<{ groups: string[]; caller: Caller; status?: undefined } | { status: 400 | 401 | 503; message: string; headers: Record<string, string>; cause?: Error }>;

/**
 * An MCP server (the SDK's `McpServer`) with the `bash` and `search` tools and the pages as
 * resources (`chromafs://docs/PATH`, or `chromafs://MOUNT/PATH`): over one connected
 * session, a function that resolves to one for each call, or a pool's lease.
 */
export declare function createMcpServer(
  session: ChromaFs | (() => ChromaFs | Promise<ChromaFs>) | { lease(version?: string): Promise<SessionLease> } | null,
  options?: McpOptions,
): McpServer;
/**
 * Answers one streamable-HTTP MCP request with `server` (JSON responses, no MCP session),
 * then closes it: the whole MCP endpoint of an edge function or a Worker. A request of MCP
 * 2026-07-28 (its `_meta` names the protocol version; `server/discover`) is answered by that
 * revision's rules, any other as the 2025 revisions answer it. A request whose
 * `Origin` is present and is neither the request's own origin nor in `allowOrigins` gets 403,
 * one that repeats its `Host` 400; an allowed origin gets CORS headers and its preflight a 204.
 */
export declare function answerMcp(request: Request, server: McpServer, options?: { allowOrigins?: string[] }): Promise<Response>;
/**
 * The MCP specification's endpoint rule: why a request must get 403, or `null`. An `Origin`
 * must be in `allowOrigins` or `ownOrigins` when present; with `hosts` (a server on
 * loopback), the `Host` must be one of them.
 */
export declare function endpointRefusal(
  request: Request | IncomingMessage,
  rules?: { allowOrigins?: string[]; ownOrigins?: string[]; hosts?: string[] | null },
): string | null;
/**
 * `authorize` from a map of bearer tokens to group lists (constant-time comparison, WebCrypto):
 * the groups of the request's `Authorization: Bearer TOKEN` and the map's entry as its caller,
 * `null` for a missing, malformed or unknown token. Takes a fetch `Request` or Node's
 * `IncomingMessage`. Throws a TypeError for a map that is not a plain object of arrays of
 * strings, or a token shorter than MIN_TOKEN_CHARS or not made of a bearer token's characters.
 */
export declare function tokenAuthorizer(tokens: Record<string, string[]>): (req: Request | IncomingMessage) => Promise<{ groups: string[]; caller: string } | null>;
/**
 * Serves the tools over stdio for one group set (`connectOptions.groups`) until stdin closes;
 * `connectOptions` with `mounts` serves several collections, as `ChromaFs.connectMounts`. Node only.
 */
export declare function serveStdio(connectOptions: ConnectOptions | MountsOptions, options?: McpOptions & { onClose?: () => void; workers?: number; shellIdleMs?: number }): Promise<McpServer>;
/**
 * Serves the tools over streamable HTTP at `/mcp`, each request with the groups its
 * credentials give: an OAuth access token (`oauth`; the server then answers its RFC 9728
 * metadata at /.well-known/oauth-protected-resource), or what `authorize` says; and
 * `GET /llms.txt` and `/llms-full.txt` of the pages those groups may read. Node only.
 */
export declare function serveHttp(
  connectOptions: ConnectOptions | MountsOptions,
  options?: McpOptions & {
    port?: number;
    host?: string;
    authorize?: (req: IncomingMessage) => Authorized | null | Promise<Authorized | null>;
    /** An OAuth resource server: `audience` defaults to the public URL. Not with `authorize`. */
    oauth?: Omit<JwtAuthorizerOptions, "audience"> & { audience?: string | string[] };
    /** The endpoint's address as clients reach it behind a proxy (a bare origin gets /mcp). */
    publicUrl?: string;
    /** A request without credentials gets 401 (otherwise: the public pages). */
    requireToken?: boolean;
    /** Browser origins that may call the server (they get CORS); any other `Origin` gets 403. */
    allowOrigins?: string[];
    /** Worker threads calls run in (default: the cores, at least 2); 0 runs them in this thread. */
    workers?: number;
    /** How long an authenticated caller's shell is kept after its last call (default SHELL_IDLE_MS; 0: none). */
    shellIdleMs?: number;
    /**
     * Caps of `GET /llms.txt` (characters, default 100,000) and `/llms-full.txt` (bytes of
     * UTF-8, default 4 MiB), which answer the pages the caller may read.
     */
    llms?: { maxChars?: number; maxBytes?: number };
  },
): Promise<{ url: string; resource: string | null; close(): Promise<void>; stats(): WorkerPoolStats | null; shells(): { callers: number; bytes: number } }>;
/** What a server's pool of worker threads did since it started. */
export interface WorkerPoolStats {
  /** Workers started, replacements included. */
  started: number;
  /** Times a worker stopped beating while it had calls. */
  stalled: number;
  /** Workers the pool stopped (still computing for a call nobody waited on). */
  stopped: number;
  /** Workers that outgrew their heap. */
  outOfMemory: number;
  /** Calls started again on another worker. */
  moved: number;
  /** Workers alive, and those taking calls. */
  workers: number;
  ready: number;
}
/** The calls running across the servers of one endpoint, so a cancellation reaches its call. */
export interface CallRegistry {
  add(caller: string, requestId: string | number, stop: () => void): () => void;
  cancel(caller: string, requestId: string | number): void;
}
export declare function callRegistry(): CallRegistry;
