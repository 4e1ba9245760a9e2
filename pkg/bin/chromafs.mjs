#!/usr/bin/env node
// The chromafs command-line tool: ingest a folder of docs into a Chroma collection, then
// browse it with a read-only bash shell (interactive, piped, or one command at a time).

import { parseArgs } from "node:util";
import { createInterface } from "node:readline";
import { readFile, readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { Bash } from "just-bash";
import { ChromaFs, annotate, ingest, safeExec } from "../node.mjs";

const USAGE = `Usage: chromafs <command> [options]

A read-only bash shell over documentation stored in a Chroma collection.

Commands:
  ingest DIR          write the text files under DIR into a collection (re-runnable:
                      writes and embeds only the chunks that changed, removes records of
                      pages no longer there)
  annotate            write access and directories onto the chunks of a collection
                      written by another tool, so searches are scoped inside Chroma
  shell               interactive shell; reads commands line by line when stdin is
                      not a terminal and exits with the last command's exit code
  exec "COMMAND"      run one command, exit with its exit code
  mcp                 serve the docs to agents over the Model Context Protocol: stdio
                      (what desktop and command-line agents launch), or --http PORT

Connection options (every command):
  --url URL           Chroma server (default: $CHROMAFS_URL, else http://127.0.0.1:8000)
  --collection NAME   collection (default: $CHROMAFS_COLLECTION)
  --tenant T          tenant (default: default_tenant)
  --database D        database (default: default_database)
  --token TOKEN       sent as x-chroma-token (default: $CHROMAFS_TOKEN)

ingest options:
  --access FILE       JSON object mapping path globs to {"isPublic": bool, "groups": [..]};
                      the last matching glob wins, pages no glob matches are public; a
                      glob that matches no page stops the ingest before anything is written
  --default-private   pages no glob matches are private instead of public
  --chunk-bytes N     largest chunk in bytes (default 4096)
  --plain-tree        store the path tree as plain JSON instead of gzip+base64
  --hidden            also ingest dotfiles and dot-directories (.env, .github/…),
                      which are left out by default (.git never goes in)
  --no-ignore         also ingest what .gitignore files ignore (left out by default)
  --embed             embed the chunks with the built-in all-MiniLM-L6-v2 model (see
                      chromafs/embed), so \`search\` ranks by meaning as well as words; shell
                      and exec then use the model by themselves for this collection

shell and exec options:
  --groups a,b        access groups of the session (default: none, public pages only)
  --cwd DIR           starting directory (default: /)
  --scratch DIR       a writable in-memory directory for the session, beside the
                      read-only docs (default: /tmp; "none" for no scratch directory)

mcp options:
  --groups a,b        access groups over stdio (default: none, public pages only)
  --http PORT         serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio
  --host H            address to listen on with --http (default 127.0.0.1)
  --tokens FILE       JSON object mapping bearer tokens (16 characters or more) to
                      group lists, for --http; keep it readable by you alone
  --require-token     with --http, refuse requests without a known token (401)
  --allow-origin URL  with --http, a browser origin that may call the server
                      (repeatable); other Origins get 403
  --call-timeout-ms N wall time of one tool call (default 30000); a call also stops
                      when its client goes away
  --max-requests N    Chroma requests one call may send (default 200)
  --calls-in-flight N calls one client may have running at once (default 4)
  --tool-prefix P     prefix of the tool names (e.g. docs_ gives docs_bash, docs_search)
  --docs NAME         what the docs are, for the tools' descriptions

  -h, --help          show this help
  --version           print the version

Examples:
  chromafs ingest ./docs --collection docs --access access.json --embed
  chromafs annotate --collection docs-from-another-tool
  chromafs shell --collection docs --groups admin
  chromafs exec "grep -rn access_token /" --collection docs
  printf 'cd /guides\\nls\\n' | chromafs shell --collection docs
`;

const OPTIONS = {
  url: { type: "string" },
  collection: { type: "string" },
  tenant: { type: "string" },
  database: { type: "string" },
  token: { type: "string" },
  access: { type: "string" },
  "chunk-bytes": { type: "string" },
  "plain-tree": { type: "boolean" },
  hidden: { type: "boolean" },
  "no-ignore": { type: "boolean" },
  embed: { type: "boolean" },
  http: { type: "string" },
  host: { type: "string" },
  tokens: { type: "string" },
  "require-token": { type: "boolean" },
  "allow-origin": { type: "string", multiple: true },
  "call-timeout-ms": { type: "string" },
  "max-requests": { type: "string" },
  "calls-in-flight": { type: "string" },
  "tool-prefix": { type: "string" },
  docs: { type: "string" },
  "default-private": { type: "boolean" },
  groups: { type: "string", multiple: true },
  cwd: { type: "string" },
  scratch: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
};

// Which options each command accepts besides the connection options and --help.
const COMMAND_OPTIONS = {
  ingest: ["access", "chunk-bytes", "plain-tree", "default-private", "embed", "hidden", "no-ignore"],
  annotate: [],
  shell: ["groups", "cwd", "scratch"],
  exec: ["groups", "cwd", "scratch"],
  mcp: ["groups", "http", "host", "tokens", "require-token", "allow-origin", "call-timeout-ms", "max-requests", "calls-in-flight", "tool-prefix", "docs"],
};
const COMMON_OPTIONS = ["url", "collection", "tenant", "database", "token", "help"];

/** A mistake in the command line: reported with a hint, exit code 2. */
class UsageError extends Error {}

/** An expected failure (bad input, Chroma unreachable…): reported as one line, exit code 1. */
class CliError extends Error {}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs's messages go on with advice about `--`; the first sentence is the point.
    if (typeof error?.code === "string" && error.code.startsWith("ERR_PARSE_ARGS")) {
      const first = error.message.split(". ")[0];
      throw new UsageError(first.charAt(0).toLowerCase() + first.slice(1));
    }
    throw error;
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;

  if (values.version) {
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`chromafs ${pkg.version}\n`);
    return 0;
  }
  if (values.help || command === undefined || command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!Object.hasOwn(COMMAND_OPTIONS, command)) throw new UsageError(`unknown command '${command}'`);
  const allowed = new Set([...COMMON_OPTIONS, ...COMMAND_OPTIONS[command]]);
  for (const name of Object.keys(values)) {
    if (!allowed.has(name)) throw new UsageError(`option --${name} does not apply to '${command}'`);
  }

  const conn = connection(values);
  switch (command) {
    case "ingest":
      if (args.length !== 1) throw new UsageError("ingest takes one directory: chromafs ingest DIR --collection NAME");
      return runIngest(args[0], conn, values);
    case "annotate": {
      if (args.length !== 0) throw new UsageError(`annotate takes no arguments, got '${args[0]}'`);
      const a = await annotate(conn);
      process.stdout.write(
        `annotated ${plural(a.chunks, "chunk")} of collection ${a.collection}: ${a.updated} written, ${a.chunks - a.updated} already right` +
          `${a.orphans ? `, ${a.orphans} of pages the tree does not name (made private)` : ""}; ${plural(a.requests, "request")}\n`,
      );
      return 0;
    }
    case "shell":
      if (args.length !== 0) throw new UsageError(`shell takes no arguments, got '${args[0]}' (use exec to run a command)`);
      return runShell(await connect(conn, values));
    case "mcp":
      if (args.length !== 0) throw new UsageError(`mcp takes no arguments, got '${args[0]}'`);
      return runMcp(conn, values);
    case "exec":
      if (args.length !== 1) throw new UsageError('exec takes one command, quoted: chromafs exec "ls -la /guides"');
      return runExec(args[0], await connect(conn, values));
  }
}

