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

/** How long a caller's shell is kept after its last call, by default: 30 minutes. */
export const SHELL_IDLE_MS = 30 * 60_000;

/** The bytes a state holds, as counted against `maxBytes`. */
const sizeOf = (state) => (state.scratch?.byteLength ?? 0) + 2 * (state.cwd?.length ?? 0) + 64;

/**
 * A store of callers' shells: `get(caller)` gives the caller's state (`{ cwd, scratch }`)
 * or null, `put(caller, state)` keeps one. `now` is the clock (for tests).
 */
export function shellStore({ idleMs = SHELL_IDLE_MS, maxBytes = 256 << 20, maxCallers = 10_000, now = Date.now } = {}) {
  if (!Number.isSafeInteger(idleMs) || idleMs < 0) throw new TypeError("shellIdleMs must be a whole number of milliseconds");
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

/**
 * A store of one request's: the state its caller had (`state`) and whatever its calls leave
 * (`left()`), for a server that answers the request away from the store (a worker thread).
 */
export function requestShell(state, idleMs) {
  let now = state ?? null;
  let changed = false;
  return {
    idleMs,
    get: () => now,
    put(_caller, next) {
      now = next;
      changed = true;
    },
    left: () => (changed ? now : undefined),
  };
}
