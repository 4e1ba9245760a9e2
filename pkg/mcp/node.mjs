// chromafs/mcp in Node: the docs' MCP tools (server.mjs) served over stdio, as desktop and
// command-line agents launch servers, and over streamable HTTP at `/mcp`; both in MCP
// 2026-07-28 and in the 2025 revisions, as each client speaks (eras.mjs).
//
// The work runs in worker threads of a pool (pool.mjs), so that a command computing without
// end, or growing without bound, is stopped at its deadline or its heap limit while every
// other caller goes on being answered, and so that every core answers. This thread speaks
// MCP (over stdio, one server for the process; over HTTP, one request at a time on a server
// kept per caller and group set, see answerRequest), admits and counts each call and owns its deadline; each call that reads
// the docs goes to a worker, over stdio and HTTP alike: what a command computes never runs
// in this thread. Within a worker, sessions are kept
// between calls, per group set (sessionPool): a call
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
// authenticated (endpoint.mjs). Over HTTP the endpoint rules hold (endpoint.mjs): an `Origin`
// that is present and not allowed, or a `Host` that is not the server's own when it listens
// on loopback, gets 403; a repeated `Host` gets 400; allowed browser origins get CORS.
//
// The HTTP server also answers `GET /llms.txt` and `/llms-full.txt` (also under
// `/.well-known/`, see llms.mjs) for the caller a request's credentials name, by the same
// rules and on a session of the same groups as its MCP calls: anonymous, the public pages;
// `?version=V`, one version's.
import { createServer } from "node:http";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ChromaFs } from "../node.mjs";
import { createMcpServer } from "./server.mjs";
import { callGate, callRegistry, callStop, limitsOf, outOfTime, shown } from "./limits.mjs";
import { callerVersions, scopedConnect, sessionPool } from "./sessions.mjs";
import { runTool } from "./tools.mjs";
import { workerPool } from "./pool.mjs";
import { answerAlone } from "./stateless.mjs";
import { eraTransport } from "./eras.mjs";
import { admit, corsHeaders, isLoopback, preflight, requestRefusal } from "./endpoint.mjs";
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
 * and a scratch directory, `/tmp` unless `scratch` says another or `null` (none). Each
 * session's own page cache is small (the pool keeps many; pages are shared through the
 * process tier).
 */
function sessionOptions({ scratch = "/tmp", ...connectOptions }) {
  return { cacheBytes: 4 << 20, networkErrors: "log", ...connectOptions, ...(scratch ? { scratch } : {}) };
}

/** The server's sessions in this thread, per group set (`workers: 0`). */
function localSessions(connectOptions) {
  return sessionPool(scopedConnect(ChromaFs, sessionOptions(connectOptions)));
}

/** A pool of `workers` worker threads (default: the cores, at least two), or null for 0. */
function poolOf(connectOptions, { workers, limits, server }) {
  if (workers !== undefined && (!Number.isSafeInteger(workers) || workers < 0)) throw new TypeError("workers must be a whole number (0: run calls in this thread)");
  if (workers === 0) return null;
  return workerPool({ connectOptions: sessionOptions(connectOptions), limits, server, size: workers });
}

/**
 * What runs a server's calls (createMcpServer's `runner`) for a caller of `groups`: a worker
 * of `pool`, else this thread's `sessions`.
 */
function runnerOf({ pool, sessions, limits, base }, groups) {
  if (pool) return async ({ tool, args, signal, shell, deadline }) => outcomeOf(await pool.run({ tool, args, groups, shell }, { signal, deadline }), limits);
  return ({ tool, args, signal, shell, deadline }) => runTool({ lease: (version) => sessions.lease(groups, version) }, tool, args, { limits, base, signal, shell, deadline });
}

/**
 * The versions each group set sees, as its callers' tools offer them (callerVersions),
 * read through `work` (a worker's session or this thread's) with the server's own `versions`
 * at most once every `maxAgeMs` a group set, for at most `max` group sets: a re-ingest
 * reaches the list within that time, as its pages reach every call at once.
 */
