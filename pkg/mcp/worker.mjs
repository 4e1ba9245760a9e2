// A worker thread of a Node MCP server's pool (pool.mjs): it does the jobs the pool sends it,
// several at once as they wait on Chroma, on chromafs sessions of its own. A job is one HTTP
// request to the endpoint, answered here by the MCP SDK's server as a whole (its JSON-RPC,
// its tools), or one tool call (a stdio server's).
//
// Three words in shared memory tell the pool how it is doing. The first is a heartbeat,
// counted up every few milliseconds by a timer. The second is the job whose code runs now
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
import { callerVersions, scopedConnect, sessionPool } from "./sessions.mjs";
import { runTool } from "./tools.mjs";
import { baseOf } from "./sources.mjs";
import { createMcpServer } from "./server.mjs";
import { answerAlone } from "./stateless.mjs";
import { requestShell } from "./shells.mjs";

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
setInterval(() => {
  beat[0] = (beat[0] + 1) | 0;
}, beatMs);

// The host's own functions (an embedder, a shared cache) are called in the main thread.
let nextRpc = 1;
const waiting = new Map();
const callMain = (fn, args) =>
  new Promise((resolve, reject) => {
    const id = nextRpc++;
    waiting.set(id, { resolve, reject });
    parentPort.postMessage({ type: "rpc", id, fn, args });
  });

const running = new Map(); // job id → its cancel(requestId?)

parentPort.on("message", (m) => {
  if (m.type === "rpc-result") {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
    else w?.resolve(m.value);
  } else if (m.type === "cancel") {
    running.get(m.id)?.(m.requestId);
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
  const [{ ChromaFs }, connectOptions, server] = await Promise.all([import("../node.mjs"), fromMain(options, callMain), fromMain(serverData, callMain)]);
  const sessions = sessionPool(scopedConnect(ChromaFs, connectOptions));
  // The path tree into this worker's memory before the first job (a later session of any
  // group set then connects with one small request); Chroma out of reach is the jobs' to say.
  await sessions.lease([]).then((lease) => lease.release(false), () => {});
  return { sessions, server: { ...server, baseUrl: baseOf(server.baseUrl) } };
}

const ready = setUp();
ready.then(
  () => parentPort.postMessage({ type: "ready" }),
  (e) => parentPort.postMessage({ type: "fatal", message: e?.message ?? String(e) }),
);

const JOBS = { call: oneCall, http: oneRequest };

function run(setup, { id, kind, payload, timeoutMs }) {
  // Sent before the job's own code runs: a job that never got this far on a worker that
  // stalled can start again elsewhere at no cost (pool.mjs).
  parentPort.postMessage({ type: "started", id });
  current
    .run(id, () => JOBS[kind](setup, payload, timeoutMs, (cancel) => running.set(id, cancel)))
    .then(
      (answer) => parentPort.postMessage({ type: "done", id, answer }),
      (e) => parentPort.postMessage({ type: "error", id, message: e?.message ?? String(e) }),
    )
    .finally(() => running.delete(id));
}

/** One tool call (a stdio server's): its outcome, see tools.mjs. */
function oneCall({ sessions, server }, { tool, args, groups, shell }, timeoutMs, onCancel) {
  const controller = new AbortController();
  onCancel(() => controller.abort());
  const callLimits = { ...limits, callTimeoutMs: timeoutMs };
  return runTool({ lease: (version) => sessions.lease(groups, version) }, tool, args, { limits: callLimits, base: server.baseUrl, signal: controller.signal, shell });
}

/**
 * The calls of one request, so that a cancellation names one (`cancel(requestId)`) or, when
 * the caller gave up on the request, all of them.
 */
function requestCalls() {
  const stops = new Map();
  return {
    add(_caller, id, stop) {
      const key = JSON.stringify(id);
      stops.set(key, stop);
      return () => stops.get(key) === stop && stops.delete(key);
    },
    cancel(_caller, id) {
      stops.get(JSON.stringify(id))?.();
    },
    all() {
      for (const stop of stops.values()) stop();
    },
  };
}

/**
 * One HTTP request to the endpoint, answered by an MCP server of its own (stateless, JSON
 * answers) for the caller's groups, in the caller's `shell` when it is one the server keeps:
 * `{ status, headers, body, shell }` (`shell`: what the calls left, if any ran in it). The main thread parsed the
 * body (`message`) and counted the caller's calls in flight; the calls it refused
 * (`refused`, their ids) are answered so here.
 */
async function oneRequest({ sessions, server }, { url, headers, message, groups, caller, refused, shell }, timeoutMs, onCancel) {
  const calls = requestCalls();
  onCancel((requestId) => (requestId === undefined ? calls.all() : calls.cancel(caller, requestId)));
  const refusedIds = new Set(refused.map((id) => JSON.stringify(id)));
  const gate = { max: limits.callsInFlight, enter: (_caller, id) => (refusedIds.has(JSON.stringify(id)) ? null : () => {}) };
  const callLimits = { ...limits, callTimeoutMs: timeoutMs };
  const runner = ({ tool, args, signal, shell: state }) => runTool({ lease: (version) => sessions.lease(groups, version) }, tool, args, { limits: callLimits, base: server.baseUrl, signal, shell: state });
  // A known caller's shell (undefined for an anonymous one): its calls start in it, and what they leave goes back.
  const shells = shell === undefined ? null : requestShell(shell, server.shellIdleMs);
  // The versions this caller sees, as its tools offer them.
  const versions = await callerVersions(server.versions, () => sessions.lease(groups));
  const mcp = createMcpServer(null, { ...server, versions, limits: callLimits, gate, caller, registry: calls, runner, shells });
  const request = new Request(url, { method: "POST", headers });
  const answer = (response) => ({ status: response.status, headers: [...response.headers], shell: shells?.left() });
  return answerAlone(mcp, request, async (response) => ({ ...answer(response), body: await response.text() }), message);
}
