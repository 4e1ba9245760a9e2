#!/usr/bin/env node
// Serves the chromafs demo page and a same-origin proxy to Chroma, so the page needs no
// CORS set-up and no token in the browser.
//   node server.mjs [--port 8080] [--host 127.0.0.1] [--chroma http://127.0.0.1:8000]
//                   [--collection chromafs-docs] [--token T]
//   GET /              index.html
//   GET /dist/…        the bundle (node build.mjs) and chromafs's wasm
//   GET /config.json   { collection, embed } for the page
//   POST /embed        { texts } → { embeddings }: the query of a ranked search embedded
//                      with the built-in model (chromafs/embed), as a host's own embedding
//                      service would; `embed` in config.json says whether it is available
//   ANY /chroma/…      forwarded to the Chroma server (x-chroma-token added when given)
import { createServer, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, extname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const distDir = join(here, "dist");

const USAGE = `Usage: node server.mjs [options]
  --port N           port to listen on (default 8080; 0 picks a free one)
  --host H           address to listen on (default 127.0.0.1)
  --chroma URL       Chroma server to proxy /chroma/* to (default $CHROMAFS_URL, else http://127.0.0.1:8000)
  --collection NAME  collection the page opens (default $CHROMAFS_COLLECTION, else chromafs-docs)
  --token TOKEN      sent to Chroma as x-chroma-token (default $CHROMAFS_TOKEN)
`;

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
};

// Hop-by-hop headers are not forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      chroma: { type: "string" },
      collection: { type: "string" },
      token: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const port = Number(values.port ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got '${values.port}'`);
  const chroma = new URL(values.chroma ?? process.env.CHROMAFS_URL ?? "http://127.0.0.1:8000");
  if (!/^https?:$/.test(chroma.protocol)) throw new Error(`--chroma must be an http(s) URL, got '${values.chroma}'`);
  return {
    port,
    host: values.host ?? "127.0.0.1",
    chroma,
    collection: values.collection ?? process.env.CHROMAFS_COLLECTION ?? "chromafs-docs",
    token: values.token ?? process.env.CHROMAFS_TOKEN ?? "",
  };
}

// What one /embed call may ask: a page's search embeds one query at a time.
const EMBED_TEXTS = 8;
const EMBED_CHARS = 2000;

/** The built-in model, or null (with why) when it is not installed. */
async function loadEmbedder() {
  try {
    const { createEmbedder } = await import("chromafs/embed");
    return await createEmbedder();
  } catch (e) {
    process.stderr.write(`search in the page ranks by words only: ${e.message}\n`);
    return null;
  }
}

/** POST /embed: `{ texts }` → `{ embeddings }`, bounded, for the page's ranked search. */
function embedHandler(embedder) {
  return (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => {
      body += c;
      if (body.length > EMBED_TEXTS * EMBED_CHARS * 2) req.destroy();
    });
    req.on("end", async () => {
      let texts;
      try {
        texts = JSON.parse(body).texts;
      } catch {
        texts = null;
      }
      if (!Array.isArray(texts) || texts.length > EMBED_TEXTS || texts.some((t) => typeof t !== "string" || t.length > EMBED_CHARS)) {
        send(res, 400, `expected {"texts": [...]}: at most ${EMBED_TEXTS} strings of ${EMBED_CHARS} characters\n`);
        return;
      }
      const vectors = await embedder.embed(texts);
      send(res, 200, JSON.stringify({ embeddings: vectors.map((v) => Array.from(v)) }), { "content-type": MIME[".json"] });
    });
  };
}

/** Starts the server; resolves once it listens, with its URL. */
export async function startServer({ port = 8080, host = "127.0.0.1", chroma, collection, token = "" }) {
  const target = new URL(chroma);
  const basePath = target.pathname.replace(/\/+$/, "");
  const embedder = await loadEmbedder();
  const embed = embedder && embedHandler(embedder);
  const config = JSON.stringify({ collection, embed: Boolean(embedder) });

  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    if (url.pathname === "/embed" && req.method === "POST" && embed) {
      embed(req, res);
      return;
    }
    if (url.pathname === "/chroma" || url.pathname.startsWith("/chroma/")) {
      proxy(req, res, target, basePath + url.pathname.slice("/chroma".length) + url.search, token);
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, "method not allowed\n", { allow: "GET, HEAD" });
      return;
    }
    if (url.pathname === "/config.json") {
      send(res, 200, config, { "content-type": MIME[".json"], "cache-control": "no-store" }, req.method);
      return;
    }
    if (url.pathname === "/" || url.pathname === "/index.html") {
      serveFile(req, res, join(here, "index.html"));
      return;
    }
    if (url.pathname.startsWith("/dist/")) {
      let rel;
      try {
        rel = decodeURIComponent(url.pathname.slice("/dist/".length));
      } catch {
        send(res, 400, "bad path\n");
        return;
      }
      const file = join(distDir, rel);
      if (!file.startsWith(distDir + sep) || rel.includes("\0")) {
        send(res, 404, "not found\n");
        return;
      }
      serveFile(req, res, file);
      return;
    }
    send(res, 404, "not found\n");
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  // A wildcard address is reachable on loopback; show that one.
  const shown = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  const shownHost = shown.includes(":") ? `[${shown}]` : shown;
  return { server, url: `http://${shownHost}:${address.port}/` };
}

function send(res, status, body, headers = {}, method = "GET") {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body), ...headers });
  res.end(method === "HEAD" ? undefined : body);
}

async function serveFile(req, res, file) {
  const info = await stat(file).catch(() => null);
  if (!info || !info.isFile()) {
    send(res, 404, "not found\n");
    return;
  }
  res.writeHead(200, {
    "content-type": MIME[extname(file)] ?? "application/octet-stream",
    "content-length": info.size,
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
  });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  createReadStream(file)
    .on("error", () => res.destroy())
    .pipe(res);
}

/** Forwards one request to Chroma, streaming both ways. */
function proxy(req, res, target, path, token) {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || name === "host" || name === "origin" || name === "referer" || name === "cookie") continue;
    headers[name] = value;
  }
  headers.host = target.host;
  if (token) headers["x-chroma-token"] = token;
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  const upstream = request(
    {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port || undefined,
      method: req.method,
      path,
      headers,
    },
    (up) => {
      const out = {};
      for (const [name, value] of Object.entries(up.headers)) {
        if (!HOP_BY_HOP.has(name)) out[name] = value;
      }
      res.writeHead(up.statusCode ?? 502, out);
      up.pipe(res);
      up.on("error", () => res.destroy());
    },
  );
  upstream.on("error", (error) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({ error: "ChromaUnreachable", message: `proxy: ${error.message}` });
    res.writeHead(502, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  req.on("aborted", () => upstream.destroy());
  req.pipe(upstream);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`server.mjs: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  await stat(join(distDir, "app.js")).catch(() => {
    process.stderr.write(`server.mjs: ${join(distDir, "app.js")} is missing; run node build.mjs first\n`);
    process.exit(1);
  });
  const { server, url } = await startServer(options).catch((error) => {
    process.stderr.write(`server.mjs: ${error.message}\n`);
    process.exit(1);
  });
  process.stdout.write(`chromafs demo page: ${url}\n`);
  process.stderr.write(`proxying /chroma/* to ${options.chroma.href.replace(/\/$/, "")}, collection ${options.collection}\n`);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
