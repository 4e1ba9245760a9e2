// The just-bash custom commands of a ChromaFs (`fs.commands()`): searches planned against
// Chroma before they run, listings answered from the tree in Rust, and every file-reading
// built-in wrapped so it runs as one budgeted command and reports the reads that failed.

import { bracketed } from "./bracket.js";
import { withFailures } from "./failures.js";
import { LINES_TAKEN } from "./pipeline.js";
import { SEARCH_COMMANDS, FILE_COMMANDS, TOOL_COMMANDS, LISTING_COMMANDS, RANKED } from "./names.js";
import { STDERR_MERGED, STDOUT_FILE } from "./redirects.js";
import { envValue, stdinText } from "./context.js";
import { runTool, utf8ByteString } from "./tools.js";
import { mayNeedPerl } from "./perl.js";

/**
 * One custom command over just-bash's own. Searches (grep, egrep, fgrep, rg) first ask
 * Chroma which pages can match and load those in bulk, then print in Rust what just-bash's
 * command would print, or run that command over them when the flags are outside what the
 * Rust side models; either way the output is exactly just-bash's. Every command runs inside a command budget
 * (`maxRequestsPerCommand`, `commandTimeoutMs`, the host's AbortSignal) and reports the
 * reads that failed while it ran: just-bash's commands would show them as "No such file
 * or directory", skip them, or count them as no match. `readsOnly(ctx)` says whether the
 * command's filesystem is `fs` itself rather than a host's filesystem around it: only then
 * may it be answered from `fs`'s listing alone.
 */
function command(fs, name, readsOnly, loadTools, loadPerl) {
  const search = SEARCH_COMMANDS.includes(name);
  const tool = TOOL_COMMANDS.includes(name);
  return {
    name,
    async execute(args, ctx) {
      if (name === RANKED) return searchCommand(fs, args, ctx);
      if (tool) return toolCommand(fs, loadTools, name, args, ctx);
      if (typeof ctx.origCommand !== "function") {
        return search
          ? { stdout: "", stderr: `${name}: chromafs needs just-bash 3.4 or later\n`, exitCode: 2 }
          : { stdout: "", stderr: `bash: ${name}: command not found\n`, exitCode: 127 };
      }
      const env = (key) => envValue(ctx, key);
      const inOrder = (answered) => (env(STDERR_MERGED) ? interleaved(name, answered) : answered);
      const ran = await bracketed(fs, ctx.signal, async () => {
        if (LISTING_COMMANDS.includes(name)) {
          const answered = await fs.runCommand(name, args, ctx.cwd, readsOnly(ctx), stdinText(ctx.stdin));
          return answered ? inOrder(answered) : ctx.origCommand(args);
        }
        if (!search) return ctx.origCommand(args);
        if (loadPerl && mayNeedPerl(name, args)) await loadPerl();
        const stdinEmpty = !ctx.stdin || ctx.stdin.length === 0;
        let planned;
        try {
          const input = stdinText(ctx.stdin);
          const out = env(STDOUT_FILE);
          const stdoutFile = out ? fs.resolvePath(ctx.cwd, out) : undefined;
          planned = await fs.planSearch(name, args, ctx.cwd, stdinEmpty, readsOnly(ctx), linesTaken(env), input, stdoutFile);
        } catch (refused) {
          // Not to be run at all (a pattern too long to search): say why, as grep would.
          return { stdout: "", stderr: `${name}: ${refused.message}\n`, exitCode: 2 };
        }
        // null: the pages cannot be loaded; the failure is in the report. An object: the
        // search was answered in Rust, with just-bash's output.
        if (planned === null) return { stdout: "", stderr: "", exitCode: 2 };
        return Array.isArray(planned) ? ctx.origCommand(planned) : inOrder(planned);
      });
      return withFailures(name, ran.result, ran.report, (p) => fs.resolvePath(ctx.cwd, p), search ? 2 : 1);
    },
  };
}

/** The lines `head` takes of a search's output, when the shell said (see pipeline.js). */
function linesTaken(env) {
  const taken = env(LINES_TAKEN);
  return taken && /^[0-9]{1,9}$/.test(taken) ? Number(taken) : undefined;
}

