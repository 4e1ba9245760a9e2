// Vercel's edge runtime: `.wasm?module` imports are compiled before user code runs.
import wasmModule from "./dist/web/chromafs_core_bg.wasm?module";
import toolsWasm from "./dist/web/chromafs_tools_bg.wasm?module";
import * as core from "./dist/web/chromafs_core.js";
import * as tools from "./dist/web/chromafs_tools.js";
import { setup, withoutWriter } from "./dist/api.mjs";

// `vercel dev` and other edge-runtime hosts compile `?module` imports in Node's realm: the
// module is then not `instanceof` this realm's WebAssembly.Module, and initSync would try
// to compile it again, which the edge runtime forbids.
const inRealm = (m) =>
  m instanceof WebAssembly.Module || Object.prototype.toString.call(m) !== "[object WebAssembly.Module]"
    ? m
    : Object.setPrototypeOf(m, WebAssembly.Module.prototype);
core.initSync({ module: inRealm(wasmModule) });
// The writer is left out of this build, and so is grep -P's backtracking engine (its 600 KB
// would take the bundle past the 1 MB an edge function may weigh on Vercel's Hobby plan):
// -P patterns beyond the core's engine run as just-bash's grep here. The tools' module is
// compiled with the rest before user code runs, and instantiated on their first command.
let toolsReady = false;
const loadTools = () => {
  if (!toolsReady) tools.initSync({ module: inRealm(toolsWasm) });
  toolsReady = true;
  return tools;
};
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, undefined, { writer: withoutWriter("the edge runtime"), tools: loadTools });
