// When no page answers: a ranked search of nonsense or of a question the docs do not cover
// shows no page — `fs.search()` an empty list, the command nothing on stdout, its message on
// stderr and exit 1, with the built-in model and without, and in the words-only ranking of
// a collection another tool wrote — and a hidden page never turns "none" into an answer nor
// changes a title. Each hit carries its page's title. On a real Chroma.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ChromaFs, ingest } from "chromafs";
import { createEmbedder } from "chromafs/embed";
import { ROOT, chromaUrl, newBash, run, show } from "../helpers.mjs";

const PAGES = {
  "index.md": "---\ntitle: Acme docs\ndescription: Start here\n---\n\nStart here. Rotate an API key from the dashboard.\n",
  "guides/keys.md": "# API keys\n\nCreate a key.\n\nTo rotate an API key, open Settings and choose Rotate.\nOld keys stop working at once.\n",
  "guides/errors.md": "# Errors\n\nE4012 means the token expired.\nRetry with a fresh token.\n",
  "guides/theme.md": "# Theme\n\nPick the colors and fonts of your site.\n",
  "deploy/domains.md": "# Custom domains\n\nPoint your domain's CNAME record at the docs host, then verify it in the dashboard.\n",
};
// A hidden page that holds the nonsense words and would be titled as a public page is.
const HIDDEN = { "internal/zzqxv.md": "# Errors\n\nzzqxv nonexistentword: the internal code for a knead of sourdough bread dough.\n" };
const ACCESS = { "internal/**": { isPublic: false, groups: ["staff"] } };
const NONE = ["zzqxv nonexistentword", "how long should I knead sourdough bread dough before it rises", "qqqq wwww eeee rrrr"];
const NO_ANSWER = "search: no page answers the query\n";

const files = (pages) => Object.entries(pages).map(([p, content]) => ({ path: p, content }));
let embed;
before(async () => {
  embed = await createEmbedder();
  await ingest({ url: chromaUrl(), collection: "answers-public", files: files(PAGES), embed });
  await ingest({ url: chromaUrl(), collection: "answers-both", files: files({ ...PAGES, ...HIDDEN }), access: ACCESS, embed });
});

const connect = (collection, extra = {}) => ChromaFs.connect({ url: chromaUrl(), collection, ...extra });

test("nonsense and questions the docs do not cover: no page, with the built-in model and without", async () => {
  for (const extra of [{ embed }, {}]) {
    const fs = await connect("answers-public", extra);
    const bash = newBash(fs, { customCommands: fs.commands() });
    for (const q of NONE) {
      assert.deepEqual(await fs.search(q), [], `${q} ${extra.embed ? "hybrid" : "words"}`);
      const r = await run(bash, `search ${q}`);
      assert.deepEqual([r.stdout, r.stderr, r.exitCode], ["", NO_ANSWER, 1], show(r));
      assert.equal((await run(bash, `search --json -l ${q}`)).exitCode, 1);
    }
    for (const [q, first] of [["how do I rotate an API key", "/guides/keys.md"], ["what does E4012 mean", "/guides/errors.md"]]) {
      const r = await run(bash, `search -n 2 ${q}`);
      assert.equal(r.exitCode, 0, show(r));
      assert.equal(r.stdout.split("\n")[0].split(":")[0], first, show(r));
    }
  }
  const dense = await connect("answers-public", { embed });
  assert.deepEqual(await dense.search(NONE[1], { mode: "dense" }), [], "meaning alone: none near enough");
});

test("each hit carries its page's title: front matter's title, else its first heading", async () => {
  const fs = await connect("answers-public", { embed });
  const hits = await fs.search("rotate an API key from the dashboard", { k: 5 });
  const titles = Object.fromEntries(hits.map((h) => [h.path, h.title]));
  assert.equal(titles["/index.md"], "Acme docs");
  assert.equal(titles["/guides/keys.md"], "API keys");
  const bash = newBash(fs, { customCommands: fs.commands() });
  const r = await run(bash, "search -n 1 rotate an API key");
  assert.match(r.stdout, /^\/guides\/keys\.md:\d+-\d+\n {2}title: API keys\n {2}\d+: /, show(r));
});

test("a hidden page turns no 'none' into an answer and changes no title or count", async () => {
  for (const extra of [{ embed }, {}]) {
    const alone = await connect("answers-public", extra);
    const beside = await connect("answers-both", extra);
    for (const q of [...NONE, "API keys errors", "rotate an API key", "E4012 errors"]) {
      assert.deepEqual(await beside.search(q, { k: 10 }), await alone.search(q, { k: 10 }), q);
    }
    const staff = await connect("answers-both", { groups: ["staff"], ...extra });
    assert.equal((await staff.search(NONE[0]))[0]?.path, "/internal/zzqxv.md", "the hidden page answers for those who see it");
  }
});

test("the words-only ranking of a collection another tool wrote says 'none' alike", async () => {
  const { writeOtherTool } = await import("../../../support/other-tool.mjs");
  const entry = (f) => (f.path.startsWith("internal/") ? { isPublic: false, groups: ["staff"] } : { isPublic: true });
  await writeOtherTool(chromaUrl(), "answers-other", files({ ...PAGES, ...HIDDEN }), { chunkLength: () => 60, entry });
  const fs = await connect("answers-other");
  const bash = newBash(fs, { customCommands: fs.commands() });
  for (const q of NONE) {
    const r = await run(bash, `search ${q}`);
    assert.deepEqual([r.stdout, r.stderr, r.exitCode], ["", NO_ANSWER, 1], `${q}\n${show(r)}`);
  }
  const hits = await fs.search("rotate an API key");
  assert.equal(hits[0].path, "/guides/keys.md");
  assert.equal(hits[0].title, "API keys", "the title read from the page itself");
  const staff = await connect("answers-other", { groups: ["staff"] });
  assert.equal((await staff.search(NONE[0]))[0]?.path, "/internal/zzqxv.md");
});

test("the CLI: no page answers, exit 1, nothing on stdout", () => {
  const bin = path.join(ROOT, "pkg/bin/chromafs.mjs");
  const r = spawnSync(process.execPath, [bin, "exec", `search ${NONE[1]}`, "--url", chromaUrl(), "--collection", "answers-public"], { encoding: "utf8", timeout: 120000 });
  assert.deepEqual([r.stdout, r.stderr, r.status], ["", NO_ANSWER, 1], r.stderr);
  const found = spawnSync(process.execPath, [bin, "exec", "search -n 1 --json rotate an API key", "--url", chromaUrl(), "--collection", "answers-public"], { encoding: "utf8", timeout: 120000 });
  assert.equal(found.status, 0, found.stderr);
  assert.equal(JSON.parse(found.stdout).title, "API keys");
});
