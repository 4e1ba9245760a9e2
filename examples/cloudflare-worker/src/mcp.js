// The docs as an MCP server over streamable HTTP: tools `bash` and `search`, each call
// stateless. Each request is answered on its own (no MCP session to keep between isolates).
//
// Who calls decides which pages exist, and it comes from a credential, never from the client:
// - OAuth (OAUTH_ISSUER set): the access tokens of the company's identity provider, JWTs
//   checked with its published keys (signature, issuer, audience = this endpoint's URL,
//   expiry); the groups come from the GROUPS_CLAIM claim (default `groups`). The worker then
//   publishes its protected-resource metadata at /.well-known/oauth-protected-resource and
//   every 401 points at it, so MCP clients know where to sign their users in.
// - Otherwise the MCP_TOKENS secret maps bearer tokens to groups, `{"TOKEN": ["admin"]}`
//   (`wrangler secret put MCP_TOKENS`).
// A request without a token sees the public pages, or gets a 401 when REQUIRE_TOKEN is "true".
import { createMcpServer, answerMcp, admit, jwtAuthorizer, tokenAuthorizer, protectedResourceMetadata } from "chromafs/mcp";
import { connect } from "./session.js";

// Built once per isolate (and again if the settings change): the OAuth authorizer keeps
// the provider's keys, so a request costs no call to the provider.
let authorizer;
let authorizerFor;

/** This endpoint's public URL: PUBLIC_URL, else the address the request came to. */
const resourceOf = (env, request) => env.PUBLIC_URL ?? new URL("/mcp", request.url).href;

function authorizerOf(env, resource) {
  const settings = JSON.stringify([env.OAUTH_ISSUER, env.OAUTH_AUDIENCE, env.OAUTH_JWKS, env.GROUPS_CLAIM, resource, env.MCP_TOKENS]);
  if (authorizerFor !== settings) {
    authorizer = env.OAUTH_ISSUER
      ? jwtAuthorizer({ issuer: env.OAUTH_ISSUER, audience: env.OAUTH_AUDIENCE ?? resource, jwks: env.OAUTH_JWKS, groupsClaim: env.GROUPS_CLAIM })
      : tokenAuthorizer(JSON.parse(env.MCP_TOKENS ?? "{}"));
    authorizerFor = settings;
  }
  return authorizer;
}

/** The RFC 9728 metadata, when the worker is an OAuth resource server; else null. */
export function resourceMetadata(request, env) {
  if (!env.OAUTH_ISSUER) return null;
  const body = protectedResourceMetadata({ resource: resourceOf(env, request), issuer: env.OAUTH_ISSUER });
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "access-control-allow-origin": "*" } });
}

const jsonRpcError = (status, message, headers = {}) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), { status, headers: { "content-type": "application/json", ...headers } });

export async function mcp(request, env) {
  const resource = resourceOf(env, request);
  const admitted = await admit(request, {
    authorize: authorizerOf(env, resource),
    requireToken: env.REQUIRE_TOKEN === "true",
    resource: env.OAUTH_ISSUER ? resource : null,
  });
  if (admitted.status) {
    if (admitted.cause) console.error("chromafs mcp:", admitted.cause.message);
    return jsonRpcError(admitted.status, admitted.message, admitted.headers);
  }
  let fs;
  try {
    fs = await connect(env, admitted.groups);
  } catch (error) {
    console.error("chromafs connect failed:", error);
    return jsonRpcError(502, "the docs database is unavailable");
  }
  try {
    const server = createMcpServer(fs, { docs: env.DOCS_NAME ?? "the documentation", baseUrl: env.BASE_URL });
    return await answerMcp(request, server);
  } finally {
    fs.free();
  }
}
