// Bearer tokens of the operator's own, each mapped to the groups it sees: `authorize` for a
// server that does not sign its users in with an identity provider. A token is found by its
// SHA-256 digest (WebCrypto, so it runs in every runtime), never by its text: how long the
// lookup takes depends on the digest of what was sent, which tells nothing of any token.
// The caller a token names is its entry in the map, however the request spelled its
// `Authorization` header.
import { TokenRejected, bearerToken, digest } from "./request.mjs";

/** The shortest bearer token accepted: a guessable token is no access control. */
export const MIN_TOKEN_CHARS = 16;

/** A digest as a key of a Map (one character a byte). */
const keyOf = (bytes) => String.fromCharCode(...bytes);

/**
 * `authorize(request)` from a token map (`{ "TOKEN": ["group", …] }`): for the request's
 * `Authorization: Bearer TOKEN` (RFC 6750), `{ groups, caller }` where `caller` names the
 * map's entry; `null` for no header or an unknown token; a header that is not one bearer
 * token is refused (TokenRejected: 401), and a token is found by its digest.
 * `request` is a fetch `Request` or Node's `IncomingMessage`. The map must be
 * a plain object whose tokens have at least MIN_TOKEN_CHARS characters, each mapped to an
 * array of group names.
 */
export function tokenAuthorizer(tokens) {
  if (tokens === null || typeof tokens !== "object" || Array.isArray(tokens) || Object.getPrototypeOf(tokens) !== Object.prototype) {
    throw new TypeError('tokens must be a JSON object mapping each token to an array of group names, e.g. {"3f9c…": ["staff"]}');
  }
  const entries = Object.entries(tokens).map(([token, groups], i) => {
    if (!Array.isArray(groups) || groups.some((g) => typeof g !== "string")) {
      throw new TypeError(`tokens map each token to an array of group names (token ${i + 1} does not)`);
    }
    if (token.length < MIN_TOKEN_CHARS || !/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
      throw new TypeError(
        `token ${i + 1} is too short or holds a character a bearer token cannot: tokens have at least ${MIN_TOKEN_CHARS} ` +
          "characters among letters, digits and - . _ ~ + / (then = signs)",
      );
    }
    return [token, [...groups]];
  });
  const known = Promise.all(entries.map(async ([token, groups], i) => [keyOf(await digest(token)), { groups, caller: `token entry ${i + 1}` }])).then(
    (pairs) => new Map(pairs),
  );
  return async (request) => {
    const token = bearerToken(request);
    if (token === undefined) return null;
    // A header that is not one bearer token (a tab, a second word, another scheme) is
    // refused: read as no credentials, it would make the same token a second caller.
    if (token === null) throw new TokenRejected("the Authorization header is not a bearer token (`Bearer TOKEN`, RFC 6750)");
    const found = (await known).get(keyOf(await digest(token)));
    return found ? { groups: [...found.groups], caller: found.caller } : null;
  };
}
