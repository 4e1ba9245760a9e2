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
  // just-bash custom commands for this filesystem (pass as `customCommands`): grep,
  // egrep, fgrep and rg ask Chroma which pages can match and load those in bulk, then
  // run just-bash's own command over them, so the output is exactly just-bash's.
  Object.defineProperty(proto, "commands", {
    value: function () {
      const fs = this;
      return SEARCH_COMMANDS.map((name) => ({
        name,
        async execute(args, ctx) {
          if (typeof ctx.origCommand !== "function") {
            return { stdout: "", stderr: `${name}: chromafs needs just-bash 3.4 or later\n`, exitCode: 2 };
          }
          const stdinEmpty = !ctx.stdin || ctx.stdin.length === 0;
          return ctx.origCommand(await fs.planSearch(name, args, ctx.cwd, stdinEmpty));
        },
      }));
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
};

/** The line bash would print for a filesystem error that escaped `exec()`. */
function bashErrorLine(error) {
  const message = error && typeof error.message === "string" ? error.message : String(error);
  const m = /^(E[A-Z]+): [^,]*, \w+ '([^']*)'(?:: ([\s\S]*))?$/.exec(message);
  if (m && ERRNO_TEXT[m[1]]) return `bash: ${m[2]}: ${ERRNO_TEXT[m[1]]}${m[3] ? ` (${m[3]})` : ""}`;
  return `bash: ${message}`;
}

/**
 * `bash.exec()` that never rejects. just-bash rejects `exec()` when a top-level
 * redirection fails (`echo x > /a.md` on a read-only filesystem); this resolves instead
 * with bash's error line on stderr and exit code 1, as a terminal would show it.
 */
async function safeExec(bash, command, options) {
  try {
    return await bash.exec(command, options);
  } catch (error) {
    return { stdout: "", stderr: `${bashErrorLine(error)}\n`, exitCode: 1, env: {} };
  }
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
 * commands work best. `docs` names the documentation, e.g. "the Acme API docs".
 */
function toolDescription({ docs = "the documentation" } = {}) {
  return [
    `A read-only bash shell over ${docs}. Each page is a file and each section a directory.`,
    "",
    "Start with `ls /` or `tree -L 2 /` to see the sections, then read pages with `cat`,",
    "`head -n 60` or `sed -n '40,120p'`. Search with `grep -rn PATTERN /` or `rg -n PATTERN /`",
    "(add -i to ignore case, -l to list files only, -C 2 for context, --include='*.md' to",
    "filter): searches run in the database first, so searching the whole tree is fast. Find",
    "files by name with `find / -name '*auth*'`. Pipes work (`grep -rl token / | head`).",
    "",
    "Nothing can be written: redirecting to a file, rm, mv, cp, mkdir and touch fail with",
    "'Read-only file system'. Each call starts in `/`; a `cd` lasts only for that call,",
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
