// chromafs/mcp in Node: the docs' MCP tools (server.mjs) served over stdio, as desktop and
// command-line agents launch servers, and over streamable HTTP at `/mcp`; both in MCP
// 2026-07-28 and in the 2025 revisions, as each client speaks (eras.mjs).
//
// The work runs in worker threads of a pool (pool.mjs), so that a command computing without
// end, or growing without bound, is stopped at its deadline or its heap limit while every
// other caller goes on being answered, and so that every core answers: over HTTP a whole
// request goes to a worker, whose MCP server answers it (dispatch.mjs); over stdio, each tool
// call. Within a worker, sessions are kept between calls, per group set (sessionPool): a call
// costs what a command costs, plus one small request that checks the docs did not change
// since its session opened (a re-ingest reaches every client at its next call). Their pages
// are shared through the worker's process tier; each session keeps only a small cache of its
// own. `workers: 0` does the work in this thread instead, without that protection.
//
// Access: over stdio the groups are the server's (`groups`); over HTTP they come from the
// request, never from the client's say-so: from an OAuth access token the company's
// identity provider issued (`oauth`, see auth.mjs; the server then publishes its RFC 9728
// metadata and every 401 points at it), from a bearer-token file (compared in constant
// time), or from a host's `authorize(request)`; the per-caller limits count who that
// authenticated (identity.mjs). Over HTTP the endpoint rules hold (endpoint.mjs): an `Origin`
// that is present and not allowed, or a `Host` that is not the server's own when it listens
// on loopback, gets 403; a repeated `Host` gets 400; allowed browser origins get CORS.
import { createServer } from "node:http";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ChromaFs } from "../node.mjs";
import { createMcpServer } from "./server.mjs";
import { callGate, callRegistry, limitsOf } from "./limits.mjs";
import { sessionPool } from "./sessions.mjs";
import { runTool } from "./tools.mjs";
import { workerPool } from "./pool.mjs";
import { answerHere, dispatch } from "./dispatch.mjs";
import { eraTransport } from "./eras.mjs";
import { corsHeaders, isLoopback, preflight, requestRefusal } from "./endpoint.mjs";
import { admit } from "./identity.mjs";
import { jwtAuthorizer, metadataPaths, protectedResourceMetadata } from "./auth.mjs";
import { shellStore } from "./shells.mjs";
import { baseOf } from "./sources.mjs";
import { httpUrl } from "../dist/api.mjs";

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
  isLoopback,
  jwtAuthorizer,
  protectedResourceMetadata,
  metadataUrl,
  bearerChallenge,
  admit,
  pageUrl,
  mountedSites,
  TokenRejected,
  TokenCheckUnavailable,
  shellStore,
  SHELL_IDLE_MS,
} from "./server.mjs";

/**
 * Connect options for a server's sessions: the caller's, network causes kept for the log,
 * and a scratch directory, `/tmp` unless `scratch` says another or `null` (none).
 */
function sessionOptions({ scratch = "/tmp", ...connectOptions }) {
  return { cacheBytes: 8 << 20, networkErrors: "log", ...connectOptions, ...(scratch ? { scratch } : {}) };
}

/** The server's sessions in this thread, per group set (`workers: 0`). */
function localSessions(connectOptions) {
  const options = sessionOptions(connectOptions);
  return sessionPool((groups) => (options.mounts ? ChromaFs.connectMounts({ ...options, groups }) : ChromaFs.connect({ ...options, groups })));
}

/** A pool of `workers` worker threads (default: the cores, at least two), or null for 0. */
function poolOf(connectOptions, { workers, limits, server }) {
  if (workers !== undefined && (!Number.isSafeInteger(workers) || workers < 0)) throw new TypeError("workers must be a whole number (0: run calls in this thread)");
  if (workers === 0) return null;
  return workerPool({ connectOptions: sessionOptions(connectOptions), limits, server, size: workers });
}

/** What a server's workers build their MCP servers with. */
const serverSettings = ({ toolPrefix, docs, name, baseUrl }, connectOptions, shells) => ({
  toolPrefix,
  docs,
  name,
  baseUrl: baseUrl ?? null,
  scratch: sessionOptions(connectOptions).scratch ?? null,
  shellIdleMs: shells.idleMs,
});

/**
 * Where a server keeps its callers' shells between calls, for `shellIdleMs` (0: nowhere): in
 * the connect options' `sharedCache` when there is one (every process behind a balancer
 * finds them; keyed by the docs' address too), else in this process.
 */
function shellsOf({ shellIdleMs }, { sharedCache, url, collection, mounts, tenant, database } = {}) {
  const idle = shellIdleMs === undefined ? {} : { idleMs: shellIdleMs };
  const scope = JSON.stringify([url, tenant, database, collection, mounts ?? null]);
  return shellStore(sharedCache ? { ...idle, shared: sharedCache, scope } : idle);
}

/**
 * Serves the tools over stdio, as desktop and command-line agents launch servers, until the
 * client closes stdin (then `onClose` is called). Each call runs in a worker thread of a
 * pool (`workers`, 0 for this thread).
 */
