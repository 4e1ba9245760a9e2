// The public API around the wasm core, shared by every entry point (Node ESM and CJS,
// browsers, bundlers, workerd, the edge runtime). Each entry loads the wasm its own way
// and then calls `setup`.

/**
 * Wires the wasm exports into the public API. `run` runs a call in the context the
 * package was loaded in: in Node that is `AsyncLocalStorage.snapshot()`, because
 * just-bash's defense-in-depth blocks `WeakRef`, `setTimeout` and friends while a command
 * runs, and `fetch` (and this package's timers) need them.
 */
const SEARCH_COMMANDS = ["grep", "egrep", "fgrep", "rg"];
// just-bash's built-ins that read files. Each is wrapped to report failed reads.
const FILE_COMMANDS = [
  "cat", "head", "tail", "wc", "sort", "uniq", "comm", "cut", "paste", "rev", "nl", "fold", "expand", "unexpand",
  "strings", "split", "column", "join", "tee", "ls", "stat", "find", "du", "tree", "sed", "awk", "diff", "md5sum",
  "sha1sum", "sha256sum", "file", "html-to-markdown", "tac", "od", "base64", "gzip", "gunzip", "zcat", "tar", "jq",
  "yq", "xan", "sqlite3", "xargs", "bash", "sh", "readlink",
];
// Commands that may be answered from the listing in Rust (see runCommand).
const LISTING_COMMANDS = ["ls", "find", "tree", "du"];
// Failed reads listed one by one before the rest are counted.
const LISTED_FAILURES = 20;

/**
 * One custom command over just-bash's own. Searches (grep, egrep, fgrep, rg) first ask
 * Chroma which pages can match and load those in bulk, then print in Rust what just-bash's
 * command would print, or run that command over them when the flags are outside what the
 * Rust side models; either way the output is exactly just-bash's. Every command runs inside a command budget
 * (`maxRequestsPerCommand`, `commandTimeoutMs`, the host's AbortSignal) and reports the
 * reads that failed while it ran: just-bash's commands would show them as "No such file
 * or directory", skip them, or count them as no match.
 */
function command(fs, name) {
  const search = SEARCH_COMMANDS.includes(name);
  return {
    name,
    async execute(args, ctx) {
      if (typeof ctx.origCommand !== "function") {
        return search
          ? { stdout: "", stderr: `${name}: chromafs needs just-bash 3.4 or later\n`, exitCode: 2 }
          : { stdout: "", stderr: `bash: ${name}: command not found\n`, exitCode: 127 };
      }
      const ran = await bracketed(fs, ctx.signal, async () => {
        if (LISTING_COMMANDS.includes(name)) return fs.runCommand(name, args, ctx.cwd, readsOnly(fs, ctx)) ?? ctx.origCommand(args);
        if (!search) return ctx.origCommand(args);
        const stdinEmpty = !ctx.stdin || ctx.stdin.length === 0;
        let planned;
        try {
          planned = await fs.planSearch(name, args, ctx.cwd, stdinEmpty, readsOnly(fs, ctx));
        } catch (refused) {
          // Not to be run at all (a pattern too long to search): say why, as grep would.
          return { stdout: "", stderr: `${name}: ${refused.message}\n`, exitCode: 2 };
        }
        // null: the pages cannot be loaded; the failure is in the report. An object: the
        // search was answered in Rust, with just-bash's output.
        if (planned === null) return { stdout: "", stderr: "", exitCode: 2 };
        return Array.isArray(planned) ? ctx.origCommand(planned) : planned;
      });
      return withFailures(name, ran.result, ran.report, (p) => fs.resolvePath(ctx.cwd, p), search ? 2 : 1);
    },
  };
}

// A path only asked for to learn which filesystem answers `resolvePath`.
const PROBE = "\u0000chromafs-probe";
let probed = null;

/**
 * Whether a command's filesystem is `fs` itself rather than a host's filesystem around
 * it (a MountableFs with other mounts): only then may a command be answered from `fs`'s
 * listing alone. just-bash hands commands a wrapper whose methods are bound to the real
 * filesystem, so the wrapper's `resolvePath` reaches `fs`'s only in that case.
 */
function readsOnly(fs, ctx) {
  probed = null;
  try {
    ctx.fs.resolvePath("/", PROBE);
  } catch {
    return false;
  }
  return probed === fs;
}

/** Runs `body` as one command of `fs`: its budget, its abort, its report of failures. */
async function bracketed(fs, signal, body) {
  const mark = fs.beginCommand();
  const abort = () => fs.abortCommand();
  if (signal?.aborted) abort();
  signal?.addEventListener?.("abort", abort, { once: true });
  let result, report;
  try {
    result = await body();
  } finally {
    signal?.removeEventListener?.("abort", abort);
    report = fs.endCommand(mark);
  }
  return { result, report };
}