function versionsSeen(work, own, { maxAgeMs = 30_000, max = 256 } = {}) {
  const memo = new Map(); // JSON of the groups → { at, versions: Promise }
  const read = async (groups) => {
    const outcome = await runnerOf(work, groups)({ tool: "versions", args: {}, signal: null, shell: null, deadline: Date.now() + work.limits.callTimeoutMs });
    if (outcome.failed || outcome.isError) throw new Error("the versions could not be read");
    return outcome.structured;
  };
  return {
    of(groups) {
      if (!own?.names?.length || own.scoped || own.exact) return Promise.resolve(own);
      const key = JSON.stringify(groups);
      const kept = memo.get(key);
      if (kept && Date.now() - kept.at < maxAgeMs) return kept.versions;
      let reached = true;
      const versions = callerVersions(own, () =>
        read(groups).catch((e) => {
          reached = false;
          throw e;
        }),
      );
      memo.delete(key);
      memo.set(key, { at: Date.now(), versions });
      // Out of reach: asked again at the next request.
      versions.then(() => {
        if (!reached && memo.get(key)?.versions === versions) memo.delete(key);
      });
      while (memo.size > max) memo.delete(memo.keys().next().value);
      return versions;
    },
  };
}

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
  const pool = poolOf(connectOptions, { workers, limits: lim, server: { baseUrl: options.baseUrl ?? null } });
  const sessions = pool ? null : localSessions(connectOptions);
  const runner = runnerOf({ pool, sessions, limits: lim, base: baseOf(options.baseUrl) }, groups);
  // The one client of a stdio server keeps its shell between calls.
  const server = createMcpServer(null, { ...options, limits, caller: "stdio", runner, shells, scratch: scratchOf(connectOptions) });
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

/**
 * A call's outcome from a pool's answer: a call that ended without its worker (stopped, or
 * out of memory) is a command that was aborted, as just-bash prints one, saying why.
 */
function outcomeOf(answer, limits) {
  if (!answer.abandoned) return answer;
  const note = answer.abandoned === "memory" ? `[the call ran out of memory: a worker's heap holds ${limits.memoryMiB} MiB]` : undefined;
  return { result: { stdout: "", stderr: "bash: execution aborted\n", exitCode: 124 }, isError: true, failed: false, note };
}

/** The sessions' scratch directory, for the bash tool's description (null: none). */
const scratchOf = (connectOptions) => sessionOptions(connectOptions).scratch ?? null;


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

/** The largest request body read (the SDK's own limit). */
const MAX_BODY_BYTES = 4 << 20;
/** The request headers the SDK reads, and those 2026-07-28 requests mirror their bodies in. */
const FORWARDED = ["accept", "content-type", "mcp-protocol-version", "mcp-session-id", "last-event-id", "mcp-method", "mcp-name"];

/** The body of `req` (its bytes), or null past MAX_BODY_BYTES (reading stops there). */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        resolve(null);
      } else parts.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(parts)));
    req.on("error", reject);
  });
}

/**
 * A request body as the SDK reads it: UTF-8 (a byte-order mark dropped, as JSON's parsers
 * drop it), parsed; null when it is not JSON in UTF-8.
 */
function parseBody(bytes) {
  try {
    return { message: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
  } catch {
    return null;
  }
}

/**
 * The parsed body of a POST to the endpoint; undefined once `res` has been answered for a
 * body too large or not JSON (the SDK's own answer to one: nothing in it runs).
 */
async function readMessage(req, res) {
  const body = await readBody(req);
  if (body === null) {
    reply(res, 413, `the request body is larger than ${MAX_BODY_BYTES} bytes`, { connection: "close" });
    return undefined;
  }
  const parsed = parseBody(body);
  if (!parsed) reply(res, 400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null });
  return parsed?.message;
}

/**
 * The MCP servers an endpoint answers requests with, kept between requests per caller and
 * group set (a server answers one request at a time, and making one costs more than the
 * protocol work of a call): `take(key)` gives a waiting one or null, `keep(key, entry)`
 * puts one back once its request is answered. At most `perKey` wait per key and `max` in
 * all, the least recently used dropped first.
 */
function serverCache({ perKey = 4, max = 256 } = {}) {
  const idle = new Map(); // key → entries, most recently kept last
  let count = 0;
  return {
    take(key) {
      const list = idle.get(key);
      const entry = list?.pop() ?? null;
      if (list && !list.length) idle.delete(key);
      if (entry) count -= 1;
      return entry;
    },
    keep(key, entry) {
      // A server still connected (its request ended in an error) is not answered again.
      if (entry.server.server.transport) return;
      const list = idle.get(key) ?? [];
      if (list.length >= perKey) return;
      idle.delete(key);
      idle.set(key, [...list, entry]);
      count += 1;
      while (count > max) {
        const [oldest, rest] = idle.entries().next().value;
        rest.shift();
        count -= 1;
        if (!rest.length) idle.delete(oldest);
      }
    },
  };
}

/**
 * Answers one POST to the endpoint at `url` with an MCP server of `servers` kept for `key`,
 * else one `make(request)` makes (see createMcpServer: the caller's gate, registry, shells
 * and runner; `request` holds the signal of the request it answers), once `ready()` (when
 * given: the pool's) resolves; a request it rejects gets 503, its cause in the log. A client
 * that goes away stops the request's calls.
 */
