// Node, ES modules.
import { readFileSync } from "node:fs";
import { AsyncLocalStorage } from "node:async_hooks";
import * as core from "./dist/web/chromafs_core.js";
import { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } from "./dist/api.mjs";

core.initSync({ module: readFileSync(new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url)) });
const api = setup(core, AsyncLocalStorage.snapshot());

export const ChromaFs = api.ChromaFs;
export const ingest = api.ingest;
export const annotate = api.annotate;
export { safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
