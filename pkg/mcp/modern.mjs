// The MCP revision 2026-07-28 as this server reads it: which messages speak it, what such a
// message must carry, and what its answers carry that a 2025 answer does not.
//
// That revision has no handshake and no session: each request names its protocol version
// and the client's capabilities in `params._meta` (the "envelope"), and a client that wants
// to know the server first asks `server/discover`. The 2025 revisions (2024-11-05 to
// 2025-11-25) open with `initialize`, and the MCP SDK's server answers them; the same
// endpoint and the same stdio process serve both, telling them apart by the body, as the
// specification's dual-era rule says: a request whose `_meta` names a protocol version is
// served by 2026-07-28's rules, any other message by the 2025 ones.
//
// What 2026-07-28 asks of a request, and this module checks: the envelope (a version
// string and the client's capabilities, client info when given); over HTTP the headers
// that mirror the body (`MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` for a tool
// call or a resource read, in its Base64 form when it is not plain ASCII), each matching
// it; a version this server speaks (else -32022 with the versions it does); no batch. What
// it asks of an answer: `resultType` on every result, the server's identity in its
// `_meta`, cache hints (`ttlMs`, `cacheScope`) on lists and reads, and -32602 for a
// resource that is not there (2025's was -32002). Methods the revision removed (`ping`,
// `logging/setLevel`, `initialize` itself) are not found. Over HTTP, the errors of this
// ladder answer 400, a method not found 404.

/** The protocol revision of the envelope era, and the ones this server speaks of it. */
export const MODERN_VERSION = "2026-07-28";
export const MODERN_VERSIONS = Object.freeze([MODERN_VERSION]);

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
/** The envelope's keys: a request passed on to the 2025 server goes without them. */
const ENVELOPE_KEYS = [VERSION_KEY, CLIENT_INFO_KEY, CAPABILITIES_KEY, LOG_LEVEL_KEY];
const LOG_LEVELS = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);

/** The revision's error codes, and JSON-RPC's. */
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_VERSION = -32022;
const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
/** 2025's "resource not found", which 2026-07-28 answers as invalid params. */
const RESOURCE_NOT_FOUND_2025 = -32002;

/** What a capability lets a client call, in this revision. */
const METHODS_OF = {
  tools: ["tools/list", "tools/call"],
  resources: ["resources/list", "resources/templates/list", "resources/read"],
  prompts: ["prompts/list", "prompts/get"],
  completions: ["completion/complete"],
};

/** The results a client may cache, and for whom: the same for every caller, or the caller's own. */
const CACHED = { "server/discover": "public", "tools/list": "public", "prompts/list": "public", "resources/templates/list": "public", "resources/list": "private", "resources/read": "private" };
/**
 * How long a cached result stays fresh. The server's description and its tools change only
 * when it restarts; pages change when the docs are ingested again.
 */
const TTL_MS = { public: 3_600_000, private: 60_000 };

/** The body field each `Mcp-Name` mirrors. */
const NAMED_BY = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const hasId = (m) => typeof m.id === "string" || (typeof m.id === "number" && Number.isInteger(m.id));
const metaOf = (m) => (isObject(m.params) && isObject(m.params._meta) ? m.params._meta : null);

/** Whether a message claims the envelope: its `_meta` names a protocol version. */
export function claimsEnvelope(message) {
  const meta = isObject(message) ? metaOf(message) : null;
  return meta !== null && VERSION_KEY in meta;
}

/** A JSON-RPC error answer to `id`. */
export const errorAnswer = (id, code, message, data) => ({ jsonrpc: "2.0", id: id ?? null, error: { code, message, ...(data === undefined ? {} : { data }) } });

/** A refusal: the HTTP status and the answer. */
const refuse = (status, id, code, message, data) => ({ refuse: { status, answer: errorAnswer(id, code, message, data) } });
const mismatch = (id, what) => refuse(400, id, HEADER_MISMATCH, `Header mismatch: ${what}`);

