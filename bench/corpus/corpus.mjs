// Deterministic synthetic documentation sets for benchmarks, derived at run time from
// the real corpus (its text never lives in this repository):
//   node bench/corpus/corpus.mjs --pages 10000 [--tiny] [--seed N] [--private F] [--corpus DIR] [--access FILE] --out DIR
// Copy k of the base corpus lives under vNNN/; later copies are perturbed word by word
// (never across lines) so that no two copies are byte-identical. CHROMAFS_CORPUS overrides
// the default corpus location.
import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readDocs } from "../../support/files.mjs";
import { rng as prng } from "../../support/generated-corpus.mjs";

export const DEFAULT_CORPUS =
  process.env.CHROMAFS_CORPUS ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../shared/corpus/mintlify-docs");

// Fixed epoch so mtimes do not depend on when the corpus was checked out.
const EPOCH = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;
const TINY_LINES = 3;

// ---------------------------------------------------------------------------------------
// Reading and writing

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isUtf8(buf) {
  try {
    utf8.decode(buf);
    return true;
  } catch {
    return false;
  }
}

/** Every regular UTF-8 file below `dir`: `[{ path: "a/b.mdx", content: Buffer, mtime }]`, sorted by path. */
export async function readCorpus(dir) {
  return (await readDocs(dir)).filter((f) => isUtf8(f.content));
}

