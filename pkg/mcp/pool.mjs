// Where a Node MCP server does its work: worker threads that can be stopped (Node only).
//
// A command runs JavaScript: just-bash's interpreter, chromafs's search. One that matches a
// glob against an 8 MB string computes for seconds without yielding, and on the server's own
// thread nothing else — no other caller, not even the call's own deadline — gets a turn. So
// the work runs in a pool of worker threads (as many as the machine has cores, at least two),
// each with its own chromafs sessions and a bounded JavaScript heap (`limits.memoryMiB`),
// several jobs to a worker as they wait on Chroma. A job is one call that reads the docs (a
// tool call, a resource operation, an llms.txt file), whatever carried its request: the
// server's thread speaks MCP, counts and times the call, and hands the pool only the call.
//
// The pool watches its workers. Each beats a shared counter every few milliseconds, and
// counts the times its thread goes from one job's code to another's, recording which job
// runs (an async hook, see worker.mjs). A worker where neither count moves for a quarter
// of a second while it has jobs is computing for one job alone, without yielding or
// yielding only to that job's promises: it is stalled (a worker that is only busy goes
// from job to job, however late its timer). A stalled worker takes no new job; the job
// that was running stays on it alone, and every other job on it starts again on another
// worker: once for a job that had begun there (the first answer wins, and every job here
// only reads), however often for one that had not (it leaves the worker), so a caller who
// shared a worker with a runaway command is answered anyway. A job's deadline is its
// caller's: the caller's signal aborts it (its deadline, its client gone), and the worker is
// told to stop it; if the worker does not answer within half a second, the job ends without
// it (`{ abandoned: "stopped" }`) and the worker is stopped and replaced, stalled or not: a
// worker that neither answers nor stops a call it was told to stop cannot be trusted with
// the next. A worker that outgrows its heap dies on its own: the job that was running ends
// `{ abandoned: "memory" }`, the others start again elsewhere. No job ever ends twice.
import { Worker } from "node:worker_threads";
import os from "node:os";
import { toWorker } from "./bridge.mjs";

/** How often a worker beats. */
const BEAT_MS = 20;
/** A worker with jobs whose counts have not moved for this long is stalled. */
const STALL_MS = 250;
/** How often the pool looks at its workers. */
const WATCH_MS = 50;
/** How long a job asked to stop has to answer before it ends without its worker. */
const GRACE_MS = 500;
/** How many times a job may start again on another worker. */
const MAX_MOVES = 1;

const WORKER = new URL("./worker.mjs", import.meta.url);

/** The cores this process may use. */
const cores = () => (typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);

/**
 * A pool of `size` workers (default: the cores, at least 2) over sessions of
 * `connectOptions`, held to `limits`; `server` is what the workers' MCP servers are made
 * with (tool prefix, docs, base URL). `run(call, { signal, deadline })` runs one call
 * (`{ tool, args, groups, shell }`, see worker.mjs) and resolves with its outcome, or
 * `{ abandoned }` when it ended without one; `deadline` (on `Date.now()`'s clock) is the
 * caller's, which the worker's request budget is held to, and `signal` the caller's stop.
 * `close()` stops every worker; `stats()` says what the pool did.
 */
