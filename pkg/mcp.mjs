// chromafs/mcp in Node: the docs' MCP tools (mcp-server.mjs) served over stdio, as desktop and
// command-line agents launch servers, and over streamable HTTP at `/mcp`.
//
// What is kept between calls is the chromafs session per group set — its listing, its page
// cache — so calls cost what a session's commands cost, not a new connect each.
//
// Access: over stdio the groups are the server's (`groups`); over HTTP they come from the
// request through `authorize(request)` (a bearer-token file by default, compared in constant
// time), never from the client's say-so.
import { createServer } from "node:http";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ChromaFs } from "./node.mjs";
import { createMcpServer } from "./mcp-server.mjs";

export { MAX_OUTPUT, createMcpServer, answerMcp, tokenAuthorizer } from "./mcp-server.mjs";

/** Sessions kept open at once, one per group set. */
const MAX_SESSIONS = 32;

/** Sessions by group set: one connect per set, reused by every call that has it. */
function sessions(connectOptions) {
  const open = new Map();
  return (groups) => {
    const key = JSON.stringify([...new Set(groups)].sort());
    let fs = open.get(key);
    if (!fs) {
      fs = ChromaFs.connect({ ...connectOptions, groups: JSON.parse(key) });
      fs.catch(() => open.delete(key));
      open.set(key, fs);
      if (open.size > MAX_SESSIONS) open.delete(open.keys().next().value);
    } else {
      open.delete(key);
      open.set(key, fs);
    }
    return fs;
  };
}

/** Serves the tools over stdio, as desktop and command-line agents launch servers. */
export async function serveStdio(connectOptions, options = {}) {
  const session = sessions(connectOptions);
  const server = createMcpServer(() => session(connectOptions.groups ?? []), options);
  await server.connect(new StdioServerTransport());
  return server;
}

/**
 * Serves the tools over streamable HTTP at `/mcp`. Each request is answered by a server for
 * the groups `authorize(req)` gives (`null`: public pages only, or 401 with `requireToken`).
 * Resolves with `{ url, close() }`.
 */
export async function serveHttp(connectOptions, { port = 0, host = "127.0.0.1", authorize = () => null, requireToken = false, ...options } = {}) {
  const session = sessions(connectOptions);
  const http = createServer(async (req, res) => {
    if (new URL(req.url, "http://localhost").pathname !== "/mcp") {
      res.writeHead(404).end("not found\n");
      return;
    }
    let groups;
    try {
      groups = await authorize(req);
    } catch {
      groups = null;
    }
    if (groups == null && requireToken) {
      res.writeHead(401, { "www-authenticate": "Bearer" }).end("a valid bearer token is required\n");
      return;
    }
    try {
      const server = createMcpServer(() => session(groups ?? []), options);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (e) {
      // The cause (an address, a status) is for the operator's log, not for the client.
      console.error("chromafs mcp:", e);
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "the docs are not reachable" }, id: null }));
    }
  });
  await new Promise((resolve) => http.listen(port, host, resolve));
  const { port: actual } = http.address();
  return {
    url: `http://${host}:${actual}/mcp`,
    close: () => new Promise((resolve) => http.close(resolve)),
  };
}
