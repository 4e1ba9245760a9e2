// Node, CommonJS.
const { AsyncLocalStorage } = require("node:async_hooks");
const core = require("./dist/node/chromafs_core.js");
const { setup } = require("./dist/api.cjs");

// The writer's glue loads its module when required: on the first ingest or annotate.
// An embedding service's embedder names the ES entry, which an MCP server's worker threads import.
const recipeModule = require("node:url").pathToFileURL(require("node:path").join(__dirname, "node.mjs")).href;
module.exports = setup(core, AsyncLocalStorage.snapshot(), () => require("./dist/node/chromafs_write.js"), recipeModule);
