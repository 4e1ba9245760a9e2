// The docs' two MCP tools: what each is (name, description, input and output schemas) and
// what one call of it does on a session. Both halves are plain functions of their inputs, so
// the same call runs in the server's own thread (edge runtimes) or in a worker thread of a
// Node server, and gives the same outcome either way:
//   { result: { stdout, stderr, exitCode }, isError, structured?, failed }
// `failed` says a read failed somewhere in the call (Chroma down, a budget spent): the call
// is then a tool error, whatever the command printed.
import { Bash } from "just-bash";
import { z } from "zod";
import { safeExec, toolDescription } from "../dist/api.mjs";
import { bounded, MAX_OUTPUT } from "./limits.mjs";
import { withSession } from "./sessions.mjs";
import { resultsText, searchResults, withPageUrls } from "./sources.mjs";
import { RESOURCE_OPS } from "./resources.mjs";
import { LLMS_OPS } from "./llms.mjs";

/** What every tool is: it reads the docs, changes nothing, and reaches nothing else. */
const TOOL_ANNOTATIONS = Object.freeze({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });

/** One page the `search` tool found (a schema of its own each time: a shared one would be a `$ref` in the JSON Schema). */
const searchHit = () =>
  z.object({
    path: z.string().describe("the page, e.g. /guides/install.mdx"),
    title: z.string().nullable().describe("what the page says it is: its front matter's title, else its first heading; null when it states neither or the search did not read the page's start"),
    startLine: z.number().int().nullable().describe("first line of the best-matching part"),
    endLine: z.number().int().nullable().describe("last line of the best-matching part"),
    score: z.number().describe("relevance, higher is better"),
    snippet: z.string().nullable().describe("the part's most telling line"),
    url: z.string().nullable().describe("the page's public address, when the server knows the site's base URL"),
    version: z.string().optional().describe("the version of the docs the page belongs to, when it belongs to one"),
  });

/** The `search` tool's structured result: the pages found, best first. */
const SEARCH_OUTPUT = {
  results: z.array(searchHit()).describe("the pages found, best first; empty when no page answers the query"),
  otherVersions: z
    .array(searchHit())
    .optional()
    .describe("when a search of one version found no page: the best pages of other versions that answer the query (at most 3)"),
};

/**
 * The pages a `search` call returns when it does not say: the search command's own default
 * (the call passes no `-n` then), named in the tool's description, which cannot ask the
 * wasm module (tests/js/serve/mcp-tools.test.mjs holds the two equal).
 */
const DEFAULT_K = 10;

const definitions = new Map();

/**
 * The tools' names and MCP definitions, in the order they are listed. A server answers each
 * HTTP request with a server of its own, so the definitions (schemas and all) are made once
 * per set of options and shared.
 */
export function toolDefinitions(options) {
  const key = JSON.stringify([options.toolPrefix ?? "", options.docs, options.limits.callTimeoutMs, options.limits.maxCommandChars, options.limits.maxQueryChars, options.hasBase, options.scratch ?? null, options.keptMinutes ?? null, options.versions ?? null]);
  let made = definitions.get(key);
  if (!made) {
    if (definitions.size >= 64) definitions.clear();
    made = define(options);
    definitions.set(key, made);
  }
  return made;
}

/**
 * The search tool's `version` argument: one of the versions when the server knows every
 * version its callers may choose (`exact`), else any name, the known ones given as examples.
 */
function versionArgument(versions, about = "search only this version of the docs and the pages of no version; each result names its version") {
  // A search that sees other versions names their pages when none of the version's answers.
  if (!versions?.scoped && about.startsWith("search")) about += ", and when none of them answers, the pages of other versions that do are named (otherVersions)";
  if (!versions?.names?.length || versions.scoped) {
    return z.string().max(64).optional().describe(`${about}; a version that does not exist is an error naming those that do`);
  }
  const known = `the versions: ${versions.names.join(", ")} (the newest: ${versions.default})`;
  if (versions.exact) return z.enum(versions.names).optional().describe(`${about}; ${known}`);
  return z.string().max(64).optional().describe(`${about}; ${known}, and others a caller may see; one that does not exist is an error naming those that do`);
}