async function answerRequest(req, res, { servers, key, make }, url, ready) {
  const message = await readMessage(req, res);
  if (message === undefined) return;
  const cannot = await ready?.().then(
    () => null,
    (e) => e,
  );
  if (cannot) {
    console.error("chromafs mcp:", cannot.message);
    return reply(res, 503, "the server cannot answer: its worker threads could not start (the cause is in the server's log)");
  }
  const gone = new AbortController();
  const left = () => !res.writableEnded && gone.abort();
  res.on("close", left);
  const entry = servers.take(key) ?? make({ signal: null });
  entry.request.signal = gone.signal;
  try {
    const { server } = entry;
    const headers = FORWARDED.flatMap((h) => (req.headers[h] === undefined ? [] : [[h, String(req.headers[h])]]));
    const request = new Request(url, { method: "POST", headers, signal: gone.signal });
    const answer = await answerAlone(server, request, async (r) => ({ status: r.status, headers: r.headers, body: await r.text() }), message);
    if (res.destroyed) return;
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(answer.body);
  } finally {
    res.off("close", left);
    entry.request.signal = null;
    servers.keep(key, entry);
  }
}

/** The llms.txt files the HTTP server answers, by path: the operation that makes each (llms.mjs). */
const LLMS_FILES = new Map([
  ["/llms.txt", "llms.txt"],
  ["/.well-known/llms.txt", "llms.txt"],
  ["/llms-full.txt", "llms-full.txt"],
  ["/.well-known/llms-full.txt", "llms-full.txt"],
]);

/** Answers `res` with plain text. */
function replyText(res, status, text, headers = {}) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  res.end(text);
}

/**
 * The endpoint's rules before a request is read, for `/mcp` and the llms.txt files alike:
 * a refused Host or Origin answered with `refuse(status, message)`, a CORS preflight
 * answered, CORS headers set on the rest. True when the request is answered.
 */
function answeredByRules(req, res, rules, refuse) {
  const refusal = requestRefusal(req, rules);
  if (refusal) {
    refuse(refusal.status, refusal.message);
    return true;
  }
  const cors = corsHeaders(req, rules);
  if (req.method === "OPTIONS") {
    const { status, headers } = preflight(cors);
    res.writeHead(status, headers).end();
    return true;
  }
  for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
  return false;
}

/**
 * Answers a request for llms.txt or llms-full.txt (`op`) with the file of the pages its
 * caller may read: the endpoint's rules, the caller admitted as an MCP call's is (its
 * credentials' groups; none, the public pages), counted among its calls in flight, and
 * made as one call within the call limits, in a worker of the pool. A failure answers 502
 * with no cause (the operator's log has it); a call out of time, 503.
 */
async function answerLlms(req, res, op, { access, rules, requireToken, work, limits, gate, llms }) {
  if (answeredByRules(req, res, rules, (status, message) => replyText(res, status, `${message}\n`))) return;
  if (req.method !== "GET" && req.method !== "HEAD") return replyText(res, 405, "use GET\n", { allow: "GET, HEAD, OPTIONS" });
  const admitted = await admit(req, { authorize: access.authorize, requireToken, resource: access.resource, address: req.socket.remoteAddress });
  if (admitted.status) {
    if (admitted.cause) console.error("chromafs mcp:", admitted.cause.message);
    return replyText(res, admitted.status, `${admitted.message}\n`, admitted.headers);
  }
  const leave = gate.enter(admitted.caller.key);
  if (!leave) return replyText(res, 429, `${gate.max} calls are already running for this client: wait for one to finish\n`, { "retry-after": "5" });
  const { signal, stop, why } = callStop();
  const timer = setTimeout(() => stop(outOfTime(limits.callTimeoutMs)), limits.callTimeoutMs);
  const left = () => !res.writableFinished && stop("the client went away");
  res.once("close", left);
  try {
    // `?version=V`: that version's files (its pages and those of no version).
    const version = new URL(req.url, "http://localhost").searchParams.get("version");
    const args = { docs: llms.docs, maxChars: llms.maxChars, maxBytes: llms.maxBytes, ...(version === null ? {} : { version }) };
    const deadline = Date.now() + limits.callTimeoutMs;
    const outcome = await runnerOf(work, admitted.groups)({ tool: op, args, signal, shell: null, deadline });
    const stopped = why();
    if (stopped) return res.headersSent ? res.end() : replyText(res, 503, `${stopped}\n`, { "retry-after": "30" });
    if (outcome.failed || typeof outcome.structured?.text !== "string") {
      if (outcome.note || outcome.isError) console.error(`chromafs mcp: ${op}:`, outcome.note ?? `the call ended without an answer (${shown(outcome.result ?? {}).trim()})`);
      return replyText(res, 502, "the docs are not reachable\n");
    }
    const body = Buffer.from(outcome.structured.text, "utf8");
    // What a caller may read depends on its credentials: no shared cache keeps one caller's answer for another.
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-length": body.length, "cache-control": "private, no-cache", vary: "Authorization" });
    res.end(req.method === "HEAD" ? undefined : body);
  } catch (e) {
    // A version the caller sees no page of: the versions it does see, nothing more.
    const unknown = /version "[^"\n]*" does not exist[^\n]*/.exec(e?.message ?? "");
    if (unknown && !res.headersSent) return replyText(res, 404, `${unknown[0]}\n`);
    // The cause (an address, a status) is for the operator's log, not for the caller.
    console.error(`chromafs mcp: ${op}:`, e);
    if (!res.headersSent) replyText(res, 502, "the docs are not reachable\n");
    else res.end();
  } finally {
    clearTimeout(timer);
    res.off("close", left);
    leave();
  }
}

