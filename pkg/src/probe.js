// Which filesystem a command really runs on. just-bash hands commands a wrapper around the
// host's filesystem, and a listing may be answered in Rust only when that filesystem is the
// ChromaFs itself; the wrapper does not say. So a ChromaFs answers one path that no real
// path can be, the probe, with a value of its own that nothing else returns: the wrapper's
// `resolvePath` returns that value only when it calls through to that very ChromaFs
// (just-bash's wrapper does; a host's MountableFs with other mounts resolves paths itself).

/** The path asked for only to learn which filesystem answers `resolvePath`. */
const PROBE = "\u0000chromafs-probe";

/** Whether `fs` (a command's `ctx.fs`) answers the probe with `answer`, a ChromaFs's own value. */
function reaches(fs, answer) {
  try {
    return fs.resolvePath("/", PROBE) === answer;
  } catch {
    return false;
  }
}

export { PROBE, reaches };
