// The test proxy in front of the real Chroma, and raw Chroma calls for tests. The proxy
// forwards every request and logs it; its `state` hooks inject faults (error statuses,
// delays, tampered answers, a server gone away), and with `quotas: true` it also refuses
// what Chroma Cloud's quotas refuse (quotas.mjs), so a test that passes locally would
// pass on Cloud too.
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { CLOUD_LIMITS, checkRequest, quotaViolation, recordRoute } from "./quotas.mjs";

/**
 * Listens on an ephemeral loopback port; `close()` also drops open connections, so a
 * test never waits on a keep-alive socket.
 */
export async function listen(server) {
  const sockets = new Set();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

const hooks = () => ({
  failures: [], // statuses to answer the next requests with, in order
  failWhen: null, // (req, body) => status | null, for targeted faults
  delayMs: 0,
  transform: null, // (requestBody, responseJson) => responseJson, to tamper with answers
  respond: null, // (req, body) => { status, headers?, body? } | null, to answer instead of Chroma
  handle: null, // (req, body, res) => true when it answered res itself (a streamed answer)
  rewrite: null, // (body) => body, to change a request before Chroma sees it
  retryAfter: null,
  down: false, // drop every connection unanswered, as a server that went away
});

/**
 * Starts the proxy on 127.0.0.1 (a free port) in front of `target`.
 *
 * Options: `quotas` (default false) refuses requests that break Chroma Cloud's quotas with
 * Cloud's 422 answer, logging each in `violations`; any key of CLOUD_LIMITS overrides that
 * limit. `latencyMs` delays each answer, standing for a remote server's round trip (so that
 * concurrency and request counts matter as they would there). `keepBodies` (default: when
 * quotas are off) keeps each request's body text in its log entry.
 *
 * `state` holds the fault hooks (see `hooks` above) and the log: `requests` has one entry
 * per request, `{ method, url, path, headers, body, bodyBytes, responseBytes, status, ms }`,
 * added on arrival and completed on the answer; `inFlight`/`maxInFlight` count open
 * requests. `stats()` counts from the client's side: `bytesSent` are request bodies,
 * `bytesReceived` response bodies. `reset()` clears hooks, logs and counters in place.
 */
export async function startProxy(target, options = {}) {
  const t = new URL(target);
  const { quotas = false, latencyMs = 0, keepBodies = !quotas, ...overrides } = options;
  const limits = { ...CLOUD_LIMITS, ...overrides };
  const requests = [];
  const violations = [];
  const state = { ...hooks(), inFlight: 0, maxInFlight: 0, requests };
  const counters = { requests: 0, bytesSent: 0, bytesReceived: 0 };
  const readsInFlight = new Map(); // collection id → open reads, for the concurrency quota
  const agent = new http.Agent({ keepAlive: true });
  const sleep = (ms) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : null);

  /** The quota `req` breaks, or null; a read within quotas holds a slot until `res` closes. */
  function meter(req, body, res) {
    const route = recordRoute(req.method, req.url);
    let json;
    if (route && body.length) {
      try {
        json = JSON.parse(body.toString("utf8"));
      } catch {}
    }
    const violation = checkRequest(req.method, req.url, json, limits, body.length);
    // Cloud meters concurrent reads per collection, from arrival to answer.
    if (violation || !route || (route.op !== "get" && route.op !== "query")) return violation;
    const open = readsInFlight.get(route.collection) ?? 0;
    if (open >= limits.maxConcurrentReads) return quotaViolation("ConcurrentReads", route.action, open + 1, limits.maxConcurrentReads);
    readsInFlight.set(route.collection, open + 1);
    res.on("close", () => {
      const n = readsInFlight.get(route.collection) - 1;
      if (n > 0) readsInFlight.set(route.collection, n);
      else readsInFlight.delete(route.collection);
    });
    return null;
  }

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const started = performance.now();
      const body = Buffer.concat(chunks);
      const text = body.toString("utf8");
      const entry = { method: req.method, url: req.url, path: req.url, headers: req.headers, body: keepBodies ? text : undefined, bodyBytes: body.length, responseBytes: 0, status: 0, ms: 0 };
      requests.push(entry);
      counters.requests++;
      counters.bytesSent += body.length;
      if (state.down) {
        req.socket.destroy();
        return;
      }
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      let open = true;
      const done = () => {
        if (open) state.inFlight--;
        open = false;
      };
      const elapsed = () => Math.round(performance.now() - started);
      res.on("finish", () => (entry.ms = elapsed()));
      res.on("close", () => {
        done();
        entry.status ||= res.statusCode;
        entry.ms ||= elapsed();
      });
      const answer = (status, headers, out) => {
        entry.status = status;
        entry.responseBytes = Buffer.byteLength(out);
        counters.bytesReceived += entry.responseBytes;
        res.writeHead(status, headers);
        res.end(out);
        done();
      };

      if (quotas) {
        const violation = meter(req, body, res);
        await sleep(latencyMs);
        if (violation) {
          violations.push({ method: req.method, path: req.url, ...violation, body: text });
          const out = Buffer.from(JSON.stringify({ error: "ChromaError", message: violation.message }));
          return answer(422, { "content-type": "application/json", "content-length": String(out.length) }, out);
        }
      } else {
        await sleep(latencyMs);
      }
      await sleep(state.delayMs);
      if (state.handle?.(req, text, res)) return;
      const own = state.respond?.(req, text);
      if (own) return answer(own.status, own.headers ?? {}, own.body ?? "");
      const injected = state.failures.length ? state.failures.shift() : state.failWhen?.(req, text);
      if (injected) {
        const headers = { "content-type": "application/json" };
        if (state.retryAfter != null) headers["retry-after"] = String(state.retryAfter);
        return answer(injected, headers, JSON.stringify({ error: "InternalError", message: `injected ${injected}` }));
      }

      const sent = state.rewrite && body.length ? Buffer.from(state.rewrite(text)) : body;
      // The Host header names the upstream, as any reverse proxy sends it.
      const upHeaders = { ...req.headers, host: t.host };
      if (sent !== body) upHeaders["content-length"] = String(sent.length);
      const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: upHeaders, agent }, (upRes) => {
        entry.status = upRes.statusCode;
        if (!state.transform) {
          res.writeHead(upRes.statusCode, upRes.headers);
          upRes.on("data", (c) => {
            entry.responseBytes += c.length;
            counters.bytesReceived += c.length;
          });
          upRes.pipe(res);
          upRes.on("end", done);
          return;
        }
        const parts = [];
        upRes.on("data", (c) => parts.push(c));
        upRes.on("end", () => {
          let out = Buffer.concat(parts);
          try {
            out = Buffer.from(JSON.stringify(state.transform(text, JSON.parse(out.toString("utf8")))));
          } catch {}
          const headers = { ...upRes.headers, "content-length": String(out.length) };
          delete headers["transfer-encoding"];
          answer(upRes.statusCode, headers, out);
        });
      });
      up.on("error", (e) => {
        if (res.headersSent) return res.destroy(e);
        answer(502, { "content-type": "text/plain" }, `proxy: upstream ${target} failed: ${e.message}`);
      });
      up.end(sent);
    });
  });
  const listening = await listen(server);

  return {
    url: listening.url,
    state,
    limits,
    violations,
    requests,
    stats() {
      return { ...counters, maxInFlight: state.maxInFlight };
    },
    /** Clears the hooks, logs and counters in place, so references to `violations`/`requests` stay valid. */
    reset() {
      Object.assign(state, hooks(), { maxInFlight: state.inFlight });
      requests.length = 0;
      violations.length = 0;
      Object.assign(counters, { requests: 0, bytesSent: 0, bytesReceived: 0 });
    },
    close() {
      agent.destroy();
      return listening.close();
    },
  };
}

