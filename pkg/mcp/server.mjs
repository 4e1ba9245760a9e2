// The docs' MCP tools, for any runtime: Node, Deno, Bun, Cloudflare Workers, edge functions.
//
// `createMcpServer` gives an MCP server (the official SDK's) with two tools over chromafs
// sessions: `bash`, one command line in a read-only shell over the docs, and `search`, the
// ranked search (tools.mjs). A caller the server knows (an authenticated identity, the
// client of a stdio server) keeps its shell between calls, as an agent's own terminal
// does: the directory it `cd`'d to and what it wrote to the scratch directory (`/tmp`),
// held in the host's `shells` store (shells.mjs); an anonymous caller starts afresh each
// call, in `/` with an empty `/tmp`.
//
// A server is exposed to agents, so what one call may spend is bounded (limits.mjs): its
// wall time (the call also ends when its client goes away), the Chroma requests it sends,
// just-bash's execution limits, the length of a command or a query, and the calls one
// caller has in flight. Where a call runs is the host's `runner`: by default in this thread,
// on the session given; Node's servers (node.mjs) run each call in a worker thread that can
// be stopped whatever the command computes (pool.mjs).
//
// Pages are resources too (resources.mjs): a template per mount, the caller's pages listed
// a page at a time, and a page read as `cat` reads it, on the same runner and within the
// same limits as the tools. The server says how to use its tools together (`instructions`)
// and declares only what it does: no list ever changes within a connection, and nothing is
// subscribed to.
//
// The tools are listed in a fixed order with every annotation (they read, change nothing,
// reach nothing but the docs), and `search` answers structured results under its
// `outputSchema`, each page with its public URL when the server has the site's base URL
// (sources.mjs), so that an agent can cite what it read.
//
// `answerMcp` answers one streamable-HTTP request with such a server, from a fetch `Request`
// to a `Response`, which is all an edge function needs; the spec's Origin and Host rule and
// CORS are in endpoint.mjs. It answers MCP 2026-07-28 (no handshake: `server/discover`, the
// version in each request's `_meta`) and the 2025 revisions alike (stateless.mjs, eras.mjs). Who calls: `jwtAuthorizer` checks OAuth access tokens (auth.mjs)
// and `tokenAuthorizer` maps bearer tokens to groups (tokens.mjs), both with WebCrypto, so
// they run where `node:crypto` does not; `admit` turns either into the groups and the
// caller's identity, or the 401 to answer. Node's stdio and HTTP servers are in node.mjs.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CancelledNotificationSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { callGate, callStop, limitsOf, outOfTime, shown } from "./limits.mjs";
import { runTool, toolDefinitions } from "./tools.mjs";
import { baseOf } from "./sources.mjs";
import { corsHeaders, preflight, refusedResponse, requestRefusal } from "./endpoint.mjs";
import { answerAlone } from "./stateless.mjs";

export { MAX_OUTPUT, DEFAULT_LIMITS, callGate, callRegistry } from "./limits.mjs";
export { sessionPool } from "./sessions.mjs";
export { jwtAuthorizer, protectedResourceMetadata, metadataUrl, bearerChallenge, TokenRejected, TokenCheckUnavailable } from "./auth.mjs";
export { admit } from "./endpoint.mjs";
export { tokenAuthorizer, MIN_TOKEN_CHARS } from "./tokens.mjs";
export { endpointRefusal, isLoopback, refusedResponse } from "./endpoint.mjs";
export { pageUrl, mountedSites } from "./sources.mjs";
export { shellStore, SHELL_IDLE_MS } from "./shells.mjs";

/** The MCP error code of a resource that does not exist (the specification's). */
const RESOURCE_NOT_FOUND = -32002;

/** What the server tells a client about its tools: how to use them together. */
function instructionsOf({ docs = "the documentation", toolPrefix = "", versions = null } = {}) {
  const bash = `${toolPrefix}bash`;
  const search = `${toolPrefix}search`;
  return [
    `This server reads ${docs}: a read-only tree where each page is a file and each section a directory.`,
    `When you do not know the exact words, call ${search} with a question: it ranks the pages that answer it, each as PATH:START-END.`,
    `Then read with ${bash} (sed -n 'START,ENDp' PATH, cat, head), list sections with ls / or tree -L 2 /, and find every occurrence of a known string with grep -rn or rg in ${bash}.`,
    ...versionsLine(versions, search),
    "Each page is also a resource (chromafs://…) that can be read or attached whole. Pages you may not see do not exist here.",
  ].join("\n");
}

