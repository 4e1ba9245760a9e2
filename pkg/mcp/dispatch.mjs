// How a Node server's main thread answers the endpoint's requests (Node only).
//
// The main thread does the least a request needs, so that it is never the one thread every
// caller waits on: it reads the request (bounded) and parses it once (the worker's SDK
// server answers the message parsed here, so the calls counted are the calls run), knows
// who sent it (identity.mjs), counts the caller's tool calls in flight, takes a
// cancellation to the call it names, and hands the request to a worker of the pool, where
// the MCP SDK's server answers it whole (pool.mjs, worker.mjs). Workers run on every core.
// What the main thread writes itself is only what no worker could: the answer to a call
// whose worker was stopped (messages.mjs).
//
// With `workers: 0` there is no pool: the request is answered here, by a server on this
// thread, as on an edge runtime.
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpServer } from "./server.mjs";
import { GRACE_MS } from "./pool.mjs";
import { callStop, outOfTime } from "./limits.mjs";
import { abandonedAnswer, inspect, parseBody } from "./messages.mjs";
import { classify } from "./modern.mjs";
import { answerModern } from "./eras.mjs";

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

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body);
};

/**
 * The parsed body of a POST to the endpoint; undefined once `res` has been answered for a
 * body too large or not JSON (the SDK's own answer to one: nothing in it runs).
 */
async function readMessage(req, res) {
  const body = await readBody(req);
  if (body === null) {
    json(res, 413, JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: `the request body is larger than ${MAX_BODY_BYTES} bytes` }, id: null }), { connection: "close" });
    return undefined;
  }
  const parsed = parseBody(body);
  if (!parsed) json(res, 400, JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null }));
  return parsed?.message;
}

/**
 * Answers one POST to the endpoint in a worker of `pool`, for `admitted` (`{ groups, caller }`):
 * `gate` and `registry` are the endpoint's, `limits` its, `url` its own address; `shells`
 * keeps a known caller's shell from one request to the next (the worker runs the request's
 * calls in it and gives back what they left).
 */
export async function dispatch(req, res, { pool, admitted, gate, registry, limits, url, shells }) {
  const message = await readMessage(req, res);
  if (message === undefined) return;
  const { key: caller, anonymous } = admitted.caller;
  const { calls, reads, cancels, batch, modern } = inspect(message);
  if (!anonymous) for (const id of cancels) registry.cancel(caller, id);
  const leaves = [];
  const refused = [];
  // A resource read counts as a call in flight, as a tool call does.
  for (const id of [...calls, ...reads]) {
    const leave = gate.enter(caller, id);
    if (leave) leaves.push(leave);
    else refused.push(id);
  }
  const control = {};
  const { signal, stop, why } = callStop();
  const running = calls.filter((id) => !refused.includes(id));
  const unregister = anonymous ? [] : running.map((id) => registry.add(caller, id, () => control.cancel?.(id)));
  // The worker's own timer ends a call at its deadline; this one answers for a worker that cannot.
  const backstop = setTimeout(() => stop(outOfTime(limits.callTimeoutMs)), limits.callTimeoutMs + GRACE_MS / 2);
  const left = () => !res.writableEnded && stop(null);
  res.on("close", left);
  const headers = FORWARDED.flatMap((h) => (req.headers[h] === undefined ? [] : [[h, String(req.headers[h])]]));
  try {
    const answer = await pool
      .run("http", { url, headers, message, groups: admitted.groups, caller, refused, shell: anonymous ? undefined : ((await shells?.get(caller)) ?? null) }, { signal, timeoutMs: limits.callTimeoutMs, control })
      .catch((e) => {
        // The pool cannot run it (its workers would not start): the cause is the operator's.
        console.error("chromafs mcp:", e.message);
        return { unavailable: true };
      });
    if (res.destroyed) return;
    if (answer.unavailable) {
      return json(res, 503, JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "the server cannot answer: its worker threads could not start (the cause is in the server's log)" }, id: null }));
    }
    if (!answer.abandoned) {
      // What the request's calls left of the caller's shell is kept for its next request.
      if (!anonymous && answer.shell !== undefined) await shells?.put(caller, answer.shell);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(answer.body);
    } else if (calls.length) {
      const reason = answer.abandoned === "memory" ? `the call ran out of memory: a worker's heap holds ${limits.memoryMiB} MiB` : (why() ?? "the call was stopped");
      json(res, 200, abandonedAnswer(calls, batch, reason, modern));
    } else {
      json(res, 503, JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "the server could not answer in time" }, id: null }));
    }
  } finally {
    clearTimeout(backstop);
    res.off("close", left);
    for (const u of unregister) u();
    for (const leave of leaves) leave();
  }
}

/**
 * Answers one request to the endpoint in this thread, with a server of its own (`workers:
 * 0`): a 2026-07-28 request by that revision's rules (eras.mjs), any other by the SDK's transport.
 */
export async function answerHere(req, res, options) {
  const message = await readMessage(req, res);
  if (message === undefined) return;
  const server = createMcpServer(null, options);
  const route = classify(message, new Headers(FORWARDED.flatMap((h) => (req.headers[h] === undefined ? [] : [[h, String(req.headers[h])]]))));
  if (route.era === "legacy") {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Closing the server aborts the calls still running: the client went away.
    res.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    return transport.handleRequest(req, res, message);
  }
  if (route.refuse || !route.request) await server.close();
  if (route.refuse) return json(res, route.refuse.status, JSON.stringify(route.refuse.answer));
  if (!route.request) return void res.writeHead(202).end();
  const gone = new AbortController();
  const left = () => !res.writableEnded && gone.abort();
  res.on("close", left);
  try {
    const { status, answer } = await answerModern(server, route.message, { signal: gone.signal });
    if (!res.destroyed) json(res, status, JSON.stringify(answer));
  } finally {
    res.off("close", left);
  }
}
