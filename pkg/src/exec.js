// Running a whole command line for an agent: `safeExec` never rejects (an error that
// escaped just-bash becomes the line bash would print) and never hides a failed read, so
// what the agent sees is what a terminal would show.

import { bracketed } from "./bracket.js";
import { withFailures } from "./failures.js";
import { ERRNO_TEXT } from "./errno.js";
import { prepareShell } from "./shell.js";

/**
 * A filesystem error's message as just-bash prints it, alone on a line (one it did not
 * expect) or after a command's words (`mkdir: cannot create directory '/a': EROFS:
 * read-only file system, mkdir '/a'`): the words before it, the errno, the path, the cause.
 */
const FS_ERROR = /^(.*?)\b(E[A-Z]+): [a-z][a-z /-]*, \w+ '([^'\n]*)'(?:: ([^\n]*))?$/gm;

/**
 * `stderr` with each filesystem error in bash's and the GNU tools' words: `bash: /a:
 * Read-only file system` for one alone, `mkdir: cannot create directory '/a': Read-only
 * file system` after a command's words. One cause, one message, whichever command met it.
 */
function inToolWords(stderr) {
  return stderr.replace(FS_ERROR, (line, before, code, path, cause) => {
    const text = ERRNO_TEXT[code];
    if (!text) return line;
    const why = cause ? ` (${cause})` : "";
    return before ? `${before}${text}${why}` : `bash: ${path}: ${text}${why}`;
  });
}

/** The line bash would print for a filesystem error that escaped `exec()`. */
function bashErrorLine(error) {
  const message = error && typeof error.message === "string" ? error.message : String(error);
  const m = /^(E[A-Z]+): [^,]*, \w+ '([^']*)'(?:: ([\s\S]*))?$/.exec(message);
  if (m && ERRNO_TEXT[m[1]]) return `bash: ${m[2]}: ${ERRNO_TEXT[m[1]]}${m[3] ? ` (${m[3]})` : ""}`;
  return `bash: ${message}`;
}

/**
 * `bash.exec()` that never rejects and never hides a failed read. On a ChromaFs, a
 * redirection that cannot open fails its command alone, as in bash (redirects.js: the
 * shell is given a check the first time); an error that still escapes just-bash (a write
 * past `scratchBytes`) resolves with bash's error line on stderr and exit code 1, as a
 * terminal would show it. On a ChromaFs the whole command line is one command for
 * `maxRequestsPerCommand`, `commandTimeoutMs` and `options.signal`, and a read that failed
 * anywhere in it (even one no command reported, such as `wc -l < /a.md`) is on stderr
 * and fails the exit code. A search piped into `head` (`grep -rn WORD / | head -20`) stops
 * once it has printed the lines head takes, when that cannot change what the line shows.
 */
async function safeExec(bash, command, options) {
  const fs = bash.fs;
  prepareShell(bash);
  const run = async () => {
    try {
      const result = await bash.exec(command, options);
      return { ...result, stderr: inToolWords(result.stderr) };
    } catch (error) {
      return { stdout: "", stderr: `${bashErrorLine(error)}\n`, exitCode: 1, env: {} };
    }
  };
  if (typeof fs?.beginCommand !== "function") return run();
  const { result, report } = await bracketed(fs, options?.signal, run);
  return withFailures("bash", result, report, (p) => fs.resolvePath("/", p), 1);
}

export { safeExec, bashErrorLine };
