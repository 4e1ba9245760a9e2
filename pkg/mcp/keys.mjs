// The identity provider's signing keys, as the OAuth resource server keeps them (any runtime:
// fetch and WebCrypto through jose).
//
// A request must cost the provider nothing, and a provider that fails must not take the
// server with it. So the key set is read once and kept; it is read again when it is older
// than `maxAgeMs` (in the background: requests go on with the keys they have) and when a
// token names a key the set lacks (a rotation: that request waits for the read). Reads are
// one at a time — a request that needs one while another is under way waits for it — and at
// most one per `cooldownMs`, whether the last one succeeded or failed, so no stream of tokens
// with made-up key ids, and no provider answering 500, turns the server into a client
// hammering the provider. Each read is bounded in time and bytes.
//
// When the provider fails, the last good key set is kept for `graceMs` past its age: tokens
// signed with those keys are still accepted while the provider is down. That is the trade:
// a key the provider withdrew during an outage stays trusted until the grace ends (or the
// provider answers again); past it, requests with tokens get 503 until it answers.
import { createLocalJWKSet } from "jose";
import { boundedBody, httpUrl } from "../dist/api.mjs";

/** How long one read of the provider may take. */
const FETCH_TIMEOUT_MS = 5_000;
/** The largest key set or metadata document read (real ones are a few KiB). */
const MAX_DOCUMENT_BYTES = 1 << 20;

/** The token could not be checked (the provider's keys are out of reach): 503, and a log line. */
export class TokenCheckUnavailable extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "TokenCheckUnavailable";
  }
}

const unavailable = (e) => (e instanceof TokenCheckUnavailable ? e : new TokenCheckUnavailable(`the issuer's keys could not be read: ${e?.message ?? e}`, { cause: e }));

/** The JSON document at `url` (no redirects, bounded in time and bytes), or null when it is not there. */
export async function jsonAt(url, fetchImpl) {
  const res = await fetchImpl(url, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  const bytes = await boundedBody(res, MAX_DOCUMENT_BYTES, (size, declared) =>
    new Error(`${url} answered ${declared ? `${size} bytes, ` : ""}more than the ${MAX_DOCUMENT_BYTES} bytes read`),
  );
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
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

/** The key set at `uri`, checked to be a JWKS jose can use. */
async function readKeySet(uri, fetchImpl) {
  const doc = await jsonAt(uri, fetchImpl);
  if (!doc || !Array.isArray(doc.keys)) throw new Error(`${uri} answered no key set (a JSON object with "keys")`);
  return createLocalJWKSet(doc);
}

const NO_MATCH = new Set(["ERR_JWKS_NO_MATCHING_KEY", "ERR_JWKS_MULTIPLE_MATCHING_KEYS"]);

/**
 * The issuer's key set as jose's key resolver (`resolve(protectedHeader, token)`), with
 * `ready()` to read it now and `reads` counting the reads made. See the module's comment.
 */
export function keySet({ issuer, jwks, cooldownMs = 30_000, maxAgeMs = 10 * 60_000, graceMs = 60 * 60_000, fetchImpl = fetch, now = Date.now }) {
  let uri = jwks ? httpUrl(jwks, "the key set URL").href : null;
  let good = null; // { resolve, at }
  let attemptAt = -Infinity;
  let lastError = null;
  let inflight = null;
  const state = { reads: 0 };

  const read = async () => {
    state.reads += 1;
    uri ??= await discoverJwksUri(issuer, fetchImpl);
    good = { resolve: await readKeySet(uri, fetchImpl), at: now() };
    lastError = null;
  };
  /** One read at a time, at most one per cooldown (unless `force`); resolves when it ends. */
  const refresh = (force = false) => {
    if (inflight) return inflight;
    if (!force && now() - attemptAt < cooldownMs) return Promise.resolve();
    attemptAt = now();
    inflight = read()
      .catch((e) => {
        lastError = unavailable(e);
      })
      .finally(() => {
        inflight = null;
      });
    return inflight;
  };
  /** The keys to check with: the kept set while it is fresh enough, else after a read. */
  const current = async () => {
    if (good && now() - good.at <= maxAgeMs) return good;
    if (good && now() - good.at <= maxAgeMs + graceMs) {
      refresh(); // in the background: the kept keys serve meanwhile
      return good;
    }
    await refresh();
    if (good && now() - good.at <= maxAgeMs + graceMs) return good;
    throw lastError ?? new TokenCheckUnavailable("the issuer's keys could not be read (a read was tried within the cool-down)");
  };
  const resolve = async (protectedHeader, token) => {
    let keys = await current();
    try {
      return await keys.resolve(protectedHeader, token);
    } catch (e) {
      if (!NO_MATCH.has(e?.code)) throw unavailable(e);
      // A key the set lacks: the provider may have rotated. Read again, if the cool-down
      // allows; while the provider fails, the token cannot be checked (not: is not valid).
      const before = keys;
      await refresh();
      if (lastError) throw lastError;
      keys = good;
      if (!keys || keys === before) throw e;
      return keys.resolve(protectedHeader, token);
    }
  };
  /** Reads the key set now, so that a wrong issuer or key URL is found at start-up. */
  resolve.ready = async () => {
    await refresh(true);
    if (lastError || !good) throw lastError ?? new TokenCheckUnavailable("the issuer's keys could not be read");
  };
  resolve.state = state;
  return resolve;
}
