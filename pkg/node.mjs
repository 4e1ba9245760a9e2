// Node, ES modules.
import { readFileSync } from "node:fs";
import { AsyncLocalStorage } from "node:async_hooks";
import * as core from "./dist/web/chromafs_core.js";
import * as writer from "./dist/web/chromafs_write.js";
import { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } from "./dist/api.mjs";

core.initSync({ module: readFileSync(new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url)) });
let writerReady = false;
const loadWriter = () => {
  if (!writerReady) writer.initSync({ module: readFileSync(new URL("./dist/web/chromafs_write_bg.wasm", import.meta.url)) });
  writerReady = true;
  return writer;
};
const api = setup(core, AsyncLocalStorage.snapshot(), loadWriter, import.meta.url);

export const ChromaFs = api.ChromaFs;
export const ingest = api.ingest;
export const annotate = api.annotate;
export const openAiEmbedder = api.openAiEmbedder;
export { safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
