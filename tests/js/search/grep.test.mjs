// grep/egrep/fgrep/rg pushdown: output through fs.commands() is byte-identical to the real
// GNU grep and ripgrep over a copy of the visible files (or, for what chromafs hands to
// just-bash, to just-bash's own commands over an in-memory copy), on a line-aligned
// collection, on one chunked at arbitrary offsets, and with restricted groups; and a
// literal search costs one coarse query plus ⌈candidate chunks / 300⌉ prefetch requests.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { assertWithinQuotas, chromaUrl, cloudChroma, corpora, reference, rng, newBash, sameOutput as compare } from "../helpers.mjs";
import { collectionId, storedTree } from "../../../support/proxy.mjs";
import { writeOtherTool } from "../../../support/other-tool.mjs";

// These tests watch what each search costs: pages shared by the sessions of this process would
// answer in Chroma's place (the process tier is tested in process-tier.test.mjs).
ChromaFs.setProcessCacheBytes(0);

const ACCESS = { "es/**": { isPublic: false, groups: ["es"] }, "api/**": { isPublic: false, groups: ["admin"] } };
const visibleTo = (groups) => (p) => (p.startsWith("es/") ? groups.includes("es") : p.startsWith("api/") ? groups.includes("admin") : true);

const BATTERY = [
  "grep -r access_token /",
  "grep -rn access_token /",
  "grep -ri ACCESS_TOKEN /",
  "grep -rl Mintlify /guides",
  "grep -rli mintlify /ai /cli",
  "grep -rh 'mint dev' /cli",
  "grep -rc mint /cli",
  "grep -rL Mintlify /agent",
  "grep -rv a /snippets",
  "grep -rw mint /cli",
  "grep -rx '## Overview' /",
  "grep -rno 'https://[a-z.]*' /integrations",
  "grep -rm 1 API /api-playground",
  "grep -rn -A 2 'mint dev' /quickstart.mdx /cli",
  "grep -rn -B1 -C1 deprecated /guides",
  "grep -r -e mint -e npm /cli",
  "grep -r -e one -e npx /quickstart.mdx",
  "grep -rE 'v[0-9]+\\.[0-9]+\\.[0-9]+' /",
  "grep -rE 'colou?r|behaviou?r' /guides",
  "grep -rE '^import ' /snippets",
  "grep -r '^---$' /agent",
  "grep -r 'foo\\|bar' /",
  "grep -r 'a\\{3\\}' /guides",
  "grep -rP '\\bAPI\\b' /api-playground",
  "grep -rP '\\d{4}-\\d{2}-\\d{2}' /",
  "grep -rE '[[:upper:]]{5,}' /cli",
  "grep -rF '{{' /",
  "grep -rF '$ref' /",
  "grep -rF -i 'Node.js' /",
  "grep -r --include=*.json openapi /",
  "grep -r --exclude=*.mdx openapi /",
  "grep -r --exclude-dir=es Mintlify / | wc -l",
  "grep -r 配置 /zh",
  "grep -ri 'PÁGINA' /es",
  "grep -ri 'été' /fr",
  "grep -r needle-that-is-nowhere /",
  "grep -rq Mintlify /; echo rc=$?",
  "grep -rq needle-that-is-nowhere /; echo rc=$?",
  "grep -r Mintlify /nope /cli/index.mdx",
  "grep -r Mintlify /es/index.mdx",
  "grep -r '' /snippets | wc -l",
  "grep -r '[' /",
  "grep -rE '(' /",
  "grep -r -- -rf /",
  "grep Mintlify /index.mdx /quickstart.mdx",
  "grep -rn Mintlify . | head -5",
  "cd /guides && grep -rn Mintlify . | head -5",
  "cd /guides && grep -rl deprecated ../ai ..",
  "cd /cli && grep -r mint",
  "egrep -r 'mint (dev|update)' /cli",
  "fgrep -r 'mint.json' /",
  "fgrep -ri 'API KEY' /api-playground",
  "cat /quickstart.mdx | grep -n install",
  "grep -r -f /dev/null /cli; echo rc=$?",
  "rg access_token /",
  "rg -n 'mint dev' /cli",
  "rg -i deprecated /guides",
  "rg -l Mintlify /agent",
  "rg -c API /api-playground",
  "rg -F '$ref' /",
  "rg -w mint /cli",
  "cd /cli && rg mint",
  "rg --files-without-match Mintlify /agent",
  "rg -g '*.json' openapi /",
  "rg -g '!*.mdx' openapi /",
  "rg -t json openapi /",
  "rg -e mint -e npx /cli",
  "rg -S Mintlify /agent",
  "rg -s mintlify /agent",
  "rg mint /cli/index.mdx",
  "rg -n mint /cli/index.mdx /quickstart.mdx",
  "rg -l access_token",
  "cd /guides && rg -l deprecated",
  "rg --sort path -l Mintlify /ai",
  "rg -x '## Overview' /",
  "rg -o 'https://[a-z.]*' /integrations",
  "rg -w API /api-playground",
  "rg -v a /snippets",
  "rg -C1 'mint dev' /cli",
  "rg -m1 -n API /api-playground",
  "rg 'v[0-9]+\\.[0-9]+\\.[0-9]+' /es",
  "rg -F '{{' /",
  "rg -i 'página' /es",
  "rg needle-that-is-nowhere /; echo rc=$?",
  "rg -q Mintlify /; echo rc=$?",
  "rg '(' /",
  "rg --count-matches mint /cli",
  "rg --json mint /cli/index.mdx | wc -l",
];

