// One command of a ChromaFs, from start to end: its request budget and timeout, the host's
// AbortSignal, and the report of the reads that failed while it ran. Custom commands and
// safeExec both bracket their work this way, so the two agree on what one command is.

/** Runs `body` as one command of `fs`: its budget, its abort, its report of failures. */
async function bracketed(fs, signal, body) {
  const mark = fs.beginCommand();
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

export { bracketed };