/** What the instructions say of the docs' versions, when they have any. */
function versionsLine(versions, search) {
  if (!versions?.names?.length) return [];
  if (versions.scoped) return [`These are version ${versions.default} of the docs, with the pages of no version; other versions are not here.`];
  return [
    `The docs have versions (${versions.names.join(", ")}; the newest is ${versions.default}): pass version to ${search} to keep one version's pages and those of no version, and say which version an answer is for. Each result names its version.`,
  ];
}

/** The versions a connected session sees, as the tools offer them (exactly its own), or null. */
function versionsOf(session) {
  const seen = typeof session?.versions === "function" ? session.versions() : null;
  return seen?.versions.length ? { names: seen.versions, default: seen.default, scoped: seen.scoped, exact: true } : null;
}

/** A JSON-RPC error a request handler throws: the SDK answers its code, message and data as they are. */
const protocolError = (code, message, data) => Object.assign(new Error(message), { code }, data === undefined ? {} : { data });

/** A tool result that is an error. */
const failure = (text) => ({ content: [{ type: "text", text }], isError: true });

// One JSON Schema validator for every server: each HTTP request is answered by a server of
// its own, and the SDK would otherwise compile a validator for each.
let validator = null;

/**
 * An MCP server with the docs' tools. `session` is a connected ChromaFs, a function that
 * resolves to one (called for each call, so that a session that cannot connect is a tool
 * error, not a protocol error), or a pool's lease (`{ lease() }`, see `sessionPool`).
 * Options: `toolPrefix` names the tools (`docs_` gives `docs_bash`, `docs_search`); `docs`
 * says what the docs are, for their descriptions; `limits` (see DEFAULT_LIMITS); `gate` and
 * `caller` count the calls in flight per caller across servers (a server per request), and
 * `registry` lets a cancellation reach a call another server runs (see callRegistry) unless
 * `cancellable` is false (an anonymous caller, whom nothing tells apart from others at its
 * address); `runner({ tool, args, signal, shell, deadline })` runs a call elsewhere than on
 * `session` in this thread, resolving with the call's outcome (see tools.mjs). `shells`
 * keeps each known caller's shell between its calls (see shellStore); `scratch` names the
 * sessions' scratch directory (their `scratch` option) for the bash tool's description;
 * `signal` aborting stops every call of the server (the request's client went away); a
 * server kept from one request to the next is given `request` instead, whose `signal` is
 * the request's it answers now.
 *
 * Each call's deadline is the server's alone: `limits.callTimeoutMs` from when the call is
 * admitted, when its timer stops it; the runner gets the deadline (`Date.now()`'s clock)
 * for the call's request budget, and a pool's grace for a worker that does not stop
 * starts from the stop (pool.mjs).
 */
