// Vercel's edge runtime: `.wasm?module` imports are compiled before user code runs.
import wasmModule from "./dist/web/chromafs_core_bg.wasm?module";
import * as core from "./dist/web/chromafs_core.js";
import { setup, withoutWriter } from "./dist/api.mjs";

// `vercel dev` and other edge-runtime hosts compile `?module` imports in Node's realm: the
// module is then not `instanceof` this realm's WebAssembly.Module, and initSync would try
// to compile it again, which the edge runtime forbids.
const module =
  wasmModule instanceof WebAssembly.Module || Object.prototype.toString.call(wasmModule) !== "[object WebAssembly.Module]"
    ? wasmModule
    : Object.setPrototypeOf(wasmModule, WebAssembly.Module.prototype);
core.initSync({ module });
// The filesystem only: the writer is left out of this build.
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, undefined, withoutWriter("the edge runtime"));
