// BENCHMARKS.md is built from bench/results/*/*.json and bench/report/BENCHMARKS.in.md: a figure
// changed by hand, or a result not rendered again, fails here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { ROOT } from "../../support/files.mjs";
import { render } from "./report.mjs";
import { markdownTable } from "../../support/results.mjs";

test("BENCHMARKS.md is what the results and the template give", () => {
  assert.equal(readFileSync(path.join(ROOT, "BENCHMARKS.md"), "utf8"), render(), "run node bench/report/report.mjs");
});

test("tables escape pipes and right-align number columns", () => {
  assert.equal(markdownTable({ columns: ["command", "ms:"], rows: [["`a | b`", "12"]] }), "| command | ms |\n| --- | ---: |\n| `a \\| b` | 12 |");
});
