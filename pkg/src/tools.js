// The commands after the pipe — head, sort, sed, awk, diff and the rest — answered by the
// tools module (src/tools/), which the package loads the first time one of them runs. The
// module works on bytes in memory: it says which files it needs, this reads them through
// the shell's filesystem (pages and the scratch directory alike), and it runs again with
// them; what it writes (`sort -o`, `sed w`) and the commands it plans (`xargs`) are done
// here, through just-bash, after it.

import { errnoOf } from "./errno.js";
import { bytesOf, envValue } from "./context.js";

// Reads in flight for one command (the session bounds its requests itself).
const READS_IN_FLIGHT = 8;
// Rounds of reads one command may ask for (awk's `getline < file` asks as it goes).
const MAX_ROUNDS = 64;

/** Bytes as just-bash's byte string (one character a byte). */
function byteString(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return s;
}

/** Text as just-bash's byte string of its UTF-8. */
const utf8ByteString = (text) => byteString(new TextEncoder().encode(text));

/**
 * Answers one question of a run through `ctx.fs`: `read`, `stat`, `list` of a path, or
 * `create` (an empty file) and `mkdir` there, where nothing is yet (mktemp).
 */
async function answer(run, [ask, path], ctx) {
  const at = ctx.fs.resolvePath(ctx.cwd, path);
  try {
    if (ask === "read") run.answerRead(path, bytesOf(await ctx.fs.readFileBuffer(at)));
    else if (ask === "stat") {
      const st = await ctx.fs.stat(at);
      run.answerStat(path, at, st.isDirectory, Number(st.size ?? 0));
    } else if (ask === "create" || ask === "mkdir") {
      if (await ctx.fs.exists(at)) return run.answerFailed(ask, path, "EEXIST", "File exists");
      if (ask === "mkdir") await ctx.fs.mkdir(at);
      else await ctx.fs.writeFile(at, "");
      run.answerMade(path);
    } else run.answerList(path, await ctx.fs.readdir(at));
  } catch (e) {
    run.answerFailed(ask, path, ...errnoOf(e));
  }
}

/** Random bytes drawn 4 KiB at a time: every run of a tool gets some, and few use them. */
const random = { bytes: new Uint8Array(4096), used: 4096 };

/** `n` (≤ 4096) random bytes not handed out before (mktemp's names). */
function randomBytes(n) {
  if (random.used + n > random.bytes.length) {
    try {
      crypto.getRandomValues(random.bytes);
    } catch {
      for (let i = 0; i < random.bytes.length; i++) random.bytes[i] = Math.floor(Math.random() * 256);
    }
    random.used = 0;
  }
  random.used += n;
  return random.bytes.slice(random.used - n, random.used);
}

/** A word quoted for the shell, as `xargs` hands it to a command. */
const shellWord = (w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`);

/**
 * Runs what `xargs` planned, one command line after another, as GNU xargs does: its
 * status is 123 when a command failed, 124 when one exited 255 (which stops the rest),
 * 126 or 127 when one could not be run.
 */
async function runPlanned(runs, ctx, done) {
  let { stdout, stderr } = done;
  let status = done.status;
  for (const argv of runs) {
    if (typeof ctx.exec !== "function") return { stdout, stderr: `${stderr}xargs: cannot run commands here\n`, status: 1 };
    const r = await ctx.exec(argv.map(shellWord).join(" "), { cwd: ctx.cwd, signal: ctx.signal });
    // xargs's output is bytes, one character a byte: a command's text joins it as UTF-8.
    stdout += r.stdoutKind === "bytes" ? r.stdout : utf8ByteString(r.stdout);
    stderr += r.stderr;
    if (r.exitCode === 255) return { stdout, stderr: `${stderr}xargs: ${argv[0]}: exited with status 255; aborting\n`, status: 124 };
    if (r.exitCode === 126 || r.exitCode === 127) return { stdout, stderr, status: r.exitCode };
    if (r.exitCode !== 0) status = 123;
  }
  return { stdout, stderr, status };
}

/**
 * Runs `name args` of the tools module `tools` on just-bash's command context `ctx`:
 * just-bash's result, standard output as bytes.
 */
async function runTool(tools, name, args, ctx) {
  const run = new tools.ToolRun(name, args, bytesOf(ctx.stdin));
  try {
    const tmpdir = envValue(ctx, "TMPDIR");
    if (tmpdir !== undefined) run.setVar("TMPDIR", tmpdir);
    run.setRandom(randomBytes(64));
    let step = run.step();
    for (let round = 0; step.need; round++) {
      if (round === MAX_ROUNDS) return { stdout: "", stderr: `${name}: too many files read one after another\n`, exitCode: 2 };
      const need = [...step.need];
      const workers = Array.from({ length: Math.min(READS_IN_FLIGHT, need.length) }, async () => {
        while (need.length) await answer(run, need.shift(), ctx);
      });
      await Promise.all(workers);
      step = run.step();
    }
    let stderr = step.stderr;
    let status = step.status;
    for (const w of step.writes) {
      const at = ctx.fs.resolvePath(ctx.cwd, w.path);
      try {
        if (w.append) await ctx.fs.appendFile(at, w.bytes);
        else await ctx.fs.writeFile(at, w.bytes);
      } catch (e) {
        const failed = tools.writeFailure(name, w.path, errnoOf(e)[1]);
        stderr += failed.message;
        status = Math.max(status, failed.status);
      }
    }
    let stdout = byteString(step.stdout);
    if (step.runs.length) ({ stdout, stderr, status } = await runPlanned(step.runs, ctx, { stdout, stderr, status }));
    // Where the tool's own errors came between its output's bytes (what the host added
    // since, a file it could not write, follows them).
    const stderrAt = step.stderrAt.length ? step.stderrAt : undefined;
    return { stdout, stdoutKind: "bytes", stderr, exitCode: status, ...(stderrAt ? { stderrAt } : {}) };
  } finally {
    run.free();
  }
}

/** The key of a ChromaFs class's loader of the tools module (what mounts' commands use). */
const LOAD_TOOLS = Symbol("chromafs tools module");

export { runTool, utf8ByteString, LOAD_TOOLS };
