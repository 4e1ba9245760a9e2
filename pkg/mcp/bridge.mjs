// Connect options crossing into a worker thread (pool.mjs).
//
// A worker gets a copy of what it is sent, and functions cannot be copied. So: plain data
// (strings, numbers, arrays, plain objects, bytes) is copied; an object or function that says
// how to build it again — the package's embedders, a mounts' site rule: a "recipe" under
// `Symbol.for("chromafs.recipe")`, `{ module, name, options }` — is built again in the
// worker, which then runs it itself (a model embeds a question in the worker that asked);
// any other function — a host's own embedder, shared cache, lazy-file loader — stays in
// this thread, and the worker calls it through messages: it receives copies of the
// arguments and answers a copy of the result. Anything else (a class instance without a
// recipe, a symbol) cannot cross, and says which option it is.

/** The property of a value that says how to build it again. */
export const RECIPE = Symbol.for("chromafs.recipe");
/** The key a marker object carries in the copy the worker gets. */
const MARK = "$chromafs:bridge";

const plainObject = (v) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * `value` as the worker can be sent it: `{ data, functions }`, where `functions` are the
 * functions that stay here, by the index their markers in `data` name.
 */
export function toWorker(value) {
  const functions = [];
  const walk = (v, where) => {
    if (v === null || v === undefined || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
    if (typeof v === "function" || typeof v === "object") {
      const recipe = v[RECIPE];
      if (recipe) return { [MARK]: { recipe } };
    }
    if (typeof v === "function") return { [MARK]: { fn: functions.push(v) - 1 } };
    if (typeof v !== "object") throw new TypeError(`${where} cannot be sent to the server's worker threads`);
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Date || v instanceof RegExp) return v;
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${where}[${i}]`));
    if (!plainObject(v)) {
      // An object of methods (a host's embedder class): its functions stay here.
      const out = {};
      for (const key of new Set([...Object.keys(v), ...methodsOf(v)])) out[key] = walk(v[key], `${where}.${key}`);
      return out;
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, `${where}.${k}`)]));
  };
  return { data: walk(value, "the connect options"), functions };
}

/** The methods an object's classes give it (not Object's own). */
function methodsOf(object) {
  const names = [];
  for (let proto = Object.getPrototypeOf(object); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== "constructor" && typeof object[name] === "function") names.push(name);
  }
  return names;
}

/**
 * In the worker: `data` from `toWorker`, with each recipe built again (awaited) and each
 * function marker a function that asks this thread's `call(index, args)`.
 */
export async function fromMain(data, call) {
  const walk = async (v) => {
    if (v === null || typeof v !== "object" || ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Date || v instanceof RegExp) return v;
    if (Array.isArray(v)) return Promise.all(v.map(walk));
    const mark = v[MARK];
    if (mark?.recipe) return build(mark.recipe);
    if (mark && Number.isInteger(mark.fn)) return (...args) => call(mark.fn, args.map(withoutSignal));
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = await walk(x);
    return out;
  };
  return walk(data);
}

/**
 * An argument as it can cross: a call's `{ signal }` (see pkg/src/stoppable.js) stays in
 * the worker, which stops waiting on its own; the function here runs to its end.
 */
function withoutSignal(arg) {
  if (!arg || typeof arg !== "object" || !(arg.signal instanceof AbortSignal)) return arg;
  const { signal: _signal, ...rest } = arg;
  return rest;
}

/** Builds a value again from its recipe: `module`'s export `name`, called with `options`. */
async function build({ module, name, options }) {
  const made = await import(module);
  if (typeof made[name] !== "function") throw new TypeError(`${module} has no function ${name}`);
  return made[name](options);
}
