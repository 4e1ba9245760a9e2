// The sessions of one version each that a session of every version opens for its callers
// (`fs.ofVersion(version)`): a server with a single session (an edge runtime's, one per
// request) runs a command over one version of the docs on one of these. Each is opened
// with the session's own options and the version, so its groups, and the check that the
// version is one of theirs, are the session's; it is kept for the next call of that
// version, and freed with the session.

/** The most sessions of a version kept per session, the least recently used freed first. */
const MAX_KEPT = 8;

/**
 * The version sessions of a session of `scope` (its own `version` option, when it is
 * scoped to one): `get(version)` resolves with the session of that version (opened by
 * `open(version)` the first time), `free()` frees them all.
 */
function versionSessions(open, scope) {
  const kept = new Map(); // version → Promise of its session, least recently used first
  const dispose = (p) => p.then((fs) => fs.free(), () => {});
  return {
    get(version) {
      if (scope !== undefined) {
        // A session scoped to one version has no other.
        if (version === scope) return null;
        const why = `version ${JSON.stringify(version)} does not exist; the versions are ${scope}`;
        return Promise.reject(Object.assign(new Error(`EINVAL: invalid argument, connect: ${why}`), { code: "EINVAL" }));
      }
      let session = kept.get(version);
      if (session) kept.delete(version);
      else {
        session = open(version);
        // A version that does not exist (or a failed connect) is not kept.
        session.catch(() => kept.get(version) === session && kept.delete(version));
      }
      kept.set(version, session);
      for (const [v, p] of kept) {
        if (kept.size <= MAX_KEPT) break;
        kept.delete(v);
        dispose(p);
      }
      return session;
    },
    free() {
      for (const p of kept.values()) dispose(p);
      kept.clear();
    },
  };
}

export { versionSessions, MAX_KEPT };
