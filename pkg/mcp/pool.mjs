// Where a Node MCP server runs its calls: worker threads that can be stopped (Node only).
//
// A command runs JavaScript: just-bash's interpreter, chromafs's search. One that matches a
// glob against an 8 MB string computes for seconds without yielding, and on the server's own
// thread nothing else — no other caller, not even the call's own deadline — gets a turn. So
// calls run in a pool of worker threads (as many as the machine has cores, at least two),
// each with its own chromafs sessions and a bounded JavaScript heap (`limits.memoryMiB`),
// several calls to a worker as they wait on Chroma.
//
// The pool watches its workers. Each beats a shared counter every few milliseconds, and
// counts the callbacks it begins and records which call each belongs to (an async hook, see
// worker.mjs). A worker where neither count moves for a quarter of a second while it has
// calls is computing without yielding: it is stalled (a worker that is only busy goes on
// beginning callbacks, however late its timer): it takes no new call, the call that was running stays on it
// alone, and every other call on it starts again on another worker (once; the first answer
// wins), so a caller who shared a worker with a runaway command is answered anyway. A call
// past its deadline is asked to stop; if its worker does not answer within half a second, the
// call is answered without it and the worker, if stalled, is stopped (and replaced). A worker
// that outgrows its heap dies on its own: the call that was running is answered "ran out of
// memory", the others start again elsewhere. No call is ever answered twice.
import { Worker } from "node:worker_threads";
import os from "node:os";
import { toWorker } from "./bridge.mjs";

/** How often a worker beats. */
const BEAT_MS = 20;
/** A worker with calls whose heart has not beaten for this long is stalled. */
const STALL_MS = 250;
/** How often the pool looks at its workers. */
const WATCH_MS = 50;
/** How long a call asked to stop has to answer before it is answered without its worker. */
const GRACE_MS = 500;
/** How many times a call may start again on another worker. */
const MAX_MOVES = 1;

const WORKER = new URL("./worker.mjs", import.meta.url);

/** What a call that had to be answered without its worker says. */
const ABORTED = Object.freeze({ stdout: "", stderr: "bash: execution aborted\n", exitCode: 124 });

/** The cores this process may use. */
const cores = () => (typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);

/**
 * A pool of `size` workers (default: the cores, at least 2) that run calls on sessions of
 * `connectOptions`, held to `limits`, with `baseUrl` for pages' addresses. `run({ tool,
 * args, groups, signal })` resolves with the call's outcome (see tools.mjs); `close()`
 * stops every worker. `stats()` says what the pool did (for tests and benchmarks).
 */