export function createMcpServer(session, options = {}) {
  const { toolPrefix = "", docs = "the documentation", name = "chromafs", limits, gate, caller = "default", cancellable = true, registry, baseUrl, runner } = options;
  const { shells = null, scratch = null } = options;
  // A server over one session (an edge runtime's, for one caller) offers that session's versions.
  const versions = options.versions === undefined ? versionsOf(session) : options.versions;
  const request = options.request ?? { signal: options.signal ?? null };
  const lim = limitsOf(limits);
  const base = baseOf(baseUrl);
  const run = runner ?? (({ tool, args, signal, shell, deadline }) => runTool(session, tool, args, { limits: lim, base, signal, shell, deadline }));
  // An anonymous caller is nobody in particular: nothing is kept for it.
  const keep = shells && cancellable ? shells : null;
  const calls = gate ?? callGate(lim.callsInFlight);
  validator ??= new AjvJsonSchemaValidator();
  const server = new McpServer({ name, version: "0.1.0" }, { jsonSchemaValidator: validator, instructions: instructionsOf({ docs, toolPrefix, versions }) });
  const reachable = registry && cancellable;
  if (reachable) {
    server.server.setNotificationHandler(CancelledNotificationSchema, ({ params }) => registry.cancel(caller, params.requestId));
  }

  /**
   * A call's clock, the one owner of its deadline: `signal` aborts at the deadline, when the
   * SDK aborts the request (`extra.signal`) or the server's `signal` does (the client went
   * away), or at `stop(reason)`; `end()` stops the clock.
   */
  function clock(extra) {
    const { signal, stop, why } = callStop();
    const deadline = Date.now() + lim.callTimeoutMs;
    const timer = setTimeout(() => stop(outOfTime(lim.callTimeoutMs)), lim.callTimeoutMs);
    const left = () => stop("the client went away");
    const sources = [extra?.signal, request.signal].filter(Boolean);
    for (const s of sources) {
      if (s.aborted) left();
      else s.addEventListener("abort", left, { once: true });
    }
    const end = () => {
      clearTimeout(timer);
      for (const s of sources) s.removeEventListener("abort", left);
    };
    return { signal, stop, why, deadline, end };
  }

  /** Runs one call within its limits. */
  async function call(tool, args, extra) {
    const leave = calls.enter(caller, extra?.requestId);
    if (!leave) return failure(`${tool}: ${calls.max} calls are already running for this client: wait for one to finish`);
    const { signal, stop, why, deadline, end } = clock(extra);
    const unregister = reachable ? registry.add(caller, extra?.requestId, () => stop("the client went away")) : null;
    try {
      const shell = keep && tool === "bash" ? await keep.get(caller) : null;
      const { result, isError, structured, failed, note, shell: left } = await run({ tool, args, signal, shell, deadline });
      if (keep && left !== undefined) await keep.put(caller, left);
      const stopped = why();
      // A read that failed (Chroma down, a budget spent) is a tool error, not an answer.
      const error = isError || failed || stopped !== null || Boolean(note);
      const notes = [note, stopped && `[${stopped}]`].filter(Boolean).join("\n");
      const answer = { content: [{ type: "text", text: shown(result, notes) }], isError: error };
      if (structured && !error) answer.structuredContent = structured;
      return answer;
    } catch (e) {
      return failure(`${tool}: ${e?.message ?? e}`);
    } finally {
      end();
      unregister?.();
      leave();
    }
  }

  const keptMinutes = keep?.idleMs ? Math.max(1, Math.round(keep.idleMs / 60_000)) : null;
  for (const [tool, named, definition] of toolDefinitions({ toolPrefix, docs, limits: lim, hasBase: Boolean(base), scratch, keptMinutes, versions })) {
    server.registerTool(named, definition, (args, extra) => call(tool, args, extra));
  }
  // The SDK declares that the tool list may change; on this server it never does.
  server.server.registerCapabilities({ tools: { listChanged: undefined }, resources: {} });

  /** Runs one resource operation within the call limits: its result, or the protocol error. */
  async function operate(op, args, extra) {
    const leave = calls.enter(caller, extra?.requestId);
    if (!leave) throw protocolError(ErrorCode.InternalError, `${calls.max} calls are already running for this client: wait for one to finish`);
    const { signal, why, deadline, end } = clock(extra);
    try {
      const outcome = await run({ tool: op, args, signal, shell: null, deadline }).catch((e) => ({ error: e?.message ?? String(e) }));
      if (outcome.missing) throw protocolError(RESOURCE_NOT_FOUND, "Resource not found", { uri: args.uri });
      if (outcome.invalid) throw protocolError(ErrorCode.InvalidParams, outcome.invalid);
      const stopped = why();
      if (outcome.error || outcome.failed || stopped || !outcome.structured) {
        throw protocolError(ErrorCode.InternalError, outcome.error ?? stopped ?? outcome.note ?? "a read failed: the docs are not reachable");
      }
      return outcome.structured;
    } finally {
      end();
      leave();
    }
  }
  server.server.setRequestHandler(ListResourceTemplatesRequestSchema, (_request, extra) => operate("resources/templates", { docs }, extra));
  server.server.setRequestHandler(ListResourcesRequestSchema, ({ params }, extra) => operate("resources/list", { cursor: params?.cursor }, extra));
  server.server.setRequestHandler(ReadResourceRequestSchema, ({ params }, extra) => operate("resources/read", { uri: params.uri }, extra));
  return server;
}

/**
 * Answers one streamable-HTTP MCP request (JSON responses, no MCP session: each request
 * stands alone) with `server`, which is closed once the answer is written. A request whose
 * `Origin` is present and neither the request's own origin nor in `allowOrigins` gets 403,
 * as does one that repeats its `Host`; an allowed browser origin gets CORS headers, and its
 * preflight (`OPTIONS`) an answer.
 */
export async function answerMcp(request, server, { allowOrigins = [] } = {}) {
  const rules = { allowOrigins, ownOrigins: [new URL(request.url).origin] };
  const refusal = requestRefusal(request, rules);
  if (refusal) {
    await server.close();
    return refusedResponse(refusal.status, refusal.message);
  }
  const cors = corsHeaders(request, rules);
  if (request.method === "OPTIONS") {
    await server.close();
    return new Response(null, preflight(cors));
  }
  return answerAlone(server, request, (response) => {
    for (const [k, v] of Object.entries(cors)) response.headers.set(k, v);
    return response;
  });
}