export function workerPool({ connectOptions, limits, server = {}, size = Math.max(2, cores()) }) {
  refuseFetch(connectOptions);
  const { data, functions } = toWorker({ options: connectOptions, server });
  const shared = { ...data, limits: { ...limits, executionLimits: { ...limits.executionLimits } } };
  const slots = new Set();
  const queue = [];
  const counts = { started: 0, stalled: 0, stopped: 0, outOfMemory: 0, moved: 0 };
  let nextId = 1;
  let closed = false;
  // Set when a worker could not start (a model that will not load): every job says why.
  let broken = null;
  // Workers that ended before they were ready, in a row: a pool that cannot start one stops trying.
  let failedStarts = 0;
  // Those waiting for the first worker to be ready (see ready()).
  let waitingReady = [];
  let everReady = false;
  const answerReady = () => {
    for (const w of waitingReady.splice(0)) (broken ? w.reject(broken) : w.resolve());
  };

  const live = () => [...slots].filter((s) => s.state !== "gone");
  const healthy = () => live().filter((s) => s.state === "starting" || s.state === "ready");

  function spawn() {
    const sab = new SharedArrayBuffer(16);
    const beat = new Int32Array(sab);
    beat[1] = -1;
    const worker = new Worker(WORKER, {
      workerData: { ...shared, beat: sab, beatMs: BEAT_MS },
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMiB },
    });
    const slot = { worker, beat, posted: 0, lastBeat: "", lastBeatAt: performance.now(), attempts: new Map(), state: "starting", memory: false };
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

  /** Keeps `size` workers that take jobs, and no more threads than three times that. */
  function replenish() {
    if (closed || broken) return;
    while (healthy().length < size && live().length < size * 3) spawn();
  }

  function onMessage(slot, m) {
    if (m.type === "ready") {
      // Jobs sent while it started run from now on; until they beat, its silence is no stall.
      slot.lastBeatAt = performance.now();
      if (slot.state === "starting") slot.state = "ready";
      failedStarts = 0;
      everReady = true;
      answerReady();
      drain();
    } else if (m.type === "done" || m.type === "error") {
      const attempt = slot.attempts.get(m.id);
      if (!attempt) return;
      slot.attempts.delete(m.id);
      attempt.job.attempts.delete(attempt);
      if (m.type === "done") settle(attempt.job, m.answer);
      else settle(attempt.job, null, new Error(m.message));
      drain();
    } else if (m.type === "rpc") {
      answerRpc(slot, m);
    } else if (m.type === "log") {
      console.error(m.text);
    } else if (m.type === "fatal") {
      broken = new Error(`the server's worker thread could not start: ${m.message}`);
      console.error("chromafs mcp:", broken.message);
      for (const job of queue.splice(0)) settle(job, null, broken);
      for (const a of [...slot.attempts.values()]) settle(a.job, null, broken);
      answerReady();
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

  /** The worker that takes a job next: a ready one before one starting, then the least busy. */
  function pick(job) {
    const load = (s) => (s.state === "ready" ? 0 : 1e9) + s.attempts.size;
    let best = null;
    for (const s of healthy()) if (!job.avoid.has(s) && (!best || load(s) < load(best))) best = s;
    return best;
  }

  function start(job) {
    const slot = pick(job);
    if (!slot) {
      queue.push(job);
      replenish();
      return;
    }
    const id = nextId;
    nextId = nextId >= 0x7fffffff ? 1 : nextId + 1;
    // The worker counts the jobs it starts, in the order they were posted (see started).
    slot.posted = (slot.posted + 1) | 0;
    const attempt = { id, job, slot, seq: slot.posted };
    // An idle worker does not beat (worker.mjs): its silence until now is no stall.
    if (!slot.attempts.size && slot.state === "ready") slot.lastBeatAt = performance.now();
    slot.attempts.set(id, attempt);
    job.attempts.add(attempt);
    post(slot, { type: "job", id, call: job.call, deadline: job.deadline });
    watching();
  }

  function drain() {
    while (queue.length) {
      const job = queue[0];
      if (job.settled) {
        queue.shift();
        continue;
      }
      if (!pick(job)) return;
      queue.shift();
      start(job);
    }
  }

  /**
   * Starts `job` again on another worker, or ends it when it may not and nothing runs it.
   * A job that had not started on the worker it leaves (`free`) moves without counting.
   */
  function move(job, free = false) {
    if (job.settled) return;
    if (free) {
      start(job);
      return;
    }
    if (job.moves >= MAX_MOVES) {
      if (!job.attempts.size) settle(job, { abandoned: "stopped" });
      return;
    }
    job.moves += 1;
    counts.moved += 1;
    start(job);
  }

  /** Takes an attempt off its worker, which is told to stop it. */
  function withdraw(a) {
    a.slot.attempts.delete(a.id);
    a.job.attempts.delete(a);
    post(a.slot, { type: "cancel", id: a.id });
  }

  function settle(job, answer, error) {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.grace);
    job.signal?.removeEventListener("abort", job.onAbort);
    for (const a of [...job.attempts]) withdraw(a);
    if (error) job.reject(error);
    else job.resolve(answer);
  }

  /** Whether an attempt's own code began on its worker: the worker has started it or a later job. */
  const started = (a) => ((a.slot.beat[3] - a.seq) | 0) >= 0;

  /** A stalled worker: no new jobs; its running job stays; the others start again elsewhere. */
  function stall(slot) {
    slot.state = "stalled";
    counts.stalled += 1;
    const attempts = [...slot.attempts.values()];
    // The job the worker is running: the one its hook recorded, or the only one it has.
    const runaway = attempts.length === 1 ? attempts[0] : slot.attempts.get(slot.beat[1]);
    for (const a of attempts) {
      a.job.avoid.add(slot);
      if (a === runaway) continue;
      if (started(a)) move(a.job);
      else {
        // It never ran there (its message waits behind the runaway): it leaves the worker.
        withdraw(a);
        move(a.job, true);
      }
    }
    replenish();
  }

  /** Stops a worker; its jobs start again elsewhere or end. */
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
      for (const job of queue.splice(0)) settle(job, null, broken);
      answerReady();
    }
    slot.state = "gone";
    slots.delete(slot);
    const running = slot.beat[1];
    if (slot.memory) counts.outOfMemory += 1;
    for (const a of slot.attempts.values()) {
      a.job.attempts.delete(a);
      a.job.avoid.add(slot);
      if (slot.memory && a.id === running) settle(a.job, { abandoned: "memory" });
      else if (!a.job.attempts.size) move(a.job, !started(a));
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
        // Its runaway job is over: a worker that beats again takes jobs again; one still
        // computing for a job nobody waits on any more is only burning a core.
        if (quiet) stop(slot);
        else {
          slot.state = "ready";
          drain();
        }
      }
    }
    // Nothing left to watch: no job on a worker, none set aside. The next job starts it again.
    if (!live().some((s) => s.attempts.size || s.state === "stalled")) {
      clearInterval(watcher);
      watcher = null;
    }
  }
  /** The watch runs while a worker has a job or is set aside as stalled (see watch). */
  let watcher = null;
  function watching() {
    if (watcher || closed) return;
    watcher = setInterval(watch, WATCH_MS);
    watcher.unref();
  }
  replenish();

  return {
    /** Runs one call; see workerPool. */
    run(call, { signal, deadline = Date.now() + limits.callTimeoutMs } = {}) {
      if (closed) return Promise.reject(new Error("the server is closing"));
      if (broken) return Promise.reject(broken);
      return new Promise((resolve, reject) => {
        const job = { call, deadline, signal, resolve, reject, attempts: new Set(), avoid: new Set(), moves: 0, settled: false };
        job.onAbort = () => {
          for (const a of job.attempts) post(a.slot, { type: "cancel", id: a.id });
          job.grace = setTimeout(() => {
            const stuck = [...job.attempts].map((a) => a.slot);
            settle(job, { abandoned: "stopped" });
            for (const s of stuck) stop(s);
          }, GRACE_MS);
        };
        if (signal?.aborted) return resolve({ abandoned: "stopped" });
        signal?.addEventListener("abort", job.onAbort, { once: true });
        start(job);
      });
    },
    /**
     * Resolves once a worker has been ready, at once after that; rejects with the cause when
     * the pool's workers cannot start.
     */
    ready() {
      if (broken) return Promise.reject(broken);
      if (everReady) return Promise.resolve();
      return new Promise((resolve, reject) => waitingReady.push({ resolve, reject }));
    },
    stats: () => ({ ...counts, workers: live().length, ready: healthy().length }),
    async close() {
      closed = true;
      if (watcher) clearInterval(watcher);
      const all = [...slots];
      for (const job of queue.splice(0)) settle(job, null, new Error("the server is closing"));
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
