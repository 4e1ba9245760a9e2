// What a session says of itself and of its commands: statistics, facts, command outputs.

import type { SearchHit } from "./options.cjs";

/** Counters since `connect`, for hosts, tests and benchmarks. */
export interface ChromaFsStats {
  requests: number;
  /** Bytes of request bodies sent to Chroma. */
  bytesSent: number;
  bytesReceived: number;
  retries: number;
  failures: number;
  cacheHits: number;
  cacheMisses: number;
  cachedBytes: number;
  cachedPages: number;
  lazyFetches: number;
  /** Pages found in the shared cache. */
  sharedHits: number;
  /** Shared-cache lookups that found nothing usable. */
  sharedMisses: number;
  /** Shared-cache calls that failed (each treated as a miss). */
  sharedErrors: number;
  /** Pages found in the process tier: loaded by another session of this process and not fetched again. */
  processHits: number;
  /** Whether `connect` found the tree already decoded in this process. */
  treeFromCache: boolean;
  /** Files visible to this session. */
  files: number;
  /** Pages loaded by bulk prefetches. */
  prefetchedPages: number;
  /** The most recent search commands (newest last) and what each cost. */
  commands: SearchCommandStats[];
}

/** How one `grep`/`egrep`/`fgrep`/`rg`, `ls` or `find` was run and the Chroma requests it made. */
export interface SearchCommandStats {
  /** The command line, words joined by spaces. */
  command: string;
  /**
   * `narrow`: only candidate pages searched; `prefetch`: every page in scope loaded in
   * bulk; `memory`: every page it reads was in memory, Chroma was not asked; `delegate`:
   * no files read (listings, stdin, usage errors).
   */
  plan: "narrow" | "prefetch" | "memory" | "delegate";
  /** Files the command would read without narrowing. */
  scope: number;
  /** Files left after the coarse query. */
  candidates: number;
  /**
   * Files handed to the command: the candidates, less those the fine check ruled out (a
   * command answered in Rust whose candidates fit the cache reads them as they load, with
   * no check before: all of them).
   */
  searched: number;
  /** Chunk records the coarse query matched. */
  coarseMatches: number;
  coarseRequests: number;
  prefetchRequests: number;
  /** Why a search fell back to a prefetch. */
  note?: string;
  /** Answered in Rust rather than by just-bash's command. */
  native: boolean;
  /** Why just-bash's command printed it, when it ran there. */
  delegated?: string;
}

/** A command's output, as just-bash's commands return it. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** `"bytes"` when `stdout` holds bytes that are not UTF-8 text, one character a byte (`tree -S`), as just-bash reads it. */
  stdoutKind?: "bytes";
}

/** The `search` command's output, and when the search ran, each hit as printed, best first. */
export interface SearchCommandOutput extends CommandOutput {
  /** When the search ran: each hit as printed, best first. */
  blocks?: string[];
  /** When the search ran: each hit as `fs.search()` returns it, best first. */
  hits?: SearchHit[];
  /** A search of one version (`--version`) that found nothing: the best pages of other versions that answer, as `fs.search()`'s `otherVersions`. */
  otherVersions?: SearchHit[];
}

/** What failed while a command ran (see `beginCommand`). */
export interface CommandReport {
  /** Failed reads no inner command has reported yet, oldest first (at most 1,000). */
  unreported: { path: string; cause: string }[];
  /** Every failed read since the command began. */
  total: number;
}