/** The connection options shared by every command, with their environment fallbacks. */
function connection(values) {
  const url = values.url ?? process.env.CHROMAFS_URL ?? "http://127.0.0.1:8000";
  let parsedUrl;
  try {
    parsedUrl = new URL(url);
  } catch {
    parsedUrl = null;
  }
  if (!parsedUrl || !/^https?:$/.test(parsedUrl.protocol)) {
    // Not echoed whole: a URL may carry a key in its query string.
    throw new UsageError(`--url must be an http(s) URL${parsedUrl ? `, got ${parsedUrl.protocol} one` : ""}`);
  }
  if (parsedUrl.search) throw new UsageError("--url must not have a query string (pass credentials with --token)");
  const collection = values.collection ?? process.env.CHROMAFS_COLLECTION;
  if (!collection) throw new UsageError("no collection: pass --collection NAME or set CHROMAFS_COLLECTION");
  const conn = { url, collection };
  if (values.tenant !== undefined) conn.tenant = values.tenant;
  if (values.database !== undefined) conn.database = values.database;
  const token = values.token ?? process.env.CHROMAFS_TOKEN;
  if (token) conn.token = token;
  return conn;
}

// ---------------------------------------------------------------------------------------
// ingest

async function runIngest(dir, conn, values) {
  let chunkBytes;
  if (values["chunk-bytes"] !== undefined) {
    chunkBytes = Number(values["chunk-bytes"]);
    if (!/^\d+$/.test(values["chunk-bytes"]) || !Number.isSafeInteger(chunkBytes) || chunkBytes === 0) {
      throw new UsageError(`--chunk-bytes must be a positive whole number, got '${values["chunk-bytes"]}'`);
    }
  }
  let access;
  if (values.access !== undefined) {
    // Passed as text: the Rust side parses it and names the offending rule on errors.
    access = await readFile(values.access, "utf8").catch((e) => {
      throw new CliError(`--access: ${e.message}`);
    });
  }

  const info = await stat(dir).catch((e) => {
    throw new CliError(e.code === "ENOENT" ? `${dir}: no such directory` : e.message);
  });
  if (!info.isDirectory()) throw new CliError(`${dir}: not a directory`);

  progress(`reading ${dir}…`);
  const files = [];
  const skipped = [];
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const found = await walk(dir, { hidden: Boolean(values.hidden), gitignore: !values["no-ignore"] });
  reportLeftOut(found.left);
  for (const file of found.files) {
    const [content, fileStat] = await Promise.all([readFile(file), stat(file)]);
    // Pages are text; images and other binaries beside them are left out, and said so.
    try {
      utf8.decode(content);
    } catch {
      skipped.push(relative(dir, file).split(sep).join("/"));
      continue;
    }
    files.push({
      path: relative(dir, file).split(sep).join("/"),
      // A Node Buffer is a Uint8Array over a possibly shared pool; hand over just its bytes.
      content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
      mtime: fileStat.mtimeMs,
    });
  }
  if (skipped.length) {
    const shown = skipped.slice(0, 5).join(", ") + (skipped.length > 5 ? ", …" : "");
    process.stderr.write(`chromafs: skipped ${plural(skipped.length, "file")} that ${skipped.length === 1 ? "is" : "are"} not UTF-8 text: ${shown}\n`);
  }
  progress(`writing ${plural(files.length, "file")} to ${conn.url}…`);

  const options = { ...conn, files };
  if (access !== undefined) options.access = access;
  if (chunkBytes !== undefined) options.chunkBytes = chunkBytes;
  if (values["plain-tree"]) options.plainTree = true;
  if (values["default-private"]) options.defaultAccess = "private";
  if (values.embed) options.embed = await builtInEmbedder();
  const s = await ingest(options);

  let line =
    `ingested ${plural(s.pages, "page")} (${s.publicPages} public, ${s.restrictedPages} restricted) ` +
    `as ${plural(s.chunks, "chunk")}, ${formatBytes(s.bytes)}, into collection ${s.collection}; ` +
    `removed ${plural(s.removedRecords, "stale record")}; tree ${formatBytes(s.treeBytes)}; ${plural(s.requests, "request")}` +
    (s.chunksWritten === s.chunks && s.treeWritten ? "" : `\nunchanged since the last run: ${s.chunks - s.chunksWritten} of ${plural(s.chunks, "chunk")}${s.treeWritten ? "" : " and the tree"} (not written, not embedded)`);
  for (const r of s.rules) line += `\naccess rule ${JSON.stringify(r.glob)}: ${plural(r.pages, "page")}`;
  if (!s.lineAligned) line += "\nnote: some lines exceed the chunk size, so chunks are not all line-aligned and grep cannot narrow its search with Chroma";
  process.stdout.write(line + "\n");
  return 0;
}