function define({ toolPrefix = "", docs, limits, hasBase, scratch = null, keptMinutes = null, versions = null }) {
  return [
    [
      "bash",
      `${toolPrefix}bash`,
      {
        title: `Read-only shell over ${docs}`,
        description:
          toolDescription({ docs, scratch: scratch ?? undefined, keptMinutes: keptMinutes ?? undefined }) +
          `\n\nEach call is one command line${keptMinutes ? "" : ", run on its own: nothing carries over to the next call"}. ` +
          `Output is cut at ${MAX_OUTPUT.toLocaleString("en")} characters, and a call stops after ${limits.callTimeoutMs / 1000} s. ` +
          "Use the search tool first when you do not know the exact words.",
        inputSchema: {
          command: z.string().min(1).max(limits.maxCommandChars).describe("one bash command line, e.g. grep -rn 'api_key' / | head -20"),
          ...(versions?.names?.length && !versions.scoped ? { version: versionArgument(versions, "run the command over only this version of the docs and the pages of no version") } : {}),
        },
        annotations: TOOL_ANNOTATIONS,
      },
    ],
    [
      "search",
      `${toolPrefix}search`,
      {
        title: `Search ${docs}`,
        description:
          `Ranked search over ${docs}: the pages that best answer a question, best first, each as PATH:START-END ` +
          `with its most telling line${hasBase ? " and the page's public URL (cite it)" : ""}. ` +
          "Read a hit with the bash tool (sed -n 'START,ENDp' PATH), then grep for exact strings. " +
          "Use it when you do not know the exact words; use grep in the bash tool for every occurrence of a known string.",
        inputSchema: {
          query: z.string().min(1).max(limits.maxQueryChars).describe("a question or keywords, e.g. how do I rotate an API key"),
          k: z.number().int().min(1).max(50).optional().describe(`pages to return (default ${DEFAULT_K})`),
          path: z.string().max(4096).optional().describe("search only under this directory, e.g. /api"),
          lang: z
            .string()
            .max(16)
            .optional()
            .describe("search only pages in this language (a code: en, fr, ja, zh-cn); without it, a question's own language ranks first"),
          version: versionArgument(versions),
        },
        outputSchema: SEARCH_OUTPUT,
        annotations: TOOL_ANNOTATIONS,
      },
    ],
  ];
}

/**
 * just-bash's commands an agent reading docs has no use for, that allocate outside the
 * JavaScript heap (a worker's `memoryMiB` bounds the heap alone): `sqlite3` runs SQLite in a
 * WebAssembly memory of its own, which one query grows by hundreds of MiB. Each answers
 * that it is not there, as a missing command does (exit 127).
 */
const OUTSIDE_THE_HEAP = ["sqlite3"].map((name) => ({
  name,
  async execute() {
    return { stdout: "", stderr: `bash: ${name}: not available on this server (what it allocates is not bounded)\n`, exitCode: 127 };
  },
}));

/**
 * just-bash's defense in depth in a thread that runs nothing but calls (a worker of the
 * pool): the intrinsics it guards are frozen once for the thread's life, where a shared
 * thread gets reversible guards put up and taken down around every line. Both block the
 * same globals while a line runs; the frozen ones also hold against a reference taken
 * before, and cost a line about a third less of the shell's time.
 */
const OWN_THREAD_DEFENSE = Object.freeze({ enabled: true, processLifetimeIntrinsicHardening: true });

/**
 * In such a thread the guards also stay up between lines. just-bash puts them up as a line
 * starts while none runs, and takes them down as the last running line ends: with one call
 * at a time, around every line (a fifth of a light line's shell time). Held for the
 * thread's life, they block the same things while a line runs (what a line may reach is
 * decided by the async context it runs in, not by whether the guards are up), and block
 * nothing of the thread's own code, which runs outside any line. `Box` is just-bash's
 * `DefenseInDepthBox`, which only its Node build has: the thread that holds it passes it.
 */
export function holdDefense(Box) {
  Box.getInstance(OWN_THREAD_DEFENSE).activate();
}

/** Where a call starts: the directory its caller's last call ended in, while it is one. */
async function startDir(fs, cwd) {
  if (typeof cwd !== "string" || !cwd.startsWith("/") || cwd === "/") return "/";
  const st = await fs.stat(cwd).catch(() => null);
  return st?.isDirectory ? cwd : "/";
}

/**
 * `bash`: one command line in a fresh shell over the session, in the caller's `shell` (the
 * directory it was in and its scratch directory's content, see shells.mjs; null: `/` and
 * an empty one). The outcome's `shell` is the state the line leaves.
 */
