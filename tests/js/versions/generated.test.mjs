// Search by version on generated docs: three versions whose pages say different things on
// the same topics, pages of no version, and features only one version has. For every
// question and every version, `search --version V` answers with V's pages and those of no
// version only (through the library and the MCP search tool); a question only another
// version answers says which version's pages do.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ChromaFs } from "chromafs";
import { ROOT, chromaUrl, chromafsCli, rng, tempDir, writeTree } from "../helpers.mjs";

const COLLECTION = "versions-generated";
const VERSIONS = ["v1", "v2", "v3"];
// Each topic's words (in every version's page of it), and what each version says of it.
const TOPICS = {
  authentication: ["authenticate requests credentials", ["an api key in the header", "a bearer token from the login endpoint", "signed requests with a private key"]],
  pagination: ["paginate list results pages", ["offset and limit parameters", "a cursor returned with each page", "a continuation token in the link header"]],
  retries: ["retry failed requests backoff", ["retry three times", "exponential backoff with jitter", "the retry-after header of the answer"]],
  uploads: ["upload files attachments", ["a multipart form", "a presigned url", "resumable chunked transfers"]],
};
// Features one version alone has, and the question each answers.
const ONLY = {
  v1: ["soap.md", "# SOAP envelopes\nWrap each call in a SOAP envelope with a WSDL binding.\n", "wrap calls in a soap envelope wsdl"],
  v3: ["webhooks.md", "# Webhooks\nVerify webhook signatures with the endpoint signing secret.\n", "verify webhook signatures signing secret"],
};
const NONE = {
  "glossary.md": "# Glossary\nA credential proves who sends requests. A page is one part of a list.\n",
  "support.md": "# Support\nWrite to support with your account id.\n",
};

/** The docs: every topic in every version (filler words drawn from a seeded generator), features, and pages of no version. */
function generated(seed) {
  const random = rng(seed);
  const filler = ["note", "example", "default", "setting", "client", "server", "field", "value", "option", "limit"];
  const words = (n) => Array.from({ length: n }, () => filler[Math.floor(random() * filler.length)]).join(" ");
  const pages = { ...NONE };
  for (const [i, v] of VERSIONS.entries()) {
    for (const [topic, [common, said]] of Object.entries(TOPICS)) {
      pages[`${v}/${topic}.md`] = `# ${topic} in ${v}\nTo ${common} in ${v}, use ${said[i]}.\n${words(12)}\n`;
    }
  }
  for (const [v, [file, text]] of Object.entries(ONLY)) pages[`${v}/${file}`] = text;
  return pages;
}

/** Every question asked: each topic's, and each feature's. */
const QUESTIONS = [...Object.values(TOPICS).map(([common]) => `how do I ${common}`), ...Object.values(ONLY).map(([, , q]) => q)];
const SEED = 20261130;
const dir = tempDir("versions-generated");

before(async () => {
  await writeTree(dir, generated(SEED));
  const r = await chromafsCli("ingest", dir, "--url", chromaUrl(), "--collection", COLLECTION, "--version-folders");
  assert.equal(r.status, 0, r.stderr);
});

/** Whether a hit may answer a search of `version`: a page of it or of none. */
const inScope = (version) => (h) => h.version === undefined || h.version === version;
/** The version a question of one feature belongs to, else null (every version has the topic). */
const ownerOf = (q) => Object.entries(ONLY).find(([, [, , asked]]) => asked === q)?.[0] ?? null;

/** What every search of `version` for `q` must show, given its hits and the pages of other versions it names. */
function check(q, version, hits, others, where) {
  const label = `${where}: ${JSON.stringify(q)} in ${version} (seed ${SEED})`;
  assert.ok(hits.every(inScope(version)), `${label}: ${JSON.stringify(hits.map((h) => [h.path, h.version]))}`);
  const owner = ownerOf(q);
  if (owner === null) {
    const topic = Object.keys(TOPICS).find((t) => q.endsWith(TOPICS[t][0]));
    assert.ok(hits.some((h) => h.path === `/${version}/${topic}.md`), `${label}: the version's own page answers`);
    assert.equal(others, undefined, label);
  } else if (owner === version) {
    assert.equal(hits[0]?.path, `/${owner}/${ONLY[owner][0]}`, label);
    assert.equal(others, undefined, label);
  } else {
    assert.deepEqual(hits, [], `${label}: no page of ${version} answers`);
    assert.deepEqual(others?.map((h) => [h.path, h.version]), [[`/${owner}/${ONLY[owner][0]}`, owner]], `${label}: says which version does`);
  }
}

test("through the library, every question in every version keeps to that version's pages and those of none", async () => {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION });
  try {
    assert.deepEqual(fs.versions().versions, VERSIONS);
    for (const q of QUESTIONS) {
      for (const v of VERSIONS) {
        const hits = await fs.search(q, { version: v, k: 20 });
        check(q, v, [...hits], hits.otherVersions, "fs.search");
      }
      // Without a version, each version's pages may answer.
      const all = await fs.search(q, { k: 20 });
      const seen = new Set(all.map((h) => h.version));
      assert.ok(ownerOf(q) !== null || VERSIONS.every((v) => seen.has(v)), `${q}: ${[...seen]}`);
    }
  } finally {
    fs.free();
  }
});

test("through the MCP search tool, the same for every question and version", async () => {
  const client = new Client({ name: "test", version: "1" });
  const cli = path.join(ROOT, "pkg/bin/chromafs.mjs");
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--url", chromaUrl(), "--collection", COLLECTION], stderr: "pipe" }));
  try {
    for (const q of QUESTIONS) {
      for (const v of VERSIONS) {
        const r = await client.callTool({ name: "search", arguments: { query: q, version: v, k: 20 } });
        assert.equal(r.isError, false, JSON.stringify(r));
        const { results, otherVersions } = r.structuredContent;
        check(q, v, results, otherVersions, "the search tool");
        if (otherVersions) assert.match(r.content[0].text, new RegExp(`^No page of version ${v} answers this query\\.`));
      }
    }
  } finally {
    await client.close();
  }
});