/**
 * The regular files under `root` to ingest, and what was left out and why. Never `.git` or
 * `node_modules`; dotfiles and dot-directories only with `hidden` (a `.env` beside the docs
 * must not become a public page); what `.gitignore` files ignore only without `gitignore`,
 * each file's rules applying below its own directory, deeper ones last, as git reads them.
 * Symbolic links are not followed.
 */
async function walk(root, { hidden, gitignore }) {
  const { default: ignore } = await import("ignore");
  const files = [];
  const left = { hidden: [], ignored: [], links: [] };
  const rel = (full) => relative(root, full).split(sep).join("/");
  async function visit(dir, rules) {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (gitignore && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      const text = await readFile(join(dir, ".gitignore"), "utf8");
      rules = [...rules, { base: dir, rules: ignore().add(text) }];
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      if (entry.isSymbolicLink()) {
        left.links.push(rel(full));
        continue;
      }
      if (!entry.isDirectory() && !entry.isFile()) continue;
      if (entry.name.startsWith(".") && !hidden) {
        left.hidden.push(rel(full) + (entry.isDirectory() ? "/" : ""));
        continue;
      }
      if (ignoredBy(rules, full, entry.isDirectory())) {
        left.ignored.push(rel(full) + (entry.isDirectory() ? "/" : ""));
        continue;
      }
      if (entry.isDirectory()) await visit(full, rules);
      else files.push(full);
    }
  }
  await visit(root, []);
  return { files, left };
}

