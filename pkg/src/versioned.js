// The sessions of one version each that a session of every version opens for its callers
// (`fs.ofVersion(version)`, `fs.leaseVersion(version)`): a server with a single session (an
// edge runtime's, one per request) runs a command over one version of the docs on one of
// these. Each is opened with the session's own options and the version, so its groups, and
// the check that the version is one of theirs, are the session's; it is kept for the next
// call of that version, and freed with the session.

/** The most sessions of a version kept per session, the least recently used let go first. */
const MAX_KEPT = 8;

/**
 * The version sessions of a session of `scope` (its own `version` option, when it is
 * scoped to one): `lease(version)` resolves with `{ fs, release() }`, the session of that
 * version (opened by `open(version)` the first time; null for the session's own version),
 * `free()` frees them all. A session let go of (beyond `MAX_KEPT`, the least recently used
 * first) is freed once every lease of it is released; one taken without a lease
 * (`lease(version, false)`, as `ofVersion` takes it) is not waited for.
 */
function versionSessions(open, scope) {
  const kept = new Map(); // version → its entry, least recently used first
  const dispose = (entry) => entry.session.then((fs) => fs.free(), () => {});
  const retire = (entry) => {
    entry.retired = true;
    if (entry.leases === 0) dispose(entry);
  };
  return {
    lease(version, counted = true) {
      if (scope !== undefined) {
        // A session scoped to one version has no other.
        if (version === scope) return Promise.resolve({ fs: null, release() {} });
        return Promise.reject(connectRefused(versionUnknown(version, [scope])));
      }
      let entry = kept.get(version);
      if (entry) kept.delete(version);
      else {
        entry = { session: open(version), leases: 0, retired: false };
        // A version that does not exist (or a failed connect) is not kept.
        entry.session.catch(() => kept.get(version) === entry && kept.delete(version));
      }
      kept.set(version, entry);
      // Counted before anything else runs: a lease taken now holds the session even if
      // the next lease lets it go before this one's caller resumes.
      if (counted) entry.leases += 1;
      for (const [v, other] of kept) {
        if (kept.size <= MAX_KEPT) break;
        kept.delete(v);
        retire(other);
      }
      let released = !counted;
      const release = () => {
        if (released) return;
        released = true;
        entry.leases -= 1;
        if (entry.retired) retire(entry);
      };
      return entry.session.then(
        (fs) => ({ fs, release }),
        (e) => {
          release();
          throw e;
        },
      );
    },
    free() {
      for (const entry of kept.values()) dispose(entry);
      kept.clear();
    },
  };
}

/**
 * Why `version` is none of `names`, the versions a session sees, as the core words it
 * ("the versions are …", or "these docs have no versions").
 */
function versionUnknown(version, names) {
  const known = names.length ? `; the versions are ${names.join(", ")}` : ": these docs have no versions";
  return `version ${JSON.stringify(version)} does not exist${known}`;
}

/** The EINVAL `connect` rejects with, saying `why`. */
const connectRefused = (why) => Object.assign(new Error(`EINVAL: invalid argument, connect: ${why}`), { code: "EINVAL" });

export { versionSessions, versionUnknown, connectRefused, MAX_KEPT };
