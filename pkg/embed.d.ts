// Types for chromafs/embed: the all-MiniLM-L6-v2 sentence-embedding model for Node.

/** The model's name, as a collection's manifest records it. */
export declare const MODEL: "all-MiniLM-L6-v2";
/** The length of its vectors. */
export declare const DIMENSION: 384;

/** The loaded model; pass it as `embed` to `ChromaFs.connect` or `ingest`. */
export interface LoadedEmbedder {
  model: "all-MiniLM-L6-v2";
  /** How a passage becomes one vector: the mean of its first two windows of 200 tokens. Ingest records it. */
  method: string;
  dimension: number;
  /** How many instances of the model run side by side (worker threads when more than one). */
  threads: number;
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Ends the worker threads (idle ones do not keep the process alive). */
  close(): Promise<void>;
}

export interface EmbedderOptions {
  /** The model's directory (default: the first of `modelDirs()` that holds it). */
  modelDir?: string;
  /** Texts a call of the model takes at once (default 16); texts are batched by length. */
  batchSize?: number;
  /** Instances of the model, each on a worker thread of its own when more than one; "auto": one a core (default 1). */
  threads?: number | "auto";
  /** Called after each batch with how many texts it embedded. */
  onBatch?: (texts: number) => void;
}

/** Where the model's files are looked for when no `modelDir` is given, in order. */
export declare function modelDirs(): string[];
/** The cores this process may use: what `threads: "auto"` means. */
export declare function cores(): number;
/** Loads the model from `modelDir` (or the first of `modelDirs()` that holds it). */
export declare function createEmbedder(options?: EmbedderOptions): Promise<LoadedEmbedder>;