/** Writes `files` below `dir` with their mtimes, a bounded number at a time. */
export async function writeCorpus(files, dir, { concurrency = 64 } = {}) {
  const dirs = new Set(files.map((f) => path.dirname(path.join(dir, f.path))));
  // Parents sort before children, so each mkdir finds its parent already made.
  for (const d of [...dirs].sort()) await mkdir(d, { recursive: true });
  let next = 0;
  async function worker() {
    while (next < files.length) {
      const f = files[next++];
      const full = path.join(dir, f.path);
      await writeFile(full, f.content);
      const t = new Date(f.mtime);
      await utimes(full, t, t);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
}

// ---------------------------------------------------------------------------------------
// Determinism helpers

/** FNV-1a over the parts, so each (seed, copy, page) gets its own independent stream. */
function hash(...parts) {
  let h = 0x811c9dc5;
  for (const ch of parts.join("\u0000")) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const copyDir = (k) => `v${String(k).padStart(3, "0")}`;

// ---------------------------------------------------------------------------------------
// Perturbation

// Pairs swap both ways; all are plain English words common in the corpus.
const SYNONYM_PAIRS = [
  ["use", "utilize"], ["create", "build"], ["change", "modify"], ["show", "display"], ["start", "begin"],
  ["help", "assist"], ["simple", "easy"], ["choose", "select"], ["need", "require"], ["allow", "permit"],
  ["get", "obtain"], ["page", "document"], ["quick", "fast"], ["add", "include"], ["set", "configure"],
];
const capitalize = (w) => w[0].toUpperCase() + w.slice(1);
// Lowercase and Capitalized forms; ALL CAPS and odd casings stay as they are.
const SYNONYMS = new Map(
  SYNONYM_PAIRS.flatMap(([a, b]) => [[a, b], [b, a], [capitalize(a), capitalize(b)], [capitalize(b), capitalize(a)]]),
);

// Rare and common brand words must keep their frequencies, so they are never touched.
const PROTECTED = /hubspot|mintlify/i;
// Only tokens that may change are matched, which keeps 50k full pages fast: whole numbers,
// synonym-list words, and camelCase/snake_case identifiers starting lowercase (PascalCase
// is left alone so MDX component tags like <Card>…</Card> keep matching pairs).
const CANDIDATE = new RegExp(
  `\\b(?:([0-9]+)|(${[...SYNONYMS.keys()].sort((a, b) => b.length - a.length).join("|")})|([a-z][a-z0-9]*[A-Z_][A-Za-z0-9_]*))\\b`,
  "g",
);
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const TOKEN = /[\p{L}\p{N}_]+/gu;
const ASCII_WORD = /^[A-Za-z][A-Za-z0-9_]*$/;

const P_SYNONYM = 0.5;
const P_IDENTIFIER = 0.3;
const P_NUMBER = 0.15;

/** `\b` is ASCII-only: a match touching a non-ASCII letter is part of a larger word. */
function wholeToken(text, start, end) {
  const before = text.charCodeAt(start - 1);
  const after = text.charCodeAt(end);
  return !(before > 127 && WORD_CHAR.test(text[start - 1])) && !(after > 127 && WORD_CHAR.test(text[end]));
}

/**
 * Rewrites some ASCII tokens of `text` for copy `k`: synonyms, identifiers with `k`
 * appended, numbers with their last digit shifted (keeping their length and never adding a
 * leading zero, so JSON stays JSON). Only word characters change, so lines stay lines.
 * A page with nothing picked still gets its last eligible word suffixed, so it differs.
 */
function perturb(text, k, rand) {
  let changed = false;
  const out = text.replace(CANDIDATE, (tok, num, word, ident, offset) => {
    if (!wholeToken(text, offset, offset + tok.length)) return tok;
    if (num !== undefined) {
      if (rand() >= P_NUMBER) return tok;
      // The shift is never a multiple of 10, so every copy really changes the digit.
      const next = tok.slice(0, -1) + ((Number(tok[tok.length - 1]) + 1 + ((k - 1) % 9)) % 10);
      changed ||= next !== tok;
      return next;
    }
    if (word !== undefined) {
      if (rand() >= P_SYNONYM) return tok;
      changed = true;
      return SYNONYMS.get(tok);
    }
    if (PROTECTED.test(ident) || rand() >= P_IDENTIFIER) return tok;
    changed = true;
    return tok + k;
  });
  return changed ? out : suffixLastWord(text, k);
}

/** Appends `k` to the last ASCII word that is not a protected name (if there is one). */
function suffixLastWord(text, k) {
  let last = null;
  for (const m of text.matchAll(TOKEN)) {
    if (ASCII_WORD.test(m[0]) && !PROTECTED.test(m[0])) last = m;
  }
  if (!last) return text;
  const end = last.index + last[0].length;
  return text.slice(0, end) + k + text.slice(end);
}

/** The first `n` lines of `buf`, newlines included. */
function firstLines(buf, n) {
  let end = -1;
  for (let i = 0; i < n; i++) {
    end = buf.indexOf(10, end + 1);
    if (end < 0) return buf;
  }
  return buf.subarray(0, end + 1);
}

// ---------------------------------------------------------------------------------------
// Access rules

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const globCache = new Map();

/** Glob → RegExp with the ingest's semantics: `*`/`?` within a segment, `**` across any number of them. */
function globRegExp(glob) {
  let re = globCache.get(glob);
  if (re) return re;
  let src = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") i++;
      // At the end `**` takes the rest; before more pattern (`**/x`, `**x`) it takes
      // nothing or any prefix ending at a `/`.
      src += i + 1 === glob.length ? ".*" : "(?:.*/)?";
    } else if (c === "*") src += "[^/]*";
    else if (c === "?") src += "[^/]";
    else src += escapeRegExp(c);
  }
  re = new RegExp(`^${src}$`, "su");
  globCache.set(glob, re);
  return re;
}

/** Whether a docs-root-relative path (no leading `/`) matches an access-rule glob. */
export function globMatch(glob, p) {
  return globRegExp(glob).test(p);
}

/**
 * A predicate telling whether a session with `groups` sees a path: the last matching rule
 * wins, no rule means public, and a private page needs one of its groups.
 */
export function visibleTo(access, groups) {
  const rules = Object.entries(access).map(([glob, rule]) => ({ re: globRegExp(glob), rule })).reverse();
  const mine = new Set(groups);
  return (p) => {
    const rel = p.replace(/^\/+/, "");
    const hit = rules.find((r) => r.re.test(rel));
    if (!hit) return true;
    if (hit.rule.isPublic) return true;
    return (hit.rule.groups ?? []).some((g) => mine.has(g));
  };
}

/**
 * The tree entry another tool writes for page `f` under `access`: public where a public
 * session sees it, else for a group (`support/other-tool.mjs`'s `entry`).
 */
export function otherToolEntry(access) {
  const visible = visibleTo(access, []);
  return (f) => (visible(f.path) ? { isPublic: true } : { isPublic: false, groups: ["staff"] });
}

const LANGUAGE = /^[a-z]{2}(?:-[A-Z]{2})?$/;
const ROLES = ["admin", "beta", "partners", "support"];
const role = (dir) => (/api/i.test(dir) ? "admin" : ROLES[hash(dir) % ROLES.length]);

/**
 * Candidate private units for copy `k`: whole top-level directories, language trees and
 * their subdirectories, and the top-level OpenAPI specs. Groups depend on the directory
 * name only, so the same section gets the same audience in every copy.
 */
function unitsFor(base, k) {
  const units = new Map();
  const add = (glob, groups) => units.has(glob) || units.set(glob, groups);
  const v = copyDir(k);
  for (const { path: p } of base) {
    const parts = p.split("/");
    if (parts.length === 1) {
      if (p.endsWith(".json")) add(`${v}/*.json`, ["admin"]);
      continue;
    }
    const [top, sub] = parts;
    if (!LANGUAGE.test(top)) {
      add(`${v}/${top}/**`, [role(top)]);
      continue;
    }
    add(`${v}/${top}/**`, [top]);
    if (parts.length === 2) {
      if (sub.endsWith(".json")) add(`${v}/${top}/*.json`, [top, "admin"]);
    } else add(`${v}/${top}/${sub}/**`, [top, role(sub)]);
  }
  return [...units].map(([glob, groups]) => ({ glob, groups }));
}

/**
 * Picks units in a seeded order, keeping each one that does not push the private count
 * past the target, so the result lands on (or very near) `fraction` of the pages.
 * Rules are emitted broad-first, as a person would write them.
 */
function chooseAccess(files, base, copies, fraction, seed) {
  const target = Math.round(fraction * files.length);
  const rand = prng(hash("access", seed));
  const units = [];
  for (let k = 1; k <= copies; k++) units.push(...unitsFor(base, k));
  // Fisher-Yates with the seeded stream.
  for (let i = units.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [units[i], units[j]] = [units[j], units[i]];
  }
  const byCopy = new Map();
  for (const f of files) {
    const v = f.path.slice(0, f.path.indexOf("/"));
    if (!byCopy.has(v)) byCopy.set(v, []);
    byCopy.get(v).push(f.path);
  }
  const hidden = new Set();
  const chosen = [];
  for (const u of units) {
    if (hidden.size >= target) break;
    const re = globRegExp(u.glob);
    const fresh = byCopy.get(u.glob.slice(0, u.glob.indexOf("/"))).filter((p) => !hidden.has(p) && re.test(p));
    if (fresh.length === 0 || hidden.size + fresh.length > target) continue;
    for (const p of fresh) hidden.add(p);
    chosen.push(u);
  }
  // All rules are private, so ordering changes only which groups a nested page gets.
  chosen.sort((a, b) => a.glob.split("/").length - b.glob.split("/").length || (a.glob < b.glob ? -1 : 1));
  return Object.fromEntries(chosen.map((u) => [u.glob, { isPublic: false, groups: u.groups }]));
}

// ---------------------------------------------------------------------------------------
// The synthetic set

/**
 * `pages` pages: copy k of `base` under vNNN/ (the last copy partial), v001 verbatim and
 * later copies perturbed, plus access rules hiding about `privateFraction` of them.
 */
export function syntheticCorpus(base, { pages, privateFraction = 0.05, seed = 1, tiny = false }) {
  if (!Number.isInteger(pages) || pages < 0) throw new Error(`pages must be a non-negative integer, got ${pages}`);
  if (base.length === 0 && pages > 0) throw new Error("the base corpus is empty");
  const texts = base.map((f) => (tiny ? firstLines(f.content, TINY_LINES) : f.content));
  const files = [];
  for (let i = 0; i < pages; i++) {
    const k = Math.floor(i / base.length) + 1;
    const b = base[i % base.length];
    const src = texts[i % base.length];
    const content = k === 1 ? Buffer.from(src) : Buffer.from(perturb(src.toString("utf8"), k, prng(hash(seed, k, b.path))), "utf8");
    // Whole seconds, so the times survive a round trip through the filesystem.
    const mtime = EPOCH + (k - 1) * DAY + (hash(b.path) % 86_400) * 1000;
    files.push({ path: `${copyDir(k)}/${b.path}`, content, mtime });
  }
  const copies = base.length ? Math.ceil(pages / base.length) : 0;
  return { files, access: chooseAccess(files, base, copies, privateFraction, seed) };
}

// ---------------------------------------------------------------------------------------
// CLI

function parseArgs(argv) {
  const opts = { pages: NaN, tiny: false, seed: 1, privateFraction: 0.05, corpus: DEFAULT_CORPUS, out: null, access: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--pages") opts.pages = Number(val());
    else if (a === "--tiny") opts.tiny = true;
    else if (a === "--seed") opts.seed = Number(val());
    else if (a === "--private") opts.privateFraction = Number(val());
    else if (a === "--corpus") opts.corpus = val();
    else if (a === "--out") opts.out = val();
    else if (a === "--access") opts.access = val();
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.pages) || opts.pages <= 0 || !opts.out) {
    throw new Error("usage: node bench/corpus/corpus.mjs --pages N [--tiny] [--seed N] [--private F] [--corpus DIR] [--access FILE] --out DIR");
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const base = await readCorpus(opts.corpus);
  const { files, access } = syntheticCorpus(base, opts);
  await writeCorpus(files, opts.out);
  // Rules go beside the pages, not among them, so tools run over DIR see only pages.
  if (opts.access) await writeFile(opts.access, `${JSON.stringify(access, null, 2)}\n`);
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const visible = visibleTo(access, []);
  const hidden = files.filter((f) => !visible(f.path)).length;
  console.log(`${files.length} pages, ${bytes} bytes, ${hidden} private (${Object.keys(access).length} rules) → ${opts.out}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
