// chromafs/mcp in Node: the docs' MCP tools (server.mjs) served over stdio, as desktop and
// command-line agents launch servers, and over streamable HTTP at `/mcp`.
//
// Sessions are kept between calls, per group set (sessionPool): a call costs what a command
// costs, plus one small request that checks the docs did not change since its session opened
// (a re-ingest reaches every client at its next call). Their pages are shared through the
// process tier; each session keeps only a small cache of its own.
//
// Access: over stdio the groups are the server's (`groups`); over HTTP they come from the
// request, never from the client's say-so: from an OAuth access token the company's
// identity provider issued (`oauth`, see auth.mjs; the server then publishes its RFC 9728
// metadata and every 401 points at it), from a bearer-token file (compared in constant
// time), or from a host's `authorize(request)`. Over HTTP the spec's endpoint rules hold:
// an `Origin` that is present and not allowed, or a `Host` that is not the server's own
// when it listens on loopback, gets 403.
import { createServer } from "node:http";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ChromaFs } from "../node.mjs";
import { callGate, callerOf, callRegistry, createMcpServer, endpointRefusal, isLoopback, sessionPool, DEFAULT_LIMITS } from "./server.mjs";
import { admit, jwtAuthorizer, metadataPaths, protectedResourceMetadata } from "./auth.mjs";
import { httpUrl } from "./sources.mjs";

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
  jwtAuthorizer,
  protectedResourceMetadata,
  metadataUrl,
  bearerChallenge,
  admit,
  pageUrl,
  mountedSites,
  TokenRejected,
  TokenCheckUnavailable,
} from "./server.mjs";

/** What a server's sessions connect with: the caller's options, network causes kept for the log. */
function serverSessions(connectOptions) {
  const options = { cacheBytes: 8 << 20, networkErrors: "log", ...connectOptions };
  return sessionPool((groups) => (options.mounts ? ChromaFs.connectMounts({ ...options, groups }) : ChromaFs.connect({ ...options, groups })));
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

/** The endpoint's public URL: `publicUrl` (a bare origin gets `/mcp`), else where it listens. */
function publicEndpoint(publicUrl, listening) {
  if (publicUrl === undefined) return listening;
  const url = httpUrl(publicUrl, "publicUrl");
  return url.pathname === "/" ? `${url.origin}/mcp` : url.href;
}

/** Answers `res` with JSON (a JSON-RPC error when `message` is a string). */
function reply(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(typeof body === "string" ? { jsonrpc: "2.0", error: { code: -32000, message: body }, id: null } : body));
}

/**
 * How the endpoint tells who calls: `{ authorize, resource, metadata }`. With `oauth`
 * (`{ issuer, audience?, jwks?, groupsClaim?, keyCooldownMs? }`) it is an OAuth resource
 * server whose audience defaults to its public URL; else `authorize` decides.
 */
function accessOf({ oauth, authorize, resource }) {
  if (!oauth) return { authorize: authorize ?? (() => null), resource: null, metadata: null };
  if (authorize) throw new TypeError("serveHttp takes `oauth` or `authorize`, not both");
  const auth = jwtAuthorizer({ ...oauth, audience: oauth.audience ?? resource });
  const metadata = protectedResourceMetadata({ resource, issuer: oauth.issuer });
  return { authorize: auth, resource, metadata, paths: metadataPaths(resource), ready: auth.ready };
}

/**
 * Serves the tools over streamable HTTP at `/mcp`. Each request is answered by a server for
 * the groups its credentials give: with `oauth` (see accessOf), from its access token, and
 * `GET /.well-known/oauth-protected-resource` answers the RFC 9728 metadata; else from
 * `authorize(req)` (`null`: public pages only). A request without credentials gets 401
 * with `requireToken`, one whose credentials are not valid always does. `publicUrl` is the
 * endpoint's address behind a proxy; `allowOrigins` lists the browser origins that may call
 * it; `limits` bound each call (see DEFAULT_LIMITS). Resolves with `{ url, resource,
 * close() }` once the server listens (with `oauth`, once the issuer's keys are read).
 */
export async function serveHttp(connectOptions, options = {}) {
  const { port = 0, host = "127.0.0.1", authorize, oauth, publicUrl, requireToken = false, allowOrigins = [], limits, ...serverOptions } = options;
  if (publicUrl !== undefined) httpUrl(publicUrl, "publicUrl");
  const pool = serverSessions(connectOptions);
  const gate = callGate(limits?.callsInFlight ?? DEFAULT_LIMITS.callsInFlight);
  const registry = callRegistry();
  let rules = { allowOrigins };
  let access = null;
  const http = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, "http://localhost");
    if (access?.metadata && access.paths.includes(pathname)) {
      if (req.method !== "GET" && req.method !== "HEAD") return reply(res, 405, "use GET", { allow: "GET" });
      return reply(res, 200, access.metadata, { "access-control-allow-origin": "*", "cache-control": "max-age=3600" });
    }
    if (pathname !== "/mcp" || !access) {
      res.writeHead(404).end("not found\n");
      return;
    }
    const refusal = endpointRefusal(req, rules);
    if (refusal) return reply(res, 403, refusal);
    const admitted = await admit(req, { authorize: access.authorize, requireToken, resource: access.resource });
    if (admitted.status) {
      if (admitted.cause) console.error("chromafs mcp:", admitted.cause.message);
      return reply(res, admitted.status, admitted.message, admitted.headers);
    }
    try {
      const caller = await callerOf(req, req.socket.remoteAddress);
      const server = createMcpServer({ lease: () => pool.lease(admitted.groups) }, { ...serverOptions, limits, gate, caller, registry });
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
      if (!res.headersSent) reply(res, 502, "the docs are not reachable");
      else res.end();
    }
  });
  await new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, resolve);
  });
  const { port: actual } = http.address();
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${actual}/mcp`;
  // Behind a proxy, the public address is the server's own too.
  const front = publicUrl === undefined ? [] : [new URL(publicUrl)];
  const own = [`http://${shownHost}:${actual}`, ...front.map((u) => u.origin)];
  if (isLoopback(host)) {
    const hosts = [...loopbackHosts(actual), ...front.map((u) => u.host)];
    rules = { allowOrigins, ownOrigins: [...own, ...hosts.map((h) => `http://${h}`)], hosts };
  } else {
    rules = { allowOrigins, ownOrigins: own };
  }
  const close = () =>
    new Promise((resolve) => {
      http.close(resolve);
      http.closeAllConnections?.();
      pool.close();
    });
  try {
    const chosen = accessOf({ oauth, authorize, resource: publicEndpoint(publicUrl, url) });
    await chosen.ready?.();
    access = chosen;
  } catch (e) {
    await close();
    throw e;
  }
  return { url, resource: access.resource, close };
}