/** Whether the `.gitignore` rules in force (outermost first) ignore `full`: the last that says wins. */
function ignoredBy(rules, full, isDir) {
  let ignored = false;
  for (const { base, rules: r } of rules) {
    const path = relative(base, full).split(sep).join("/") + (isDir ? "/" : "");
    const { ignored: yes, unignored: no } = r.test(path);
    if (yes) ignored = true;
    else if (no) ignored = false;
  }
  return ignored;
}

/** Says on stderr what the walk left out, a few names each. */
function reportLeftOut({ hidden, ignored, links }) {
  const names = (list) => list.slice(0, 5).join(", ") + (list.length > 5 ? ", …" : "");
  if (hidden.length) process.stderr.write(`chromafs: skipped ${plural(hidden.length, "hidden file or directory", "hidden files and directories")} (--hidden includes them): ${names(hidden)}\n`);
  if (ignored.length) process.stderr.write(`chromafs: skipped ${plural(ignored.length, "path", "paths")} that .gitignore ignores (--no-ignore includes them): ${names(ignored)}\n`);
  if (links.length) process.stderr.write(`chromafs: skipped ${plural(links.length, "symbolic link", "symbolic links")} (not followed): ${names(links)}\n`);
}

/** A status line for a person watching; nothing when stderr is redirected. */
function progress(message) {
  if (process.stderr.isTTY) process.stderr.write(`${message}\n`);
}

function plural(n, word, words = `${word}s`) {
  return `${n} ${n === 1 ? word : words}`;
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

// ---------------------------------------------------------------------------------------
// mcp

/** A positive whole number given for `--name`, or `undefined` when not given. */
function count(values, name) {
  const text = values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n === 0) throw new UsageError(`--${name} must be a positive whole number, got '${text}'`);
  return n;
}

/** The bearer tokens of `--tokens FILE`, after checking their shape and who may read the file. */
async function tokensFrom(file) {
  const { tokenAuthorizer } = await import("../mcp.mjs");
  const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]).catch((e) => {
    throw new CliError(`--tokens: ${e.message}`);
  });
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
    process.stderr.write(`chromafs: warning: ${file} can be read by other users (mode ${(info.mode & 0o777).toString(8)}): chmod 600 ${file}\n`);
  }
  let tokens;
  try {
    tokens = JSON.parse(text);
  } catch (e) {
    throw new CliError(`--tokens: ${file} is not JSON (${e.message})`);
  }
  try {
    return tokenAuthorizer(tokens);
  } catch (e) {
    throw new CliError(`--tokens: ${file}: ${e.message}`);
  }
}

async function runMcp(conn, values) {
  const { serveStdio, serveHttp } = await import("../mcp.mjs");
  const limits = Object.fromEntries(
    [
      ["callTimeoutMs", count(values, "call-timeout-ms")],
      ["maxRequests", count(values, "max-requests")],
      ["callsInFlight", count(values, "calls-in-flight")],
    ].filter(([, v]) => v !== undefined),
  );
  const options = { toolPrefix: values["tool-prefix"] ?? "", docs: values.docs ?? `the ${conn.collection} docs`, limits };
  const connectOptions = { ...conn };
  // A collection the built-in model embedded gets it for the search tool.
  const probe = await ChromaFs.connect(values.http === undefined ? { ...conn, groups: groupsOf(values) } : conn).catch(() => null);
  if (probe) reportBroken(probe);
  if (probe?.info().embedding?.model === "all-MiniLM-L6-v2") {
    const { createEmbedder } = await import("../embed.mjs");
    connectOptions.embed = await createEmbedder().catch((e) => {
      process.stderr.write(`chromafs mcp: search ranks by words only: ${e.message}\n`);
      return undefined;
    });
  }
  if (values.http === undefined) {
    if (values.tokens || values["require-token"] || values["allow-origin"]) {
      throw new UsageError("--tokens, --require-token and --allow-origin apply to --http");
    }
    // Serves until the client closes stdin.
    return new Promise((resolve, reject) => {
      serveStdio({ ...connectOptions, groups: groupsOf(values) }, { ...options, onClose: () => resolve(0) }).catch(reject);
    });
  }
  const port = Number(values.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http must be a port, got '${values.http}'`);
  if (values.groups) throw new UsageError("over --http the groups come from --tokens, not --groups");
  const authorize = values.tokens ? await tokensFrom(values.tokens) : () => null;
  const allowOrigins = (values["allow-origin"] ?? []).map((o) => {
    let url;
    try {
      url = new URL(o);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== o.replace(/\/$/, "")) {
      throw new UsageError(`--allow-origin must be an origin such as https://app.example.com, got '${o}'`);
    }
    return url.origin;
  });
  const server = await serveHttp(connectOptions, { port, host: values.host, authorize, requireToken: values["require-token"], allowOrigins, ...options });
  process.stderr.write(`chromafs MCP server: ${server.url}\n`);
  return new Promise(() => {});
}

