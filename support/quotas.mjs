// Chroma Cloud's quotas, as pure rules: which request Cloud would refuse and with what
// message. A local server accepts requests Cloud refuses (a 10,000-value `$in`, a `get` of
// 20k records), so tests that pass locally could still fail on Cloud; the test proxy
// (`startProxy(target, { quotas: true })` in proxy.mjs) applies these rules so that they
// fail the same way, with the same 422 answer.

/**
 * Cloud's published quotas, plus a few margins of our own (marked). Any of them can be
 * overridden through `startCloudProxy(target, options)` (proxy.mjs) or `checkRequest(…, limits)`.
 */
export const CLOUD_LIMITS = Object.freeze({
  maxLimit: 300, // `limit` of a get, `n_results` of a query
  maxIds: 300, // ids named by one get or query (margin: Cloud's own cap is unpublished)
  maxWherePredicates: 8,
  maxWhereDocumentBytes: 256, // each $contains/$regex string of a full-text filter
  maxWhereDocumentPredicates: 8, // $contains/$regex leaves of one request's full-text filters
  maxRecordsPerWrite: 300,
  maxDocumentBytes: 16_384,
  maxMetadataValueBytes: 4_096, // the current docs; 1.5.9's docs said 8,182
  maxMetadataKeys: 32,
  maxMetadataKeyBytes: 36,
  maxIdBytes: 128,
  maxUriBytes: 256,
  maxEmbeddingDimensions: 4_096,
  maxReadBodyBytes: 65_536, // margin: no read should grow with the corpus
  maxConcurrentReads: 10, // per collection
});

// The names Cloud prints for each quota (`UsageType`'s Display in Chroma's quota module),
// so clients that parse the message see what Cloud would send. The last two are ours.
const USAGE_NAMES = {
  MetadataKeySizeBytes: "Size of metadata dictionary key (bytes)",
  MetadataValueSizeBytes: "Size of metadata dictionary value (bytes)",
  NumMetadataKeys: "Number of metadata dictionary keys",
  NumWherePredicates: "Number of where clause predicates",
  NumWhereDocumentPredicates: "Number of where document predicates",
  WhereDocumentValueLength: "Length of where document value",
  RegexPatternLength: "Length of regex pattern",
  NumRecords: "Number of records",
  EmbeddingDimensions: "Embedding dimension",
  DocumentSizeBytes: "Document size (bytes)",
  UriSizeBytes: "URI size (bytes)",
  IdSizeBytes: "ID size (bytes)",
  LimitValue: "Limit value",
  NumResults: "Number of results",
  NumQueryIDs: "Number of IDs to filter by in a query",
  RequestBodyBytes: "Request body size (bytes)",
  ConcurrentReads: "Number of concurrent reads",
};

const ACTIONS = { get: "Get", query: "Query", upsert: "Upsert", add: "Add", update: "Update", delete: "Delete", count: "Count" };
const READS = new Set(["get", "query", "count"]);
const WRITES = new Set(["upsert", "add", "update"]);
const RECORD_PATH = /^\/api\/v2\/tenants\/[^/]+\/databases\/[^/]+\/collections\/([^/]+)\/(get|query|upsert|add|update|delete|count)$/;

const bytes = (s) => Buffer.byteLength(s, "utf8");
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** The violation Cloud would answer with; `usage` may be a string when there is no number to give. */
export function quotaViolation(rule, action, usage, limit) {
  const message = `Quota exceeded: '${USAGE_NAMES[rule] ?? rule}' exceeded quota limit for action '${action}': current usage of ${usage} exceeds limit of ${limit}`;
  return { rule, action, usage, limit, message };
}

/** `{ collection, op, action }` for a record endpoint (`op` is get, query, …), else null. */
export function recordRoute(method, path) {
  const m = RECORD_PATH.exec(path.split("?")[0]);
  if (!m) return null;
  const op = m[2];
  if (method !== (op === "count" ? "GET" : "POST")) return null;
  return { collection: m[1], op, action: ACTIONS[op] };
}

