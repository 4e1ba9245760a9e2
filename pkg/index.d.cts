// Type declarations for chromafs: a read-only just-bash filesystem over a Chroma collection.
//
// Self-contained on purpose: nothing here imports just-bash's types (a host may bring a
// just-bash of its own, within the package's range). The filesystem, stat, dirent and command shapes mirror just-bash 3.4's
// `IFileSystem` and `CustomCommand` structurally, which is what lets
// `new Bash({ fs, customCommands: fs.commands() })` type-check without a shared import.
//
// The declarations of the types a session takes and gives are in types/: each is exported
// from here.

export * from "./types/shapes.cjs";
export * from "./types/options.cjs";
export * from "./types/results.cjs";
export * from "./types/ingest.cjs";
export * from "./types/helpers.cjs";

import type { BufferEncoding, CpOptions, DirentEntry, FileContent, FsStat, MkdirOptions, PageHeading, ReadFileOptions, RmOptions, WriteFileOptions } from "./types/shapes.cjs";
import type { ConnectOptions, DocsVersions, SearchHits, SearchOptions, VersionLease } from "./types/options.cjs";
import type { ChromaFsInfo, ChromaFsStats, CommandOutput, CommandReport, CustomCommandLike, SearchCommandOutput } from "./types/results.cjs";

/** `ChromaFs.connectMounts`'s options: `connect`'s, and the mounts. */
export interface MountsOptions extends Omit<ConnectOptions, "collection" | "mountAt"> {
  /** Each top-level directory and its collection, or the options of that mount. */
  mounts: Record<string, string | (Partial<ConnectOptions> & { collection: string })>;
}

/**
 * Collections mounted as top-level directories of one just-bash filesystem. A command
 * inside one mount is that mount's (searches pushed down to its collection); one that
 * reaches several runs as just-bash's own over all of them; `search` interleaves the
 * mounts' rankings. Paths outside every mount (the scratch directory) belong to the first.
 */
export interface MountedFs
  extends Pick<
    ChromaFs,
    | "readFile" | "readFileBuffer" | "writeFile" | "appendFile" | "exists" | "stat" | "lstat" | "mkdir" | "readdir"
    | "readdirWithFileTypes" | "rm" | "cp" | "mv" | "resolvePath" | "getAllPaths" | "chmod" | "symlink" | "link"
    | "readlink" | "realpath" | "utimes" | "writeError" | "saveScratch" | "restoreScratch"
  > {
  /** just-bash custom commands over the mounts (pass as `customCommands`). */
  commands(): CustomCommandLike[];
  search(query: string, options?: SearchOptions): Promise<SearchHits>;
  searchCommand(args: string[], cwd: string): Promise<SearchCommandOutput>;
  /** Each mount's statistics by directory, and their requests and visible files summed. */
  stats(): { requests: number; files: number; mounts: Record<string, ChromaFsStats> };
  /** Each mount's `info()` by directory. */
  info(): { mounts: Record<string, ChromaFsInfo> };
  beginCommand(limits?: { maxRequests?: number; timeoutMs?: number }): number[];
  endCommand(marks: number[]): CommandReport;
  abortCommand(): void;
  isCurrent(): Promise<boolean>;
  /** Each mount's `pageTitles` for its own pages; a path in no mount has none. */
  pageTitles(paths: string[]): Promise<(string | null)[]>;
  /** Each mount's `pageHeadings` for its own pages; a path in no mount has none. */
  pageHeadings(paths: string[]): Promise<PageHeading[]>;
  /** Each mount's `planReads` for its own pages. */
  planReads(paths: string[]): void;
  /** The same mounts scoped to `version` (see ChromaFs's `ofVersion`). */
  ofVersion(version: string): Promise<MountedFs>;
  /** The same mounts scoped to `version`, held for a call (see ChromaFs's `leaseVersion`). */
  leaseVersion(version: string): Promise<VersionLease<MountedFs>>;
  free(): void;
}

