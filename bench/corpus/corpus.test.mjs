// The synthetic benchmark corpus: determinism, sizes, perturbation and access rules.
//   node --test bench/corpus/corpus.test.mjs
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_CORPUS, readCorpus, syntheticCorpus, visibleTo, writeCorpus } from "./corpus.mjs";

const present = existsSync(DEFAULT_CORPUS);
if (!present) console.error(`\n!!! ${DEFAULT_CORPUS} is missing: the synthetic-corpus tests are SKIPPED !!!\n`);
const needsCorpus = { skip: !present && "corpus missing" };

let base;
before(async () => {
  if (present) base = await readCorpus(DEFAULT_CORPUS);
});

const lines = (buf) => buf.toString("utf8").split("\n").length;
const hasHubSpot = (buf) => /\bHubSpot\b/.test(buf.toString("utf8"));
const privateShare = ({ files, access }) => files.filter((f) => !visibleTo(access, [])(f.path)).length / files.length;

/** Copy k's pages keyed by their path in the base corpus. */
function copy(files, k) {
  const prefix = `v${String(k).padStart(3, "0")}/`;
  return new Map(files.filter((f) => f.path.startsWith(prefix)).map((f) => [f.path.slice(prefix.length), f]));
}

test("the base corpus is read as sorted UTF-8 pages", needsCorpus, () => {
  assert.equal(base.length, 1142);
  assert.deepEqual(base.map((f) => f.path), base.map((f) => f.path).sort());
  assert.ok(base.every((f) => Buffer.isBuffer(f.content) && Number.isFinite(f.mtime) && !f.path.startsWith("/")));
});

test("the same inputs give byte-identical output", needsCorpus, () => {
  const a = syntheticCorpus(base, { pages: 2500, seed: 7 });
  const b = syntheticCorpus(base, { pages: 2500, seed: 7 });
  assert.equal(a.files.length, b.files.length);
  a.files.forEach((f, i) => {
    const g = b.files[i];
    assert.ok(f.path === g.path && f.mtime === g.mtime && f.content.equals(g.content), f.path);
  });
  assert.deepEqual(a.access, b.access);
  // Another seed perturbs differently.
  const c = syntheticCorpus(base, { pages: 2500, seed: 8 });
  assert.ok(c.files.some((f, i) => !f.content.equals(a.files[i].content)));
});

test("page counts are exact and paths unique", needsCorpus, () => {
  for (const [pages, tiny] of [[1500, false], [10000, true]]) {
    const { files } = syntheticCorpus(base, { pages, tiny });
    assert.equal(files.length, pages);
    assert.equal(new Set(files.map((f) => f.path)).size, pages);
    // The last copy is the partial one.
    const last = Math.ceil(pages / base.length);
    assert.equal(copy(files, last).size, pages - (last - 1) * base.length);
  }
});

test("tiny pages keep only their first lines", needsCorpus, () => {
  const { files } = syntheticCorpus(base, { pages: 10000, tiny: true });
  assert.ok(files.every((f) => lines(f.content) <= 4));
  assert.ok(files.reduce((n, f) => n + f.content.length, 0) < 5_000_000);
});

test("later copies differ from v001 but keep each page's lines", needsCorpus, () => {
  const { files } = syntheticCorpus(base, { pages: base.length * 3 });
  const first = copy(files, 1);
  for (const f of base) assert.ok(first.get(f.path).content.equals(f.content), `v001/${f.path} is verbatim`);
  for (const k of [2, 3]) {
    for (const [p, f] of copy(files, k)) {
      const orig = first.get(p).content;
      assert.equal(lines(f.content), lines(orig), `v00${k}/${p} line count`);
      if (/[A-Za-z]/.test(orig.toString("utf8"))) assert.ok(!f.content.equals(orig), `v00${k}/${p} differs`);
      assert.equal(Buffer.from(f.content.toString("utf8"), "utf8").equals(f.content), true);
    }
  }
  // OpenAPI specs stay parseable.
  for (const f of files.filter((x) => x.path.endsWith(".json"))) assert.doesNotThrow(() => JSON.parse(f.content), f.path);
});

test("HubSpot stays rare and Mintlify stays common in every copy", needsCorpus, () => {
  const { files } = syntheticCorpus(base, { pages: base.length * 3 });
  const inBase = base.filter((f) => hasHubSpot(f.content)).map((f) => f.path);
  assert.ok(inBase.length > 0 && inBase.length < 10);
  const mintlifyBase = base.filter((f) => f.content.includes("Mintlify")).length;
  for (const k of [1, 2, 3]) {
    const c = copy(files, k);
    assert.deepEqual([...c].filter(([, f]) => hasHubSpot(f.content)).map(([p]) => p), inBase, `copy ${k}`);
    assert.equal([...c.values()].filter((f) => f.content.includes("Mintlify")).length, mintlifyBase, `copy ${k}`);
  }
});

