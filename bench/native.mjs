// Commands once the pages are at hand: chromafs answering in Rust, chromafs handing the
// command to just-bash (nativeCommands: false), just-bash over a preloaded InMemoryFs and
// GNU tools on a copy on disk, in one run:
//   node bench/native.mjs [--sizes 1142,10000] [--runs 3] [--only rg]
// "cold" starts a new session for each run (the tree is in the process and kept fresh for an
// hour, `treeMaxAgeMs`; the pages are not: the process tier is off, so each run fetches its
// pages from Chroma); "warm" repeats the command in a session that already holds them
// (sessions get a 256 MiB page cache, so a 10,000-page set fits). Each size gets a Chroma of
// its own. Writes bench/results/native/SIZE.json and prints a Markdown table of p50 wall
// times, with each time's ratio to GNU's.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { DEFAULT_CORPUS, readCorpus, syntheticCorpus, visibleTo, writeCorpus } from "./corpus/corpus.mjs";
import { corpusPresent } from "../support/files.mjs";
import { referenceFs } from "../support/reference.mjs";
import { medianMs, startOwnChroma } from "../support/own-chroma.mjs";
import { arg, commandLine, startResult } from "../support/results.mjs";

if (!corpusPresent()) process.exit(1);
const SIZES = arg("--sizes", "1142,10000").split(",").map(Number);
const RUNS = Number(arg("--runs", "3"));
const ONLY = arg("--only", "");

// [what, command, GNU argv run in the copy's root]
const COMMANDS = [
  ["rare word", "grep -rn HubSpot /", ["grep", "-rn", "HubSpot", "."]],
  ["common word", "grep -rn Mintlify /", ["grep", "-rn", "Mintlify", "."]],
  ["case-insensitive", "grep -rni oauth /", ["grep", "-rni", "oauth", "."]],
  ["regex", "grep -rnE 'api[_-]key' /", ["grep", "-rnE", "api[_-]key", "."]],
  ["count every file", "grep -rc Mintlify /", ["grep", "-rc", "Mintlify", "."]],
  ["recursive listing", "ls -R /", ["ls", "-R", "."]],
  ["find by name", "find / -name '*.mdx'", ["find", ".", "-name", "*.mdx"]],
  // -i asked for: ripgrep is case-sensitive unless told (just-bash's rg ignores case for a
  // lower-case pattern of its own accord), so every column searches alike.
  ["rg, case-insensitive", "rg -n -i 'mint dev' /", ["grep", "-rni", "mint dev", "."]],
  ["rg, common word", "rg Mintlify /", ["grep", "-rn", "Mintlify", "."]],
  // Piped into head: the line is run as an agent's tool runs it (safeExec), which lets the
  // search stop once head has its lines; GNU runs the same pipeline in bash.
  ["common word, first 20 lines", "grep -rn Mintlify / | head -20", ["bash", "-c", "grep -rn Mintlify . | head -20"]],
  ["rg, first 5 files", "rg -l Mintlify / | head -5", ["bash", "-c", "grep -rl Mintlify . | head -5"]],
].filter(([what]) => !ONLY || what.includes(ONLY));

// A pipeline's output is what head prints; other commands' output goes to /dev/null.
const runLine = (bash, cmd) => (cmd.includes("| head") ? safeExec(bash, cmd) : bash.exec(`${cmd} > /dev/null`));

async function benchSize(base, size) {
  const { files, access } = size === base.length ? { files: base, access: {} } : syntheticCorpus(base, { pages: size });
  const { url, stop } = await startOwnChroma(`native-${size}`);
  const rows = [];
  const run = startResult(ONLY ? `native-${size}-${ONLY.replace(/\W+/g, "-")}` : `native-${size}`, {
    command: commandLine().replace(/--sizes \S+/, `--sizes ${size}`),
    settings: {
      runs: `${RUNS}, p50 (just-bash over an InMemoryFs: ${Math.min(RUNS, 3)})`,
      cold: "a new session per run; the tree kept in the process (treeMaxAgeMs 1 h), the process tier off, pages from Chroma",
      warm: "the same session again",
      "page cache": "cacheBytes 256 MiB a session",
      pages: size === base.length ? `${size}` : `${size}, ${files.filter((f) => visibleTo(access, [])(f.path)).length} visible`,
    },
  });
  try {
    await ingest({ url, collection: "docs", files, access });
    const visible = files.filter((f) => visibleTo(access, [])(f.path));
    const copy = mkdtempSync(path.join(os.tmpdir(), `chromafs-native-copy-${size}-`));
    await writeCorpus(visible, copy);
    const mem = new Bash({ fs: await referenceFs(visible), cwd: "/" });
    // Off: a new session would otherwise find every page in the process tier.
    if (ChromaFs.setProcessCacheBytes) ChromaFs.setProcessCacheBytes(0);
    const session = async (nativeCommands) => {
      const fs = await ChromaFs.connect({ url, collection: "docs", treeMaxAgeMs: 3_600_000, cacheBytes: 256 << 20, nativeCommands });
      return new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    };
    for (const [what, cmd, gnu] of COMMANDS) {
      const row = { what, cmd };
      row.gnu = await medianMs(RUNS, () => spawnSync(gnu[0], gnu.slice(1), { cwd: copy, stdio: "ignore" }));
      for (const [key, native] of [["native", true], ["delegated", false]]) {
        row[`${key}Cold`] = await medianMs(RUNS, async () => runLine(await session(native), cmd));
        const warm = await session(native);
        await runLine(warm, cmd);
        row[`${key}Warm`] = await medianMs(RUNS, () => runLine(warm, cmd));
      }
      row.mem = await medianMs(Math.min(RUNS, 3), () => runLine(mem, cmd));
      rows.push(row);
      process.stderr.write(`${size} ${what} done\n`);
    }
    rmSync(copy, { recursive: true, force: true });
  } finally {
    stop();
  }
  const cell = (ms, gnu) => `${ms.toFixed(0)} (${(ms / gnu).toFixed(1)}×)`;
  run.table(
    "commands",
    ["command", "chromafs, Rust, cold:", "chromafs, Rust, warm:", "chromafs → just-bash, cold:", "chromafs → just-bash, warm:", "just-bash, InMemoryFs:", "GNU, local copy:"],
    rows.map((r) => [`\`${r.cmd}\` (${r.what})`, ...[r.nativeCold, r.nativeWarm, r.delegatedCold, r.delegatedWarm, r.mem].map((ms) => cell(ms, r.gnu)), r.gnu.toFixed(0)]),
  );
  for (const r of rows) run.fact(r.cmd, Object.fromEntries(Object.entries(r).filter(([, v]) => typeof v === "number").map(([k, v]) => [k, Math.round(v)])));
  run.save();
}

const base = await readCorpus(DEFAULT_CORPUS);
for (const size of SIZES) await benchSize(base, size);