function generated(files, count, seed) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const out = [];
  while (out.length < count) {
    const f = pick(files);
    const lines = f.content.toString("utf8").split("\n").filter((l) => l.trim().length > 8);
    if (!lines.length) continue;
    const line = pick(lines);
    const chars = [...line];
    const start = Math.floor(r() * Math.max(1, chars.length - 4));
    const lit = chars.slice(start, start + 3 + Math.floor(r() * 14)).join("");
    if (!lit.trim() || lit.includes("\\")) continue;
    const root = pick(["/", "/guides", "/es", "/zh", "/api", "/fr/guides", "."]);
    const flags = pick(["-r", "-rn", "-ri", "-rl", "-rc", "-rw", "-ro", "-rh", "-rin"]);
    switch (pick(["fixed", "bre", "ere", "regex"])) {
      case "fixed":
        out.push(`grep ${flags}F -- ${quote(lit)} ${root}`);
        break;
      case "bre":
        out.push(`grep ${flags} -- ${quote(lit.replace(/[\\.*[\]^$]/g, "\\$&"))} ${root}`);
        break;
      case "ere":
        out.push(`grep ${flags}E -- ${quote(lit.replace(/[\\.*[\]^$()|+?{}]/g, "\\$&"))} ${root}`);
        break;
      default: {
        // Replace a few characters with classes, wildcards and repetitions.
        const re = [...lit]
          .map((c) => (/[A-Za-z0-9]/.test(c) ? pick([c, c, c, ".", "[a-z]", `${c}*`, `${c}?`, "\\w"]) : c.replace(/[\\.*[\]^$()|+?{}]/, "\\$&")))
          .join("");
        out.push(`grep ${flags}E -- ${quote(re)} ${root}`);
      }
    }
  }
  return out;
}

/** Writes the corpus with chunks cut at arbitrary character offsets (not lines). */
async function ingestUnaligned(url, collection, files, seed) {
  const r = rng(seed);
  await writeOtherTool(url, collection, files, {
    chunkLength: () => 1 + Math.floor(r() * 900),
    entry: (f, chunks) => ({
      ...(visibleTo([])(f.path) ? { isPublic: true } : { isPublic: false, groups: ["es", "admin"] }),
      size: f.content.length,
      chunks,
    }),
  });
}