/**
 * A read-only just-bash filesystem over a Chroma collection. Writes reject with `EROFS`
 * except in the `scratch` directory and to `/dev/null`; errors carry `code`, `syscall`
 * and `path` like Node's.
 */
export declare class ChromaFs {
  private constructor();

  /** Opens a session: loads the path tree (or reuses this process's copy) and applies `groups`. */
  static connect(options: ConnectOptions): Promise<ChromaFs>;
  /**
   * Sets the byte budget of the process tier, the pages shared by the sessions of this
   * process that read the same tree with the same credentials (64 MiB by default); `0`
   * turns it off. The same as `connect`'s `processCacheBytes`.
   */
  static setProcessCacheBytes(bytes: number): void;
  /** Forgets the path trees this process has cached, so the next `connect` reloads. */
  static forgetTrees(): void;
  /**
   * A grep, egrep or fgrep typed in `cwd` over mounted collections (`mounts`: their names,
   * `docs` for `/docs`; `home`: the one holding paths outside them; `root`: the names in
   * `/`), as one grep per mount whose outputs joined are its output, in order; `null` when
   * it is not split so (context lines, an operand that is stdin, one mount reached). Read
   * by the parser the search itself uses.
   */
  static splitSearch(
    name: "grep" | "egrep" | "fgrep",
    args: string[],
    cwd: string,
    mounts: string[],
    home: string,
    root: string[],
  ): { mount: string; args: string[] }[] | null;
  /**
   * Whether a file name matches a glob as one segment of bash's pathname expansion
   * (`*`, `?`, bracket sets, backslash escapes; the caller leaves dotfiles out); throws
   * for a glob it does not model. The package's shell expands globs ending in a slash with it.
   */
  static globMatches(glob: string, name: string): boolean;
  /**
   * Reads a `search` command line run in `cwd` (the parser the command itself uses):
   * whether it asks for its help or is a usage error, the number of pages it shows (the
   * command's default without `-n`), and the directory it searches.
   */
  static readSearchLine(args: string[], cwd: string): { help: boolean; usage: boolean; k: number; dir: string | null };
  /**
   * Several collections in one filesystem, each as a top-level directory:
   * `connectMounts({ url, groups, mounts: { "/docs": "docs", "/api": { collection: "api-v2", embed } } })`.
   * The other options apply to every mount; a mount's object overrides them for it.
   */
  static connectMounts(options: MountsOptions): Promise<MountedFs>;

  readFile(path: string, options?: ReadFileOptions | BufferEncoding): Promise<string>;
  readFileBuffer(path: string): Promise<Uint8Array>;
  /**
   * The file as a latin1 byte string (one char per byte). A plain `string` at runtime; the
   * type parameter lets it satisfy just-bash's branded `ByteString` without importing it.
   */
  readFileBytes<T = string>(path: string): Promise<T>;
  /** Writes into the `scratch` directory; `/dev/null` discards; anywhere else rejects with `EROFS`. */
  writeFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void>;
  /** Appends in the `scratch` directory; `/dev/null` discards; anywhere else rejects with `EROFS`. */
  appendFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void>;
  /** Answered from the path tree, never rejects. */
  exists(path: string): Promise<boolean>;
  stat(path: string): Promise<FsStat>;
  /** Same as `stat`: there are no symlinks. */
  lstat(path: string): Promise<FsStat>;
  /** In the `scratch` directory only; elsewhere rejects with `EROFS`. */
  mkdir(path: string, options?: MkdirOptions): Promise<void>;
  readdir(path: string): Promise<string[]>;
  readdirWithFileTypes(path: string): Promise<DirentEntry[]>;
  /** In the `scratch` directory only; elsewhere rejects with `EROFS`. */
  rm(path: string, options?: RmOptions): Promise<void>;
  /** Into the `scratch` directory (from anywhere the session can read); elsewhere rejects with `EROFS`. */
  cp(src: string, dest: string, options?: CpOptions): Promise<void>;
  /** Within the `scratch` directory only; elsewhere rejects with `EROFS`. */
  mv(src: string, dest: string): Promise<void>;
  /** Synchronous, as just-bash requires. */
  resolvePath(base: string, path: string): string;
  /** Every visible path (files and directories), for glob matching. */
  getAllPaths(): string[];
  /** In the `scratch` directory only; elsewhere rejects with `EROFS`. */
  chmod(path: string, mode: number): Promise<void>;
  /** Rejects with `EROFS`. */
  symlink(target: string, linkPath: string): Promise<void>;
  /** Rejects with `EROFS`. */
  link(existingPath: string, newPath: string): Promise<void>;
  /** Rejects: there are no symlinks. */
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  /**
   * In the `scratch` directory only: sets the modification time to `mtime` (`atime` is not
   * kept), `ENOENT` for a missing path; elsewhere rejects with `EROFS`.
   */
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;

