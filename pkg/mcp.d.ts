// Types for chromafs/mcp: the docs as a Model Context Protocol server. `serveStdio` and
// `serveHttp` are Node's; the rest runs in any runtime (Workers, Deno, Bun, edge functions).
import type { IncomingMessage } from "node:http";
import type { ChromaFs, ConnectOptions } from "./index.js";

type McpServer = import("@modelcontextprotocol/sdk/server/mcp.js").McpServer;

/** The most characters a tool result holds. */
export declare const MAX_OUTPUT: 30000;
/** The shortest bearer token `tokenAuthorizer` accepts. */
export declare const MIN_TOKEN_CHARS: 16;

/** What one tool call may spend. */
export interface McpLimits {
  /** Wall time of one call in ms (default 30,000); a call also stops when its client goes away. */
  callTimeoutMs?: number;
  /** Chroma requests one call may send (default 200). */
  maxRequests?: number;
  /** Calls one caller may have in flight (default 4); the next is a tool error until one ends. */
  callsInFlight?: number;
  /** Characters of a `bash` command line (default 16,384) and of a `search` query (default 1,000). */
  maxCommandChars?: number;
  maxQueryChars?: number;
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
  lease(groups: string[]): Promise<SessionLease>;
  close(): void;
}
/**
 * Sessions kept between calls, one group set each: a call leases one (checked against the
 * collection's tree and replaced when the docs changed) and releases it when it ends.
 */
export declare function sessionPool(
  connect: (groups: string[]) => Promise<ChromaFs>,
  options?: { idlePerGroups?: number; maxIdle?: number },
): SessionPool;

export interface McpOptions {
  /** Prefix of the tool names: `docs_` gives `docs_bash` and `docs_search`. */
  toolPrefix?: string;
  /** What the docs are, for the tools' descriptions (e.g. "the Acme API docs"). */
  docs?: string;
  /** The server's name in the MCP handshake (default "chromafs"). */
  name?: string;
  /** What one call may spend (see DEFAULT_LIMITS). */
  limits?: McpLimits;
  /** Calls in flight per caller, shared across servers (one server per request over HTTP). */
  gate?: CallGate;
  /** Who is calling, for `gate` (default "default"). */
  caller?: string;
  /** Running calls shared across servers, so a client's cancellation reaches its call. */
  registry?: CallRegistry;
}

/**
 * An MCP server (the SDK's `McpServer`) with the `bash` and `search` tools: over one
 * connected session, a function that resolves to one for each call, or a pool's lease.
 */
export declare function createMcpServer(
  session: ChromaFs | (() => ChromaFs | Promise<ChromaFs>) | { lease(): Promise<SessionLease> },
  options?: McpOptions,
): McpServer;
/**
 * Answers one streamable-HTTP MCP request with `server` (JSON responses, no MCP session),
 * then closes it: the whole MCP endpoint of an edge function or a Worker. A request whose
 * `Origin` is present and is neither the request's own origin nor in `allowOrigins` gets 403.
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
 * the groups of the request's `Authorization: Bearer TOKEN`, `null` for a missing or unknown
 * token. Takes a fetch `Request` or Node's `IncomingMessage`. Throws a TypeError for a map that
 * is not a plain object of arrays of strings, or a token shorter than MIN_TOKEN_CHARS.
 */
export declare function tokenAuthorizer(tokens: Record<string, string[]>): (req: Request | IncomingMessage) => Promise<string[] | null>;
/** Serves the tools over stdio for one group set (`connectOptions.groups`) until stdin closes. Node only. */
export declare function serveStdio(connectOptions: ConnectOptions, options?: McpOptions & { onClose?: () => void }): Promise<McpServer>;
/** Serves the tools over streamable HTTP at `/mcp`, each request with the groups `authorize` gives. Node only. */
export declare function serveHttp(
  connectOptions: ConnectOptions,
  options?: McpOptions & {
    port?: number;
    host?: string;
    authorize?: (req: IncomingMessage) => string[] | null | Promise<string[] | null>;
    requireToken?: boolean;
    /** Browser origins that may call the server; any other `Origin` gets 403. */
    allowOrigins?: string[];
  },
): Promise<{ url: string; close(): Promise<void> }>;
/** The calls running across the servers of one endpoint, so a cancellation reaches its call. */
export interface CallRegistry {
  add(caller: string, requestId: string | number, stop: () => void): () => void;
  cancel(caller: string, requestId: string | number): void;
}
export declare function callRegistry(): CallRegistry;
