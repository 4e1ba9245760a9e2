// A fault-injecting HTTP proxy in front of the real Chroma: it forwards every request and
// can answer with an error status, delay, or count how many requests are in flight.
import http from "node:http";

export async function startProxy(target) {
  const t = new URL(target);
  const state = {
    failures: [], // statuses to answer the next requests with, in order
    failWhen: null, // (req, body) => status | null, for targeted faults
    delayMs: 0,
    transform: null, // (requestBody, responseJson) => responseJson, to tamper with answers
    retryAfter: null,
    inFlight: 0,
    maxInFlight: 0,
    requests: [],
  };
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      state.requests.push({ method: req.method, url: req.url, headers: req.headers, body: body.toString("utf8") });
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      const done = () => state.inFlight--;
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      const injected = state.failures.length ? state.failures.shift() : state.failWhen?.(req, body.toString("utf8"));
      if (injected) {
        const headers = { "content-type": "application/json" };
        if (state.retryAfter != null) headers["retry-after"] = String(state.retryAfter);
        res.writeHead(injected, headers);
        res.end(JSON.stringify({ error: "InternalError", message: `injected ${injected}` }));
        done();
        return;
      }
      const up = http.request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } },
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
      up.end(body);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    state,
    reset() {
      Object.assign(state, { failures: [], failWhen: null, delayMs: 0, transform: null, retryAfter: null, inFlight: 0, maxInFlight: 0, requests: [] });
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
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
