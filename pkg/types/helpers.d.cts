// Helpers around just-bash: running a line safely, shared page caches, the bash tool's description.

/** What `safeExec` resolves to when `exec()` rejected. */
export interface SafeExecFailure {
  stdout: "";
  stderr: string;
  exitCode: 1;
  env: Record<string, string>;
}

/**
 * `bash.exec()` that never rejects and never hides a failed read. just-bash rejects
 * `exec()` when a top-level redirection fails (`echo x > /a.md` on a read-only
 * filesystem); this resolves with bash's error line on stderr and exit code 1 instead.
 * On a ChromaFs the command line is one command for `maxRequestsPerCommand`,
 * `commandTimeoutMs` and `options.signal`, and any read that failed in it is on stderr
 * with a failing exit code, even one no command reported (`wc -l < /a.md`).
 */
export declare function safeExec<R, O = undefined>(
  bash: { exec(command: string, options?: O): Promise<R> },
  command: string,
  options?: O,
): Promise<R | SafeExecFailure>;

/** The line bash would print for a filesystem error that escaped `exec()`. */
export declare function bashErrorLine(error: unknown): string;

/**
 * A content cache shared by many sessions: async get/set of page bytes under versioned
 * keys (`chromafs:<collection id>:<tree version>:<slug>`), so entries never go stale.
 */
export interface SharedContentCache {
  get(key: string): Promise<Uint8Array | string | null | undefined> | Uint8Array | string | null | undefined;
  set(key: string, value: Uint8Array): Promise<unknown> | unknown;
}

/** A Redis client as `redisCache` uses it (node-redis and ioredis both fit). */
export interface RedisLike {
  get(key: string): Promise<string | Uint8Array | null>;
  set(key: string, value: string, ...options: any[]): Promise<unknown>;
}

/** A shared cache over Redis; `ttlSeconds` only bounds memory, keys are versioned. */
export declare function redisCache(client: RedisLike, options?: { prefix?: string; ttlSeconds?: number }): SharedContentCache;

/** The part of the Workers Cache API that `workersCache` uses (`caches.default`). */
export interface CacheLike {
  match(request: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | undefined | null>;
  put(request: string, response: any): Promise<void>;
}

/** A shared cache over the Workers Cache API. */
export declare function workersCache(cache: CacheLike, options?: { origin?: string; ttlSeconds?: number }): SharedContentCache;

/**
 * A ready tool description for an agent: what the shell is, that it is read-only (but for
 * the `scratch` directory, when given), what works best.
 */
export declare function toolDescription(options?: { docs?: string; scratch?: string; keptMinutes?: number }): string;

/** A bash-tool sandbox over a just-bash `Bash`: commands never reject, writes fail as read-only. */
export declare function bashToolSandbox(bash: { exec(command: string, options?: any): Promise<{ stdout: string; stderr: string; exitCode: number }>; fs: { readFile(path: string): Promise<string> } }): {
  executeCommand(command: string): Promise<{ stdout: string; stderr: string; exitCode: number }>;
  readFile(path: string): Promise<string>;
  writeFiles(files: { path: string; content: string | Uint8Array }[]): Promise<void>;
};
