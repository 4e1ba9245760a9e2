// Cloudflare workerd: code generation from bytes is forbidden, so the wasm arrives as a
// compiled module import.
import wasmModule from "./dist/web/chromafs_core_bg.wasm";
import * as core from "./dist/web/chromafs_core.js";
import { setup, withoutWriter, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } from "./dist/api.mjs";

core.initSync({ module: wasmModule });
// The filesystem only: the writer is left out of this build.
const api = setup(core, undefined, withoutWriter("Workers"));

export const ChromaFs = api.ChromaFs;
export const ingest = api.ingest;
export const annotate = api.annotate;
export const openAiEmbedder = api.openAiEmbedder;
export { safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