/**
 * Metadata predicates of a `where`, as Chroma's `Where::metadata_predicate_count` meters
 * them: a comparison is 1, a `$in`/`$nin` is 1 per value, `$and`/`$or` add up their
 * operands, and a `#document` filter (full text, metered apart) is 0. Malformed clauses
 * are counted anyway; Chroma refuses them itself.
 */
export function countWherePredicates(where) {
  if (!isObject(where)) return 0;
  let n = 0;
  for (const [key, value] of Object.entries(where)) {
    if (key === "$and" || key === "$or") {
      if (Array.isArray(value)) for (const child of value) n += countWherePredicates(child);
    } else if (key === "#document") {
      // full-text: no metadata predicate
    } else if (isObject(value)) {
      for (const operand of Object.values(value)) n += Array.isArray(operand) ? operand.length : 1;
    } else {
      n += 1;
    }
  }
  return n;
}

/**
 * Every full-text pattern of a request, `{ op, pattern }`: those of `where_document`
 * (through `$and`/`$or`) and the `#document` filters inside `where`, which Chroma treats
 * the same way.
 */
export function documentPatterns(whereDocument, where) {
  const out = [];
  const walkDoc = (clause) => {
    if (!isObject(clause)) return;
    for (const [key, value] of Object.entries(clause)) {
      if ((key === "$and" || key === "$or") && Array.isArray(value)) value.forEach(walkDoc);
      else if (typeof value === "string") out.push({ op: key, pattern: value });
    }
  };
  const walkWhere = (clause) => {
    if (!isObject(clause)) return;
    for (const [key, value] of Object.entries(clause)) {
      if ((key === "$and" || key === "$or") && Array.isArray(value)) value.forEach(walkWhere);
      else if (key === "#document") walkDoc(value);
    }
  };
  walkDoc(whereDocument);
  walkWhere(where);
  return out;
}

// An embedding's dimension: a list of numbers, or base64 of little-endian f32s.
function dimension(e) {
  if (Array.isArray(e)) return e.length;
  if (typeof e === "string") return Math.floor(Buffer.from(e, "base64").length / 4);
  return 0;
}

// Size of a metadata value as Cloud could meter it. An array is measured whole (the sum of
// its strings): whether Cloud meters it whole or by element is not documented, and the
// larger reading errs on the side of refusing.
function metadataValueBytes(v) {
  if (typeof v === "string") return bytes(v);
  if (Array.isArray(v)) return v.reduce((s, x) => s + (typeof x === "string" ? bytes(x) : 0), 0);
  return 0;
}

function checkIds(ids, action, limits) {
  if (!Array.isArray(ids)) return null;
  for (const id of ids) {
    if (typeof id === "string" && bytes(id) > limits.maxIdBytes) return quotaViolation("IdSizeBytes", action, bytes(id), limits.maxIdBytes);
  }
  return null;
}

function checkFilters(body, action, limits) {
  const predicates = countWherePredicates(body.where);
  if (predicates > limits.maxWherePredicates) return quotaViolation("NumWherePredicates", action, predicates, limits.maxWherePredicates);
  const patterns = documentPatterns(body.where_document, body.where);
  if (patterns.length > limits.maxWhereDocumentPredicates) {
    return quotaViolation("NumWhereDocumentPredicates", action, patterns.length, limits.maxWhereDocumentPredicates);
  }
  for (const { op, pattern } of patterns) {
    const n = bytes(pattern);
    if (n > limits.maxWhereDocumentBytes) {
      const rule = op === "$regex" || op === "$not_regex" ? "RegexPatternLength" : "WhereDocumentValueLength";
      return quotaViolation(rule, action, n, limits.maxWhereDocumentBytes);
    }
  }
  return null;
}

