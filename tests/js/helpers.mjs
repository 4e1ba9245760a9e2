// Shared by the Node test files: the server under test, a Chroma shaped like Chroma Cloud,
// shells and output comparison; corpus loading, the reference shell and free ports come
// from support/, which the benchmarks use too.
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Bash } from "just-bash";
import { safeExec } from "chromafs";

export { ROOT, CORPUS, corpusPresent, readDocs } from "../../support/files.mjs";
import { CORPUS, ROOT, corpusPresent, readDocs } from "../../support/files.mjs";
import { generatedCorpus } from "../../support/generated-corpus.mjs";

/**
 * The documentation sets the corpus-based batteries run on: the one the repository
 * generates, always, and the real corpus beside the project when it is there (the larger
 * run). Each: `{ name, skip, load() }`. Without the real corpus, its run is one test
 * registered as skipped (`test` is node:test's), so the summary says what is missing.
 */
export function corpora(test, what) {
  const present = corpusPresent();
  if (!present) test(`${what} on ../shared/corpus/mintlify-docs`, { skip: "needs ../shared/corpus/mintlify-docs (the larger run)" }, () => {});
  return [
    { name: "generated", skip: false, load: async () => generatedCorpus() },
    ...(present ? [{ name: "mintlify", skip: false, load: () => readDocs(CORPUS) }] : []),
  ];
}
/** Directories `tempDir` made, removed as the test file's process exits. */
const madeDirs = new Set();
process.once("exit", () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

/** A new directory under the system's temporary one, `chromafs-LABEL-…`, removed when the test file's process exits. */
export function tempDir(label) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `chromafs-${label}-`));
  madeDirs.add(dir);
  return dir;
}

export { referenceFs } from "../../support/reference.mjs";
import { referenceFs } from "../../support/reference.mjs";
import { gnuReference, gnuToolsMissing, withoutTimes } from "../../support/gnu-reference.mjs";
export { gnuToolsMissing } from "../../support/gnu-reference.mjs";
export { freePort } from "../../support/ports.mjs";

/**
 * A Chroma that behaves like Chroma Cloud: the local server behind a proxy that refuses
 * what Cloud's quotas refuse. Each suite that uses it ends with a test that no request
 * broke a quota (`assertWithinQuotas`).
 */
export async function cloudChroma() {
  const { startCloudProxy } = await import("../../support/proxy.mjs");
  return startCloudProxy(chromaUrl());
}

/** Every request a Cloud-shaped proxy saw stayed within Chroma Cloud's quotas. */
export function assertWithinQuotas(cloud) {
  const shown = cloud.violations.slice(0, 3).map((v) => `${v.path}: ${v.message}\n  ${v.body?.slice?.(0, 300) ?? ""}`);
  if (cloud.violations.length) throw new Error(`${cloud.violations.length} requests broke Chroma Cloud's quotas:\n${shown.join("\n")}`);
}

/** The local Chroma the test script started. */
/**
 * A Node of version 22 or later, for the MCP tools that need one (the conformance suite, the
 * Inspector): this one, CHROMAFS_NODE22, or the one scripts/setup.sh installs into
 * .tools/node22; null when there is none.
 */
export function node22() {
  const candidates = [process.execPath, process.env.CHROMAFS_NODE22, path.join(ROOT, ".tools/node22/node_modules/.bin/node")].filter(Boolean);
  for (const bin of candidates) {
    if (!existsSync(bin)) continue;
    const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
    if (Number(/^v(\d+)/.exec(version)?.[1]) >= 22) return bin;
  }
  return null;
}

/** Why a test needs node22() and there is none. */
export const NO_NODE22 = "this needs Node 22 or later: run scripts/setup.sh (it installs one into .tools/node22) or set CHROMAFS_NODE22";

export function chromaUrl() {
  const url = process.env.CHROMAFS_TEST_URL;
  if (!url) throw new Error("CHROMAFS_TEST_URL is not set: run the tests with `npm test`");
  return url;
}