/** What is wrong with an envelope, or null. */
function envelopeProblem(meta) {
  if (typeof meta[VERSION_KEY] !== "string") return `${VERSION_KEY} must be a protocol version string`;
  if (!isObject(meta[CAPABILITIES_KEY])) return `${CAPABILITIES_KEY} is required (an object)`;
  const info = meta[CLIENT_INFO_KEY];
  if (info !== undefined && !(isObject(info) && typeof info.name === "string" && typeof info.version === "string")) {
    return `${CLIENT_INFO_KEY} must be an object with a name and a version`;
  }
  if (meta[LOG_LEVEL_KEY] !== undefined && !LOG_LEVELS.has(meta[LOG_LEVEL_KEY])) return `${LOG_LEVEL_KEY} is not a log level`;
  return null;
}

/** A header value with RFC 9110's optional white space around it dropped, or undefined. */
function headerOf(headers, name) {
  const v = headers?.get(name);
  return typeof v === "string" ? v.replace(/^[ \t]+|[ \t]+$/g, "") : undefined;
}

/** An `Mcp-Name` value as the body spells it: `=?base64?…?=` decoded; undefined when that does not decode. */
export function decodeHeaderValue(value) {
  if (!(value.startsWith("=?base64?") && value.endsWith("?="))) return value;
  const b64 = value.slice(9, -2);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Why the headers of a 2026-07-28 request do not mirror its body, or null. */
function headersProblem(message, headers) {
  const version = headerOf(headers, "mcp-protocol-version");
  if (version === undefined) return "the MCP-Protocol-Version header is required";
  if (version !== metaOf(message)[VERSION_KEY]) return `the MCP-Protocol-Version header names ${version}, the body ${metaOf(message)[VERSION_KEY]}`;
  const method = headerOf(headers, "mcp-method");
  if (method === undefined) return "the Mcp-Method header is required";
  if (method !== message.method) return `the Mcp-Method header names ${method}, the body ${message.method}`;
  const field = Object.hasOwn(NAMED_BY, message.method) ? NAMED_BY[message.method] : null;
  const named = field && isObject(message.params) && typeof message.params[field] === "string" ? message.params[field] : undefined;
  if (named === undefined) return null;
  const raw = headerOf(headers, "mcp-name");
  if (raw === undefined) return `the Mcp-Name header is required for ${message.method}`;
  const name = decodeHeaderValue(raw);
  if (name === undefined) return "the Mcp-Name header's Base64 value does not decode";
  if (name !== named) return `the Mcp-Name header names ${JSON.stringify(name)}, the body ${JSON.stringify(named)}`;
  return null;
}

/**
 * How to serve `body` (a parsed message or batch): `{ era: "legacy" }` (the 2025 server
 * answers it as it stands), `{ era: "modern", message, request }` (a 2026-07-28 request,
 * or a notification when `request` is false), or `{ refuse: { status, answer } }`.
 * `headers` (a fetch Headers) are the HTTP request's, checked against the body; stdio has none.
 */
export function classify(body, headers = null) {
  const headerVersion = headerOf(headers, "mcp-protocol-version");
  const headerModern = headerVersion !== undefined && headerVersion >= MODERN_VERSION;
  if (Array.isArray(body)) {
    if (body.some(claimsEnvelope) || headerModern) return refuse(400, null, INVALID_REQUEST, `Invalid request: protocol revision ${MODERN_VERSION} has no batches`);
    return { era: "legacy" };
  }
  if (!isObject(body) || typeof body.method !== "string") return { era: "legacy" };
  const request = "id" in body;
  const id = request && hasId(body) ? body.id : null;
  if (!claimsEnvelope(body)) {
    if (!headerModern) return { era: "legacy" };
    if (body.method === "initialize") return mismatch(id, `an initialize request names protocol version ${headerVersion} in its MCP-Protocol-Version header`);
    if (!request) return { era: "modern", message: body, request: false };
    return refuse(400, id, INVALID_PARAMS, `Invalid params: the MCP-Protocol-Version header names ${headerVersion}, and the request's _meta does not (${VERSION_KEY} is required)`);
  }
  const meta = metaOf(body);
  const problem = request ? envelopeProblem(meta) : typeof meta[VERSION_KEY] === "string" ? null : `${VERSION_KEY} must be a protocol version string`;
  if (problem) return refuse(400, id, INVALID_PARAMS, `Invalid params: ${problem}`);
  if (!request) return { era: "modern", message: body, request: false };
  if (!MODERN_VERSIONS.includes(meta[VERSION_KEY])) {
    return refuse(400, id, UNSUPPORTED_VERSION, "Unsupported protocol version", { supported: [...MODERN_VERSIONS], requested: meta[VERSION_KEY] });
  }
  if (headers) {
    const wrong = headersProblem(body, headers);
    if (wrong) return mismatch(id, wrong);
  }
  return { era: "modern", message: body, request: true };
}

/** The methods a server with `capabilities` answers in this revision. */
export function servedMethods(capabilities) {
  return new Set(["server/discover", ...Object.keys(METHODS_OF).flatMap((c) => (capabilities?.[c] ? METHODS_OF[c] : []))]);
}

/**
 * The capabilities a server declares in this revision: those it has whose methods are
 * served, without what would need `subscriptions/listen` (list changes, subscriptions),
 * which it does not serve; logging is left out too (the revision deprecates it, and the
 * server logs nothing to its clients).
 */
export function modernCapabilities(capabilities) {
  const out = {};
  for (const name of Object.keys(METHODS_OF)) {
    if (!capabilities?.[name]) continue;
    const { listChanged: _l, subscribe: _s, ...rest } = capabilities[name];
    out[name] = JSON.parse(JSON.stringify(rest));
  }
  return out;
}

/** The answer to `server/discover`, for a server `{ serverInfo, capabilities, instructions }`. */
export function discoverResult({ serverInfo, capabilities, instructions }) {
  return {
    supportedVersions: [...MODERN_VERSIONS],
    capabilities: modernCapabilities(capabilities),
    ...(instructions ? { instructions } : {}),
  };
}

/** A 2026-07-28 request as the 2025 server takes it: the envelope's keys out of its `_meta`. */
export function withoutEnvelope(message) {
  const meta = { ...metaOf(message) };
  for (const key of ENVELOPE_KEYS) delete meta[key];
  const { _meta, ...params } = message.params;
  return { ...message, params: Object.keys(meta).length ? { ...params, _meta: meta } : params };
}

/**
 * The 2025 server's `answer` to a 2026-07-28 request for `method`, as that revision
 * spells it: every result with `resultType` and the server's identity, the cacheable ones
 * with their hints; a resource that is not there is invalid params.
 */
export function modernAnswer(method, answer, serverInfo) {
  if (answer.error) {
    if (answer.error.code !== RESOURCE_NOT_FOUND_2025) return answer;
    return { ...answer, error: { ...answer.error, code: INVALID_PARAMS } };
  }
  if (!isObject(answer.result)) return answer;
  const scope = Object.hasOwn(CACHED, method) ? CACHED[method] : null;
  const result = {
    ...answer.result,
    resultType: "complete",
    ...(scope ? { ttlMs: TTL_MS[scope], cacheScope: scope } : {}),
    _meta: { ...(isObject(answer.result._meta) ? answer.result._meta : {}), [SERVER_INFO_KEY]: serverInfo },
  };
  return { ...answer, result };
}

/** The HTTP status of an answer to a 2026-07-28 request: 404 for a method not found, else 200. */
export const answerStatus = (answer) => (answer?.error?.code === METHOD_NOT_FOUND ? 404 : 200);
