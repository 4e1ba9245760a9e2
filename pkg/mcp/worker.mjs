// A worker thread of a Node MCP server's pool (pool.mjs): it runs the calls the pool sends it,
// several at once as they wait on Chroma, on chromafs sessions of its own. A job is one call
// (a tool's, a resource operation's, an llms.txt file's), the same whether its request came
// over HTTP or stdio: the server's thread has already read the request, admitted its caller,
// counted the call and started its clock; here it runs on a session of the caller's groups,
// held to the caller's deadline and stopped when the pool says so.
//
// Four words in shared memory tell the pool how it is doing (the fourth counts the jobs
// this worker has started, see run). The first is a heartbeat, counted up every few
// milliseconds by a timer while a job runs. The second is the job whose code runs now
// and the third a count of the times the thread went from one job's code to another's (or
// to code of no job: a message from the pool, the heartbeat), both written by an async
// hook before each callback or promise reaction runs (the job is read from the async
// context, an AsyncLocalStorage). While a command computes, neither count moves, whether it
// never yields or yields only to its own promises (a loop of awaits starves the timers and
// the pool's messages as surely as a loop without one), and the second word names the job
// that stopped them; a worker merely busy with many calls goes from one to another all the
// time, even when its timer is late. The hook touches nothing but those words: it runs
// inside just-bash's sandbox, which blocks most globals while a command runs.
import { parentPort, workerData } from "node:worker_threads";
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { format } from "node:util";
import { fromMain } from "./bridge.mjs";
import { scopedConnect, sessionPool } from "./sessions.mjs";
import { DefenseInDepthBox } from "just-bash";
import { holdDefense, runTool } from "./tools.mjs";
import { baseOf } from "./sources.mjs";
import { withNodeFetch } from "./fetch.mjs";

const { options, server: serverData, limits, beat: sab, beatMs } = workerData;
const beat = new Int32Array(sab);
const current = new AsyncLocalStorage();
createHook({
  before() {
    const job = current.getStore() ?? -1;
    if (job !== beat[1]) {
      beat[1] = job;
      beat[2] = (beat[2] + 1) | 0;
    }
  },
}).enable();
// The heartbeat runs while a job does: an idle worker has nothing to stall and wakes for
// nothing. Its last beat, as the last job ends, tells the pool the thread is free again (a
// worker set aside as stalled then takes jobs again); the pool gives a worker it sends a
// job while idle a quarter of a second to start beating.
let beating = null;
const pulse = () => {
  beat[0] = (beat[0] + 1) | 0;
};
function busy() {
  beating ??= setInterval(pulse, beatMs);
}
function idle() {
  if (running.size || !beating) return;
  clearInterval(beating);
  beating = null;
  pulse();
}

// The host's own functions (an embedder, a shared cache) are called in the main thread.
let nextRpc = 1;
const waiting = new Map();
const callMain = (fn, args) =>
  new Promise((resolve, reject) => {
    const id = nextRpc++;
    waiting.set(id, { resolve, reject });
    parentPort.postMessage({ type: "rpc", id, fn, args });
  });

const running = new Map(); // job id → its cancel()

parentPort.on("message", (m) => {
  if (m.type === "rpc-result") {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
    else w?.resolve(m.value);
  } else if (m.type === "cancel") {
    running.get(m.id)?.();
  } else if (m.type === "job") {
    ready.then((setup) => run(setup, m), () => {});
  }
});

// The operator's log is the server's: what a session logs (a network failure's cause) is
// written by the main thread's console.
console.error = (...args) => parentPort.postMessage({ type: "log", text: format(...args) });
// A command's stray rejection must not end the worker and the jobs beside it.
process.on("unhandledRejection", (e) => console.error("chromafs mcp worker:", e));

async function setUp() {
  // The thread runs nothing but calls: just-bash's guards stay up for its life (tools.mjs).
  holdDefense(DefenseInDepthBox);
  const [{ ChromaFs }, connectOptions, server] = await Promise.all([import("../node.mjs"), fromMain(options, callMain), fromMain(serverData, callMain)]);
  // Chroma through node:http (fetch.mjs), unless the host gave a fetch of its own.
  const sessions = sessionPool(scopedConnect(ChromaFs, withNodeFetch(connectOptions)));
  // The path tree into this worker's memory before the first job (a later session of any
  // group set then connects with one small request); Chroma out of reach is the jobs' to say.
  await sessions.lease([]).then((lease) => lease.release(false), () => {});
  return { sessions, base: baseOf(server.baseUrl) };
}

const ready = setUp();
ready.then(
  () => parentPort.postMessage({ type: "ready" }),
  (e) => parentPort.postMessage({ type: "fatal", message: e?.message ?? String(e) }),
);

function run({ sessions, base }, { id, call, deadline }) {
  // Counted before the job's own code runs: a job that never got this far on a worker that
  // stalled can start again elsewhere at no cost (pool.mjs). Jobs start in the order the
  // pool posted them, so a count says which have.
  beat[3] = (beat[3] + 1) | 0;
  const controller = new AbortController();
  running.set(id, () => controller.abort());
  busy();
  const { tool, args, groups, shell } = call;
  current
    .run(id, () => runTool({ lease: (version) => sessions.lease(groups, version) }, tool, args, { limits, base, signal: controller.signal, shell, deadline, ownThread: true }))
    .then(
      (answer) => parentPort.postMessage({ type: "done", id, answer }),
      (e) => parentPort.postMessage({ type: "error", id, message: e?.message ?? String(e) }),
    )
    .finally(() => {
      running.delete(id);
      idle();
    });
}
