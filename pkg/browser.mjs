// Browsers and bundlers: the wasm is fetched next to the glue and compiled while streaming.
import init, * as core from "./dist/web/chromafs_core.js";
import initWriter, * as writer from "./dist/web/chromafs_write.js";
import { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } from "./dist/api.mjs";

await init({ module_or_path: new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url) });
// The writer (ingest, annotate) is fetched on its first call.
let writerReady;
const loadWriter = () => (writerReady ??= initWriter({ module_or_path: new URL("./dist/web/chromafs_write_bg.wasm", import.meta.url) }).then(() => writer));
const api = setup(core, undefined, loadWriter);

export const ChromaFs = api.ChromaFs;
export const ingest = api.ingest;
export const annotate = api.annotate;
export const openAiEmbedder = api.openAiEmbedder;
export { safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
