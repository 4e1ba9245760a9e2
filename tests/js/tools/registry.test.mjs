// The package knows, without loading the tools' module, which commands that module answers
// (pkg/src/names.js registers them with just-bash); the list is the module's own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, TOOL_COMMANDS } from "../helpers.mjs";
import * as tools from "../../../pkg/dist/web/chromafs_tools.js";

test("the package's list of the tools' commands is the module's", () => {
  tools.initSync({ module: readFileSync(path.join(ROOT, "pkg/dist/web/chromafs_tools_bg.wasm")) });
  assert.deepEqual([...TOOL_COMMANDS].sort(), tools.toolNames().sort());
});

test("a run asks for its files, then answers from them; a write it cannot make is said in the tool's words", () => {
  tools.initSync({ module: readFileSync(path.join(ROOT, "pkg/dist/web/chromafs_tools_bg.wasm")) });
  const run = new tools.ToolRun("head", ["-n1", "a", "b"], new Uint8Array());
  assert.deepEqual(run.step().need, [["read", "a"], ["read", "b"]]);
  run.answerRead("a", new TextEncoder().encode("one\ntwo\n"));
  run.answerFailed("read", "b", "ENOENT", "No such file or directory");
  const done = run.step();
  assert.equal(new TextDecoder().decode(done.stdout), "==> a <==\none\n");
  assert.equal(done.stderr, "head: cannot open 'b' for reading: No such file or directory\n");
  assert.equal(done.status, 1);
  run.free();
  assert.deepEqual({ ...tools.writeFailure("sort", "/a", "Read-only file system") }, { message: "sort: open failed: /a: Read-only file system\n", status: 2 });
});