test("about privateFraction of the pages are private", needsCorpus, () => {
  for (const [pages, privateFraction, tiny] of [[1500, 0.05, false], [10000, 0.05, true], [10000, 0.2, true], [3000, 0, true]]) {
    const set = syntheticCorpus(base, { pages, privateFraction, tiny });
    const share = privateShare(set);
    assert.ok(Math.abs(share - privateFraction) <= 0.02, `${pages} pages, ${privateFraction}: ${share}`);
    for (const [glob, rule] of Object.entries(set.access)) {
      assert.ok(!glob.startsWith("/") && /^v\d{3}\//.test(glob), glob);
      assert.equal(rule.isPublic, false);
      assert.ok(rule.groups.length > 0);
    }
  }
});

test("private pages are visible to their groups", needsCorpus, () => {
  const { files, access } = syntheticCorpus(base, { pages: 5000, tiny: true });
  const all = [...new Set(Object.values(access).flatMap((r) => r.groups))];
  const everyone = visibleTo(access, all);
  assert.ok(files.every((f) => everyone(f.path)));
  // A language group sees its own language's hidden pages.
  const lang = Object.values(access).flatMap((r) => r.groups).find((g) => /^[a-z]{2}$/.test(g));
  assert.ok(lang, `a language group among the rules' groups: ${all}`);
  const hidden = files.filter((f) => !visibleTo(access, [])(f.path) && visibleTo(access, [lang])(f.path));
  assert.ok(hidden.length > 0 && hidden.every((f) => f.path.split("/")[1] === lang), `${lang}: ${hidden.slice(0, 3).map((f) => f.path)}`);
});

test("visibleTo: last matching rule wins, no rule means public", () => {
  const access = {
    "internal/**": { isPublic: false, groups: ["admin"] },
    "internal/billing/**": { isPublic: false, groups: ["billing"] },
    "internal/public/**": { isPublic: true },
    "drafts/*.md": { isPublic: false, groups: [] },
  };
  const anon = visibleTo(access, []);
  const admin = visibleTo(access, ["admin"]);
  const billing = visibleTo(access, ["billing", "other"]);
  assert.equal(anon("index.md"), true);
  assert.equal(anon("internal/a.md"), false);
  assert.equal(admin("internal/a.md"), true);
  assert.equal(admin("internal/billing/plans.md"), false);
  assert.equal(billing("internal/billing/plans.md"), true);
  assert.equal(billing("internal/a.md"), false);
  assert.equal(anon("internal/public/faq.md"), true);
  assert.equal(admin("drafts/x.md"), false);
  assert.equal(anon("drafts/sub/x.md"), true);
  assert.equal(anon("/internal/a.md"), false, "a leading slash is ignored");
});

test("visibleTo: glob semantics", () => {
  const only = (glob) => visibleTo({ [glob]: { isPublic: false, groups: ["g"] } }, []);
  const matches = (glob, p) => !only(glob)(p);
  assert.ok(matches("internal/**", "internal/a.md"));
  assert.ok(matches("internal/**", "internal/x/y/a.md"));
  assert.ok(!matches("internal/**", "internals/a.md"));
  assert.ok(!matches("internal/**", "internal"));
  assert.ok(matches("**/secret.md", "secret.md"), "** matches zero segments");
  assert.ok(matches("**/secret.md", "a/b/secret.md"));
  assert.ok(matches("docs/**/*.mdx", "docs/a.mdx"));
  assert.ok(matches("docs/**/*.mdx", "docs/x/y/a.mdx"));
  assert.ok(!matches("docs/**/*.mdx", "docs/x/y/a.md"));
  assert.ok(matches("*.json", "openapi.json"));
  assert.ok(!matches("*.json", "api/openapi.json"), "* stays within a segment");
  assert.ok(matches("api/*/v?.json", "api/specs/v2.json"));
  assert.ok(!matches("api/*/v?.json", "api/specs/v10.json"), "? is exactly one character");
  assert.ok(!matches("api/?/x.md", "api//x.md"));
  assert.ok(matches("ré?umé.md", "résumé.md"), "? is one code point");
  assert.ok(matches("**", "anything/at/all"));
  assert.ok(matches("a.b/[x]+.md", "a.b/[x]+.md"), "regex characters are literal");
  assert.ok(!matches("a.b/*.md", "axb/c.md"));
});

test("writeCorpus writes pages and mtimes", needsCorpus, async () => {
  const { files } = syntheticCorpus(base, { pages: 1200, tiny: true });
  const dir = await mkdtemp(path.join(tmpdir(), "synthetic-corpus-"));
  try {
    await writeCorpus(files, dir);
    for (const f of [files[0], files[1150], files.at(-1)]) {
      const full = path.join(dir, f.path);
      assert.ok((await readFile(full)).equals(f.content), f.path);
      assert.equal(Math.floor((await stat(full)).mtimeMs), f.mtime);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
