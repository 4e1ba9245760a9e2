// What one MCP call may spend, and how many calls one caller may have running.
//
// A server is exposed to agents: one call must not take it down, and one caller must not
// crowd out the others. The limits here are read once (`limitsOf`); the gate counts calls in
// flight per caller, where a caller is who the server authenticated (see endpoint.mjs), not
// how the request spelled its credentials; the registry lets a cancellation that arrives in
// another HTTP request reach the call it names, and only that caller's call.

/** The most characters a tool result holds (as bash-tool and Mintlify's docs servers cap it). */
export const MAX_OUTPUT = 30_000;

/** What one call may spend, unless the operator says otherwise. */
export const DEFAULT_LIMITS = Object.freeze({
  /** Wall time of one call; the call also ends when its client goes away. */
  callTimeoutMs: 30_000,
  /** Chroma requests one call may send, across every mount. */
  maxRequests: 200,
  /** Calls one caller may have in flight; the next is refused until one ends. */
  callsInFlight: 4,
  /** Characters of a `bash` command line, and of a `search` query. */
  maxCommandChars: 16_384,
  maxQueryChars: 1_000,
  /**
   * The JavaScript heap of a worker thread that runs calls (Node's servers), in MiB: the
   * calls it runs at once share it, and a worker that outgrows it is stopped.
   */
  memoryMiB: 512,
  /** just-bash's limits, over its "hardened" profile (see just-bash's ExecutionLimits). */
  executionLimits: Object.freeze({}),
});

const COUNTS = ["callTimeoutMs", "maxRequests", "callsInFlight", "maxCommandChars", "maxQueryChars", "memoryMiB"];

/** `limits` over the defaults, each checked; a TypeError names the first that is not valid. */
export function limitsOf(limits = {}) {
  const out = { ...DEFAULT_LIMITS, ...limits };
  for (const key of COUNTS) {
    if (!Number.isSafeInteger(out[key]) || out[key] < 1) throw new TypeError(`limits.${key} must be a positive whole number`);
  }
  if (out.memoryMiB < 64) throw new TypeError("limits.memoryMiB must be at least 64");
  return out;
}

/** The output and, when the command failed, its exit code: the code is never cut off. */
export function shown({ stdout, stderr, exitCode }, note) {
  const join = (a, b) => (a && b ? a + (a.endsWith("\n") ? "" : "\n") + b : a || b);
  let text = join(stdout, stderr);
  if (text.length > MAX_OUTPUT) {
    text =
      text.slice(0, MAX_OUTPUT) +
      `\n[output cut at ${MAX_OUTPUT.toLocaleString("en")} characters: narrow the command (grep -l, head -n 50, a smaller path, sed -n 'START,ENDp')]`;
  }
  text = join(text, note ?? "");
  if (exitCode !== 0) text = join(text, `[exit code ${exitCode}]`);
  return text || "(no output)";
}

/**
 * A result's streams cut to what `shown` can show, so that a result crossing threads or the
 * network is never larger than the answer made of it.
 */
export function bounded(result) {
  const cut = (s) => (typeof s === "string" && s.length > MAX_OUTPUT + 1 ? s.slice(0, MAX_OUTPUT + 1) : (s ?? ""));
  return { stdout: cut(result.stdout), stderr: cut(result.stderr), exitCode: result.exitCode };
}

/**
 * How a call is stopped: `signal` aborts at the first `stop(reason)`, and `why()` is the
 * first reason given, or null (a client that went away gives none). Its deadline, its
 * client and the host all stop a call this way, so the call says which came first.
 */
export function callStop() {
  const controller = new AbortController();
  let why = null;
  return {
    signal: controller.signal,
    stop(reason) {
      why ??= reason;
      controller.abort();
    },
    why: () => why,
  };
}

/** The reason given to a call stopped at its deadline, `ms` after it started. */
export function outOfTime(ms) {
  return `the call ran out of time after ${ms.toLocaleString("en")} ms`;
}

/**
 * Calls in flight per caller, for `createMcpServer`'s `gate`: `enter(caller)` gives a
 * function that ends the call, or `null` when the caller already has `max` in flight.
 */
export function callGate(max = DEFAULT_LIMITS.callsInFlight) {
  const open = new Map();
  return {
    max,
    enter(caller) {
      const n = open.get(caller) ?? 0;
      if (n >= max) return null;
      open.set(caller, n + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const rest = (open.get(caller) ?? 1) - 1;
        if (rest > 0) open.set(caller, rest);
        else open.delete(caller);
      };
    },
  };
}

/**
 * The calls running across the servers of one endpoint, so that a client's
 * `notifications/cancelled` stops its call even when it arrives in another HTTP request (a
 * stateless endpoint answers each request with a server of its own). Calls are keyed by
 * caller and request id: a client can cancel only its own.
 */
export function callRegistry() {
  const running = new Map();
  const key = (caller, id) => JSON.stringify([caller, id]);
  return {
    add(caller, id, stop) {
      running.set(key(caller, id), stop);
      return () => running.get(key(caller, id)) === stop && running.delete(key(caller, id));
    },
    cancel(caller, id) {
      running.get(key(caller, id))?.();
    },
  };
}
