// The chromafs sessions a server keeps between calls, and how one call runs on one.
//
// Connecting costs a request and, the first time in a process, the path tree; a call should
// cost what its command costs. So sessions wait between calls, one group set each, and a
// call leases one. While the call runs, a kept session checks with one small request that
// the collection's tree is still the one it opened with: after a re-ingest the call runs
// again on a new session, so a page made private is gone from the next call on.

import { inCommand } from "../dist/api.mjs";

/**
 * Sessions kept between calls, one group set (and version of the docs) each:
 * `lease(groups, version)` gives an idle session (or connects one) as
 * `{ fs, pooled: true, release(stale) }`. A released session waits for the next call of its
 * group set; a stale one (the docs changed) is freed. `connect(groups, version)` opens a
 * session (`version` undefined: every version). At most `idlePerGroups` sessions wait per
 * group set and `maxIdle` in all, the least recently used freed first: what idle sessions
 * hold is bounded by `maxIdle` × the sessions' `cacheBytes` (the server's have 4 MiB each,
 * and the pages they hold are mostly the process tier's own). A group set keeps enough to
 * answer its callers' calls in flight without connecting again: a connect is a request and
 * a session built, and a hundred callers of one group set keep about fifty calls in flight
 * in each of two workers; sixteen would make most of their calls connect anew.
 */
export function sessionPool(connect, { idlePerGroups = 64, maxIdle = 64 } = {}) {
  const idle = new Map(); // group-set key → sessions, most recently released last
  let count = 0;
  const evict = () => {
    while (count > maxIdle) {
      const [key, list] = idle.entries().next().value;
      list.shift().free?.();
      count -= 1;
      if (!list.length) idle.delete(key);
    }
  };
  return {
    async lease(groups, version) {
      const set = [...new Set(groups)].sort();
      const key = JSON.stringify(version === undefined ? set : [set, version]);
      const list = idle.get(key);
      let fs = list?.pop();
      if (list && !list.length) idle.delete(key);
      if (fs) count -= 1;
      else fs = await connect(set, version);
      return {
        fs,
        pooled: true,
        release(stale) {
          if (stale) return void fs.free?.();
          const mine = idle.get(key) ?? [];
          if (mine.length >= idlePerGroups) return void fs.free?.();
          idle.delete(key); // re-inserted: the most recently used group set goes last
          idle.set(key, [...mine, fs]);
          count += 1;
          evict();
        },
      };
    },
    /** Frees every idle session. */
    close() {
      for (const list of idle.values()) for (const fs of list) fs.free?.();
      idle.clear();
      count = 0;
    },
  };
}

/**
 * How a pool connects (its `connect`): `ChromaFs`'s session of `options` for a group set and,
 * when given, a version of the docs; with `mounts`, one over the mounts.
 */
export function scopedConnect(ChromaFs, options) {
  return (groups, version) => {
    const own = { ...options, groups, ...(version === undefined ? {} : { version }) };
    return own.mounts ? ChromaFs.connectMounts(own) : ChromaFs.connect(own);
  };
}

/**
 * A lease of the session a call runs on (of `version`, when given), whatever form `source`
 * takes: a pool's, or the server's one session, whose sessions of one version each it
 * opens, keeps and frees (`leaseVersion`, as an edge runtime's server has them), held until
 * the call ends.
 */
async function leaseOf(source, version) {
  if (typeof source?.lease === "function") return source.lease(version);
  const fs = typeof source === "function" ? await source() : source;
  if (version === undefined) return { fs, pooled: false, release() {} };
  if (typeof fs?.leaseVersion !== "function") throw new Error("this server's session cannot open a version of the docs: it cannot run a command over one version");
  const lease = await fs.leaseVersion(version);
  return { fs: lease.fs, pooled: false, release: lease.release };
}

/**
 * Runs `body(fs, signal)` as one call: one command of the session, held to `limits` (its
 * requests, and its wall time: until `deadline`, on `Date.now()`'s clock, when the call has
 * one), aborted with `signal` (the body gets the signal that stops its own run). Resolves
 * with `{ value, failed }`: `failed` when a read failed anywhere in the call (Chroma down, a
 * budget spent).
 *
 * A pooled session may be older than the docs: the check that it is not (one small
 * request) runs beside the command, so that a call costs no round trip more than its
 * command does. When the docs changed since the session was opened, the command is
 * stopped, its answer thrown away unseen, and the call runs again on a new session. The
 * old session's command read only what its own tree showed, and a page kept for other
 * sessions (the process tier, the shared cache) waits for that same check before it is
 * served (`TreeCheck`), so nothing of the new docs that the caller may not see reaches
 * the answer.
 */
export async function withSession(source, limits, signal, body, version, deadline) {
  const bracket = () => {
    const timeoutMs = deadline === undefined ? limits.callTimeoutMs : Math.max(1, Math.round(deadline - Date.now()));
    return { maxRequests: limits.maxRequests, timeoutMs };
  };
  let lease = await leaseOf(source, version);
  try {
    if (lease.pooled) {
      const checked = await checkedCall(lease.fs, bracket(), signal, body);
      if (!checked.stale) return checked.answer;
      const stale = lease;
      lease = null;
      stale.release(true);
      lease = await leaseOf(source, version);
    }
    const { fs } = lease;
    const { result, report } = await inCommand(fs, fs.beginCommand(bracket()), signal, () => body(fs, signal));
    return result && { value: result, failed: report.total > 0 };
  } finally {
    lease?.release(false);
  }
}

/**
 * `body(fs, signal)` as one command of `fs`, beside the check that `fs` is current: `{ answer }`,
 * or `{ stale: true }` when the docs changed (the command stopped, its answer dropped). A check
 * that cannot be made (Chroma down) keeps the session: the call then reports why.
 */
async function checkedCall(fs, bracket, signal, body) {
  const stop = new AbortController();
  const relay = () => stop.abort();
  if (signal?.aborted) relay();
  signal?.addEventListener?.("abort", relay, { once: true });
  try {
    const mark = fs.beginCommand(bracket);
    const current = fs.isCurrent().catch(() => true);
    const ran = inCommand(fs, mark, stop.signal, () => body(fs, stop.signal)).then(
      (outcome) => ({ outcome }),
      (error) => ({ error }),
    );
    if (!(await current)) {
      stop.abort();
      await ran;
      return { stale: true };
    }
    const { outcome, error } = await ran;
    if (error) throw error;
    return { answer: outcome.result && { value: outcome.result, failed: outcome.report.total > 0 } };
  } finally {
    signal?.removeEventListener?.("abort", relay);
  }
}

/**
 * The versions a server's tools offer one caller: over HTTP with credentials the server's
 * `versions` are any name (`exact: false`, its callers seeing different pages); a caller's
 * own server offers the versions of the pages that caller sees, as a session of its groups
 * reads them (`read()`: `fs.versions()`'s answer, the "versions" operation of tools.mjs), as
 * an exact list, never another caller's; the server's own when no session can be opened.
 * Others as they are.
 */
export async function callerVersions(versions, read) {
  if (!versions?.names?.length || versions.scoped || versions.exact) return versions;
  // Chroma out of reach: the server's own list, as any name (a call then says what failed).
  const seen = await read().catch(() => null);
  if (!seen) return versions;
  return seen.versions.length ? { names: seen.versions, default: seen.default, scoped: seen.scoped, exact: true } : null;
}
