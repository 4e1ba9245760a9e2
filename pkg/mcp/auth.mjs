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
// Keys come from the issuer's metadata (or a JWKS URL), read once and kept (keys.mjs): a
// request costs no call to the provider, a token signed with a key not in the set makes the
// set be read again (a key rotation) at most once per `keyCooldownMs`, and a provider that
// fails neither stalls every request nor is asked by each.
//
// A request without a token is the caller's choice (public pages, or 401 when a token is
// required); a token that fails any check is always 401, never a quiet fall-back to the
// public pages. Every 401 points at the protected-resource metadata (RFC 9728) that tells
// a client where to sign in. Messages say what was wrong, never the token.
import { jwtVerify } from "jose";
import { httpUrl } from "../dist/api.mjs";
import { TokenRejected, bearerToken } from "./request.mjs";
import { TokenCheckUnavailable, keySet } from "./keys.mjs";

export { TokenCheckUnavailable, discoverJwksUri } from "./keys.mjs";
export { TokenRejected };

/** The signature algorithms accepted: asymmetric ones only. */
export const TOKEN_ALGORITHMS = Object.freeze(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]);

/** Clock skew allowed on `exp` and `nbf`, in seconds. */
export const CLOCK_SKEW_SECONDS = 60;


/**
 * The groups a token's claim holds: an array of strings as it is, or one string split on
 * ASCII spaces only, as OAuth scopes are (a tab, a no-break space or any other character is
 * part of a name: one group at the provider is one group here).
 */
function groupsOf(payload, claim) {
  const value = payload[claim];
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(" ").filter(Boolean);
  if (Array.isArray(value) && value.every((g) => typeof g === "string")) return [...value];
  throw new TokenRejected(`the token's ${claim} claim is neither a list of names nor a space-separated string`);
}

/**
 * Who a verified token speaks for: its issuer and subject, else (a token without `sub`) its
 * client (`client_id`, else `azp`); null when it names neither.
 */
function principalOf(payload) {
  const who = [["sub", payload.sub], ["client_id", payload.client_id], ["azp", payload.azp]].find(([, v]) => typeof v === "string" && v);
  return who ? JSON.stringify([payload.iss, ...who]) : null;
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

/**
 * `authorize(request)` for OAuth access tokens (JWTs): for the request's `Authorization:
 * Bearer TOKEN`, `{ groups, caller }` (`caller` names the token's issuer and subject, else
 * its client), `null` when the request has no token, and a TokenRejected (401) when it has
 * one that is not valid for this server, or a TokenCheckUnavailable (503) when the issuer's
 * keys cannot be read. Options: `issuer` (the `iss` tokens must
 * carry; its metadata gives the keys unless `jwks` is the key set's URL), `audience` (the
 * `aud` they must carry: this server's public URL, ending in /mcp), `groupsClaim` (default
 * `groups`), `keyCooldownMs` (least time between two reads of the key set, default 30 s),
 * `keyMaxAgeMs` (how long a key set read is used before it is read again, default ten
 * minutes), `keyGraceMs` (how long past that the last key set read is used while the
 * provider fails, default an hour; see keys.mjs), `fetch`. The function also has `ready()`,
 * which reads the keys now, and `issuer`.
 */
export function jwtAuthorizer({ issuer, audience, jwks, groupsClaim = "groups", keyCooldownMs = 30_000, keyMaxAgeMs = 10 * 60_000, keyGraceMs = 60 * 60_000, fetch: fetchImpl = fetch } = {}) {
  if (typeof issuer !== "string" || !issuer) throw new TypeError("jwtAuthorizer needs the issuer, the `iss` its tokens carry");
  httpUrl(issuer, "the issuer");
  const audiences = [audience].flat();
  if (!audiences.length || audiences.some((a) => typeof a !== "string" || !a)) {
    throw new TypeError("jwtAuthorizer needs the audience: this server's public URL, e.g. https://docs.example.com/mcp");
  }
  if (jwks !== undefined) httpUrl(jwks, "the key set URL");
  if (typeof groupsClaim !== "string" || !groupsClaim) throw new TypeError("groupsClaim must be a claim name");
  if (!Number.isFinite(keyCooldownMs) || keyCooldownMs < 0) throw new TypeError("keyCooldownMs must be a number of milliseconds");
  for (const [name, ms] of Object.entries({ keyMaxAgeMs, keyGraceMs })) {
    if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`${name} must be a number of milliseconds`);
  }
  const keys = keySet({ issuer, jwks, cooldownMs: keyCooldownMs, maxAgeMs: keyMaxAgeMs, graceMs: keyGraceMs, fetchImpl });
  const options = { issuer, audience: audiences, algorithms: [...TOKEN_ALGORITHMS], clockTolerance: CLOCK_SKEW_SECONDS, requiredClaims: ["exp"] };
  const authorize = async (request) => {
    const token = bearerToken(request);
    if (token === undefined) return null;
    if (token === null) throw new TokenRejected("the Authorization header is not a bearer token");
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, options));
    } catch (e) {
      throw rejection(e);
    }
    return { groups: groupsOf(payload, groupsClaim), caller: principalOf(payload) ?? undefined };
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

/** The metadata's paths a server answers for `resource`: the plain and the path-suffixed forms. */
export function metadataPaths(resource) {
  const own = new URL(metadataUrl(resource)).pathname;
  return [...new Set(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", own])];
}