function checkRead(op, body, action, limits) {
  const ids = Array.isArray(body.ids) ? body.ids : null;
  if (ids && ids.length > limits.maxIds) return quotaViolation("NumQueryIDs", action, ids.length, limits.maxIds);
  if (op === "get") {
    if (body.limit == null) {
      // Cloud caps an unbounded get, so a client that relies on getting everything breaks
      // there; ids bound the answer on their own.
      if (!ids) return quotaViolation("LimitValue", action, "unbounded", limits.maxLimit);
    } else if (body.limit > limits.maxLimit) {
      return quotaViolation("LimitValue", action, body.limit, limits.maxLimit);
    }
  }
  if (op === "query") {
    if (body.n_results > limits.maxLimit) return quotaViolation("NumResults", action, body.n_results, limits.maxLimit);
    for (const e of body.query_embeddings ?? []) {
      if (dimension(e) > limits.maxEmbeddingDimensions) return quotaViolation("EmbeddingDimensions", action, dimension(e), limits.maxEmbeddingDimensions);
    }
  }
  return null;
}

function checkDelete(body, action, limits) {
  const n = Array.isArray(body.ids) ? body.ids.length : 0;
  return n > limits.maxRecordsPerWrite ? quotaViolation("NumRecords", action, n, limits.maxRecordsPerWrite) : null;
}

function checkWrite(body, action, limits) {
  const ids = Array.isArray(body.ids) ? body.ids : [];
  if (ids.length > limits.maxRecordsPerWrite) return quotaViolation("NumRecords", action, ids.length, limits.maxRecordsPerWrite);
  for (const doc of body.documents ?? []) {
    if (typeof doc === "string" && bytes(doc) > limits.maxDocumentBytes) return quotaViolation("DocumentSizeBytes", action, bytes(doc), limits.maxDocumentBytes);
  }
  for (const uri of body.uris ?? []) {
    if (typeof uri === "string" && bytes(uri) > limits.maxUriBytes) return quotaViolation("UriSizeBytes", action, bytes(uri), limits.maxUriBytes);
  }
  for (const e of body.embeddings ?? []) {
    if (dimension(e) > limits.maxEmbeddingDimensions) return quotaViolation("EmbeddingDimensions", action, dimension(e), limits.maxEmbeddingDimensions);
  }
  for (const meta of body.metadatas ?? []) {
    if (!isObject(meta)) continue;
    const keys = Object.keys(meta);
    if (keys.length > limits.maxMetadataKeys) return quotaViolation("NumMetadataKeys", action, keys.length, limits.maxMetadataKeys);
    for (const key of keys) {
      if (bytes(key) > limits.maxMetadataKeyBytes) return quotaViolation("MetadataKeySizeBytes", action, bytes(key), limits.maxMetadataKeyBytes);
      const n = metadataValueBytes(meta[key]);
      if (n > limits.maxMetadataValueBytes) return quotaViolation("MetadataValueSizeBytes", action, n, limits.maxMetadataValueBytes);
    }
  }
  return null;
}

/**
 * The quota a request breaks, as `{ rule, action, usage, limit, message }`, or null.
 * `bodyJson` is the parsed body (anything else is left for Chroma to refuse); `bodyBytes`
 * is the body's size as sent, measured from `bodyJson` when not given. Only the record
 * endpoints are metered. Concurrency is not checked here: it needs the proxy's state.
 */
export function checkRequest(method, path, bodyJson, limits = {}, bodyBytes) {
  const route = recordRoute(method, path);
  if (!route) return null;
  const l = { ...CLOUD_LIMITS, ...limits };
  const { op, action } = route;
  const size = bodyBytes ?? (bodyJson === undefined ? 0 : bytes(JSON.stringify(bodyJson)));
  if (READS.has(op) && size > l.maxReadBodyBytes) return quotaViolation("RequestBodyBytes", action, size, l.maxReadBodyBytes);
  if (!isObject(bodyJson)) return null;
  return (
    checkIds(bodyJson.ids, action, l) ??
    (READS.has(op) ? checkRead(op, bodyJson, action, l) : null) ??
    (op === "delete" ? checkDelete(bodyJson, action, l) : null) ??
    (WRITES.has(op) ? checkWrite(bodyJson, action, l) : null) ??
    checkFilters(bodyJson, action, l)
  );
}
