// chromafs/mcp: the docs as a Model Context Protocol server, for any agent that takes tools
// over MCP (Claude Desktop and Code, Cursor, VS Code, agents built on the MCP SDKs).
//
// Two tools: `bash`, one command line in a read-only shell over the docs, and `search`, the
// ranked search. Calls are stateless, as on Mintlify's docs servers: every call starts in
// `/` with nothing left over from the last (an agent's tool calls may come from several
// conversations at once, and a `cd` that outlived its call would surprise the next). What is
// kept is the chromafs session per group set — its listing, its page cache — so calls cost
// what a session's commands cost, not a new connect each.
//
// Access: over stdio the groups are the server's (`groups`); over HTTP they come from the
// request through `authorize(request)` (a bearer-token file by default, compared in constant
// time), never from the client's say-so.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { Bash } from "just-bash";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { ChromaFs, safeExec, toolDescription } from "./node.mjs";

/** The most characters a tool result holds (as bash-tool and Mintlify's docs servers cap it). */
export const MAX_OUTPUT = 30_000;
/** Sessions kept open at once, one per group set. */
const MAX_SESSIONS = 32;

function cap(text) {
  if (text.length <= MAX_OUTPUT) return text;
  return (
    text.slice(0, MAX_OUTPUT) +
    `\n[output cut at ${MAX_OUTPUT.toLocaleString("en")} characters: narrow the command (grep -l, head -n 50, a smaller path, sed -n 'START,ENDp')]`
  );
}

/** A tool result: stdout, then stderr and the exit code when the command failed. */
function shown({ stdout, stderr, exitCode }) {
  let text = stdout;
  if (stderr) text += (text && !text.endsWith("\n") ? "\n" : "") + stderr;
  if (exitCode !== 0) text += `${text && !text.endsWith("\n") ? "\n" : ""}[exit code ${exitCode}]`;
  return cap(text || "(no output)");
}

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

/**
 * An MCP server with the docs' tools for one session: `session` is a connected ChromaFs, or
 * a function that resolves to one (called on each tool call, so that a session that cannot
 * connect is a tool error, not a protocol error). `toolPrefix` names the tools (`docs_`
 * gives `docs_bash`, `docs_search`); `docs` says what the docs are, for their descriptions.
 */
export function createMcpServer(session, { toolPrefix = "", docs = "the documentation", name = "chromafs" } = {}) {
  const server = new McpServer({ name, version: "0.1.0" });
  const open = typeof session === "function" ? session : () => session;
  server.registerTool(
    `${toolPrefix}bash`,
    {
      description:
        toolDescription({ docs }) +
        `\n\nEach call is one command line, run on its own: it starts in / and nothing carries over to the next call. ` +
        `Output is cut at ${MAX_OUTPUT.toLocaleString("en")} characters. Use the search tool first when you do not know the exact words.`,
      inputSchema: { command: z.string().min(1).describe("one bash command line, e.g. grep -rn 'api_key' / | head -20") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ command }) => {
      try {
        const fs = await open();
        const before = fs.stats().failures;
        const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
        const r = await safeExec(bash, command);
        // A read that failed (Chroma down, a budget spent) is a tool error, not an answer.
        return { content: [{ type: "text", text: shown(r) }], isError: fs.stats().failures > before };
      } catch (e) {
        return { content: [{ type: "text", text: `bash: ${e?.message ?? e}` }], isError: true };
      }
    },
  );
  server.registerTool(
    `${toolPrefix}search`,
    {
      description:
        `Ranked search over ${docs}: the pages that best answer a question, best first, each as PATH:START-END ` +
        "with its most telling line. Read a hit with the bash tool (sed -n 'START,ENDp' PATH), then grep for exact strings. " +
        "Use it when you do not know the exact words; use grep in the bash tool for every occurrence of a known string.",
      inputSchema: {
        query: z.string().min(1).describe("a question or keywords, e.g. how do I rotate an API key"),
        k: z.number().int().min(1).max(50).optional().describe("pages to return (default 10)"),
        path: z.string().optional().describe("search only under this directory, e.g. /api"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, k, path }) => {
      const args = ["-n", String(k ?? 10), ...(path ? ["--path", path] : []), "--", query];
      let fs, mark;
      try {
        fs = await open();
        mark = fs.beginCommand();
        const r = await fs.searchCommand(args, "/");
        return { content: [{ type: "text", text: shown(r) }], isError: r.exitCode === 2 };
      } catch (e) {
        return { content: [{ type: "text", text: `search: ${e?.message ?? e}` }], isError: true };
      } finally {
        if (mark !== undefined) fs.endCommand(mark);
      }
    },
  );
  return server;
}

/** Serves the tools over stdio, as desktop and command-line agents launch servers. */
export async function serveStdio(connectOptions, options = {}) {
  const session = sessions(connectOptions);
  const server = createMcpServer(() => session(connectOptions.groups ?? []), options);
  await server.connect(new StdioServerTransport());
  return server;
}

function digest(s) {
  return createHash("sha256").update(s).digest();
}

/**
 * `authorize(request)` from a token map (`{ "TOKEN": ["group", …] }`): the groups of the
 * request's `Authorization: Bearer TOKEN`, compared with every token in constant time;
 * `null` for a missing or unknown token.
 */
export function tokenAuthorizer(tokens) {
  const known = Object.entries(tokens).map(([t, groups]) => {
    if (!Array.isArray(groups) || groups.some((g) => typeof g !== "string")) throw new TypeError("tokens map each token to an array of group names");
    return [digest(t), groups];
  });
  return (req) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    if (!m) return null;
    const given = digest(m[1]);
    let found = null;
    for (const [d, groups] of known) if (timingSafeEqual(d, given) && !found) found = groups;
    return found;
  };
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
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: `the docs are not reachable: ${e?.message ?? e}` }, id: null }));
    }
  });
  await new Promise((resolve) => http.listen(port, host, resolve));
  const { port: actual } = http.address();
  return {
    url: `http://${host}:${actual}/mcp`,
    close: () => new Promise((resolve) => http.close(resolve)),
  };
}