export function workerPool({ connectOptions, limits, baseUrl = null, size = Math.max(2, cores()) }) {
  refuseFetch(connectOptions);
  const { data, functions } = toWorker({ options: connectOptions, base: baseUrl });
  const shared = { ...data, limits: { ...limits, executionLimits: { ...limits.executionLimits } } };
  const slots = new Set();
  const queue = [];
  const counts = { started: 0, stalled: 0, stopped: 0, outOfMemory: 0, moved: 0 };
  let nextId = 1;
  let closed = false;
  // Set when a worker could not start (a model that will not load): every call says why.
  let broken = null;
  // Workers that ended before they were ready, in a row: a pool that cannot start one stops trying.
  let failedStarts = 0;

  const live = () => [...slots].filter((s) => s.state !== "gone");
  const healthy = () => live().filter((s) => s.state === "starting" || s.state === "ready");

  function spawn() {
    const sab = new SharedArrayBuffer(12);
    const beat = new Int32Array(sab);
    beat[1] = -1;
    const worker = new Worker(WORKER, {
      workerData: { ...shared, beat: sab, beatMs: BEAT_MS },
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMiB },
    });
    const slot = { worker, beat, lastBeat: "", lastBeatAt: performance.now(), attempts: new Map(), state: "starting", memory: false };
    counts.started += 1;
    slots.add(slot);
    worker.on("message", (m) => onMessage(slot, m));
    worker.on("error", (e) => {
      if (e?.code === "ERR_WORKER_OUT_OF_MEMORY") slot.memory = true;
      else console.error("chromafs mcp: a worker thread failed:", e);
    });
    worker.on("exit", () => gone(slot));
    worker.unref();
    return slot;
  }

  /** Keeps `size` workers that take calls, and no more threads than three times that. */
  function replenish() {
    if (closed || broken) return;
    while (healthy().length < size && live().length < size * 3) spawn();
  }

  function onMessage(slot, m) {
    if (m.type === "ready") {
      if (slot.state === "starting") slot.state = "ready";
      failedStarts = 0;
      drain();
    } else if (m.type === "done" || m.type === "error") {
      const attempt = slot.attempts.get(m.id);
      if (!attempt) return;
      slot.attempts.delete(m.id);
      attempt.call.attempts.delete(attempt);
      if (m.type === "done") settle(attempt.call, m.outcome);
      else settle(attempt.call, null, new Error(m.message));
      drain();
    } else if (m.type === "rpc") {
      answerRpc(slot, m);
    } else if (m.type === "log") {
      console.error(m.text);
    } else if (m.type === "fatal") {
      broken = new Error(`the server's worker thread could not start: ${m.message}`);
      console.error("chromafs mcp:", broken.message);
      for (const call of queue.splice(0)) settle(call, null, broken);
      for (const a of [...slot.attempts.values()]) settle(a.call, null, broken);
      stop(slot);
    }
  }

  function answerRpc(slot, { id, fn, args }) {
    Promise.resolve()
      .then(() => functions[fn](...args))
      .then(
        (value) => post(slot, { type: "rpc-result", id, value }),
        (e) => post(slot, { type: "rpc-result", id, error: { message: e?.message ?? String(e), code: e?.code } }),
      )
      .catch((e) => post(slot, { type: "rpc-result", id, error: { message: `the answer could not reach the worker: ${e?.message ?? e}` } }));
  }

  /** Sends `message` to a worker that may have ended meanwhile. */
  function post(slot, message) {
    if (slot.state !== "gone") slot.worker.postMessage(message);
  }

  /** The worker that takes a call next: a ready one before one starting, then the least busy. */
  function pick(call) {
    const load = (s) => (s.state === "ready" ? 0 : 1e9) + s.attempts.size;
    let best = null;
    for (const s of healthy()) if (!call.avoid.has(s) && (!best || load(s) < load(best))) best = s;
    return best;
  }

  function start(call) {
    const slot = pick(call);
    if (!slot) {
      queue.push(call);
      replenish();
      return;
    }
    const id = nextId;
    nextId = nextId >= 0x7fffffff ? 1 : nextId + 1;
    const attempt = { id, call, slot };
    slot.attempts.set(id, attempt);
    call.attempts.add(attempt);
    const timeoutMs = Math.max(1, Math.round(call.deadline - performance.now()));
    post(slot, { type: "call", id, tool: call.tool, args: call.args, groups: call.groups, timeoutMs });
  }

  function drain() {
    while (queue.length) {
      const call = queue[0];
      if (call.settled) {
        queue.shift();
        continue;
      }
      if (!pick(call)) return;
      queue.shift();
      start(call);
    }
  }

  /** Starts `call` again on another worker, or answers it with `why` when it may not. */
  function move(call, why) {
    if (call.settled) return;
    if (call.moves >= MAX_MOVES) {
      if (!call.attempts.size) settle(call, { result: { ...ABORTED }, isError: true, failed: false, note: `[${why}]` });
      return;
    }
    call.moves += 1;
    counts.moved += 1;
    start(call);
  }

  function settle(call, outcome, error) {
    if (call.settled) return;
    call.settled = true;
    clearTimeout(call.grace);
    call.signal?.removeEventListener("abort", call.onAbort);
    for (const a of call.attempts) {
      a.slot.attempts.delete(a.id);
      post(a.slot, { type: "cancel", id: a.id });
    }
    call.attempts.clear();
    if (error) call.reject(error);
    else call.resolve(outcome);
  }

  /** A stalled worker: no new calls; its running call stays; the others start again elsewhere. */
  function stall(slot) {
    slot.state = "stalled";
    counts.stalled += 1;
    const attempts = [...slot.attempts.values()];
    // The call the worker is running: the one its hook recorded, or the only one it has.
    const runaway = attempts.length === 1 ? attempts[0] : slot.attempts.get(slot.beat[1]);
    for (const a of attempts) {
      a.call.avoid.add(slot);
      if (a !== runaway) move(a.call, "the worker running the call stopped answering");
    }
    replenish();
  }

  /** Stops a worker; its calls start again elsewhere or are answered. */
  function stop(slot) {
    if (slot.state === "gone") return;
    counts.stopped += 1;
    slot.worker.terminate();
    gone(slot);
  }

  function gone(slot) {
    if (slot.state === "gone") return;
    if (slot.state === "starting" && !closed && ++failedStarts >= 3) {
      broken ??= new Error(`the server's worker threads end before they are ready${slot.memory ? ` (out of memory: a worker's heap holds ${limits.memoryMiB} MiB)` : ""}`);
      console.error("chromafs mcp:", broken.message);
      for (const call of queue.splice(0)) settle(call, null, broken);
    }
    slot.state = "gone";
    slots.delete(slot);
    const running = slot.beat[1];
    if (slot.memory) counts.outOfMemory += 1;
    for (const a of slot.attempts.values()) {
      a.call.attempts.delete(a);
      a.call.avoid.add(slot);
      if (slot.memory && a.id === running) {
        settle(a.call, { result: { ...ABORTED }, isError: true, failed: false, note: `[the call ran out of memory: a worker's heap holds ${limits.memoryMiB} MiB]` });
      } else if (!a.call.attempts.size) {
        move(a.call, slot.memory ? "a call beside it ran out of memory" : "the worker running the call stopped");
      }
    }
    slot.attempts.clear();
    replenish();
    drain();
  }

  function watch() {
    const now = performance.now();
    for (const slot of live()) {
      const beats = `${slot.beat[0]} ${slot.beat[2]}`;
      if (beats !== slot.lastBeat) {
        slot.lastBeat = beats;
        slot.lastBeatAt = now;
      }
      const quiet = now - slot.lastBeatAt > STALL_MS;
      if (slot.state === "ready" && slot.attempts.size && quiet) stall(slot);
      else if (slot.state === "stalled" && !slot.attempts.size) {
        // Its runaway call is over: a worker that beats again takes calls again; one still
        // computing for a call nobody waits on any more is only burning a core.
        if (quiet) stop(slot);
        else {
          slot.state = "ready";
          drain();
        }
      }
    }
  }
  const watcher = setInterval(watch, WATCH_MS);
  watcher.unref();
  replenish();

  return {
    /** Runs one call; resolves with its outcome (rejects when the worker could not run it). */
    run({ tool, args, groups = [], signal, timeoutMs = limits.callTimeoutMs }) {
      if (closed) return Promise.reject(new Error("the server is closing"));
      if (broken) return Promise.reject(broken);
      return new Promise((resolve, reject) => {
        const call = { tool, args, groups, signal, resolve, reject, attempts: new Set(), avoid: new Set(), moves: 0, settled: false, deadline: performance.now() + timeoutMs };
        call.onAbort = () => {
          for (const a of call.attempts) post(a.slot, { type: "cancel", id: a.id });
          call.grace = setTimeout(() => {
            const stuck = [...call.attempts].map((a) => a.slot);
            settle(call, { result: { ...ABORTED }, isError: true, failed: false });
            for (const s of stuck) if (s.state === "stalled") stop(s);
          }, GRACE_MS);
        };
        if (signal?.aborted) return resolve({ result: { ...ABORTED }, isError: true, failed: false });
        signal?.addEventListener("abort", call.onAbort, { once: true });
        start(call);
      });
    },
    stats: () => ({ ...counts, workers: live().length, ready: healthy().length }),
    async close() {
      closed = true;
      clearInterval(watcher);
      const all = [...slots];
      for (const call of queue.splice(0)) settle(call, null, new Error("the server is closing"));
      await Promise.all(all.map((s) => s.worker.terminate().catch(() => {})));
    },
  };
}

/** A host's own `fetch` cannot be called from a worker (its requests carry signals and streams). */
function refuseFetch(connectOptions) {
  const all = [connectOptions, ...Object.values(connectOptions.mounts ?? {}).filter((m) => m && typeof m === "object")];
  if (all.some((o) => typeof o.fetch === "function")) {
    throw new TypeError("the server runs each call in a worker thread, and a `fetch` option cannot reach one: leave it out, or run calls in this thread (`workers: 0`)");
  }
}
