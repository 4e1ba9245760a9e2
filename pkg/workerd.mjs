// Cloudflare workerd: code generation from bytes is forbidden, so the wasm arrives as a
// compiled module import.
import wasmModule from "./dist/web/chromafs_core_bg.wasm";
import toolsModule from "./dist/web/chromafs_tools_bg.wasm";
import * as core from "./dist/web/chromafs_core.js";
import * as tools from "./dist/web/chromafs_tools.js";
import { setup, withoutWriter } from "./dist/api.mjs";

core.initSync({ module: wasmModule });
// The writer is left out of this build. The tools' module is bundled (Workers compile a
// module import when the Worker starts) and instantiated on their first command.
let toolsReady = false;
const loadTools = () => {
  if (!toolsReady) tools.initSync({ module: toolsModule });
  toolsReady = true;
  return tools;
};
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, undefined, { writer: withoutWriter("Workers"), tools: loadTools });
