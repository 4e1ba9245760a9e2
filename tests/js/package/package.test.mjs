// The package as users import it: Node ESM and CommonJS entry points, each working inside
// just-bash commands with its default defense-in-depth on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ingest } from "chromafs";
import { ROOT, chromaUrl } from "../helpers.mjs";

const node = (args, source) => spawnSync(process.execPath, [...args, source], { cwd: ROOT, encoding: "utf8", timeout: 60000 });

test("CommonJS: require('chromafs') works with no set-up code", async () => {
  await ingest({ url: chromaUrl(), collection: "package-cjs", files: [{ path: "a/b.md", content: "hello from cjs\n" }] });
  const r = node(["-e"], `
    const { ChromaFs, safeExec } = require("chromafs");
    const { Bash } = require("just-bash");
    (async () => {
      const fs = await ChromaFs.connect({ url: ${JSON.stringify(chromaUrl())}, collection: "package-cjs" });
      const bash = new Bash({ fs, cwd: "/" });
      const r = await safeExec(bash, "cat /a/b.md; ls /a");
      process.stdout.write(r.stdout + r.exitCode);
    })();
  `);
  assert.equal(r.stderr, "");
  assert.equal(r.stdout, "hello from cjs\nb.md\n0");
});

test("ESM: the node entry fetches from inside commands under defense-in-depth", async () => {
  await ingest({ url: chromaUrl(), collection: "package-esm", files: [{ path: "x.md", content: "hello from esm\n" }] });
  const r = node(["--input-type=module", "-e"], `
    import { ChromaFs } from "chromafs";
    import { Bash } from "just-bash";
    const fs = await ChromaFs.connect({ url: ${JSON.stringify(chromaUrl())}, collection: "package-esm" });
    const bash = new Bash({ fs, cwd: "/", defenseInDepth: true });
    const r = await bash.exec("cat /x.md && grep -c hello /x.md");
    process.stdout.write(r.stdout + r.stderr + r.exitCode);
  `);
  assert.equal(r.stderr, "");
  assert.equal(r.stdout, "hello from esm\n1\n0");
});

test("package.json exports a condition for every runtime, each file present", () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "pkg/package.json"), "utf8"));
  const dot = pkg.exports["."];
  // Each condition names its types and its code (the require side its CommonJS types).
  for (const cond of ["workerd", "edge-light", "browser", "default"]) {
    assert.deepEqual(Object.keys(dot[cond]), ["types", "default"], cond);
    assert.equal(dot[cond].types, "./index.d.mts", cond);
    assert.ok(readFileSync(path.join(ROOT, "pkg", dot[cond].default)).length > 0, cond);
  }
  assert.deepEqual([dot.node.import.types, dot.node.require.types], ["./index.d.mts", "./index.d.cts"]);
  for (const f of [dot.node.import.default, dot.node.require.default, pkg.bin.chromafs, "dist/web/chromafs_core_bg.wasm", "dist/web/chromafs_write_bg.wasm", "dist/web/chromafs_tools_bg.wasm", "dist/web/chromafs_perl_bg.wasm", "index.d.mts", "index.d.cts"]) {
    assert.ok(readFileSync(path.join(ROOT, "pkg", f)).length > 0, f);
  }
  for (const name of ["chromafs_core_bg.wasm", "chromafs_write_bg.wasm", "chromafs_tools_bg.wasm", "chromafs_perl_bg.wasm"]) {
    const wasm = execFileSync("find", [path.join(ROOT, "pkg/dist"), "-name", name]).toString().trim().split("\n");
    assert.equal(wasm.length, 1, `the package ships each module once: ${wasm}`);
  }
});

test("the filesystem's module has no write path, no tools and no backtracking: ingest and annotate are in the writer's, head and sort in the tools', grep -P's engine in the perl module", async () => {
  const exportsOf = async (file) => WebAssembly.Module.exports(await WebAssembly.compile(readFileSync(path.join(ROOT, "pkg/dist/web", file)))).map((e) => e.name);
  const core = await exportsOf("chromafs_core_bg.wasm");
  const writer = await exportsOf("chromafs_write_bg.wasm");
  assert.ok(core.includes("chromafs_connect") && !core.includes("ingest") && !core.includes("annotate"), core.join(" "));
  assert.ok(writer.includes("ingest") && writer.includes("annotate") && !writer.includes("chromafs_connect"), writer.join(" "));
  const tools = await exportsOf("chromafs_tools_bg.wasm");
  assert.ok(tools.includes("toolrun_step") && !tools.includes("chromafs_connect") && !tools.includes("ingest"), tools.join(" "));
  assert.ok(!core.includes("toolrun_step") && !writer.includes("toolrun_step"));
  const perl = await exportsOf("chromafs_perl_bg.wasm");
  assert.ok(perl.includes("perlregex_find") && !perl.includes("chromafs_connect") && !perl.includes("toolrun_step"), perl.join(" "));
  assert.ok(core.includes("setPerlEngine") && !core.includes("perlregex_find") && !tools.includes("perlregex_find"));
});
