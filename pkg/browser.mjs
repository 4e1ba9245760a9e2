// Browsers and bundlers: the wasm is fetched next to the glue and compiled while streaming.
import init, * as core from "./dist/web/chromafs_core.js";
import initWriter, * as writer from "./dist/web/chromafs_write.js";
import initTools, * as tools from "./dist/web/chromafs_tools.js";
import initPerl, * as perl from "./dist/web/chromafs_perl.js";
import { setup } from "./dist/api.mjs";

await init({ module_or_path: new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url) });
// The writer (ingest, annotate) is fetched on its first call, the tools on their first
// command, grep -P's engine on the first pattern that may need it.
let writerReady, toolsReady, perlReady;
const load = {
  writer: () => (writerReady ??= initWriter({ module_or_path: new URL("./dist/web/chromafs_write_bg.wasm", import.meta.url) }).then(() => writer)),
  tools: () => (toolsReady ??= initTools({ module_or_path: new URL("./dist/web/chromafs_tools_bg.wasm", import.meta.url) }).then(() => tools)),
  perl: () => (perlReady ??= initPerl({ module_or_path: new URL("./dist/web/chromafs_perl_bg.wasm", import.meta.url) }).then(() => perl)),
};
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, undefined, load);