// Without the real corpus its tests are still registered, as skipped, so the summary counts them.
for (const corpus of corpora(test, "the grep pushdown battery")) describe(`grep pushdown (${corpus.name} corpus)`, () => {
  const { skip } = corpus;
  const ALIGNED = `grep-${corpus.name}`;
  const UNALIGNED = `grep-${corpus.name}-unaligned`;
  let files, cloud;
  before(async () => {
    if (skip) return;
    cloud = await cloudChroma();
    files = await corpus.load();
    await ingest({ url: cloud.url, collection: ALIGNED, files, access: ACCESS });
    await ingestUnaligned(chromaUrl(), UNALIGNED, files, 7);
  });

  // The last set prints through just-bash's own grep and rg (nativeCommands: false) after
  // the same pushdown.
  const sets = [[ALIGNED, [], true], [ALIGNED, ["es", "admin"], true], [UNALIGNED, [], true], [ALIGNED, [], false]];
  for (const [collection, groups, nativeCommands] of sets) {
    describe(`${collection}, groups [${groups}]${nativeCommands ? "" : ", nativeCommands: false"}`, () => {
      let ours, ref, fs;
      after(() => ref?.remove());
      before(async () => {
        if (skip) return;
        fs = await ChromaFs.connect({ url: cloud.url, collection, groups, nativeCommands });
        ours = newBash(fs, { customCommands: fs.commands() });
        ref = await reference(files.filter((f) => visibleTo(groups)(f.path)));
        ref.gnu?.prepare(BATTERY);
      });
      for (const cmd of BATTERY) test(cmd, { skip }, () => compare(ours, ref, cmd, fs));
      test("generated searches drawn from the corpus", { skip }, async () => {
        const seed = collection === UNALIGNED ? 11 : groups.length ? 23 : 5;
        const cmds = generated(files.filter((f) => visibleTo(groups)(f.path)), 40, seed);
        ref.gnu?.prepare(cmds);
        for (const cmd of cmds) await compare(ours, ref, cmd, fs);
      });
      test("most searches were narrowed, or found their pages in memory", { skip }, () => {
        const plans = fs.stats().commands.map((c) => c.plan);
        assert.ok(plans.filter((p) => p === "narrow" || p === "memory").length >= 15, plans.join(" "));
        if (!nativeCommands) assert.ok(fs.stats().commands.every((c) => !c.native), "none was answered in Rust");
      });
    });
  }

  test("restricted groups: no hidden text is searched or printed", { skip }, async () => {
    const fs = await ChromaFs.connect({ url: cloud.url, collection: ALIGNED, groups: [] });
    const bash = newBash(fs, { customCommands: fs.commands() });
    const hidden = files.filter((f) => !visibleTo([])(f.path));
    const visibleText = files.filter((f) => visibleTo([])(f.path)).map((f) => f.content.toString("utf8")).join("\n");
    const secret = hidden.flatMap((f) => f.content.toString("utf8").split("\n")).find((l) => l.length > 30 && !visibleText.includes(l.trim()));
    const r = await bash.exec(`grep -rF -- ${JSON.stringify(secret.trim().slice(0, 40))} / ; echo rc=$?`);
    assert.equal(r.stdout, "rc=1\n");
    assert.equal(fs.stats().commands.at(-1).candidates, 0);
  });

  test("round trips: a literal costs 1 coarse query + ⌈candidate chunks / 300⌉ loads; one that matches most of the scope loads it whole, and its repeat asks nothing", { skip }, async () => {
    // Chroma's own text filter, as on a collection without a grep index (the index: below).
    const grepIndex = false;
    const id = await collectionId(chromaUrl(), ALIGNED);
    const tree = await storedTree(chromaUrl(), id);
    const visible = files.filter((f) => visibleTo([])(f.path));
    const chunksOf = (pages) => pages.reduce((n, f) => n + tree[f.path].chunks, 0);
    await ChromaFs.connect({ url: cloud.url, collection: ALIGNED }); // the tree is warm from here on
    for (const [cmd, needle, ignoreCase] of [
      ["grep -r access_token /", "access_token", false],
      ["grep -ri deprecated /", "deprecated", true],
      ["grep -rl Mintlify /", "Mintlify", false],
    ]) {
      const fs = await ChromaFs.connect({ url: cloud.url, collection: ALIGNED, grepIndex });
      assert.equal(fs.stats().requests, 1, "connect checks the kept tree");
      const bash = newBash(fs, { customCommands: fs.commands() });
      const r = await bash.exec(cmd);
      const first = fs.stats().commands.at(-1);
      const has = (f) => (ignoreCase ? f.content.toString("utf8").toLowerCase().includes(needle) : f.content.toString("utf8").includes(needle));
      const pages = visible.filter(has);
      assert.equal(first.plan, "narrow");
      // Answered in Rust, the command reads its candidates as they load: it is their check.
      assert.ok(first.native, cmd);
      assert.equal(first.searched, first.candidates, cmd);
      if (cmd.includes("-rl")) assert.equal(r.stdout.split("\n").filter(Boolean).length, pages.length, cmd);
      if (chunksOf(pages) < 300) {
        assert.equal(first.candidates, pages.length, cmd);
        assert.equal(first.coarseRequests, 1, cmd);
        assert.equal(first.prefetchRequests, Math.ceil(chunksOf(pages) / 300), `${cmd}: ${JSON.stringify(first)}`);
      } else {
        // A full page of hits, and a hit at half the scope's chunks: loading the scope
        // whole is cheaper than listing every hit.
        assert.equal(first.note, "the pattern matches most of the scope: loaded whole and checked here");
        assert.equal(first.candidates, visible.length);
        assert.equal(first.coarseRequests, 2, cmd);
        assert.equal(first.prefetchRequests, Math.ceil(chunksOf(visible) / 300), `${cmd}: ${JSON.stringify(first)}`);
      }
      assert.equal(fs.stats().requests, 1 + first.coarseRequests + first.prefetchRequests);
      await bash.exec(cmd);
      const again = fs.stats().commands.at(-1);
      if (first.candidates === visible.length) {
        // The scope was loaded whole: the repeat is answered from memory.
        assert.deepEqual([again.plan, again.coarseRequests, again.prefetchRequests], ["memory", 0, 0], cmd);
      } else {
        // The session kept Chroma's answer to the same query, and the pages are in memory.
        assert.deepEqual([again.coarseRequests, again.prefetchRequests], [0, 0], cmd);
        assert.equal(again.candidates, first.candidates, cmd);
      }
    }
  });

  test("through the grep index: a case-insensitive or regex grep reads the index by id in one round, never Chroma's text filter, and prints the same", { skip }, async () => {
    const id = await collectionId(chromaUrl(), ALIGNED);
    const tree = await storedTree(chromaUrl(), id);
    const visible = files.filter((f) => visibleTo([])(f.path));
    const chunksOf = (pages) => pages.reduce((n, f) => n + tree[f.path].chunks, 0);
    for (const cmd of ["grep -rni access_token /", "grep -rliE 'oauth ?2|openid' /", "grep -rlw -e Deprecated -e sunset /", "rg -li webhook /"]) {
      const plain = await ChromaFs.connect({ url: cloud.url, collection: ALIGNED, grepIndex: false });
      const expected = await newBash(plain, { customCommands: plain.commands() }).exec(cmd);
      const fs = await ChromaFs.connect({ url: cloud.url, collection: ALIGNED });
      assert.deepEqual(fs.info().grepIndex, { used: true, why: null });
      const before = cloud.state.requests.length;
      const r = await newBash(fs, { customCommands: fs.commands() }).exec(cmd);
      assert.deepEqual([r.stdout, r.exitCode], [expected.stdout, expected.exitCode], cmd);
      const c = fs.stats().commands.at(-1);
      assert.equal(c.index, true, `${cmd}: ${JSON.stringify(c)}`);
      assert.ok(c.coarseRequests <= 1, `${cmd}: one round of reads by id: ${JSON.stringify(c)}`);
      const sent = cloud.state.requests.slice(before).map((q) => q.body ?? "");
      assert.ok(sent.every((b) => !b.includes("where_document")), `${cmd}: no text filter`);
      // Candidates are a few pages more than match at most, never fewer.
      assert.ok(c.candidates >= c.searched && c.candidates <= visible.length, cmd);
      assert.ok(chunksOf(visible) > 0);
    }
  });

  test("a collection another tool wrote: with maxWherePredicates a self-hosted Chroma reads the same pages in a fraction of the requests", { skip }, async () => {
    // Straight to Chroma, not through the quota proxy: Chroma Cloud would refuse the longer lists.
    const grep = async (extra) => {
      const fs = await ChromaFs.connect({ url: chromaUrl(), collection: UNALIGNED, ...extra });
      const before = fs.stats().requests;
      const r = await newBash(fs, { customCommands: fs.commands() }).exec("grep -rn Mintlify / | tail -3; grep -rc API / | tail -2");
      return { r, requests: fs.stats().requests - before, loaded: fs.stats().commands.map((c) => c.searched) };
    };
    const cloudSized = await grep({});
    const wide = await grep({ maxWherePredicates: 300 });
    assert.deepEqual([wide.r.stdout, wide.r.stderr, wide.r.exitCode], [cloudSized.r.stdout, cloudSized.r.stderr, cloudSized.r.exitCode]);
    assert.notEqual(wide.r.stdout, "");
    assert.deepEqual(wide.loaded, cloudSized.loaded, "the same pages searched");
    assert.ok(wide.requests * 2 < cloudSized.requests, `${wide.requests} requests with 300 predicates, ${cloudSized.requests} with 8`);
  });

  test("every request stayed within Chroma Cloud's quotas", { skip }, () => {
    assertWithinQuotas(cloud);
    cloud.close();
  });
});
