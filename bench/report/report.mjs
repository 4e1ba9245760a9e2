// Builds BENCHMARKS.md from bench/report/BENCHMARKS.in.md and the results the benchmarks wrote to
// bench/results/ (`npm run bench` runs them all, then this):
//   node bench/report/report.mjs            writes BENCHMARKS.md
//   node bench/report/report.mjs --check    exits 1 if BENCHMARKS.md is not what the results give
//
// The template is Markdown with three kinds of placeholder:
//   @table NAME ID      on a line of its own: how result NAME was measured (command, date,
//                       machine, load, settings), then its table ID
//   @targets            the targets, each with the figure that meets or misses it
//   {{NAME KEY.PATH}}   one figure the prose quotes, from result NAME's facts
// A result not measured yet shows as such, with the command that measures it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../support/files.mjs";
import { describeRun, markdownTable, readResult } from "../../support/results.mjs";
import { TARGETS } from "./targets.mjs";

const TEMPLATE = path.join(ROOT, "bench/report/BENCHMARKS.in.md");
const OUTPUT = path.join(ROOT, "BENCHMARKS.md");

/** The command that produces a result, for results not measured yet. */
function producer(name) {
  if (existsSync(path.join(ROOT, "bench", `${name}.mjs`))) return `node bench/${name}.mjs`;
  const [, script, size] = name.match(/^([a-z-]+?)(?:-(\d+))?(?:-[a-z-]+)?$/) ?? [];
  if (script === "search-quality" || script === "search-latency") return `node bench/search-quality.mjs`;
  const url = ["read-path", "sessions", "other-tools"].includes(script) ? " --url URL" : "";
  return `node bench/${script}.mjs${url}${size ? ` --sizes ${size}` : ""}`;
}

function fact(name, keyPath, strict) {
  const result = readResult(name);
  if (!result) return undefined;
  // Keys may hold spaces and dots (a command line): the longest key that prefixes the path wins.
  let value = result.facts;
  let rest = keyPath;
  while (rest) {
    const key = Object.keys(value ?? {}).filter((k) => rest === k || rest.startsWith(`${k}.`)).sort((a, b) => b.length - a.length)[0];
    if (key === undefined) {
      if (strict) throw new Error(`${name}: no fact ${keyPath}`);
      return undefined;
    }
    value = value[key];
    rest = rest.slice(key.length + 1);
  }
  return value;
}

const figure = (v) => (typeof v === "number" ? v.toLocaleString("en-US") : String(v));

function table(name, id) {
  const result = readResult(name);
  if (!result) return `*Not measured yet: \`${producer(name)}\`.*`;
  if (!result.tables[id]) throw new Error(`${name}: no table ${id}`);
  return `*${describeRun(result)}*\n\n${markdownTable(result.tables[id])}`;
}

function targets() {
  const rows = TARGETS.map(({ area, target, measure }) => {
    const m = measure((name, key) => fact(name, key));
    if (!m) return [area, target, "not measured yet", ""];
    return [area, target, m.text, m.met === undefined ? "" : m.met ? "✓" : "✗"];
  });
  return markdownTable({ columns: ["", "target", "measured", ""], rows });
}

export function render() {
  return readFileSync(TEMPLATE, "utf8")
    .split("\n")
    .map((line) => {
      const t = line.match(/^@table (\S+) (\S+)$/);
      if (t) return table(t[1], t[2]);
      if (line === "@targets") return targets();
      return line.replace(/\{\{(\S+) ([^}]+)\}\}/g, (_, name, key) => {
        const v = fact(name, key, true);
        return v === undefined ? "(not measured yet)" : figure(v);
      });
    })
    .join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = render();
  if (process.argv.includes("--check")) {
    if (readFileSync(OUTPUT, "utf8") !== text) {
      console.error("BENCHMARKS.md is not what bench/results and bench/report/BENCHMARKS.in.md give: run node bench/report/report.mjs");
      process.exit(1);
    }
  } else {
    writeFileSync(OUTPUT, text);
  }
}
