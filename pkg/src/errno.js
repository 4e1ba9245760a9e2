// The words bash and the GNU tools print for an errno, by its name (strerror's, in the C
// locale), for the errors chromafs's filesystem gives.

const ERRNO_TEXT = Object.freeze({
  EROFS: "Read-only file system",
  ENOENT: "No such file or directory",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EIO: "Input/output error",
  EINVAL: "Invalid argument",
  EACCES: "Permission denied",
  EEXIST: "File exists",
  ENOTEMPTY: "Directory not empty",
  ENOSPC: "No space left on device",
  EBUSY: "Device or resource busy",
});

/** An error's errno name and strerror's words for it (`EIO` for one without a known name). */
function errnoOf(e) {
  const code = typeof e?.code === "string" && ERRNO_TEXT[e.code] ? e.code : "EIO";
  return [code, ERRNO_TEXT[code]];
}

export { ERRNO_TEXT, errnoOf };