/** Tree-level facts about the connected collection. */
export interface ChromaFsInfo {
  collectionId: string;
  /** A hash of the tree's content; changes whenever the docs are re-ingested. */
  treeVersion: string;
  /** Files visible to this session. */
  files: number;
  /**
   * The session's groups that no page it sees names (a group spelled wrong, or one the docs do
   * not use). A page naming one of them would be visible, so this tells nothing of the others.
   */
  unusedGroups: string[];
  /** Every chunk holds whole lines, so a search can match chunk by chunk. */
  lineAligned: boolean;
  /** Every chunk carries its page's access, so reads and searches are scoped inside Chroma. */
  chunkAccess: boolean;
  /** Pages are asked for by their chunks' ids (the tree, or an annotation, counts every page's chunks). */
  readById: boolean;
  /**
   * For the operator: this session's searches read every visible page of their scope instead
   * of asking Chroma which may match, because the collection's chunks carry no access and the
   * session cannot see every page (asking would let hidden text change what a search costs).
   * `chromafs annotate` makes such a collection cheap to search. A host should not pass this on
   * to an agent: it says that pages exist which the session cannot see.
   */
  searchesReadScope: boolean;
  /**
   * Whether greps choose their pages from the collection's grep index (`used`), and why
   * not when they do not (no index, a format this version does not read, `grepIndex: false`).
   * A search whose pattern has no three bytes of literal text asks Chroma whatever this says.
   */
  grepIndex: { used: boolean; why: string | null };
  /**
   * The tree record's Chroma metadata (e.g. `pages`), as stored: the whole collection's,
   * whatever this session may see (`pages` counts hidden pages too). For the host, not
   * an agent: `files` is what the session sees.
   */
  treeMetadata: Record<string, unknown>;
  /**
   * The model and dimension that embedded the chunks, when the tree's manifest records them,
   * and the embedder's `method` when it named one.
   */
  embedding: { model: string; dimension: number; method?: string } | null;
  /**
   * The embedding function Chroma's clients recorded in the collection's configuration, with
   * whether this session's searches embed questions with it (`used`) and, when not, why
   * (`missing`; `refusedOrigin` when its address is not allowed); `note`: what of the
   * record was not read. Null when the collection records none.
   */
  collectionEmbedding: {
    name: string;
    model: string | null;
    apiBase: string | null;
    apiKeyEnvVar: string | null;
    dimensions: number | null;
    apiType: string | null;
    organizationId: string | null;
    url: string | null;
    used?: boolean;
    missing?: string;
    refusedOrigin?: string;
    note?: string;
  } | null;
  /** The length of the collection's vectors, as Chroma said when the tree was loaded; null before any record. */
  collectionDimension: number | null;
  /**
   * What is wrong with the tree entries this session could see, one escaped line each
   * (`corrupt path tree: entry "a\nb.md": path contains the control character '\n'`): pages
   * whose entry has a field that cannot be right (reading them is EIO with this message),
   * and entries no listing shows (a key that cannot be a path, two keys naming one path).
   * Entries whose access cannot be read are hidden from every session and named nowhere.
   */
  brokenPages: string[];
}

/**
 * An embedding function, or an object with one and the model's name (as `chromafs/embed`
 * makes). `method` says how passages become vectors; ingest records it, and embeds every
 * chunk again when a later ingest's embedder names another. `embedQuery`, when given, is
 * what a search embeds its question with (`embed` otherwise): for models that read a
 * question apart from a passage.
 */
export type EmbedFunction = (texts: string[]) => Promise<ReadonlyArray<ArrayLike<number>>> | ReadonlyArray<ArrayLike<number>>;
export type Embedder =
  | EmbedFunction
  | {
      embed: EmbedFunction;
      embedQuery?: EmbedFunction;
      model?: string;
      method?: string;
      dimension?: number | undefined;
      /** Calls of `embed` an ingest may have in flight at once (default 1). */
      concurrency?: number;
      /** How Chroma's clients name the function; ingest records it in the collection's configuration. */
      chromaFunction?: { name: string; config: Record<string, unknown> };
    };

/** What bash prints for a command; structurally just-bash's `ExecResult`. */
export interface CommandResultLike {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A just-bash custom command (structurally its `Command`), for `customCommands`. */
export interface CustomCommandLike {
  name: string;
  trusted?: boolean;
  /** `ctx` is just-bash's command context; typed loosely so just-bash need not be installed. */
  execute(args: string[], ctx: unknown): Promise<CommandResultLike>;
}
