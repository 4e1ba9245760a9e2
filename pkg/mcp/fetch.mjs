// The `fetch` chromafs's own Node processes hand their sessions (the CLI's, and the worker
// threads of a Node MCP server): the subset of fetch chromafs's client uses (a method,
// headers as an object, a string or byte body, a signal, no redirect followed), over
// node:http and node:https with connections kept alive.
//
// Why: undici's fetch spends about 2 ms of CPU on a small request on a modest core (its
// Request, Headers and streams), where node:http spends under 1. A server makes one such
// request a call to check that the docs did not change, more for pages. Neither process
// is a host's: the CLI is chromafs's own, and a worker's globals are its own (a host's
// dispatcher set in the main thread never reached it), so nothing a host configured is
// bypassed; a host's own `fetch` option still wins (withNodeFetch). The answer is a real
// `Response` whose body streams as it arrives, read on demand: a body larger than the
// client's bound is cut off by the client's reader, and the socket closed, never held
// whole in memory. Bodies arrive compressed when the server offers it (gzip, deflate, br),
// as undici's fetch asks for them.
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

const AGENTS = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };
const MODULES = { "http:": http, "https:": https };
/** Statuses whose response has no body (fetch's "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const DECODERS = { gzip: () => zlib.createGunzip(), "x-gzip": () => zlib.createGunzip(), deflate: () => zlib.createInflate(), br: () => zlib.createBrotliDecompress() };

/** A failure before any answer, spelled as fetch's: "fetch failed" with the cause beside it. */
const failed = (cause) => new TypeError("fetch failed", { cause });

/**
 * The body of `res` as a stream of bytes, the socket paused while 64 KiB wait unread: a
 * body is read from the network only as fast as its reader takes it.
 */
function bodyStream(res) {
  const coding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoded = DECODERS[coding] ? res.pipe(DECODERS[coding]()) : res;
  if (decoded !== res) res.on("error", (e) => decoded.destroy(e));
  // Once the stream is closed, errored or cancelled, what still arrives goes nowhere.
  let open = true;
  return new ReadableStream(
    {
      start(controller) {
        const settle = (e) => {
          if (!open) return;
          open = false;
          if (e) controller.error(new TypeError("terminated", { cause: e }));
          else controller.close();
        };
        decoded.on("data", (chunk) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (controller.desiredSize <= 0) decoded.pause();
        });
        decoded.once("end", () => settle(null));
        decoded.once("error", (e) => settle(e));
        decoded.once("close", () => settle(decoded.readableEnded ? null : new Error("the connection closed before the body ended")));
      },
      pull() {
        decoded.resume();
      },
      cancel() {
        open = false;
        res.destroy();
        decoded.destroy();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** Connect `options` for a session of chromafs's own process: this fetch, unless they name one. */
export function withNodeFetch(options) {
  return { ...options, fetch: options.fetch ?? nodeFetch };
}

/** `fetch(url, init)` for chromafs's client (see above). */
export function nodeFetch(url, init = {}) {
  return new Promise((resolve, reject) => {
    let target;
    try {
      target = new URL(url);
    } catch (e) {
      return reject(new TypeError("Invalid URL", { cause: e }));
    }
    const module = MODULES[target.protocol];
    if (!module) return reject(failed(new Error(`unsupported protocol ${target.protocol}`)));
    const { signal } = init;
    if (signal?.aborted) return reject(signal.reason);
    const method = (init.method ?? "GET").toUpperCase();
    const headers = { "accept-encoding": "gzip, deflate, br", ...init.headers };
    const body = init.body == null ? null : typeof init.body === "string" ? Buffer.from(init.body) : Buffer.from(init.body.buffer, init.body.byteOffset, init.body.byteLength);
    if (body) headers["content-length"] = String(body.length);
    send(true);

    /**
     * Sends the request; `again`: once more, on a new connection, when a kept-alive one
     * turns out closed by the server before any answer (the server let it go idle just as
     * it was taken). The sessions that use this fetch only read, so a request sent twice
     * changes nothing.
     */
    function send(again) {
      let req;
      try {
        req = module.request(target, { method, headers, agent: AGENTS[target.protocol], signal });
      } catch (e) {
        return reject(failed(e));
      }
      let answered = false;
      req.once("error", (e) => {
        if (again && req.reusedSocket && !answered && !signal?.aborted && (e.code === "ECONNRESET" || e.code === "EPIPE")) return send(false);
        reject(signal?.aborted ? signal.reason : failed(e));
      });
      req.once("response", (res) => {
        answered = true;
        // Read by the body's reader; a socket that fails before it reads must not end the thread.
        res.on("error", () => {});
        const status = res.statusCode;
        if (!(status >= 200 && status <= 599)) {
          res.destroy();
          return reject(failed(new Error(`invalid status ${status}`)));
        }
        const answer = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          try {
            answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
          } catch {
            // A header fetch would refuse to hold is left out, as it has no use here.
          }
        }
        const empty = NULL_BODY.has(status) || method === "HEAD";
        if (empty) res.resume();
        resolve(new Response(empty ? null : bodyStream(res), { status, statusText: res.statusMessage ?? "", headers: answer }));
      });
      req.end(body ?? undefined);
    }
  });
}
