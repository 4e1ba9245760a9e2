// The crate built the standard Rust way (`wasm-pack build --target web`) is the module the
// npm package ships, before wasm-opt: it has the same exports, and the package's JS API
// (pkg/src, bundled as dist/api.mjs) passes the runtime checks on it.
//   node tests/runtimes/wasm-pack.mjs OUT_DIR URL COLLECTION
import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { setup, safeExec } from "../../pkg/dist/api.mjs";
import * as shipped from "../../pkg/dist/web/chromafs_core.js";
import { smoke } from "./checks.mjs";

const [out, url, collection] = process.argv.slice(2);
const core = await import(pathToFileURL(path.resolve(out, "chromafs.js")).href);
core.initSync({ module: readFileSync(path.join(out, "chromafs_bg.wasm")) });
assert.deepEqual(Object.keys(core).sort(), Object.keys(shipped).sort());
// As pkg/node.mjs does: calls into the module run outside just-bash's defense-in-depth context.
const { ChromaFs } = setup(core, AsyncLocalStorage.snapshot());
await smoke({ ChromaFs, safeExec, url, collection });
console.log(`the wasm-pack build (${readFileSync(path.join(out, "chromafs_bg.wasm")).length} bytes) passed the smoke test`);