  /** Counters since `connect`. */
  /**
   * Why opening `path` to write would fail, as open(2) says it (an Error whose `code` is
   * EROFS, ENOENT, ENOTDIR or EISDIR), or null when it would open. Nothing is written:
   * `safeExec` asks it before a command whose output is redirected runs.
   */
  writeError(path: string): (Error & { code: string }) | null;
  /** The scratch directory's whole content as bytes, or undefined when the session has none. */
  saveScratch(): Uint8Array | undefined;
  /**
   * Replaces the scratch directory's content with bytes `saveScratch()` gave (null: empty,
   * and the files process substitutions left in /dev/fd dropped, with a scratch directory
   * or without one). Bytes that do not read back throw EINVAL and change nothing.
   */
  restoreScratch(saved: Uint8Array | null): void;
  stats(): ChromaFsStats;
  /** The collection id, tree version and tree metadata. */
  info(): ChromaFsInfo;
  /**
   * just-bash custom commands for this filesystem; pass as `customCommands`. The searches
   * (`grep`, `egrep`, `fgrep`, `rg`) ask Chroma which pages can match and load those in
   * bulk, then print the answer in Rust when its output is modelled exactly, or run
   * just-bash's own command over the loaded pages otherwise: the same output, in a handful
   * of requests. `ls`, `find`, `tree` and `du` are answered from the listing in Rust on the
   * same terms, with just-bash's command as the fallback. The other commands that read
   * files (`cat`, `head`, `wc`, `sed`, `xargs`…) run just-bash's own implementation. Every
   * one runs inside a command budget and reports the reads that failed:
   * `cat: /a.md: Input/output error (cause)`, a failing exit code (2 for searches), and
   * "output incomplete" when it printed something anyway.
   */
  commands(): CustomCommandLike[];
  /**
   * What the search commands above call: narrows a search command line and loads the
   * pages it will read; resolves to the command's output when it was answered in Rust,
   * to the arguments to run the original command with, or `null` when those pages cannot
   * be loaded (`endCommand` reports why); rejects when the command must not run at all,
   * such as a pattern over 8 KiB (just-bash's matchers take minutes on a 100 KiB one).
   * `ownFs`: the command reads this filesystem itself, not a host's filesystem around it;
   * `stdoutFile`: the file its standard output goes to, which grep refuses to read and rg skips.
   */
  planSearch(name: string, args: string[], cwd: string, stdinEmpty?: boolean, ownFs?: boolean, linesWanted?: number, stdin?: string, stdoutFile?: string): Promise<string[] | CommandOutput | null>;
  /**
   * What `ls`, `find`, `tree` and `du` above call: their output answered from the listing (and
   * the files the command reads first, such as `tree --fromfile`'s lists; `stdin` is standard
   * input's text), or `null` when just-bash's own command must run (`stats().commands` says why).
   */
  runCommand(name: string, args: string[], cwd: string, ownFs?: boolean, stdin?: string): Promise<CommandOutput | null>;
  /**
   * Starts a command: opens its request budget (`maxRequestsPerCommand`,
   * `commandTimeoutMs`) and collects the reads that fail while it runs. Commands begun
   * inside a running one share its budget. `limits` hold this command tighter than the
   * session's options, never looser (a server bounds each call it answers). Returns the
   * mark for `endCommand`.
   */
  beginCommand(limits?: { maxRequests?: number; timeoutMs?: number }): number;
  /**
   * Whether the tree this session was opened with is still the collection's, as of the
   * running command's start (or now, outside one): one small request, unless a check made
   * since then by any session of the process answers. A server that keeps sessions between
   * calls asks before each call and connects again when the docs changed. Rejects (EIO)
   * when the check cannot be made.
   */
  isCurrent(): Promise<boolean>;
  /**
   * The title each of `paths` (at most 100) states — its front matter's `title:`, else its
   * first Markdown heading — read from the pages' first chunks in one request by id; `null`
   * for a page that states none or is not read by id (a lazy file, a collection another
   * tool wrote), and for a path that is no visible page (no request names it).
   */
  pageTitles(paths: string[]): Promise<(string | null)[]>;
  /** The versions of the docs this session may choose among (no request). */
  versions(): DocsVersions;
  /**
   * `pageTitles` with each page's front matter `description:` beside its title, from the
   * same request: `{ title, description }`, each `null` where the page states none.
   */
  pageHeadings(paths: string[]): Promise<PageHeading[]>;
  /**
   * The running command (between `beginCommand` and `endCommand`) will read `paths` in this
   * order: a page read then loads with those after it, their chunks by id in bulk (300 to a
   * request, at most ten in flight), not a request a page. Paths that are no visible page
   * are left out.
   */
  planReads(paths: string[]): void;
  /** Ends a command: the reads that failed while it ran and that no inner command reported. */
  endCommand(mark: number): CommandReport;
  /** Stops the running command: its requests not yet sent are refused. */
  abortCommand(): void;
  /**
   * From now on this session's commands draw on `other`'s budget: a command open on either
   * is open on both, and their requests count together (how `connectMounts` makes several
   * sessions one shell).
   */
  shareBudget(other: ChromaFs): void;
  /**
   * The same session, searching with the embedder of `options` (`embed`, `embedModel`, as
   * `connect` reads them) instead of its own; no request is sent.
   */
  withEmbed(options: Pick<ConnectOptions, "embed" | "embedModel">): ChromaFs;
  /**
   * Ranked search: the pages that best answer `query` among those the session sees, best
   * first (hybrid BM25 and, with `embed`, nearest neighbours, fused by rank). Rejects with
   * EIO when Chroma or the embedding function fails, EINVAL for a query with no words.
   */
  search(query: string, options?: SearchOptions): Promise<SearchHits>;
  /** What the `search` command above calls: its output for `args`. */
  searchCommand(args: string[], cwd: string): Promise<SearchCommandOutput>;
  /**
   * This session's docs of `version` alone (and the pages of no version): a session
   * opened with this one's options and `version` the first time, kept for the next call (a
   * few versions at most, the least recently used freed first) and freed with this one;
   * do not free it yourself. Rejects with EINVAL, as `connect({ version })` does, for a
   * version this session does not see. A session scoped to `version` is its own.
   */
  ofVersion(version: string): Promise<ChromaFs>;
  /**
   * `ofVersion`'s session, held for a call: a session let go of meanwhile (more versions
   * used than are kept) is freed only once every lease of it is released. Resolves with
   * the session (this one, when it is scoped to `version`) and `release()`, to call once.
   */
  leaseVersion(version: string): Promise<VersionLease<ChromaFs>>;
  /** Releases the wasm-side session (and those `ofVersion` opened); the object is unusable afterwards. */
  free(): void;
}