/**
 * A command of the tools module (`loadTools` loads it) as one budgeted command of `fs`
 * (a ChromaFs, or mounts) whose failed reads are reported; its two streams in the order
 * GNU's tool writes them when they go to one place (see `interleaved`).
 */
async function toolCommand(fs, loadTools, name, args, ctx) {
  const tools = await loadTools();
  const ran = await bracketed(fs, ctx.signal, () => runTool(tools, name, args, ctx));
  const result = envValue(ctx, STDERR_MERGED) ? interleaved(name, ran.result) : ran.result;
  return withFailures(name, result, ran.report, (p) => fs.resolvePath(ctx.cwd, p), 1);
}

/**
 * The `search` command of `fs` (a ChromaFs, or mounts) as one budgeted command whose failed
 * reads are reported.
 */
async function searchCommand(fs, args, ctx) {
  const ran = await bracketed(fs, ctx.signal, () => fs.searchCommand(args, ctx.cwd));
  // The hits (as printed, and as objects) are for hosts that merge searches and for the MCP
  // search tool; the shell takes the output.
  const { blocks: _, hits: __, ...result } = ran.result;
  return withFailures(RANKED, result, ran.report, (p) => fs.resolvePath(ctx.cwd, p), 2);
}

/** The block in which GNU tools write standard output to a pipe or a file. */
const STDOUT_BLOCK = 4096;

/**
 * A command's output with its standard error sent where its standard output goes (`2>&1`),
 * in the order the real tool's writes reach the file. GNU grep, find and du, and the GNU
 * tools but sed and tac, flush their output before each error, so the errors come where
 * the command wrote them (`stderrAt` says where, in bytes); ls reports every operand it
 * cannot read before it lists anything; rg, sed and tac write their errors at once and
 * their output a block at a time, so they come first while the output fits in one block
 * (a longer one keeps them after it, where a block boundary may not).
 */
function interleaved(name, { stderrAt, ...result }) {
  if (!result.stderr) return result;
  if (result.stdoutKind === "bytes") {
    // Bytes out (the tools'): a byte string, as the merged stream is.
    const err = utf8ByteString(result.stderr);
    if (stderrAt?.length) return { ...result, stdout: merged(result.stdout, err, stderrAt, (parts) => parts.join("")), stderr: "" };
    if (result.stdout.length > STDOUT_BLOCK) return result;
    return { ...result, stdout: err + result.stdout, stderr: "" };
  }
  if (result.stdoutKind) return result;
  if (stderrAt?.length) {
    const [out, err] = [new TextEncoder().encode(result.stdout), new TextEncoder().encode(result.stderr)];
    const joined = (parts) => {
      const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
      return new TextDecoder().decode(bytes);
    };
    return { ...result, stdout: merged(out, err, stderrAt, joined), stderr: "" };
  }
  const first = name === "ls" || new TextEncoder().encode(result.stdout).length <= STDOUT_BLOCK;
  return first ? { ...result, stdout: result.stderr + result.stdout, stderr: "" } : result;
}


/**
 * `out` and `err` (byte strings or byte arrays) as one stream, each `[stdout, stderr]`
 * position of `at` (byte offsets) where the part of `err` up to it comes; what follows the
 * last comes after the rest of `out`. `join` makes the parts one.
 */
function merged(out, err, at, join) {
  const parts = [];
  let [o, e] = [0, 0];
  for (const [atOut, atErr] of at) {
    parts.push(out.slice(o, atOut), err.slice(e, atErr));
    [o, e] = [atOut, atErr];
  }
  parts.push(out.slice(o), err.slice(e));
  return join(parts);
}

/** Every command name a ChromaFs answers or wraps, once each, searches first. */
const COMMAND_NAMES = [...new Set([...SEARCH_COMMANDS, RANKED, ...FILE_COMMANDS, ...TOOL_COMMANDS])];

/**
 * All of `fs`'s custom commands; `readsOnly` as `command` takes it; `loadTools` returns
 * the tools module (or a promise of it); `loadPerl` hands grep -P's engine to the core
 * (see perl.js).
 */
function commandsOf(fs, readsOnly, loadTools, loadPerl) {
  return COMMAND_NAMES.map((name) => command(fs, name, readsOnly, loadTools, loadPerl));
}

export { commandsOf, searchCommand, toolCommand, COMMAND_NAMES };
