// What the benchmarks share: a Chroma server of their own in a fresh directory (Chroma's
// local full-text filters scan every document of the server, so sets of different sizes
// must not share one), and the median of repeated timings.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./files.mjs";
import { freePort } from "./ports.mjs";

const SCRIPT = path.join(ROOT, "scripts/chroma.sh");

/**
 * Starts a Chroma on 127.0.0.1: `{ url, stop }`. Its data goes in a new temporary directory,
 * removed by `stop`, or in `dir` when given, kept for the next run (a benchmark that reuses
 * an expensive ingest).
 */
export async function startOwnChroma(label, dir) {
  const temporary = !dir;
  const data = dir ?? mkdtempSync(path.join(os.tmpdir(), `chromafs-${label}-`));
  const port = await freePort();
  execFileSync("bash", [SCRIPT, "start", String(port), data], { stdio: "inherit" });
  const stop = () => {
    execFileSync("bash", [SCRIPT, "stop", String(port)]);
    if (temporary) rmSync(data, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${port}`, stop };
}

/** The median wall time of `runs` calls of `fn` (awaited one after another), in ms. */
export async function medianMs(runs, fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
}
