// What an MCP endpoint decides before it reads a request: whether it takes it, and from whom.
//
// The rules first: the specification's Origin and Host rule (a web page the user visits must
// not drive the server from their browser, and a name rebound to 127.0.0.1 must not reach a
// server on loopback), one Host per request (RFC 9112 §3.2), and CORS for the browser origins
// the operator allowed — those, and no others, get the headers a browser needs to call the
// endpoint and read its answers.
//
// Then who makes the request (`admit`): the groups that decide which pages exist for it,
// and the caller the per-caller limits count. Both come from what the server authenticated,
// never from how the request spelled it: a token written with another scheme case or more
// spaces is the same caller, ten made-up tokens from one address are that address, and ten
// tokens of one OAuth subject are that subject.
//
// Callers are keys built from their parts by JSON (injective): a `--tokens` entry, an OAuth
// issuer and subject, the digest of a token a host's own `authorize` accepted without naming
// its owner, or — for a request with no credentials, or credentials an open server does not
// know — the anonymous caller of the request's address. Nothing tells two anonymous callers
// at one address apart, so their calls cannot be cancelled from another request.
import { TokenCheckUnavailable, TokenRejected, bearerChallenge } from "./auth.mjs";
import { bearerToken, header, headerCount, hexDigest } from "./request.mjs";

/** Whether `host` (an address to listen on, or a Host header's name) is this machine's loopback. */
export function isLoopback(host) {
  const name = String(host).replace(/^\[|\]$/g, "").toLowerCase();
  return name === "localhost" || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/**
 * The MCP specification's rule for an HTTP endpoint: why `request` must be refused with
 * 403, or `null`. An `Origin` that is present must be one of `allowOrigins` (browser pages
 * allowed to call the server) or `ownOrigins`; when `hosts` is given (a server listening on
 * loopback), the `Host` must be one of them, so a page that rebinds its own name to
 * 127.0.0.1 (DNS rebinding) is refused.
 */
export function endpointRefusal(request, { allowOrigins = [], ownOrigins = [], hosts = null } = {}) {
  const origin = header(request, "origin");
  if (origin !== null && !allowOrigins.includes(origin) && !ownOrigins.includes(origin)) {
    return "this Origin may not call the server (allow it with --allow-origin)";
  }
  if (hosts) {
    const host = (header(request, "host") ?? "").toLowerCase();
    if (!hosts.includes(host)) return "this Host is not the server's own";
  }
  return null;
}

/**
 * Why `request` must be refused before anything else reads it, as `{ status, message }`,
 * or `null`: 400 for a request that names more than one Host, then 403 by `endpointRefusal`.
 */
export function requestRefusal(request, rules) {
  if (headerCount(request, "host") > 1) return { status: 400, message: "the request names more than one Host" };
  const refusal = endpointRefusal(request, rules);
  return refusal ? { status: 403, message: refusal } : null;
}

/** The request headers an MCP client sends from a browser (2026-07-28's mirror the body: Mcp-Method, Mcp-Name). */
const ALLOWED_HEADERS = "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id, mcp-method, mcp-name";
/** The response headers an MCP client reads. */
const EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

/**
 * CORS headers for `request`: for an `Origin` the operator allowed, what lets a browser
 * page read the answer; for any other request (no Origin, or the server's own), none.
 */
export function corsHeaders(request, { allowOrigins = [] } = {}) {
  const origin = header(request, "origin");
  if (origin === null || !allowOrigins.includes(origin)) return {};
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" };
}

/** The answer to a CORS preflight (`OPTIONS`) whose origin gave `cors` (see corsHeaders). */
export function preflight(cors) {
  if (!cors["access-control-allow-origin"]) return { status: 204, headers: { allow: "GET, POST, DELETE, OPTIONS" } };
  const headers = {
    ...cors,
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": ALLOWED_HEADERS,
    "access-control-max-age": "600",
  };
  return { status: 204, headers };
}

/** A JSON-RPC error response, as the transport answers. */
export function refusedResponse(status, message, headers = {}) {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
}

/** The caller a request with no credentials (or unknown ones) is: its address. */
export function anonymousCaller(address = "unknown") {
  return { key: JSON.stringify(["address", String(address)]), anonymous: true };
}

/** The caller `authorize`'s answer names: its own `caller`, else the bearer token's digest. */
async function callerOf(request, answer, address) {
  if (typeof answer?.caller === "string" && answer.caller) return { key: JSON.stringify(["authenticated", answer.caller]), anonymous: false };
  const token = bearerToken(request);
  if (token) return { key: JSON.stringify(["token", await hexDigest(token)]), anonymous: false };
  return anonymousCaller(address);
}

const groupList = (g) => Array.isArray(g) && g.every((x) => typeof x === "string");

/**
 * Who may make `request`: `{ groups, caller }`, or `{ status, message, headers }` to refuse
 * it with. `authorize` gives the groups — `null` (no credentials, or credentials it does not
 * know), an array, or `{ groups, caller }` naming who was authenticated — and may throw
 * TokenRejected (401) or TokenCheckUnavailable (503); `requireToken` refuses a request
 * without any; `resource` is the server's public URL when it is an OAuth resource server
 * (401s then point at its metadata); `address` is the request's network address, for
 * anonymous callers. `caller` is `{ key, anonymous }`. Fails closed: an error other than
 * those two is a 401 too.
 */
export async function admit(request, { authorize, requireToken = false, resource = null, address = "unknown" }) {
  let answer;
  try {
    answer = await authorize(request);
  } catch (e) {
    if (e instanceof TokenCheckUnavailable) {
      return { status: 503, message: "the token cannot be checked now: the identity provider's keys are out of reach", cause: e, headers: { "retry-after": "30" } };
    }
    const rejected = e instanceof TokenRejected ? e : new TokenRejected("the credentials could not be checked");
    return { status: 401, message: rejected.message, headers: { "www-authenticate": bearerChallenge(resource, rejected) } };
  }
  if (answer == null) {
    if (requireToken) return { status: 401, message: "a valid bearer token is required", headers: { "www-authenticate": bearerChallenge(resource, null) } };
    return { groups: [], caller: anonymousCaller(address) };
  }
  const groups = Array.isArray(answer) ? answer : answer?.groups;
  if (!groupList(groups)) {
    return { status: 401, message: "the credentials gave no list of groups", headers: { "www-authenticate": bearerChallenge(resource, null) } };
  }
  return { groups: [...groups], caller: await callerOf(request, answer, address) };
}
