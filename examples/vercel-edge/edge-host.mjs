// Runs a Build Output API edge function (.vercel/output/functions/<name>.func) in Vercel's
// `edge-runtime`, loaded the way Vercel loads it:
//
// - Each `import x from "./file.wasm?module"` becomes a binding: the host compiles the wasm
//   before any user code runs and the import evaluates to that `WebAssembly.Module`.
// - Code generation is off: `eval`, `new Function` and compiling wasm from bytes throw
//   ("Wasm code generation disallowed by embedder"), as in production. (edge-runtime's
//   own default still allows wasm compilation, so this is set explicitly.)
// - `process.env` holds only the variables passed in `env`.
//
// edge-runtime runs code in a Node `vm` context, a separate realm: a module compiled by the
// host is a `WebAssembly.Module` of the host's realm, and `instanceof WebAssembly.Module`
// inside the function is false for it. On Vercel the binding belongs to the function's own
// realm, so by default the host gives the compiled module the function realm's prototype
// before exposing it. `wasmRealm: "host"` passes it unchanged instead, as `vercel dev` does.
import * as esbuild from "esbuild";
import { EdgeRuntime, runServer } from "edge-runtime";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const BINDINGS = "vercel-wasm-binding";

/** Turns the function's ESM entry into one classic script whose wasm imports read globals. */
async function toScript(entry) {
  const bindings = new Map();
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "__edgeFunctionModule",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
    plugins: [
      {
        name: BINDINGS,
        setup(build) {
          build.onResolve({ filter: /\.wasm\?module$/ }, (args) => {
            const file = resolve(args.resolveDir, args.path.replace(/\?module$/, ""));
            const name = `wasm_${createHash("sha1").update(readFileSync(file)).digest("hex")}`;
            bindings.set(name, file);
            return { path: name, namespace: BINDINGS };
          });
          build.onLoad({ filter: /.*/, namespace: BINDINGS }, (args) => ({
            loader: "js",
            contents: `export default globalThis[${JSON.stringify(args.path)}];`,
          }));
        },
      },
    ],
  });
  return { code: result.outputFiles[0].text, bindings };
}

// Dispatches each FetchEvent to the function's default export, like Vercel's wrapper: a
// throw or a non-Response becomes a 500 whose body is the error message.
const LISTENER = `
addEventListener("fetch", (event) => {
  event.respondWith((async () => {
    try {
      const handler = __edgeFunctionModule.default;
      if (typeof handler !== "function") throw new Error("the edge function has no default export");
      const response = await handler(event.request, { waitUntil: (promise) => event.waitUntil(promise) });
      if (!(response instanceof Response)) throw new Error("the edge function did not return a Response");
      return response;
    } catch (error) {
      return new Response(String((error && error.message) || error), {
        status: 500,
        headers: { "x-edge-function-failed": "1" },
      });
    }
  })());
});
`;

/**
 * Starts an HTTP server on 127.0.0.1 that serves the function in `functionDir`. Resolves to
 * `{ url, runtime, close }`; `runtime.evaluate(code)` runs code inside the function's realm.
 */
export async function startEdgeFunction({ functionDir, env = {}, wasmRealm = "function" }) {
  const vcConfig = JSON.parse(readFileSync(join(functionDir, ".vc-config.json"), "utf8"));
  if (vcConfig.runtime !== "edge") throw new Error(`${functionDir} is not an edge function`);
  const { code, bindings } = await toScript(join(functionDir, vcConfig.entrypoint));

  // Compiled now, in the host: inside the runtime compiling wasm is refused.
  const modules = new Map();
  for (const [name, file] of bindings) modules.set(name, await WebAssembly.compile(readFileSync(file)));

  const runtime = new EdgeRuntime({ codeGeneration: { strings: false, wasm: false } });
  const realmModulePrototype = runtime.evaluate("WebAssembly.Module.prototype");
  for (const [name, module] of modules) {
    if (wasmRealm === "function") Object.setPrototypeOf(module, realmModulePrototype);
    runtime.context[name] = module;
  }
  runtime.context.process = { env: { ...env } };
  runtime.evaluate(`${code}\n${LISTENER}`);

  const server = await runServer({ runtime, host: "127.0.0.1", port: 0 });
  return { url: server.url, runtime, bindings: [...bindings.keys()], close: () => server.close() };
}

export const defaultFunctionDir = join(dirname(new URL(import.meta.url).pathname), ".vercel/output/functions/api/exec.func");
