// A read-only bash over the docs in a Chroma collection: POST /exec {command, groups}, and
// the same docs as an MCP server (streamable HTTP) at /mcp.
import { Bash } from "just-bash/browser";
import { safeExec } from "chromafs";
import { connect } from "./session.js";
import { mcp, resourceMetadata } from "./mcp.js";

const json = (body, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/mcp") return mcp(request, env);
    if (pathname === "/.well-known/oauth-protected-resource" || pathname === "/.well-known/oauth-protected-resource/mcp") {
      return resourceMetadata(request, env) ?? json({ error: "not found" }, 404);
    }
    if (pathname !== "/exec") return json({ error: "not found" }, 404);
    if (request.method !== "POST") return json({ error: "use POST" }, 405);

    let body;
    try {
      body = await request.json();
    } catch {
      return json({ error: "body must be JSON" }, 400);
    }
    const { command, groups = [] } = body ?? {};
    if (typeof command !== "string" || command === "") {
      return json({ error: "`command` must be a non-empty string" }, 400);
    }
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === "string")) {
      return json({ error: "`groups` must be an array of strings" }, 400);
    }

    // SECURITY: `groups` decides which pages exist for this session. A real deployment
    // must derive them from the caller's verified identity (a validated JWT, Cloudflare
    // Access headers...), never take them from the request body as this demo does; /mcp
    // shows the way, with bearer tokens.
    let fs;
    try {
      fs = await connect(env, groups);
    } catch (error) {
      // The cause (URL, status, Chroma's message) goes to the logs, not to the caller.
      console.error("chromafs connect failed:", error);
      return json({ error: "the docs database is unavailable" }, 502);
    }
    try {
      // fs.commands() replaces grep/rg with versions that ask Chroma which pages can
      // match, instead of reading every page.
      const connectRequests = fs.stats().requests;
      const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
      // safeExec: the command line is one command for the budget, a read that failed
      // anywhere in it shows on stderr with a failing exit code, and a failed top-level
      // redirection (`echo x > /a.md`) becomes bash's error line instead of a rejection.
      const { stdout, stderr, exitCode } = await safeExec(bash, command);
      const stats = fs.stats();
      // What the command cost, apart from opening the session.
      return json({
        stdout,
        stderr,
        exitCode,
        requests: stats.requests - connectRequests,
        connectRequests,
        // Pages read from this isolate's memory, then from the data centre's Cache API.
        processHits: stats.processHits,
        sharedHits: stats.sharedHits,
      });
    } finally {
      fs.free();
    }
  },
};
