// Ranked search (`search`, `fs.search()`) on a real Chroma through the Cloud-quota proxy:
// what ranks first, that the lines shown hold what matched, that `--path` scopes it, that
// hidden pages never appear for any group set (generated cases, including pages that rank
// first for the groups that see them), that collections other tools wrote work, and that a
// failure is an error, never "no results".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { assertWithinQuotas, chromaUrl, cloudChroma, newBash, rng, run, show } from "../helpers.mjs";
import { chroma, startProxy } from "../../../support/proxy.mjs";

// Pages by group: each group's pages hold words no other page holds, so a query made of
// them ranks that group's pages first for a session that sees them.
const GROUPS = ["admin", "billing", "ops"];
const WORDS = ["quasar", "nebula", "pulsar", "comet", "aurora", "meteor", "zenith", "corona", "photon", "vortex"];
const PAGES = {
  "index.md": "# Welcome\n\nStart here. Rotate an API key from the dashboard.\n",
  "guides/keys.md": "# Keys\n\nCreate a key.\n\nTo rotate an API key, open Settings and choose Rotate.\nOld keys stop working at once.\n",
  "guides/errors.md": "# Errors\n\nE4012 means the token expired.\nRetry with a fresh token.\n",
  "guides/deep/theme.md": "# Theme\n\nPick colors and fonts.\n",
  "api/limits.md": "# Limits\n\nRate limits apply per key: 100 requests a minute.\n",
};
const ACCESS = {};
for (const [i, g] of GROUPS.entries()) {
  for (let j = 0; j < 3; j++) {
    const words = WORDS.slice((i * 3 + j) % WORDS.length).concat(WORDS).slice(0, 3);
    PAGES[`internal/${g}/page${j}.md`] = `# ${g} ${j}\n\n${g}only${j} ${words.join(" ")} rotate the key\n`;
  }
  ACCESS[`internal/${g}/**`] = { isPublic: false, groups: [g] };
}
const visible = (path, groups) => {
  const m = /^internal\/([^/]+)\//.exec(path);
  return !m || groups.includes(m[1]);
};

let cloud;
before(async () => {
  cloud = await cloudChroma();
  const files = Object.entries(PAGES).map(([path, text]) => ({ path, content: text }));
  await ingest({ url: chromaUrl(), collection: "ranked", files, access: ACCESS });
});
after(() => cloud.close());

const connect = (groups = [], extra = {}) => ChromaFs.connect({ url: cloud.url, collection: "ranked", groups, ...extra });

test("an exact identifier ranks its page first, with the lines that hold it", async () => {
  const fs = await connect();
  const bash = newBash(fs, { customCommands: fs.commands() });
  const r = await run(bash, "search -n 3 what does E4012 mean");
  assert.equal(r.exitCode, 0, show(r));
  const [first, title, snippet] = r.stdout.split("\n");
  assert.match(first, /^\/guides\/errors\.md:\d+-\d+$/);
  assert.equal(title, "  title: Errors", "the page's title, from its first heading");
  assert.match(snippet, /^ {2}\d+: E4012 means the token expired\.$/);
  const [, path, start, end] = /^(.+):(\d+)-(\d+)$/.exec(first);
  const shown = await run(bash, `sed -n '${start},${end}p' ${path}`);
  assert.ok(shown.stdout.includes("E4012 means the token expired."), show(shown));
  const line = snippet.trim().split(":")[0];
  assert.equal((await run(bash, `sed -n '${line}p' ${path}`)).stdout, "E4012 means the token expired.\n");
});

test("every hit's lines and snippet line point at its page's text", async () => {
  const fs = await connect(GROUPS);
  const bash = newBash(fs, { customCommands: fs.commands() });
  for (const q of ["rotate api key", "token", "rate limits", "quasar nebula", "colors fonts"]) {
    for (const hit of await fs.search(q, { k: 10 })) {
      const page = await fs.readFile(hit.path);
      const lines = page.split("\n");
      assert.ok(hit.startLine >= 1 && hit.endLine >= hit.startLine && hit.endLine <= lines.length, JSON.stringify(hit));
      const span = (await run(bash, `sed -n '${hit.startLine},${hit.endLine}p' ${hit.path}`)).stdout;
      assert.ok(span.includes(hit.snippet), `${q}: ${JSON.stringify(hit)} not in\n${span}`);
    }
  }
});

