// The bash-tool sandbox (`createBashTool({ sandbox })`): the interface bash-tool drives,
// over a just-bash `Bash` on a ChromaFs, with commands run through safeExec and writes
// refused the way a read-only filesystem refuses them.

import { safeExec } from "./exec.js";

/**
 * A bash-tool sandbox (`createBashTool({ sandbox })`) over a just-bash `Bash` on a
 * ChromaFs: commands never reject (a failed redirection reads as bash's error line), and
 * writes fail with a clear read-only error instead of a stack trace.
 */
function bashToolSandbox(bash) {
  return {
    async executeCommand(command) {
      const { stdout, stderr, exitCode } = await safeExec(bash, command);
      return { stdout, stderr, exitCode };
    },
    readFile(path) {
      return bash.fs.readFile(path);
    },
    async writeFiles(files) {
      const first = files[0]?.path ?? "/";
      throw new Error(`EROFS: read-only file system, write '${first}'`);
    },
  };
}

export { bashToolSandbox };
