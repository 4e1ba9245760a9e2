// Types for chromafs/embed: the all-MiniLM-L6-v2 sentence-embedding model for Node.

/** The model's name, as a collection's manifest records it. */
export declare const MODEL: "all-MiniLM-L6-v2";
/** The length of its vectors. */
export declare const DIMENSION: 384;

/** The loaded model; pass it as `embed` to `ChromaFs.connect` or `ingest`. */
export interface LoadedEmbedder {
  model: "all-MiniLM-L6-v2";
  dimension: number;
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Where the model's files are looked for when no `modelDir` is given, in order. */
export declare function modelDirs(): string[];
/** Loads the model from `modelDir` (or the first of `modelDirs()` that holds it). */
export declare function createEmbedder(options?: { modelDir?: string; batchSize?: number }): Promise<LoadedEmbedder>;
