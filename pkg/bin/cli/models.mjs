// Sessions with the built-in sentence-embedding model: the tree's manifest says which model
// embedded a collection, and a session searches with that model when it is installed (else
// by words, said once on stderr). Mounts embedded with the same model share one instance.
import { ChromaFs } from "../../node.mjs";
import { MODELS } from "../../embed.mjs";
import { withNodeFetch } from "../../mcp/fetch.mjs";

/**
 * The embedder a session of `fs`'s collection searches with: the built-in model that
 * embedded the collection (its manifest says which), else none; a model that is not
 * installed is said once on stderr, and search then ranks by words. A collection searched
 * through its recorded service needs none.
 */
export async function embedderFor(fs, who = "chromafs", { deferred = false } = {}) {
  if (fs.info().collectionEmbedding?.used) return undefined;
  const model = fs.info().embedding?.model;
  if (!Object.hasOwn(MODELS, model ?? "")) return undefined;
  const { createEmbedder, deferredEmbedder, ensureModel } = await import("../../embed.mjs");
  // A server's worker threads build the model themselves: this thread need not load it (but
  // fetches it, once, when it is not installed).
  const made = deferred ? ensureModel(model).then((modelDir) => deferredEmbedder({ model, modelDir })) : createEmbedder({ model });
  return made.catch((e) => {
    process.stderr.write(`${who}: search ranks by words only: ${e.message}\n`);
    return undefined;
  });
}

/**
 * A session over one collection, or over the mounts of `--mount`, reaching Chroma over
 * node:http (../../mcp/fetch.mjs: the CLI's process is its own). `options` stays as it was:
 * a server hands it on to its workers, which use that fetch themselves.
 */
export function connectDocs(options) {
  const own = withNodeFetch(options);
  return own.mounts ? ChromaFs.connectMounts(own) : ChromaFs.connect(own);
}

/**
 * A session with `options`, and `options` with the built-in model for each collection it
 * embedded (the session's tree says which). A model that is not installed is said on stderr.
 * `how.deferred`: the model is loaded where it is first used (an MCP server's workers).
 */
export async function withModel(options, who, how = {}) {
  const fs = await connectDocs(options);
  // A service the command line names searches every collection.
  if (options.embed) return { fs, options };
  if (!options.mounts) {
    const embed = await embedderFor(fs, who, how);
    return { fs, options: embed ? { ...options, embed } : options };
  }
  const infos = fs.info().mounts;
  // One instance of each model the mounts were embedded with (none for other models).
  const loaded = new Map();
  for (const dir of Object.keys(options.mounts)) {
    const model = infos[dir]?.embedding?.model;
    if (!loaded.has(model)) loaded.set(model, await embedderFor({ info: () => infos[dir] }, who, how));
  }
  if (![...loaded.values()].some(Boolean)) return { fs, options };
  const mounts = Object.fromEntries(
    Object.entries(options.mounts).map(([dir, m]) => {
      const embed = loaded.get(infos[dir]?.embedding?.model);
      return [dir, embed ? { ...m, embed } : m];
    }),
  );
  return { fs, options: { ...options, mounts } };
}

/** Connects, with the built-in model for each collection embedded with it. */
export async function connectWithModel(options, who) {
  const found = await withModel(options, who);
  if (found.options === options) return found.fs;
  // The trees are in memory: connecting again costs one small request each.
  found.fs.free();
  return connectDocs(found.options);
}
