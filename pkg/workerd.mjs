// Cloudflare workerd: code generation from bytes is forbidden, so the wasm arrives as a
// compiled module import.
import wasmModule from "./dist/web/chromafs_core_bg.wasm";
import toolsModule from "./dist/web/chromafs_tools_bg.wasm";
import perlModule from "./dist/web/chromafs_perl_bg.wasm";
import * as core from "./dist/web/chromafs_core.js";
import * as tools from "./dist/web/chromafs_tools.js";
import * as perl from "./dist/web/chromafs_perl.js";
import { setup, withoutWriter } from "./dist/api.mjs";

core.initSync({ module: wasmModule });
// The writer is left out of this build. The tools' module and grep -P's engine are bundled
// (Workers compile a module import when the Worker starts) and instantiated on first use.
const instantiated = new Set();
const onFirstUse = (glue, module) => () => {
  if (!instantiated.has(glue)) glue.initSync({ module });
  instantiated.add(glue);
  return glue;
};
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, undefined, { writer: withoutWriter("Workers"), tools: onFirstUse(tools, toolsModule), perl: onFirstUse(perl, perlModule) });
