// Reading an HTTP request the same way whatever carries it: a fetch `Request` (Workers, edge
// functions, Deno, Bun) or Node's `IncomingMessage`.

/** The value of header `name`, several values joined by commas as fetch joins them, or null. */
export function header(request, name) {
  const h = request.headers;
  const v = typeof h.get === "function" ? h.get(name) : h[name];
  return Array.isArray(v) ? v.join(",") : (v ?? null);
}

/**
 * How many times header `name` was sent. Node keeps only the first of some headers
 * (`Host` among them) in `headers`; its raw list has them all. A fetch `Request` joins
 * repeated values with commas, which no single Host value holds.
 */
export function headerCount(request, name) {
  const raw = request.rawHeaders;
  if (Array.isArray(raw)) {
    let n = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) n += 1;
    return n;
  }
  const value = header(request, name);
  return value === null ? 0 : value.split(",").length;
}

/** Credentials that are not valid for this server: the request gets 401. `message` names no secret. */
export class TokenRejected extends Error {
  constructor(message) {
    super(message);
    this.name = "TokenRejected";
  }
}

/** RFC 6750's `b64token`: what a bearer token is made of. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The bearer token of the request's `Authorization` header as RFC 6750 reads it (the
 * scheme in any case, one or more spaces, one token): `undefined` when there is no such
 * header, `null` when there is one that holds no single bearer token.
 */
export function bearerToken(request) {
  const value = header(request, "authorization");
  if (value === null) return undefined;
  return BEARER.exec(value.trim())?.[1] ?? null;
}

// Node's own hash where there is one (WebCrypto's digest costs a trip through a thread pool,
// about a hundred times the hash itself, and a server hashes every request's token).
const nodeCrypto = globalThis.process?.getBuiltinModule?.("node:crypto") ?? null;

/** SHA-256 of `text`, as bytes: Node's crypto, else WebCrypto (Workers, browsers, edge). */
export async function digest(text) {
  if (nodeCrypto) return new Uint8Array(nodeCrypto.createHash("sha256").update(text, "utf8").digest());
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** SHA-256 of `text`, in hex. */
export async function hexDigest(text) {
  return Array.from(await digest(text), (b) => b.toString(16).padStart(2, "0")).join("");
}
