// What an agent's shell keeps between its calls: the working directory and its /tmp.
//
// Agents work in steps (`grep -rl x / > /tmp/hits` in one call, `wc -l < /tmp/hits` in the
// next; `cd /guides`, then relative paths), as the shells of their own harnesses let them.
// A call runs on whichever pooled session is free, so the state is not the session's: the
// call takes its caller's state in (the scratch directory's bytes, see
// ChromaFs.saveScratch, and the directory it was in) and gives the new state back, and the
// session is emptied before any other call gets it (sessions.mjs).
//
// The state is kept per caller — an authenticated identity, or the one client of a stdio
// server — never for an anonymous caller, whom nothing tells apart from others at its
// address. It is kept in the server's process, for `idleMs` after the caller's last call;
// the callers whose state went unused longest are dropped first once the states together
// pass `maxBytes` (each is at most the scratch directory's `scratchBytes`) or `maxCallers`.
// With a `shared` cache (the connect options' `sharedCache`: Redis, say), the state lives
// there instead, under a key derived from the caller and the docs, so that every process
// behind a load balancer finds a caller's shell: each call reads it once and writes it
// once (no Chroma request), and one older than `idleMs` reads as none.

/** How long a caller's shell is kept after its last call, by default: 30 minutes. */
export const SHELL_IDLE_MS = 30 * 60_000;

/** The bytes a state holds, as counted against `maxBytes`. */
const sizeOf = (state) => (state.scratch?.byteLength ?? 0) + 2 * (state.cwd?.length ?? 0) + 64;

/**
 * A store of callers' shells: `get(caller)` gives the caller's state (`{ cwd, scratch }`)
 * or null, `put(caller, state)` keeps one. `now` is the clock (for tests).
 */
export function shellStore({ idleMs = SHELL_IDLE_MS, maxBytes = 256 << 20, maxCallers = 10_000, now = Date.now, shared = null, scope = "" } = {}) {
  if (!Number.isSafeInteger(idleMs) || idleMs < 0) throw new TypeError("shellIdleMs must be a whole number of milliseconds");
  if (shared) return sharedStore(shared, { idleMs, maxBytes, now, scope });
  const kept = new Map(); // caller → { state, bytes, at }, least recently used first
  let total = 0;
  const drop = (caller) => {
    const entry = kept.get(caller);
    if (!entry) return;
    kept.delete(caller);
    total -= entry.bytes;
  };
  return {
    get(caller) {
      const entry = kept.get(caller);
      if (!entry) return null;
      if (now() - entry.at > idleMs) {
        drop(caller);
        return null;
      }
      return entry.state;
    },
    put(caller, state) {
      drop(caller);
      if (!state || idleMs === 0) return;
      const bytes = sizeOf(state);
      if (bytes > maxBytes) return;
      kept.set(caller, { state, bytes, at: now() });
      total += bytes;
      // The least recently kept first: past the bounds, or idle too long.
      for (const [oldest, entry] of kept) {
        if (total <= maxBytes && kept.size <= maxCallers && now() - entry.at <= idleMs) break;
        drop(oldest);
      }
    },
    /** How many callers' shells are kept, and their bytes. */
    stats: () => ({ callers: kept.size, bytes: total }),
    idleMs,
  };
}

const MAGIC = "CSH1";

/** A state as bytes: `CSH1`, when it was kept (f64 ms), the directory's length (u32) and UTF-8, the scratch bytes. */
function encode(state, at) {
  const cwd = new TextEncoder().encode(state.cwd ?? "/");
  const scratch = state.scratch ?? new Uint8Array(0);
  const out = new Uint8Array(16 + cwd.length + scratch.length);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setFloat64(4, at, true);
  view.setUint32(12, cwd.length, true);
  out.set(cwd, 16);
  out.set(scratch, 16 + cwd.length);
  return out;
}

/** The state `encode` wrote and when, or null for bytes that are not one. */
function decode(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length < 16 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = view.getUint32(12, true);
  if (16 + len > bytes.length) return null;
  const cwd = new TextDecoder().decode(bytes.subarray(16, 16 + len));
  const scratch = bytes.slice(16 + len);
  return { at: view.getFloat64(4, true), state: { cwd, scratch: scratch.length ? scratch : undefined } };
}

/** A store over a shared cache (see above): `get` and `put` resolve. */
function sharedStore(shared, { idleMs, maxBytes, now, scope }) {
  const keyOf = async (caller) => {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify([scope, caller])));
    return `shell:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  };
  return {
    async get(caller) {
      if (idleMs === 0) return null;
      const bytes = await Promise.resolve(shared.get(await keyOf(caller))).catch(() => null);
      // A cache that keeps UTF-8 as text (redisCache) gives those bytes back as a string.
      const kept = decode(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
      return kept && now() - kept.at <= idleMs ? kept.state : null;
    },
    async put(caller, state) {
      if (!state || idleMs === 0 || sizeOf(state) > maxBytes) return;
      await Promise.resolve(shared.set(await keyOf(caller), encode(state, now()))).catch((e) => console.error("chromafs mcp: a caller's shell was not kept:", e?.message ?? e));
    },
    stats: () => ({ callers: null, bytes: null }),
    idleMs,
  };
}
