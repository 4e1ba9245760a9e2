// The docs' MCP tools, for any runtime: Node, Deno, Bun, Cloudflare Workers, edge functions.
//
// `createMcpServer` gives an MCP server (the official SDK's) with two tools over chromafs
// sessions: `bash`, one command line in a read-only shell over the docs, and `search`, the
// ranked search. Calls are stateless, as on Mintlify's docs servers: every call starts in `/`
// with nothing left over from the last (an agent's tool calls may come from several
// conversations at once, and a `cd` that outlived its call would surprise the next).
//
// A server is exposed to agents, so what one call may spend is bounded (`limits`): its wall
// time (the call ends when its client goes away, too), the Chroma requests it sends,
// just-bash's execution limits (the "hardened" profile: output, string length, loops), the
// length of a command or a query, and the calls one caller has in flight. And each call sees
// the docs as they are: a session kept between calls is checked against the collection's
// tree first, and replaced when a re-ingest changed it.
//
// The tools are listed in a fixed order with every annotation (they read, change nothing,
// reach nothing but the docs), and `search` answers structured results under its
// `outputSchema`, each page with its public URL when the server has the site's base URL
// (sources.mjs), so that an agent can cite what it read.
//
// `answerMcp` answers one streamable-HTTP request with such a server, from a fetch `Request`
// to a `Response`, which is all an edge function needs; `endpointRefusal` is the spec's
// Origin and Host rule. Who calls: `jwtAuthorizer` checks OAuth access tokens (auth.mjs) and
// `tokenAuthorizer` maps bearer tokens to groups, both with WebCrypto, so they run where
// `node:crypto` does not; `admit` turns either into the groups or the 401 to answer. Node's
// stdio and HTTP servers are in node.mjs.
import { Bash } from "just-bash";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CancelledNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { safeExec, toolDescription } from "../dist/api.mjs";
import { baseUrlOf, resultsText, searchResults, withPageUrls } from "./sources.mjs";

export { jwtAuthorizer, protectedResourceMetadata, metadataUrl, bearerChallenge, admit, TokenRejected, TokenCheckUnavailable } from "./auth.mjs";
export { pageUrl, mountedSites } from "./sources.mjs";

/** The most characters a tool result holds (as bash-tool and Mintlify's docs servers cap it). */
export const MAX_OUTPUT = 30_000;

/** What one call may spend, unless the operator says otherwise. */
export const DEFAULT_LIMITS = Object.freeze({
  /** Wall time of one call; the call also ends when its client goes away. */
  callTimeoutMs: 30_000,
  /** Chroma requests one call may send. */
  maxRequests: 200,
  /** Calls one caller may have in flight; the next is refused until one ends. */
  callsInFlight: 4,
  /** Characters of a `bash` command line, and of a `search` query. */
  maxCommandChars: 16_384,
  maxQueryChars: 1_000,
  /** just-bash's limits, over its "hardened" profile (see just-bash's ExecutionLimits). */
  executionLimits: Object.freeze({}),
});

function limitsOf(limits = {}) {
  const out = { ...DEFAULT_LIMITS, ...limits };
  for (const key of ["callTimeoutMs", "maxRequests", "callsInFlight", "maxCommandChars", "maxQueryChars"]) {
    if (!Number.isSafeInteger(out[key]) || out[key] < 1) throw new TypeError(`limits.${key} must be a positive whole number`);
  }
  return out;
}

/** The output and, when the command failed, its exit code: the code is never cut off. */
function shown({ stdout, stderr, exitCode }, note) {
  const join = (a, b) => (a && b ? a + (a.endsWith("\n") ? "" : "\n") + b : a || b);
  let text = join(stdout, stderr);
  if (text.length > MAX_OUTPUT) {
    text =
      text.slice(0, MAX_OUTPUT) +
      `\n[output cut at ${MAX_OUTPUT.toLocaleString("en")} characters: narrow the command (grep -l, head -n 50, a smaller path, sed -n 'START,ENDp')]`;
  }
  text = join(text, note ?? "");
  if (exitCode !== 0) text = join(text, `[exit code ${exitCode}]`);
  return text || "(no output)";
}

/**
 * Calls in flight per caller, for `createMcpServer`'s `gate`: `enter(caller)` gives a
 * function that ends the call, or `null` when the caller already has `max` in flight.
 */
export function callGate(max = DEFAULT_LIMITS.callsInFlight) {
  const open = new Map();
  return {
    max,
    enter(caller) {
      const n = open.get(caller) ?? 0;
      if (n >= max) return null;
      open.set(caller, n + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const rest = (open.get(caller) ?? 1) - 1;
        if (rest > 0) open.set(caller, rest);
        else open.delete(caller);
      };
    },
  };
}

