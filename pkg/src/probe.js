// Which filesystem a command really runs on. just-bash hands commands a wrapper around the
// host's filesystem, and a listing may be answered in Rust only when that filesystem is the
// ChromaFs itself; the wrapper does not say, so a marked `resolvePath` call is traced
// through a patch of ChromaFs.prototype.resolvePath into a module-global slot.

// A path only asked for to learn which filesystem answers `resolvePath`.
const PROBE = "\u0000chromafs-probe";
let probed = null;

/** Patches `proto.resolvePath` to record which ChromaFs answered the probe path. */
function installProbe(proto) {
  const resolvePath = proto.resolvePath;
  Object.defineProperty(proto, "resolvePath", {
    value: function (base, path) {
      if (path === PROBE) probed = this;
      return resolvePath.call(this, base, path);
    },
    writable: true,
    configurable: true,
  });
}

/**
 * Whether a command's filesystem is `fs` itself rather than a host's filesystem around
 * it (a MountableFs with other mounts): only then may a command be answered from `fs`'s
 * listing alone. just-bash hands commands a wrapper whose methods are bound to the real
 * filesystem, so the wrapper's `resolvePath` reaches `fs`'s only in that case.
 */
function readsOnly(fs, ctx) {
  probed = null;
  try {
    ctx.fs.resolvePath("/", PROBE);
  } catch {
    return false;
  }
  return probed === fs;
}

export { installProbe, readsOnly };
