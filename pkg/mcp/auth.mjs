// Who calls the MCP endpoint, from an OAuth 2.1 access token: the server as a resource
// server, for any runtime (Node, Workers, Deno, Bun, edge functions: WebCrypto and fetch).
//
// Remote MCP clients sign their users in at the company's identity provider and send the
// access token it issued, a JWT. The groups that decide which pages exist come from that
// token and nothing else, so it is checked the way the MCP authorization rules ask: a
// signature by one of the issuer's keys with an asymmetric algorithm (`none` and HMAC are
// refused: an HMAC "signed" with a public key would be a forgery anyone can make), the
// issuer, the audience (this server: a token issued for another service is refused), and
// its validity period, with a minute of clock skew. The JOSE work is the `jose` library's.
//
// Keys come from the issuer's metadata (or a JWKS URL), fetched once and kept: a request
// costs no call to the provider. A token signed with a key not in the set makes the set be
// read again (a key rotation), at most once per `keyCooldownMs`, so a stream of forged key
// ids cannot turn the server against the provider.
//
// A request without a token is the caller's choice (public pages, or 401 when a token is
// required); a token that fails any check is always 401, never a quiet fall-back to the
// public pages. Every 401 points at the protected-resource metadata (RFC 9728) that tells
// a client where to sign in. Messages say what was wrong, never the token.
import { createRemoteJWKSet, customFetch, jwtVerify } from "jose";
import { httpUrl } from "./sources.mjs";

/** The signature algorithms accepted: asymmetric ones only. */
export const TOKEN_ALGORITHMS = Object.freeze(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]);

/** Clock skew allowed on `exp` and `nbf`, in seconds. */
export const CLOCK_SKEW_SECONDS = 60;

/** A token that is not valid for this server: the request gets 401. `message` names no secret. */
export class TokenRejected extends Error {
  constructor(message) {
    super(message);
    this.name = "TokenRejected";
  }
}

/** The token could not be checked (the provider's keys are out of reach): 503, and a log line. */
export class TokenCheckUnavailable extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "TokenCheckUnavailable";
  }
}

function header(request, name) {
  const h = request.headers;
  const v = typeof h.get === "function" ? h.get(name) : h[name];
  return Array.isArray(v) ? v.join(",") : (v ?? null);
}


/** The JSON at `url`, fetched without following redirects, or null when it is not there. */
async function jsonAt(url, fetchImpl) {
  const res = await fetchImpl(url, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) return null;
  return res.json().catch(() => null);
}

/**
 * Where the issuer's keys are: its OpenID configuration, else its OAuth authorization
 * server metadata (RFC 8414). The metadata must name the same issuer (no mix-up).
 */
export async function discoverJwksUri(issuer, fetchImpl = fetch) {
  const url = httpUrl(issuer, "the issuer");
  const path = url.pathname.replace(/\/$/, "");
  const places = [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
  ];
  for (const place of places) {
    let meta;
    try {
      meta = await jsonAt(place, fetchImpl);
    } catch (cause) {
      throw new TokenCheckUnavailable(`the issuer's metadata could not be read at ${place}: ${cause?.message ?? cause}`, { cause });
    }
    if (!meta) continue;
    if (meta.issuer !== issuer) throw new TokenCheckUnavailable(`the metadata at ${place} is for issuer ${JSON.stringify(meta.issuer)}, not ${issuer}`);
    if (typeof meta.jwks_uri !== "string") throw new TokenCheckUnavailable(`the metadata at ${place} has no jwks_uri`);
    return httpUrl(meta.jwks_uri, "the issuer's jwks_uri").href;
  }
  throw new TokenCheckUnavailable(`the issuer ${issuer} publishes no metadata (tried ${places.join(", ")}); pass the key set's URL (--jwks)`);
}

