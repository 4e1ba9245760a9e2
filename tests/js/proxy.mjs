// A fault-injecting HTTP proxy in front of the real Chroma: it forwards every request and
// can answer with an error status, delay, or count how many requests are in flight.
import http from "node:http";
import { gunzipSync } from "node:zlib";

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

export async function startProxy(target) {
  const t = new URL(target);
  const state = {
    failures: [], // statuses to answer the next requests with, in order
    failWhen: null, // (req, body) => status | null, for targeted faults
    delayMs: 0,
    transform: null, // (requestBody, responseJson) => responseJson, to tamper with answers
    respond: null, // (req, body) => { status, headers?, body? } | null, to answer instead of Chroma
    handle: null, // (req, body, res) => true when it answered res itself (a streamed answer)
    rewrite: null, // (body) => body, to change a request before Chroma sees it
    retryAfter: null,
    down: false, // drop every connection unanswered, as a server that went away
    inFlight: 0,
    maxInFlight: 0,
    requests: [],
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      state.requests.push({ method: req.method, url: req.url, headers: req.headers, body: body.toString("utf8") });
      if (state.down) {
        req.socket.destroy();
        return;
      }
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      const done = () => state.inFlight--;
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.handle?.(req, body.toString("utf8"), res)) {
        res.on("close", done);
        return;
      }
      const own = state.respond?.(req, body.toString("utf8"));
      if (own) {
        res.writeHead(own.status, own.headers ?? {});
        res.end(own.body ?? "");
        done();
        return;
      }
      const injected = state.failures.length ? state.failures.shift() : state.failWhen?.(req, body.toString("utf8"));
      if (injected) {
        const headers = { "content-type": "application/json" };
        if (state.retryAfter != null) headers["retry-after"] = String(state.retryAfter);
        res.writeHead(injected, headers);
        res.end(JSON.stringify({ error: "InternalError", message: `injected ${injected}` }));
        done();
        return;
      }
      const sent = state.rewrite && body.length ? Buffer.from(state.rewrite(body.toString("utf8"))) : body;
      const upHeaders = { ...req.headers, host: t.host };
      if (sent !== body) upHeaders["content-length"] = String(sent.length);
      const up = http.request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: upHeaders },
        (upRes) => {
          if (!state.transform) {
            res.writeHead(upRes.statusCode, upRes.headers);
            upRes.pipe(res);
            upRes.on("end", done);
            return;
          }
          const parts = [];
          upRes.on("data", (c) => parts.push(c));
          upRes.on("end", () => {
            let out = Buffer.concat(parts);
            try {
              out = Buffer.from(JSON.stringify(state.transform(body.toString("utf8"), JSON.parse(out.toString("utf8")))));
            } catch {}
            const headers = { ...upRes.headers, "content-length": String(out.length) };
            delete headers["transfer-encoding"];
            res.writeHead(upRes.statusCode, headers);
            res.end(out);
            done();
          });
        },
      );
      up.on("error", (e) => {
        res.writeHead(502);
        res.end(String(e));
        done();
      });
      up.end(sent);
    });
  });
  const { url, close } = await listen(server);
  return {
    url,
    state,
    reset() {
      Object.assign(state, { failures: [], failWhen: null, delayMs: 0, transform: null, respond: null, handle: null, rewrite: null, retryAfter: null, down: false, inFlight: 0, maxInFlight: 0, requests: [] });
    },
    close,
  };
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