/**
 * The calls running across the servers of one endpoint, so that a client's
 * `notifications/cancelled` stops its call even when it arrives in another HTTP request (a
 * stateless endpoint answers each request with a server of its own). Calls are keyed by
 * caller and request id: a client can cancel only its own.
 */
export function callRegistry() {
  const running = new Map();
  const key = (caller, id) => JSON.stringify([caller, id]);
  return {
    add(caller, id, stop) {
      running.set(key(caller, id), stop);
      return () => running.get(key(caller, id)) === stop && running.delete(key(caller, id));
    },
    cancel(caller, id) {
      running.get(key(caller, id))?.();
    },
  };
}

/**
 * Sessions kept between calls, one group set each: `lease(groups)` gives an idle session
 * (or connects one) as `{ fs, pooled: true, release(stale) }`. A released session waits for
 * the next call of its group set; a stale one (the docs changed) is freed. `connect(groups)`
 * opens a session. At most `idlePerGroups` sessions wait per group set and `maxIdle` in all,
 * the least recently used freed first.
 */
export function sessionPool(connect, { idlePerGroups = 2, maxIdle = 32 } = {}) {
  const idle = new Map(); // group-set key → sessions, most recently released last
  let count = 0;
  const evict = () => {
    while (count > maxIdle) {
      const [key, list] = idle.entries().next().value;
      list.shift().free?.();
      count -= 1;
      if (!list.length) idle.delete(key);
    }
  };
  return {
    async lease(groups) {
      const key = JSON.stringify([...new Set(groups)].sort());
      const list = idle.get(key);
      let fs = list?.pop();
      if (list && !list.length) idle.delete(key);
      if (fs) count -= 1;
      else fs = await connect(JSON.parse(key));
      return {
        fs,
        pooled: true,
        release(stale) {
          if (stale) return void fs.free?.();
          const mine = idle.get(key) ?? [];
          if (mine.length >= idlePerGroups) return void fs.free?.();
          idle.delete(key); // re-inserted: the most recently used group set goes last
          idle.set(key, [...mine, fs]);
          count += 1;
          evict();
        },
      };
    },
    /** Frees every idle session. */
    close() {
      for (const list of idle.values()) for (const fs of list) fs.free?.();
      idle.clear();
      count = 0;
    },
  };
}

/** A lease of the session a call runs on, whatever form `source` takes. */
async function leaseOf(source) {
  if (typeof source?.lease === "function") return source.lease();
  const fs = typeof source === "function" ? await source() : source;
  return { fs, pooled: false, release() {} };
}

/**
 * Runs `body(fs)` as one call: one command of the session, held to the call's limits,
 * aborted with `signal`. A pooled session is checked first, and replaced when the docs
 * changed since it was opened. Resolves with `{ value, failed }`: `failed` when a read
 * failed anywhere in the call (Chroma down, a budget spent).
 */
async function withSession(source, limits, signal, body) {
  const bracket = { maxRequests: limits.maxRequests, timeoutMs: limits.callTimeoutMs };
  let lease = await leaseOf(source);
  let mark = lease.fs.beginCommand(bracket);
  // A check that cannot be made (Chroma down) keeps the session: the call then reports why.
  if (lease.pooled && !(await lease.fs.isCurrent().catch(() => true))) {
    lease.fs.endCommand(mark);
    lease.release(true);
    lease = await leaseOf(source);
    mark = lease.fs.beginCommand(bracket);
  }
  const { fs } = lease;
  const abort = () => fs.abortCommand();
  if (signal.aborted) abort();
  signal.addEventListener("abort", abort, { once: true });
  let value;
  try {
    value = await body(fs);
  } finally {
    signal.removeEventListener("abort", abort);
    const report = fs.endCommand(mark);
    lease.release(false);
    value = value && { value, failed: report.total > 0 };
  }
  return value;
}

/** What every tool is: it reads the docs, changes nothing, and reaches nothing else. */
const TOOL_ANNOTATIONS = Object.freeze({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });

/** The `search` tool's structured result: the pages found, best first. */
const SEARCH_OUTPUT = {
  results: z
    .array(
      z.object({
        path: z.string().describe("the page, e.g. /guides/install.mdx"),
        startLine: z.number().int().nullable().describe("first line of the best-matching part"),
        endLine: z.number().int().nullable().describe("last line of the best-matching part"),
        score: z.number().describe("relevance, higher is better"),
        snippet: z.string().nullable().describe("the part's most telling line"),
        url: z.string().nullable().describe("the page's public address, when the server knows the site's base URL"),
      }),
    )
    .describe("the pages found, best first"),
};

/** A tool result that is an error. */
const failure = (text) => ({ content: [{ type: "text", text }], isError: true });

