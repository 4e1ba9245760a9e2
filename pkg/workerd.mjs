// Cloudflare workerd: code generation from bytes is forbidden, so the wasm arrives as a
// compiled module import.
import wasmModule from "./dist/web/chromafs_core_bg.wasm";
import * as core from "./dist/web/chromafs_core.js";
import { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } from "./dist/api.mjs";

core.initSync({ module: wasmModule });
// The edge bundle carries the filesystem only: writing a collection is a job for Node or a
// browser (`chromafs ingest`), and the writer's module would add to every deployment.
const api = setup(core, undefined, () => {
  throw Object.assign(new Error("ingest and annotate are not part of the build for Workers: run them in Node (chromafs ingest) or a browser"), { code: "ENOTSUP" });
});

export const ChromaFs = api.ChromaFs;
export const ingest = api.ingest;
export const annotate = api.annotate;
export { safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
