// Ranked search, measured: quality on labelled questions, and latency and requests per
// search at 1,142 and 10,000 pages through the Chroma Cloud-quota proxy, with and without
// 40 ms added per request.
//   node bench/search-quality.mjs [--sizes 1142,10000] [--skip-quality] [--skip-latency]
//
// Quality: bench/search-questions.json (68 questions in a user's words of six kinds — how-to,
// troubleshooting, configuration, identifier, concept, vague — each with the pages that
// answer it; a page's /fr/, /es/ and /zh/ translations count as the page) over the 1,142-page
// corpus, embedded with the built-in all-MiniLM-L6-v2 model (the ingest is kept in
// .chroma/bench-quality and reused). Methods: `grep` (the question's rarest word, by document
// frequency over the corpus, ignoring words under 3 letters, question words and words no
// page holds, as
// `grep -rli WORD /`, pages in grep's order), `lexical`, `dense` and `hybrid` (fs.search's
// modes). hit@1, hit@5 and MRR over the first 10.
//
// Latency (excluding the embedder: the query's vector is computed once beforehand): a
// collection of N pages ingested with ingest's built-in 32-dimension embedding, searched with
// a session whose embed function returns the precomputed vector; p50/p95 of wall time and the
// requests each search sent.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Bash } from "just-bash";
import { ChromaFs, ingest } from "chromafs";
import { createEmbedder, MODEL } from "chromafs/embed";
import { ROOT, CORPUS } from "../support/files.mjs";
import { freePort } from "../support/ports.mjs";
import { startProxy } from "../support/proxy.mjs";
import { readCorpus, syntheticCorpus } from "./corpus.mjs";

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizes = flag("--sizes", "1142,10000").split(",").map(Number);
const QUESTIONS = JSON.parse(readFileSync(path.join(ROOT, "bench/search-questions.json"), "utf8")).questions;
const STOP = new Set(["the", "and", "for", "how", "what", "does", "with", "from", "that", "this", "our", "can", "who", "are", "into", "one", "its", "all", "use", "get", "put", "when", "which", "about", "before", "after", "over", "only", "some", "each", "every", "have", "has", "not", "but", "own", "out", "new", "old", "say", "says", "let", "give", "want", "need", "should", "would", "could", "there", "their", "them", "they", "way", "many", "same", "other", "back", "site", "page", "pages", "docs", "documentation"]);

// grep over / names files //a.md, as just-bash's grep does.
const page = (p) => p.replace(/^\/+/, "/").replace(/^\/(fr|es|zh)\//, "/");
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

function startChroma(dir) {
  const port = Number(execFileSync("python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"]).toString());
  execFileSync("bash", [path.join(ROOT, "scripts/chroma.sh"), "start", String(port), dir], { stdio: "inherit" });
  return { url: `http://127.0.0.1:${port}`, stop: () => execFileSync("bash", [path.join(ROOT, "scripts/chroma.sh"), "stop", String(port)]) };
}

/** Scores a method: `rank(question)` → paths, best first. */
async function score(rank) {
  const positions = [];
  for (const { question, answers, kind } of QUESTIONS) {
    const want = new Set(answers.map(page));
    const ranked = (await rank(question)).slice(0, 10).map(page);
    positions.push({ kind, at: ranked.findIndex((p) => want.has(p)) });
  }
  const metrics = (ps) => ({
    hit1: ps.filter((p) => p.at === 0).length / ps.length,
    hit5: ps.filter((p) => p.at >= 0 && p.at < 5).length / ps.length,
    mrr: ps.reduce((s, p) => s + (p.at >= 0 ? 1 / (p.at + 1) : 0), 0) / ps.length,
  });
  const byKind = {};
  for (const k of new Set(positions.map((p) => p.kind))) byKind[k] = metrics(positions.filter((p) => p.kind === k));
  return { ...metrics(positions), byKind };
}

