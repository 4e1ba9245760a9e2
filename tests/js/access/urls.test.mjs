// URLs that read one way to a careless parser and another way to `fetch`: a backslash
// ends the authority of an http(s) URL, so `http://127.0.0.1:EVIL\@127.0.0.1:GOOD/` is a
// request to port EVIL. Real servers on 127.0.0.1 play each part; every test checks that
// the server a spelling would reach received nothing, and that messages carry neither a
// query string nor a user name or password.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl } from "../helpers.mjs";
import { startProxy, listen, chroma, collectionId } from "../../../support/proxy.mjs";

let proxy;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "urls", files: [{ path: "a.md", content: "alpha\n" }] });
  proxy = await startProxy(chromaUrl());
});
after(() => proxy.close());

/** An HTTP server that records every request and answers with `answer(req, res)`. */
async function server(answer = (req, res) => res.end("SERVED BY THE WRONG SERVER\n")) {
  const received = [];
  const s = http.createServer((req, res) => {
    received.push({ url: req.url, headers: req.headers });
    answer(req, res);
  });
  const { url, close } = await listen(s);
  return { url, port: Number(new URL(url).port), received, close };
}

/** Writes a path tree naming lazy files by URL, as another tool could. */
async function treeWithUrls(collection, entries) {
  await ingest({ url: chromaUrl(), collection, files: [{ path: "index.md", content: "home\n" }] });
  const id = await collectionId(chromaUrl(), collection);
  const tree = { "index.md": { isPublic: true, size: 5 } };
  for (const [path, url] of Object.entries(entries)) tree[path] = { isPublic: true, url };
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], metadatas: [{ chromafs: "path-tree" }], documents: [JSON.stringify(tree)],
  });
  ChromaFs.forgetTrees();
}

test("a redirect whose backslash hides another port is refused, and that port receives nothing", async () => {
  const evil = await server();
  const proxyPort = new URL(proxy.url).port;
  try {
    const fs = await ChromaFs.connect({ url: proxy.url, collection: "urls", token: "ck-secret", headers: { "x-team": "docs" } });
    const location = `http://127.0.0.1:${evil.port}\\@127.0.0.1:${proxyPort}/steal`;
    proxy.state.respond = (req) => (req.url.endsWith("/get") ? { status: 307, headers: { location } } : null);
    await assert.rejects(fs.readFile("/a.md"), {
      code: "EIO",
      message: `EIO: i/o error, open '/a.md': Chroma answered page "a.md" with a redirect (HTTP 307) to http://127.0.0.1:${evil.port}/@127.0.0.1:${proxyPort}/steal, another origin: not followed (credentials go only to ${proxy.url})`,
    });
    assert.deepEqual(evil.received, [], "nothing reached the port behind the backslash");
  } finally {
    proxy.reset();
    await evil.close();
  }
});

test("a refused redirect's message shows no query string and no user name or password", async () => {
  const evil = await server();
  try {
    const fs = await ChromaFs.connect({ url: proxy.url, collection: "urls", token: "ck-secret" });
    const messages = [];
    for (const location of [
      `http://127.0.0.1:${evil.port}/steal?X-Amz-Signature=SIGNED-SECRET`,
      `http://alice:PASSWORD-SECRET@127.0.0.1:${evil.port}/steal?sig=SIGNED-SECRET`,
      `${proxy.url}/moved?sig=SIGNED-SECRET`.replace("http://", "http://alice:PASSWORD-SECRET@"),
    ]) {
      proxy.state.respond = (req) => (req.url.endsWith("/get") ? { status: 307, headers: { location } } : null);
      const e = await fs.readFile("/a.md").then(() => null, (e) => e);
      assert.equal(e?.code, "EIO", location);
      messages.push(e.message);
    }
    assert.equal(
      messages[0],
      `EIO: i/o error, open '/a.md': Chroma answered page "a.md" with a redirect (HTTP 307) to http://127.0.0.1:${evil.port}/steal?[redacted], another origin: not followed (credentials go only to ${proxy.url})`,
    );
    for (const m of messages) {
      assert.ok(!/SECRET|alice/.test(m), m);
    }
    assert.match(messages[1], /user name or password/);
    assert.match(messages[2], /user name or password/);
    assert.deepEqual(evil.received, []);
  } finally {
    proxy.reset();
    await evil.close();
  }
});

test("with lazyOrigins, a redirect or a tree URL whose backslash hides another port is refused", async () => {
  const b = await server((req, res) => res.end("B-PRIVATE-ANSWER\n"));
  let a;
  a = await server((req, res) => {
    if (req.url === "/spec.json") res.writeHead(302, { location: `http://127.0.0.1:${b.port}\\@127.0.0.1:${a.port}/steal` }).end();
    else res.end("from A\n");
  });
  try {
    await treeWithUrls("urls-lazy", {
      "specs/moved.json": `${a.url}/spec.json`,
      "specs/direct.json": `http://127.0.0.1:${b.port}\\@127.0.0.1:${a.port}/steal`,
    });
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "urls-lazy", lazyOrigins: [a.url] });
    await assert.rejects(fs.readFile("/specs/moved.json"), {
      code: "EIO",
      message: `EIO: i/o error, open '/specs/moved.json': GET ${a.url}/spec.json redirected to http://127.0.0.1:${b.port}/@127.0.0.1:${a.port}/steal, refused: http://127.0.0.1:${b.port} is not one of the lazyOrigins`,
    });
    await assert.rejects(fs.readFile("/specs/direct.json"), {
      code: "EIO",
      message: `EIO: i/o error, open '/specs/direct.json': GET http://127.0.0.1:${b.port}/@127.0.0.1:${a.port}/steal refused: http://127.0.0.1:${b.port} is not one of the lazyOrigins`,
    });
    assert.equal(a.received.length, 1, "A was asked once, for the file it redirected");
    assert.deepEqual(b.received, [], "B received nothing");
  } finally {
    await a.close();
    await b.close();
  }
});

test("by default, a tree URL that names a public host before a backslash reaches no loopback port", async () => {
  let connections = 0;
  const c = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  const { url, close } = await listen(c);
  const port = new URL(url).port;
  try {
    await treeWithUrls("urls-default", { "spec.json": `https://127.0.0.1:${port}\\@example.com/spec.json` });
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "urls-default" });
    await assert.rejects(fs.readFile("/spec.json"), {
      code: "EIO",
      message: `EIO: i/o error, open '/spec.json': GET https://127.0.0.1:${port}/@example.com/spec.json refused: https://127.0.0.1:${port} is a loopback, link-local or private address (set lazyOrigins to allow it)`,
    });
    assert.equal(connections, 0, "no connection was made to the loopback port");
  } finally {
    await close();
  }
});

test("a URL with a user name or password is refused, without echoing the password", async () => {
  await assert.rejects(ChromaFs.connect({ url: `http://alice:PASSWORD-SECRET@${new URL(proxy.url).host}`, collection: "urls" }), (e) => {
    assert.equal(e.code, "EINVAL");
    assert.equal(e.message, "option url must not contain a user name or password (pass credentials with token or headers)");
    return true;
  });
  await treeWithUrls("urls-userinfo", { "spec.json": "https://alice:PASSWORD-SECRET@cdn.example.com/spec.json?sig=SIGNED-SECRET" });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "urls-userinfo" });
  await assert.rejects(fs.readFile("/spec.json"), (e) => {
    assert.equal(e.code, "EIO");
    assert.ok(!/SECRET|alice/.test(e.message), e.message);
    assert.match(e.message, /user name or password/);
    return true;
  });
});
