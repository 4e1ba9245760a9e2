// A hidden page changes no rank of a hybrid search, with the built-in model on a real
// Chroma: two collections hold the same public pages, and one of them also hidden pages
// written in the questions' words, each as near to a question as a public page. Chroma's
// nearest-neighbour index is built over every record, hidden ones too, by several threads
// at once; what a public session is shown may depend on neither.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { createEmbedder } from "chromafs/embed";
import { chromaUrl, rng } from "../helpers.mjs";

const TOPICS = [
  { things: ["API key", "access token", "secret", "credential"], acts: ["rotate", "revoke", "renew", "copy"], where: "Settings" },
  { things: ["invoice", "payment card", "refund", "receipt"], acts: ["download", "update", "request", "change"], where: "Billing" },
  { things: ["preview branch", "custom domain", "redirect", "build cache"], acts: ["deploy", "connect", "add", "clear"], where: "Deployments" },
  { things: ["font", "color palette", "logo", "sidebar"], acts: ["change", "upload", "hide", "pick"], where: "Appearance" },
];
// A question for every thing of every topic, and one the help pages answer.
const QUESTIONS = [...TOPICS.flatMap((t, i) => t.things.map((thing, j) => `how do I ${t.acts[(i + j) % 4]} the ${thing}`)), "where do I get help"];
const HELP = "Need help? Contact support from the dashboard, or ask in the community forum.\n";

/** `n` pages under `dir`, each a few sentences on one topic, picked with `seed`. */
function pages(dir, n, seed) {
  const random = rng(seed);
  const pick = (a) => a[Math.floor(random() * a.length)];
  return Array.from({ length: n }, (_, i) => {
    const t = TOPICS[i % TOPICS.length];
    const lines = Array.from({ length: 2 }, () => `To ${pick(t.acts)} the ${pick(t.things)}, open ${t.where} and choose ${pick(t.acts)}.`);
    return { path: `${dir}/${String(i).padStart(3, "0")}.md`, content: `# ${pick(t.things)}\n\n${lines.join("\n")}\n` };
  });
}

// 280 public pages, 200 of them the same text (equal vectors at equal distances: more
// than the index's walk keeps, so which of them it keeps is up to the walk), and hidden
// pages on the same topics, the same text among them.
const copies = (dir, n) => Array.from({ length: n }, (_, i) => ({ path: `${dir}/${String(i).padStart(3, "0")}.md`, content: HELP }));
const PUBLIC = [...pages("guides", 80, 5), ...copies("help", 200)];
const HIDDEN = [...pages("internal", 40, 6), ...copies("internal/help", 100)];

let embedder;
before(async () => {
  embedder = await createEmbedder();
  await ingest({ url: chromaUrl(), collection: "hidden-ranks-public", files: PUBLIC, embed: embedder });
  const access = { "internal/**": { isPublic: false, groups: ["staff"] } };
  await ingest({ url: chromaUrl(), collection: "hidden-ranks-both", files: [...PUBLIC, ...HIDDEN], access, embed: embedder });
});

/** What a session of `collection` is shown for every question, and what each search sent. */
async function shown(collection, groups = []) {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection, groups, embed: embedder });
  const out = [];
  for (const q of QUESTIONS) {
    for (const options of [{ k: 10 }, { k: 5, mode: "dense" }]) {
      const before = fs.stats().requests;
      const hits = await fs.search(q, options);
      out.push({ q, options, hits, requests: fs.stats().requests - before });
    }
  }
  return out;
}

test("a hybrid search shows the public pages alike whatever hidden pages a collection holds", async () => {
  const [alone, beside] = [await shown("hidden-ranks-public"), await shown("hidden-ranks-both")];
  for (const [i, a] of alone.entries()) {
    assert.ok(a.hits.length > 0, `${a.q}: a public page answers`);
    assert.deepEqual(beside[i], a, `${a.q} ${JSON.stringify(a.options)}: the same pages, lines and scores, for the same requests`);
  }
  // The pages of one text tie, and rank by path.
  const help = alone.find((a) => a.q === "where do I get help" && a.options.mode === "dense").hits.map((h) => h.path);
  assert.deepEqual(help, ["/help/000.md", "/help/001.md", "/help/002.md", "/help/003.md", "/help/004.md"]);
  const staff = await shown("hidden-ranks-both", ["staff"]);
  assert.ok(staff.some((s) => s.hits.some((h) => h.path.startsWith("/internal/"))), "the hidden pages do answer the questions");
});
