// The fetch the CLI and a Node MCP server's workers give their sessions (pkg/mcp/fetch.mjs),
// against real HTTP servers on 127.0.0.1: what chromafs's client reads of an answer is what
// undici's fetch gives (status, headers, the body, a redirect not followed, failures spelled alike), a body
// is read only as fast as it is taken (a reader that stops early closes the socket and the
// server stops writing), a compressed body arrives decoded, a signal stops the request
// before or during its answer, a kept-alive connection the server closed is replaced, and
// over TLS the server's certificate is verified.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import zlib from "node:zlib";
import { nodeFetch } from "../../../pkg/mcp/fetch.mjs";
import { tempDir } from "../helpers.mjs";

/** A server on 127.0.0.1 answering with `handler`; `close()` ends it and its sockets. */
async function serve(handler) {
  const server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))) };
}

/** The same request through this fetch and undici's: `[ours, theirs]`. */
const both = (url, init) => Promise.all([nodeFetch(url, init), fetch(url, init)]);

test("an answer reads as undici's fetch reads it: status, headers, body; a redirect is not followed; a body-less status has no body", async () => {
  const seen = [];
  const s = await serve((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method, type: req.headers["content-type"], auth: req.headers.authorization, body });
      if (req.url === "/moved") return res.writeHead(307, { location: "/elsewhere" }).end();
      if (req.url === "/none") return res.writeHead(204).end();
      res.writeHead(429, { "retry-after": "2", "content-type": "application/json" });
      res.end(JSON.stringify({ echo: body }));
    });
  });
  try {
    const init = { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: '{"ids":["a"]}', redirect: "manual" };
    const [ours, theirs] = await both(`${s.url}/get`, init);
    assert.equal(ours.status, theirs.status);
    assert.equal(ours.headers.get("retry-after"), "2");
    assert.equal(await ours.text(), await theirs.text());
    assert.deepEqual(seen[0], seen[1]);
    assert.deepEqual(seen[0], { method: "POST", type: "application/json", auth: "Bearer k", body: '{"ids":["a"]}' });
    const bytes = await nodeFetch(`${s.url}/get`, { ...init, body: new TextEncoder().encode("bytes") });
    assert.deepEqual(await bytes.json(), { echo: "bytes" });
    const [movedOurs, movedTheirs] = await both(`${s.url}/moved`, { redirect: "manual" });
    assert.equal(movedOurs.status, 307);
    assert.equal(movedOurs.status, movedTheirs.status);
    assert.equal(movedOurs.headers.get("location"), "/elsewhere");
    const none = await nodeFetch(`${s.url}/none`);
    assert.equal(none.status, 204);
    assert.equal(none.body, null);
  } finally {
    await s.close();
  }
});

test("a compressed body arrives decoded, gzip, deflate and br alike", async () => {
  const text = "the same line again\n".repeat(5000);
  const s = await serve((req, res) => {
    const coding = req.url.slice(1);
    const encode = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync }[coding];
    assert.match(req.headers["accept-encoding"], new RegExp(coding));
    res.writeHead(200, { "content-encoding": coding }).end(encode(Buffer.from(text)));
  });
  try {
    for (const coding of ["gzip", "deflate", "br"]) assert.equal(await (await nodeFetch(`${s.url}/${coding}`)).text(), text, coding);
  } finally {
    await s.close();
  }
});

test("a body is read only as fast as it is taken: a reader that stops after 1 MiB of an endless body closes the socket, and the server stops writing", async () => {
  let written = 0;
  let closed;
  const gone = new Promise((r) => (closed = r));
  const s = await serve((req, res) => {
    const chunk = Buffer.alloc(64 * 1024, 97);
    res.writeHead(200);
    const more = () => {
      while (res.write(chunk)) {
        written += chunk.length;
        if (written > 512 * 1024 * 1024) return res.end();
      }
      written += chunk.length;
    };
    res.on("drain", more);
    res.on("close", () => closed(written));
    more();
  });
  try {
    const r = await nodeFetch(s.url);
    const reader = r.body.getReader();
    let read = 0;
    while (read < 1024 * 1024) read += (await reader.read()).value.length;
    // Half a second unread: the server can write only what the sockets and the stream hold.
    await new Promise((r) => setTimeout(r, 500));
    const meanwhile = written;
    await reader.cancel();
    await gone;
    assert.ok(meanwhile < 64 * 1024 * 1024, `the server wrote ${meanwhile} bytes`);
  } finally {
    await s.close();
  }
});