/**
 * A command's result, made to say which reads failed: just-bash's line for a failed
 * operand becomes an I/O error with its cause, failures it did not mention are added,
 * output that may be missing something says so, and the exit code fails.
 */
function withFailures(name, result, report, resolve, failCode) {
  if (!report || report.total === 0) return result;
  const open = new Map(report.unreported.map((f) => [f.path, f.cause]));
  const line = (shown, cause) => `${name}: ${shown}: Input/output error (${cause})`;
  const lines = (result.stderr || "").split("\n");
  const trailing = lines.at(-1) === "" ? lines.pop() : null;
  const prefix = `${name}: `;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith(prefix)) continue;
    const rest = lines[i].slice(prefix.length);
    for (let at = rest.indexOf(": "); at > 0; at = rest.indexOf(": ", at + 1)) {
      const shown = rest.slice(0, at);
      const path = resolve(shown);
      if (open.has(path)) {
        lines[i] = line(shown, open.get(path));
        open.delete(path);
        break;
      }
    }
  }
  const extra = [...open];
  for (const [path, cause] of extra.slice(0, LISTED_FAILURES)) lines.push(line(path, cause));
  if (extra.length > LISTED_FAILURES) lines.push(`${name}: ${extra.length - LISTED_FAILURES} more files could not be read`);
  if (result.stdout) lines.push(`${name}: output incomplete: ${report.total} ${report.total === 1 ? "read" : "reads"} failed`);
  if (trailing !== null || lines.length > 0) lines.push("");
  const exitCode = result.exitCode === 0 || failCode === 2 ? failCode : result.exitCode;
  return { ...result, stderr: lines.join("\n"), exitCode };
}

function setup(core, run) {
  const { ChromaFs } = core;
  if (ChromaFs.__chromafsReady) return { ChromaFs, ...ChromaFs.__chromafsWriters };
  const proto = ChromaFs.prototype;
  if (run) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = proto[name];
      if (name === "constructor" || name === "free" || typeof method !== "function") continue;
      Object.defineProperty(proto, name, {
        value: function (...args) {
          return run(() => method.apply(this, args));
        },
        writable: true,
        configurable: true,
      });
    }
    const connect = ChromaFs.connect;
    ChromaFs.connect = (options) => run(() => connect.call(ChromaFs, options));
  }
  const resolvePath = proto.resolvePath;
  Object.defineProperty(proto, "resolvePath", {
    value: function (base, path) {
      if (path === PROBE) probed = this;
      return resolvePath.call(this, base, path);
    },
    writable: true,
    configurable: true,
  });
  // just-bash custom commands for this filesystem (pass as `customCommands`).
  Object.defineProperty(proto, "commands", {
    value: function () {
      return [...SEARCH_COMMANDS, ...FILE_COMMANDS].map((name) => command(this, name));
    },
    writable: true,
    configurable: true,
  });
  const wrap = (f) => (run ? (options) => run(() => f(options)) : f);
  const writers = { ingest: wrap(core.ingest), annotate: wrap(core.annotate) };
  Object.defineProperty(ChromaFs, "__chromafsReady", { value: true });
  Object.defineProperty(ChromaFs, "__chromafsWriters", { value: writers });
  return { ChromaFs, ...writers };
}

const ERRNO_TEXT = {
  EROFS: "Read-only file system",
  ENOENT: "No such file or directory",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EIO: "Input/output error",
  EINVAL: "Invalid argument",
  EACCES: "Permission denied",
  EEXIST: "File exists",
  ENOTEMPTY: "Directory not empty",
  ENOSPC: "No space left on device",
  EBUSY: "Device or resource busy",
};

/** The line bash would print for a filesystem error that escaped `exec()`. */
function bashErrorLine(error) {
  const message = error && typeof error.message === "string" ? error.message : String(error);
  const m = /^(E[A-Z]+): [^,]*, \w+ '([^']*)'(?:: ([\s\S]*))?$/.exec(message);
  if (m && ERRNO_TEXT[m[1]]) return `bash: ${m[2]}: ${ERRNO_TEXT[m[1]]}${m[3] ? ` (${m[3]})` : ""}`;
  return `bash: ${message}`;
}

/**
 * `bash.exec()` that never rejects and never hides a failed read. just-bash rejects
 * `exec()` when a top-level redirection fails (`echo x > /a.md` on a read-only
 * filesystem); this resolves instead with bash's error line on stderr and exit code 1, as
 * a terminal would show it. On a ChromaFs the whole command line is one command for
 * `maxRequestsPerCommand`, `commandTimeoutMs` and `options.signal`, and a read that failed
 * anywhere in it (even one no command reported, such as `wc -l < /a.md`) is on stderr
 * and fails the exit code.
 */