/** The groups a token's claim holds: an array of strings, or one space-separated string. */
function groupsOf(payload, claim) {
  const value = payload[claim];
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value) && value.every((g) => typeof g === "string")) return [...value];
  throw new TokenRejected(`the token's ${claim} claim is neither a list of names nor a space-separated string`);
}

/** What a failed check means for the caller, in words that hold no part of the token. */
function rejection(error) {
  if (error instanceof TokenRejected || error instanceof TokenCheckUnavailable) return error;
  const claims = { iss: "the token was issued by another issuer", aud: "the token was issued for another audience", nbf: "the token is not valid yet" };
  switch (error?.code) {
    case "ERR_JWT_EXPIRED":
      return new TokenRejected("the token has expired");
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      return new TokenRejected(claims[error.claim] ?? `the token's ${error.claim} claim is missing or not valid`);
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return new TokenRejected("the token's signature algorithm is not accepted (asymmetric algorithms only)");
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return new TokenRejected("no key of the issuer matches the token");
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return new TokenRejected("the token's signature is not valid");
    default:
      return new TokenRejected("the token is not a valid signed JWT");
  }
}

const NO_MATCH = new Set(["ERR_JWKS_NO_MATCHING_KEY", "ERR_JWKS_MULTIPLE_MATCHING_KEYS"]);

const unavailable = (e) => (e instanceof TokenCheckUnavailable ? e : new TokenCheckUnavailable(`the issuer's keys could not be read: ${e?.message ?? e}`, { cause: e }));

/**
 * The issuer's key set as jose's key resolver, found on first use. A failure to find it is
 * remembered for the cool-down (at least a second), so that a provider that is down is not
 * asked again by every request.
 */
function keySet({ issuer, jwks, keyCooldownMs, fetchImpl }) {
  let finding = null;
  let failed = null;
  const find = async () => {
    const uri = jwks ? httpUrl(jwks, "the key set URL").href : await discoverJwksUri(issuer, fetchImpl);
    const options = { cooldownDuration: keyCooldownMs, cacheMaxAge: 10 * 60_000 };
    if (fetchImpl !== fetch) options[customFetch] = fetchImpl;
    return createRemoteJWKSet(new URL(uri), options);
  };
  const remote = async () => {
    if (failed && Date.now() - failed.at < Math.max(keyCooldownMs, 1000)) throw failed.error;
    finding ??= find().catch((e) => {
      finding = null;
      failed = { at: Date.now(), error: unavailable(e) };
      throw failed.error;
    });
    return finding;
  };
  const resolve = async (protectedHeader, token) => {
    const keys = await remote();
    try {
      return await keys(protectedHeader, token);
    } catch (e) {
      throw NO_MATCH.has(e?.code) ? e : unavailable(e);
    }
  };
  /** Reads the key set now, so that a wrong issuer or key URL is found at start-up. */
  resolve.ready = async () => {
    const keys = await remote();
    await keys.reload().catch((e) => {
      throw unavailable(e);
    });
  };
  return resolve;
}

/**
 * `authorize(request)` for OAuth access tokens (JWTs): the groups of the request's
 * `Authorization: Bearer TOKEN`, `null` when the request has no token, and a TokenRejected
 * (401) when it has one that is not valid for this server, or a TokenCheckUnavailable
 * (503) when the issuer's keys cannot be read. Options: `issuer` (the `iss` tokens must
 * carry; its metadata gives the keys unless `jwks` is the key set's URL), `audience` (the
 * `aud` they must carry: this server's public URL, ending in /mcp), `groupsClaim` (default
 * `groups`), `keyCooldownMs` (least time between two reads of the key set, default 30 s),
 * `fetch`. The function also has `ready()`, which reads the keys now, and `issuer`.
 */