/**
 * Runs the chromafs CLI with `args` in a child process, without blocking this one (a
 * server or proxy of the test may live in it): `{ status, stdout, stderr }`.
 */
export function chromafsCli(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), ...args], (error, stdout, stderr) =>
      resolve({ status: error ? error.code : 0, stdout, stderr }),
    );
  });
}

/** Writes `pages` (path → text) as files under `dir`, which is emptied first. */
export async function writeTree(dir, pages) {
  await rm(dir, { recursive: true, force: true });
  for (const [p, text] of Object.entries(pages)) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await writeFile(path.join(dir, p), text);
  }
}

/** Runs a command line; never rejects (see safeExec). */
export function run(bash, command, options) {
  return safeExec(bash, command, options);
}

export function newBash(fs, extra = {}) {
  return new Bash({ fs, cwd: "/", ...extra });
}

/** A short, readable diff hint for assertion messages. */
export function show(r) {
  return JSON.stringify({ stdout: r.stdout.slice(0, 600), stderr: r.stderr.slice(0, 600), exitCode: r.exitCode });
}

/** A small seeded generator, so a failing generated case can be reproduced. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** The commands chromafs may answer itself, whose reference is the real tool. */
const ANSWERED = /^(grep|egrep|fgrep|rg|ls|find|tree|du) /;

/** The tools module's commands (pkg/src/names.js's `TOOL_COMMANDS`, as its source spells them). */
export const TOOL_COMMANDS = JSON.parse(
  /const TOOL_COMMANDS = (\[[^\]]*\]);/.exec(readFileSync(path.join(ROOT, "pkg/src/names.js"), "utf8"))[1].replace(/,\s*\]$/, "]"),
);
/** A line that runs one of them: its reference is the real tools for the whole line. */
const TOOLED = new RegExp(`(^|[|;&(]\\s*|\\$\\(\\s*)(${TOOL_COMMANDS.join("|")})(\\s|$)`);

/**
 * What command lines over `files` are compared with: `bash`, just-bash over an in-memory
 * copy, and `gnu`, the real GNU tools and ripgrep over a copy on tmpfs (see
 * support/gnu-reference.mjs; null where they cannot run, and `gnuMissing` says why). A
 * line in which chromafs answered grep, egrep, fgrep, rg, ls, find, tree or du itself, or
 * that runs a command of the tools module (sort, sed, awk…), is compared with the real
 * tools; any other line — other commands, and those handed to just-bash (listed in
 * docs/concepts/native-commands.md) — with just-bash. `remove()`
 * takes the copy away.
 */
export async function reference(files, { dirs = [] } = {}) {
  const gnuMissing = gnuToolsMissing();
  const gnu = gnuMissing ? null : gnuReference(files, dirs);
  // A pipeline's first stage is asked of the real tools on its own too (see expectedOf).
  if (gnu) {
    const all = gnu.prepare.bind(gnu);
    gnu.prepare = (lines) => all([...lines, ...lines.map((l) => pipeline(l)[0])]);
  }
  const mem = await referenceFs(files);
  for (const d of dirs) await mem.mkdir(`/${d}`);
  return { bash: newBash(mem), gnu, gnuMissing, remove: () => gnu?.remove() };
}

/** The commands `fs` (a ChromaFs or mounts) has recorded, oldest first, by mount. */
function commandsOf(fs) {
  const s = fs.stats();
  return s.mounts ? Object.values(s.mounts).map((m) => m.commands) : [s.commands];
}

/** The commands recorded in `after` that `before` does not hold (the list keeps the last 32). */
function newCommands(before, after) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  if (before.length < 32) return after.slice(before.length);
  for (let k = 0; k <= before.length; k++) if (same(before.slice(k), after.slice(0, before.length - k))) return after.slice(before.length - k);
  return after;
}

/**
 * A line's pipeline stages, split at `|` outside quotes (not `||`): several only when the
 * first is one of the answered commands and none after it is.
 */
