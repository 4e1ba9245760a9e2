// ARCHITECTURE.md against the tree, where a check is cheap: every source path it names
// exists, every folder of src/ is in its diagram, and every example has a test. (The layer
// order it draws is checked on the Rust source by src/testing/layers.rs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers.mjs";

const text = readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");

/** The repository paths a Markdown text names in backticks. */
const pathsIn = (md) => new Set([...md.matchAll(/`((?:src|pkg|tests|support|bench|scripts|examples|www)\/[A-Za-z0-9_./-]*)`/g)].map((m) => m[1]));
const missing = (named) => [...named].filter((p) => !existsSync(path.join(ROOT, p.replace(/\/$/, ""))));

test("every path ARCHITECTURE.md names exists", () => {
  const named = pathsIn(text);
  assert.ok(named.size > 10, [...named].join(" "));
  assert.deepEqual(missing(named), []);
});

test("every repository path the README and docs/ name exists", () => {
  const pages = ["README.md", "BENCHMARKS.md", ...readdirSync(path.join(ROOT, "docs"), { recursive: true }).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  for (const page of pages) assert.deepEqual(missing(pathsIn(readFileSync(path.join(ROOT, page), "utf8"))), [], page);
});

test("the diagram places every folder of src/, and names none that is not there", () => {
  const diagram = text.split("```")[1];
  const drawn = [...diagram.matchAll(/^src\/([a-z_]+)/gm)].map((m) => m[1]).sort();
  // `options.rs` is drawn as a file; its submodules' folder, `options/`, is the same module.
  const names = readdirSync(path.join(ROOT, "src"))
    .filter((n) => n !== "testing" && (statSync(path.join(ROOT, "src", n)).isDirectory() || n === "options.rs"))
    .map((n) => n.replace(/\.rs$/, ""));
  const folders = [...new Set(names)].sort();
  assert.deepEqual(drawn, folders);
});

test("every example has a test: its run-test.sh, or a suite that ARCHITECTURE.md names", () => {
  for (const name of readdirSync(path.join(ROOT, "examples"))) {
    const own = existsSync(path.join(ROOT, "examples", name, "run-test.sh"));
    const named = new RegExp("`examples/" + name + "/` is run by\\s+`tests/js/[a-z-/]+\\.test\\.mjs`").exec(text);
    assert.ok(own || (named && existsSync(path.join(ROOT, named[0].match(/`(tests\/js\/[^`]+)`/)[1]))), `examples/${name} has no test`);
    if (own) assert.ok(text.includes(`examples/${name}/`), `ARCHITECTURE.md does not mention examples/${name}/`);
  }
  assert.ok(existsSync(path.join(ROOT, "www/run-test.sh")));
});
