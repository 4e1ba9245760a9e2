// Writing a collection: `ingest` and `annotate`, their options and their summaries.

import type { ChromaClientOptions, CollectionLayoutOptions, PageContent } from "./options.cjs";
import type { Embedder } from "./results.cjs";

/** One page to write; `path` is relative to the docs root (a leading `/` is ignored). */
export interface IngestFile {
  path: string;
  /** UTF-8 text; other bytes are rejected. */
  content: PageContent;
  /** Milliseconds since the epoch, shown by `ls -l` and `stat`. */
  mtime?: number;
}

/** Who may see the pages a glob matches; unmatched pages are public. */
export interface AccessRule {
  /** Defaults to false once a rule matches. */
  isPublic?: boolean;
  groups?: readonly string[];
}

export interface IngestOptions extends ChromaClientOptions, CollectionLayoutOptions {
  /** Created if missing; a re-run upserts and deletes records it did not write. */
  collection: string;
  files: readonly IngestFile[];
  /** Glob (relative to the docs root, e.g. `internal/**`) → rule, or that object as JSON text; the last matching rule wins. */
  access?: string | Record<string, AccessRule>;
  /** Glob → the version of the docs its pages belong to (`{"v1/**": "v1"}`), or that object as JSON text; the last matching glob wins. Pages no glob matches belong to every version. */
  versions?: string | Record<string, string>;
  /** A page no `versions` glob matches belongs to the version its top folder names, when that folder is named like one (`v2/`, `1.4/`, `v1.x/`). */
  versionFolders?: boolean;
  /** The version sessions are told to use when they do not choose (`versions().default`); some page must belong to it. Defaults to the newest. */
  defaultVersion?: string;
  /** Chunk size limit, split on line boundaries; defaults to 4096, clamped to 64..16384. */
  chunkBytes?: number;
  /** Embeds chunk texts, one vector per text; defaults to a small deterministic embedding. */
  embed?: Embedder;
  /** The model `embed` runs, recorded in the tree's manifest (`"custom"` when not given). */
  embedModel?: string;
  /** Store the tree as plain JSON instead of gzip+base64, e.g. to inspect it. */
  plainTree?: boolean;
  /** Access of pages no rule matches; defaults to `"public"`. */
  defaultAccess?: "public" | "private";
  /**
   * How long this run holds the collection unless it renews its lease (renewed while it
   * writes), 1000 to 86,400,000 ms; defaults to 60,000. Another ingest is refused while it
   * holds it, and one that was killed holds it no longer than this.
   */
  leaseMs?: number;
}

/** What an ingest wrote. */
export interface IngestSummary {
  collection: string;
  collectionId: string;
  pages: number;
  publicPages: number;
  restrictedPages: number;
  chunks: number;
  /** Total page bytes. */
  bytes: number;
  /** Stale records from earlier runs, deleted. */
  removedRecords: number;
  /** Chunks written and embedded by this run; a re-run writes only chunks whose text, place, access or model changed. */
  chunksWritten: number;
  /** Whether the tree was written (a re-run over unchanged docs leaves it as it is). */
  treeWritten: boolean;
  /** Size of the stored path tree: its manifest and shards. */
  treeBytes: number;
  /** Shard records the tree was split into (each under Chroma Cloud's 16 KiB cap). */
  treeShards: number;
  /** False when some line was longer than `chunkBytes` and had to be cut. */
  lineAligned: boolean;
  /** Pages each access rule decided, in rule order (a rule that matches none fails the ingest). */
  rules: { glob: string; pages: number }[];
  /** Pages of each version of the docs, oldest first (empty when the docs have no versions). */
  versions: { version: string; pages: number }[];
  /** The default version the tree names, when `defaultVersion` gave one. */
  defaultVersion?: string | null;
  /**
   * The grep index kept beside the chunks: its records after this run, those this run wrote
   * (a re-run writes only what changed) and their bytes, and records of index segments no
   * longer used, deleted (not counted in `removedRecords`).
   */
  grepIndex: { records: number; written: number; removed: number; bytes: number; ms: number };
  requests: number;
}

/**
 * Writes a folder's pages (already read by the host) into a collection. The writer is a
 * module of its own, loaded on the first call in Node and browsers; the Workers and edge
 * builds leave it out and reject with `ENOTSUP`.
 */
export declare function ingest(options: IngestOptions): Promise<IngestSummary>;

export interface AnnotateOptions extends ChromaClientOptions, CollectionLayoutOptions {
  collection: string;
  /**
   * Also write the grep index of the pages (default false; one an earlier run wrote is
   * deleted without it). Only for a collection whose writer changes the tree whenever it
   * writes chunks, or is followed by `annotate` each time: a chunk rewritten in place
   * behind the index is not seen through it.
   */
  grepIndex?: boolean;
}

/** What an annotation wrote. */
export interface AnnotateSummary {
  collection: string;
  /** Chunk records seen. */
  chunks: number;
  /** Chunks whose fields were written; the others were already right. */
  updated: number;
  /** Chunks of slugs the tree does not name, made private to nobody. */
  orphans: number;
  /** Every chunk is named SLUG#INDEX: every page's chunks were counted, and pages are read by id. */
  readById: boolean;
  /** The grep index of the pages, named in the annotations: its records, those written, those of an older index removed. */
  grepIndex: { records: number; written: number; removed: number; bytes: number; ms: number };
  requests: number;
}

/**
 * Writes each chunk's page access and ancestor directories onto a collection written by
 * another tool (in place, resumable), so its searches are scoped inside Chroma like those
 * of a collection `ingest` wrote. Valid until the other tool rewrites the tree.
 */
export declare function annotate(options: AnnotateOptions): Promise<AnnotateSummary>;