test("--path scopes the search, relative to the working directory", async () => {
  const fs = await connect();
  const bash = newBash(fs, { customCommands: fs.commands() });
  const all = await run(bash, "search -l key");
  assert.ok(all.stdout.includes("/index.md") && all.stdout.includes("/guides/keys.md"), show(all));
  const scoped = await run(bash, "cd /guides && search -l --path . key");
  assert.equal(scoped.exitCode, 0, show(scoped));
  for (const p of scoped.stdout.trim().split("\n")) assert.ok(p.startsWith("/guides/"), show(scoped));
  const deep = await fs.search("colors", { path: "deep", cwd: "/guides" });
  assert.deepEqual(deep.map((h) => h.path), ["/guides/deep/theme.md"]);
  const none = await run(bash, "search --path /api colors");
  assert.deepEqual([none.stdout, none.exitCode], ["", 1], show(none));
  assert.equal(none.stderr, "search: no page answers the query\n");
});

test("hidden pages never appear, for any group set, even where they would rank first", async () => {
  const random = rng(21);
  const sets = [[], ...GROUPS.map((g) => [g]), ["admin", "ops"], GROUPS];
  const queries = [];
  for (const [path, text] of Object.entries(PAGES)) {
    if (!path.startsWith("internal/")) continue;
    const words = text.split(/\s+/).filter((w) => /^[a-z0-9]+$/.test(w));
    queries.push(words.slice(0, 2).join(" "), words.sort(() => random() - 0.5).slice(0, 3).join(" "));
  }
  for (const groups of sets) {
    const fs = await connect(groups);
    for (const q of queries) {
      const hits = await fs.search(q, { k: 20 });
      for (const h of hits) assert.ok(visible(h.path.slice(1), groups), `${JSON.stringify(groups)} ${q}: ${h.path}`);
      const owner = Object.keys(PAGES).find((p) => p.startsWith("internal/") && q.split(" ").every((w) => PAGES[p].includes(w)));
      if (owner && visible(owner, groups)) assert.ok(hits.some((h) => h.path === `/${owner}`), `${groups} ${q}`);
    }
  }
  assertWithinQuotas(cloud);
});

test("the number shown and the scores do not depend on pages the session cannot see", async () => {
  // The same public pages in a collection without any internal page.
  const files = Object.entries(PAGES).filter(([p]) => !p.startsWith("internal/")).map(([path, text]) => ({ path, content: text }));
  await ingest({ url: chromaUrl(), collection: "ranked-public", files });
  const a = await connect([]);
  const b = await ChromaFs.connect({ url: cloud.url, collection: "ranked-public" });
  for (const q of ["rotate the key", "key", "quasar rotate", "token expired", "limits per key"]) {
    assert.deepEqual(await a.search(q, { k: 20 }), await b.search(q, { k: 20 }), q);
  }
});

test("the command's formats, its help and its usage errors", async () => {
  const fs = await connect();
  const bash = newBash(fs, { customCommands: fs.commands() });
  const json = await run(bash, "search --json -n 2 rotate key");
  const objects = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(objects.length, 2);
  assert.deepEqual(objects, await fs.search("rotate key", { k: 2 }), "the command prints what fs.search returns");
  assert.deepEqual(Object.keys(objects[0]), ["path", "startLine", "endLine", "score", "snippet", "title"]);
  assert.deepEqual(objects.map((o) => o.title), ["Keys", "Welcome"], "each page's first heading");
  assert.ok(objects[0].score >= objects[1].score);
  const help = await run(bash, "search --help");
  assert.equal(help.exitCode, 0);
  assert.match(help.stdout, /sed -n 'START,ENDp' PATH/);
  for (const [cmd, said] of [["search", /no query/], ["search -n 0 x", /invalid number/], ["search --bogus x", /unknown option/]]) {
    const r = await run(bash, cmd);
    assert.equal(r.exitCode, 2, show(r));
    assert.match(r.stderr, said);
  }
  const piped = await run(bash, "search -l rotate key | head -1");
  assert.equal(piped.stdout.split("\n").length, 2, show(piped));
});

test("each search costs at most three requests, within Chroma Cloud's quotas", async () => {
  const fs = await connect(["admin"]);
  const bash = newBash(fs, { customCommands: fs.commands() });
  for (const q of ["rotate key", "E4012", "quasar nebula pulsar comet aurora meteor zenith", "the"]) {
    const before = fs.stats().requests;
    await run(bash, `search ${q}`);
    assert.ok(fs.stats().requests - before <= 3, `${q}: ${fs.stats().requests - before} requests`);
  }
  const last = fs.stats().commands.at(-1);
  assert.equal(last.command, "search the");
  assertWithinQuotas(cloud);
});