export async function serveStdio(connectOptions, { limits, onClose, workers, shellIdleMs, ...options } = {}) {
  const lim = limitsOf(limits);
  const groups = connectOptions.groups ?? [];
  const shells = shellsOf({ shellIdleMs }, connectOptions);
  const settings = serverSettings(options, connectOptions, shells);
  const pool = poolOf(connectOptions, { workers, limits: lim, server: settings });
  const sessions = pool ? null : localSessions(connectOptions);
  const base = baseOf(options.baseUrl);
  const runner = pool
    ? async ({ tool, args, signal, shell }) => outcomeOf(await pool.run("call", { tool, args, groups, shell }, { signal }), lim)
    : ({ tool, args, signal, shell }) => runTool({ lease: () => sessions.lease(groups) }, tool, args, { limits: lim, base, signal, shell });
  // The one client of a stdio server keeps its shell between calls.
  const server = createMcpServer(null, { ...options, limits, caller: "stdio", runner, shells, scratch: settings.scratch });
  // Both revisions on the one process: a client may open with `initialize` or `server/discover`.
  const transport = eraTransport(new StdioServerTransport(), server);
  // The client went away: calls in flight stop (the SDK aborts them), and so does the server.
  process.stdin.once("end", () => server.close());
  server.server.onclose = () => {
    pool?.close();
    sessions?.close();
    onClose?.();
  };
  await server.connect(transport);
  return server;
}

/** A call's outcome from a pool's answer: a call that ended without its worker says why. */
function outcomeOf(answer, limits) {
  if (!answer.abandoned) return answer;
  const note = answer.abandoned === "memory" ? `[the call ran out of memory: a worker's heap holds ${limits.memoryMiB} MiB]` : undefined;
  return { result: { stdout: "", stderr: "bash: execution aborted\n", exitCode: 124 }, isError: true, failed: false, note };
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
 * it; `limits` bound each call (see DEFAULT_LIMITS); `workers` sizes the pool of worker
 * threads calls run in (0: this thread). Resolves with `{ url, resource, close() }` once
 * the server listens (with `oauth`, once the issuer's keys are read).
 */
export async function serveHttp(connectOptions, options = {}) {
  const { port = 0, host = "127.0.0.1", authorize, oauth, publicUrl, requireToken = false, allowOrigins = [], limits, workers, shellIdleMs, ...serverOptions } = options;
  if (publicUrl !== undefined) httpUrl(publicUrl, "publicUrl");
  const lim = limitsOf(limits);
  const shells = shellsOf({ shellIdleMs }, connectOptions);
  const settings = serverSettings(serverOptions, connectOptions, shells);
  const pool = poolOf(connectOptions, { workers, limits: lim, server: settings });
  const sessions = pool ? null : localSessions(connectOptions);
  const base = baseOf(serverOptions.baseUrl);
  const gate = callGate(lim.callsInFlight);
  const registry = callRegistry();
  let rules = { allowOrigins };
  let access = null;
  let endpoint = null;
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
    const refusal = requestRefusal(req, rules);
    if (refusal) return reply(res, refusal.status, refusal.message);
    const cors = corsHeaders(req, rules);
    if (req.method === "OPTIONS") {
      const { status, headers } = preflight(cors);
      res.writeHead(status, headers).end();
      return;
    }
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    // Stateless: no session to end, and no stream of the server's own to open.
    if (req.method !== "POST") return reply(res, 405, "this server keeps no session and streams nothing of its own: POST each message", { allow: "POST, OPTIONS" });
    const admitted = await admit(req, { authorize: access.authorize, requireToken, resource: access.resource, address: req.socket.remoteAddress });
    if (admitted.status) {
      if (admitted.cause) console.error("chromafs mcp:", admitted.cause.message);
      return reply(res, admitted.status, admitted.message, admitted.headers);
    }
    try {
      if (pool) return await dispatch(req, res, { pool, admitted, gate, registry, limits: lim, url: endpoint, shells });
      const { key: caller, anonymous } = admitted.caller;
      const runner = ({ tool, args, signal, shell }) => runTool({ lease: () => sessions.lease(admitted.groups) }, tool, args, { limits: lim, base, signal, shell });
      await answerHere(req, res, { ...serverOptions, limits, gate, caller, cancellable: !anonymous, registry, runner, shells, scratch: settings.scratch });
    } catch (e) {
      // The cause (an address, a status) is for the operator's log, not for the client.
      console.error("chromafs mcp:", e);
      if (!res.headersSent) reply(res, 502, "the docs are not reachable");
      else res.end();
    }
  });
  // A client that half-closes after its request still gets the answer (a worker's takes a moment).
  http.httpAllowHalfOpen = true;
  await new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, resolve);
  });
  const { port: actual } = http.address();
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${actual}/mcp`;
  endpoint = url;
  // Behind a proxy, the public address is the server's own too, with its own scheme only.
  const front = publicUrl === undefined ? [] : [new URL(publicUrl)];
  const own = [`http://${shownHost}:${actual}`, ...front.map((u) => u.origin)];
  if (isLoopback(host)) {
    const local = loopbackHosts(actual);
    rules = { allowOrigins, ownOrigins: [...own, ...local.map((h) => `http://${h}`)], hosts: [...local, ...front.map((u) => u.host)] };
  } else {
    rules = { allowOrigins, ownOrigins: own };
  }
  const close = async () => {
    await new Promise((resolve) => {
      http.close(resolve);
      http.closeAllConnections?.();
    });
    await pool?.close();
    sessions?.close();
  };
  try {
    const chosen = accessOf({ oauth, authorize, resource: publicEndpoint(publicUrl, url) });
    await chosen.ready?.();
    access = chosen;
  } catch (e) {
    await close();
    throw e;
  }
  return { url, resource: access.resource, close, stats: () => pool?.stats() ?? null, shells: () => shells.stats() };
}
