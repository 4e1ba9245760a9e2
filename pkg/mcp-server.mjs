// The docs' MCP tools, for any runtime: Node, Deno, Bun, Cloudflare Workers, edge functions.
//
// `createMcpServer` gives an MCP server (the official SDK's) with two tools over one chromafs
// session: `bash`, one command line in a read-only shell over the docs, and `search`, the
// ranked search. Calls are stateless, as on Mintlify's docs servers: every call starts in `/`
// with nothing left over from the last (an agent's tool calls may come from several
// conversations at once, and a `cd` that outlived its call would surprise the next).
//
// `answerMcp` answers one streamable-HTTP request with such a server, from a fetch `Request`
// to a `Response`, which is all an edge function needs. `tokenAuthorizer` maps bearer tokens
// to groups with WebCrypto, so it runs where `node:crypto` does not. Node's stdio and HTTP
// servers are in mcp.mjs.
import { Bash } from "just-bash";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { safeExec, toolDescription } from "./dist/api.mjs";

/** The most characters a tool result holds (as bash-tool and Mintlify's docs servers cap it). */
export const MAX_OUTPUT = 30_000;

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

/**
 * Answers one streamable-HTTP MCP request (JSON responses, no MCP session: each request
 * stands alone) with `server`, which is closed once the answer is written.
 */
export async function answerMcp(request, server) {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await transport.close();
    await server.close();
  }
}

async function digest(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Equal digests, in a time that does not depend on where they differ. */
function sameDigest(a, b) {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * `authorize(request)` from a token map (`{ "TOKEN": ["group", …] }`): the groups of the
 * request's `Authorization: Bearer TOKEN`, compared with every token in constant time;
 * `null` for a missing or unknown token. `request` is a fetch `Request` or Node's
 * `IncomingMessage`.
 */
export function tokenAuthorizer(tokens) {
  const entries = Object.entries(tokens).map(([token, groups]) => {
    if (!Array.isArray(groups) || groups.some((g) => typeof g !== "string")) throw new TypeError("tokens map each token to an array of group names");
    return [token, groups];
  });
  const known = Promise.all(entries.map(async ([token, groups]) => [await digest(token), groups]));
  return async (request) => {
    const header = typeof request.headers.get === "function" ? request.headers.get("authorization") : request.headers.authorization;
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
    if (!m) return null;
    const given = await digest(m[1]);
    let found = null;
    for (const [d, groups] of await known) if (sameDigest(d, given) && !found) found = groups;
    return found;
  };
}
