// Types for chromafs/mcp: the docs as a Model Context Protocol server. `serveStdio` and
// `serveHttp` are Node's; the rest runs in any runtime (Workers, Deno, Bun, edge functions).
import type { IncomingMessage } from "node:http";
import type { ChromaFs, ConnectOptions } from "./index.js";

/** The most characters a tool result holds. */
export declare const MAX_OUTPUT: 30000;

export interface McpOptions {
  /** Prefix of the tool names: `docs_` gives `docs_bash` and `docs_search`. */
  toolPrefix?: string;
  /** What the docs are, for the tools' descriptions (e.g. "the Acme API docs"). */
  docs?: string;
  /** The server's name in the MCP handshake (default "chromafs"). */
  name?: string;
}

/** An MCP server (the SDK's `McpServer`) with the `bash` and `search` tools for one session. */
export declare function createMcpServer(session: ChromaFs | (() => Promise<ChromaFs>), options?: McpOptions): import("@modelcontextprotocol/sdk/server/mcp.js").McpServer;
/**
 * Answers one streamable-HTTP MCP request with `server` (JSON responses, no MCP session),
 * then closes it: the whole MCP endpoint of an edge function or a Worker.
 */
export declare function answerMcp(request: Request, server: import("@modelcontextprotocol/sdk/server/mcp.js").McpServer): Promise<Response>;
/**
 * `authorize` from a map of bearer tokens to group lists (constant-time comparison, WebCrypto):
 * the groups of the request's `Authorization: Bearer TOKEN`, `null` for a missing or unknown
 * token. Takes a fetch `Request` or Node's `IncomingMessage`.
 */
export declare function tokenAuthorizer(tokens: Record<string, string[]>): (req: Request | IncomingMessage) => Promise<string[] | null>;
/** Serves the tools over stdio for one group set (`connectOptions.groups`). Node only. */
export declare function serveStdio(connectOptions: ConnectOptions, options?: McpOptions): Promise<unknown>;
/** Serves the tools over streamable HTTP at `/mcp`, each request with the groups `authorize` gives. Node only. */
export declare function serveHttp(
  connectOptions: ConnectOptions,
  options?: McpOptions & {
    port?: number;
    host?: string;
    authorize?: (req: IncomingMessage) => string[] | null | Promise<string[] | null>;
    requireToken?: boolean;
  },
): Promise<{ url: string; close(): Promise<void> }>;
