// The docs as an MCP server over streamable HTTP: tools `bash` and `search`, each call
// stateless. Each request is answered on its own (no MCP session to keep between isolates).
//
// Access comes from the bearer token: the MCP_TOKENS secret maps tokens to groups,
// `{"TOKEN": ["admin"]}` (`wrangler secret put MCP_TOKENS`). A request without a known
// token sees the public pages, or gets a 401 when REQUIRE_TOKEN is "true".
import { createMcpServer, answerMcp, tokenAuthorizer } from "chromafs/mcp";
import { connect } from "./session.js";

let authorizer;
let authorizerFor;

/** The tokens' authorizer, built once per isolate (and again if the secret changes). */
function authorize(env, request) {
  const tokens = env.MCP_TOKENS ?? "{}";
  if (authorizerFor !== tokens) {
    authorizer = tokenAuthorizer(JSON.parse(tokens));
    authorizerFor = tokens;
  }
  return authorizer(request);
}

export async function mcp(request, env) {
  const groups = await authorize(env, request);
  if (groups == null && env.REQUIRE_TOKEN === "true") {
    return new Response("a valid bearer token is required\n", { status: 401, headers: { "www-authenticate": "Bearer" } });
  }
  let fs;
  try {
    fs = await connect(env, groups ?? []);
  } catch (error) {
    console.error("chromafs connect failed:", error);
    const body = { jsonrpc: "2.0", error: { code: -32000, message: "the docs database is unavailable" }, id: null };
    return new Response(JSON.stringify(body), { status: 502, headers: { "content-type": "application/json" } });
  }
  try {
    const server = createMcpServer(fs, { docs: env.DOCS_NAME ?? "the documentation" });
    return await answerMcp(request, server);
  } finally {
    fs.free();
  }
}