async function safeExec(bash, command, options) {
  const fs = bash.fs;
  const run = async () => {
    try {
      return await bash.exec(command, options);
    } catch (error) {
      return { stdout: "", stderr: `${bashErrorLine(error)}\n`, exitCode: 1, env: {} };
    }
  };
  if (typeof fs?.beginCommand !== "function") return run();
  const { result, report } = await bracketed(fs, options?.signal, run);
  return withFailures("bash", result, report, (p) => fs.resolvePath("/", p), 1);
}

function bytesToBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function base64ToBytes(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * A shared content cache over Redis, for `ChromaFs.connect({ sharedCache })`: many
 * sessions and processes then fetch each page from Chroma once. Works with any client
 * whose `get`/`set` take and return strings (node-redis, ioredis). Keys carry the
 * collection id and tree version, so entries never go stale; `ttlSeconds` only bounds
 * memory (or let Redis evict with `maxmemory-policy allkeys-lru`).
 */
function redisCache(client, { prefix = "", ttlSeconds = 0 } = {}) {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  // Values are tagged text: pages are UTF-8; other bytes (lazy files) go as base64.
  return {
    async get(key) {
      const v = await client.get(prefix + key);
      if (v == null) return null;
      const s = typeof v === "string" ? v : new TextDecoder().decode(v);
      if (s.startsWith("t:")) return s.slice(2);
      if (s.startsWith("b:")) return base64ToBytes(s.slice(2));
      return null;
    },
    async set(key, bytes) {
      let v;
      try {
        v = `t:${utf8.decode(bytes)}`;
      } catch {
        v = `b:${bytesToBase64(bytes)}`;
      }
      if (!(ttlSeconds > 0)) await client.set(prefix + key, v);
      else if (typeof client.getBuffer === "function") await client.set(prefix + key, v, "EX", ttlSeconds); // ioredis
      else await client.set(prefix + key, v, { EX: ttlSeconds }); // node-redis
    },
  };
}

/**
 * A shared content cache over the Workers Cache API (`caches.default` in Cloudflare
 * Workers): the isolates of a data centre share fetched pages.
 */
function workersCache(cache, { origin = "https://chromafs.invalid", ttlSeconds = 86400 } = {}) {
  const url = (key) => `${origin}/${encodeURIComponent(key)}`;
  return {
    async get(key) {
      const r = await cache.match(url(key));
      return r ? new Uint8Array(await r.arrayBuffer()) : null;
    },
    async set(key, bytes) {
      await cache.put(url(key), new Response(bytes, { headers: { "cache-control": `max-age=${ttlSeconds}` } }));
    },
  };
}

/**
 * A description of the shell for an agent's tool definition (for example bash-tool's
 * `promptOptions.toolPrompt`): what the filesystem is, that it is read-only, and which
 * commands work best. `docs` names the documentation, e.g. "the Acme API docs"; `scratch`
 * the session's writable directory, when it has one (`"/tmp"`).
 */
function toolDescription({ docs = "the documentation", scratch } = {}) {
  const writes = scratch
    ? [
        `Only ${scratch} is writable: a scratch directory of your own for intermediate results`,
        `(\`grep -rl token / > ${scratch}/hits; wc -l ${scratch}/hits\`). Writing anywhere else fails with`,
        "'Read-only file system'. Each call starts in `/`; a `cd` lasts only for that call,",
      ]
    : [
        "Nothing can be written: redirecting to a file, rm, mv, cp, mkdir and touch fail with",
        "'Read-only file system'. Each call starts in `/`; a `cd` lasts only for that call,",
      ];
  return [
    `A read-only bash shell over ${docs}. Each page is a file and each section a directory.`,
    "",
    "Start with `ls /` or `tree -L 2 /` to see the sections, then read pages with `cat`,",
    "`head -n 60` or `sed -n '40,120p'`. Search with `grep -rn PATTERN /` or `rg -n PATTERN /`",
    "(add -i to ignore case, -l to list files only, -C 2 for context, --include='*.md' to",
    "filter): searches run in the database first, so searching the whole tree is fast. Find",
    "files by name with `find / -name '*auth*'`. Pipes work (`grep -rl token / | head`).",
    "",
    ...writes,
    "so chain with `&&` or use absolute paths. Pages you may not see do not exist here.",
  ].join("\n");
}

/**
 * A bash-tool sandbox (`createBashTool({ sandbox })`) over a just-bash `Bash` on a
 * ChromaFs: commands never reject (a failed redirection reads as bash's error line), and
 * writes fail with a clear read-only error instead of a stack trace.
 */
function bashToolSandbox(bash) {
  return {
    async executeCommand(command) {
      const { stdout, stderr, exitCode } = await safeExec(bash, command);
      return { stdout, stderr, exitCode };
    },
    readFile(path) {
      return bash.fs.readFile(path);
    },
    async writeFiles(files) {
      const first = files[0]?.path ?? "/";
      throw new Error(`EROFS: read-only file system, write '${first}'`);
    },
  };
}

export { setup, safeExec, bashErrorLine, redisCache, workersCache, toolDescription, bashToolSandbox };
