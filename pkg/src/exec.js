// Running a whole command line for an agent: `safeExec` never rejects (an error that
// escaped just-bash becomes the line bash would print) and never hides a failed read, so
// what the agent sees is what a terminal would show.

import { bracketed } from "./bracket.js";
import { withFailures } from "./failures.js";
import { withPipeline } from "./pipeline.js";

const ERRNO_TEXT = {
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
};

/** The line bash would print for a filesystem error that escaped `exec()`. */
function bashErrorLine(error) {
  const message = error && typeof error.message === "string" ? error.message : String(error);
  const m = /^(E[A-Z]+): [^,]*, \w+ '([^']*)'(?:: ([\s\S]*))?$/.exec(message);
  if (m && ERRNO_TEXT[m[1]]) return `bash: ${m[2]}: ${ERRNO_TEXT[m[1]]}${m[3] ? ` (${m[3]})` : ""}`;
  return `bash: ${message}`;
}

/**
 * `bash.exec()` that never rejects and never hides a failed read. just-bash rejects
 * `exec()` when a top-level redirection fails (`echo x > /a.md` on a read-only
 * filesystem); this resolves instead with bash's error line on stderr and exit code 1, as
 * a terminal would show it. On a ChromaFs the whole command line is one command for
 * `maxRequestsPerCommand`, `commandTimeoutMs` and `options.signal`, and a read that failed
 * anywhere in it (even one no command reported, such as `wc -l < /a.md`) is on stderr
 * and fails the exit code. A search piped into `head` (`grep -rn WORD / | head -20`) stops
 * once it has printed the lines head takes, when that cannot change what the line shows.
 */
async function safeExec(bash, command, options) {
  const fs = bash.fs;
  const run = async () => {
    try {
      return await bash.exec(command, options);
    } catch (error) {
      return { stdout: "", stderr: `${bashErrorLine(error)}\n`, exitCode: 1, env: {} };
    }
  };
  if (typeof fs?.beginCommand !== "function") return run();
  const { result, report } = await bracketed(fs, options?.signal, () => withPipeline(fs, command, run));
  return withFailures("bash", result, report, (p) => fs.resolvePath("/", p), 1);
}

export { safeExec, bashErrorLine };
