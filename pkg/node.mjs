// Node, ES modules.
import { readFileSync } from "node:fs";
import { AsyncLocalStorage } from "node:async_hooks";
import * as core from "./dist/web/chromafs_core.js";
import * as writer from "./dist/web/chromafs_write.js";
import * as tools from "./dist/web/chromafs_tools.js";
import * as perl from "./dist/web/chromafs_perl.js";
import { setup } from "./dist/api.mjs";

core.initSync({ module: readFileSync(new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url)) });
// The writer, the tools and grep -P's engine are compiled on their first use.
const loaded = new Set();
const loader = (glue, name) => () => {
  if (!loaded.has(name)) glue.initSync({ module: readFileSync(new URL(`./dist/web/${name}_bg.wasm`, import.meta.url)) });
  loaded.add(name);
  return glue;
};
const load = { writer: loader(writer, "chromafs_write"), tools: loader(tools, "chromafs_tools"), perl: loader(perl, "chromafs_perl") };
export const { ChromaFs, ingest, annotate, openAiEmbedder, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = setup(core, AsyncLocalStorage.snapshot(), load, import.meta.url);
