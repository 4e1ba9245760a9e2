// Ranked search, measured: quality on labelled questions, and latency and requests per
// search at 1,142 and 10,000 pages through the Chroma Cloud-quota proxy, with and without
// 40 ms added per request.
//   node bench/search-quality.mjs [--sizes 1142,10000] [--skip-quality] [--skip-latency]
//                                 [--models all-MiniLM-L6-v2,multilingual-e5-small] [--url URL]
//                                 [--misses hybrid]
//
// Quality: bench/corpus/search-questions.json (68 questions in a user's words of six kinds — how-to,
// troubleshooting, configuration, identifier, concept, vague — each with the pages that
// answer it; a page's /fr/, /es/ and /zh/ translations count as the page) over the 1,142-page
// corpus, embedded with each built-in model (all-MiniLM-L6-v2, then multilingual-e5-small,
// each in a collection of its own; the multilingual model embeds for about twenty minutes).
// Every run starts a Chroma in a new data directory and ingests each collection once, then
// waits until every record, queried with its own embedding, comes back first
// (support/settled.mjs): a data directory written again and again answers queries that miss
// records, and the figures would measure that. Methods:
// `grep` (the question's rarest word, by document frequency over the corpus, ignoring words
// under 3 letters, question words and words no page holds, as `grep -rli WORD /`, pages in
// grep's order), `lexical`, `dense` and `hybrid` (fs.search's
// modes; for the other model, dense and hybrid: words rank alike). hit@1, hit@5 and MRR over
// the first 10. "None": the share of bench/corpus/search-none.json's questions (nonsense, and
// questions about things the corpus does not cover: cooking, travel, other products) that a
// method answers with no page, as the relevance floor should.
//
// Latency (excluding the embedder: the query's vector is computed once beforehand): a
// collection of N pages ingested with ingest's built-in 32-dimension embedding, searched with
// a session whose embed function returns the precomputed vector; p50/p95 of wall time and the
// requests each search sent, after one untimed pass over the questions.
//
// Languages: bench/corpus/search-questions-multilingual.json (ten pages of an imaginary site
// builder's docs, each in English, French, Spanish, Japanese, Korean and Chinese, and 25
// questions, five a language, written for this project), embedded with each model in a
// collection of their own; the answer is the page in the question's language, with the
// English pages and the other translations present. hit@1 and hit@5 by language, for the
// modes as above and for hybrid with the question's language named (`lang`).
//
// Writes bench/results/search-quality/all.json, search-latency/all.json and
// search-languages/all.json and prints their tables (--skip-languages leaves the last out).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Bash } from "just-bash";
import { ChromaFs, ingest } from "chromafs";
import { createEmbedder, MODEL, MODELS } from "chromafs/embed";
import { ROOT, CORPUS } from "../support/files.mjs";
import { medianMs, startOwnChroma } from "../support/own-chroma.mjs";
import { startProxy } from "../support/proxy.mjs";
import { settled } from "../support/settled.mjs";
import { readCorpus, syntheticCorpus } from "./corpus/corpus.mjs";
import { arg, commandLine, startResult } from "../support/results.mjs";

const args = process.argv.slice(2);
const sizes = arg("--sizes", "1142,10000").split(",").map(Number);
// The models whose quality is measured (the default's rows first).
const models = arg("--models", Object.keys(MODELS).join(",")).split(",");
for (const m of models) if (!MODELS[m]) throw new Error(`--models: unknown model ${m}`);
const QUESTIONS = JSON.parse(readFileSync(path.join(ROOT, "bench/corpus/search-questions.json"), "utf8")).questions;
const NONE = JSON.parse(readFileSync(path.join(ROOT, "bench/corpus/search-none.json"), "utf8")).questions;
const STOP = new Set(["the", "and", "for", "how", "what", "does", "with", "from", "that", "this", "our", "can", "who", "are", "into", "one", "its", "all", "use", "get", "put", "when", "which", "about", "before", "after", "over", "only", "some", "each", "every", "have", "has", "not", "but", "own", "out", "new", "old", "say", "says", "let", "give", "want", "need", "should", "would", "could", "there", "their", "them", "they", "way", "many", "same", "other", "back", "site", "page", "pages", "docs", "documentation"]);

