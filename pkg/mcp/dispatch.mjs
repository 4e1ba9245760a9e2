// How a Node server answers one POST to its endpoint (Node only): the request read once
// (bounded) and parsed once, then answered by an MCP server in this thread, as any runtime
// answers one (stateless.mjs, the MCP SDK's): the server counts the caller's calls in flight,
// starts each call's clock and hands the call to its `runner` — with a pool, a worker thread
// (pool.mjs), where nothing but the call runs. This thread only speaks the protocol; what a
// command computes never runs here.
import { createMcpServer } from "./server.mjs";
import { answerAlone } from "./stateless.mjs";

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
  res.end(JSON.stringify(body));
};

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
    json(res, 413, { jsonrpc: "2.0", error: { code: -32000, message: `the request body is larger than ${MAX_BODY_BYTES} bytes` }, id: null }, { connection: "close" });
    return undefined;
  }
  const parsed = parseBody(body);
  if (!parsed) json(res, 400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null });
  return parsed?.message;
}

/**
 * Answers one POST to the endpoint at `url` with an MCP server made with `options` (see
 * createMcpServer: the caller's gate, registry, shells and runner), once `ready()` (when
 * given: the pool's) resolves; a request it rejects gets 503, its cause in the log. A client
 * that goes away stops the request's calls.
 */
export async function answerRequest(req, res, options, url, ready) {
  const message = await readMessage(req, res);
  if (message === undefined) return;
  const cannot = await ready?.().then(
    () => null,
    (e) => e,
  );
  if (cannot) {
    console.error("chromafs mcp:", cannot.message);
    return json(res, 503, { jsonrpc: "2.0", error: { code: -32000, message: "the server cannot answer: its worker threads could not start (the cause is in the server's log)" }, id: null });
  }
  const gone = new AbortController();
  const left = () => !res.writableEnded && gone.abort();
  res.on("close", left);
  try {
    const server = createMcpServer(null, { ...options, signal: gone.signal });
    const headers = FORWARDED.flatMap((h) => (req.headers[h] === undefined ? [] : [[h, String(req.headers[h])]]));
    const request = new Request(url, { method: "POST", headers, signal: gone.signal });
    const answer = await answerAlone(server, request, async (r) => ({ status: r.status, headers: r.headers, body: await r.text() }), message);
    if (res.destroyed) return;
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(answer.body);
  } finally {
    res.off("close", left);
  }
}