/** The proxy as Chroma Cloud: `startProxy` with its quotas on (`options` as there). */
export function startCloudProxy(target, options = {}) {
  return startProxy(target, { ...options, quotas: true });
}

/** Raw Chroma calls, for corrupting data behind the filesystem's back. */
export async function chroma(url, method, path, body) {
  const res = await fetch(`${url}/api/v2/tenants/default_tenant/databases/default_database${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function collectionId(url, name) {
  return (await chroma(url, "GET", `/collections/${name}`)).id;
}

/** The path tree as stored (a manifest and its shards, or one record), as an object. */
export async function storedTree(url, id, treeId = "__path_tree__") {
  const get = async (ids) => chroma(url, "POST", `/collections/${id}/get`, { ids, include: ["documents"] });
  const [doc] = (await get([treeId])).documents;
  const manifest = JSON.parse(doc.startsWith("{") ? doc : "{}");
  if (manifest.chromafs !== "tree-manifest") {
    return JSON.parse(doc.startsWith("{") ? doc : gunzipSync(Buffer.from(doc, "base64")).toString("utf8"));
  }
  const ids = Array.from({ length: manifest.shards }, (_, i) => `${treeId}#${i}`);
  const shards = await get(ids);
  const tree = {};
  for (const id of ids) {
    const raw = shards.documents[shards.ids.indexOf(id)];
    const text = manifest.encoding === "json" ? raw : gunzipSync(Buffer.from(raw, "base64")).toString("utf8");
    Object.assign(tree, JSON.parse(text.slice(text.indexOf("\n") + 1)));
  }
  return tree;
}

/**
 * Writes `total` bytes (`prefix`, then `x`s) to `res` a chunk at a time, waiting for each to
 * drain, and stops as soon as the client goes away: never more than a chunk in hand.
 * Resolves to the bytes written.
 */
export function streamBytes(res, total, prefix = "") {
  const chunk = Buffer.alloc(64 << 10, "x");
  let sent = 0;
  let closed = false;
  return new Promise((resolve) => {
    res.on("close", () => {
      closed = true;
      resolve(sent);
    });
    const pump = () => {
      if (sent === 0 && prefix) {
        res.write(prefix);
        sent += Buffer.byteLength(prefix);
      }
      while (!closed && sent < total) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      if (!closed) res.end(() => resolve(sent));
    };
    pump();
  });
}