async function quality(url, base) {
  const embed = await createEmbedder();
  let fs = await ChromaFs.connect({ url, collection: "quality", embed }).catch(() => null);
  if (fs?.info().embedding?.model !== MODEL || fs.info().files !== base.length) {
    const t = performance.now();
    process.stderr.write(`embedding ${base.length} pages with ${MODEL} (once; kept in .chroma/bench-quality)…\n`);
    await ingest({ url, collection: "quality", files: base, embed });
    process.stderr.write(`ingested in ${((performance.now() - t) / 60000).toFixed(1)} min\n`);
    fs = await ChromaFs.connect({ url, collection: "quality", embed });
  }
  // Document frequency of words over the corpus, for the grep baseline's rarest word.
  const df = new Map();
  for (const f of base) for (const w of new Set(f.content.toString("utf8").toLowerCase().match(/[a-z0-9_.-]+/g)?.map((x) => x.replace(/^[.-]+|[.-]+$/g, "")) ?? [])) df.set(w, (df.get(w) ?? 0) + 1);
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const methods = {
    grep: async (q) => {
      // Words no page holds (a typo) are skipped: grep would find nothing with them.
      const words = (q.toLowerCase().match(/[a-z0-9_.-]+/g) ?? []).map((w) => w.replace(/^[.-]+|[.-]+$/g, "")).filter((w) => w.length >= 3 && !STOP.has(w) && df.has(w));
      if (!words.length) return [];
      const rarest = words.reduce((a, b) => ((df.get(a) ?? 0) <= (df.get(b) ?? 0) ? a : b));
      return (await bash.exec(`grep -rli -- '${rarest.replace(/'/g, "")}' /`)).stdout.split("\n").filter(Boolean);
    },
    lexical: async (q) => (await fs.search(q, { k: 10, mode: "lexical" })).map((h) => h.path),
    dense: async (q) => (await fs.search(q, { k: 10, mode: "dense" })).map((h) => h.path),
    hybrid: async (q) => (await fs.search(q, { k: 10 })).map((h) => h.path),
  };
  const rows = [];
  for (const [name, rank] of Object.entries(methods)) rows.push({ method: name, ...(await score(rank)) });
  return rows;
}

/** A deterministic 32-dimension vector, the shape of ingest's built-in embedding. */
const vector32 = (text) => {
  const v = Array.from({ length: 32 }, (_, i) => Math.sin((text.length + 1) * (i + 1)));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

async function latency(url, base, size) {
  const { files, access } = size === base.length ? { files: base, access: {} } : syntheticCorpus(base, { pages: size });
  const collection = `latency-${size}`;
  await ingest({ url, collection, files, access });
  const rows = [];
  for (const latencyMs of [0, 40]) {
    const cloud = await startProxy(url, { quotas: true, latencyMs });
    try {
      const fs = await ChromaFs.connect({ url: cloud.url, collection, embed: async (t) => t.map(vector32) });
      const times = [], requests = [];
      for (const { question } of QUESTIONS) {
        const before = fs.stats().requests;
        const t = performance.now();
        await fs.search(question, { k: 10 });
        times.push(performance.now() - t);
        requests.push(fs.stats().requests - before);
      }
      rows.push({
        pages: size, addedLatencyMs: latencyMs, p50Ms: +percentile(times, 50).toFixed(1), p95Ms: +percentile(times, 95).toFixed(1),
        maxRequests: Math.max(...requests), meanRequests: +(requests.reduce((a, b) => a + b, 0) / requests.length).toFixed(2),
        quotaViolations: cloud.violations.length,
      });
    } finally {
      await cloud.close();
    }
  }
  return rows;
}

const dataDir = path.join(ROOT, ".chroma/bench-quality");
mkdirSync(dataDir, { recursive: true });
const chroma = startChroma(dataDir);
try {
  const base = await readCorpus(existsSync(CORPUS) ? CORPUS : (() => { throw new Error(`${CORPUS} is missing`); })());
  const out = { machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => +l.toFixed(2)) }, questions: QUESTIONS.length };
  if (!args.includes("--skip-quality")) {
    out.quality = await quality(chroma.url, base);
    console.log(`quality over ${QUESTIONS.length} questions (1,142 pages, ${MODEL}):`);
    for (const r of out.quality) {
      const kinds = Object.entries(r.byKind).map(([k, m]) => `${k} ${m.hit5.toFixed(2)}`).join(", ");
      console.log(`  ${r.method.padEnd(8)} hit@1 ${r.hit1.toFixed(2)}  hit@5 ${r.hit5.toFixed(2)}  MRR ${r.mrr.toFixed(2)}   hit@5 by kind: ${kinds}`);
    }
  }
  out.latency = [];
  for (const size of args.includes("--skip-latency") ? [] : sizes) out.latency.push(...(await latency(chroma.url, base, size)));
  console.log("latency per search (excluding the embedder), through the Cloud-quota proxy:");
  for (const r of out.latency) console.log(`  ${String(r.pages).padStart(6)} pages +${r.addedLatencyMs} ms: p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms, requests ≤ ${r.maxRequests} (mean ${r.meanRequests}), quota violations ${r.quotaViolations}`);
  mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(path.join(ROOT, "bench/results/search-quality.json"), JSON.stringify(out, null, 1));
} finally {
  chroma.stop();
}
