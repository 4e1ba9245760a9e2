// Node, CommonJS.
const { AsyncLocalStorage } = require("node:async_hooks");
const core = require("./dist/node/chromafs_core.js");
const { setup } = require("./dist/api.cjs");

// The writer's, the tools' and grep -P's engine's glue load their modules when required: on
// the first ingest or annotate, on the first command of the tools, on the first -P pattern
// that may need the engine.
// An embedding service's embedder names the ES entry, which an MCP server's worker threads import.
const recipeModule = require("node:url").pathToFileURL(require("node:path").join(__dirname, "node.mjs")).href;
module.exports = setup(
  core,
  AsyncLocalStorage.snapshot(),
  {
    writer: () => require("./dist/node/chromafs_write.js"),
    tools: () => require("./dist/node/chromafs_tools.js"),
    perl: () => require("./dist/node/chromafs_perl.js"),
  },
  recipeModule,
);