test("an embedding function ranks by meaning beside the words; its failure is an error", async () => {
  // A deterministic stand-in for a model: one dimension per topic. The real model's
  // ranking is measured in bench/search-quality.mjs; this checks the contract.
  const topics = [["key", "token", "credential"], ["color", "font", "theme"], ["limit", "rate", "quota"]];
  const embed = async (texts) =>
    texts.map((t) => {
      const v = topics.map((words) => words.filter((w) => t.toLowerCase().includes(w)).length).concat([0.1]);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    });
  const files = Object.entries(PAGES).filter(([p]) => !p.startsWith("internal/")).map(([path, text]) => ({ path, content: text }));
  await ingest({ url: chromaUrl(), collection: "ranked-dense", files, embed });
  let calls = 0;
  const fs = await ChromaFs.connect({ url: cloud.url, collection: "ranked-dense", embed: (t) => (calls++, embed(t)) });
  const hits = await fs.search("how do I change the typeface palette? font", { k: 1 });
  assert.equal(calls, 1, "the query is embedded once");
  assert.deepEqual(hits.map((h) => h.path), ["/guides/deep/theme.md"]);
  const broken = await ChromaFs.connect({ url: cloud.url, collection: "ranked-dense", embed: async () => { throw new Error("model not loaded"); } });
  await assert.rejects(broken.search("font"), (e) => e.code === "EIO" && /model not loaded/.test(e.message));
  const bash = newBash(broken, { customCommands: broken.commands() });
  const r = await run(bash, "search font");
  assert.equal(r.exitCode, 2, show(r));
  assert.match(r.stderr, /^search: the embedding function failed: .*model not loaded/);
  const wrong = await ChromaFs.connect({ url: cloud.url, collection: "ranked-dense", embed: async (t) => t.map(() => [1, 0]) });
  const w = await run(newBash(wrong, { customCommands: wrong.commands() }), "search font");
  assert.equal(w.exitCode, 2, show(w));
  assert.match(w.stderr, /dimension/i, "a session whose embedder does not match the collection is told so");
  assertWithinQuotas(cloud);
});

test("a hostile embedding function: its text shown as one short line, a hang bounded, a Proxy harmless", async () => {
  const files = [{ path: "a.md", content: "the font is set here\n" }];
  await ingest({ url: chromaUrl(), collection: "ranked-hostile-embed", files, embed: (t) => t.map(() => [1, 0]) });
  const searchWith = async (embed, extra = {}) => {
    const fs = await ChromaFs.connect({ url: cloud.url, collection: "ranked-hostile-embed", embed, ...extra });
    return run(newBash(fs, { customCommands: fs.commands() }), "search font");
  };
  const long = await searchWith(async () => {
    throw new Error("x".repeat(200_000) + "\u001b[2J\n/forged.md:1-1\n  a forged result line");
  });
  assert.equal(long.exitCode, 2);
  assert.equal(long.stderr.split("\n").length, 2, "one line, then the newline");
  assert.ok(long.stderr.length < 400, `${long.stderr.length} characters`);
  assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(long.stderr), "no control character reaches the agent");
  assert.equal(long.stdout, "");
  const hang = await searchWith(() => new Promise(() => {}), { commandTimeoutMs: 300 });
  assert.equal(hang.exitCode, 2);
  assert.match(hang.stderr, /^search: the embedding function failed: no answer within 300 ms \(commandTimeoutMs\)\n$/);
  const throwing = new Proxy([], { get() { throw new Error("trap"); } });
  const thenable = { get then() { throw new Error("then getter"); } };
  const huge = [{ length: 1e9 }];
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  for (const [what, value, message] of [
    ["a Proxy that throws", throwing, /trap/],
    ["a throwing then", thenable, /then getter/],
    ["a vector a billion long", huge, /more than 65536/],
    ["a revoked Proxy", revoked.proxy, /revoked|proxy/i],
    ["not an array", 42, /arrays of numbers/],
  ]) {
    const r = await searchWith(async () => value);
    assert.equal(r.exitCode, 2, `${what}: ${show(r)}`);
    assert.match(r.stderr, message, what);
  }
  const fine = await searchWith((t) => t.map(() => [1, 0]));
  assert.match(fine.stdout, /^\/a\.md:1-1/, "the process, and the module, go on working");
});