function pipeline(cmd) {
  const stages = [];
  let [quote, start] = [null, 0];
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i++;
    else if (c === "|" && cmd[i + 1] !== "|" && cmd[i - 1] !== "|") {
      stages.push(cmd.slice(start, i));
      start = i + 1;
    }
  }
  stages.push(cmd.slice(start));
  const answered = (stage) => ANSWERED.test(`${stage.trim().replace(/^cd [^&;|]*&&\s*/, "")} `);
  return stages.length > 1 && answered(stages[0]) && !stages.slice(1).some(answered) && !/[;&]/.test(stages.slice(1).join("|"))
    ? [stages[0], stages.slice(1).join("|")]
    : [cmd];
}

/**
 * What the reference prints for a line chromafs answered a command of: the real tools'
 * output; for a pipeline whose first stage is the answered command, that stage's output
 * from the real tools fed to the rest of the line in just-bash (the reference for every
 * other command).
 */
async function expectedOf(ref, cmd) {
  const [first, rest] = pipeline(cmd);
  if (!rest) return ref.gnu.expect(cmd);
  const head = ref.gnu.expect(first);
  const tail = await run(ref.bash, rest, { stdin: head.stdout });
  return { stdout: tail.stdout, stderr: head.stderr + tail.stderr, exitCode: tail.exitCode };
}

/**
 * Runs `cmd` through `ours` and the reference that applies, and asserts the same stdout,
 * stderr and exit code. `ref`: a `reference(files)`, with `fs` the ChromaFs (or mounts)
 * behind `ours`, whose stats say which commands it answered; or a plain shell, compared
 * with as it is. `tools`: whether `ours` has the tools' commands (`fs.commands()`), whose
 * lines are then compared with the real tools. Returns which reference it was ("gnu" or
 * "just-bash").
 */
export async function sameOutput(ours, ref, cmd, fs, { tools = true } = {}) {
  let expected;
  let which = "just-bash";
  let a;
  if (ref.bash && fs) {
    const before = commandsOf(fs);
    a = await run(ours, cmd);
    const fresh = commandsOf(fs).flatMap((after, i) => newCommands(before[i], after));
    const answered = fresh.some((c) => c.native && ANSWERED.test(`${c.command} `));
    // A search or listing handed to just-bash makes the line just-bash's, tools and all.
    const handedOver = fresh.some((c) => !c.native && ANSWERED.test(`${c.command} `));
    if (tools && !handedOver && TOOLED.test(cmd) && ref.gnu) [expected, which] = [ref.gnu.expect(cmd), "gnu"];
    else if (answered) {
      if (!ref.gnu) throw new Error(`${cmd}: answered natively, and the real tools are missing (${ref.gnuMissing})`);
      [expected, which] = [await expectedOf(ref, cmd), "gnu"];
    } else expected = await run(ref.bash, cmd);
  } else {
    a = await run(ours, cmd);
    expected = await run(ref.bash ?? ref, cmd);
  }
  // A real tool piped into `head` stops at its next write once head has its lines, so
  // how many files it reads (and reports on) depends on timing: its messages are the
  // first of those it would print reading all, and so are chromafs's.
  const stopsEarly = which === "gnu" && /\|\s*head\b/.test(cmd);
  [a, expected] = [withoutTimes(a), withoutTimes(expected)];
  const [mine, theirs] = [a.stderr, expected.stderr].map((s) => s.split("\n").filter(Boolean));
  const prefix = (p, of) => p.every((l, i) => of[i] === l);
  const messages = stopsEarly && (prefix(mine, theirs) || prefix(theirs, mine));
  assert.deepEqual(
    { stdout: a.stdout, stderr: messages ? expected.stderr : a.stderr, exitCode: a.exitCode },
    { stdout: expected.stdout, stderr: expected.stderr, exitCode: expected.exitCode },
    `${cmd}\nchromafs ${show(a)}\n${which} ${show(expected)}`,
  );
  return which;
}
