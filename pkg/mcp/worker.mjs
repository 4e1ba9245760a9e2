// A worker thread of a Node MCP server's pool (pool.mjs): it runs the calls the pool sends
// it, several at once as they wait on Chroma, on chromafs sessions of its own.
//
// Three words in shared memory tell the pool how it is doing. The first is a heartbeat,
// counted up every few milliseconds by a timer. The second is the call whose code runs now
// and the third a count of the callbacks and promise reactions begun, both written by an
// async hook before each one runs (the call is read from the async context, an
// AsyncLocalStorage). While a command computes without yielding, neither count moves, and
// the second word names the call that stopped them; a worker merely busy with many calls
// runs callbacks all the time, even when its timer is late. The hook touches nothing but
// those words: it runs inside just-bash's sandbox, which blocks most globals while a
// command runs.
import { parentPort, workerData } from "node:worker_threads";
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { format } from "node:util";
import { fromMain } from "./bridge.mjs";
import { sessionPool } from "./sessions.mjs";
import { runTool } from "./tools.mjs";
import { baseOf } from "./sources.mjs";

const { options, base: baseData, limits, beat: sab, beatMs } = workerData;
const beat = new Int32Array(sab);
const current = new AsyncLocalStorage();
createHook({
  before() {
    beat[1] = current.getStore() ?? -1;
    beat[2] = (beat[2] + 1) | 0;
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

const running = new Map(); // call id → AbortController

parentPort.on("message", (m) => {
  if (m.type === "rpc-result") {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
    else w?.resolve(m.value);
  } else if (m.type === "cancel") {
    running.get(m.id)?.abort();
  } else if (m.type === "call") {
    ready.then((setup) => run(setup, m), () => {});
  }
});

// The operator's log is the server's: what a session logs (a network failure's cause) is
// written by the main thread's console.
console.error = (...args) => parentPort.postMessage({ type: "log", text: format(...args) });
// A command's stray rejection must not end the worker and the calls beside it.
process.on("unhandledRejection", (e) => console.error("chromafs mcp worker:", e));

async function setUp() {
  const [{ ChromaFs }, connectOptions, base] = await Promise.all([import("../node.mjs"), fromMain(options, callMain), fromMain(baseData, callMain)]);
  const connect = (groups) => (connectOptions.mounts ? ChromaFs.connectMounts({ ...connectOptions, groups }) : ChromaFs.connect({ ...connectOptions, groups }));
  const sessions = sessionPool(connect);
  // The path tree into this worker's memory before the first call (a later session of any
  // group set then connects with one small request); Chroma out of reach is the calls' to say.
  await sessions.lease([]).then((lease) => lease.release(false), () => {});
  return { sessions, base: baseOf(base) };
}

const ready = setUp();
ready.then(
  () => parentPort.postMessage({ type: "ready" }),
  (e) => parentPort.postMessage({ type: "fatal", message: e?.message ?? String(e) }),
);

function run({ sessions, base }, { id, tool, args, groups, timeoutMs }) {
  const controller = new AbortController();
  running.set(id, controller);
  const callLimits = { ...limits, callTimeoutMs: timeoutMs };
  current
    .run(id, () => runTool({ lease: () => sessions.lease(groups) }, tool, args, { limits: callLimits, base, signal: controller.signal }))
    .then(
      (outcome) => parentPort.postMessage({ type: "done", id, outcome }),
      (e) => parentPort.postMessage({ type: "error", id, message: e?.message ?? String(e) }),
    )
    .finally(() => running.delete(id));
}