// grep over / names files //a.md, as just-bash's grep does.
const page = (p) => p.replace(/^\/+/, "/").replace(/^\/(fr|es|zh)\//, "/");
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

// `--misses METHOD`: each question that METHOD does not answer first, with its answers and
// the pages it put first (on stderr), to see what a change to the ranking should fix.
const MISSES = arg("--misses", null);

/** Scores a method: `rank(question)` → paths, best first. */
async function score(rank, method) {
  const positions = [];
  for (const [i, { question, answers, kind }] of QUESTIONS.entries()) {
    const want = new Set(answers.map(page));
    const ranked = (await rank(question)).slice(0, 10).map(page);
    const at = ranked.findIndex((p) => want.has(p));
    positions.push({ kind, at });
    if (method === MISSES && at !== 0) process.stderr.write(`miss ${i} (${i % 2 ? "odd" : "even"}, at ${at}): ${question}\n  answers: ${[...want].join(" ")}\n  ranked: ${ranked.slice(0, 3).join(" ")}\n`);
  }
  const metrics = (ps) => ({
    hit1: ps.filter((p) => p.at === 0).length / ps.length,
    hit5: ps.filter((p) => p.at >= 0 && p.at < 5).length / ps.length,
    mrr: ps.reduce((s, p) => s + (p.at >= 0 ? 1 / (p.at + 1) : 0), 0) / ps.length,
  });
  const byKind = {};
  for (const k of new Set(positions.map((p) => p.kind))) byKind[k] = metrics(positions.filter((p) => p.kind === k));
  let none = 0;
  for (const { question } of NONE) none += (await rank(question)).length === 0 ? 1 : 0;
  return { ...metrics(positions), byKind, none: none / NONE.length };
}

/**
 * Whether collection `collection` at `url` already holds `files` pages embedded by `embed`'s
 * model: only on a server given with --url (a new one is empty), whose collections this
 * script wrote once and never writes again (writing a collection again is what leaves
 * records a query cannot reach; support/settled.mjs checks that none is).
 */
async function ingested(url, collection, embed, files) {
  const fs = await ChromaFs.connect({ url, collection, embed }).catch(() => null);
  const stored = fs?.info().embedding;
  return stored?.model === embed.model && stored?.method === embed.method && fs.info().files === files;
}

/** Each collection measured: its chunks, and those Chroma's index does not reach (support/settled.mjs). */
const reached = {};
const reachedText = (names) =>
  names.filter((n) => reached[n]).map((n) => `${n}: ${reached[n].unreachable} of ${reached[n].chunks.toLocaleString("en-US")}`).join("; ");

/** The collection `name`'s pages are embedded into with `model` (one a model). */
const collectionOf = (name, model) => (model === MODEL ? name : `${name}-${model}`);

async function quality(url, base, model) {
  const embed = await createEmbedder({ model });
  const collection = collectionOf("quality", model);
  if (!(await ingested(url, collection, embed, base.length))) {
    const t = performance.now();
    process.stderr.write(`embedding ${base.length} pages with ${model}…\n`);
    // As `chromafs ingest --embed` does: the model on every core.
    const pooled = await createEmbedder({ model, threads: "auto" });
    let chunks = 0;
    const counted = { ...pooled, embed: (texts) => ((chunks += texts.length), pooled.embed(texts)) };
    await ingest({ url, collection, files: base, embed: counted }).finally(() => pooled.close());
    const s = (performance.now() - t) / 1000;
    process.stderr.write(`ingested in ${(s / 60).toFixed(1)} min: ${chunks} chunks embedded, ${(chunks / s).toFixed(1)} chunks/s on ${pooled.threads} threads\n`);
  }
  reached[collection] = await settled(url, collection);
  const fs = await ChromaFs.connect({ url, collection, embed });
  if (model !== MODEL) {
    // Words alone rank the same whatever the model: only what the model changes.
    const dense = async (q) => (await fs.search(q, { k: 10, mode: "dense" })).map((h) => h.path);
    const hybrid = async (q) => (await fs.search(q, { k: 10 })).map((h) => h.path);
    return [{ method: `dense, ${model}`, ...(await score(dense)) }, { method: `hybrid, ${model}`, ...(await score(hybrid)) }];
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
  for (const [name, rank] of Object.entries(methods)) rows.push({ method: name, ...(await score(rank, name)) });
  return rows;
}

/** A deterministic 32-dimension vector, the shape of ingest's built-in embedding. */
const vector32 = (text) => {
  const v = Array.from({ length: 32 }, (_, i) => Math.sin((text.length + 1) * (i + 1)));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/**
 * What the store alone takes: the nearest-chunk queries the timed searches sent, each sent
 * again straight to Chroma as the session sent it (with its access filter; p50 over the
 * questions, three runs each); and the last one without any filter and with a filter that
 * admits one page's chunks (what a filter costs with few records to admit; p50 of 20 each).
 */
async function storeFloor(url, logged) {
  const queries = logged.filter((r) => r.url.endsWith("/query") && r.body);
  const query = queries.at(-1);
  if (!query) return {};
  const body = JSON.parse(query.body);
  const post = async (u, b) => (await fetch(`${url}${u}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) })).json();
  const time = async (b, runs = 20) => +(await medianMs(runs, () => post(query.url, b))).toFixed(1);
  const { where, ...unfiltered } = body;
  const answer = await post(query.url, body);
  const onePage = { ...unfiltered, where: { page_slug: answer.metadatas[0][0].page_slug } };
  const each = [];
  for (const q of queries) each.push(await time(JSON.parse(q.body), 3));
  return {
    queryWithAccessMs: +percentile(each, 50).toFixed(1), queryUnfilteredMs: await time(unfiltered), queryOnePageMs: await time(onePage),
    accessFilter: JSON.stringify(where),
  };
}

async function latency(url, base, size) {
  const { files, access } = size === base.length ? { files: base, access: {} } : syntheticCorpus(base, { pages: size });
  const collection = `latency-${size}`;
  await ingest({ url, collection, files, access });
  const rows = [];
  for (const latencyMs of [0, 40]) {
    const cloud = await startProxy(url, { quotas: true, latencyMs, keepBodies: true });
    try {
      const connect = () => ChromaFs.connect({ url: cloud.url, collection, embed: async (t) => t.map(vector32) });
      // One untimed pass in another session first: Chroma's first answers after a write are slower.
      const warm = await connect();
      for (const { question } of QUESTIONS) await warm.search(question, { k: 10 });
      const fs = await connect();
      const timed = cloud.requests.length;
      const times = [], requests = [], chroma = [];
      for (const { question } of QUESTIONS) {
        const before = fs.stats().requests;
        const logged = cloud.requests.length;
        const t = performance.now();
        await fs.search(question, { k: 10 });
        times.push(performance.now() - t);
        requests.push(fs.stats().requests - before);
        // Requests go out together: the slowest answer, as the proxy timed it, is Chroma's part.
        chroma.push(Math.max(0, ...cloud.requests.slice(logged).map((r) => r.ms)));
      }
      rows.push({
        pages: size, addedLatencyMs: latencyMs, p50Ms: +percentile(times, 50).toFixed(1), p95Ms: +percentile(times, 95).toFixed(1),
        chromaP50Ms: +percentile(chroma, 50).toFixed(1),
        maxRequests: Math.max(...requests), meanRequests: +(requests.reduce((a, b) => a + b, 0) / requests.length).toFixed(2),
        quotaViolations: cloud.violations.length,
        ...(latencyMs ? {} : await storeFloor(url, cloud.requests.slice(timed))),
      });
    } finally {
      await cloud.close();
    }
  }
  return rows;
}

const MULTILINGUAL = JSON.parse(readFileSync(path.join(ROOT, "bench/corpus/search-questions-multilingual.json"), "utf8"));

/** hit@1 and hit@5 of each method over the multilingual set, overall and by language. */
async function languages(url, model) {
  const embed = await createEmbedder({ model });
  const files = Object.entries(MULTILINGUAL.pages).map(([p, content]) => ({ path: p, content }));
  const collection = collectionOf("languages", model);
  if (!(await ingested(url, collection, embed, files.length))) await ingest({ url, collection, files, embed });
  reached[collection] = await settled(url, collection);
  const fs = await ChromaFs.connect({ url, collection, embed });
  const named = (method) => (model === MODEL ? method : `${method}, ${model}`);
  const methods = {
    ...(model === MODEL ? { lexical: (q) => fs.search(q.question, { k: 10, mode: "lexical" }) } : {}),
    [named("dense")]: (q) => fs.search(q.question, { k: 10, mode: "dense" }),
    [named("hybrid")]: (q) => fs.search(q.question, { k: 10 }),
    [named("hybrid, lang named")]: (q) => fs.search(q.question, { k: 10, lang: q.lang }),
  };
  const langs = [...new Set(MULTILINGUAL.questions.map((q) => q.lang))];
  const rows = [];
  for (const [method, rank] of Object.entries(methods)) {
    const at = [];
    for (const q of MULTILINGUAL.questions) at.push({ lang: q.lang, at: (await rank(q)).map((h) => h.path).indexOf(`/${q.answer}`) });
    const hit = (xs, n) => xs.filter((x) => x.at >= 0 && x.at < n).length / xs.length;
    rows.push({ method, hit1: hit(at, 1), hit5: hit(at, 5), byLang: Object.fromEntries(langs.map((l) => [l, hit(at.filter((x) => x.lang === l), 5)])) });
  }
  return { rows, langs };
}

// A new data directory, removed at the end (see the comment at the top); or a Chroma the
// caller started (--url), to measure two builds on the same collections.
const given = arg("--url", "");
const chroma = given ? { url: given, stop: () => {} } : await startOwnChroma("quality");
try {
  if (!args.includes("--skip-languages")) {
    const run = startResult("search-languages", {
      command: commandLine(),
      settings: { questions: `${MULTILINGUAL.questions.length}, five in each of fr, es, ja, ko, zh`, pages: `${Object.keys(MULTILINGUAL.pages).length}: ten in six languages`, model: `${models.join(" and ")}, the pages embedded by \`ingest --embed\``, ranks: "the first 10; the answer is the page in the question's language" },
    });
    const rows = [];
    let langs;
    for (const model of models) {
      const found = await languages(chroma.url, model);
      rows.push(...found.rows);
      langs = found.langs;
    }
    const f = (x) => x.toFixed(2);
    run.result.settings.unreachable = `chunks a query with their own embedding does not find (support/settled.mjs): ${reachedText(models.map((m) => collectionOf("languages", m)))}`;
    run.table("languages", ["method", "hit@1:", "hit@5:", `hit@5 by language (${langs.join(", ")})`], rows.map((r) => [r.method, f(r.hit1), f(r.hit5), langs.map((l) => f(r.byLang[l])).join(", ")]));
    for (const r of rows) run.fact(r.method, { hit1: +f(r.hit1), hit5: +f(r.hit5) });
    run.save();
  }
  const skipCorpus = args.includes("--skip-quality") && args.includes("--skip-latency");
  const base = skipCorpus ? [] : await readCorpus(existsSync(CORPUS) ? CORPUS : (() => { throw new Error(`${CORPUS} is missing`); })());
  if (!args.includes("--skip-quality")) {
    const run = startResult("search-quality", {
      command: commandLine(),
      settings: { questions: `${QUESTIONS.length}, and ${NONE.length} that no page answers`, model: `${models.join(" and ")}, the corpus embedded by \`ingest --embed\``, ranks: "the first 10; a page's translations count as the page", options: "defaults, k 10" },
    });
    const rows = [];
    for (const model of models) rows.push(...(await quality(chroma.url, base, model)));
    const f = (x) => x.toFixed(2);
    const kinds = Object.keys(rows[0].byKind);
    const count = (k) => QUESTIONS.filter((q) => q.kind === k).length;
    const names = { grep: "grep (the question's rarest word, `grep -rli`)", lexical: 'lexical (`mode: "lexical"`)', dense: 'dense (`mode: "dense"`)', hybrid: "hybrid (the default)" };
    const named = (method) => names[method] ?? method;
    run.result.settings.unreachable = `chunks a query with their own embedding does not find (support/settled.mjs): ${reachedText(models.map((m) => collectionOf("quality", m)))}`;
    run.table(
      "quality",
      ["method", "hit@1:", "hit@5:", "MRR:", `hit@5 by kind (${kinds.map((k) => `${k} ${count(k)}`).join(", ")})`, `no page, for the ${NONE.length} questions no page answers:`],
      rows.map((r) => [named(r.method), f(r.hit1), f(r.hit5), f(r.mrr), kinds.map((k) => f(r.byKind[k].hit5)).join(", "), f(r.none)]),
    );
    for (const r of rows) run.fact(r.method, { hit1: +f(r.hit1), hit5: +f(r.hit5), mrr: +f(r.mrr), none: +f(r.none) });
    run.save();
  }
  if (!args.includes("--skip-latency")) {
    const run = startResult("search-latency", {
      command: `node bench/search-quality.mjs --skip-quality --sizes ${sizes.join(",")}`,
      settings: { searches: `the ${QUESTIONS.length} questions, k 10, default options, the query's vector given (the embedder excluded)`, proxy: "Chroma Cloud's quotas, loopback and 40 ms added per request", runs: "1 a question" },
    });
    const rows = [];
    for (const size of sizes) rows.push(...(await latency(chroma.url, base, size)));
    run.table(
      "latency",
      ["pages:", "added per request:", "p50:", "p95:", "Chroma's answer, p50 (with the latency added):", "requests (max / mean):", "quota violations:"],
      rows.map((r) => [r.pages.toLocaleString("en-US"), `${r.addedLatencyMs} ms`, `${Math.round(r.p50Ms).toLocaleString("en-US")} ms`, `${Math.round(r.p95Ms).toLocaleString("en-US")} ms`, `${Math.round(r.chromaP50Ms)} ms`, `${r.maxRequests} / ${r.meanRequests}`, r.quotaViolations]),
    );
    for (const r of rows) run.fact(`${r.pages} ${r.addedLatencyMs}`, r);
    run.table(
      "store",
      ["pages:", "the searches' nearest-chunk queries sent straight to Chroma, p50: with the session's access filter:", "the last one without a filter:", "with a filter admitting one page:", "the access filter"],
      rows.filter((r) => r.queryWithAccessMs !== undefined).map((r) => [r.pages.toLocaleString("en-US"), `${Math.round(r.queryWithAccessMs)} ms`, `${Math.round(r.queryUnfilteredMs)} ms`, `${Math.round(r.queryOnePageMs)} ms`, `\`${r.accessFilter}\``]),
    );
    run.save();
  }
} finally {
  chroma.stop();
}