/**
 * An MCP server with the docs' tools. `session` is a connected ChromaFs, a function that
 * resolves to one (called for each call, so that a session that cannot connect is a tool
 * error, not a protocol error), or a pool's lease (`{ lease() }`, see `sessionPool`).
 * Options: `toolPrefix` names the tools (`docs_` gives `docs_bash`, `docs_search`); `docs`
 * says what the docs are, for their descriptions; `limits` (see DEFAULT_LIMITS); `gate` and
 * `caller` count the calls in flight per caller across servers (a server per request), and
 * `registry` lets a cancellation reach a call another server runs (see callRegistry).
 */
export function createMcpServer(
  session,
  { toolPrefix = "", docs = "the documentation", name = "chromafs", limits, gate, caller = "default", registry, baseUrl } = {},
) {
  const lim = limitsOf(limits);
  // A site's base URL, or (several doc sets mounted) the rule that finds each page's site.
  const base = typeof baseUrl === "function" ? baseUrl : baseUrl ? baseUrlOf(baseUrl) : null;
  const calls = gate ?? callGate(lim.callsInFlight);
  const server = new McpServer({ name, version: "0.1.0" });
  if (registry) {
    server.server.setNotificationHandler(CancelledNotificationSchema, ({ params }) => registry.cancel(caller, params.requestId));
  }

  /** Runs one call within its limits; `work(fs, signal)` gives `{ result, isError }`. */
  async function call(tool, extra, work) {
    const leave = calls.enter(caller);
    if (!leave) return failure(`${tool}: ${calls.max} calls are already running for this client: wait for one to finish`);
    const controller = new AbortController();
    let why = null;
    const stop = (reason) => {
      why ??= reason;
      controller.abort();
    };
    const timer = setTimeout(() => stop(`the call ran out of time after ${lim.callTimeoutMs.toLocaleString("en")} ms`), lim.callTimeoutMs);
    const left = () => stop("the client went away");
    if (extra?.signal?.aborted) left();
    extra?.signal?.addEventListener("abort", left, { once: true });
    const unregister = registry?.add(caller, extra?.requestId, left);
    try {
      const { value, failed } = await withSession(session, lim, controller.signal, (fs) => work(fs, controller.signal));
      const { result, isError, structured } = value;
      // A read that failed (Chroma down, a budget spent) is a tool error, not an answer.
      const error = isError || failed || why !== null;
      const answer = { content: [{ type: "text", text: shown(result, why && `[${why}]`) }], isError: error };
      if (structured && !error) answer.structuredContent = structured;
      return answer;
    } catch (e) {
      return failure(`${tool}: ${e?.message ?? e}`);
    } finally {
      clearTimeout(timer);
      extra?.signal?.removeEventListener("abort", left);
      unregister?.();
      leave();
    }
  }

  server.registerTool(
    `${toolPrefix}bash`,
    {
      description:
        toolDescription({ docs }) +
        `\n\nEach call is one command line, run on its own: it starts in / and nothing carries over to the next call. ` +
        `Output is cut at ${MAX_OUTPUT.toLocaleString("en")} characters, and a call stops after ${lim.callTimeoutMs / 1000} s. ` +
        "Use the search tool first when you do not know the exact words.",
      inputSchema: {
        command: z.string().min(1).max(lim.maxCommandChars).describe("one bash command line, e.g. grep -rn 'api_key' / | head -20"),
      },
      annotations: TOOL_ANNOTATIONS,
    },
    ({ command }, extra) =>
      call("bash", extra, async (fs, signal) => {
        const customCommands = withPageUrls(fs.commands(), base);
        const bash = new Bash({ fs, cwd: "/", customCommands, executionLimitProfile: "hardened", executionLimits: lim.executionLimits });
        return { result: await safeExec(bash, command, { signal }), isError: false };
      }),
  );
  server.registerTool(
    `${toolPrefix}search`,
    {
      description:
        `Ranked search over ${docs}: the pages that best answer a question, best first, each as PATH:START-END ` +
        `with its most telling line${base ? " and the page's public URL (cite it)" : ""}. ` +
        "Read a hit with the bash tool (sed -n 'START,ENDp' PATH), then grep for exact strings. " +
        "Use it when you do not know the exact words; use grep in the bash tool for every occurrence of a known string.",
      inputSchema: {
        query: z.string().min(1).max(lim.maxQueryChars).describe("a question or keywords, e.g. how do I rotate an API key"),
        k: z.number().int().min(1).max(50).optional().describe("pages to return (default 10)"),
        path: z.string().max(4096).optional().describe("search only under this directory, e.g. /api"),
        lang: z
          .string()
          .max(16)
          .optional()
          .describe("search only pages in this language (a code: en, fr, ja, zh-cn); without it, a question's own language ranks first"),
      },
      outputSchema: SEARCH_OUTPUT,
      annotations: TOOL_ANNOTATIONS,
    },
    ({ query, k, path, lang }, extra) =>
      call("search", extra, async (fs) => {
        const args = ["--json", "-n", String(k ?? 10), ...(path ? ["--path", path] : []), ...(lang ? ["--lang", lang] : []), "--", query];
        const ran = await fs.searchCommand(args, "/");
        if (ran.exitCode === 2) return { result: ran, isError: true };
        const results = searchResults(ran.stdout, base);
        return { result: { ...ran, stdout: resultsText(results) }, isError: false, structured: { results } };
      }),
  );
  return server;
}

