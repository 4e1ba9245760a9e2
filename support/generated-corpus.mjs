// A documentation set the repository makes itself, for the corpus-based test batteries on
// a clone that has no ../shared/corpus: the same layout the batteries walk (guides, an API
// reference, a CLI section, translations in Spanish, French and Chinese, OpenAPI JSON,
// snippets, integrations), generated word by word from a fixed seed, so every run and every
// machine gets the same bytes. It exercises what the real corpus does: pages of many chunks
// and lines longer than a chunk, CJK and accented text, front matter, code, URLs, version
// numbers and dates, an empty file, pages that differ in age, and many directories.
//   import { generatedCorpus } from "./generated-corpus.mjs";  // [{ path, content: Buffer, mtime }]

const EPOCH = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

/** mulberry32: tiny, fast and good enough to pick words; returns floats in [0, 1). */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const EN = (
  "the a to of and in for with your you is on this that can use from by when set page docs " +
  "configure settings project deploy build install update create add remove file folder theme navigation " +
  "component example guide reference request response token key access permission user team workspace " +
  "behaviour behavior colour color customize analytics search preview branch content section sidebar " +
  "endpoint parameter header authentication callback webhook schema field value default option version"
).split(" ");
const TERMS = ["Mintlify", "API", "SDK", "CLI", "JSON", "OpenAPI", "Node.js", "npm", "mint", "access_token", "api_key", "deprecated", "README"];
const ES = "la el de los las para con una configuración página documentación proyecto usuario acceso clave versión también más".split(" ");
const FR = "le la les des pour avec une configuration page documentation projet utilisateur accès clé version été déjà très".split(" ");
const ZH = "配置 文档 页面 项目 用户 访问 密钥 版本 导航 主题 部署 搜索 组件 示例 指南 参考".split(" ");

function writer(seed) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const words = (n, vocab = EN) =>
    Array.from({ length: n }, (_, i) => (i > 0 && r() < 0.06 ? pick(TERMS) : pick(vocab))).join(vocab === ZH ? "" : " ");
  const sentence = (vocab = EN) => {
    const s = words(int(5, 16), vocab);
    return vocab === ZH ? `${s}。` : `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = (vocab) => Array.from({ length: int(1, 4) }, () => sentence(vocab)).join(" ");
  const version = () => `v${int(0, 4)}.${int(0, 20)}.${int(0, 30)}`;
  const date = () => new Date(EPOCH + int(0, 700) * DAY).toISOString().slice(0, 10);
  /** A page of MDX: front matter, headings, paragraphs, lists, code, and now and then a long line. */
  const page = (title, { vocab = EN, sections = int(2, 6), long = false, extra = [] } = {}) => {
    const out = ["---", `title: "${title}"`, `description: "${sentence(vocab).replaceAll('"', "")}"`, "---", ""];
    out.push(sentence(vocab), "");
    for (let s = 0; s < sections; s++) {
      out.push(s === 0 ? "## Overview" : `## ${words(int(1, 3), vocab)}`, "");
      out.push(paragraph(vocab), "");
      const roll = r();
      if (roll < 0.3) out.push(...Array.from({ length: int(2, 5) }, () => `- ${sentence(vocab)}`), "");
      else if (roll < 0.5) out.push("```bash", `npm i -g mint`, `mint dev --port ${int(3000, 3999)}`, "```", "");
      else if (roll < 0.6) out.push(`Released ${version()} on ${date()}.`, "");
      else if (roll < 0.7) out.push(`<Card title="${words(2, vocab)}" href="/${words(1)}">{{ ${words(1)} }}</Card>`, "");
      if (long && s === 1) out.push(Array.from({ length: 120 }, () => sentence(vocab)).join(" "), "");
    }
    out.push(...extra);
    return out.join("\n") + "\n";
  };
  return { r, pick, int, words, sentence, paragraph, version, date, page };
}