// ---------------------------------------------------------------------------------------
// shell and exec

function groupsOf(values) {
  return (values.groups ?? []).flatMap((g) => g.split(",")).map((g) => g.trim()).filter(Boolean);
}

/** Tells the operator, once, which tree entries the session could see are unusable. */
function reportBroken(fs) {
  const broken = fs.info().brokenPages;
  if (!broken.length) return;
  const listed = broken.slice(0, 5).map((p) => `\n  ${p}`).join("") + (broken.length > 5 ? `\n  … and ${broken.length - 5} more` : "");
  process.stderr.write(`chromafs: ${plural(broken.length, "entry", "entries")} of the path tree cannot be shown or read:${listed}\n`);
}

/** The built-in model, loaded (chromafs/embed), or a CLI error saying how to install it. */
async function builtInEmbedder() {
  progress("loading the all-MiniLM-L6-v2 model…");
  const { createEmbedder } = await import("../embed.mjs");
  return createEmbedder().catch((e) => {
    throw new CliError(e.message);
  });
}

async function connect(conn, values) {
  const groups = groupsOf(values);
  const scratch = values.scratch === "none" ? undefined : (values.scratch ?? "/tmp");
  let fs = await ChromaFs.connect({ ...conn, groups, scratch });
  // A collection the built-in model embedded gets it for `search` (the tree is in memory:
  // connecting again costs one small request).
  if (fs.info().embedding?.model === "all-MiniLM-L6-v2") {
    const { createEmbedder } = await import("../embed.mjs");
    const embed = await createEmbedder().catch((e) => {
      process.stderr.write(`chromafs: search ranks by words only: ${e.message}\n`);
      return undefined;
    });
    if (embed) fs = await ChromaFs.connect({ ...conn, groups, scratch, embed });
  }
  reportBroken(fs);
  const cwd = fs.resolvePath("/", values.cwd ?? "/");
  // Reported here rather than as an `ls: .: No such file or directory` on every command.
  const where = await fs.stat(cwd).catch(() => null);
  if (!where) throw new CliError(`--cwd ${values.cwd}: no such directory in collection ${conn.collection}`);
  if (!where.isDirectory) throw new CliError(`--cwd ${values.cwd}: not a directory`);
  return { fs, groups, cwd, collection: conn.collection, bash: new Bash({ fs, cwd, customCommands: fs.commands() }) };
}

/**
 * One bash session across many `exec` calls. just-bash starts every `exec` afresh from the
 * Bash's own cwd and environment, so the directory and the variables a line leaves behind
 * are carried into the next one, as in a real shell.
 */
class Session {
  constructor({ fs, bash, cwd }) {
    this.fs = fs;
    this.bash = bash;
    this.cwd = cwd;
    this.env = undefined;
  }

  async run(line, signal) {
    const options = { cwd: this.cwd, signal };
    if (this.env) Object.assign(options, { env: this.env, replaceEnv: true });
    const result = await safeExec(this.bash, line, options);
    // A failed top-level redirection comes back without an environment: nothing changed.
    if (result.env?.PWD) {
      // Normalised: just-bash's `cd ../x` from a top-level directory leaves PWD as `//x`.
      this.cwd = this.fs.resolvePath("/", result.env.PWD);
      // `$?` is the interpreter's own; everything else is the shell's state.
      const { "?": _status, ...env } = result.env;
      this.env = { ...env, PWD: this.cwd };
    }
    if (signal?.aborted) {
      // Interrupted with Ctrl-C: the prompt already shows ^C, and bash reports 128 + SIGINT.
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr.replace(/^bash: execution aborted\n/m, ""));
      return 130;
    }
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    return result.exitCode;
  }
}

