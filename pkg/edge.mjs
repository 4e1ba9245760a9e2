// Vercel's edge runtime: `.wasm?module` imports are compiled before user code runs.
import wasmModule from "./dist/web/chromafs_core_bg.wasm?module";
import * as core from "./dist/web/chromafs_core.js";
import { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } from "./dist/api.mjs";

core.initSync({ module: wasmModule });
const api = setup(core);

export const ChromaFs = api.ChromaFs;
export const ingest = api.ingest;
export { safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