/** The generated documentation set: about 560 pages, sorted by path. */
export function generatedCorpus(seed = 7) {
  const w = writer(seed);
  const files = [];
  const add = (path, content, age = w.int(0, 600)) => files.push({ path, content: Buffer.from(content), mtime: EPOCH + age * DAY });

  add("index.mdx", w.page("Introduction", { extra: ["Welcome to Mintlify.", "Run `mint dev` after you install the CLI with npm.", "Set the access_token header.", ""] }), 100);
  add("quickstart.mdx", w.page("Quickstart", { sections: 5, extra: ["1. Install: `npm i -g mint`", "2. Preview: `mint dev`", "3. Update: `mint update`", "One command is enough: npx mint dev", ""] }), 50);
  add("changelog.mdx", w.page("Changelog", { extra: Array.from({ length: 30 }, () => `- ${w.date()} ${w.version()}: ${w.sentence()}`) }), 10);
  add("empty.mdx", "", 5);
  add("docs.json", JSON.stringify({ name: "Acme", theme: "mint", navigation: { groups: Array.from({ length: 8 }, (_, i) => ({ group: `Group ${i}`, pages: [`guides/page-${i}`] })) } }, null, 2) + "\n", 30);
  const paths = {};
  for (let i = 0; i < 40; i++) {
    paths[`/v1/items/${w.words(1)}-${i}`] = { get: { summary: w.sentence(), deprecated: i % 7 === 0, responses: { 200: { description: w.sentence(), content: { "application/json": { schema: { $ref: `#/components/schemas/Item${i}` } } } } } } };
  }
  add("openapi.json", JSON.stringify({ openapi: "3.1.0", info: { title: "Acme API", version: "1.2.3" }, paths }, null, 2) + "\n", 40);

  for (let i = 0; i < 30; i++) {
    const extra = i % 4 === 0 ? ["This option is deprecated: use the new one. Mintlify keeps the old behaviour for now.", ""] : i % 5 === 0 ? ["aaa bbb foo bar", "Install it with npm.", ""] : [];
    add(`guides/page-${i}.mdx`, w.page(`Guide ${i}`, { long: i % 9 === 0, extra }));
  }
  for (let i = 0; i < 12; i++) {
    add(`api-playground/${w.words(1)}-${i}.mdx`, w.page(`Playground ${i}`, { extra: [i % 3 ? "Send your API KEY with every request." : "The API answers with JSON; see openapi.json.", ""] }));
  }
  add("api-playground/openapi-setup.json", JSON.stringify({ openapi: "3.0.0", servers: [{ url: "https://api.acme.dev" }], "x-ref": "$ref" }, null, 2) + "\n");
  for (const sub of ["", "tools/", "tools/advanced/", "prompts/"]) {
    for (let i = 0; i < 4; i++) {
      add(`agent/${sub}agent-${i}.mdx`, w.page(`Agent ${sub}${i}`, { extra: i % 2 ? ["Mintlify agent.", ""] : [] }));
    }
  }
  add("cli/index.mdx", w.page("CLI", { extra: ["Run `mint dev` to preview, `mint update` to update, `mint broken-links` to check.", "THE CLI NEEDS NODEJS 20 OR LATER.", "Install with npx or npm.", ""] }), 300);
  for (let i = 0; i < 8; i++) add(`cli/command-${i}.mdx`, w.page(`mint ${w.words(1)}`, { extra: [`mint ${w.words(1)} --help`, ""] }), i * 40);
  add("api/introduction.mdx", w.page("API introduction", { extra: ["Every request needs an access_token.", "The v1 endpoints are deprecated.", ""] }));
  for (let i = 0; i < 15; i++) add(`api/endpoints/endpoint-${i}.mdx`, w.page(`Endpoint ${i}`, { extra: i % 3 ? [] : ["Deprecated since v2.0.0.", ""] }));
  for (let i = 0; i < 10; i++) add(`ai/ai-${i}.mdx`, w.page(`AI ${i}`, { extra: i % 2 ? ["This feature is deprecated in Mintlify.", ""] : [] }));
  for (let i = 0; i < 10; i++) {
    add(`snippets/snippet-${i}.mdx`, [`import { ${w.words(1)} } from "@mintlify/components";`, "", "export const x = 1;", "", "---", "hello world", "", "to do it", ""].join("\n"));
  }
  for (let i = 0; i < 12; i++) {
    const host = ["docs.acme.dev", "github.com", "slack.com", "segment.io", "hubspot.com", "vercel.app"][i % 6];
    add(`integrations/integration-${i}.mdx`, w.page(`Integration ${i}`, { extra: [`See https://${host}/setup and https://www.${host}/docs.`, ""] }));
  }
  // Translations: Spanish, French, Chinese, each with guides and a CLI section.
  for (const [lang, vocab, special] of [
    ["es", ES, "Esta página explica la configuración."],
    ["fr", FR, "Cette page a été mise à jour cet été."],
    ["zh", ZH, "本页面介绍配置文档。"],
  ]) {
    add(`${lang}/index.mdx`, w.page(`${lang} index`, { vocab, extra: [special, `Versión ${w.version()} · Mintlify`, ""] }), 200);
    for (let i = 0; i < 25; i++) add(`${lang}/guides/guide-${i}.mdx`, w.page(`${lang} ${i}`, { vocab, long: i % 10 === 0, extra: i % 4 ? [] : [special, ""] }));
    for (let i = 0; i < 5; i++) add(`${lang}/cli/cli-${i}.mdx`, w.page(`${lang} cli ${i}`, { vocab, extra: ["mint dev", ""] }));
    for (let i = 0; i < 6; i++) add(`${lang}/page-${i}.mdx`, w.page(`${lang} page ${i}`, { vocab, extra: i === 0 ? [`access_token: ${w.version()}`, ""] : [] }));
  }
  // Many directories: a versioned reference, three levels deep.
  for (let v = 1; v <= 12; v++) {
    for (const area of ["auth", "billing", "content"]) {
      for (let i = 0; i < 8; i++) {
        add(`reference/v${v}/${area}/item-${i}.mdx`, w.page(`Reference v${v} ${area} ${i}`, { sections: w.int(1, 3), extra: v === 1 && i === 0 ? ["Dates: 2024-05-01, 2025-12-31.", ""] : [] }));
      }
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
