// Credentials stay home: a kept tree never answers a connect made with other
// credentials, and Chroma's token and the host's headers never follow a redirect to
// another origin.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

let proxy;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "credentials", files: [{ path: "a.md", content: "alpha\n" }, { path: "b.md", content: "bravo\n" }] });
  proxy = await startProxy(chromaUrl());
});
after(() => proxy.close());

test("a connect with a wrong token, or none, is refused even when the tree is kept", async () => {
  // A reverse proxy that accepts only the right token, as Chroma Cloud does.
  proxy.state.respond = (req) => (req.headers["x-chroma-token"] === "good" ? null : { status: 401, body: '{"error":"Unauthorized","message":"bad token"}' });
  try {
    const good = await ChromaFs.connect({ url: proxy.url, collection: "credentials", token: "good" });
    assert.deepEqual(good.getAllPaths(), ["/", "/a.md", "/b.md"]);
    for (const other of [{ token: "wrong" }, {}, { headers: { "x-chroma-token": "wrong" } }]) {
      await assert.rejects(ChromaFs.connect({ url: proxy.url, collection: "credentials", ...other }), {
        code: "EIO",
        message: `EIO: i/o error, connect 'credentials': Chroma answered HTTP 401 to collection "credentials": bad token`,
      });
    }
    // Even a host that accepts a stale tree gets none loaded with other credentials.
    await assert.rejects(ChromaFs.connect({ url: proxy.url, collection: "credentials", token: "wrong", treeMaxAgeMs: 600000 }), /HTTP 401/);
    assert.ok((await ChromaFs.connect({ url: proxy.url, collection: "credentials", token: "good", treeMaxAgeMs: 600000 })).stats().treeFromCache);
  } finally {
    proxy.reset();
  }
});

test("a redirect to another origin is refused, and that origin receives nothing", async () => {
  const received = [];
  const elsewhere = http.createServer((req, res) => {
    received.push(req.headers);
    res.end("{}");
  });
  await new Promise((r) => elsewhere.listen(0, "127.0.0.1", r));
  const target = `http://127.0.0.1:${elsewhere.address().port}/steal`;
  try {
    const fs = await ChromaFs.connect({ url: proxy.url, collection: "credentials", token: "ck-secret", headers: { "x-team": "docs" } });
    proxy.state.respond = (req) => (req.url.endsWith("/get") ? { status: 307, headers: { location: target } } : null);
    await assert.rejects(fs.readFile("/b.md"), {
      code: "EIO",
      message: `EIO: i/o error, open '/b.md': Chroma answered page "b.md" with a redirect (HTTP 307) to ${target}, another origin: not followed (credentials go only to ${proxy.url})`,
    });
    await assert.rejects(ChromaFs.connect({ url: proxy.url, collection: "credentials", token: "ck-secret", headers: { "x-team": "docs" } }), /another origin: not followed/);
    assert.deepEqual(received, [], "nothing reached the other origin");
  } finally {
    proxy.reset();
    elsewhere.close();
  }
});
