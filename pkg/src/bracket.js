// One command of a ChromaFs, from start to end: its request budget and timeout, the host's
// AbortSignal, and the report of the reads that failed while it ran. Custom commands,
// safeExec and the MCP server's calls all bracket their work this way, so they agree on
// what one command is.

/** Runs `body` as one command of `fs` (held to `limits`): its budget, its abort, its report of failures. */
async function bracketed(fs, signal, body, limits) {
  return inCommand(fs, fs.beginCommand(limits), signal, body);
}

/**
 * Runs `body` in the command of `fs` that `mark` (from `fs.beginCommand`) opened, which
 * `signal` aborts, and closes it: `{ result, report }`, the report being `endCommand`'s.
 * For a caller that sends requests of its own in the command before `body` runs.
 */
async function inCommand(fs, mark, signal, body) {
  const abort = () => fs.abortCommand();
  if (signal?.aborted) abort();
  signal?.addEventListener?.("abort", abort, { once: true });
  let result, report;
  try {
    result = await body();
  } finally {
    signal?.removeEventListener?.("abort", abort);
    report = fs.endCommand(mark);
  }
  return { result, report };
}

export { bracketed, inCommand };
