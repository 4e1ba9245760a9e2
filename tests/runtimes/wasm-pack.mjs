// The crate built the standard Rust way (`wasm-pack build --target web`, every feature) is
// the four modules the npm package ships in one, before wasm-opt: it has their exports, and
// the package's JS API (pkg/src, bundled as dist/api.mjs) passes the runtime checks on it.
//   node tests/runtimes/wasm-pack.mjs OUT_DIR URL COLLECTION
import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { setup, safeExec } from "../../pkg/dist/api.mjs";
import * as shippedCore from "../../pkg/dist/web/chromafs_core.js";
import * as shippedWriter from "../../pkg/dist/web/chromafs_write.js";
import * as shippedTools from "../../pkg/dist/web/chromafs_tools.js";
import * as shippedPerl from "../../pkg/dist/web/chromafs_perl.js";
import { smoke } from "./checks.mjs";

const [out, url, collection] = process.argv.slice(2);
const core = await import(pathToFileURL(path.resolve(out, "chromafs.js")).href);
core.initSync({ module: readFileSync(path.join(out, "chromafs_bg.wasm")) });
assert.deepEqual(Object.keys(core).sort(), [...new Set([...Object.keys(shippedCore), ...Object.keys(shippedWriter), ...Object.keys(shippedTools), ...Object.keys(shippedPerl)])].sort());
// As pkg/node.mjs does: calls into the module run outside just-bash's defense-in-depth
// context; the one module is the writer, the tools and grep -P's engine too.
const { ChromaFs, ingest } = setup(core, AsyncLocalStorage.snapshot(), { writer: () => core, tools: () => core, perl: () => core });
await ingest({ url, collection: `${collection}-wasm-pack`, files: [{ path: "a.md", content: "written by the wasm-pack build\n" }] });
assert.equal(await (await ChromaFs.connect({ url, collection: `${collection}-wasm-pack` })).readFile("/a.md"), "written by the wasm-pack build\n");
await smoke({ ChromaFs, safeExec, url, collection });
console.log(`the wasm-pack build (${readFileSync(path.join(out, "chromafs_bg.wasm")).length} bytes) passed the smoke test`);