async function runExec(command, target) {
  return new Session(target).run(command);
}

/** Replaces the history entries of a command typed over several lines with the whole command. */
function rememberAsOne(rl, lines, command) {
  if (!Array.isArray(rl.history)) return;
  // readline keeps history newest first and leaves blank lines out of it.
  const count = lines.filter((l) => l.trim() !== "").length;
  rl.history.splice(0, Math.min(count, rl.history.length), command);
  for (let i = rl.history.length - 1; i > 0; i--) if (rl.history[i] === command) rl.history.splice(i, 1);
}

// `exit` or `exit N` on a line of its own ends the shell (N defaults to the last exit code).
const EXIT_LINE = /^\s*exit(?:\s+(\d+))?\s*;?\s*$/;

async function runShell(target) {
  const session = new Session(target);
  const interactive = Boolean(process.stdin.isTTY);
  // Prompts and line editing go to stderr, as bash's do, so stdout carries only output.
  const rl = createInterface({
    input: process.stdin,
    output: interactive ? process.stderr : undefined,
    terminal: interactive,
    historySize: 1000,
    removeHistoryDuplicates: true,
  });

  // Ctrl-D can close the interface while a command runs; prompting after that would
  // resume stdin and keep the process alive with nothing reading it.
  let closed = false;
  rl.on("close", () => {
    closed = true;
  });
  const prompt = (text = `chromafs:${session.cwd}$ `) => {
    if (closed) return;
    rl.setPrompt(text);
    rl.prompt();
  };

  let status = 0;
  let pending = ""; // a line continued with a trailing backslash
  let typed = []; // the lines `pending` was made of, as typed
  let running = null; // AbortController of the command in progress, if any
  if (interactive) {
    const { files } = target.fs.stats();
    const groups = target.groups.length ? target.groups.join(",") : "none (public pages only)";
    process.stderr.write(
      `chromafs: collection ${target.collection}, ${plural(files, "file")} visible, groups: ${groups}; exit or Ctrl-D to quit\n`,
    );
    // Ctrl-C stops the running command, or discards the line being typed, as bash does.
    rl.on("SIGINT", () => {
      process.stderr.write("^C\n");
      if (running) {
        running.abort();
        return;
      }
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      pending = "";
      typed = [];
      prompt();
    });
    prompt();
  }

  for await (const raw of rl) {
    const line = pending + raw;
    if (/(^|[^\\])(\\\\)*\\$/.test(line)) {
      pending = line.slice(0, -1);
      typed.push(raw);
      if (interactive) prompt("> ");
      continue;
    }
    if (typed.length > 0 && interactive) rememberAsOne(rl, [...typed, raw], line);
    pending = "";
    typed = [];
    const exit = EXIT_LINE.exec(line);
    if (exit) {
      if (exit[1] !== undefined) status = Number(exit[1]) & 255;
      break;
    }
    // Blank lines and comments leave the last exit code alone, as in bash.
    if (line.trim() !== "" && !line.trimStart().startsWith("#")) {
      running = new AbortController();
      try {
        status = await session.run(line, running.signal);
      } finally {
        running = null;
      }
    }
    if (interactive) prompt();
  }
  // Ctrl-D leaves the cursor after the prompt.
  if (interactive && closed) process.stderr.write("\n");
  rl.close();
  return status;
}

// ---------------------------------------------------------------------------------------

// After an abort, just-bash can leave a command's own promise to reject later with
// ExecutionAbortedError (its exec() has already settled); that is not a failure here.
process.on("unhandledRejection", (reason) => {
  if (reason?.name === "ExecutionAbortedError") return;
  throw reason;
});

// A reader that goes away (`chromafs exec "cat /big.md" | head`) ends the tool quietly.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof UsageError) {
      process.stderr.write(`chromafs: ${error.message}\nTry 'chromafs --help'.\n`);
      process.exitCode = 2;
    } else if (error instanceof CliError || typeof error?.code === "string") {
      // Expected failures: filesystem and Chroma errors carry a code and a full message.
      process.stderr.write(`chromafs: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`chromafs: unexpected error: ${error?.stack ?? error}\n`);
      process.exitCode = 1;
    }
  },
);
