// Node, CommonJS.
const { AsyncLocalStorage } = require("node:async_hooks");
const core = require("./dist/node/chromafs_core.js");
const { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = require("./dist/api.cjs");

const api = setup(core, AsyncLocalStorage.snapshot());

module.exports = { ChromaFs: api.ChromaFs, ingest: api.ingest, annotate: api.annotate, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
