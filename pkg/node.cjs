// Node, CommonJS.
const { AsyncLocalStorage } = require("node:async_hooks");
const core = require("./dist/node/chromafs_core.js");
const { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox } = require("./dist/api.cjs");

// The writer's glue loads its module when required: on the first ingest or annotate.
const api = setup(core, AsyncLocalStorage.snapshot(), () => require("./dist/node/chromafs_write.js"));

module.exports = { ChromaFs: api.ChromaFs, ingest: api.ingest, annotate: api.annotate, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
