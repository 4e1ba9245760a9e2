// Node, ES modules.
import { readFileSync } from "node:fs";
import { AsyncLocalStorage } from "node:async_hooks";
import * as core from "./dist/web/chromafs_core.js";
import * as writer from "./dist/web/chromafs_write.js";
import { setup } from "./dist/api.mjs";

core.initSync({ module: readFileSync(new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url)) });
let writerReady = false;
const loadWriter = () => {
  if (!writerReady) writer.initSync({ module: readFileSync(new URL("./dist/web/chromafs_write_bg.wasm", import.meta.url)) });
  writerReady = true;
  return writer;
};
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, AsyncLocalStorage.snapshot(), loadWriter, import.meta.url);
