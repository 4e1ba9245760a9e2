// The public API around the wasm core, shared by every entry point (Node ESM and CJS,
// browsers, bundlers, workerd, the edge runtime). Each entry loads the wasm its own way
// and then exports what `setup` returns: the ChromaFs class around the core's sessions
// (chromafs.js), the writers, and the rest of the package's API, so that every entry
// exports the same names from one list here; everything else is composed from the modules
// next to this one, each with one job.

import { chromaFsClass } from "./chromafs.js";
import { safeExec, bashErrorLine } from "./exec.js";
import { redisCache, workersCache } from "./caches.js";
import { toolDescription } from "./prompt.js";
import { bashToolSandbox } from "./sandbox.js";
import { openAiEmbedder } from "./service.js";
import { absoluteUrl, isHttp, httpUrl, boundedBody } from "./http.js";
import { inCommand } from "./bracket.js";
import { perlLoader } from "./perl.js";

/** What every entry exports beside ChromaFs and the writers: helpers that need no wasm. */
const HELPERS = { safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };

/**
 * The public API over a loaded wasm core: what an entry exports. `run` runs a call in the
 * context the package was loaded in: in Node that is `AsyncLocalStorage.snapshot()`,
 * because just-bash's defense-in-depth blocks `WeakRef`, `setTimeout` and friends while a
 * command runs, and `fetch` (and this package's timers) need them. `load.writer` returns the
 * writer module (ingest, annotate), or a promise of it: a module of its own, loaded on the
 * first call, so that hosts that only read never load it; `load.tools`, likewise, the tools
 * module (head, sort, sed, awk, diff…), on the first command of its; `load.perl`, where a
 * build has it, grep -P's backtracking engine, on the first pattern that may need it (see
 * perl.js). `recipeModule`, in Node, is the
 * entry's own URL: an embedding service's embedder names it, so that an MCP server's worker
 * threads can build the same embedder (see pkg/mcp/bridge.mjs). Nothing is changed on the
 * core: calling `setup` again makes another API over it, the first one untouched.
 */
function setup(core, run, load, recipeModule) {
  const ChromaFs = chromaFsClass(core.ChromaFs, run, recipeModule, load.tools, perlLoader(core, load.perl));
  const wrap = (f) => (run ? (options) => run(() => f(options)) : f);
  const writer = (name) =>
    wrap(async (options) => {
      const module = await load.writer();
      return module[name](options);
    });
  const service = (options) => openAiEmbedder(options, recipeModule);
  return { ChromaFs, ingest: writer("ingest"), annotate: writer("annotate"), openAiEmbedder: service, ...HELPERS };
}

/**
 * The `load.writer` of a build that leaves the writer out (Workers, the edge runtime):
 * writing a collection is a job for Node or a browser (`chromafs ingest`), and the
 * writer's module would add to every deployment. `build` names the build in the error.
 */
function withoutWriter(build) {
  return () => {
    const message = `ingest and annotate are not part of the build for ${build}: run them in Node (chromafs ingest) or a browser`;
    throw Object.assign(new Error(message), { code: "ENOTSUP" });
  };
}

// The URL checks, boundedBody and inCommand are for chromafs/mcp and the command-line tool,
// which import them from the bundle.
export { setup, withoutWriter, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox, absoluteUrl, isHttp, httpUrl, boundedBody, inCommand };
