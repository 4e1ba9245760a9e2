// chromafs/mcp in Node: the docs' MCP tools (mcp-server.mjs) served over stdio, as desktop and
// command-line agents launch servers, and over streamable HTTP at `/mcp`.
//
// Sessions are kept between calls, per group set (sessionPool): a call costs what a command
// costs, plus one small request that checks the docs did not change since its session opened
// (a re-ingest reaches every client at its next call). Their pages are shared through the
// process tier; each session keeps only a small cache of its own.
//
// Access: over stdio the groups are the server's (`groups`); over HTTP they come from the
// request through `authorize(request)` (a bearer-token file by default, compared in constant
// time), never from the client's say-so. Over HTTP the spec's endpoint rules hold: an
// `Origin` that is present and not allowed, or a `Host` that is not the server's own when it
// listens on loopback, gets 403.
import { createServer } from "node:http";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ChromaFs } from "./node.mjs";
import { callGate, callerOf, callRegistry, createMcpServer, endpointRefusal, isLoopback, sessionPool, DEFAULT_LIMITS } from "./mcp-server.mjs";

export {
  MAX_OUTPUT,
  DEFAULT_LIMITS,
  MIN_TOKEN_CHARS,
  createMcpServer,
  answerMcp,
  tokenAuthorizer,
  callGate,
  callRegistry,
  sessionPool,
  endpointRefusal,
} from "./mcp-server.mjs";

/** What a server's sessions connect with: the caller's options, network causes kept for the log. */
function serverSessions(connectOptions) {
  const options = { cacheBytes: 8 << 20, networkErrors: "log", ...connectOptions };
  return sessionPool((groups) => ChromaFs.connect({ ...options, groups }));
}

/**
 * Serves the tools over stdio, as desktop and command-line agents launch servers, until the
 * client closes stdin (then `onClose` is called).
 */
export async function serveStdio(connectOptions, { limits, onClose, ...options } = {}) {
  const pool = serverSessions(connectOptions);
  const groups = connectOptions.groups ?? [];
  const server = createMcpServer({ lease: () => pool.lease(groups) }, { ...options, limits, caller: "stdio" });
  const transport = new StdioServerTransport();
  // The client went away: calls in flight stop (the SDK aborts them), and so does the server.
  process.stdin.once("end", () => server.close());
  server.server.onclose = () => {
    pool.close();
    onClose?.();
  };
  await server.connect(transport);
  return server;
}

/** The Host values of a server listening on loopback at `port`. */
function loopbackHosts(port) {
  const names = ["127.0.0.1", "localhost", "[::1]"];
  return names.flatMap((n) => (port === 80 ? [n, `${n}:80`] : [`${n}:${port}`]));
}

/**
 * Serves the tools over streamable HTTP at `/mcp`. Each request is answered by a server for
 * the groups `authorize(req)` gives (`null`: public pages only, or 401 with `requireToken`).
 * `allowOrigins` lists the browser origins that may call it; `limits` bound each call (see
 * DEFAULT_LIMITS). Resolves with `{ url, close() }`.
 */
export async function serveHttp(
  connectOptions,
  { port = 0, host = "127.0.0.1", authorize = () => null, requireToken = false, allowOrigins = [], limits, ...options } = {},
) {
  const pool = serverSessions(connectOptions);
  const gate = callGate(limits?.callsInFlight ?? DEFAULT_LIMITS.callsInFlight);
  const registry = callRegistry();
  let rules = { allowOrigins };
  const http = createServer(async (req, res) => {
    const refuse = (status, message, headers = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
    };
    if (new URL(req.url, "http://localhost").pathname !== "/mcp") {
      res.writeHead(404).end("not found\n");
      return;
    }
    const refusal = endpointRefusal(req, rules);
    if (refusal) return refuse(403, refusal);
    let groups;
    try {
      groups = await authorize(req);
    } catch {
      groups = null;
    }
    if (groups == null && requireToken) return refuse(401, "a valid bearer token is required", { "www-authenticate": "Bearer" });
    try {
      const caller = await callerOf(req, req.socket.remoteAddress);
      const server = createMcpServer({ lease: () => pool.lease(groups ?? []) }, { ...options, limits, gate, caller, registry });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // Closing the server aborts the calls still running: the client went away.
      res.on("close", () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (e) {
      // The cause (an address, a status) is for the operator's log, not for the client.
      console.error("chromafs mcp:", e);
      if (!res.headersSent) refuse(502, "the docs are not reachable");
      else res.end();
    }
  });
  await new Promise((resolve) => http.listen(port, host, resolve));
  const { port: actual } = http.address();
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const own = [`http://${shownHost}:${actual}`];
  if (isLoopback(host)) {
    const hosts = loopbackHosts(actual);
    rules = { allowOrigins, ownOrigins: [...own, ...hosts.map((h) => `http://${h}`)], hosts };
  } else {
    rules = { allowOrigins, ownOrigins: own };
  }
  return {
    url: `http://${shownHost}:${actual}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.close(resolve);
        http.closeAllConnections?.();
        pool.close();
      }),
  };
}