test("a collection written by another tool: hidden pages filtered here, lines read from the pages", async () => {
  await chroma(chromaUrl(), "DELETE", "/collections/ranked-other").catch(() => {});
  const { id } = await chroma(chromaUrl(), "POST", "/collections", { name: "ranked-other", get_or_create: true });
  const pages = { "a.md": ["intro\n", "the secret word is zephyr\n"], "hidden/b.md": ["zephyr zephyr zephyr\n"] };
  const records = Object.entries(pages).flatMap(([slug, chunks]) => chunks.map((text, i) => ({ id: `${slug}-${i}`, text, slug, i })));
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: records.map((r) => r.id), embeddings: records.map(() => [1, 0]), documents: records.map((r) => r.text),
    metadatas: records.map((r) => ({ page_slug: r.slug, chunk_index: r.i })),
  });
  const tree = { "a.md": { isPublic: true }, "hidden/b.md": { isPublic: false, groups: ["admin"] } };
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: ["__path_tree__"], embeddings: [[0, 0]], documents: [JSON.stringify(tree)], metadatas: [{ chromafs: "path-tree" }],
  });
  const front = await startProxy(cloud.url);
  try {
    const fs = await ChromaFs.connect({ url: front.url, collection: "ranked-other" });
    // The session has a hidden page and the chunks carry no access: it reads its scope.
    const hits = await fs.search("zephyr");
    assert.deepEqual(hits.map((h) => [h.path, h.startLine, h.endLine, h.snippet]), [["/a.md", 1, 2, "the secret word is zephyr"]]);
    for (const r of front.requests) assert.ok(!(r.body ?? "").includes("hidden/b.md"), `no request names a hidden page: ${r.body}`);
    const admin = await ChromaFs.connect({ url: front.url, collection: "ranked-other", groups: ["admin"] });
    assert.equal((await admin.search("zephyr"))[0].path, "/hidden/b.md");
  } finally {
    await front.close();
  }
  assertWithinQuotas(cloud);
});

test("on a collection another tool wrote, what a search costs does not depend on hidden text", async () => {
  const { writeOtherTool } = await import("../../../support/other-tool.mjs");
  const pub = [
    { path: "guides/keys.md", content: "# Keys\n\nTo rotate a key, open Settings.\n" },
    { path: "guides/other.md", content: "# Other\n\nNothing to see.\n" },
  ];
  const hidden = { path: "internal/rotation.md", content: Array.from({ length: 350 }, (_, i) => `rotate the key, step ${i}\n`).join("") };
  const entry = (f) => (f.path.startsWith("internal/") ? { isPublic: false, groups: ["admin"] } : { isPublic: true });
  await writeOtherTool(chromaUrl(), "ranked-cost-a", [...pub, { path: "internal/empty.md", content: "nothing\n" }], { chunkLength: () => 40, entry });
  await writeOtherTool(chromaUrl(), "ranked-cost-b", [...pub, hidden], { chunkLength: () => 40, entry });
  const front = await startProxy(cloud.url);
  try {
    const outcome = async (collection, extra) => {
      const fs = await ChromaFs.connect({ url: front.url, collection, ...extra });
      const bash = newBash(fs, { customCommands: fs.commands() });
      const before = front.requests.length;
      const r = await run(bash, "search rotate key");
      return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, requests: front.requests.length - before };
    };
    const [a, b] = [await outcome("ranked-cost-a"), await outcome("ranked-cost-b")];
    assert.deepEqual(a, b, "350 hidden chunks holding the words change nothing a public session sees or pays");
    assert.match(a.stdout, /^\/guides\/keys\.md:1-3\n/);
    const [a1, b1] = [await outcome("ranked-cost-a", { maxRequestsPerCommand: 1 }), await outcome("ranked-cost-b", { maxRequestsPerCommand: 1 })];
    assert.deepEqual(a1, b1, "nor what it prints under a budget of one request");
  } finally {
    await front.close();
  }
});

test("a failing Chroma is an error, never no results", async () => {
  const front = await startProxy(cloud.url);
  const fs = await ChromaFs.connect({ url: front.url, collection: "ranked" });
  const bash = newBash(fs, { customCommands: fs.commands() });
  front.state.failWhen = () => 500;
  const r = await run(bash, "search rotate key");
  assert.equal(r.exitCode, 2, show(r));
  assert.match(r.stderr, /^search: .*500/);
  await assert.rejects(fs.search("rotate"), (e) => e.code === "EIO");
  await front.close();
});

