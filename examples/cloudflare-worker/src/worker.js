// A read-only bash over the docs in a Chroma collection: POST /exec {command, groups}.
import { Bash } from "just-bash/browser";
import { ChromaFs, safeExec, workersCache } from "chromafs";

const json = (body, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
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
    // Access headers...), never take them from the request body as this demo does.
    //
    // One session per request is cheap: chromafs keeps the decoded path tree in the
    // isolate, so only the first request an isolate serves pays for loading it; later
    // ones check it is still current with one small request.
    let fs;
    try {
      fs = await ChromaFs.connect({
        url: env.CHROMA_URL,
        collection: env.CHROMA_COLLECTION,
        // Chroma Cloud needs these; a local server uses the defaults. Keep the token a secret.
        tenant: env.CHROMA_TENANT,
        database: env.CHROMA_DATABASE,
        token: env.CHROMA_TOKEN,
        groups,
        // Pages fetched by any isolate of this data centre are read from the Cache API
        // by the others; keys carry the tree version, so a re-ingest is never served stale.
        sharedCache: workersCache(caches.default),
        // Workers allow 50 subrequests per request on the free plan (1,000 paid): a
        // command that would need more stops with a clear error instead of failing
        // half-way. Raise it on a paid plan.
        maxRequestsPerCommand: Number(env.MAX_REQUESTS_PER_COMMAND ?? 50),
        // An agent's tool call needs an answer in bounded time.
        commandTimeoutMs: 20000,
      });
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
      return json({ stdout, stderr, exitCode, requests: stats.requests - connectRequests, connectRequests, sharedHits: stats.sharedHits });
    } finally {
      fs.free();
    }
  },
};