/**
 * Serves the tools over streamable HTTP at `/mcp`. Each request is answered by a server for
 * the groups its credentials give: with `oauth` (see accessOf), from its access token, and
 * `GET /.well-known/oauth-protected-resource` answers the RFC 9728 metadata; else from
 * `authorize(req)` (`null`: public pages only). A request without credentials gets 401
 * with `requireToken`, one whose credentials are not valid always does. `publicUrl` is the
 * endpoint's address behind a proxy; `allowOrigins` lists the browser origins that may call
 * it; `limits` bound each call (see DEFAULT_LIMITS); `workers` sizes the pool of worker
 * threads calls run in (0: this thread). `GET /llms.txt` and `/llms-full.txt` answer the
 * caller's pages (see answerLlms); `llms: { maxChars, maxBytes }` caps them (default
 * LLMS_MAX_CHARS and LLMS_FULL_MAX_BYTES, llms.mjs). Resolves with `{ url, resource,
 * close() }` once the server listens (with `oauth`, once the issuer's keys are read).
 */
export async function serveHttp(connectOptions, options = {}) {
  const { port = 0, host = "127.0.0.1", authorize, oauth, publicUrl, requireToken = false, allowOrigins = [], limits, workers, shellIdleMs, llms = {}, ...serverOptions } = options;
  if (publicUrl !== undefined) httpUrl(publicUrl, "publicUrl");
  const lim = limitsOf(limits);
  const shells = shellsOf({ shellIdleMs }, connectOptions);
  const pool = poolOf(connectOptions, { workers, limits: lim, server: { baseUrl: serverOptions.baseUrl ?? null } });
  const sessions = pool ? null : localSessions(connectOptions);
  const work = { pool, sessions, limits: lim, base: baseOf(serverOptions.baseUrl) };
  const scratch = scratchOf(connectOptions);
  const gate = callGate(lim.callsInFlight);
  const registry = callRegistry();
  const servers = serverCache();
  const seen = versionsSeen(work, serverOptions.versions);
  let rules = { allowOrigins };
  let access = null;
  let endpoint = null;
  const http = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, "http://localhost");
    if (access?.metadata && access.paths.includes(pathname)) {
      if (req.method !== "GET" && req.method !== "HEAD") return reply(res, 405, "use GET", { allow: "GET" });
      return reply(res, 200, access.metadata, { "access-control-allow-origin": "*", "cache-control": "max-age=3600" });
    }
    if (LLMS_FILES.has(pathname) && access) {
      return answerLlms(req, res, LLMS_FILES.get(pathname), { access, rules, requireToken, work, limits: lim, gate, llms: { docs: serverOptions.docs, ...llms } });
    }
    if (pathname !== "/mcp" || !access) {
      res.writeHead(404).end("not found\n");
      return;
    }
    if (answeredByRules(req, res, rules, (status, message) => reply(res, status, message))) return;
    // Stateless: no session to end, and no stream of the server's own to open.
    if (req.method !== "POST") return reply(res, 405, "this server keeps no session and streams nothing of its own: POST each message", { allow: "POST, OPTIONS" });
    const admitted = await admit(req, { authorize: access.authorize, requireToken, resource: access.resource, address: req.socket.remoteAddress });
    if (admitted.status) {
      if (admitted.cause) console.error("chromafs mcp:", admitted.cause.message);
      return reply(res, admitted.status, admitted.message, admitted.headers);
    }
    try {
      const { key: caller, anonymous } = admitted.caller;
      // The versions this caller's groups see, as its tools offer them (a server is kept per list).
      const versions = await seen.of(admitted.groups);
      const options = { ...serverOptions, versions, limits, gate, caller, cancellable: !anonymous, registry, shells, scratch };
      const make = (request) => ({ server: createMcpServer(null, { ...options, runner: runnerOf(work, admitted.groups), request }), request });
      await answerRequest(req, res, { servers, key: JSON.stringify([caller, admitted.groups, versions?.names ?? null]), make }, endpoint, pool && (() => pool.ready()));
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