async function bash(fs, { command }, { limits, base, signal, shell, ownThread }) {
  const left = new Set(OUTSIDE_THE_HEAP.map((c) => c.name));
  const customCommands = [...withPageUrls(fs.commands(), base).filter((c) => !left.has(c.name)), ...OUTSIDE_THE_HEAP];
  // The session serves other callers' calls too: its scratch directory holds this caller's
  // files (or none) while the line runs, and nobody's after.
  const scratch = typeof fs.saveScratch === "function" && fs.saveScratch() !== undefined;
  if (scratch) restore(fs, shell?.scratch ?? null);
  else fs.restoreScratch?.(null);
  try {
    const cwd = await startDir(fs, shell?.cwd);
    const defense = ownThread ? { defenseInDepth: OWN_THREAD_DEFENSE } : {};
    const sh = new Bash({ fs, cwd, customCommands, executionLimitProfile: "hardened", executionLimits: limits.executionLimits, ...defense });
    const result = await safeExec(sh, command, { signal });
    const after = { cwd: typeof result.env?.PWD === "string" ? result.env.PWD : cwd, scratch: scratch ? fs.saveScratch() : undefined };
    return { result, isError: false, shell: after };
  } finally {
    fs.restoreScratch?.(null);
  }
}

/** Puts a caller's files in the scratch directory; a state that does not read back (another version's) leaves it empty. */
function restore(fs, saved) {
  try {
    fs.restoreScratch(saved);
  } catch {
    fs.restoreScratch(null);
  }
}

/** `search`: the ranked search, as text and as structured results with each page's address. */
async function search(fs, { query, k, path, lang, version }, { base }) {
  // Without `k`, the command's own default.
  const options = [...(k ? ["-n", String(k)] : []), ...(path ? ["--path", path] : []), ...(lang ? ["--lang", lang] : []), ...(version ? ["--version", version] : [])];
  const ran = await fs.searchCommand([...options, "--", query], "/");
  const { blocks: _, hits = [], otherVersions, ...printed } = ran;
  if (ran.exitCode === 2) return { result: printed, isError: true };
  const results = searchResults(hits, base);
  if (otherVersions?.length && !results.length) {
    // A question only other versions answer: said plainly, with where to read them.
    const others = searchResults(otherVersions, base);
    const stdout = `No page of version ${version} answers this query. Pages of other versions do:\n${resultsText(others)}`;
    return { result: { ...printed, stdout, stderr: "" }, isError: false, structured: { results, otherVersions: others } };
  }
  return { result: { ...printed, stdout: resultsText(results) }, isError: false, structured: { results } };
}

/** The versions of the docs a session sees (`fs.versions()`), for the tools a caller is offered. */
const versions = async (fs) => ({ structured: fs.versions?.() ?? null });

/**
 * What a call may run: the two tools, the pages' resource operations (resources.mjs), the
 * llms.txt files (llms.mjs), and the versions a caller's session sees (sessions.mjs's
 * callerVersions).
 */
const TOOLS = { bash, search, versions, ...RESOURCE_OPS, ...LLMS_OPS };

/**
 * One call of `tool` with `args` on a session of `source` (see withSession), held to
 * `limits` and its caller's `deadline` (the call's own clock, on `Date.now()`'s; without
 * one, `limits.callTimeoutMs` from now), stopped by `signal`, in the caller's `shell` (see
 * bash); `base` is the site's base URL or a mounts' rule; `ownThread`: this thread runs
 * nothing but calls (a worker's), so its shells may harden it for good. The outcome's
 * streams are cut to what a tool result can show; its `shell`, when the call ran in a
 * shell, is the state to keep for the caller.
 */
export async function runTool(source, tool, args, { limits, base = null, signal, shell = null, deadline, ownThread = false }) {
  const run = Object.hasOwn(TOOLS, tool) ? TOOLS[tool] : null;
  if (!run) throw new TypeError(`no tool named ${JSON.stringify(tool)}`);
  // bash's `version` (and the llms.txt files'): the call runs on a session of that version of the docs.
  const scoped = tool === "bash" || Object.hasOwn(LLMS_OPS, tool);
  const version = scoped && typeof args?.version === "string" ? args.version : undefined;
  const { value, failed } = await withSession(source, limits, signal, (fs, stop) => run(fs, args, { limits, base, signal: stop, shell, ownThread }), version, deadline);
  return { ...value, ...(value.result ? { result: bounded(value.result) } : {}), failed };
}
