// The one line `npm test` ends with: how many tests ran, passed, failed and were skipped in
// the whole run, read from its log (cargo's, node --test's TAP and spec reports, and the
// smoke tests' lines), with every reason a test was skipped, so that no skip goes unseen.
//   node scripts/tally.mjs LOG
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2], "utf8").replace(/\x1b\[[0-9;]*m/g, "");
let run = 0;
let passed = 0;
let failed = 0;
let skipped = 0;
const reasons = new Map();

for (const m of log.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)) {
  passed += +m[1];
  failed += +m[2];
  skipped += +m[3];
  run += +m[1] + +m[2];
  if (+m[3]) reasons.set("ignored Rust tests", (reasons.get("ignored Rust tests") ?? 0) + +m[3]);
}
// node --test: "# tests 12" (TAP) or "ℹ tests 12" (spec), then pass, fail, skipped.
for (const m of log.matchAll(/^(?:#|ℹ) tests (\d+)\n(?:#|ℹ) suites \d+\n(?:#|ℹ) pass (\d+)\n(?:#|ℹ) fail (\d+)\n(?:#|ℹ) cancelled (\d+)\n(?:#|ℹ) skipped (\d+)/gm)) {
  const [tests, pass, fail, cancelled, skip] = m.slice(1).map(Number);
  run += tests - skip;
  passed += pass;
  failed += fail + cancelled;
  skipped += skip;
}
for (const m of log.matchAll(/^(?:\s*)(?:ok \d+ - .*|﹣ .*)# SKIP (.+)$/gm)) {
  const reason = m[1].trim();
  reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
}
for (const m of log.matchAll(/^smoke test passed/gm)) {
  run += 1;
  passed += 1;
}
const n = (x) => x.toLocaleString("en-US");
let line = `tests: ${n(run)} run, ${n(passed)} passed, ${n(failed)} failed, ${n(skipped)} skipped`;
if (reasons.size) line += ` (${[...reasons].map(([why, k]) => `${k}: ${why}`).join("; ")})`;
console.log(`\n== ${line}`);
