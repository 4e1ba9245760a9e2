// Cloudflare workerd: code generation from bytes is forbidden, so the wasm arrives as a
// compiled module import.
import wasmModule from "./dist/web/chromafs_core_bg.wasm";
import * as core from "./dist/web/chromafs_core.js";
import { setup, withoutWriter } from "./dist/api.mjs";

core.initSync({ module: wasmModule });
// The filesystem only: the writer is left out of this build.
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, undefined, withoutWriter("Workers"));
