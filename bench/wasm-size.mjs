// The filesystem's wasm module three ways: as wasm-bindgen writes it, after wasm-opt (what
// the package ships) and that gzipped (what an edge bundle pays); beside it the writer's
// and the embedding model's modules, which edge bundles leave out, the tools' module
// (head, sort, sed, awk…) and grep -P's engine, with what their first use costs in Node.
// Run after
// scripts/build.sh:
//   node bench/wasm-size.mjs
// Writes bench/results/wasm-size/all.json and prints a Markdown table.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../support/files.mjs";
import { startResult } from "../support/results.mjs";

const run = startResult("wasm-size", { settings: { gzip: "level 9", "wasm-opt": "-Oz, binaryen from npm (scripts/build.sh)" } });
const tmp = mkdtempSync(path.join(os.tmpdir(), "chromafs-wasm-size-"));
try {
  const bindgen = path.join(os.homedir(), ".cargo/bin/wasm-bindgen");
  execFileSync(bindgen, ["--target", "web", "--out-dir", tmp, "--out-name", "raw", path.join(ROOT, "target/wasm32-unknown-unknown/release/chromafs_core.wasm")]);
  const raw = readFileSync(path.join(tmp, "raw_bg.wasm")).length;
  const shipped = readFileSync(path.join(ROOT, "pkg/dist/web/chromafs_core_bg.wasm"));
  const gzipped = gzipSync(shipped, { level: 9 }).length;
  const writer = readFileSync(path.join(ROOT, "pkg/dist/web/chromafs_write_bg.wasm")).length;
  const embed = readFileSync(path.join(ROOT, "pkg/dist/embed/chromafs_embed_bg.wasm")).length;
  const toolsBytes = readFileSync(path.join(ROOT, "pkg/dist/web/chromafs_tools_bg.wasm"));
  const tools = toolsBytes.length;
  const toolsGzipped = gzipSync(toolsBytes, { level: 9 }).length;
  const perlBytes = readFileSync(path.join(ROOT, "pkg/dist/web/chromafs_perl_bg.wasm"));
  const perl = perlBytes.length;
  const perlGzipped = gzipSync(perlBytes, { level: 9 }).length;
  // A module's first use in a fresh Node process: compile and instantiate it (what
  // pkg/node.mjs does on first use), then `use(m)`, which throws unless it answers right;
  // the median of five processes.
  const firstUse = (name, use) => () => {
    const glue = path.join(ROOT, `pkg/dist/web/${name}.js`);
    const script = `const t0 = performance.now(); const m = await import(${JSON.stringify(glue)}); const fs = await import("node:fs");
      m.initSync({ module: fs.readFileSync(${JSON.stringify(path.join(ROOT, `pkg/dist/web/${name}_bg.wasm`))}) });
      (${use})(m);
      console.log(performance.now() - t0);`;
    return Number(execFileSync(process.execPath, ["--input-type=module", "-e", script]).toString());
  };
  const median = (f) => Math.round(Array.from({ length: 5 }, f).sort((a, b) => a - b)[2] * 10) / 10;
  // The tools: `head -n1` over two lines.
  const loadMs = median(firstUse("chromafs_tools", `(m) => {
    const out = new m.ToolRun("head", ["-n1"], new TextEncoder().encode("a\\nb\\n")).step();
    if (new TextDecoder().decode(out.stdout) !== "a\\n") throw new Error("head printed " + out.stdout);
  }`));
  // grep -P's engine: compile a lookahead and find it in a line.
  const perlMs = median(firstUse("chromafs_perl", `(m) => {
    const found = new m.PerlRegex("quokka(?=flux)", false, false, false).find("a quokkaflux", 0);
    if (String(found) !== "2,8") throw new Error("found " + found);
  }`));
  const B = (n) => `${n.toLocaleString("en-US")} B`;
  run.table("size", ["module", "bytes:"], [
    ["core, as wasm-bindgen writes it", B(raw)],
    ["core, after wasm-opt (what the package ships)", B(shipped.length)],
    ["core, after wasm-opt, gzipped", B(gzipped)],
    ["writer (ingest, annotate; Node and browsers, on first use), after wasm-opt", B(writer)],
    ["embedding model (`chromafs/embed`, Node only)", B(embed)],
    ["tools (head, sort, sed, awk, diff…; on first use), after wasm-opt", B(tools)],
    ["tools, after wasm-opt, gzipped", B(toolsGzipped)],
    ["grep -P's engine (lookaround, backreferences, \\K; on first use), after wasm-opt", B(perl)],
    ["grep -P's engine, after wasm-opt, gzipped", B(perlGzipped)],
  ]);
  // First use in Node: import the glue, compile and instantiate, answer once.
  run.table("first-use", ["step (median of 5 processes)", "ms:"], [
    ["first command of the tools (`head -n1`)", String(loadMs)],
    ["first grep -P pattern beyond the core's engine (a lookahead)", String(perlMs)],
  ]);
  Object.entries({ raw, shipped: shipped.length, gzipped, writer, embed, tools, toolsGzipped, toolsFirstUseMs: loadMs, perl, perlGzipped, perlFirstUseMs: perlMs }).forEach(([k, v]) => run.fact(k, v));
  run.save();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
