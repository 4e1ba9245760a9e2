// Browsers and bundlers: the wasm is fetched next to the glue and compiled while streaming.
import init, * as core from "./dist/web/chromafs_core.js";
import initWriter, * as writer from "./dist/web/chromafs_write.js";
import { setup } from "./dist/api.mjs";

await init({ module_or_path: new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url) });
// The writer (ingest, annotate) is fetched on its first call.
let writerReady;
const loadWriter = () => (writerReady ??= initWriter({ module_or_path: new URL("./dist/web/chromafs_write_bg.wasm", import.meta.url) }).then(() => writer));
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, undefined, loadWriter);