export function jwtAuthorizer({ issuer, audience, jwks, groupsClaim = "groups", keyCooldownMs = 30_000, fetch: fetchImpl = fetch } = {}) {
  if (typeof issuer !== "string" || !issuer) throw new TypeError("jwtAuthorizer needs the issuer, the `iss` its tokens carry");
  httpUrl(issuer, "the issuer");
  const audiences = [audience].flat();
  if (!audiences.length || audiences.some((a) => typeof a !== "string" || !a)) {
    throw new TypeError("jwtAuthorizer needs the audience: this server's public URL, e.g. https://docs.example.com/mcp");
  }
  if (jwks !== undefined) httpUrl(jwks, "the key set URL");
  if (typeof groupsClaim !== "string" || !groupsClaim) throw new TypeError("groupsClaim must be a claim name");
  if (!Number.isFinite(keyCooldownMs) || keyCooldownMs < 0) throw new TypeError("keyCooldownMs must be a number of milliseconds");
  const keys = keySet({ issuer, jwks, keyCooldownMs, fetchImpl });
  const options = { issuer, audience: audiences, algorithms: [...TOKEN_ALGORITHMS], clockTolerance: CLOCK_SKEW_SECONDS, requiredClaims: ["exp"] };
  const authorize = async (request) => {
    const value = header(request, "authorization");
    if (value === null) return null;
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(value.trim());
    if (!m) throw new TokenRejected("the Authorization header is not a bearer token");
    try {
      const { payload } = await jwtVerify(m[1], keys, options);
      return groupsOf(payload, groupsClaim);
    } catch (e) {
      throw rejection(e);
    }
  };
  authorize.ready = keys.ready;
  authorize.issuer = issuer;
  return authorize;
}

/** The address of `resource`'s protected-resource metadata (RFC 9728: the well-known path first). */
export function metadataUrl(resource) {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** RFC 9728 protected-resource metadata: this server, who issues its tokens, how to send them. */
export function protectedResourceMetadata({ resource, issuer }) {
  return { resource, authorization_servers: [issuer], bearer_methods_supported: ["header"], resource_name: "chromafs docs" };
}

/** The `WWW-Authenticate` value of a 401 (RFC 6750 and RFC 9728); `error` only for a bad token. */
export function bearerChallenge(resource, rejected) {
  const parts = [];
  if (resource) parts.push(`resource_metadata="${metadataUrl(resource)}"`);
  if (rejected) parts.push('error="invalid_token"', `error_description="${rejected.message.replace(/["\\]/g, "")}"`);
  return parts.length ? `Bearer ${parts.join(", ")}` : "Bearer";
}

/**
 * Who may make `request`: `{ groups }`, or `{ status, message, headers }` to refuse it
 * with. `authorize` gives the groups (null: no credentials; it may throw TokenRejected),
 * `requireToken` refuses a request without any, `resource` is the server's public URL when
 * it is an OAuth resource server (401s then point at its metadata). Fails closed: an error
 * other than these two is a 401 too.
 */
export async function admit(request, { authorize, requireToken = false, resource = null }) {
  let groups;
  try {
    groups = await authorize(request);
  } catch (e) {
    if (e instanceof TokenCheckUnavailable) {
      return { status: 503, message: "the token cannot be checked now: the identity provider's keys are out of reach", cause: e, headers: { "retry-after": "30" } };
    }
    const rejected = e instanceof TokenRejected ? e : new TokenRejected("the credentials could not be checked");
    return { status: 401, message: rejected.message, headers: { "www-authenticate": bearerChallenge(resource, rejected) } };
  }
  if (groups == null && requireToken) {
    return { status: 401, message: "a valid bearer token is required", headers: { "www-authenticate": bearerChallenge(resource, null) } };
  }
  if (groups != null && (!Array.isArray(groups) || groups.some((g) => typeof g !== "string"))) {
    return { status: 401, message: "the credentials gave no list of groups", headers: { "www-authenticate": bearerChallenge(resource, null) } };
  }
  return { groups: groups ?? [] };
}

/** The metadata's paths a server answers for `resource`: the plain and the path-suffixed forms. */
export function metadataPaths(resource) {
  const own = new URL(metadataUrl(resource)).pathname;
  return [...new Set(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", own])];
}