function header(request, name) {
  const h = request.headers;
  const v = typeof h.get === "function" ? h.get(name) : h[name];
  return Array.isArray(v) ? v.join(",") : (v ?? null);
}

/** Whether `host` (an address to listen on, or a Host header's name) is this machine's loopback. */
export function isLoopback(host) {
  const name = String(host).replace(/^\[|\]$/g, "").toLowerCase();
  return name === "localhost" || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/**
 * The MCP specification's rule for an HTTP endpoint: why `request` must be refused with
 * 403, or `null`. An `Origin` that is present must be one of `allowOrigins` (browser pages
 * allowed to call the server) or `ownOrigins`; when `hosts` is given (a server listening on
 * loopback), the `Host` must be one of them, so a page that rebinds its own name to
 * 127.0.0.1 (DNS rebinding) is refused.
 */
export function endpointRefusal(request, { allowOrigins = [], ownOrigins = [], hosts = null } = {}) {
  const origin = header(request, "origin");
  if (origin !== null && !allowOrigins.includes(origin) && !ownOrigins.includes(origin)) {
    return "this Origin may not call the server (allow it with --allow-origin)";
  }
  if (hosts) {
    const host = (header(request, "host") ?? "").toLowerCase();
    if (!hosts.includes(host)) return "this Host is not the server's own";
  }
  return null;
}

/** A JSON-RPC error response, as the transport answers. */
export function refusedResponse(status, message, headers = {}) {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * Answers one streamable-HTTP MCP request (JSON responses, no MCP session: each request
 * stands alone) with `server`, which is closed once the answer is written. A request whose
 * `Origin` is present and neither the request's own origin nor in `allowOrigins` gets 403.
 */
export async function answerMcp(request, server, { allowOrigins = [] } = {}) {
  const refusal = endpointRefusal(request, { allowOrigins, ownOrigins: [new URL(request.url).origin] });
  if (refusal) {
    await server.close();
    return refusedResponse(403, refusal);
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await transport.close();
    await server.close();
  }
}

async function digest(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Equal digests, in a time that does not depend on where they differ. */
function sameDigest(a, b) {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** The shortest bearer token accepted: a guessable token is no access control. */
export const MIN_TOKEN_CHARS = 16;

/**
 * `authorize(request)` from a token map (`{ "TOKEN": ["group", …] }`): the groups of the
 * request's `Authorization: Bearer TOKEN`, compared with every token in constant time;
 * `null` for a missing or unknown token. `request` is a fetch `Request` or Node's
 * `IncomingMessage`. The map must be a plain object whose tokens have at least
 * MIN_TOKEN_CHARS characters, each mapped to an array of group names.
 */
export function tokenAuthorizer(tokens) {
  if (tokens === null || typeof tokens !== "object" || Array.isArray(tokens) || Object.getPrototypeOf(tokens) !== Object.prototype) {
    throw new TypeError('tokens must be a JSON object mapping each token to an array of group names, e.g. {"3f9c…": ["staff"]}');
  }
  const entries = Object.entries(tokens).map(([token, groups], i) => {
    if (!Array.isArray(groups) || groups.some((g) => typeof g !== "string")) {
      throw new TypeError(`tokens map each token to an array of group names (token ${i + 1} does not)`);
    }
    if (token.length < MIN_TOKEN_CHARS || /\s/.test(token)) {
      throw new TypeError(`token ${i + 1} is too short or holds a space: tokens have at least ${MIN_TOKEN_CHARS} characters and no spaces`);
    }
    return [token, [...groups]];
  });
  const known = Promise.all(entries.map(async ([token, groups]) => [await digest(token), groups]));
  return async (request) => {
    const m = /^Bearer\s+(\S+)$/i.exec(header(request, "authorization") ?? "");
    if (!m) return null;
    const given = await digest(m[1]);
    let found = null;
    for (const [d, groups] of await known) if (sameDigest(d, given) && !found) found = groups;
    return found;
  };
}

/** Who a request comes from, for the calls-in-flight limit: its credentials, else its address. */
export async function callerOf(request, address = "unknown") {
  const auth = header(request, "authorization");
  if (!auth) return `address:${address}`;
  return `credentials:${Array.from(await digest(auth), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