// Translations beside the original, as docs sites lay them out (/fr/, /ja/, /zh-cn/, /ko/),
// and a Japanese page only admins see: every question finds the page in its own language
// first through real Chroma's full-text filter (CJK pieces of three characters), `--lang`
// keeps to one language, and the hidden page never shows.
const TRANSLATED = {
  "guides/database.md": "# Database\n\nSet the database connection in astro.config.mjs.\n",
  "fr/guides/database.md": "# Base de données\n\nDéfinissez la connexion à la base de données dans astro.config.mjs.\n",
  "es/guides/database.md": "# Base de datos\n\nConfigura la conexión a la base de datos en astro.config.mjs.\n",
  "ja/guides/database.md": "# データベース\n\nデータベースの接続は astro.config.mjs で設定します。\n",
  "zh-cn/guides/database.md": "# 数据库\n\n在 astro.config.mjs 中配置数据库连接。\n",
  "ko/guides/database.md": "# 데이터베이스\n\n데이터베이스 연결은 astro.config.mjs 에서 설정합니다.\n",
  "ja/internal/keys.md": "# 秘密\n\nデータベースの接続の秘密の鍵。データベースの接続を設定する。\n",
};

test("a question finds the page in its own language first; --lang keeps to one", async () => {
  const files = Object.entries(TRANSLATED).map(([path, content]) => ({ path, content }));
  await ingest({ url: chromaUrl(), collection: "translated", files, access: { "ja/internal/**": { isPublic: false, groups: ["admin"] } } });
  const fs = await ChromaFs.connect({ url: cloud.url, collection: "translated" });
  const bash = newBash(fs, { customCommands: fs.commands() });
  for (const [q, first] of [
    ["データベースの接続を設定する方法", "/ja/guides/database.md"],
    ["如何配置数据库连接", "/zh-cn/guides/database.md"],
    ["데이터베이스 연결을 설정하려면", "/ko/guides/database.md"],
    ["Comment définir la connexion à la base de données ?", "/fr/guides/database.md"],
    ["¿Cómo configuro la conexion a la base de datos?", "/es/guides/database.md"],
    ["How do I set the database connection", "/guides/database.md"],
  ]) {
    const r = await run(bash, `search -l '${q}'`);
    assert.equal(r.exitCode, 0, show(r));
    assert.equal(r.stdout.split("\n")[0], first, `${q}\n${show(r)}`);
    assert.ok(!r.stdout.includes("/internal/"), show(r));
  }
  const scoped = await run(bash, "search -l --lang ja 'astro.config.mjs database'");
  assert.equal(scoped.stdout, "/ja/guides/database.md\n", show(scoped));
  const hits = await fs.search("astro.config.mjs", { lang: "zh-CN" });
  assert.deepEqual(hits.map((h) => h.path), ["/zh-cn/guides/database.md"]);
  await assert.rejects(fs.search("x", { lang: "elvish" }), /unknown language 'elvish'/);
  const bad = await run(bash, "search --lang elvish x");
  assert.equal(bad.exitCode, 2, show(bad));
  assertWithinQuotas(cloud);
});

test("an embedder of a class with private fields works as given, and its calls get the running command's signal, which stopping the command aborts", async () => {
  let seen;
  class Embedder {
    #model = "unit-vectors";
    get model() {
      return this.#model;
    }
    async embed(texts) {
      return texts.map(() => [1, 0, 0]);
    }
    embedQuery(texts, { signal } = {}) {
      seen = signal;
      return new Promise((resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted by the command"))));
    }
  }
  await ingest({ url: chromaUrl(), collection: "search-signal", files: [{ path: "a.md", content: "alpha beta\n" }], embed: new Embedder() });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "search-signal", embed: new Embedder() });
  assert.equal(fs.info().embedding.model, "unit-vectors", "read through its getter");
  const mark = fs.beginCommand({});
  const asked = fs.searchCommand(["alpha"], "/");
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(seen instanceof AbortSignal && !seen.aborted, "the question is asked with the command's signal");
  fs.abortCommand();
  const r = await asked;
  fs.endCommand(mark);
  assert.equal(seen.aborted, true);
  assert.equal(r.exitCode, 2);
  assert.match(r.stderr, /aborted by the command/);
});
