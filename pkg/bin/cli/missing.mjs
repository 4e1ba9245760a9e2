// Why a collection cannot be opened, said to the operator at the command line. The library
// says only that the collection does not exist (an agent learns nothing more of the
// database); the person who typed the URL, tenant and database gets the cause: a tenant or
// database that does not exist, a server that does not answer as Chroma does, or the
// collections there are.

/** The most collection names listed. */
const LISTED = 20;
/** How long each look may take. */
const LOOK_MS = 5000;

/** Chroma's answer to `GET path` under the server's API: `{ status, body }`, or null. */
async function look(conn, path) {
  const headers = conn.token ? { "x-chroma-token": conn.token } : {};
  try {
    const res = await fetch(`${conn.url.replace(/\/+$/, "")}/api/v2${path}`, { headers, redirect: "manual", signal: AbortSignal.timeout(LOOK_MS) });
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: not Chroma's answer.
    }
    return { status: res.status, body };
  } catch {
    return null;
  }
}

const names = (list) => (Array.isArray(list) ? list.map((c) => c?.name).filter((n) => typeof n === "string") : null);

/**
 * A fuller message for `error` when it says a collection does not exist, else null: the
 * tenant or database that is missing, a server that is not Chroma's, or the collections
 * that exist (at most LISTED).
 */
export async function whyMissing(error, conn) {
  if (!conn?.url || !/collection ".*" does not exist/.test(String(error?.message))) return null;
  const tenant = conn.tenant ?? "default_tenant";
  const database = conn.database ?? "default_database";
  const beat = await look(conn, "/heartbeat");
  if (!beat || beat.status !== 200 || typeof beat.body !== "object" || beat.body === null) {
    return `${conn.url} does not answer as a Chroma server does (GET /api/v2/heartbeat: ${beat ? beat.status : "no answer"}): is --url Chroma's address?`;
  }
  const t = await look(conn, `/tenants/${encodeURIComponent(tenant)}`);
  if (t?.status === 404) return `tenant "${tenant}" does not exist on ${conn.url} (--tenant)`;
  const d = await look(conn, `/tenants/${encodeURIComponent(tenant)}/databases/${encodeURIComponent(database)}`);
  if (d?.status === 404) return `database "${database}" does not exist in tenant "${tenant}" on ${conn.url} (--database)`;
  const list = await look(conn, `/tenants/${encodeURIComponent(tenant)}/databases/${encodeURIComponent(database)}/collections?limit=${LISTED + 1}`);
  const found = names(list?.body);
  if (!found) return null;
  const shown = found.slice(0, LISTED).map((n) => JSON.stringify(n)).join(", ");
  const where = `database "${database}" of tenant "${tenant}"`;
  if (!found.length) return `${error.message}: ${where} has no collections (write one with chromafs ingest)`;
  return `${error.message}; ${where} has ${found.length > LISTED ? `more than ${LISTED} collections, among them` : found.length === 1 ? "one:" : "these:"} ${shown}`;
}
