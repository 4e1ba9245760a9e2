// What a benchmark measured, kept as data: each run writes its result under bench/results/ (the
// command line, the machine and its load, the settings the figures depend on, its tables and
// the figures the prose quotes) and prints its tables as Markdown. bench/report/report.mjs builds
// BENCHMARKS.md from these files alone, so every figure there has a command that produced it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./files.mjs";

export const RESULTS = path.join(ROOT, "bench/results");

/**
 * Where result NAME is kept: one folder per benchmark, one file per size or variant
 * (`native-1142` is `native/1142.json`, `connect` is `connect/all.json`).
 */
export function resultPath(name) {
  const m = /^(.*?)-(\d.*)$/.exec(name);
  return m ? path.join(RESULTS, m[1], `${m[2]}.json`) : path.join(RESULTS, name, "all.json");
}

const load = () => +os.loadavg()[0].toFixed(2);

/** The value after `name` on the command line, else `fallback`. */
export const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};

/** The command line a result came from, as a user would type it again. */
export function commandLine(extra = "") {
  const script = path.relative(ROOT, process.argv[1]);
  const args = process.argv.slice(2).map((a) => (/^[\w,./=:-]+$/.test(a) ? a : `'${a}'`));
  return ["node", script, ...args].join(" ") + extra;
}

/**
 * A run's record. `settings` maps what a figure depends on (page cache, freshness, runs,
 * statistic…) to how it was set, in words; tables are added with `table`, quoted figures
 * with `fact`, and `save()` writes the file and prints the tables.
 */
export function startResult(name, { command = commandLine(), settings = {} } = {}) {
  const started = performance.now();
  const result = {
    name,
    command,
    date: new Date().toISOString().slice(0, 10),
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model.trim(), memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAtStart: load() },
    settings,
    tables: {},
    facts: {},
  };
  return {
    result,
    /** `columns`: titles, a trailing `:` right-aligns (numbers); `rows`: cells as printed. */
    table(id, columns, rows) {
      result.tables[id] = { columns, rows: rows.map((r) => r.map((c) => (c === undefined || c === null ? "" : String(c)))) };
    },
    fact(key, value) {
      result.facts[key] = value;
    },
    save() {
      result.machine.loadAtEnd = load();
      result.seconds = Math.round((performance.now() - started) / 1000);
      mkdirSync(path.dirname(resultPath(name)), { recursive: true });
      writeFileSync(resultPath(name), `${JSON.stringify(result, null, 1)}\n`);
      console.log(`\n${describeRun(result)}\n`);
      for (const id of Object.keys(result.tables)) console.log(`${markdownTable(result.tables[id])}\n`);
    },
  };
}

/** A result file, or null when that benchmark has not been run. */
export function readResult(name) {
  try {
    return JSON.parse(readFileSync(resultPath(name), "utf8"));
  } catch (e) {
    if (e.code === "ENOENT") return null;
    throw e;
  }
}

/** One line saying how a result was measured: command, date, machine, load, settings. */
export function describeRun(r) {
  const m = r.machine;
  const settings = Object.entries(r.settings).map(([k, v]) => `${k}: ${v}`);
  return [`\`${r.command}\``, r.date, `${m.cores} cores, Node ${m.node}, load ${m.loadAtStart} → ${m.loadAtEnd}`, `${r.seconds} s`, ...settings].join("; ");
}

const escape = (cell) => cell.replaceAll("|", "\\|");

export function markdownTable({ columns, rows }) {
  const titles = columns.map((c) => c.replace(/:$/, ""));
  const rule = columns.map((c) => (c.endsWith(":") ? "---:" : "---"));
  return [titles, rule, ...rows.map((r) => r.map(escape))].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

export const mib = (n) => `${(n / 2 ** 20).toFixed(0)} MiB`;
export const kib = (n) => (n < 10240 ? `${n} B` : `${(n / 1024).toFixed(0)} KiB`);
export const ms = (x) => `${Math.round(x).toLocaleString("en-US")}`;