test("a signal stops a request before its answer and during its body; a refused connection fails as fetch's does", async () => {
  const s = await serve((req, res) => {
    if (req.url === "/slow") return; // never answers
    res.writeHead(200);
    res.write("first part");
    // the rest never comes
  });
  try {
    const early = new AbortController();
    const pending = nodeFetch(`${s.url}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 50);
    await assert.rejects(pending, (e) => e.name === "AbortError");
    await assert.rejects(nodeFetch(`${s.url}/slow`, { signal: AbortSignal.abort() }), (e) => e.name === "AbortError");
    const late = new AbortController();
    const r = await nodeFetch(`${s.url}/body`, { signal: late.signal });
    const reader = r.body.getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), "first part");
    late.abort();
    await assert.rejects(reader.read());
  } finally {
    await s.close();
  }
  const port = s.url.split(":").at(-1);
  const [ours, theirs] = await Promise.all([nodeFetch(`http://127.0.0.1:${port}/`).catch((e) => e), fetch(`http://127.0.0.1:${port}/`).catch((e) => e)]);
  assert.equal(ours.message, theirs.message);
  assert.equal(ours.cause.code, "ECONNREFUSED");
  assert.equal(ours.cause.code, theirs.cause.code);
});

test("over TLS the server's certificate is verified: one nobody trusts fails as fetch's does and no request is sent; trusted (NODE_EXTRA_CA_CERTS) it answers", async () => {
  const https = await import("node:https");
  const { writeFile } = await import("node:fs/promises");
  const { execFile } = await import("node:child_process");
  const path = await import("node:path");
  const { TLS_CERT, TLS_KEY } = await import("../../../support/tls.mjs");
  const seen = [];
  const server = https.createServer({ cert: TLS_CERT, key: TLS_KEY }, (req, res) => {
    seen.push(req.headers.authorization);
    res.end("over tls");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `https://127.0.0.1:${server.address().port}/`;
  try {
    const init = { headers: { authorization: "Bearer secret-token" } };
    const [ours, theirs] = await Promise.all([nodeFetch(url, init).catch((e) => e), fetch(url, init).catch((e) => e)]);
    assert.equal(ours.message, "fetch failed");
    assert.equal(ours.message, theirs.message);
    assert.equal(ours.cause.code, theirs.cause.code);
    assert.match(ours.cause.code, /SELF_SIGNED|UNABLE_TO_VERIFY/);
    assert.deepEqual(seen, []);
    const dir = tempDir("tls");
    await writeFile(path.join(dir, "ca.pem"), TLS_CERT);
    const script = `const { nodeFetch } = await import(${JSON.stringify(new URL("../../../pkg/mcp/fetch.mjs", import.meta.url).href)});
      const r = await nodeFetch(${JSON.stringify(url)}, { headers: { authorization: "Bearer trusted" } });
      process.stdout.write(r.status + " " + (await r.text()));`;
    const out = await new Promise((resolve, reject) =>
      execFile(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem") } }, (e, stdout, stderr) => (e ? reject(new Error(stderr || e.message)) : resolve(stdout))),
    );
    assert.equal(out, "200 over tls");
    assert.deepEqual(seen, ["Bearer trusted"]);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test("a kept-alive connection the server closed as it was taken: the request goes again on a new one; a fresh connection reset is a failure", async () => {
  const s = await serve((req, res) => {
    req.socket.served = (req.socket.served ?? 0) + 1;
    // The second request on a connection finds it closed: the server let it go.
    if (req.socket.served === 2) return req.socket.destroy();
    res.end(`answer ${req.socket.served}`);
  });
  let resets = 0;
  const r = await serve((req) => {
    resets += 1;
    req.socket.destroy();
  });
  try {
    assert.equal(await (await nodeFetch(`${s.url}/a`)).text(), "answer 1");
    // Sent on the kept connection, which the server closes; then on a new one.
    assert.equal(await (await nodeFetch(`${s.url}/a`)).text(), "answer 1");
    await assert.rejects(nodeFetch(r.url), (e) => e.message === "fetch failed" && e.cause.code === "ECONNRESET");
    assert.equal(resets, 1);
  } finally {
    await Promise.all([s.close(), r.close()]);
  }
});
